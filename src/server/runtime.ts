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
import { SERVED_BY } from '../platforms/consumer/providers.ts';
import { gatedAsk } from '../platforms/retry.ts';
import { undiciFetch } from '../platforms/live/http.ts';
import { CONSUMER_PLATFORMS, PlatformError, PLATFORMS, type AskPlatform, type ConsumerPlatform, type PlatformDriver, type PlatformName } from '../platforms/types.ts';
import type { Logger } from 'pino';
import { getMetrics } from '../ops/metrics.ts';
import { CI_LANE } from '../core/content/runs.ts';
import { recordProbeKeyStatus } from './key-check.ts';

export interface Runtime {
  handle: DatabaseHandle;
  core: Core;
  /** What the operator is told at start: the engine, and in live mode which platforms can answer. */
  platforms: PlatformsStatus;
  /** `graceMs`: how long running jobs may finish before they are aborted (and go back to the queue). */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/** The sandbox answers locally, so it may run wider than a provider's default of 4. */
const SANDBOX_DEFAULT_CONCURRENCY = 16;

/** The credentials a platform's requests carry (consumer surfaces: their provider's). */
function credentialNames(platform: PlatformName, provider: string | null | undefined): string {
  if ((CONSUMER_PLATFORMS as readonly string[]).includes(platform)) {
    const providers = provider ? [provider] : SERVED_BY[platform as ConsumerPlatform];
    return providers.map((p) => (p === 'serpapi' ? 'SERPAPI_API_KEY' : 'DATAFORSEO_LOGIN/DATAFORSEO_PASSWORD')).join(' or ');
  }
  return `${PLATFORM_ENV_PREFIX[platform]}_API_KEY`;
}

export interface PlatformsStatus {
  engine: 'live' | 'sandbox';
  /** Platforms whose driver can run (live: credentials configured; their validity is known only once a provider answers). */
  available: PlatformName[];
  /** Live mode: platforms without credentials, each with the variables that would configure it. */
  unconfigured: { platform: PlatformName; set: string }[];
}

export function platformsStatus(engine: 'live' | 'sandbox', drivers: Record<PlatformName, PlatformDriver>): PlatformsStatus {
  const available = PLATFORMS.filter((p) => drivers[p].available());
  const unconfigured = PLATFORMS.filter((p) => !drivers[p].available()).map((p) => ({ platform: p, set: credentialNames(p, drivers[p].provider) }));
  return { engine, available, unconfigured };
}

/** The start line's words on the platforms: which answer, which have no credentials and what to set. */
export function describePlatforms(status: PlatformsStatus, judgeModel?: string, keysChecked = false): string {
  if (status.engine === 'sandbox') return 'platforms: sandbox engine (simulated answers; SIGHTLINE_PLATFORM_ENGINE=live asks the providers)';
  const lines = [`platforms (live): ${status.available.join(', ') || 'none'} configured`];
  if (status.unconfigured.length) {
    lines.push(`  no credentials, refused as platform_unavailable: ${status.unconfigured.map((u) => `${u.platform} (${u.set})`).join(', ')}`);
  }
  if (judgeModel) lines.push(`  judge: ${judgeModel}`);
  lines.push(
    keysChecked
      ? '  keys: being checked now with each provider\'s free listing call (logged as "provider key check"); a key a probe has refused is logged as "provider refused the credentials"'
      : '  keys are checked by the first probe of each platform; a refused key is logged as "provider refused the credentials"',
  );
  return lines.join('\n');
}

/** At most one log line per platform and failure per this long for a misconfigured platform. */
const MISCONFIG_LOG_INTERVAL_MS = 60_000;

export function buildPlatforms(config: Config, opts: { fetch?: typeof fetch; log?: Logger } = {}) {
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
  // Live: an answer proves the key that carried it, a refusal refuses it (sightline_provider_key_status,
  // named as the key check names them: the API platform, or a consumer surface's provider).
  const keyHolder = engine === 'live' ? (p: PlatformName) => drivers[p].provider ?? p : null;
  const ask: typeof gated = async (req) => {
    const started = performance.now();
    let refused = false;
    const hook = req.beforeSend;
    const counted = hook ? { ...req, beforeSend: () => hook().catch((err: unknown) => ((refused = true), Promise.reject(err))) } : req;
    try {
      const answer = await gated(counted);
      metrics.providerCall(req.platform, 'ok', (performance.now() - started) / 1000);
      if (keyHolder) recordProbeKeyStatus(keyHolder(req.platform), 'ok');
      return answer;
    } catch (err) {
      if (!refused) metrics.providerCall(req.platform, err instanceof PlatformError ? err.code : 'error', (performance.now() - started) / 1000);
      if (keyHolder && err instanceof PlatformError && err.code === 'provider_auth_failed') recordProbeKeyStatus(keyHolder(req.platform), 'key_refused');
      throw err;
    }
  };
  const concurrency = Object.fromEntries(PLATFORMS.map((p) => [p, settings[p].concurrency])) as Record<PlatformName, number>;
  return { drivers, ask: opts.log ? logMisconfiguration(ask, drivers, opts.log) : ask, concurrency, status: platformsStatus(engine, drivers) };
}

/**
 * A provider refusing the credentials (401/403), or not knowing the endpoint or model (404: a
 * base URL without its path, a model id the provider does not have), fails every probe (and judge
 * call) of its platform, each released uncharged: the operator is told in the log, naming what to
 * check, at most once a minute per platform and failure, with the count since the last line.
 */
function logMisconfiguration(ask: AskPlatform, drivers: Record<PlatformName, PlatformDriver>, log: Logger): AskPlatform {
  const last = new Map<string, { at: number; count: number }>();
  return async (req) => {
    try {
      return await ask(req);
    } catch (err) {
      if (err instanceof PlatformError && (err.code === 'provider_auth_failed' || err.code === 'provider_not_found')) {
        const p = req.platform;
        const key = `${p} ${err.code}`;
        const seen = last.get(key) ?? { at: -Infinity, count: 0 };
        seen.count++;
        const now = Date.now();
        if (now - seen.at >= MISCONFIG_LOG_INTERVAL_MS) {
          const refused = err.code === 'provider_auth_failed';
          const baseUrl = (CONSUMER_PLATFORMS as readonly string[]).includes(p) ? 'its provider\'s base URL' : `${PLATFORM_ENV_PREFIX[p]}_BASE_URL`;
          const check = refused ? credentialNames(p, drivers[p].provider) : `${baseUrl} and the model id "${req.providerModel}"`;
          const fields = { platform: p, http_status: err.httpStatus ?? null, [refused ? 'refused' : 'not_found']: seen.count, check, error: err.message };
          log.error(fields, refused ? `provider refused the credentials: ${p} fails until ${check} is fixed` : `provider does not know the endpoint or model: ${p} fails until ${check} are fixed`);
          seen.at = now;
          seen.count = 0;
        }
        last.set(key, seen);
      }
      throw err;
    }
  };
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
  // An upgrade says what it changed, in the log of the process that did it (with several
  // processes starting at once, one of them applies them under the migration lock).
  if (database.migrated.length) opts.log?.info({ migrations: database.migrated }, `applied ${database.migrated.length} migration${database.migrated.length > 1 ? 's' : ''}`);
  metrics.attach(store, handle.pgPool, [...PLATFORMS, CI_LANE]);
  let platforms: ReturnType<typeof buildPlatforms>;
  let core: Core;
  try {
    platforms = buildPlatforms(config, { fetch: opts.fetch, log: opts.log });
    core = createCore({
      store,
      config,
      drivers: platforms.drivers,
      ask: platforms.ask,
      platformConcurrency: platforms.concurrency,
      jobLog: opts.log,
      onJobOutcome: (job, outcome, ms) => metrics.jobOutcome(job.kind, job.lane, outcome, ms / 1000),
      onRetentionRemoved: (table, rows) => metrics.retentionRemoved(table, rows),
      onWorkerError: opts.log ? (err) => workerError(opts.log!, err) : undefined,
      ...opts.core,
    });
  } catch (err) {
    // Building the drivers and the core reads only the configuration (variables, the files they
    // name): whatever fails here is a configuration problem, said as one (the CLI prints it as one
    // line, without a stack).
    await database.close().catch(() => {});
    const message = (err as Error)?.message ?? String(err);
    throw message.startsWith('Invalid configuration:') ? err : new Error(`Invalid configuration:\n  ${message}`);
  }
  return {
    handle,
    core,
    platforms: platforms.status,
    async close(closeOpts = {}) {
      await core.close(closeOpts);
      await database.close();
    },
  };
}
