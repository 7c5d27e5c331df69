// Credit balance and the recent ledger for GET /v1/usage.
// The one thing to know: on SQLite the answer is kept per account and limit until the accounts or
// ledger_entries tables change (a change stamp: this connection's writes fire triggers, other
// processes' commits change data_version; see WatchTables), so a client polling its usage costs
// no query until its balance moves. On Postgres every call reads.
import { balanceWithRecent } from '../billing/ledger.ts';
import { formatCredits } from '../money.ts';
import { shareAnswer } from '../freeze.ts';
import type { Store } from '../../db/store.ts';

export type Usage = Awaited<ReturnType<typeof readUsage>>;

async function readUsage(store: Store, accountId: string, recentLimit: number) {
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

/** Most answers kept at once; all are dropped at the next change anyway. */
const MAX_CACHED = 10_000;

interface UsageCache {
  stamp: () => number | undefined;
  at: number | undefined;
  answers: Map<string, Usage>;
}
const caches = new WeakMap<Store, UsageCache | null>();

function cacheOf(store: Store): UsageCache | null {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = store.watchTables ? { stamp: store.watchTables(['accounts', 'ledger_entries']), at: undefined, answers: new Map() } : null;
    caches.set(store, cache);
  }
  return cache;
}

/**
 * The usage answer: synchronously when a kept one still holds (no promise on a poll's path), else
 * read. Frozen when it is kept, because later calls share it.
 */
export function getUsage(store: Store, accountId: string, recentLimit: number): Usage | Promise<Usage> {
  const cache = cacheOf(store);
  const stamp = cache?.stamp();
  if (!cache || stamp === undefined) return readUsage(store, accountId, recentLimit);
  if (cache.at !== stamp) {
    cache.at = stamp;
    cache.answers.clear();
  }
  const key = `${accountId} ${recentLimit}`;
  return cache.answers.get(key) ?? readAndKeep(store, cache, stamp, key, accountId, recentLimit);
}

async function readAndKeep(store: Store, cache: UsageCache, stamp: number, key: string, accountId: string, recentLimit: number): Promise<Usage> {
  const answer = await readUsage(store, accountId, recentLimit);
  // Kept only if nothing changed while it was read (the read may have waited behind a transaction).
  if (cache.stamp() === stamp) {
    if (cache.answers.size >= MAX_CACHED) cache.answers.clear();
    cache.answers.set(key, shareAnswer(answer));
  }
  return answer;
}
