// The composition root: opens the database, runs migrations, builds the platform drivers with
// their retry and pacing policy, and assembles the core, so that `serve`, `worker`, the admin
// commands and the tests all start from the same wiring.
import type { Config } from '../config.ts';
import type { DatabaseHandle, OpenOptions } from '../db/connection.ts';
import { authenticationFailure } from '../db/resilience.ts';
import { createCore, type Core, type CoreOptions } from '../core/index.ts';
import { openConfiguredDatabase } from './database.ts';
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

/** A worker's failure in the log; a claim the database refused for its credentials says so, and what to fix. */
function workerError(log: Logger, err: unknown): void {
  const refused = authenticationFailure(err);
  log.error({ error: (err as Error)?.message, ...(refused && { reason: refused.reason, fix: refused.message }) }, 'worker error');
}

export async function openRuntime(
  config: Config,
  opts: { migrate?: boolean; fetch?: typeof fetch; core?: Partial<CoreOptions>; onDatabaseEvent?: OpenOptions['onDatabaseEvent']; log?: Logger } = {},
): Promise<Runtime> {
  const metrics = getMetrics();
  const database = await openConfiguredDatabase(config, {
    migrate: opts.migrate,
    listen: true,
    checkpointInBackground: true,
    onDatabaseEvent: (event, err) => {
      metrics.databaseEvent(event);
      opts.log?.warn({ event, error: (err as Error)?.message }, `database ${event}`);
      opts.onDatabaseEvent?.(event, err);
    },
    onListenError: (err) => opts.log?.warn({ error: (err as Error)?.message }, 'auth change listener lost its connection; reconnecting'),
  });
  const { handle, store } = database;
  metrics.attach(store, handle.pgPool, [...PLATFORMS, CI_LANE]);
  const platforms = buildPlatforms(config, { fetch: opts.fetch });
  const core = createCore({
    store,
    config,
    drivers: platforms.drivers,
    ask: platforms.ask,
    platformConcurrency: platforms.concurrency,
    jobLog: opts.log,
    onJobOutcome: (job, outcome, ms) => metrics.jobOutcome(job.kind, job.lane, outcome, ms / 1000),
    onWorkerError: opts.log ? (err) => workerError(opts.log!, err) : undefined,
    ...opts.core,
  });
  return {
    handle,
    core,
    async close(closeOpts = {}) {
      await core.close(closeOpts);
      await database.close();
    },
  };
}
