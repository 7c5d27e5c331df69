// Console sessions, kept server-side: the browser's cookie holds a random token, the database its
// sha256, so a session is revoked by one row update (sign-out, sign-out everywhere, a password
// reset) and a leaked database holds no usable cookie. Each session carries its own CSRF token,
// which the console sends back in a header on every state-changing request.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId, nowIso } from '../../lib/ids.ts';
import { hashKey } from './accounts.ts';

/** Longest a session lives, and longest it may sit unused. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most this often per session (reads stay reads). */
const TOUCH_EVERY_MS = 5 * 60_000;

export interface SessionUser {
  sessionId: string;
  userId: string;
  accountId: string;
  email: string;
  /** The instance role (the operator sees every account). */
  role: 'operator' | 'member';
  /** The role inside the account: an admin manages its people and its keys. */
  accountRole: 'admin' | 'member';
  accountStatus: 'active' | 'suspended';
  csrfToken: string;
  createdAt: string;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export async function createSession(db: Kysely<Database>, userId: string, userAgent: string | undefined) {
  const token = randomToken();
  const now = Date.now();
  const row = {
    id: newId('ses'),
    token_hash: hashKey(token),
    user_id: userId,
    csrf_token: randomToken(24),
    created_at: new Date(now).toISOString(),
    last_seen_at: new Date(now).toISOString(),
    expires_at: new Date(now + SESSION_MAX_AGE_MS).toISOString(),
    revoked_at: null,
    user_agent: userAgent?.slice(0, 300) ?? null,
  };
  await db.insertInto('sessions').values(row).execute();
  return { token, sessionId: row.id, csrfToken: row.csrf_token };
}

/** The signed-in user of a session cookie, or undefined when it is unknown, revoked or expired. */
export async function resolveSession(db: Kysely<Database>, token: string | undefined): Promise<SessionUser | undefined> {
  if (!token || token.length > 200) return undefined;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'sessions.id as session_id',
      'sessions.csrf_token',
      'sessions.created_at',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'sessions.revoked_at',
      'users.id as user_id',
      'users.email',
      'users.role',
      'users.account_role',
      'accounts.id as account_id',
      'accounts.status',
    ])
    .where('sessions.token_hash', '=', hashKey(token))
    .executeTakeFirst();
  if (!row || row.revoked_at) return undefined;
  const now = Date.now();
  if (Date.parse(row.expires_at) <= now || Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= now) return undefined;
  if (Date.parse(row.last_seen_at) + TOUCH_EVERY_MS <= now) {
    await db.updateTable('sessions').set({ last_seen_at: nowIso() }).where('id', '=', row.session_id).execute();
  }
  return {
    sessionId: row.session_id,
    userId: row.user_id,
    accountId: row.account_id,
    email: row.email,
    role: row.role,
    accountRole: row.account_role,
    accountStatus: row.status,
    csrfToken: row.csrf_token,
    createdAt: row.created_at,
  };
}

/** Constant-time comparison of the token a request sent with the session's. */
export function csrfMatches(expected: string, sent: string | undefined): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function revokeSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: nowIso() }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/**
 * Signs a user out everywhere: every session of theirs stops working at once, but for `except`
 * (the session that changed the password stays signed in). Returns how many ended.
 */
export async function revokeUserSessions(db: Kysely<Database>, userId: string, except?: string): Promise<number> {
  let q = db.updateTable('sessions').set({ revoked_at: nowIso() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (except) q = q.where('id', '!=', except);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function listSessions(db: Kysely<Database>, userId: string) {
  const now = Date.now();
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.filter((r) => Date.parse(r.expires_at) > now && Date.parse(r.last_seen_at) + SESSION_IDLE_MS > now);
}
