import { z } from 'zod';
import { ACTIVITY_KINDS } from '../../../core/reports/activity.ts';
import { actionContext } from '../../plugins/auth.ts';
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
  handler: async ({ query, request }, core) => ({
    items: await core.activity.list(actionContext(request).accountId, query.limit, filterValue('kind', query.kind, ACTIVITY_KINDS) ?? 'all'),
  }),
});
