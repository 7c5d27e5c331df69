// `sightline serve` and `sightline worker`: long-running processes with graceful shutdown.
import type { Config } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { createKeyRateLimiter } from '../http/plugins/rate-limit.ts';
import { openRuntime } from './runtime.ts';

function onShutdown(fn: () => Promise<void>) {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    fn().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

export async function runServe(config: Config, opts: { worker: boolean }): Promise<number> {
  const runtime = await openRuntime(config);
  const rateLimiter = await createKeyRateLimiter({
    perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE,
    handle: runtime.handle,
    redisUrl: config.SIGHTLINE_REDIS_URL,
  });
  const app = await buildApp({ core: runtime.core, rateLimiter, logger: { level: config.SIGHTLINE_LOG_LEVEL } });
  if (opts.worker) runtime.core.startWorker();
  await app.listen({ port: config.PORT, host: config.HOST });
  const accounts = await runtime.core.store.db.selectFrom('accounts').select('id').limit(1).execute();
  if (accounts.length === 0) {
    process.stderr.write(
      `\nNo accounts yet. Open http://localhost:${config.PORT}/console to create the owner account,\n` +
        'or create one on the command line (prints an API key once):\n' +
        '  npx sightline accounts create --email you@example.com --credits 100\n\n',
    );
  }
  onShutdown(async () => {
    await app.close();
    await rateLimiter.close();
    await runtime.close();
  });
  return -1;
}

export async function runWorker(config: Config): Promise<number> {
  const runtime = await openRuntime(config);
  runtime.core.startWorker();
  process.stderr.write(`sightline worker started (${runtime.core.store.dialect})\n`);
  onShutdown(() => runtime.close());
  return -1;
}
