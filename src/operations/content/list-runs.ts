// GET /v1/content-intelligence/runs: the account's Content Intelligence runs, newest first, with
// cursor pagination (limit 1..100 clamped, default 20; starting_after is a run id).
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { CI_STATUSES } from '../../core/content/runs.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';
import { CiRun } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/content-intelligence/runs',
  summary: 'List Content Intelligence runs, newest first, with cursor pagination',
  tags: ['content_intelligence'],
  action: 'content_intelligence.runs.list',
  scope: 'runs:read',
  querystring: z.object({
    limit: clampedInt(20, 1, 100),
    starting_after: z.string().max(INPUT_LIMITS.id).optional().describe('Cursor: the next_starting_after of the previous page (a run id)'),
    status: filterParam(CI_STATUSES),
  }),
  response: z.object({ object: z.literal('list'), runs: z.array(CiRun), has_more: z.boolean(), next_starting_after: z.string().nullable() }),
  errors: [400, 422],
  run: (a, ctx, core) =>
    core.content.listRuns(ctx.accountId, { limit: a.limit, startingAfter: a.starting_after, status: filterValue('status', a.status, CI_STATUSES) }),
  cli: { command: 'ci list', description: 'Content Intelligence runs, newest first' },
  tool: {
    name: 'list_content_intelligence_runs',
    title: 'List Content Intelligence runs',
    description:
      'Content Intelligence runs, newest first (limit 1..100, default 20, clamped); pass next_starting_after as starting_after for the next page.',
  },
});
