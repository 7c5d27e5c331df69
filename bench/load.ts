// `npm run bench:load`: mixed traffic against 2 API processes and 3 workers on Postgres (a
// database of its own): reads, run creates, serializations of local pages (a loopback fixture
// site) and MCP calls, for --seconds (60). Prints throughput and p50/p99 per endpoint, RSS of
// every process sampled over the run (flat = no leak), and the fairness figure: how long a small
// account's 1-probe run waits while a large account has 10,000 probes queued on the same platform.
// Options: --seconds N, --clients N (concurrent client loops, 16).
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { createKey } from '../src/core/accounts/accounts.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrations.ts';
import { storeOf } from '../src/db/store.ts';
import { startFixtureServer } from '../test/helpers/fixture-server.ts';
import { freshDatabaseUrl, usingPostgres } from '../test/helpers/harness.ts';
import { Fleet, type FleetProcess } from '../test/helpers/processes.ts';
import { fmt, mb, parseArgs, seedAccount } from './lib/common.ts';

const args = parseArgs();
const SECONDS = args.num('--seconds', 60);
const CLIENTS = args.num('--clients', 16);
const BIG_PROBES = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rand = (n: number) => Math.floor(Math.random() * n);

if (!usingPostgres) {
  process.stderr.write('bench:load needs DATABASE_URL=postgres://… (it creates and drops a database of its own)\n');
  process.exit(2);
}

const db = await freshDatabaseUrl();
const handle = openDatabase(db.url, { pool: { max: 2, waitMs: 10_000 } });
await migrateToLatest(handle.db);
const store = storeOf(handle);
const page = (n: number) =>
  `<html><head><title>Local page ${n}</title><meta name="description" content="A page for the load bench"></head><body><main><h1>Page ${n}</h1>${'<p>Ordinary paragraph text about customer relationship software, pricing and support. </p>'.repeat(40)}</main></body></html>`;
const site = await startFixtureServer(Object.fromEntries(Array.from({ length: 20 }, (_, n) => [`/p${n}`, { headers: { 'content-type': 'text/html' }, body: page(n) }])));

