// The ledger as the console's account page pages through it: grants, charges and open
// reservations, newest first, rendered like GET /v1/usage's `recent` rows.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { renderLedgerRow } from './ledger.ts';

export interface LedgerFilter {
  /** grants, charges, or only charges with credits still reserved. */
  kind?: 'grant' | 'charge' | 'reserved';
  limit: number;
  /** Ledger entry id to continue after (older entries). */
  before?: string;
}

export async function listLedger(db: Kysely<Database>, accountId: string, f: LedgerFilter) {
  let q = db.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId);
  if (f.kind === 'grant' || f.kind === 'charge') q = q.where('kind', '=', f.kind);
  if (f.kind === 'reserved') q = q.where('kind', '=', 'charge').where(sql<boolean>`amount - settled_amount - released_amount > 0`);
  if (f.before) q = q.where('id', '<', f.before);
  const rows = await q.orderBy('id', 'desc').limit(f.limit + 1).execute();
  const page = rows.slice(0, f.limit);
  return { entries: page.map(renderLedgerRow), has_more: rows.length > f.limit, next_before: rows.length > f.limit ? page[page.length - 1]!.id : null };
}
