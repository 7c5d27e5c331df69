import { z } from 'zod';
import { ACTIVITY_KINDS } from '../../../core/reports/activity.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../../schemas.ts';

const Query = z.object({ limit: clampedInt(20, 1, 100), kind: filterParam(ACTIVITY_KINDS) });
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
  request_id: z.string(),
});

export default defineRoute({
  method: 'GET',
  url: '/v1/activity',
  summary: 'Recent request activity, newest first',
  tags: ['usage'],
  action: 'activity.read',
  scope: 'runs:read',
  querystring: Query,
  response: z.object({ items: z.array(Item) }),
  errors: [400, 422],
  run: async (a, ctx, core) => ({
    items: await core.activity.list(ctx.accountId, a.limit, filterValue('kind', a.kind, ACTIVITY_KINDS) ?? 'all'),
  }),
  tool: {
    name: 'list_activity',
    title: 'Recent activity',
    description:
      'Recent requests of this account over every surface (API, MCP, console), newest first (limit 1..100, default 20, clamped); kind filters by action family.',
  },
});
