// Credit balance and the recent ledger for GET /v1/usage.
import { balanceWithRecent } from '../billing/ledger.ts';
import { formatCredits } from '../money.ts';
import type { Store } from '../store.ts';

export async function getUsage(store: Store, accountId: string, recentLimit: number) {
  const { balance, recent } = await balanceWithRecent(store, accountId, recentLimit);
  return {
    credits: {
      available_credit_units: formatCredits(balance.available),
      reserved_credit_units: formatCredits(balance.reserved),
      used_credit_units: formatCredits(balance.settled),
      granted_credit_units: formatCredits(balance.granted),
      active_grant_count: balance.activeGrantCount,
    },
    recent,
  };
}
