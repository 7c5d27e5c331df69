// Child process for bench:api: the real sightline HTTP server (same wiring as `sightline serve`:
// openRuntime, the database-backed per-key rate limiter, buildApp) on 127.0.0.1 with a fresh
// SQLite database, plus an account and key. The one thing to know: it prints one JSON line
// {"port","key"} on stdout when listening and exits when stdin closes (its parent died or is done).
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { buildApp } from '../../src/server/app.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { getUsage } from '../../src/core/reports/usage.ts';
import { seedAccount, startCpuProfile, tempSqliteUrl } from './common.ts';

const db = tempSqliteUrl('api');
// A limit no bench can reach in a minute, so there are no 429s, but every request still passes
// through the limiter and its SQLite store exactly as in production.
const config = loadConfig({ DATABASE_URL: db.url, SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_RATE_LIMIT_PER_MINUTE: '100000000' });
const runtime = await openRuntime(config);
// BENCH_LIMITER=memory (bench:api --breakdown) measures the same server with the in-process limiter
// instead of the database-backed one, to show what the store write costs.
const rateLimiter = await createKeyRateLimiter({
  perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE,
  handle: process.env.BENCH_LIMITER === 'memory' ? undefined : runtime.handle,
});
const app = await buildApp({ core: runtime.core, rateLimiter });
const { key, accountId } = await seedAccount(runtime.core.store, 1000);
// For bench:api --breakdown: the usage route's whole path (auth, rate limiter, activity row) with
// its answer read from the database on every request (a store without change stamps), as when
// the balance moves between every two reads: what keeping the answer saves.
const uncached = { db: runtime.core.store.db, dialect: runtime.core.store.dialect, readNow: runtime.core.store.readNow };
app.get('/bench/usage-uncached', { config: { action: 'usage.read', scope: 'runs:read' } }, async () => getUsage(uncached, accountId, 20));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(JSON.stringify({ port, key, pid: process.pid }) + '\n');

// With BENCH_CPU_PROF_DIR set, SIGUSR2 starts the V8 profiler (the parent sends it after the
// warm-up), and shutdown writes the profile: only the measured load, no startup or idle time.
const profDir = process.env.BENCH_CPU_PROF_DIR;
let stopProfile: ((file: string) => Promise<void>) | undefined;
if (profDir) process.on('SIGUSR2', async () => void (stopProfile = await startCpuProfile()));

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  if (stopProfile && profDir) await stopProfile(join(profDir, `usage-${process.pid}.cpuprofile`));
  await app.close();
  await rateLimiter.close();
  await runtime.close();
  db.cleanup();
  process.exit(0);
}
process.stdin.on('end', shutdown);
process.stdin.on('close', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);
