// Per-key rate limiting with rate-limiter-flexible. The counter lives where every API process
// can see it: Redis when SIGHTLINE_REDIS_URL is set, otherwise the service's own database
// (Postgres table, or the SQLite file), so several processes share one limit per key.
// An in-memory limiter is the insurance when the store fails: limits stay enforced per process
// instead of failing requests.
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DatabaseHandle } from '../db/connection.ts';
import { AppError } from '../core/errors.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface LocalState {
  left: number;
  storeRemaining: number;
  windowEnd: number;
  blocked: boolean;
}

/**
 * Answers a decision on a reply, the same on every surface: the three RateLimit-* headers, and
 * when refused Retry-After and a 429 rate_limited naming what was limited ("API key", "MCP token").
 */
export function applyRateLimit(reply: { header(name: string, value: number): unknown }, decision: RateLimitDecision, limited: string, points = 1): void {
  reply.header('RateLimit-Limit', decision.limit);
  reply.header('RateLimit-Remaining', decision.remaining);
  reply.header('RateLimit-Reset', decision.resetSeconds);
  if (!decision.allowed) {
    reply.header('Retry-After', decision.resetSeconds);
    const message =
      points > 1 && decision.remaining > 0
        ? `This batch of ${points} messages counts as ${points} requests; ${decision.remaining} of the rate limit of ${decision.limit} requests per minute are left for this ${limited}.`
        : `Rate limit of ${decision.limit} requests per minute exceeded for this ${limited}.`;
    throw new AppError('rate_limited', message, { retry_after_seconds: decision.resetSeconds });
  }
}