const fleet = new Fleet({
  DATABASE_URL: db.url,
  HOST: '127.0.0.1',
  SIGHTLINE_LOG_LEVEL: 'warn',
  SIGHTLINE_RATE_LIMIT_PER_MINUTE: '1000000',
  SIGHTLINE_DB_POOL_MAX: '15',
  SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}`,
});
let exiting = false;
const cleanup = async () => {
  if (exiting) return;
  exiting = true;
  await fleet.stopAll().catch(() => {});
  await handle.close().catch(() => {});
  await site.close().catch(() => {});
  await db.drop().catch(() => {});
};
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  const accounts: Awaited<ReturnType<typeof seedAccount>>[] = [];
  for (let i = 0; i < 10; i++) accounts.push(await seedAccount(store, 1_000_000)); // one by one: emails are time-stamped
  const big = await seedAccount(store, 100_000);
  const small = await seedAccount(store, 100);
  const mcpToken = (await createKey(handle.db, accounts[0]!.accountId, { kind: 'mcp' })).api_key;
  const apis = [await fleet.startApi('api1'), await fleet.startApi('api2')];
  const workers = [0, 1, 2].map((i) => fleet.start(`worker${i + 1}`, ['worker']));

  const base = () => `http://127.0.0.1:${apis[rand(apis.length)]!.port}`;
  const call = async (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base() + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  };

  // The backlog: 10,000 probes of one account on one platform.
  const bigRuns: string[] = [];
  for (let i = 0; i < BIG_PROBES / 2000; i++) {
    const r = await call('POST', '/v1/visibility/runs', big.key, {
      url: 'https://big.example',
      target_entity: 'Big',
      prompts: Array.from({ length: 2000 }, (_, j) => `[[sandbox:delay=200]] big question ${i}-${j}`),
      platforms: ['deepseek'],
    });
    if (r.status !== 200) throw new Error(`backlog create failed: ${r.status} ${JSON.stringify(r.json)}`);
    bigRuns.push(r.json.run_id);
  }

  // The workers are up once the backlog starts moving (tsx takes seconds to start them here).
  for (let waited = 0; waited < 60_000; waited += 250) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from visibility_probes where account_id = ${big.accountId} and status <> 'queued'`.execute(handle.db);
    if (Number(rows[0]!.n) > 0) break;
    await sleep(250);
  }

  // Mixed traffic.
  const runIds: string[] = [];
  const ops: Record<string, (key: string) => Promise<number>> = {
    'GET /v1/usage': async (key) => (await call('GET', '/v1/usage', key)).status,
    'GET /v1/visibility/runs': async (key) => (await call('GET', '/v1/visibility/runs?limit=10', key)).status,
    'GET /v1/visibility/runs/{id}': async (_key) => (runIds.length ? (await call('GET', `/v1/visibility/runs/${runIds[rand(runIds.length)]}?include_probes=true`, accounts[0]!.key)).status : 200),
    'GET /v1/visibility/models': async (key) => (await call('GET', '/v1/visibility/models', key)).status,
    'POST /v1/visibility/runs': async (key) => {
      const r = await call('POST', '/v1/visibility/runs', key, {
        url: 'https://acme.example',
        target_entity: 'Acme',
        prompts: ['[[sandbox:delay=100]] best crm', '[[sandbox:delay=100]] top crm'],
        platforms: ['openai', 'claude'],
      });
      if (r.status === 200 && key === accounts[0]!.key) runIds.push(r.json.run_id);
      return r.status;
    },
    'POST /v1/pages/content/serialize': async (key) =>
      (await call('POST', '/v1/pages/content/serialize', key, { url: site.url(`/p${rand(20)}`), max_chars: 2000 })).status,
    'POST /mcp get_usage': async () =>
      (
        await call('POST', '/mcp', mcpToken, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_usage', arguments: {} } }, {
          accept: 'application/json, text/event-stream',
        })
      ).status,
  };
  const weights: [string, number][] = [
    ['GET /v1/usage', 25],
    ['GET /v1/visibility/runs', 15],
    ['GET /v1/visibility/runs/{id}', 15],
    ['GET /v1/visibility/models', 10],
    ['POST /v1/visibility/runs', 10],
    ['POST /v1/pages/content/serialize', 15],
    ['POST /mcp get_usage', 10],
  ];
  const totalWeight = weights.reduce((a, [, w]) => a + w, 0);
  const pick = () => {
    let r = rand(totalWeight);
    for (const [name, w] of weights) if ((r -= w) < 0) return name;
    return weights[0]![0];
  };
  const latencies = new Map<string, number[]>(weights.map(([n]) => [n, []]));
  const errors = new Map<string, number>();

  const rss = (p: FleetProcess) => {
    try {
      return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.child.pid}/status`, 'utf8'))![1]) * 1024;
    } catch {
      return NaN;
    }
  };
  const samples: { t: number; rss: number[] }[] = [];
  const all = [...apis, ...workers];
  const sampler = setInterval(() => samples.push({ t: performance.now(), rss: all.map(rss) }), 5000);
  samples.push({ t: performance.now(), rss: all.map(rss) });

  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  let fairnessMs: number | null = null;
  let backlogAtFairness = 0;
  const fairness = (async () => {
    await sleep(Math.min(10_000, (SECONDS * 1000) / 4));
    const { rows } = await sql<{ n: string }>`select count(*) as n from visibility_probes where account_id = ${big.accountId} and status = 'queued'`.execute(handle.db);
    backlogAtFairness = Number(rows[0]!.n);
    const t = performance.now();
    const r = await call('POST', '/v1/visibility/runs', small.key, { url: 'https://small.example', target_entity: 'Small', prompts: ['[[sandbox:delay=200]] small question'], platforms: ['deepseek'] });
    for (;;) {
      const got = await call('GET', `/v1/visibility/runs/${r.json.run_id}`, small.key);
      if (['completed', 'failed', 'partially_completed', 'cancelled'].includes(got.json.status)) break;
      await sleep(50);
    }
    fairnessMs = performance.now() - t;
  })();

  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const name = pick();
        const key = accounts[rand(accounts.length)]!.key;
        const s0 = performance.now();
        let status = 0;
        try {
          status = await ops[name]!(key);
        } catch {
          status = -1;
        }
        latencies.get(name)!.push(performance.now() - s0);
        if (status !== 200) errors.set(name, (errors.get(name) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  await fairness;
  clearInterval(sampler);
  samples.push({ t: performance.now(), rss: all.map(rss) });
  for (const id of bigRuns) await call('POST', `/v1/visibility/runs/${id}/cancel`, big.key);

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
  };
  process.stdout.write(`bench:load — 2 API + 3 worker processes on Postgres, ${CLIENTS} clients, ${fmt(elapsed, 1)} s, a ${fmt(BIG_PROBES)}-probe backlog of one account on deepseek\n\n`);
  process.stdout.write('| endpoint | requests | req/s | p50 ms | p99 ms | non-200 |\n|---|---|---|---|---|---|\n');
  let total = 0;
  for (const [name] of weights) {
    const xs = latencies.get(name)!;
    total += xs.length;
    process.stdout.write(`| ${name} | ${fmt(xs.length)} | ${fmt(xs.length / elapsed, 1)} | ${fmt(pct(xs, 50), 1)} | ${fmt(pct(xs, 99), 1)} | ${errors.get(name) ?? 0} |\n`);
  }
  process.stdout.write(`| all | ${fmt(total)} | ${fmt(total / elapsed, 1)} | | | ${[...errors.values()].reduce((a, b) => a + b, 0)} |\n\n`);
  const first = samples[1] ?? samples[0]!;
  const last = samples[samples.length - 1]!;
  process.stdout.write(`RSS (MB), first sample after the start → end of the run (samples every 5 s):\n`);
  all.forEach((p, i) => {
    const series = samples.map((s) => s.rss[i]!).filter((v) => Number.isFinite(v));
    process.stdout.write(`  ${p.name}: ${mb(first.rss[i]!)} → ${mb(last.rss[i]!)} (min ${mb(Math.min(...series))}, max ${mb(Math.max(...series))})\n`);
  });
  process.stdout.write(
    `\nfairness: a 1-probe run of a small account finished ${fairnessMs === null ? 'n/a' : fmt(fairnessMs / 1000, 2) + ' s'} after its create while the large account had ${fmt(backlogAtFairness)} probes queued on the same platform (target < 5 s)\n`,
  );
  const crashed = fleet.crashed();
  if (crashed.length) process.stdout.write(`processes that exited on their own: ${crashed.map((p) => p.name).join(', ')}\n`);
} finally {
  await cleanup();
}
