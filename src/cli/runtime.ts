// The composition root: opens the database, runs migrations, builds the platform drivers with
// their retry and pacing policy, and assembles the core, so that `serve`, `worker`, the admin
// commands and the tests all start from the same wiring.
import type { Config } from '../config.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { createCore, type Core, type CoreOptions } from '../core/index.ts';
import { storeOf } from '../core/store.ts';
import { createPlatformGate } from '../platforms/gate.ts';
import { createDrivers, platformSettingsFromEnv, PLATFORM_ENV_PREFIX } from '../platforms/registry.ts';
import { gatedAsk } from '../platforms/retry.ts';
import { undiciFetch } from '../platforms/live/http.ts';
import { PLATFORMS, type PlatformName } from '../platforms/types.ts';

export interface Runtime {
  handle: DatabaseHandle;
  core: Core;
  close(): Promise<void>;
}

/** The sandbox answers locally, so it may run wider than a provider's default of 4. */
const SANDBOX_DEFAULT_CONCURRENCY = 16;

export function buildPlatforms(config: Config, opts: { fetch?: typeof fetch } = {}) {
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
  const ask = gatedAsk(drivers, gate, (p) => ({ timeoutMs: settings[p].timeoutMs, maxAttempts: settings[p].maxAttempts }));
  const concurrency = Object.fromEntries(PLATFORMS.map((p) => [p, settings[p].concurrency])) as Record<PlatformName, number>;
  return { drivers, ask, concurrency };
}

export async function openRuntime(
  config: Config,
  opts: { migrate?: boolean; fetch?: typeof fetch; core?: Partial<CoreOptions>; onDatabaseEvent?: OpenOptions['onDatabaseEvent'] } = {},
): Promise<Runtime> {
  const handle = openDatabase(config.DATABASE_URL, {
    pool: { max: config.SIGHTLINE_DB_POOL_MAX, waitMs: config.SIGHTLINE_DB_POOL_WAIT_MS },
    onDatabaseEvent: opts.onDatabaseEvent,
  });
  if (opts.migrate !== false) await migrateToLatest(handle.db);
  const platforms = buildPlatforms(config, { fetch: opts.fetch });
  const core = createCore({
    store: storeOf(handle),
    config,
    drivers: platforms.drivers,
    ask: platforms.ask,
    platformConcurrency: platforms.concurrency,
    ...opts.core,
  });
  return {
    handle,
    core,
    async close() {
      await core.close();
      await handle.close();
    },
  };
}
