import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { listVisibilityRuns, RUN_STATUSES } from '../../core/visibility/read.ts';
import { clampedInt, defineRoute, filterParam, filterValue, looseAnswer } from '../define.ts';
import { RunList } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs',
  summary: 'List visibility runs, newest first, with cursor pagination',
  tags: ['visibility'],
  action: 'visibility.runs.list',
  scope: 'runs:read',
  querystring: z.object({
    limit: clampedInt(20, 1, 100),
    starting_after: z.string().max(INPUT_LIMITS.id).optional().describe('Cursor: the next_starting_after of the previous page (a run id)'),
    status: filterParam(RUN_STATUSES),
  }),
  response: RunList,
  errors: [400, 422],
  run: (a, ctx, core) =>
    looseAnswer(listVisibilityRuns(core.store, ctx.accountId, { limit: a.limit, startingAfter: a.starting_after, status: filterValue('status', a.status, RUN_STATUSES) })),
  cli: { command: 'visibility list', description: 'runs, newest first' },
  tool: {
    name: 'list_visibility_runs',
    title: 'List visibility runs',
    description:
      'Visibility runs, newest first (limit 1..100, default 20, clamped); pass next_starting_after as starting_after for the next page.',
  },
});
