// The service under test for bench:runs, and the extension point for other engines. A bench
// starts the same pieces as `npm start` (database, migrations, the production platform wiring of
// src/server/runtime.ts with its per-platform gate and retry policy, core, HTTP app, embedded
// worker) from an EngineSetup: the environment that selects and configures the engine.
// The one thing to know: to bench another engine, write an EngineFactory returning its env (and
// fetch, platforms, providerStats if needed) and add it to ENGINES below; the create/completion/
// memory measurements in bench/runs.ts then run unchanged against it (`live`, in live-engine.ts,
// is one: live drivers against fake providers on 127.0.0.1).
import type { FastifyInstance } from 'fastify';
import { buildPlatforms } from '../../src/server/runtime.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createCore, type Core } from '../../src/core/index.ts';
import { storeOf } from '../../src/db/store.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { buildApp } from '../../src/server/app.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { API_PLATFORMS as PLATFORMS, type PlatformName } from '../../src/platforms/types.ts';
import { seedAccount, tempSqliteUrl } from './common.ts';
import { liveEngine } from './live-engine.ts';
import { timeStatements, type StatementTimes } from './sqlite-times.ts';

export interface EngineOptions {
  /** Simulated (sandbox) or expected (live) answer latency per probe, ms. */
  latencyMs: number;
  /** Probes in flight overall; each platform lane gets an equal share (rounded up) unless laneConcurrency is set. */
  concurrency: number;
  /** SIGHTLINE_<PLATFORM>_CONCURRENCY for the engine's platforms (live: default 16). */
  laneConcurrency?: number;
  /** Live: answer delay drawn uniformly from [delayMinMs, delayMaxMs] with a PRNG seeded by seed. */
  delayMinMs?: number;
  delayMaxMs?: number;
  seed?: number;
  /** Live: add the consumer surfaces (fake DataForSEO task flow); default true. */
  consumer?: boolean;
  /** Live: lane width of each consumer surface (default 64). */
  consumerLaneConcurrency?: number;
  /** Live: a consumer task is ready after a delay drawn uniformly from [taskMinMs, taskMaxMs]. */
  taskMinMs?: number;
  taskMaxMs?: number;
  /** Live: SIGHTLINE_WORKER_MAX_WAITING, probes that may wait on their task off their lane (default 1000). */
  maxWaiting?: number;
}

/** What an engine's providers observed, for the ideal and the report. */
export interface ProviderStats {
  /** Mean answer latency per platform measured on the provider's side, ms; the ideal uses it. */
  meanLatencyMs: Partial<Record<PlatformName, number>>;
  /** The longest single answer per platform, ms: no schedule finishes a lane before its slowest task. */
  maxLatencyMs?: Partial<Record<PlatformName, number>>;
  /** The configured (nominal) mean, ms, for the nominal ideal printed next to the realized one. */
  nominalLatencyMs: number;
  /** Report lines, printed as they are. */
  lines: string[];
  /** For --json. */
  detail: unknown;
}

export interface EngineSetup {
  /** Shown in the output, e.g. "sandbox" or "live (fake providers)". */
  name: string;
  /** Service environment for this engine (SIGHTLINE_PLATFORM_ENGINE, provider keys and base URLs…). */
  env: Record<string, string>;
  /** fetch for the live drivers (e.g. one that only reaches 127.0.0.1). */
  fetch?: typeof fetch;
  /** Stops whatever the engine started (fake provider servers…). */
  close?: () => Promise<void>;
  /** Platforms the probes are spread over (default: all six). */
  platforms?: readonly PlatformName[];
  /** One line on how the engine is configured, printed at the start. */
  describe?: () => string;
  /** Latency as measured by the providers; called once a run is terminal, before close. */
  providerStats?: () => Promise<ProviderStats>;
  /**
   * Platforms whose probes wait on an asynchronous provider task off their lane (the wait holds
   * no slot; the lane holds only the post and the fetch), and how many may wait at once.
   */
  offLane?: { platforms: readonly PlatformName[]; maxWaiting: number };
}

export type EngineFactory = (opts: EngineOptions) => Promise<EngineSetup>;

/** SIGHTLINE_<PLATFORM>_CONCURRENCY for every platform, so that lanes never bind before the overall limit. */
export function evenLaneEnv(concurrency: number): Record<string, string> {
  const each = String(Math.ceil(concurrency / PLATFORMS.length));
  return Object.fromEntries(PLATFORMS.map((p) => [`SIGHTLINE_${p.toUpperCase()}_CONCURRENCY`, each]));
}

/** The local sandbox engine with a fixed answer latency (SIGHTLINE_SANDBOX_LATENCY_MS). */
export const sandboxEngine: EngineFactory = async ({ latencyMs, concurrency, laneConcurrency }) => ({
  name: 'sandbox',
  env: {
    SIGHTLINE_PLATFORM_ENGINE: 'sandbox',
    SIGHTLINE_SANDBOX_LATENCY_MS: String(latencyMs),
    ...(laneConcurrency ? evenLaneEnv(laneConcurrency * PLATFORMS.length) : evenLaneEnv(concurrency)),
  },
});

/** Engines selectable with `--engine NAME` (`--live` = `--engine live`). */
export const ENGINES: Record<string, EngineFactory> = { sandbox: sandboxEngine, live: liveEngine };

export interface BenchService {
  engine: EngineSetup;
  /** Max probes in flight per platform lane, as configured. */
  platformConcurrency: Record<PlatformName, number>;
  config: Config;
  core: Core;
  app: FastifyInstance;
  key: string;
  /** Every SQLite statement of the service's connection, counted and timed by kind (see sqlite-times.ts). */
  statements?: StatementTimes;
  /** In-process HTTP request through the full Fastify stack (auth, limiter, validation). */
  request(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function startBenchService(
  engine: EngineSetup,
  opts: { concurrency: number; worker: boolean; credits?: number },
): Promise<BenchService> {
  const db = tempSqliteUrl('runs');
  const config = loadConfig({
    ...engine.env,
    DATABASE_URL: db.url,
    SIGHTLINE_LOG_LEVEL: 'silent',
    SIGHTLINE_RATE_LIMIT_PER_MINUTE: '100000000',
    SIGHTLINE_WORKER_CONCURRENCY: String(opts.concurrency),
  });
  const handle = openDatabase(config.DATABASE_URL, { checkpointInBackground: true });
  await migrateToLatest(handle.db);
  const statements = handle.sqlite ? timeStatements(handle.sqlite) : undefined;
  // Same assembly as openRuntime in src/server/runtime.ts (drivers, gate, retry, lanes).
  const platforms = buildPlatforms(config, { fetch: engine.fetch });
  const core = createCore({
    store: storeOf(handle),
    config,
    drivers: platforms.drivers,
    ask: platforms.ask,
    platformConcurrency: platforms.concurrency,
  });
  const rateLimiter = await createKeyRateLimiter({ perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE, handle });
  const app = await buildApp({ core, rateLimiter });
  await app.ready();
  const { key } = await seedAccount(core.store, opts.credits ?? 10_000_000);
  if (opts.worker) core.startWorker();
  return {
    engine,
    platformConcurrency: platforms.concurrency,
    config,
    core,
    app,
    key,
    statements,
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
