// Console users: people who sign in with an email and a password and act for one account.
// The one thing to know: no answer here tells a caller whether an email has a user. Sign-in
// fails the same way (same error, same scrypt work) for an unknown email and a wrong password,
// the failed-attempt counter and its lockout are kept per email whether or not it exists, and a
// reset request answers nothing about the email (the link goes by mail or through the operator).
// Sign-up never joins an existing account and answers alike for a known and a new email: only an
// invitation or a password link (which prove the email) connect a person to an account that exists.
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Selectable } from 'kysely';
import type { Config } from '../../config.ts';
import type { AccountRole, Database, UsersTable } from '../../db/schema.ts';
import { AppError } from '../errors.ts';
import { newId, nowIso } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import type { Store, Tx } from '../../db/store.ts';
import { checkGrant, getBalance, grantIn } from '../billing/ledger.ts';
import { createAccount, hashKey, normalizeEmail } from './accounts.ts';
import { checkPasswordStrength, hashPassword, verifyPassword } from './passwords.ts';
import { randomToken, revokeUserSessions } from './sessions.ts';

export type SignupMode = 'invite' | 'open' | 'closed';

/** Failed sign-ins per email within LOCK_WINDOW_MS before the email is locked for LOCK_MS. */
export const MAX_FAILED_LOGINS = 5;
export const LOCK_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
const RESET_TTL_MS = 60 * 60_000;
const INVITE_TTL_MS = 7 * 24 * 3600_000;

export type User = Pick<Selectable<UsersTable>, 'id' | 'account_id' | 'email' | 'role' | 'account_role' | 'created_at'>;
type UserRow = Selectable<UsersTable>;

function publicUser(u: UserRow): User {
  return { id: u.id, account_id: u.account_id, email: u.email, role: u.role, account_role: u.account_role, created_at: u.created_at };
}

function checkEmail(email: unknown): string {
  const normalized = typeof email === 'string' ? normalizeEmail(email) : '';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalized) || normalized.length > 254) throw new AppError('invalid_request', 'Enter a valid email address.');
  return normalized;
}

/** Whether the instance still needs its owner: no operator has signed up yet. */
export async function needsOwner(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('role', '=', 'operator').limit(1).executeTakeFirst();
  return !row;
}

/**
 * Serializes decisions about who has an email and who is in an account: the owner's set-up,
 * invitations and their acceptance, role changes and removals (team.ts) (SQLite's single writer
 * does it already).
 */
export async function lockUsers(store: Store, trx: Tx) {
  if (store.dialect === 'postgres') await sql`lock table users in share row exclusive mode`.execute(trx);
}

/**
 * A user for an email, inside the caller's transaction. `join` says whether the user may join the
 * account that already has the email (one made by the CLI, which has no user yet): only a flow
 * that proved the email (an invitation accepted, a reset link opened) may; otherwise the email
 * must be new to both users and accounts, and the user gets a new account, as its admin.
 * `into` puts the user in an existing account with a role (an invitation into an account): the
 * email may then be no other account's.
 */
const TAKEN_MESSAGE = 'This email cannot sign up here. If it has an account already, sign in or reset its password.';
const OTHER_ACCOUNT_MESSAGE = 'An account has this email already: open it with a password link (sightline users reset-link) instead.';

