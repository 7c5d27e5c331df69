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
import type { DatabaseHandle } from '../../db/connection.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface KeyRateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export async function createKeyRateLimiter(opts: {
  perMinute: number;
  handle?: DatabaseHandle;
  redisUrl?: string;
}): Promise<KeyRateLimiter> {
  const base = { points: opts.perMinute, duration: 60, keyPrefix: 'sightline_rl' };
  const insuranceLimiter = new RateLimiterMemory(base);
  let limiter: RateLimiterAbstract;
  let closeStore = async () => {};
  if (opts.redisUrl) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    limiter = new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter });
    closeStore = async () => void redis.disconnect();
  } else if (opts.handle?.pgPool) {
    const pool = opts.handle.pgPool;
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const l: RateLimiterAbstract = new RateLimiterPostgres(
        { ...base, storeClient: pool, tableName: 'rate_limits', insuranceLimiter },
        (err?: unknown) => (err ? reject(err) : resolve(l)),
      );
    });
  } else if (opts.handle?.sqlite) {
    const sqlite = opts.handle.sqlite;
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const l: RateLimiterAbstract = new RateLimiterSQLite(
        { ...base, storeClient: sqlite, storeType: 'better-sqlite3', tableName: 'rate_limits', insuranceLimiter },
        (err?: unknown) => (err ? reject(err) : resolve(l)),
      );
    });
  } else {
    limiter = insuranceLimiter;
  }

  return {
    async consume(key) {
      try {
        const res = await limiter.consume(key, 1);
        return {
          allowed: true,
          limit: opts.perMinute,
          remaining: res.remainingPoints,
          resetSeconds: Math.ceil(res.msBeforeNext / 1000),
        };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, limit: opts.perMinute, remaining: 0, resetSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
        }
        throw err;
      }
    },
    close: () => closeStore(),
  };
}
