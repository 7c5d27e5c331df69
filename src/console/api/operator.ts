// The operator's view (the instance owner): every account, suspend and unsuspend, grant credits,
// invite a new user (by mail when a transport is configured; the link is shown either way), and
// the provider keys as this process last found them.
// The actions and their answers are the operator commands' (src/operations/operator/actions.ts).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { listAccountsForOperator } from '../../core/accounts/users.ts';
import { inviteMail, teamInviteMail } from '../../core/accounts/mail.ts';
import { parseCredits } from '../../core/money.ts';
import { AppError } from '../../core/errors.ts';
import { CreditsInput, grantCreditsOperation, inviteUserOperation, setAccountStatusOperation } from '../../operations/operator/actions.ts';
import { userOf, type ConsoleContext } from '../context.ts';

/** An invitation: a new account (with optional credits), or with account_id into that account with a role. */
const OperatorInvite = z
  .object({ email: z.string().max(254), credits: CreditsInput.optional(), account_id: z.string().max(100).optional(), role: z.enum(['admin', 'member']).optional() })
  .strict();

const op = (action: string) => ({ config: { console: { access: 'operator' as const, action } } });

function credits(value: string | number): number {
  try {
    return parseCredits(value);
  } catch (err) {
    throw new AppError('invalid_request', `credits: ${(err as Error).message}`);
  }
}

export function registerOperatorRoutes(api: FastifyInstance, { core, mailer, publicUrl, providerKeys }: ConsoleContext) {
  const db = core.store.db;

  // The provider keys as this server process found them (the check at start, then its probes);
  // `checked`: whether it checks them at start at all (live mode and SIGHTLINE_CHECK_KEYS_AT_START).
  api.get('/console/api/operator/provider-keys', { ...op('operator.provider_keys.list'), schema: { hide: true } }, async () => ({
    engine: core.config.SIGHTLINE_PLATFORM_ENGINE,
    checked: core.config.SIGHTLINE_PLATFORM_ENGINE === 'live' && core.config.SIGHTLINE_CHECK_KEYS_AT_START,
    keys: providerKeys(),
  }));

  api.get('/console/api/operator/accounts', { ...op('operator.accounts.list'), schema: { hide: true } }, async () => listAccountsForOperator(db));

  api.post<{ Params: { id: string } }>('/console/api/operator/accounts/:id/suspend', { ...op('operator.accounts.suspend'), schema: { hide: true } }, async (request) => {
    if (request.params.id === userOf(request).accountId) throw new AppError('invalid_request', 'The operator cannot suspend their own account.');
    return setAccountStatusOperation(core, request.params.id, 'suspended');
  });

  api.post<{ Params: { id: string } }>('/console/api/operator/accounts/:id/unsuspend', { ...op('operator.accounts.unsuspend'), schema: { hide: true } }, async (request) => {
    return setAccountStatusOperation(core, request.params.id, 'active');
  });

  api.post<{ Params: { id: string } }>(
    '/console/api/operator/accounts/:id/grant',
    { ...op('operator.credits.grant'), schema: { hide: true, body: z.object({ credits: CreditsInput }).strict() } },
    async (request) => {
      const amount = credits((request.body as { credits: string | number }).credits);
      return grantCreditsOperation(core, request.params.id, amount, { source: 'console' });
    },
  );

  api.post(
    '/console/api/operator/invitations',
    { ...op('operator.invitations.create'), schema: { hide: true, body: OperatorInvite } },
    async (request) => {
      const body = request.body as z.infer<typeof OperatorInvite>;
      const amount = body.credits === undefined || body.credits === '' ? 0 : credits(body.credits);
      const into = body.account_id ? { accountId: body.account_id, accountRole: body.role ?? 'member' } : undefined;
      if (!into && body.role) throw new AppError('invalid_request', 'role needs account_id: the first user of a new account is its admin.');
      const me = userOf(request);
      const invite = await inviteUserOperation(core, publicUrl, body.email, amount, me.userId, into);
      let mailed = false;
      if (mailer.configured) {
        const mail = into ? teamInviteMail(invite.link, me.email, invite.role) : inviteMail(invite.link, invite.credits);
        mailed = await mailer.send(invite.email, mail.subject, mail.text).then(() => true, (err) => (request.log.error({ err }, 'invitation mail failed'), false));
      }
      return { email: invite.email, link: invite.link, mailed, credits: invite.credits, account_id: invite.account_id, role: invite.role, replaced: invite.replaced };
    },
  );
}
