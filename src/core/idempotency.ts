// Idempotent run creation, shared by both run kinds, as Stripe does it: the same account, access
// source and idempotency_key return the existing run, provided the request is the same (a
// fingerprint of its body is kept with the run; another body under a used key is 422
// idempotency_key_reused) and the key has not expired (SIGHTLINE_IDEMPOTENCY_TTL_SECONDS, 24 h by
// default, counted from the run's creation). A unique constraint decides concurrent races; the
// loser sees a unique violation and reads the winner's run. An expired key is released (set to
// null on its old run) inside the transaction that creates the new run, so the constraint only
// ever holds live keys that were reused.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { ActionContext } from './billing/actions.ts';
import { AppError } from './errors.ts';
import type { Executor, Store } from '../db/store.ts';

type RunTable = 'visibility_runs' | 'ci_runs';

/** How long a key is remembered; createCore sets it from SIGHTLINE_IDEMPOTENCY_TTL_SECONDS. */
export const idempotencyPolicy = { ttlMs: 24 * 60 * 60 * 1000 };

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** JSON with object keys sorted and null/undefined members dropped: equal requests, equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined && v !== null) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/** sha256 of the create request without its idempotency_key (what "the same request" means). */
export function requestFingerprint(input: object): string {
  const { idempotency_key: _key, ...rest } = input as Record<string, unknown>;
  return createHash('sha256').update(JSON.stringify(canonical(rest))).digest('hex');
}

const cutoff = () => new Date(Date.now() - idempotencyPolicy.ttlMs).toISOString();

/**
 * The run a live key names, to replay: undefined when the key is unused or expired; 422
 * idempotency_key_reused when it names a run created from another request (runs from before
 * fingerprints were kept match any request).
 */
export async function runForIdempotencyKey(
  store: Store,
  table: RunTable,
  ctx: ActionContext,
  key: string,
  fingerprint: string,
): Promise<{ id: string } | undefined> {
  const row = await store.db
    .selectFrom(table)
    .select(['id', 'created_at', 'idempotency_fingerprint'])
    .where('account_id', '=', ctx.accountId)
    .where('source', '=', ctx.source)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (!row || row.created_at < cutoff()) return undefined;
  if (row.idempotency_fingerprint !== null && row.idempotency_fingerprint !== fingerprint) {
    throw new AppError('idempotency_key_reused', undefined, { idempotency_key: key, run_id: row.id });
  }
  return { id: row.id };
}

/** Frees an expired key for a new run (in the creating transaction): its old run forgets it. */
export async function releaseExpiredIdempotencyKey(trx: Executor, table: RunTable, ctx: ActionContext, key: string): Promise<void> {
  await sql`
    update ${sql.table(table)} set idempotency_key = null
     where account_id = ${ctx.accountId} and source = ${ctx.source} and idempotency_key = ${key} and created_at < ${cutoff()}`.execute(trx);
}
