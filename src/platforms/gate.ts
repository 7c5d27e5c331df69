// Per-platform admission: a concurrency limit (semaphore) and requests-per-minute pacing (sliding
// window of start times). Every platform has its own queue and window, so a slow or rate-limited
// platform never holds back another's work. Hand-written rather than rate-limiter-flexible's
// queue because the two limits must be combined per platform with an injectable clock (tests
// would otherwise wait real minutes); it is ~80 lines with no timers beyond the one wait.
// A caller's abort signal covers the wait: an aborted waiter leaves the queue at once, never
// takes a slot or records a start, and its fn is never called.

import { PLATFORMS, type PlatformName } from './types.ts';

export interface PlatformLimits {
  /** Calls in flight at once (≥ 1). */
  concurrency: number;
  /** Calls started per rolling minute; 0 = unlimited. */
  requestsPerMinute: number;
}

export interface PlatformGate {
  /**
   * Runs fn when the platform has a free slot and room in its minute window. When signal aborts
   * while waiting, rejects with its reason and fn never runs (no slot taken, no start recorded).
   */
  run<T>(platform: PlatformName, fn: (slot: GateSlot) => Promise<T>, signal?: AbortSignal): Promise<T>;
  inFlight(platform: PlatformName): number;
  /** True when a call started now would run at once (free slot and room in the window). */
  hasCapacity(platform: PlatformName): boolean;
}

/** The slot a running call holds. */
export interface GateSlot {
  /**
   * Gives the slot back while `wait` runs (a wait on the provider is not a call in flight) and
   * takes one again, in turn with other callers, once it resolves. If `wait` rejects, or the
   * signal aborts while waiting for the slot again, the call holds no slot any more.
   */
  away<T>(wait: () => Promise<T>): Promise<T>;
}

export interface GateClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const WINDOW_MS = 60_000;

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** p, or a rejection with the signal's reason as soon as it aborts (p keeps running). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

const realClock: GateClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

interface Lane {
  limits: PlatformLimits;
  active: number;
  /** Resolvers of callers waiting for a concurrency slot, FIFO. */
  waiting: Array<() => void>;
  /** Start times within the last minute, oldest first. */
  starts: number[];
  /** Serialises pacing so waiting callers start in order. */
  pacing: Promise<void>;
}

export function createPlatformGate(
  settings: Partial<Record<PlatformName, Partial<PlatformLimits>>>,
  clock: GateClock = realClock,
): PlatformGate {
  const lanes = new Map<PlatformName, Lane>();
  const lane = (p: PlatformName): Lane => {
    let l = lanes.get(p);
    if (!l) {
      const s = settings[p] ?? {};
      l = {
        limits: {
          concurrency: Math.max(1, Math.floor(s.concurrency ?? 4)),
          requestsPerMinute: Math.max(0, Math.floor(s.requestsPerMinute ?? 0)),
        },
        active: 0,
        waiting: [],
        starts: [],
        pacing: Promise.resolve(),
      };
      lanes.set(p, l);
    }
    return l;
  };
  for (const p of PLATFORMS) lane(p);

  const prune = (l: Lane, t: number) => {
    while (l.starts.length && l.starts[0]! <= t - WINDOW_MS) l.starts.shift();
  };

  async function acquireSlot(l: Lane, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) throw abortReason(signal);
    if (l.active < l.limits.concurrency) {
      l.active++;
      return;
    }
    // The releasing caller hands its slot over directly (active stays the same). An aborted waiter
    // takes itself off the list; once handed the slot it owns it (run's finally gives it back).
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = l.waiting.indexOf(handOver);
        if (i < 0) return; // already handed the slot
        l.waiting.splice(i, 1);
        reject(abortReason(signal!));
      };
      const handOver = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      l.waiting.push(handOver);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function releaseSlot(l: Lane): void {
    const next = l.waiting.shift();
    if (next) next();
    else l.active--;
  }

  /**
   * Waits until the minute window has room, then records this start. A turn whose caller aborted
   * records nothing and hands the window on to the next waiter.
   */
  function pace(l: Lane, signal: AbortSignal | undefined): Promise<void> {
    const rpm = l.limits.requestsPerMinute;
    if (rpm <= 0) return signal?.aborted ? Promise.reject(abortReason(signal)) : Promise.resolve();
    const turn = l.pacing.then(async () => {
      for (;;) {
        if (signal?.aborted) throw abortReason(signal);
        const t = clock.now();
        prune(l, t);
        if (l.starts.length < rpm) {
          l.starts.push(t);
          return;
        }
        await untilAborted(clock.sleep(Math.max(1, l.starts[0]! + WINDOW_MS - t)), signal);
      }
    });
    l.pacing = turn.catch(() => {});
    return untilAborted(turn, signal);
  }

  return {
    async run<T>(platform: PlatformName, fn: (slot: GateSlot) => Promise<T>, signal?: AbortSignal): Promise<T> {
      const l = lane(platform);
      await acquireSlot(l, signal);
      let held = true;
      const slot: GateSlot = {
        async away(wait) {
          if (!held) return wait();
          held = false;
          releaseSlot(l);
          const value = await wait();
          await acquireSlot(l, signal);
          held = true;
          return value;
        },
      };
      try {
        await pace(l, signal);
        if (signal?.aborted) throw abortReason(signal);
        return await fn(slot);
      } finally {
        if (held) releaseSlot(l);
      }
    },
    inFlight: (platform) => lane(platform).active,
    hasCapacity(platform) {
      const l = lane(platform);
      if (l.active >= l.limits.concurrency) return false;
      if (l.limits.requestsPerMinute <= 0) return true;
      prune(l, clock.now());
      return l.starts.length < l.limits.requestsPerMinute;
    },
  };
}
