// The service under test for bench:runs, and the extension point for other engines. A bench
// starts the same pieces as `npm start` (database, migrations, core, HTTP app, embedded worker)
// from an EngineSetup: the platform drivers, the ask function and the per-platform lanes.
// The one thing to know: to bench another engine (e.g. live drivers against local fake
// providers), write a function returning an EngineSetup and add it to ENGINES below; the
// create/completion/memory measurements in bench/runs.ts then run unchanged against it.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { createCore, type Core } from '../../src/core/index.ts';
import type { AskPlatform } from '../../src/core/visibility/probe-executor.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { buildApp } from '../../src/http/app.ts';
import { createKeyRateLimiter } from '../../src/http/plugins/rate-limit.ts';
import { createSandboxDriver } from '../../src/platforms/sandbox.ts';
import { PLATFORMS, type PlatformDriver, type PlatformName } from '../../src/platforms/types.ts';
import { seedAccount, tempSqliteUrl } from './common.ts';

export interface EngineOptions {
  /** Simulated (sandbox) or expected (live) answer latency per probe, ms. */
  latencyMs: number;
  /** Probes in flight overall; each platform lane gets an equal share (rounded up). */
  concurrency: number;
}

export interface EngineSetup {
  /** Shown in the output, e.g. "sandbox" or "live (fake providers)". */
  name: string;
  drivers: Record<PlatformName, PlatformDriver>;
  ask: AskPlatform;
  /** Max probes in flight per platform lane. */
  platformConcurrency: Record<PlatformName, number>;
  /** Extra configuration (e.g. provider base URLs pointing at 127.0.0.1). */
  env?: Record<string, string>;
  /** Stops whatever the engine started (fake provider servers…). */
  close?: () => Promise<void>;
}

export type EngineFactory = (opts: EngineOptions) => Promise<EngineSetup>;

/** Per-platform lanes that never bind before the overall limit does. */
export function evenLanes(concurrency: number): Record<PlatformName, number> {
  const each = Math.ceil(concurrency / PLATFORMS.length);
  return Object.fromEntries(PLATFORMS.map((p) => [p, each])) as Record<PlatformName, number>;
}

/** The local sandbox engine with a fixed answer latency (SIGHTLINE_SANDBOX_LATENCY_MS). */
export const sandboxEngine: EngineFactory = async ({ latencyMs, concurrency }) => {
  const drivers = Object.fromEntries(PLATFORMS.map((p) => [p, createSandboxDriver(p, { latencyMs })])) as Record<PlatformName, PlatformDriver>;
  return {
    name: 'sandbox',
    drivers,
    ask: (req) => drivers[req.platform].ask(req),
    platformConcurrency: evenLanes(concurrency),
  };
};

/** Engines selectable with `--engine NAME`. */
export const ENGINES: Record<string, EngineFactory> = { sandbox: sandboxEngine };

export interface BenchService {
  engine: EngineSetup;
  config: Config;
  core: Core;
  app: FastifyInstance;
  key: string;
  /** In-process HTTP request through the full Fastify stack (auth, limiter, validation). */
  request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startBenchService(
  engine: EngineSetup,
  opts: { concurrency: number; latencyMs: number; worker: boolean; credits?: number },
): Promise<BenchService> {
  const db = tempSqliteUrl('runs');
  const config = loadConfig({
    ...engine.env,
    DATABASE_URL: db.url,
    SIGHTLINE_LOG_LEVEL: 'silent',
    SIGHTLINE_RATE_LIMIT_PER_MINUTE: '100000000',
    SIGHTLINE_WORKER_CONCURRENCY: String(opts.concurrency),
    SIGHTLINE_SANDBOX_LATENCY_MS: String(opts.latencyMs),
  });
  const handle = openDatabase(config.DATABASE_URL);
  await migrateToLatest(handle.db);
  // Same assembly as src/cli/runtime.ts, with the engine's drivers and lanes.
  const core = createCore({
    store: { db: handle.db, dialect: handle.dialect },
    config,
    drivers: engine.drivers,
    ask: engine.ask,
    platformConcurrency: engine.platformConcurrency,
    workerConcurrency: opts.concurrency,
  });
  const rateLimiter = await createKeyRateLimiter({ perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE, handle });
  const app = await buildApp({ core, rateLimiter });
  await app.ready();
  const { key } = await seedAccount(core.store, opts.credits ?? 10_000_000);
  if (opts.worker) core.startWorker();
  return {
    engine,
    config,
    core,
    app,
    key,
    async request(method, url, body) {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key}` },
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      return { status: res.statusCode, body: res.json() };
    },
    async close() {
      await app.close();
      await rateLimiter.close();
      await core.close();
      await handle.close();
      await engine.close?.();
      db.cleanup();
    },
  };
}
