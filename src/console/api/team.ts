// The console's Team section: the account's people and pending invitations (every user of the
// account reads them), and an admin's changes: invite by email with a role (mailed when a
// transport is configured; the link is in the answer either way, as the operator's invitations),
// revoke a pending invitation, change a role, remove a person. The rules are the core's
// (src/core/accounts/team.ts); a member's change is 403 team_admin_required there.
// The one thing to know: like every signed-in console route, each change needs the session's
// CSRF token and is recorded in the activity log as console.team.<action> with the acting user;
// sending an invitation also counts towards the per-address sign-in limit (it sends mail).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { teamInviteMail } from '../../core/accounts/mail.ts';
import { ACCOUNT_ROLES, inviteToTeam, listTeam, removeFromTeam, revokeTeamInvitation, setTeamRole, type TeamActor } from '../../core/accounts/team.ts';
import { tokenLink } from '../../core/accounts/users.ts';
import { userOf, type ConsoleContext } from '../context.ts';
import type { FastifyRequest } from 'fastify';

const user = (action: string, authLimited = false) => ({ config: { console: { access: 'user' as const, action, authLimited } } });
const Invite = z.object({ email: z.string().max(254), role: z.enum(ACCOUNT_ROLES).default('member') }).strict();
const Role = z.object({ role: z.enum(ACCOUNT_ROLES) }).strict();
const Id = z.object({ id: z.string().max(100) });

function actorOf(request: FastifyRequest): TeamActor {
  const me = userOf(request);
  return { userId: me.userId, accountId: me.accountId, accountRole: me.accountRole };
}

export function registerTeamRoutes(api: FastifyInstance, { core, mailer, publicUrl }: ConsoleContext) {
  const store = core.store;

  api.get('/console/api/team', { ...user('team.list'), schema: { hide: true } }, async (request) => {
    const me = userOf(request);
    return { me: { id: me.userId, role: me.accountRole }, mail: mailer.configured, ...(await listTeam(store.db, me.accountId)) };
  });

  api.post('/console/api/team/invitations', { ...user('team.invite', true), schema: { hide: true, body: Invite } }, async (request) => {
    const body = request.body as z.infer<typeof Invite>;
    const me = userOf(request);
    const invite = await inviteToTeam(store, core.config.SIGHTLINE_SIGNUP, actorOf(request), body.email, body.role);
    const link = tokenLink(publicUrl, 'invite', invite.token);
    let mailed = false;
    if (mailer.configured) {
      const mail = teamInviteMail(link, me.email, body.role);
      mailed = await mailer.send(invite.email, mail.subject, mail.text).then(
        () => true,
        (err) => (request.log.error({ err }, 'team invitation mail failed'), false),
      );
    }
    return { email: invite.email, role: body.role, link, mailed, replaced: invite.replaced };
  });

  api.post('/console/api/team/invitations/:id/revoke', { ...user('team.invitation_revoke'), schema: { hide: true, params: Id } }, async (request) =>
    revokeTeamInvitation(store, actorOf(request), (request.params as z.infer<typeof Id>).id),
  );

  api.post('/console/api/team/people/:id/role', { ...user('team.role'), schema: { hide: true, params: Id, body: Role } }, async (request) =>
    setTeamRole(store, actorOf(request), (request.params as z.infer<typeof Id>).id, (request.body as z.infer<typeof Role>).role),
  );

  api.post('/console/api/team/people/:id/remove', { ...user('team.remove'), schema: { hide: true, params: Id } }, async (request) =>
    removeFromTeam(store, actorOf(request), (request.params as z.infer<typeof Id>).id),
  );
}
