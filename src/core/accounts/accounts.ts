// Accounts and their keys. Raw keys exist only in the return value of createKey: the database
// keeps a sha256 hash (for lookup) and a short display prefix. Authentication hashes the
// presented key and compares the stored hash in constant time.
import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountRole, Database } from '../../db/schema.ts';
import { AppError } from '../errors.ts';
import { checkCap } from '../limits.ts';
import { newId, nowIso } from '../../lib/ids.ts';
import { SCOPES, READ_ONLY_SCOPES, type Scope, isScope, parseStoredScopes, storedScopes } from './scopes.ts';
import { checkGrant, grantIn, lockAccount } from '../billing/ledger.ts';
import type { Store } from '../../db/store.ts';

export const API_KEY_PREFIX = 'svc_api_live_';
export const MCP_KEY_PREFIX = 'svc_mcp_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type KeyKind = 'api' | 'mcp';
export type AccessSource = 'api' | 'mcp' | 'console' | 'cli';

export interface Principal {
  accountId: string;
  /** The key's id; for a console session, the signed-in user's id (rate limits and the activity log). */
  keyId: string;
  /** The key's display prefix; null for a console session. */
  keyPrefix: string | null;
  kind: KeyKind;
  scopes: Set<Scope>;
  /** Set when a signed-in console user acts, instead of a key (src/web/session.ts). */
  session?: { sessionId: string; userId: string; email: string; accountRole: AccountRole };
}

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function hashKey(raw: string): string {
  // One-shot hash: a third of createHash().update().digest()'s cost, on every request (bench:api).
  return hash('sha256', raw, 'hex');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createAccount(db: Kysely<Database>, email: string) {
  const normalized = normalizeEmail(email);
  if (!/^[^\s@]+@[^\s@]+$/.test(normalized)) throw new AppError('invalid_request', 'email is not a valid address');
  const account = { id: newId('acct'), email: normalized, status: 'active' as const, created_at: nowIso() };
  // The unique email decides: a create racing with another for the same email (two processes, or
  // one's pool) inserts nothing, instead of failing on the constraint (a 500), and gets the same
  // answer as one that comes after. ON CONFLICT leaves a caller's Postgres transaction usable.
  const res = await db.insertInto('accounts').values(account).onConflict((oc) => oc.column('email').doNothing()).executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 0) throw new AppError('invalid_request', `an account with email ${normalized} exists already`);
  return account;
}

/** The id of the account with this email (any case): not_found when there is none. */
export async function accountIdByEmail(db: Kysely<Database>, email: string): Promise<string> {
  const normalized = normalizeEmail(email);
  const row = await db.selectFrom('accounts').select('id').where('email', '=', normalized).executeTakeFirst();
  if (!row) throw new AppError('not_found', `no account with email ${normalized}`);
  return row.id;
}

export async function getAccount(db: Kysely<Database>, accountId: string) {
  const account = await db.selectFrom('accounts').select(['id', 'email', 'status', 'created_at']).where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new AppError('not_found', `account ${accountId} not found`);
  return account;
}

export async function setAccountStatus(db: Kysely<Database>, accountId: string, status: 'active' | 'suspended') {
  const res = await db.updateTable('accounts').set({ status }).where('id', '=', accountId).executeTakeFirst();
  await authChanged(db); // after the write: a lookup racing with it can re-cache the old status for one TTL at most
  if (Number(res.numUpdatedRows) === 0) throw new AppError('not_found', `account ${accountId} not found`);
}

export interface CreateKeyOptions {
  name?: string;
  kind?: KeyKind;
  readOnly?: boolean;
  scopes?: string[];
  /** Refuse (account_suspended) when the account is suspended: a user's own request, not the operator's. */
  activeOnly?: boolean;
}

/** A new key or MCP token of the account, with no cap (the operator's CLI, a new account's first key). */
export async function createKey(db: Kysely<Database>, accountId: string, opts: CreateKeyOptions = {}) {
  return issueKey(db, accountId, opts);
}

/**
 * createKey under a cap: refuses (409 limit_reached) when the account already has `maxActive`
 * unrevoked keys and tokens. The count and the insert run in one transaction that first locks the
 * account's row (as credit moves do), so two creates at the same instant, in one process or two,
 * cannot both see room for one more.
 */
export async function createCappedKey(store: Store, accountId: string, maxActive: number, opts: CreateKeyOptions = {}) {
  return store.db.transaction().execute(async (trx) => {
    await lockAccount(store, trx, accountId);
    return issueKey(trx, accountId, opts, maxActive);
  });
}

