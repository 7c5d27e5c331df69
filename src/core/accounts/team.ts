// The people of one account: who is in it (users.account_id) with their role inside it
// (users.account_role: 'admin' manages the people and the keys, 'member' does everything else),
// the invitations pending into it, and the admin's changes: invite, revoke an invitation, change
// a role, remove a person. users.role ('operator' | 'member') is the instance role and is not
// touched here.
// The one thing to know: an account never loses its last admin. Every change of roles or people
// takes the users lock (the one invitations and their acceptance take) and checks the admins left
// inside its transaction, so two admins demoting or removing each other at the same instant end
// with one of them refused (409 last_admin), never with an account nobody can manage.
import type { Kysely } from 'kysely';
import type { AccountRole, Database } from '../../db/schema.ts';
import type { Store, Tx } from '../../db/store.ts';
import type { Principal } from './accounts.ts';
import { nowIso, toApiTime } from '../../lib/ids.ts';
import { AppError } from '../errors.ts';
import { adminOnly, createInvite, lockUsers, MANAGES_PEOPLE, stillAdmin, type SignupMode } from './users.ts';

export const ACCOUNT_ROLES = ['admin', 'member'] as const satisfies readonly AccountRole[];

/** Who acts: a signed-in user of the account, with their role in it. */
export interface TeamActor {
  userId: string;
  accountId: string;
  accountRole: AccountRole;
}

/** Refuses (403 team_admin_required) anyone but an admin of the account. */
export function requireAdmin(actor: Pick<TeamActor, 'accountRole'>, what = MANAGES_PEOPLE): void {
  if (actor.accountRole !== 'admin') throw adminOnly(what);
}

/**
 * Refuses (403 team_admin_required) a signed-in member making what outlives their access to the
 * account, as a key does: a share link (a public link to a report) or a webhook endpoint (the
 * account's events sent to a URL), or sending an endpoint somewhere new or more of the account's
 * data. A member removed later would keep reading through it. A call made with an API key or MCP
 * token passes: it acts for the account, and only an admin makes keys (principal.session is unset).
 */
export function requireAdminToGrant(principal: Pick<Principal, 'session'>, what: string): void {
  if (principal.session && principal.session.accountRole !== 'admin') throw adminOnly(what);
}

export interface TeamPerson {
  id: string;
  email: string;
  role: AccountRole;
  /** The instance owner (operator): cannot be removed from their account. */
  operator: boolean;
  since: string;
  /** The newest use of any of their console sessions; null when they never signed in (or long ago). */
  last_active_at: string | null;
}

export interface TeamInvitation {
  id: string;
  email: string;
  role: AccountRole;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** The account's people (oldest first) and its pending invitations (newest first). */
export async function listTeam(db: Kysely<Database>, accountId: string): Promise<{ people: TeamPerson[]; invitations: TeamInvitation[] }> {
  const users = await db.selectFrom('users').select(['id', 'email', 'role', 'account_role', 'created_at']).where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  const seen = users.length
    ? await db
        .selectFrom('sessions')
        .select(['user_id', (eb) => eb.fn.max('last_seen_at').as('last_seen_at')])
        .where(
          'user_id',
          'in',
          users.map((u) => u.id),
        )
        .groupBy('user_id')
        .execute()
    : [];
  const lastSeen = new Map(seen.map((r) => [r.user_id, r.last_seen_at as string | null]));
  const invites = await db
    .selectFrom('auth_tokens')
    .leftJoin('users', 'users.id', 'auth_tokens.created_by')
    .select(['auth_tokens.id', 'auth_tokens.email', 'auth_tokens.account_role', 'auth_tokens.created_at', 'auth_tokens.expires_at', 'users.email as inviter'])
    .where('auth_tokens.kind', '=', 'invite')
    .where('auth_tokens.account_id', '=', accountId)
    .where('auth_tokens.used_at', 'is', null)
    .where('auth_tokens.expires_at', '>', nowIso())
    .orderBy('auth_tokens.id', 'desc')
    .execute();
  return {
    people: users.map((u) => ({
      id: u.id,
      email: u.email,
      role: u.account_role,
      operator: u.role === 'operator',
      since: toApiTime(u.created_at),
      last_active_at: toApiTime(lastSeen.get(u.id) ?? null),
    })),
    invitations: invites.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.account_role ?? 'member',
      invited_by: i.inviter ?? null,
      created_at: toApiTime(i.created_at),
      expires_at: toApiTime(i.expires_at),
    })),
  };
}

