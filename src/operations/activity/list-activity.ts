import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { ACTIVITY_KINDS } from '../../core/reports/activity.ts';
import { clampedInt, defineRoute, filterParam, filterValue, readActions } from '../define.ts';

const Query = z.object({
  limit: clampedInt(20, 1, 100),
  kind: filterParam(ACTIVITY_KINDS),
  starting_after: z.string().max(INPUT_LIMITS.id).optional().describe('Cursor: the next_starting_after of the previous page (an activity id). One older than the server keeps activity (SIGHTLINE_RETAIN_ACTIVITY_DAYS) is still accepted after its row was removed: the page holds what is older still, usually nothing'),
});
const Item = z.object({
  id: z.string(),
  created_at: z.string(),
  source: z.string(),
  action: z.string(),
  method: z.string(),
  path: z.string(),
  http_status: z.number().int(),
  status: z.string(),
  credits: z.string(),
  key_prefix: z.string().nullable(),
  user_id: z.string().nullable().describe('The console user the request acted as (signed in without a key, or a schedule set from the console); null for a key'),
  user_email: z.string().nullable().describe("That user's email, kept after they are removed from the account; null for a key (and for a person removed before migration 0028, which started keeping it)"),
  request_id: z.string(),
});

export default defineRoute({
  method: 'GET',
  url: '/v1/activity',
  summary: 'Recent request activity, newest first, with cursor pagination',
  tags: ['usage'],
  action: 'activity.read',
  scope: 'runs:read',
  querystring: Query,
  response: z.object({ items: z.array(Item), has_more: z.boolean(), next_starting_after: z.string().nullable().describe('Pass as starting_after for the next page; null on the last') }),
  errors: [400, 422],
  run: (a, ctx, core) => core.activity.list(ctx.accountId, { limit: a.limit, kind: filterValue('kind', a.kind, ACTIVITY_KINDS) ?? 'all', startingAfter: a.starting_after, readActions: readActions(), retainDays: core.config.SIGHTLINE_RETAIN_ACTIVITY_DAYS }),
  cli: { command: 'activity', description: 'recent requests of this account over every surface, newest first' },
  tool: {
    name: 'list_activity',
    title: 'Recent activity',
    description:
      'Recent requests of this account over every surface (API, MCP, console), newest first (limit 1..100, default 20, clamped); kind filters by action family; pass next_starting_after as starting_after for the next page.',
  },
});
