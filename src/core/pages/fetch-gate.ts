// A cap on concurrent outbound page fetches per process: at most `concurrency` fetches at once,
// at most `queue` more waiting their turn (first come, first served); past that a fetch is
// refused at once with 503 fetch_capacity (Retry-After), so a burst of page requests can neither
// open unbounded sockets nor pile up unbounded waiters. Nothing is charged for a refused fetch:
// the paid actions release their reservation on any failure.
import { AppError } from '../errors.ts';

export interface FetchGate {
  run<T>(fetch: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createFetchGate(concurrency: number, queue: number): FetchGate {
  let active = 0;
  const waiters: (() => void)[] = [];
  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else active--;
  };
  return {
    async run<T>(fetch: () => Promise<T>): Promise<T> {
      if (active >= concurrency) {
        if (waiters.length >= queue) throw new AppError('fetch_capacity');
        await new Promise<void>((resolve) => waiters.push(resolve)); // the slot is handed over, active unchanged
      } else {
        active++;
      }
      try {
        return await fetch();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
  };
}
