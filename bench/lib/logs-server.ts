// Child process for bench:logs: the real sightline HTTP server on 127.0.0.1 with a fresh database
// (SQLite, or Postgres when the first argument is `postgres`: a database of its own, dropped on exit), an account with a key and one site. Prints one JSON line {"port","key","site","pid"}
// when listening and exits when stdin closes. The request timeout is raised: one upload of a
// gigabyte of log lines takes longer than the default 30 s (`logs ingest` sends pieces instead).
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { buildApp } from '../../src/server/app.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { createSite } from '../../src/core/sites/sites.ts';
import { freshBenchDb, seedAccount } from './common.ts';

const db = await freshBenchDb(process.argv[2] === 'postgres' ? 'postgres' : 'sqlite', 'logs');
const config = loadConfig({ DATABASE_URL: db.url, SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_HTTP_REQUEST_TIMEOUT_MS: '3600000', SIGHTLINE_HTTP_IDLE_TIMEOUT_MS: '3600000' });
const runtime = await openRuntime(config);
const rateLimiter = await createKeyRateLimiter({ perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE, handle: runtime.handle });
const app = await buildApp({ core: runtime.core, rateLimiter });
const { key, accountId } = await seedAccount(runtime.core.store, 0);
const site = await createSite(runtime.core.store, accountId, { domain: 'bench.example' });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(JSON.stringify({ port, key, site: site.id, pid: process.pid }) + '\n');
// Where the memory is, as the server sees it: sent to the bench every 100 ms over the IPC channel
// (rss, heapTotal, heapUsed, external, arrayBuffers). The bench's own /proc sampling of the RSS
// is the headline number; these samples say what it is made of.
if (process.send) {
  const send = process.send.bind(process);
  setInterval(() => send(process.memoryUsage()), 100).unref();
}
process.stdin.resume();
process.stdin.on('end', async () => {
  await app.close();
  await rateLimiter.close();
  await runtime.close();
  await db.drop();
  process.exit(0);
});
