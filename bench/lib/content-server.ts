// Child process for bench:content: the real sightline server (openRuntime + buildApp, fresh
// SQLite) plus the acme-pm.test fixture site on a loopback port the fetcher may reach. Prints one
// JSON line {"port","key","pid","site"} when listening; exits when stdin closes.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { buildApp } from '../../src/server/app.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { serveFixtureSite } from '../../test/http/content-sites.ts';
import { exitWhenParentLeaves, seedAccount, tempSqliteUrl } from './common.ts';

const site = await serveFixtureSite('acme-pm.test');
const db = tempSqliteUrl('content');
const config = loadConfig({
  DATABASE_URL: db.url,
  SIGHTLINE_LOG_LEVEL: 'silent',
  SIGHTLINE_RATE_LIMIT_PER_MINUTE: '100000000',
  SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}`,
  ...(process.env.BENCH_ANALYSIS_THREADS ? { SIGHTLINE_ANALYSIS_THREADS: process.env.BENCH_ANALYSIS_THREADS } : {}),
});
const runtime = await openRuntime(config);
const rateLimiter = await createKeyRateLimiter({ perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE, handle: runtime.handle });
const app = await buildApp({ core: runtime.core, rateLimiter });
const { key } = await seedAccount(runtime.core.store, 100000);
// The event loop's own delay (what every request waits before it is even read), by the bench's call.
const eld = monitorEventLoopDelay({ resolution: 5 });
eld.enable();
app.get('/bench/eld', async (req) => {
  const out = { p50: eld.percentile(50) / 1e6, p99: eld.percentile(99) / 1e6, max: eld.max / 1e6 };
  if ((req.query as Record<string, string>).reset) eld.reset();
  return out;
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(JSON.stringify({ port, key, pid: process.pid, site: site.origin }) + '\n');

exitWhenParentLeaves(async () => {
  await app.close();
  await rateLimiter.close();
  await runtime.close();
  await site.close();
  db.cleanup();
});
