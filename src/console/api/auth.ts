// Console sign-in endpoints: owner set-up on a fresh instance, sign-up (open mode), sign-in,
// sign-out (here or everywhere), password reset and invitation links. Each calls the core
// (src/core/accounts/users.ts, sessions.ts) and sets or clears the session cookie.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createSession, listSessions, revokeSession, revokeUserSessions } from '../../core/accounts/sessions.ts';
import { acceptInvite, changePassword, createOwner, createResetToken, describeInvite, resetPassword, signIn, signUp, signUpByMail, signUpEmail, tokenLink, type User } from '../../core/accounts/users.ts';
import { resetMail, signUpExistingMail, signUpWelcomeMail } from '../../core/accounts/mail.ts';
import { toApiTime } from '../../lib/ids.ts';
import { behindProxy, isLocalRequest } from '../../web/local-client.ts';
import { clearSessionCookie, setSessionCookie } from '../../web/session.ts';
import { userOf, type ConsoleContext } from '../context.ts';

const Credentials = z.object({ email: z.string().max(254), password: z.string().max(1024) }).strict();
/** Sign-up: `password` is required without mail (see the route) and not used with it. */
const SignUp = z.object({ email: z.string().max(254), password: z.string().max(1024).optional() }).strict();
/** Owner set-up: `setup_token` is the one from the set-up link (needed unless the client is on this machine). */
const Setup = z.object({ email: z.string().max(254), password: z.string().max(1024), setup_token: z.string().max(200).optional() }).strict();
const TokenAndPassword = z.object({ token: z.string().max(200), password: z.string().max(1024) }).strict();

const pub = (action: string, authLimited = true) => ({ schema: { hide: true }, config: { console: { access: 'public' as const, action, authLimited } } });
const user = (action: string, authLimited = false) => ({ schema: { hide: true }, config: { console: { access: 'user' as const, action, authLimited } } });

export function registerAuthRoutes(api: FastifyInstance, { core, mailer, publicUrl, afterResponse }: ConsoleContext) {
  const db = core.store.db;
  const config = core.config;

  /** Starts a session for a user who just proved who they are; the old one (if any) ends. */
  const startSession = async (request: FastifyRequest, reply: FastifyReply, u: User) => {
    if (request.consoleSession) await revokeSession(db, request.consoleSession.sessionId);
    const { token } = await createSession(db, u.id, request.headers['user-agent']);
    setSessionCookie(request, reply, token);
    return { signed_in: true, user: { id: u.id, email: u.email, role: u.role, account_role: u.account_role } };
  };

  // Until the instance has an owner, anyone who reaches the port could claim it: a client on this
  // machine may, anyone else needs the set-up link `sightline serve` printed; behind a proxy
  // (SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY set) everyone does (src/web/local-client.ts).
  api.post('/console/api/setup', { ...pub('setup'), schema: { hide: true, body: Setup } }, async (request, reply) => {
    const body = request.body as z.infer<typeof Setup>;
    const gate = { local: isLocalRequest(request, config), behindProxy: behindProxy(config), setupToken: body.setup_token };
    return startSession(request, reply, await createOwner(core.store, body.email, body.password, gate));
  });

  // Sign-up answers the same whether or not the email has an account, and never signs in (that
  // would tell). With mail, the address is proven by a password link mailed after the answer (a
  // welcome to a new email, a notice to a known one) and `password` is not used; without mail,
  // a new email gets its account with the password given, and its user then signs in.
  api.post('/console/api/signup', { ...pub('signup'), schema: { hide: true, body: SignUp } }, async (request, reply) => {
    const body = request.body as z.infer<typeof SignUp>;
    const email = signUpEmail(config.SIGHTLINE_SIGNUP, body.email);
    if (mailer.configured) {
      afterResponse(reply, 'sign-up mail', async () => {
        const issued = await signUpByMail(core.store, email);
        if (!issued.token) return;
        const link = tokenLink(publicUrl, 'reset', issued.token);
        const mail = issued.created ? signUpWelcomeMail(link) : signUpExistingMail(link);
        await mailer.send(email, mail.subject, mail.text);
      });
    } else {
      await signUp(core.store, email, body.password ?? '');
    }
    return { signed_in: false, mailed: mailer.configured };
  });

  api.post('/console/api/sign-in', { ...pub('sign_in'), schema: { hide: true, body: Credentials } }, async (request, reply) => {
    const body = request.body as z.infer<typeof Credentials>;
    return startSession(request, reply, await signIn(db, body.email, body.password));
  });

  api.post('/console/api/sign-out', pub('sign_out', false), async (request, reply) => {
    if (request.consoleSession) await revokeSession(db, request.consoleSession.sessionId);
    clearSessionCookie(request, reply);
    return { signed_in: false };
  });

  api.post('/console/api/sign-out-everywhere', user('sign_out_everywhere'), async (request, reply) => {
    const ended = await revokeUserSessions(db, userOf(request).userId);
    clearSessionCookie(request, reply);
    return { signed_in: false, sessions_ended: ended };
  });

  api.get('/console/api/sessions', user('sessions.list'), async (request) => {
    const me = userOf(request);
    const sessions = await listSessions(db, me.userId);
    return {
      sessions: sessions.map((s) => ({
        id: s.id,
        current: s.id === me.sessionId,
        created_at: toApiTime(s.created_at),
        last_seen_at: toApiTime(s.last_seen_at),
        user_agent: s.user_agent,
      })),
    };
  });

  // The answer never says whether the email has a user: the link goes by mail when a transport is
  // configured, and otherwise only the operator can print one (sightline users reset-link).
  api.post('/console/api/password/forgot', { ...pub('password.forgot'), schema: { hide: true, body: z.object({ email: z.string().max(254) }).strict() } }, async (request, reply) => {
    const { email } = request.body as { email: string };
    // Looked up and sent after the answer: an existing user's request takes as long as anyone's.
    if (mailer.configured) {
      afterResponse(reply, 'reset mail', async () => {
        const issued = await createResetToken(core.store, email);
        if (!issued) return;
        const mail = resetMail(tokenLink(publicUrl, 'reset', issued.token));
        await mailer.send(issued.email, mail.subject, mail.text);
      });
    }
    return { mailed: mailer.configured };
  });

  // Signed in: the current password and a new one; every other session ends, this one stays.
  api.post(
    '/console/api/password/change',
    { ...user('password.change', true), schema: { hide: true, body: z.object({ current_password: z.string().max(1024), new_password: z.string().max(1024) }).strict() } },
    async (request) => {
      const me = userOf(request);
      const body = request.body as { current_password: string; new_password: string };
      return { changed: true, ...(await changePassword(core.store, me.userId, body.current_password, body.new_password, me.sessionId)) };
    },
  );

  api.post('/console/api/password/reset', { ...pub('password.reset'), schema: { hide: true, body: TokenAndPassword } }, async (request, reply) => {
    const body = request.body as z.infer<typeof TokenAndPassword>;
    const u = await resetPassword(core.store, body.token, body.password);
    return startSession(request, reply, u);
  });

  api.post('/console/api/invitations/describe', { ...pub('invitations.describe'), schema: { hide: true, body: z.object({ token: z.string().max(200) }).strict() } }, async (request) =>
    describeInvite(db, (request.body as { token: string }).token),
  );

  api.post('/console/api/invitations/accept', { ...pub('invitations.accept'), schema: { hide: true, body: TokenAndPassword } }, async (request, reply) => {
    const body = request.body as z.infer<typeof TokenAndPassword>;
    return startSession(request, reply, await acceptInvite(core.store, config.SIGHTLINE_SIGNUP, body.token, body.password));
  });
}