async function insertUser(
  trx: Tx,
  email: string,
  passwordHash: string | null,
  role: User['role'],
  join: boolean,
  into?: { accountId: string; accountRole: AccountRole },
): Promise<UserRow> {
  const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw new AppError('invalid_request', TAKEN_MESSAGE);
  const existing = await trx.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();
  let accountId: string;
  if (into) {
    // The account's own email (a person removed from it, invited back) joins it again.
    if (existing && existing.id !== into.accountId) throw new AppError('invalid_request', `${email} is the email of another account, so it cannot join this one.`);
    accountId = into.accountId;
  } else {
    if (existing && !join) throw new AppError('invalid_request', OTHER_ACCOUNT_MESSAGE);
    // Joining is for an account nobody uses yet (made by the CLI): an account whose people removed
    // the person with its email is theirs, and only an invitation brings that person back.
    if (existing && (await trx.selectFrom('users').select('id').where('account_id', '=', existing.id).limit(1).executeTakeFirst())) {
      throw new AppError('invalid_request', OTHER_ACCOUNT_MESSAGE);
    }
    accountId = existing?.id ?? (await createAccount(trx, email)).id;
  }
  const now = nowIso();
  const row: UserRow = {
    id: newId('usr'),
    account_id: accountId,
    email,
    password_hash: passwordHash,
    role,
    account_role: into?.accountRole ?? 'admin',
    created_at: now,
    password_changed_at: passwordHash ? now : null,
  };
  // A user made for the email by another transaction since the read (a sign-up, an invitation or a
  // reset link at the same instant) wins on the unique email: this one inserts nothing and gets the
  // answer a later attempt would (SQLite's write transactions are serialized; Postgres's are not).
  const res = await trx.insertInto('users').values(row).onConflict((oc) => oc.column('email').doNothing()).executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 0) throw new AppError('invalid_request', TAKEN_MESSAGE);
  return row;
}

/** How long a set-up link printed by `sightline serve` works (while the instance has no owner). */
export const SETUP_TTL_MS = 7 * 24 * 3600_000;
/** The longest any one-time link lives (the retention sweep lets ended ones go, core/retention.ts). */
export const TOKEN_MAX_TTL_MS = Math.max(RESET_TTL_MS, INVITE_TTL_MS, SETUP_TTL_MS);

/**
 * A one-time set-up token, made by `sightline serve` when it starts on an instance with no owner:
 * it lets the owner be set up from another machine. Only its sha256 is stored (auth_tokens, kind
 * 'setup'), so every process on the database accepts every process's token; all of them end when
 * the owner is created.
 */