/** An admin invites an email into their account with a role (see createInvite: the link, replacing, refusals). */
export async function inviteToTeam(store: Store, mode: SignupMode, actor: TeamActor, email: unknown, role: AccountRole) {
  requireAdmin(actor);
  return createInvite(store, mode, email, 0, actor.userId, { accountId: actor.accountId, accountRole: role, byAdmin: actor.userId });
}

/** An admin ends a pending invitation into their account: its link stops working. */
export async function revokeTeamInvitation(store: Store, actor: TeamActor, invitationId: string): Promise<{ invitation_id: string; revoked: true }> {
  requireAdmin(actor);
  const res = await store.db
    .updateTable('auth_tokens')
    .set({ used_at: nowIso() })
    .where('id', '=', invitationId)
    .where('kind', '=', 'invite')
    .where('account_id', '=', actor.accountId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', nowIso())
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new AppError('not_found', `invitation ${invitationId} not found (or no longer pending)`);
  return { invitation_id: invitationId, revoked: true };
}

/** The person, in the actor's account, inside the transaction; another account's is "not found". */
async function personIn(trx: Tx, accountId: string, userId: string) {
  const person = await trx.selectFrom('users').select(['id', 'email', 'role', 'account_role']).where('id', '=', userId).where('account_id', '=', accountId).executeTakeFirst();
  if (!person) throw new AppError('not_found', `user ${userId} not found in this account`);
  return person;
}

/** Refuses (409 last_admin) taking away the account's only admin; inside the locked transaction. */
async function keepAnAdmin(trx: Tx, accountId: string, leaving: string): Promise<void> {
  const other = await trx.selectFrom('users').select('id').where('account_id', '=', accountId).where('account_role', '=', 'admin').where('id', '!=', leaving).limit(1).executeTakeFirst();
  if (!other) throw new AppError('last_admin');
}

/** An admin changes a person's role in the account (their own too, while another admin stays). */
export async function setTeamRole(store: Store, actor: TeamActor, userId: string, role: AccountRole): Promise<{ user_id: string; role: AccountRole }> {
  requireAdmin(actor);
  await store.db.transaction().execute(async (trx) => {
    await lockUsers(store, trx);
    // The actor's own role as it is now: an admin demoted a moment ago acts no more.
    await stillAdmin(trx, actor.userId, actor.accountId);
    const person = await personIn(trx, actor.accountId, userId);
    if (person.account_role === role) return;
    if (person.account_role === 'admin') await keepAnAdmin(trx, actor.accountId, userId);
    await trx.updateTable('users').set({ account_role: role }).where('id', '=', userId).execute();
  });
  return { user_id: userId, role };
}

/**
 * An admin removes a person from the account: the user is deleted, every session of theirs ends
 * at once (the session rows go), their password links end and their alert-mail choices go. The
 * account's API keys and MCP tokens stay (they belong to the account, not to whoever made them),
 * and a tracked test whose schedule the person set from the console keeps running as the admin
 * who removed them. The instance owner (operator) cannot be removed; the last admin neither.
 */
export async function removeFromTeam(store: Store, actor: TeamActor, userId: string): Promise<{ user_id: string; removed: true; sessions_ended: number }> {
  requireAdmin(actor);
  return store.db.transaction().execute(async (trx) => {
    await lockUsers(store, trx);
    await stillAdmin(trx, actor.userId, actor.accountId);
    const person = await personIn(trx, actor.accountId, userId);
    if (person.role === 'operator') throw new AppError('forbidden', "The instance's owner (operator) cannot be removed from their account.");
    if (person.account_role === 'admin') await keepAnAdmin(trx, actor.accountId, userId);
    const live = await trx.selectFrom('sessions').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).where('expires_at', '>', nowIso()).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    await trx.updateTable('auth_tokens').set({ used_at: nowIso() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx.deleteFrom('alert_email_prefs').where('user_id', '=', userId).execute();
    // Their activity rows hold only their user id: this row keeps naming them (reports/activity.ts).
    await trx.insertInto('removed_users').values({ user_id: userId, account_id: actor.accountId, email: person.email, removed_at: nowIso() }).execute();
    // A schedule set from the console acts as the user who set it (tests.key_id): the admin who
    // removes them takes it over (self-removal hands it to another admin), so it keeps running.
    const heir = actor.userId !== userId
      ? actor.userId
      : (await trx.selectFrom('users').select('id').where('account_id', '=', actor.accountId).where('account_role', '=', 'admin').where('id', '!=', userId).orderBy('id').executeTakeFirstOrThrow()).id;
    await trx.updateTable('tests').set({ key_id: heir }).where('account_id', '=', actor.accountId).where('key_id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    return { user_id: userId, removed: true as const, sessions_ended: live.length };
  });
}
