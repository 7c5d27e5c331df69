import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { listVisibilityRuns, RUN_STATUSES } from '../../../core/visibility/read.ts';
import { actionContext } from '../../plugins/auth.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../../schemas.ts';
import { CompactRun } from './get-run.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs',
  summary: 'List visibility runs, newest first, with cursor pagination',
  tags: ['visibility'],
  action: 'visibility.runs.list',
  scope: 'runs:read',
  querystring: z.object({
    limit: clampedInt(20, 1, 100),
    starting_after: z.string().max(INPUT_LIMITS.id).optional(),
    status: filterParam(RUN_STATUSES),
  }),
  response: z.object({ object: z.literal('list'), runs: z.array(CompactRun), has_more: z.boolean(), next_starting_after: z.string().nullable() }),
  errors: [400, 422],
  handler: async ({ query, request }, core) =>
    listVisibilityRuns(core.store, actionContext(request).accountId, { limit: query.limit, startingAfter: query.starting_after, status: filterValue('status', query.status, RUN_STATUSES) }),
});
