// The composition root: opens the database, runs migrations, builds the platform drivers with
// their retry and pacing policy, and assembles the core, so that `serve`, `worker`, the admin
// commands and the tests all start from the same wiring.
import type { Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { createCore, type Core } from '../core/index.ts';
import { createSandboxDriver } from '../platforms/sandbox.ts';
import { PLATFORMS, type PlatformDriver, type PlatformName } from '../platforms/types.ts';

export interface Runtime {
  handle: DatabaseHandle;
  core: Core;
  close(): Promise<void>;
}

function buildPlatforms(config: Config) {
  const drivers = Object.fromEntries(
    PLATFORMS.map((p) => [p, createSandboxDriver(p, { latencyMs: config.SIGHTLINE_SANDBOX_LATENCY_MS })]),
  ) as Record<PlatformName, PlatformDriver>;
  const concurrency = Object.fromEntries(PLATFORMS.map((p) => [p, 8])) as Record<PlatformName, number>;
  return { drivers, concurrency, ask: (req: Parameters<PlatformDriver['ask']>[0]) => drivers[req.platform].ask(req) };
}

export async function openRuntime(config: Config, opts: { migrate?: boolean } = {}): Promise<Runtime> {
  const handle = openDatabase(config.DATABASE_URL);
  if (opts.migrate !== false) await migrateToLatest(handle.db);
  const platforms = buildPlatforms(config);
  const core = createCore({
    store: { db: handle.db, dialect: handle.dialect },
    config,
    drivers: platforms.drivers,
    ask: platforms.ask,
    platformConcurrency: platforms.concurrency,
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
