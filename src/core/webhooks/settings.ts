// An account's alert settings: the credits.low threshold (null: never) and which events each of
// its console users gets by e-mail. Setting or changing it
// re-arms the alert, so a threshold set above the current balance fires at the next reservation.
import { formatCredits, parseCredits } from '../money.ts';
import { nowIso } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { Principal } from '../accounts/accounts.ts';
import { requireAdminToGrant } from '../accounts/team.ts';
import { listAlertEmails, setAlertEmails } from './alert-mail.ts';

export async function getNotificationSettings(store: Store, accountId: string) {
  const row = await store.db.selectFrom('notification_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  return { ...render(row?.credits_low_threshold ?? null, row?.credits_low_fired_at ?? null), email_alerts: await listAlertEmails(store, accountId) };
}

function render(threshold: number | string | null, firedAt: string | null) {
  return {
    credits_low_threshold: threshold === null ? null : formatCredits(Number(threshold)),
    credits_low_armed: threshold !== null && firedAt === null,
  };
}

export async function updateNotificationSettings(
  store: Store,
  accountId: string,
  patch: { credits_low_threshold?: string | number | null; email_alerts?: { email: string; events: string[] }[] },
  by: Pick<Principal, 'session'> = {},
) {
  // Each person chooses their own mail: a signed-in member changes no one else's (an admin, or a
  // key acting for the account, may set anyone's, as when setting up the team's alerts).
  const me = by.session?.email.toLowerCase();
  if (me !== undefined && patch.email_alerts?.some((c) => c.email.trim().toLowerCase() !== me)) {
    requireAdminToGrant(by, "changes another person's e-mail alerts (you choose your own)");
  }
  if (patch.email_alerts) await setAlertEmails(store, accountId, patch.email_alerts);
  if (patch.credits_low_threshold === undefined) return getNotificationSettings(store, accountId);
  const threshold = patch.credits_low_threshold === null ? null : parseCredits(patch.credits_low_threshold);
  const now = nowIso();
  await store.db
    .insertInto('notification_settings')
    .values({ account_id: accountId, credits_low_threshold: threshold, credits_low_fired_at: null, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ credits_low_threshold: threshold, credits_low_fired_at: null, updated_at: now }))
    .execute();
  return { ...render(threshold, null), email_alerts: await listAlertEmails(store, accountId) };
}
