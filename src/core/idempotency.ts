// Idempotent run creation, shared by both run kinds: the same account, access source and
// idempotency_key return the existing run. A unique constraint decides concurrent races; the
// loser sees a unique violation, and reads the winner's run with findRunByIdempotencyKey.
import type { ActionContext } from './billing/actions.ts';
import type { Store } from './store.ts';

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

export async function findRunByIdempotencyKey(
  store: Store,
  table: 'visibility_runs' | 'ci_runs',
  ctx: ActionContext,
  key: string,
): Promise<{ id: string } | undefined> {
  return store.db
    .selectFrom(table)
    .select('id')
    .where('account_id', '=', ctx.accountId)
    .where('source', '=', ctx.source)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}
