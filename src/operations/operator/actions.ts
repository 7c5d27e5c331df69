// The operator's actions offered by both the console's operator API (src/console/api/operator.ts)
// and the operator commands (src/cli/admin.ts): each once, with its core call and its answer.
// The surfaces only read their input their own way (flags or a JSON body) and print or send
// the answer.
import { z } from 'zod';
import { setAccountStatus } from '../../core/accounts/accounts.ts';
import { createInvite, tokenLink } from '../../core/accounts/users.ts';
import { grantCredits } from '../../core/billing/ledger.ts';
import type { Core } from '../../core/index.ts';
import type { AccountRole } from '../../db/schema.ts';
import { formatCredits } from '../../core/money.ts';

/** Credits as a surface receives them: text ("2.50") or a number. */
export const CreditsInput = z.union([z.string().max(20), z.number()]);

export const AccountStatusAnswer = z.object({ account_id: z.string(), status: z.enum(['active', 'suspended']) });
export type AccountStatusAnswer = z.infer<typeof AccountStatusAnswer>;

/** `accounts suspend|unsuspend`: the account's status set. */
export async function setAccountStatusOperation(core: Pick<Core, 'store'>, accountId: string, status: 'active' | 'suspended'): Promise<AccountStatusAnswer> {
  await setAccountStatus(core.store.db, accountId, status);
  return { account_id: accountId, status };
}

export const GrantAnswer = z.object({ account_id: z.string(), granted_credits: z.string(), available_credits: z.string(), ledger_entry_id: z.string() });
export type GrantAnswer = z.infer<typeof GrantAnswer>;

/** `credits grant`: credits added to an account's balance (a top-up: bought credits). */
export async function grantCreditsOperation(
  core: Pick<Core, 'store'>,
  accountId: string,
  amount: number,
  opts: { source: 'cli' | 'console'; topUp?: boolean },
): Promise<GrantAnswer> {
  const { entryId, balance } = await grantCredits(core.store, accountId, amount, opts);
  return { account_id: accountId, granted_credits: formatCredits(amount), available_credits: formatCredits(balance.available), ledger_entry_id: entryId };
}

export const InviteAnswer = z.object({
  email: z.string(),
  link: z.string(),
  credits: z.string(),
  /** The existing account the invitation joins; null when it opens an account of its own. */
  account_id: z.string().nullable(),
  /** The invitee's role in the account (the admin of a new one). */
  role: z.enum(['admin', 'member']),
  /** True when the email had a pending invitation, whose link this one replaced (it stops working). */
  replaced: z.boolean(),
});
export type InviteAnswer = z.infer<typeof InviteAnswer>;

/**
 * `users invite`: a one-time sign-up link for an address, with the credits its account starts
 * with; with `into`, a link that brings the address into an existing account with a role (no credits).
 */
export async function inviteUserOperation(
  core: Pick<Core, 'store' | 'config'>,
  publicUrl: string,
  email: string,
  credits: number,
  invitedBy: string,
  into?: { accountId: string; accountRole: AccountRole },
): Promise<InviteAnswer> {
  const invite = await createInvite(core.store, core.config.SIGHTLINE_SIGNUP, email, credits, invitedBy, into);
  return {
    email: invite.email,
    link: tokenLink(publicUrl, 'invite', invite.token),
    credits: formatCredits(credits),
    account_id: into?.accountId ?? null,
    role: into?.accountRole ?? 'admin',
    replaced: invite.replaced,
  };
}