export async function issueSetupToken(db: Kysely<Database>): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  // Each start of a server with no owner makes one: the ended ones go, so restarts do not pile up rows.
  await db
    .deleteFrom('auth_tokens')
    .where('kind', '=', 'setup')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', new Date(now).toISOString())]))
    .execute();
  await db
    .insertInto('auth_tokens')
    .values({
      id: newId('tok'),
      kind: 'setup',
      email: '',
      user_id: null,
      token_hash: hashKey(token),
      credits: 0,
      created_by: null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + SETUP_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** Whether `token` is a live set-up token; each stored hash is compared in constant time. */
async function setupTokenValid(trx: Tx, token: string | undefined): Promise<boolean> {
  if (!token) return false;
  const given = Buffer.from(hashKey(token), 'hex');
  const rows = await trx.selectFrom('auth_tokens').select('token_hash').where('kind', '=', 'setup').where('used_at', 'is', null).where('expires_at', '>', nowIso()).execute();
  let found = false;
  for (const r of rows) {
    const stored = Buffer.from(r.token_hash, 'hex');
    if (stored.length === given.length && timingSafeEqual(stored, given)) found = true;
  }
  return found;
}

/**
 * Who asks to become the owner through the console: `local` when the request came from this
 * machine (src/web/local-client.ts), `setupToken` the token of the set-up link, if any.
 */
export interface OwnerSetupGate {
  local: boolean;
  /** The instance runs behind a proxy (SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY): nothing is local. */
  behindProxy?: boolean;
  setupToken?: string;
}

/**
 * The first visit: the owner (operator) of an instance that has none. With a `gate` (the console's
 * set-up), a client from another machine needs a live set-up token; without one (the CLI, tests)
 * the caller is trusted.
 */
export async function createOwner(store: Store, email: unknown, password: string, gate?: OwnerSetupGate): Promise<User> {
  const normalized = checkEmail(email);
  const hash = await hashPassword(password);
  return store.db.transaction().execute(async (trx) => {
    await lockUsers(store, trx);
    const owner = await trx.selectFrom('users').select('id').where('role', '=', 'operator').limit(1).executeTakeFirst();
    if (owner) throw new AppError('signup_closed', 'This instance has its owner already; sign in instead.');
    if (gate && !gate.local && !(await setupTokenValid(trx, gate.setupToken))) {
      throw new AppError(
        'setup_token_required',
        gate.setupToken
          ? `This set-up link is not valid (mistyped, or from an old start). Use the newest link that \`sightline serve\` printed when it started${gate.behindProxy ? '' : ', or open the console on the server itself'}.`
          : gate.behindProxy
            ? 'This instance runs behind a proxy (SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY is set), so setting up the owner needs the set-up link that `sightline serve` printed when it started (…/console#setup=…), from any machine.'
            : undefined,
      );
    }
    const created = publicUser(await insertUser(trx, normalized, hash, 'operator', false));
    await trx.updateTable('auth_tokens').set({ used_at: nowIso() }).where('kind', '=', 'setup').where('used_at', 'is', null).execute();
    return created;
  });
}

/**
 * The email of a self sign-up, checked: sign-up must be open (SIGHTLINE_SIGNUP=open) and the
 * address well formed. Nothing here looks at the database, so its errors say nothing about it.
 */
export function signUpEmail(mode: SignupMode, email: unknown): string {
  if (mode !== 'open') throw new AppError('signup_closed');
  return checkEmail(email);
}

/** Whether any user or account has the email (inside a transaction). */
async function emailKnown(trx: Kysely<Database> | Tx, email: string): Promise<boolean> {
  const user = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (user) return true;
  return !!(await trx.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst());
}

/**
 * A new account and its user for an email that nothing has yet; `created: false` (and nothing
 * written) when a user or an account has it. Sign-up never joins an existing account: only an
 * invitation or a reset link proves an email. Two sign-ups racing for one new email: the loser
 * meets the unique index and reads as `created: false`.
 */
async function openUserAccount(store: Store, email: string, passwordHash: string | null): Promise<{ created: boolean; userId: string | null }> {
  try {
    // insertUser refuses a known email (a user or an account has it); the catch reads that as created: false.
    return await store.db.transaction().execute(async (trx) => ({ created: true, userId: (await insertUser(trx, email, passwordHash, 'member', false)).id }));
  } catch (err) {
    if (await emailKnown(store.db, email)) return { created: false, userId: null };
    throw err;
  }
}

/**
 * Self sign-up without mail (the instance cannot prove an email): the password is hashed whether
 * or not the email is new (equal work), and a new email gets its account and user, who then signs
 * in. A known email changes nothing. The caller answers the same either way.
 */
export async function signUp(store: Store, email: string, password: string): Promise<{ created: boolean }> {
  const hash = await hashPassword(password);
  const { created } = await openUserAccount(store, email, hash);
  return { created };
}

/**
 * Self sign-up with mail: the email is proven by a one-time password link sent to it. A new email
 * gets its account and a user with no password yet; a known one keeps everything as it is. Either
 * way the answer is a reset token for the email, which the caller mails (a welcome or a notice).
 */
export async function signUpByMail(store: Store, email: string): Promise<{ created: boolean; token: string | null }> {
  const { created } = await openUserAccount(store, email, null);
  const issued = await createResetToken(store, email);
  return { created, token: issued?.token ?? null };
}

/** Checks an email and password; throws invalid_credentials or login_locked (see the header). */
export async function signIn(db: Kysely<Database>, email: unknown, password: unknown): Promise<User> {
  const key = typeof email === 'string' ? normalizeEmail(email).slice(0, 254) : '';
  const throttle = await db.selectFrom('login_throttle').select(['locked_until']).where('email', '=', key).executeTakeFirst();
  if (throttle?.locked_until && Date.parse(throttle.locked_until) > Date.now()) throw new AppError('login_locked');
  const user = key ? await db.selectFrom('users').selectAll().where('email', '=', key).executeTakeFirst() : undefined;
  const ok = await verifyPassword(typeof password === 'string' ? password : '', user?.password_hash ?? null);
  if (!ok || !user) {
    if (key) await recordFailedLogin(db, key);
    throw new AppError('invalid_credentials');
  }
  await db.deleteFrom('login_throttle').where('email', '=', key).execute();
  return publicUser(user);
}

/** One more failed sign-in for an email: counted atomically within the window; the limit locks it. */
async function recordFailedLogin(db: Kysely<Database>, email: string): Promise<void> {
  const now = Date.now();
  const windowStart = new Date(now - LOCK_WINDOW_MS).toISOString();
  const bumped = await db
    .updateTable('login_throttle')
    .set({ failures: sql`failures + 1` })
    .where('email', '=', email)
    .where('window_started_at', '>', windowStart)
    .returning('failures')
    .executeTakeFirst();
  let failures = bumped?.failures ?? 1;
  if (!bumped) {
    await db
      .insertInto('login_throttle')
      .values({ email, failures: 1, window_started_at: new Date(now).toISOString(), locked_until: null })
      .onConflict((oc) => oc.column('email').doUpdateSet({ failures: 1, window_started_at: new Date(now).toISOString(), locked_until: null }))
      .execute();
    failures = 1;
  }
  if (failures >= MAX_FAILED_LOGINS) {
    await db.updateTable('login_throttle').set({ locked_until: new Date(now + LOCK_MS).toISOString() }).where('email', '=', email).execute();
  }
}

export async function getUser(db: Kysely<Database>, userId: string): Promise<User> {
  const u = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!u) throw new AppError('not_found', 'user not found');
  return publicUser(u);
}

/**
 * Where users reach the console, for links in mail and printed by the CLI: SIGHTLINE_PUBLIC_URL,
 * else the address the server listens on as this process's configuration gives it (HOST, with
 * localhost for a wildcard, and PORT). A CLI run in another environment than the server's cannot
 * know the server's port, and says so (src/cli/admin.ts).
 */
export function consolePublicUrl(config: Pick<Config, 'SIGHTLINE_PUBLIC_URL' | 'PORT'> & { HOST?: string }): string {
  if (config.SIGHTLINE_PUBLIC_URL) return config.SIGHTLINE_PUBLIC_URL;
  const host = (config.HOST ?? '').trim();
  const name = !host || host === '0.0.0.0' || host === '::' || host === '[::]' ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${config.PORT}`;
}


/** The link a one-time token is sent as; the token sits in the fragment, so it reaches no server log. */
export function tokenLink(baseUrl: string, kind: 'reset' | 'invite', token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/console/${kind === 'reset' ? 'reset' : 'invite'}#token=${token}`;
}

/**
 * Ends every unused password link of an email: a new link, a reset and a password change each
 * leave at most the newest link (or none) working, so an older mail in an old inbox is dead.
 */
async function endResetLinks(db: Kysely<Database> | Tx, email: string): Promise<void> {
  await db.updateTable('auth_tokens').set({ used_at: nowIso() }).where('kind', '=', 'reset').where('email', '=', email).where('used_at', 'is', null).execute();
}

async function issueToken(
  db: Kysely<Database> | Tx,
  t: { kind: 'reset' | 'invite'; email: string; userId: string | null; credits?: number; createdBy?: string | null; into?: { accountId: string; accountRole: AccountRole } },
) {
  const token = randomToken();
  const now = Date.now();
  if (t.kind === 'reset') await endResetLinks(db, t.email);
  await db
    .insertInto('auth_tokens')
    .values({
      id: newId('tok'),
      kind: t.kind,
      email: t.email,
      user_id: t.userId,
      token_hash: hashKey(token),
      credits: t.credits ?? 0,
      account_id: t.into?.accountId ?? null,
      account_role: t.into?.accountRole ?? null,
      created_by: t.createdBy ?? null,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + (t.kind === 'reset' ? RESET_TTL_MS : INVITE_TTL_MS)).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * A password-reset token for an email, or null when nothing has that email. An account made by
 * the CLI gets its user here (no password yet): its first password comes through this flow.
 */
export async function createResetToken(store: Store, email: unknown): Promise<{ token: string; email: string } | null> {
  const normalized = typeof email === 'string' ? normalizeEmail(email) : '';
  if (!normalized) return null;
  return store.db.transaction().execute(async (trx) => {
    let user = await trx.selectFrom('users').selectAll().where('email', '=', normalized).executeTakeFirst();
    if (!user) {
      const account = await trx.selectFrom('accounts').select('id').where('email', '=', normalized).executeTakeFirst();
      if (!account) return null;
      // The account's email without its user, in an account that has people: that person was
      // removed from it, and a password link must not bring them back (only an invitation does).
      if (await trx.selectFrom('users').select('id').where('account_id', '=', account.id).limit(1).executeTakeFirst()) return null;
      // A reset asked for at the same instant may make the user first: this one then uses it.
      user = await insertUser(trx, normalized, null, 'member', true).catch(async (err: unknown) => {
        const made = await trx.selectFrom('users').selectAll().where('email', '=', normalized).executeTakeFirst();
        if (!made) throw err;
        return made;
      });
    }
    return { token: await issueToken(trx, { kind: 'reset', email: normalized, userId: user.id }), email: normalized };
  });
}

/** The unused, unexpired token row of a kind, claimed (marked used) inside the transaction. */
async function claimToken(trx: Tx, kind: 'reset' | 'invite', token: unknown) {
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) throw new AppError('invalid_token');
  const row = await trx.selectFrom('auth_tokens').selectAll().where('token_hash', '=', hashKey(token)).where('kind', '=', kind).executeTakeFirst();
  if (!row || row.used_at || Date.parse(row.expires_at) <= Date.now()) throw new AppError('invalid_token');
  const claimed = await trx.updateTable('auth_tokens').set({ used_at: nowIso() }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('invalid_token');
  return row;
}

/** Sets a new password from a reset link and ends every session of that user. */
export async function resetPassword(store: Store, token: unknown, password: string): Promise<User> {
  checkPasswordStrength(password);
  const hash = await hashPassword(password);
  const user = await store.db.transaction().execute(async (trx) => {
    const row = await claimToken(trx, 'reset', token);
    await trx.updateTable('users').set({ password_hash: hash, password_changed_at: nowIso() }).where('id', '=', row.user_id!).execute();
    await endResetLinks(trx, row.email);
    return trx.selectFrom('users').selectAll().where('id', '=', row.user_id!).executeTakeFirstOrThrow();
  });
  await revokeUserSessions(store.db, user.id);
  await store.db.deleteFrom('login_throttle').where('email', '=', user.email).execute();
  return publicUser(user);
}

/**
 * Changes a signed-in user's password. The current one must be given (a session left open on a
 * shared computer is not enough), and a wrong one counts towards the same per-email lockout as a
 * failed sign-in, so a stolen session cannot guess it either. Every other session of the user
 * ends; `keepSessionId` (the one that made the change) stays signed in.
 */
export async function changePassword(store: Store, userId: string, current: unknown, next: string, keepSessionId: string): Promise<{ sessions_ended: number }> {
  const user = await store.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('not_found', 'user not found');
  const throttle = await store.db.selectFrom('login_throttle').select(['locked_until']).where('email', '=', user.email).executeTakeFirst();
  if (throttle?.locked_until && Date.parse(throttle.locked_until) > Date.now()) throw new AppError('login_locked');
  if (!(await verifyPassword(typeof current === 'string' ? current : '', user.password_hash))) {
    await recordFailedLogin(store.db, user.email);
    throw new AppError('wrong_password');
  }
  const hash = await hashPassword(next);
  await store.db.updateTable('users').set({ password_hash: hash, password_changed_at: nowIso() }).where('id', '=', userId).execute();
  await endResetLinks(store.db, user.email);
  await store.db.deleteFrom('login_throttle').where('email', '=', user.email).execute();
  return { sessions_ended: await revokeUserSessions(store.db, userId, keepSessionId) };
}

/**
 * The refusal a member gets: what only an admin does (`what`, e.g. "makes share links") and where
 * to turn, instead of the code's catalogue of every admin-only action.
 */
export function adminOnly(what: string): AppError {
  return new AppError('team_admin_required', `Only an admin of this account ${what}. Ask an admin (the console's Team page lists them).`);
}

/** What only an admin does to the account's people (requireAdmin's default). */
export const MANAGES_PEOPLE = 'invites people, changes their role and removes them';

/**
 * Refuses unless the user is an admin of the account now, read inside the caller's transaction
 * under the users lock: a demotion or removal that committed a moment ago wins over an admin's
 * change (team.ts) or invitation. A suspended account's people do not change either (403
 * account_suspended): its admin neither invites, nor changes roles, nor removes anyone until the
 * operator makes it active again (the operator's own invitations do not come through here).
 */
export async function stillAdmin(trx: Tx, userId: string, accountId: string): Promise<void> {
  const me = await trx
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.account_role', 'accounts.status'])
    .where('users.id', '=', userId)
    .where('users.account_id', '=', accountId)
    .executeTakeFirst();
  if (!me) throw new AppError('unauthorized', 'Sign in first.');
  if (me.account_role !== 'admin') throw adminOnly(MANAGES_PEOPLE);
  if (me.status === 'suspended') throw new AppError('account_suspended', 'The account is suspended: its people cannot be invited, changed or removed until the operator makes it active again.');
}

/**
 * An invitation: a link that opens an account for the email, with optional credits, or, with
 * `into`, one that brings the email into an existing account with a role (an account admin's
 * team invitation, or the operator's `users invite --account`; no credits: the account's balance
 * is shared). An email has at most one working invitation: inviting it again replaces the pending
 * one (its link stops working; `replaced` says so), as a new password link ends the older ones.
 * An email that has a user is refused. Invitations, and acceptances (which insert the user), are
 * serialized on the users lock, so invitations sent at once leave exactly one pending.
 * SIGHTLINE_SIGNUP=closed refuses invitations that open accounts, not those into one.
 */
export async function createInvite(
  store: Store,
  mode: SignupMode,
  email: unknown,
  credits: number,
  createdBy: string,
  into?: { accountId: string; accountRole: AccountRole; byAdmin?: string },
) {
  if (mode === 'closed' && !into) throw new AppError('signup_closed', 'Sign-up is closed on this instance (SIGHTLINE_SIGNUP=closed): create accounts with the CLI.');
  const normalized = checkEmail(email);
  if (into && credits > 0) throw new AppError('invalid_request', 'An invitation into an existing account grants no credits: the account shares its balance.');
  if (credits > 0) checkGrant(credits);
  return store.db.transaction().execute(async (trx) => {
    await lockUsers(store, trx);
    if (into && !(await trx.selectFrom('accounts').select('id').where('id', '=', into.accountId).executeTakeFirst())) throw new AppError('not_found', `account ${into.accountId} not found`);
    if (into?.byAdmin) await stillAdmin(trx, into.byAdmin, into.accountId);
    const taken = await trx.selectFrom('users').select('id').where('email', '=', normalized).executeTakeFirst();
    if (taken) throw new AppError('invalid_request', `${normalized} has a user already: they sign in, or reset their password.`);
    if (into) {
      const other = await trx.selectFrom('accounts').select('id').where('email', '=', normalized).where('id', '!=', into.accountId).executeTakeFirst();
      if (other) throw new AppError('invalid_request', `${normalized} is the email of another account, so it cannot join this one.`);
    }
    const ended = await trx
      .updateTable('auth_tokens')
      .set({ used_at: nowIso() })
      .where('kind', '=', 'invite')
      .where('email', '=', normalized)
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso())
      .executeTakeFirst();
    const token = await issueToken(trx, { kind: 'invite', email: normalized, userId: null, credits, createdBy, into: into && { accountId: into.accountId, accountRole: into.accountRole } });
    return { token, email: normalized, replaced: Number(ended.numUpdatedRows) > 0 };
  });
}

/**
 * What an invitation link is for, shown before the invitee picks a password: the credits of a
 * new account, or the account it joins (its email), the role, and who invited (null for the CLI).
 */
export async function describeInvite(db: Kysely<Database>, token: unknown) {
  if (typeof token !== 'string') throw new AppError('invalid_token');
  const row = await db.selectFrom('auth_tokens').selectAll().where('token_hash', '=', hashKey(token)).where('kind', '=', 'invite').executeTakeFirst();
  if (!row || row.used_at || Date.parse(row.expires_at) <= Date.now()) throw new AppError('invalid_token');
  const account = row.account_id ? await db.selectFrom('accounts').select('email').where('id', '=', row.account_id).executeTakeFirst() : undefined;
  const inviter = row.created_by ? await db.selectFrom('users').select('email').where('id', '=', row.created_by).executeTakeFirst() : undefined;
  return {
    email: row.email,
    credits: formatCredits(row.credits),
    expires_at: row.expires_at,
    joins: account ? { account_email: account.email, role: row.account_role ?? 'member', invited_by: inviter?.email ?? null } : null,
  };
}

/**
 * Accepts an invitation in one transaction: a user in the invitation's account with its role, or
 * a new account (with the invitation's credits) and its admin.
 */
export async function acceptInvite(store: Store, mode: SignupMode, token: unknown, password: string): Promise<User> {
  const hash = await hashPassword(password);
  return store.db.transaction().execute(async (trx) => {
    // The users lock first, as createInvite takes it: a new invitation ending this one's link
    // then waits for, or is waited on by, this acceptance; neither deadlocks on the other.
    await lockUsers(store, trx);
    const row = await claimToken(trx, 'invite', token);
    if (row.account_id) {
      // No new person in a suspended account. Thrown inside the transaction: the claim is rolled
      // back, so the link works again once the operator makes the account active (if not expired).
      const account = await trx.selectFrom('accounts').select('status').where('id', '=', row.account_id).executeTakeFirst();
      if (account?.status === 'suspended') throw new AppError('account_suspended', 'The account you are invited into is suspended: the invitation can be accepted once the operator makes it active again.');
      const user = await insertUser(trx, row.email, hash, 'member', true, { accountId: row.account_id, accountRole: row.account_role ?? 'member' });
      return publicUser(user);
    }
    // Thrown inside the transaction: the claim is rolled back with it.
    if (mode === 'closed') throw new AppError('signup_closed');
    const user = await insertUser(trx, row.email, hash, 'member', true);
    if (row.credits > 0) await grantIn(trx, user.account_id, row.credits, { source: 'console', action: 'credits.invite' });
    return publicUser(user);
  });
}

/** The operator's view: every account with its balance and its users. */
export async function listAccountsForOperator(db: Kysely<Database>) {
  const accounts = await db.selectFrom('accounts').select(['id', 'email', 'status', 'created_at']).orderBy('id', 'desc').limit(500).execute();
  const users = await db.selectFrom('users').select(['id', 'account_id', 'email', 'role', 'account_role']).orderBy('id').execute();
  const invites = await db
    .selectFrom('auth_tokens')
    .select(['id', 'email', 'credits', 'account_id', 'account_role', 'created_at', 'expires_at'])
    .where('kind', '=', 'invite')
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .orderBy('id', 'desc')
    .execute();
  const rows = [];
  for (const a of accounts) {
    const balance = await getBalance(db, a.id);
    rows.push({
      ...a,
      available_credits: formatCredits(balance.available),
      reserved_credits: formatCredits(balance.reserved),
      users: users.filter((u) => u.account_id === a.id).map((u) => ({ id: u.id, email: u.email, role: u.role, account_role: u.account_role })),
    });
  }
  return { accounts: rows, invitations: invites.map((i) => ({ ...i, credits: formatCredits(i.credits) })) };
}
