// An account's keys as the console's API section lists them (never the secret: only its prefix),
// and revocation limited to the account's own keys.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../errors.ts';
import { toApiTime } from '../../lib/ids.ts';
import { revokeKey } from './accounts.ts';
import { SCOPES, parseStoredScopes, storedScopes } from './scopes.ts';

export async function listKeys(db: Kysely<Database>, accountId: string) {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'kind', 'key_prefix', 'scopes', 'created_at', 'last_used_at', 'revoked_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    key_id: r.id,
    name: r.name,
    kind: r.kind,
    key_prefix: r.key_prefix,
    scopes: parseStoredScopes(r.scopes) as string[],
    created_at: toApiTime(r.created_at),
    last_used_at: toApiTime(r.last_used_at),
    revoked_at: toApiTime(r.revoked_at),
  }));
}

/** Revokes one of the account's keys; another account's key is "not found", as in every read. */
export async function revokeAccountKey(db: Kysely<Database>, accountId: string, keyId: string): Promise<void> {
  const row = await db.selectFrom('api_keys').select('id').where('id', '=', keyId).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `key ${keyId} not found`);
  await revokeKey(db, keyId);
}

/**
 * Who a tracked test's schedule acts as (tests.key_id): the API key that set it, or — when it was
 * set from the console, where a signed-in user acts without a key (their user id stands in) — that
 * user, who holds every scope. Undefined when neither exists any more.
 */
export async function scheduleActor(db: Kysely<Database>, id: string): Promise<{ id: string; key_prefix: string | null; scopes: string; revoked_at: string | null } | undefined> {
  if (id.startsWith('usr_')) {
    const user = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
    return user && { id: user.id, key_prefix: null, scopes: storedScopes(SCOPES), revoked_at: null };
  }
  return db.selectFrom('api_keys').select(['id', 'key_prefix', 'scopes', 'revoked_at']).where('id', '=', id).executeTakeFirst();
}
