// The operator's view (the instance owner): every account, suspend and unsuspend, grant credits,
// invite a new user (by mail when a transport is configured; the link is shown either way).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { setAccountStatus } from '../../core/accounts/accounts.ts';
import { createInvite, listAccountsForOperator, tokenLink } from '../../core/accounts/users.ts';
import { inviteMail } from '../../core/accounts/mail.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import { formatCredits, parseCredits } from '../../core/money.ts';
import { AppError } from '../../core/errors.ts';
import { userOf, type ConsoleContext } from '../context.ts';

const op = (action: string) => ({ config: { console: { access: 'operator' as const, action } } });
const Credits = z.union([z.string().max(20), z.number()]);

function credits(value: string | number): number {
  try {
    return parseCredits(value);
  } catch (err) {
    throw new AppError('invalid_request', `credits: ${(err as Error).message}`);
  }
}

export function registerOperatorRoutes(api: FastifyInstance, { core, mailer, publicUrl }: ConsoleContext) {
  const db = core.store.db;

  api.get('/console/api/operator/accounts', { ...op('operator.accounts.list'), schema: { hide: true } }, async () => listAccountsForOperator(db));

  api.post<{ Params: { id: string } }>('/console/api/operator/accounts/:id/suspend', { ...op('operator.accounts.suspend'), schema: { hide: true } }, async (request) => {
    if (request.params.id === userOf(request).accountId) throw new AppError('invalid_request', 'The operator cannot suspend their own account.');
    await setAccountStatus(db, request.params.id, 'suspended');
    return { account_id: request.params.id, status: 'suspended' };
  });

  api.post<{ Params: { id: string } }>('/console/api/operator/accounts/:id/unsuspend', { ...op('operator.accounts.unsuspend'), schema: { hide: true } }, async (request) => {
    await setAccountStatus(db, request.params.id, 'active');
    return { account_id: request.params.id, status: 'active' };
  });

  api.post<{ Params: { id: string } }>(
    '/console/api/operator/accounts/:id/grant',
    { ...op('operator.credits.grant'), schema: { hide: true, body: z.object({ credits: Credits }).strict() } },
    async (request) => {
      const amount = credits((request.body as { credits: string | number }).credits);
      const { entryId, balance } = await grantCredits(core.store, request.params.id, amount, { source: 'console' });
      return { account_id: request.params.id, granted_credits: formatCredits(amount), available_credits: formatCredits(balance.available), ledger_entry_id: entryId };
    },
  );

  api.post(
    '/console/api/operator/invitations',
    { ...op('operator.invitations.create'), schema: { hide: true, body: z.object({ email: z.string().max(254), credits: Credits.optional() }).strict() } },
    async (request) => {
      const body = request.body as { email: string; credits?: string | number };
      const amount = body.credits === undefined || body.credits === '' ? 0 : credits(body.credits);
      const invite = await createInvite(core.store, core.config.SIGHTLINE_SIGNUP, body.email, amount, userOf(request).userId);
      const link = tokenLink(publicUrl, 'invite', invite.token);
      let mailed = false;
      if (mailer.configured) {
        const mail = inviteMail(link, formatCredits(amount));
        mailed = await mailer.send(invite.email, mail.subject, mail.text).then(() => true, (err) => (request.log.error({ err }, 'invitation mail failed'), false));
      }
      return { email: invite.email, link, mailed, credits: formatCredits(amount) };
    },
  );
}
