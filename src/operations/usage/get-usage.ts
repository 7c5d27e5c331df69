import { z } from 'zod';
import { getUsage } from '../../core/reports/usage.ts';
import { clampedInt, defineRoute } from '../define.ts';

const Query = z.object({ recent_limit: clampedInt(20, 1, 100) });
const Response = z
  .object({
    credits: z.object({
      available_credit_units: z.string(),
      reserved_credit_units: z.string(),
      used_credit_units: z.string(),
      granted_credit_units: z.string(),
      active_grant_count: z.number().int(),
    }),
    recent: z.array(z.object({ time: z.string(), source: z.string(), action: z.string(), credits: z.string(), status: z.string(), run_id: z.string().optional() }).passthrough()),
  })
  .describe('Credit balance and the recent credit ledger, newest first');

export default defineRoute({
  method: 'GET',
  url: '/v1/usage',
  summary: 'Credit balance and usage telemetry',
  tags: ['usage'],
  action: 'usage.read',
  scope: 'runs:read',
  querystring: Query,
  response: Response,
  errors: [422],
  run: (a, ctx, core) =>
    getUsage(core.store, ctx.accountId, a.recent_limit),
  cli: { command: 'usage', description: 'credit balance and recent credit movements' },
  tool: {
    name: 'get_usage',
    title: 'Credit balance and ledger',
    description:
      'Credit balance (available, reserved, used) and the recent credit ledger (recent_limit 1..100, default 20; out of range is clamped).',
  },
});
