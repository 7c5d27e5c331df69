// Caps on concurrent outbound page fetches in one process. At most `concurrency` fetches run at
// once, and at most `perAccount` of any one account, so one account's burst cannot take every
// slot; a fetch past either cap waits its turn (first come, first served among those that may
// run). At most `queue` fetches wait in all, and at most a quarter of the queue (never fewer than
// `perAccount`) for one account, so a burst cannot take every waiting place from the others
// either. Past a waiting cap a fetch is refused at once with 503 fetch_capacity (Retry-After),
// so a burst of page requests can neither open unbounded sockets nor pile up unbounded waiters.
// A place is given back however the fetch ends (answer, error, abort). Nothing is charged for a
// refused fetch: the paid actions release their reservation on any failure.
import { AppError } from '../errors.ts';

export interface FetchGate {
  /** Runs fetch in a slot; `accountId` (when known) counts it against that account's caps. */
  run<T>(fetch: () => Promise<T>, accountId?: string): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  /** An account's fetches in the gate (running or waiting). */
  held(accountId: string): number;
}

export interface FetchGateLimits {
  concurrency: number;
  queue: number;
  /** Fetches of one account running at once; 0 = no cap. */
  perAccount?: number;
}

interface Waiter {
  accountId: string | undefined;
  start(): void;
}

export function createFetchGate(limits: FetchGateLimits): FetchGate {
  const { concurrency, queue, perAccount = 0 } = limits;
  const accountQueue = Math.max(perAccount, Math.floor(queue / 4));
  let active = 0;
  const waiters: Waiter[] = [];
  const running = new Map<string, number>();
  const waitingOf = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string | undefined, d: number) => {
    if (k === undefined) return;
    const n = (m.get(k) ?? 0) + d;
    if (n <= 0) m.delete(k);
    else m.set(k, n);
  };
  const mayRun = (accountId: string | undefined) => active < concurrency && (accountId === undefined || (running.get(accountId) ?? 0) < perAccount);
  const begin = (accountId: string | undefined) => {
    active++;
    bump(running, accountId, 1);
  };
  /** Hands freed slots to the oldest waiters that may run (skipping accounts at their cap). */
  const dispatch = () => {
    for (let i = 0; i < waiters.length && active < concurrency; ) {
      const w = waiters[i]!;
      if (!mayRun(w.accountId)) {
        i++;
        continue;
      }
      waiters.splice(i, 1);
      bump(waitingOf, w.accountId, -1);
      begin(w.accountId);
      w.start();
    }
  };
  return {
    async run<T>(fetch: () => Promise<T>, accountId?: string): Promise<T> {
      const account = accountId !== undefined && perAccount > 0 ? accountId : undefined;
      if (mayRun(account)) begin(account);
      else {
        if (waiters.length >= queue) throw new AppError('fetch_capacity');
        if (account !== undefined && (waitingOf.get(account) ?? 0) >= accountQueue) throw new AppError('fetch_capacity');
        bump(waitingOf, account, 1);
        await new Promise<void>((start) => waiters.push({ accountId: account, start }));
      }
      try {
        return await fetch();
      } finally {
        active--;
        bump(running, account, -1);
        dispatch();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
    held: (accountId) => (running.get(accountId) ?? 0) + (waitingOf.get(accountId) ?? 0),
  };
}
