// Per-platform admission: a concurrency limit (semaphore) and requests-per-minute pacing (sliding
// window of start times). Every platform has its own queue and window, so a slow or rate-limited
// platform never holds back another's work. Hand-written rather than rate-limiter-flexible's
// queue because the two limits must be combined per platform with an injectable clock (tests
// would otherwise wait real minutes); it is ~80 lines with no timers beyond the one wait.

import { PLATFORMS, type PlatformName } from './types.ts';

export interface PlatformLimits {
  /** Calls in flight at once (≥ 1). */
  concurrency: number;
  /** Calls started per rolling minute; 0 = unlimited. */
  requestsPerMinute: number;
}

export interface PlatformGate {
  /** Runs fn when the platform has a free slot and room in its minute window. */
  run<T>(platform: PlatformName, fn: () => Promise<T>): Promise<T>;
  inFlight(platform: PlatformName): number;
  /** True when a call started now would run at once (free slot and room in the window). */
  hasCapacity(platform: PlatformName): boolean;
}

export interface GateClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const WINDOW_MS = 60_000;

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

  async function acquireSlot(l: Lane): Promise<void> {
    if (l.active < l.limits.concurrency) {
      l.active++;
      return;
    }
    // The releasing caller hands its slot over directly (active stays the same).
    await new Promise<void>((resolve) => l.waiting.push(resolve));
  }

  function releaseSlot(l: Lane): void {
    const next = l.waiting.shift();
    if (next) next();
    else l.active--;
  }

  /** Waits until the minute window has room, then records this start. */
  function pace(l: Lane): Promise<void> {
    const rpm = l.limits.requestsPerMinute;
    if (rpm <= 0) return Promise.resolve();
    const turn = l.pacing.then(async () => {
      for (;;) {
        const t = clock.now();
        prune(l, t);
        if (l.starts.length < rpm) {
          l.starts.push(t);
          return;
        }
        await clock.sleep(Math.max(1, l.starts[0]! + WINDOW_MS - t));
      }
    });
    l.pacing = turn.catch(() => {});
    return turn;
  }

  return {
    async run<T>(platform: PlatformName, fn: () => Promise<T>): Promise<T> {
      const l = lane(platform);
      await acquireSlot(l);
      try {
        await pace(l);
        return await fn();
      } finally {
        releaseSlot(l);
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
