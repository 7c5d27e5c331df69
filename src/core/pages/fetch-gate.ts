// Caps on concurrent outbound page fetches in one process: at most `concurrency` fetches at once,
// at most `queue` more waiting their turn (first come, first served), and at most `perAccount`
// fetches of any one account in the gate (running or waiting), so one account's burst cannot take
// every slot and queue place from the others. Past a cap a fetch is refused at once with 503
// fetch_capacity (Retry-After), so a burst of page requests can neither open unbounded sockets
// nor pile up unbounded waiters. An account's place is given back however the fetch ends
// (answer, error, abort). Nothing is charged for a refused fetch: the paid actions release their
// reservation on any failure.
import { AppError } from '../errors.ts';

export interface FetchGate {
  /** Runs fetch in a slot; `accountId` (when known) counts it against that account's cap. */
  run<T>(fetch: () => Promise<T>, accountId?: string): Promise<T>;
  readonly active: number;
  readonly waiting: number;
  /** An account's fetches in the gate (running or waiting). */
  held(accountId: string): number;
}

export interface FetchGateLimits {
  concurrency: number;
  queue: number;
  /** Fetches of one account in the gate at once; 0 = no cap. */
  perAccount?: number;
}

export function createFetchGate(limits: FetchGateLimits): FetchGate {
  const { concurrency, queue, perAccount = 0 } = limits;
  let active = 0;
  const waiters: (() => void)[] = [];
  const perAccountHeld = new Map<string, number>();
  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else active--;
  };
  const leaveAccount = (accountId: string) => {
    const n = (perAccountHeld.get(accountId) ?? 1) - 1;
    if (n <= 0) perAccountHeld.delete(accountId);
    else perAccountHeld.set(accountId, n);
  };
  return {
    async run<T>(fetch: () => Promise<T>, accountId?: string): Promise<T> {
      const counted = accountId !== undefined && perAccount > 0;
      if (counted && (perAccountHeld.get(accountId) ?? 0) >= perAccount) throw new AppError('fetch_capacity');
      if (active >= concurrency && waiters.length >= queue) throw new AppError('fetch_capacity');
      if (counted) perAccountHeld.set(accountId, (perAccountHeld.get(accountId) ?? 0) + 1);
      try {
        if (active >= concurrency) await new Promise<void>((resolve) => waiters.push(resolve)); // the slot is handed over, active unchanged
        else active++;
        try {
          return await fetch();
        } finally {
          release();
        }
      } finally {
        if (counted) leaveAccount(accountId);
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
    held: (accountId) => perAccountHeld.get(accountId) ?? 0,
  };
}