async function issueKey(db: Kysely<Database>, accountId: string, opts: CreateKeyOptions, maxActive?: number) {
  const account = await getAccount(db, accountId);
  if (opts.activeOnly && account.status === 'suspended') throw new AppError('account_suspended', 'The account is suspended: it cannot make keys.');
  let scopes: Scope[];
  if (opts.scopes && opts.scopes.length > 0) {
    const unknown = opts.scopes.filter((s) => !isScope(s));
    if (unknown.length) throw new AppError('invalid_request', `unknown scopes: ${unknown.join(', ')}`);
    scopes = [...new Set(opts.scopes as Scope[])];
  } else {
    scopes = opts.readOnly ? [...READ_ONLY_SCOPES] : [...SCOPES];
  }
  if (maxActive !== undefined) {
    const { n } = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    checkCap(n, maxActive, { holder: 'account', things: 'active API keys and MCP tokens', allows: 'this instance allows', advice: 'revoke one it no longer uses first.' });
  }
  const kind = opts.kind ?? 'api';
  const raw = (kind === 'mcp' ? MCP_KEY_PREFIX : API_KEY_PREFIX) + randomBase62(40);
  const row = {
    id: newId('key'),
    account_id: accountId,
    name: opts.name?.trim() || (kind === 'mcp' ? 'MCP token' : 'Default key'),
    kind,
    key_hash: hashKey(raw),
    key_prefix: raw.slice(0, API_KEY_PREFIX.length + 6),
    scopes: storedScopes(scopes),
    created_at: nowIso(),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { key_id: row.id, api_key: raw, scopes, kind, key_prefix: row.key_prefix, name: row.name };
}

export async function revokeKey(db: Kysely<Database>, keyId: string) {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso() })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  await authChanged(db); // after the write: a lookup racing with it can re-cache the key for one TTL at most
  if (Number(res.numUpdatedRows) === 0) {
    const exists = await db.selectFrom('api_keys').select('id').where('id', '=', keyId).executeTakeFirst();
    if (!exists) throw new AppError('not_found', `key ${keyId} not found`);
  }
}

/**
 * Principals by key hash for AUTH_CACHE_TTL_MS, per database: without it every authenticated
 * request paid a join query (bench:api). Only successful lookups are kept. Revoking a key or
 * suspending an account through this module clears the cache at once. Other processes on the
 * same database: on Postgres the change is announced (shareAuthChanges: NOTIFY, and every
 * process LISTENs and clears its cache), so it takes effect there at once too; on SQLite, within
 * the TTL.
 */
export const AUTH_CACHE_TTL_MS = 2_000;
const AUTH_CACHE_MAX = 10_000;
const authCache = new WeakMap<object, Map<string, { principal: Principal; until: number }>>();
const authAnnouncers = new WeakMap<object, () => Promise<void>>();

/** Forgets every cached principal of a database (another process announced a change). */
export function clearAuthCache(db: Kysely<Database>): void {
  authCache.delete(db);
}

/** How this process tells the others on `db` that keys or accounts changed (the composition root sets it). */
export function shareAuthChanges(db: Kysely<Database>, announce: () => Promise<void>): void {
  authAnnouncers.set(db, announce);
}

async function authChanged(db: Kysely<Database>): Promise<void> {
  authCache.delete(db);
  // A failed announcement leaves the other processes on the TTL; the change itself is written.
  await authAnnouncers.get(db)?.().catch(() => {});
}

/** Throws 401 for a token that cannot be a key of this surface, before any lookup. */
function checkTokenShape(raw: string | undefined, surface: 'api' | 'mcp'): asserts raw is string {
  if (!raw) throw new AppError('unauthorized', 'Missing bearer API key.');
  const expectedPrefix = surface === 'api' ? API_KEY_PREFIX : MCP_KEY_PREFIX;
  if (surface === 'api' && raw.startsWith(MCP_KEY_PREFIX)) throw new AppError('mcp_token_not_allowed');
  if (surface === 'mcp' && raw.startsWith(API_KEY_PREFIX)) throw new AppError('api_key_not_allowed');
  if (!raw.startsWith(expectedPrefix) || raw.length < expectedPrefix.length + 32 || raw.length > 256) {
    throw new AppError('unauthorized', 'Invalid API key.');
  }
}

