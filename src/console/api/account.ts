// The console's account page: the ledger (grants, charges, open reservations) with its filters.
// Balance, usage and the activity log come from the public API (/v1/usage, /v1/activity).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { listLedger } from '../../core/billing/ledger-list.ts';
import { userOf, type ConsoleContext } from '../routes.ts';

const LedgerQuery = z.object({
  kind: z.enum(['all', 'grant', 'charge', 'reserved']).default('all'),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  before: z.string().max(40).optional(),
});

export function registerAccountRoutes(api: FastifyInstance, { core }: ConsoleContext) {
  api.get('/console/api/ledger', { schema: { hide: true, querystring: LedgerQuery }, config: { console: { access: 'user', action: 'ledger.list' } } }, async (request) => {
    const q = request.query as z.infer<typeof LedgerQuery>;
    return listLedger(core.store.db, userOf(request).accountId, { kind: q.kind === 'all' ? undefined : q.kind, limit: q.limit, before: q.before });
  });
}
