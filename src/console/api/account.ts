// The console's account endpoints: the balance the header, the new-run form and the account page
// show, and the ledger (grants, charges, open reservations) with its filters. The activity log
// comes from the public API (/v1/activity).
// The one thing to know: the balance is read here, not through GET /v1/usage, because the console
// re-reads it in the background (every page, after every change, when the tab regains focus) and
// a console GET is not an activity row; /v1/usage records `usage.read` for every caller.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { listLedger } from '../../core/billing/ledger-list.ts';
import { getUsage } from '../../core/reports/usage.ts';
import { userOf, type ConsoleContext } from '../context.ts';

const LedgerQuery = z.object({
  kind: z.enum(['all', 'grant', 'charge', 'reserved']).default('all'),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  before: z.string().max(40).optional(),
});

export function registerAccountRoutes(api: FastifyInstance, { core }: ConsoleContext) {
  /** The signed-in user's balance: the `credits` block of GET /v1/usage, without the recent ledger. */
  api.get('/console/api/balance', { schema: { hide: true }, config: { console: { access: 'user', action: 'balance.read' } } }, async (request) => {
    const usage = await getUsage(core.store, userOf(request).accountId, 1);
    return { credits: usage.credits };
  });

  api.get('/console/api/ledger', { schema: { hide: true, querystring: LedgerQuery }, config: { console: { access: 'user', action: 'ledger.list' } } }, async (request) => {
    const q = request.query as z.infer<typeof LedgerQuery>;
    return listLedger(core.store.db, userOf(request).accountId, { kind: q.kind === 'all' ? undefined : q.kind, limit: q.limit, before: q.before });
  });
}