function fromCache(db: Kysely<Database>, digest: string): Principal | undefined {
  const cached = authCache.get(db)?.get(digest);
  return cached && cached.until > Date.now() ? cached.principal : undefined;
}

/**
 * The synchronous fast path of `authenticate`: the principal when this token was verified within
 * the cache TTL, undefined otherwise (including every invalid token: `authenticate` then answers
 * with the precise error). Lets the request hook skip a promise per request (bench:api).
 * `digestOf` may stand in for `hashKey` with a memo of its results (the HTTP layer keeps one per
 * connection); it must return exactly what `hashKey` would.
 */
export function authenticateCached(
  db: Kysely<Database>,
  raw: string | undefined,
  surface: 'api' | 'mcp',
  digestOf: (raw: string) => string = hashKey,
): Principal | undefined {
  try {
    checkTokenShape(raw, surface);
  } catch {
    return undefined;
  }
  return fromCache(db, digestOf(raw));
}

/**
 * Resolves a bearer token to a principal, or throws 401/403. `surface` says which endpoint
 * family is asking: MCP tokens are refused by the HTTP API and API keys by the MCP endpoint.
 */
export async function authenticate(db: Kysely<Database>, raw: string | undefined, surface: 'api' | 'mcp'): Promise<Principal> {
  checkTokenShape(raw, surface);
  const digest = hashKey(raw);
  const cached = fromCache(db, digest);
  if (cached) return cached;
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.key_hash',
      'api_keys.key_prefix',
      'api_keys.kind',
      'api_keys.scopes',
      'api_keys.revoked_at',
      'accounts.id as account_id',
      'accounts.status',
    ])
    .where('api_keys.key_hash', '=', digest)
    .executeTakeFirst();
  // The lookup is by hash (an index, not a secret comparison); the constant-time compare guards
  // against any future change that looks keys up by a weaker index such as the prefix.
  if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(digest, 'hex'))) {
    throw new AppError('unauthorized', 'Invalid API key.');
  }
  if (row.revoked_at) throw new AppError('unauthorized', 'This API key has been revoked.');
  if (row.status === 'suspended') throw new AppError('account_suspended');
  const principal: Principal = {
    accountId: row.account_id,
    keyId: row.key_id,
    keyPrefix: row.key_prefix,
    kind: row.kind,
    scopes: new Set(parseStoredScopes(row.scopes)),
  };
  let cache = authCache.get(db);
  if (!cache) authCache.set(db, (cache = new Map()));
  if (cache.size >= AUTH_CACHE_MAX) cache.clear();
  cache.set(digest, { principal, until: Date.now() + AUTH_CACHE_TTL_MS });
  return principal;
}

/** Records key use at most once a minute per key, so reads stay read-mostly. */
const lastTouched = new Map<string, number>();
export function touchKey(db: Kysely<Database>, keyId: string): Promise<void> | undefined {
  const now = Date.now();
  if ((lastTouched.get(keyId) ?? 0) > now - 60_000) return undefined; // no promise on the hot path
  lastTouched.set(keyId, now);
  return db
    .updateTable('api_keys')
    .set({ last_used_at: new Date(now).toISOString() })
    .where('id', '=', keyId)
    .execute()
    .then(() => undefined);
}

/**
 * 403 missing_scope: says which scope is needed, which ones the key has (`granted_scopes`), and
 * that another key is the way on, so an agent stops retrying and asks for one.
 */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.has(scope)) {
    const granted = [...principal.scopes];
    const what = principal.kind === 'mcp' ? 'MCP token' : 'API key';
    throw new AppError(
      'missing_scope',
      `This endpoint requires the scope ${scope}; this ${what} has ${granted.length ? granted.join(', ') : 'no scope'}. Retrying will not help: use an ${what} with ${scope} (the account's owner makes one on the console's API keys page).`,
      { required_scope: scope, granted_scopes: granted },
    );
  }
}

/**
 * A new account with its default key and, when `credits` (hundredths) is above 0, an operator
 * grant: all in one transaction, so a failure leaves nothing behind and a retry works.
 */
export async function openAccount(store: Store, email: string, credits = 0, opts: { source?: string } = {}) {
  if (credits > 0) checkGrant(credits);
  return store.db.transaction().execute(async (trx) => {
    const account = await createAccount(trx, email);
    const key = await createKey(trx, account.id, { name: 'Default key' });
    const available = credits > 0 ? (await grantIn(trx, account.id, credits, { source: opts.source })).balance.available : 0;
    return { account, key, available };
  });
}
