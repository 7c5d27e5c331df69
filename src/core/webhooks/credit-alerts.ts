// credits.low: a reservation left the balance below the account's threshold while the alert was
// armed (it fires once and disarms in the reservation's transaction, which locked the account);
// a grant that lifts the balance back to the threshold re-arms it. Releases do not re-arm: a
// balance flapping around the threshold as runs settle would alert again and again.
import { formatCredits } from '../money.ts';
import { nowIso } from '../../lib/ids.ts';
import type { Executor } from '../../db/store.ts';
import { emitEvent } from './events.ts';

/**
 * After a reservation, in its transaction (which locked the account first): when the balance is
 * now below the account's threshold and the alert is armed, fires credits.low and disarms it.
 */
export async function creditsReserved(db: Executor, accountId: string, available: number): Promise<void> {
  const now = nowIso();
  const fired = await db
    .updateTable('notification_settings')
    .set({ credits_low_fired_at: now })
    .where('account_id', '=', accountId)
    .where('credits_low_fired_at', 'is', null)
    .where('credits_low_threshold', 'is not', null)
    .where('credits_low_threshold', '>', available)
    .returning(['credits_low_threshold'])
    .executeTakeFirst();
  if (!fired) return;
  await emitEvent(db, {
    accountId,
    type: 'credits.low',
    dedupeKey: `credits.low:${accountId}:${now}`,
    data: { available_credits: formatCredits(Math.max(0, available)), threshold: formatCredits(Number(fired.credits_low_threshold)) },
  });
}

/** After a grant, in its transaction: a balance back at or above the threshold re-arms credits.low. */
export async function creditsGranted(db: Executor, accountId: string, available: number): Promise<void> {
  await db
    .updateTable('notification_settings')
    .set({ credits_low_fired_at: null })
    .where('account_id', '=', accountId)
    .where('credits_low_fired_at', 'is not', null)
    .where('credits_low_threshold', '<=', available)
    .execute();
}