export interface KeyRateLimiter {
  /**
   * A decision; synchronous while this process still holds points of the key's batch. `points`
   * (default 1) are taken all or none: more than the key has left this minute is refused, and
   * then nothing is taken (an MCP batch of JSON-RPC messages costs one point per message).
   */
  consume(key: string, points?: number): RateLimitDecision | Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export async function createKeyRateLimiter(opts: {
  perMinute: number;
  handle?: DatabaseHandle;
  redisUrl?: string;
  /** Where a store that cannot be reached is reported (pino's warn/info). */
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** How often, at most, an unreachable store is logged (default one minute). */
  logEveryMs?: number;
}): Promise<KeyRateLimiter> {
  const base = { points: opts.perMinute, duration: 60, keyPrefix: 'sightline_rl' };
  const insuranceLimiter = new RateLimiterMemory(base);
  let limiter: RateLimiterAbstract;
  let closeStore = async () => {};
  /** Set when the store is the service's own SQLite connection (see atStore). */
  let sharedSqlite: DatabaseHandle['db'] | undefined;
  if (opts.redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // Without a listener ioredis writes every failed (re)connect to stderr as an unstructured
    // "Unhandled error event" with a stack, several a second. The insurance limiter already keeps
    // limits (per process) meanwhile: say so once a minute in the log, and when Redis is back.
    const every = opts.logEveryMs ?? 60_000;
    let lastLogged = 0;
    let failures = 0;
    redis.on('error', (err: Error) => {
      failures++;
      const now = Date.now();
      if (now - lastLogged < every) return;
      lastLogged = now;
      opts.log?.warn(
        { store: 'redis', error: err.message, failures },
        'rate limit store unavailable: Redis (SIGHTLINE_REDIS_URL) cannot be reached; each process limits on its own until it can',
      );
      failures = 0;
    });
    redis.on('ready', () => {
      if (!lastLogged) return;
      lastLogged = 0;
      failures = 0;
      opts.log?.info({ store: 'redis' }, 'rate limit store available again');
    });
    limiter = new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter });
    closeStore = async () => void redis.disconnect();
  } else if (opts.handle?.pgPool) {
    const pool = opts.handle.pgPool;
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const l: RateLimiterAbstract = new RateLimiterPostgres(
        { ...base, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', insuranceLimiter },
        (err?: unknown) => (err ? reject(err) : resolve(l)),
      );
    });
  } else if (opts.handle?.sqlite) {
    const sqlite = opts.handle.sqlite;
    sharedSqlite = opts.handle.db;
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const l: RateLimiterAbstract = new RateLimiterSQLite(
        { ...base, storeClient: sqlite, storeType: 'better-sqlite3', tableName: 'rate_limits', insuranceLimiter },
        (err?: unknown) => (err ? reject(err) : resolve(l)),
      );
    });
  } else {
    limiter = insuranceLimiter;
  }

  // Points are taken from the shared store in batches: a process that is serving a key takes
  // `batch` points at once and spends them locally, so the store is written once per batch
  // instead of once per request. The limit stays shared and exact up to one unspent batch per
  // process; batch = 1 % of the limit (1 for limits under 200), so small limits stay exact.
  const batch = Math.max(1, Math.floor(opts.perMinute / 100));
  // `left` 0 with `blocked` set: the store refused this key until windowEnd, so every request
  // until then is answered 429 here, without asking the store again (an abusive burst costs one
  // store round trip, not one per request).
  const local = new Map<string, LocalState>();

  // On SQLite the store shares the service's one connection, and a store write made while a
  // Kysely transaction is open on it would join that transaction (better-sqlite3 nests it as a
  // savepoint): a rollback would hand the points back. Store calls therefore hold Kysely's
  // connection, so they run between transactions. (Never called from inside one: only the
  // request hook consumes.)
  const atStore = <T>(call: () => Promise<T>): Promise<T> => (sharedSqlite ? sharedSqlite.connection().execute(call) : call());

  async function take(key: string, points: number): Promise<RateLimiterRes | null> {
    try {
      return await atStore(() => limiter.consume(key, points));
    } catch (err) {
      if (err instanceof RateLimiterRes) return null;
      throw err;
    }
  }

  const refused = (state: LocalState, now: number): RateLimitDecision => ({
    allowed: false,
    limit: opts.perMinute,
    remaining: 0,
    resetSeconds: Math.max(1, Math.ceil((state.windowEnd - now) / 1000)),
  });

  /** The decision this process can make alone: spend a held point, or repeat a refusal; else undefined. */
  function decideLocally(key: string, now: number): RateLimitDecision | undefined {
    const state = local.get(key);
    if (!state || state.windowEnd <= now) return undefined;
    if (state.left > 0) return spend(state, now);
    return state.blocked ? refused(state, now) : undefined;
  }

  function spend(state: LocalState, now: number, points = 1): RateLimitDecision {
    state.left -= points;
    return {
      allowed: true,
      limit: opts.perMinute,
      remaining: Math.max(0, state.storeRemaining + state.left),
      resetSeconds: Math.max(0, Math.ceil((state.windowEnd - now) / 1000)),
    };
  }

  // One refill at a time per key: concurrent first requests wait for the same batch instead of
  // each taking one from the store (the later ones would overwrite the earlier batches' points).
  const refilling = new Map<string, Promise<void>>();

  async function refillOnce(key: string, now: number): Promise<RateLimitDecision> {
    const pending = refilling.get(key);
    if (pending) {
      await pending;
      const at = Date.now();
      return decideLocally(key, at) ?? refillOnce(key, at);
    }
    let done!: () => void;
    refilling.set(key, new Promise<void>((resolve) => (done = resolve)));
    try {
      return await refill(key, now);
    } finally {
      refilling.delete(key);
      done();
    }
  }

  async function refill(key: string, now: number): Promise<RateLimitDecision> {
    local.delete(key);
    // Ask for a batch; near the end of the allowance fall back to single points.
    let res = batch > 1 ? await take(key, batch) : null;
    let got = batch;
    if (!res) {
      res = await take(key, 1);
      got = 1;
    }
    if (!res) {
      const blocked = await atStore(() => limiter.get(key)).catch(() => null);
      const state: LocalState = { left: 0, storeRemaining: 0, windowEnd: now + Math.max(1_000, blocked?.msBeforeNext ?? 60_000), blocked: true };
      local.set(key, state);
      return refused(state, now);
    }
    const state: LocalState = { left: got, storeRemaining: res.remainingPoints, windowEnd: now + res.msBeforeNext, blocked: false };
    if (local.size > 10_000) local.clear();
    local.set(key, state);
    return spend(state, now);
  }

  /**
   * Several points at once, all or none: spent from this process's held points when they
   * suffice, else the shortfall is taken from the store after reading what it has left, so a
   * request that does not fit is refused without using up the rest of the minute.
   */
  async function consumeMany(key: string, points: number): Promise<RateLimitDecision> {
    for (let pending = refilling.get(key); pending; pending = refilling.get(key)) await pending;
    const now = Date.now();
    let state = local.get(key);
    if (state && state.windowEnd <= now) state = undefined;
    if (state?.blocked) return refused(state, now);
    if (state && state.left >= points) return spend(state, now, points);
    // The held points are this request's from here on: single requests must not spend them while
    // the store answers (they would be spent twice); a refusal gives them back.
    const held = state?.left ?? 0;
    if (state) state.left = 0;
    const need = points - held;
    const current = await atStore(() => limiter.get(key)).catch(() => null);
    const storeLeft = current ? Math.max(0, opts.perMinute - current.consumedPoints) : opts.perMinute;
    const resetMs = current ? current.msBeforeNext : 60_000;
    if (storeLeft < need) {
      if (state && local.get(key) === state) state.left += held;
      return { allowed: false, limit: opts.perMinute, remaining: storeLeft + held, resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
    }
    const res = await take(key, need);
    if (!res) {
      // Another process took the rest meanwhile: the store refuses this key until the window ends.
      const blocked: LocalState = { left: 0, storeRemaining: 0, windowEnd: now + Math.max(1_000, resetMs), blocked: true };
      local.set(key, blocked);
      return refused(blocked, now);
    }
    const next: LocalState = { left: points, storeRemaining: res.remainingPoints, windowEnd: now + res.msBeforeNext, blocked: false };
    local.set(key, next);
    return spend(next, now, points);
  }

  return {
    consume(key, points = 1) {
      if (points > 1) return consumeMany(key, points);
      const now = Date.now();
      // Points left in this process's batch (or a refusal still in force): decided without
      // touching the store or a promise.
      return decideLocally(key, now) ?? refillOnce(key, now);
    },
    close: () => closeStore(),
  };
}
