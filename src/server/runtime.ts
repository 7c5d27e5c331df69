// The composition root: opens the database, runs migrations, builds the platform drivers with
// their retry and pacing policy, and assembles the core, so that `serve`, `worker`, the admin
// commands and the tests all start from the same wiring.
import type { Config } from '../config.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { AUTH_CHANNEL, listenChannel, notifyChannel, type ChannelListener } from '../db/notify.ts';
import { clearAuthCache, shareAuthChanges } from '../core/accounts/accounts.ts';
import { createCore, type Core, type CoreOptions } from '../core/index.ts';
import { storeOf } from '../db/store.ts';
import { createPlatformGate } from '../platforms/gate.ts';
import { createDrivers, platformSettingsFromEnv, PLATFORM_ENV_PREFIX } from '../platforms/registry.ts';
import { gatedAsk } from '../platforms/retry.ts';
import { undiciFetch } from '../platforms/live/http.ts';
import { PlatformError, PLATFORMS, type PlatformName } from '../platforms/types.ts';
import type { Logger } from 'pino';
import { getMetrics } from '../ops/metrics.ts';
import { CI_LANE } from '../core/content/runs.ts';

export interface Runtime {
  handle: DatabaseHandle;
  core: Core;
  /** `graceMs`: how long running jobs may finish before they are aborted (and go back to the queue). */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/** The sandbox answers locally, so it may run wider than a provider's default of 4. */
const SANDBOX_DEFAULT_CONCURRENCY = 16;

export function buildPlatforms(config: Config, opts: { fetch?: typeof fetch } = {}) {
  const metrics = getMetrics();
  const engine = config.SIGHTLINE_PLATFORM_ENGINE;
  const settings = platformSettingsFromEnv(config.env);
  if (engine === 'sandbox') {
    for (const p of PLATFORMS) {
      if (!config.env[`SIGHTLINE_${PLATFORM_ENV_PREFIX[p]}_CONCURRENCY`] && !config.env[`SIGHTLINE_${p.toUpperCase()}_CONCURRENCY`]) {
        settings[p].concurrency = SANDBOX_DEFAULT_CONCURRENCY;
      }
    }
  }
  // undiciFetch unless the caller brings its own: the same requests for less CPU per probe.
  const drivers = createDrivers({
    engine,
    env: config.env,
    sandboxLatencyMs: config.SIGHTLINE_SANDBOX_LATENCY_MS,
    fetch: opts.fetch ?? undiciFetch,
  });
  const gate = createPlatformGate(settings);
  // Every attempt (retries included) passes the platform's gate: concurrency and requests/minute.
  // The attempt timeout starts once the gate admits it; the wait is bounded by the probe's signal.
  const gated = gatedAsk(drivers, gate, (p) => ({ timeoutMs: settings[p].timeoutMs, maxAttempts: settings[p].maxAttempts }));
  // Provider latency and errors per platform (retries included), for /metrics.
  // A call refused by the caller's beforeSend (the worker lost its lease, the probe ended) was
  // never sent: it is not a provider call and counts nowhere.
  const ask: typeof gated = async (req) => {
    const started = performance.now();
    let refused = false;
    const hook = req.beforeSend;
    const counted = hook ? { ...req, beforeSend: () => hook().catch((err: unknown) => ((refused = true), Promise.reject(err))) } : req;
    try {
      const answer = await gated(counted);
      metrics.providerCall(req.platform, 'ok', (performance.now() - started) / 1000);
      return answer;
    } catch (err) {
      if (!refused) metrics.providerCall(req.platform, err instanceof PlatformError ? err.code : 'error', (performance.now() - started) / 1000);
      throw err;
    }
  };
  const concurrency = Object.fromEntries(PLATFORMS.map((p) => [p, settings[p].concurrency])) as Record<PlatformName, number>;
  return { drivers, ask, concurrency };
}

export async function openRuntime(
  config: Config,
  opts: { migrate?: boolean; fetch?: typeof fetch; core?: Partial<CoreOptions>; onDatabaseEvent?: OpenOptions['onDatabaseEvent']; log?: Logger } = {},
): Promise<Runtime> {
  const metrics = getMetrics();
  const handle = openDatabase(config.DATABASE_URL, {
    pool: { max: config.SIGHTLINE_DB_POOL_MAX, waitMs: config.SIGHTLINE_DB_POOL_WAIT_MS },
    checkpointInBackground: true,
    onDatabaseEvent: (event, err) => {
      metrics.databaseEvent(event);
      opts.log?.warn({ event, error: (err as Error)?.message }, `database ${event}`);
      opts.onDatabaseEvent?.(event, err);
    },
  });
  metrics.attach(storeOf(handle), handle.pgPool, [...PLATFORMS, CI_LANE]);
  if (opts.migrate !== false) await migrateToLatest(handle.db);
  // Postgres: revocations and suspensions reach every process's key cache at once (accounts.ts).
  let authListener: ChannelListener | undefined;
  if (handle.dialect === 'postgres') {
    shareAuthChanges(handle.db, () => notifyChannel(handle.db, AUTH_CHANNEL));
    authListener = listenChannel(config.DATABASE_URL, AUTH_CHANNEL, () => clearAuthCache(handle.db), {
      onError: (err) => opts.log?.warn({ error: (err as Error)?.message }, 'auth change listener lost its connection; reconnecting'),
    });
    await authListener.ready;
  }
  const platforms = buildPlatforms(config, { fetch: opts.fetch });
  const core = createCore({
    store: storeOf(handle),
    config,
    drivers: platforms.drivers,
    ask: platforms.ask,
    platformConcurrency: platforms.concurrency,
    jobLog: opts.log,
    onJobOutcome: (job, outcome, ms) => metrics.jobOutcome(job.kind, job.lane, outcome, ms / 1000),
    onWorkerError: opts.log ? (err) => opts.log!.error({ error: (err as Error)?.message }, 'worker error') : undefined,
    ...opts.core,
  });
  return {
    handle,
    core,
    async close(closeOpts = {}) {
      await core.close(closeOpts);
      await authListener?.close();
      await handle.close();
    },
  };
}
