// Benchmark for tracked tests, on SQLite and on Postgres:
//   (a) burst: N tracked tests (default 1,000) whose schedules are all due in the same minute,
//       taken by three scheduler processes at once (as three workers would): the time from the
//       slot to the last run queued (target under 10 s), and runs created = slots due, exactly;
//   (b) idle: the scheduler's CPU per idle minute (12 ticks, its default 5 s interval) with
//       10,000 scheduled tests none of which is due (target under 1 s of CPU a minute);
//   (c) export: peak RSS growth of the server while a 10,000-probe run is exported as CSV over a
//       real socket to curl (target under 50 MB), in a child process of its own;
//   (d) project: a project of 200 prompts x 6 platforms x 3 repeats in one market with 90 daily
//       runs (324,000 probes): one real sandbox run through the worker, copied row for row to
//       the 89 days before it, then 50 dashboard requests through the HTTP stack for each of
//       window=7d and 30d, with and without a topic (target p95 <= 300 ms; `--skip-project`).
//   (e) slots (`--only-slots`, no database): the time to count a schedule's slots over 30 days
//       (the sample plan's runs a month) and to estimate a project over 12 months ahead, for a
//       daily, hourly, 5-minute and per-minute cron in Europe/Berlin (target: each under 250 ms,
//       the event loop is held while it counts).
//   (f) list (`--only-list`): the projects list with each project's latest figures, 50 projects
//       with 90 daily runs each, against reading their 50 dashboards one after another.
// The one thing to know: every phase uses a database of its own (a temp SQLite file, or a new
// Postgres database that is dropped afterwards), so the bench never touches ./data.
//
//   npm run bench:tracking
//   npm run bench:tracking -- --db sqlite --tests 1000 --idle-tests 10000 --export-probes 10000
//   npm run bench:tracking -- --only-project --project-prompts 200 --project-days 90 --requests 50
//   npm run bench:tracking -- --only-slots
//   npm run bench:tracking -- --only-list --projects 50 --list-prompts 20 --project-days 90 --requests 10
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/server/runtime.ts';
import { Scheduler } from '../src/core/tracking/scheduler.ts';
import { newId, nowIso } from '../src/lib/ids.ts';
import { buildApp } from '../src/server/app.ts';
import { createKeyRateLimiter } from '../src/web/rate-limit.ts';
import { countSlots } from '../src/core/tracking/schedule.ts';
import { estimateProject } from '../src/core/projects/estimate.ts';
import { fmt, freshBenchDb, mb, parseArgs, seedAccount } from './lib/common.ts';

const args = parseArgs();
const SELF = fileURLToPath(import.meta.url);

const freshDb = (kind: 'sqlite' | 'postgres') => freshBenchDb(kind, 'tracking');

const open = (url: string, migrate = true) =>
  openRuntime(loadConfig({ ...process.env, DATABASE_URL: url, SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }), { migrate });

/** Inserts `count` scheduled tests of one account directly (setup, not measured). */
async function seedTests(runtime: Awaited<ReturnType<typeof open>>, count: number, cron: string, nextRunAt: string) {
  const { accountId } = await seedAccount(runtime.core.store, 1_000_000);
  const key = await runtime.core.store.db.selectFrom('api_keys').select('id').where('account_id', '=', accountId).executeTakeFirstOrThrow();
  const rows = Array.from({ length: count }, (_, i) => {
    const url = `https://site${i}.example/`;
    return {
      id: newId('test'), account_id: accountId, test_type: 'ai_citations' as const, name: `Brand${i}`, url, url_key: url,
      target_entity: `Brand${i}`, target_key: `brand${i}`, created_at: nowIso(), last_run_at: null,
      definition: JSON.stringify({ url, target_entity: `Brand${i}`, prompts: ['best tools'], platforms: ['deepseek'] }),
      schedule_cron: cron, schedule_timezone: 'UTC', next_run_at: nextRunAt, paused: 0, monthly_credit_budget: null,
      key_id: key.id, last_skip: null, deleted_at: null,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await runtime.core.store.db.insertInto('tests').values(rows.slice(i, i + 500)).execute();
}

// --- child: one scheduler process ticking at a fixed clock until it finds nothing due -----------
if (args.opt('--child-scheduler')) {
  const clock = new Date(args.opt('--child-scheduler')!);
  const runtime = await open(args.opt('--url')!, false);
  const scheduler = new Scheduler(runtime.core.tracking, { now: () => clock });
  const start = Date.now();
  const total = { claimed: 0, runs: 0, skipped: 0 };
  for (;;) {
    const r = await scheduler.tick();
    total.claimed += r.claimed;
    total.runs += r.runs;
    total.skipped += r.skipped;
    if (r.claimed === 0) break;
  }
  const end = Date.now();
  await runtime.close();
  process.stdout.write(JSON.stringify({ ...total, start, end }));
  process.exit(0);
}

// --- child: export a big run over a socket, sampling RSS --------------------------------------
if (args.opt('--child-export')) {
  const probes = Number(args.opt('--child-export'));
  const runtime = await open(args.opt('--url')!);
  const { accountId, key } = await seedAccount(runtime.core.store, 10);
  const db = runtime.core.store.db;
  const runId = newId('vis');
  const testId = newId('test');
  const now = nowIso();
  await db.insertInto('tests').values({ id: testId, account_id: accountId, test_type: 'ai_citations', name: 'x', url: 'https://x.example/', url_key: 'https://x.example', target_entity: 'X', target_key: 'x', created_at: now, last_run_at: now, definition: null, schedule_cron: null, schedule_timezone: null, next_run_at: null, monthly_credit_budget: null, key_id: null, last_skip: null, deleted_at: null }).execute();
  const ledger = newId('led');
  await db.insertInto('ledger_entries').values({ id: ledger, account_id: accountId, kind: 'charge', source: 'api', action: 'visibility.runs.create', ref_type: 'visibility_run', ref_id: runId, amount: 0, settled_amount: 0, released_amount: 0, estimated_amount: 0, created_at: now, updated_at: now }).execute();
  await db.insertInto('visibility_runs').values({ id: runId, account_id: accountId, test_id: testId, source: 'api', engine: 'sandbox', url: 'https://x.example/', target_entity: 'X', competitors: '["Globex"]', language: 'en', country: 'US', idempotency_key: null, cancel_requested: 0, prompt_count: 1, platform_count: 1, probe_count: probes, ledger_entry_id: ledger, created_at: now, started_at: now, completed_at: now }).execute();
  const answer = `[sandbox answer] ${'X is a "widget" maker, based in Berlin; see https://x.example/.\n'.repeat(30)}`; // ~2 KB
  for (let i = 0; i < probes; i += 500) {
    await db.insertInto('visibility_probes').values(Array.from({ length: Math.min(500, probes - i) }, (_, j) => ({
      id: newId('probe'), run_id: runId, account_id: accountId, seq: i + j, prompt: `prompt ${i + j}`, platform: 'openai', model: 'gpt', engine: 'sandbox' as const,
      language: 'en', country: 'US', target_entity: 'X', status: 'succeeded' as const, price: 0, reported_model: null, brand_mentioned: 1, text_mentioned: 1,
      citation_mentioned: 0, mention_position: 3, list_rank: null, competitors: '["Globex"]', citations: JSON.stringify([{ title: 't', url: 'https://x.example/a', domain: 'x.example' }]),
      answer, raw: null, error_code: null, error_message: null, attempts: 1, started_at: now, completed_at: now, repeat: 1,
    }))).execute();
  }
  const limiter = await createKeyRateLimiter({ perMinute: 1000, handle: runtime.handle });
  const app = await buildApp({ core: runtime.core, rateLimiter: limiter });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  // The client is another process (curl), so the RSS measured is the server's alone.
  const t0 = Date.now();
  const bytes = await new Promise<number>((resolve, reject) => {
    const c = spawn('curl', ['-sS', '-o', '/dev/null', '-w', '%{size_download}', '-H', `authorization: Bearer ${key}`, `http://127.0.0.1:${port}/v1/visibility/runs/${runId}/export?format=csv`]);
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.once('exit', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`curl exited ${code}`))));
  });
  clearInterval(sampler);
  const ms = Date.now() - t0;
  await app.close();
  await limiter.close();
  await runtime.close();
  process.stdout.write(JSON.stringify({ probes, bytes, ms, baseRss: base, peakRss: peak }));
  process.exit(0);
}

function child(argv: string[], node: string[] = []): Promise<any> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...node, '--import', 'tsx', SELF, ...argv], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}`))));
  });
}

async function burst(kind: 'sqlite' | 'postgres', tests: number) {
  const db = await freshDb(kind);
  try {
    const runtime = await open(db.url);
    const slot = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await seedTests(runtime, tests, '* * * * *', slot.toISOString());
    const results = await Promise.all([0, 1, 2].map(() => child(['--child-scheduler', slot.toISOString(), '--url', db.url])));
    const runs = Number((await runtime.core.store.db.selectFrom('visibility_runs').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const slots = Number((await runtime.core.store.db.selectFrom('test_slots').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    await runtime.close();
    const first = Math.min(...results.map((r) => r.start));
    const last = Math.max(...results.map((r) => r.end));
    console.log(
      `${kind.padEnd(8)} burst: ${fmt(tests)} tests due in one minute, 3 scheduler processes: last run queued ${fmt((last - first) / 1000, 2)} s after the first tick ` +
        `(target < 10 s); runs ${fmt(runs)} = slots ${fmt(slots)} = due ${fmt(tests)}: ${runs === tests && slots === tests ? 'exact' : 'MISMATCH'} ` +
        `(per process: ${results.map((r) => r.runs).join(' + ')})`,
    );
  } finally {
    await db.drop();
  }
}

async function idle(kind: 'sqlite' | 'postgres', tests: number) {
  const db = await freshDb(kind);
  try {
    const runtime = await open(db.url);
    await seedTests(runtime, tests, '0 0 1 1 *', '2099-01-01T00:00:00.000Z');
    const scheduler = new Scheduler(runtime.core.tracking);
    await scheduler.tick(); // warm-up
    const before = process.cpuUsage();
    for (let i = 0; i < 12; i++) await scheduler.tick();
    const used = process.cpuUsage(before);
    await runtime.close();
    console.log(`${kind.padEnd(8)} idle:  ${fmt(tests)} scheduled tests, none due: ${fmt((used.user + used.system) / 1000, 1)} ms of CPU per idle minute (12 ticks; target < 1,000 ms)`);
  } finally {
    await db.drop();
  }
}

async function exportRun(kind: 'sqlite' | 'postgres', probes: number) {
  const db = await freshDb(kind);
  try {
    const r = await child(['--child-export', String(probes), '--url', db.url], ['--expose-gc']);
    console.log(
      `${kind.padEnd(8)} export: ${fmt(r.probes)}-probe run as CSV (${mb(r.bytes)} MB) in ${fmt(r.ms)} ms; peak RSS growth ${mb(r.peakRss - r.baseRss)} MB (target < 50 MB)`,
    );
  } finally {
    await db.drop();
  }
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** A runtime on `url`, an account with credits and its key, and the HTTP stack called in process. */
async function benchApp(url: string) {
  const runtime = await open(url);
  const store = runtime.core.store;
  const { key } = await seedAccount(store, 10_000_000);
  const limiter = await createKeyRateLimiter({ perMinute: 1_000_000, handle: runtime.handle });
  const app = await buildApp({ core: runtime.core, rateLimiter: limiter });
  await app.ready();
  const call = async (method: 'GET' | 'POST', path: string, payload?: unknown) => {
    const res = await app.inject({ method, url: path, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload: payload as object } : {}) });
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const close = async () => {
    await app.close();
    await limiter.close();
    await runtime.close();
  };
  return { runtime, store, call, close };
}

/** Runs the worker until the run is finished. */
async function runThrough(runtime: Awaited<ReturnType<typeof open>>, call: (m: 'GET', p: string) => Promise<any>, runId: string) {
  const worker = runtime.core.startWorker();
  for (;;) {
    const r = await call('GET', `/v1/visibility/runs/${runId}`);
    if (['completed', 'partially_completed', 'failed', 'cancelled'].includes(r.status)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await worker.stop();
}

async function projectDashboardPhase(kind: 'sqlite' | 'postgres', promptCount: number, days: number, requests: number) {
  const db = await freshDb(kind);
  try {
    const { runtime, store, call, close } = await benchApp(db.url);
    const topics = ['pricing', 'integrations', 'agencies', 'security', 'reporting', 'mobile', 'support', 'migration', 'enterprise', 'startups'];
    // Prompts of every kind the sandbox answers: some always name the brand, some never.
    const marks = ['', '', '', ' [[sandbox:mention]]', ' [[sandbox:no-mention]]'];
    const prompts = Array.from({ length: promptCount }, (_, i) => ({
      prompt: `which crm should a ${topics[i % topics.length]} team pick, case ${i}${marks[i % marks.length]}`,
      topics: i % 7 === 0 ? [topics[i % topics.length], topics[(i + 3) % topics.length]] : [topics[i % topics.length]],
    }));
    const setup0 = Date.now();
    const project = await call('POST', '/v1/projects', {
      name: 'Acme',
      url: 'https://acme-crm.example/',
      brand: { name: 'Acme CRM', aliases: ['Acme'], domains: ['acme-crm.example'] },
      competitors: [{ name: 'HubSpot', domains: ['hubspot.com'] }, { name: 'Pipedrive', aliases: ['Pipe Drive'] }, { name: 'Salesforce', domains: ['salesforce.com'] }],
      markets: [{ language: 'en', country: 'US' }],
      platforms: ['openai', 'perplexity', 'gemini', 'grok', 'claude', 'deepseek'],
      repeats: 1,
      prompts,
    });
    // One real run through the worker: the row shapes (analysis JSON, citations) as stored.
    const started = await call('POST', `/v1/projects/${project.id}/runs`, {});
    const runId = started.runs[0].run_id as string;
    await runThrough(runtime, call, runId);
    const realRunMs = Date.now() - setup0;
    // A run holds at most 2,000 probes through the API, so the project asks each prompt once and
    // the bench writes the 3 repeats itself: the real run's rows three times (repeat 1..3, in the
    // executor's asking order), as the real run's own and as one copy a day for the days before
    // (setup, not measured). Every copy is started by the project's test, so every one is
    // comparable.
    const run = await store.db.selectFrom('visibility_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    const once = await store.db.selectFrom('visibility_probes').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
    const probes = once.flatMap((p) => [1, 2, 3].map((repeat) => ({ ...p, repeat }))).map((p, seq) => ({ ...p, seq }));
    const copy0 = Date.now();
    const shift = (iso: string | null, ms: number) => (iso === null ? null : new Date(Date.parse(iso) - ms).toISOString());
    await store.db.deleteFrom('visibility_probes').where('run_id', '=', runId).execute();
    await store.db.updateTable('visibility_runs').set({ probe_count: probes.length }).where('id', '=', runId).execute();
    await store.db.updateTable('projects').set({ repeats: 3 }).where('id', '=', project.id).execute();
    for (let d = 0; d < days; d++) {
      const ms = d * 86_400_000;
      const id = d === 0 ? runId : newId('vis');
      await store.db.transaction().execute(async (trx) => {
        if (d > 0) await trx.insertInto('visibility_runs').values({ ...run, id, probe_count: probes.length, idempotency_key: null, created_at: shift(run.created_at, ms)!, started_at: shift(run.started_at, ms), completed_at: shift(run.completed_at, ms) }).execute();
        const rows = probes.map((p) => ({ ...p, id: newId('probe'), run_id: id, started_at: shift(p.started_at, ms), completed_at: shift(p.completed_at, ms) }));
        for (let i = 0; i < rows.length; i += 200) await trx.insertInto('visibility_probes').values(rows.slice(i, i + 200)).execute();
      });
    }
    const copyMs = Date.now() - copy0;
    const total = Number((await store.db.selectFrom('visibility_probes').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    console.log(
      `${kind.padEnd(8)} project: ${fmt(promptCount)} prompts x 6 platforms x 3 repeats, ${days} daily runs, ${fmt(total)} probes ` +
        `(real run ${fmt(realRunMs / 1000, 1)} s, copies ${fmt(copyMs / 1000, 1)} s)`,
    );
    // What the dashboard pools: every run and every answer, or the numbers mean nothing.
    const f0 = performance.now();
    const whole = await call('GET', `/v1/projects/${project.id}/dashboard?window=30d`);
    const firstMs = performance.now() - f0;
    const bytes = JSON.stringify(whole).length;
    const pooledRuns = whole.series.reduce((a: number, x: any) => a + x.run_ids.length, 0);
    const pooledAnswers = whole.series.reduce((a: number, x: any) => a + x.brand.n, 0);
    console.log(
      `${kind.padEnd(8)} dashboard pools ${fmt(pooledRuns)} runs, ${fmt(pooledAnswers)} answers, matrix of ${whole.matrix.length} prompts, ${fmt(bytes / 1024)} KB; ` +
        `first read ${fmt(firstMs)} ms (it tallies the runs that have no tallies yet: here the ${days - 1} copies)`,
    );
    for (const [label, query] of [
      ['window=7d', 'window=7d'],
      ['window=30d', 'window=30d'],
      ['window=7d topic', 'window=7d&topic=pricing'],
      ['window=30d topic', 'window=30d&topic=pricing'],
    ] as const) {
      const url = `/v1/projects/${project.id}/dashboard?${query}`;
      await call('GET', url); // warm-up
      const times: number[] = [];
      for (let i = 0; i < requests; i++) {
        const t0 = performance.now();
        await call('GET', url);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 0.95);
      console.log(
        `${kind.padEnd(8)} dashboard ${label.padEnd(16)}: p50 ${fmt(percentile(times, 0.5))} ms, p95 ${fmt(p95)} ms, max ${fmt(times.at(-1)!)} ms ` +
          `over ${requests} requests (target p95 <= 300 ms: ${p95 <= 300 ? 'met' : 'MISSED'})`,
      );
    }
    await close();
  } finally {
    await db.drop();
  }
}

/**
 * (f) The projects list with each project's latest figures (`glance`): `count` projects of
 * `prompts` prompts x 2 platforms in one market, each with a run a day for `days` days (one real
 * sandbox run, its rows copied), then `requests` reads of GET /v1/projects?limit=count, against
 * reading each project's dashboard in turn (what the console would do without the glance).
 */
async function projectListPhase(kind: 'sqlite' | 'postgres', count: number, promptCount: number, days: number, requests: number) {
  const db = await freshDb(kind);
  try {
    const { runtime, store, call, close } = await benchApp(db.url);
    const prompts = Array.from({ length: promptCount }, (_, i) => ({ prompt: `which crm should a team pick, case ${i}${i % 3 === 0 ? ' [[sandbox:mention]]' : ''}` }));
    const make = (i: number) =>
      call('POST', '/v1/projects', { name: `Client ${i}`, url: `https://client-${i}.example/`, brand: { name: `Client ${i}` }, competitors: [{ name: 'HubSpot' }], platforms: ['openai', 'gemini'], prompts });
    const first = await make(0);
    const started = await call('POST', `/v1/projects/${first.id}/runs`, {});
    const runId = started.runs[0].run_id as string;
    await runThrough(runtime, call, runId);
    const run = await store.db.selectFrom('visibility_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    const probes = await store.db.selectFrom('visibility_probes').selectAll().where('run_id', '=', runId).execute();
    const shift = (iso: string | null, ms: number) => (iso === null ? null : new Date(Date.parse(iso) - ms).toISOString());
    const ids = [first.id];
    for (let i = 1; i < count; i++) ids.push((await make(i)).id);
    const copy0 = Date.now();
    for (const [n, projectId] of ids.entries()) {
      const testId = (await store.db.selectFrom('tests').select('id').where('project_id', '=', projectId).executeTakeFirstOrThrow()).id;
      await store.db.transaction().execute(async (trx) => {
        for (let d = n === 0 ? 1 : 0; d < days; d++) {
          const ms = d * 86_400_000;
          const id = newId('vis');
          await trx.insertInto('visibility_runs').values({ ...run, id, test_id: testId, idempotency_key: null, created_at: shift(run.created_at, ms)!, started_at: shift(run.started_at, ms), completed_at: shift(run.completed_at, ms) }).execute();
          const rows = probes.map((p) => ({ ...p, id: newId('probe'), run_id: id, started_at: shift(p.started_at, ms), completed_at: shift(p.completed_at, ms) }));
          for (let i = 0; i < rows.length; i += 200) await trx.insertInto('visibility_probes').values(rows.slice(i, i + 200)).execute();
        }
      });
    }
    console.log(`${kind.padEnd(8)} list: ${count} projects x ${days} daily runs of ${probes.length} probes (copies ${fmt((Date.now() - copy0) / 1000, 1)} s)`);
    const f0 = performance.now();
    const list = await call('GET', `/v1/projects?limit=${count}`);
    console.log(`${kind.padEnd(8)} list first read ${fmt(performance.now() - f0)} ms (it tallies the ${fmt(count * days)} runs that have none yet); ${list.projects.length} projects, latest n=${list.projects[0].glance.n}`);
    const timed = async (label: string, fn: () => Promise<unknown>) => {
      await fn(); // warm-up
      const times: number[] = [];
      for (let i = 0; i < requests; i++) {
        const t0 = performance.now();
        await fn();
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`${kind.padEnd(8)} ${label.padEnd(34)}: p50 ${fmt(percentile(times, 0.5))} ms, p95 ${fmt(percentile(times, 0.95))} ms over ${requests}`);
    };
    await timed(`GET /v1/projects?limit=${count}`, () => call('GET', `/v1/projects?limit=${count}`));
    await timed(`${count} dashboards, one after another`, async () => {
      for (const id of ids) await call('GET', `/v1/projects/${id}/dashboard`);
    });
    await close();
  } finally {
    await db.drop();
  }
}

/** (e) Counting slots, in process: the median of 5 after one warm-up, per cron. */
async function slotsPhase() {
  const runtime = await open('sqlite::memory:');
  const crons = ['0 6 * * *', '0 * * * *', '*/5 * * * *', '* * * * *'];
  let worst = 0;
  console.log('\n(e) counting slots, Europe/Berlin: 30 days (sample plan) and a 12-month project estimate');
  for (const cron of crons) {
    const schedule = { cron, timezone: 'Europe/Berlin' };
    const time = (fn: () => unknown) => {
      const runs: number[] = [];
      for (let i = 0; i < 6; i++) {
        const t0 = performance.now();
        fn();
        runs.push(performance.now() - t0);
      }
      return runs.slice(1).sort((a, b) => a - b)[2]!;
    };
    let slots = 0;
    const count = time(() => (slots = countSlots(schedule, new Date(), 30 * 86_400_000)));
    const quote = () => estimateProject(runtime.core.tracking, { platforms: ['openai'], prompt_count: 1, schedule, months: 12 });
    // The first estimate counts every month; later ones find the full months kept.
    const t0 = performance.now();
    quote();
    const cold = performance.now() - t0;
    const warm = time(quote);
    worst = Math.max(worst, count, cold);
    console.log(`  ${cron.padEnd(13)} ${String(slots).padStart(6)} slots in 30 days: count ${fmt(count)} ms, 12-month estimate ${fmt(cold)} ms first, ${fmt(warm)} ms again`);
  }
  console.log(`  slowest ${fmt(worst)} ms: ${worst < 250 ? 'PASS' : 'FAIL'} (target < 250 ms)`);
  await runtime.close();
  if (worst >= 250) process.exitCode = 1;
}

if (args.flag('--only-list')) {
  for (const kind of (args.opt('--db') === 'postgres' ? ['postgres'] : args.opt('--db') === 'both' ? ['sqlite', 'postgres'] : ['sqlite']) as ('sqlite' | 'postgres')[]) {
    await projectListPhase(kind, args.num('--projects', 50), args.num('--list-prompts', 20), args.num('--project-days', 90), args.num('--requests', 10));
  }
  process.exit();
}

if (args.flag('--only-slots')) {
  await slotsPhase();
  process.exit();
}

const which = args.opt('--db') ?? 'both';
const kinds = (which === 'both' ? ['sqlite', 'postgres'] : [which]) as ('sqlite' | 'postgres')[];
for (const kind of kinds) {
  if (!args.flag('--only-project')) {
    await burst(kind, args.num('--tests', 1000));
    await idle(kind, args.num('--idle-tests', 10_000));
    await exportRun(kind, args.num('--export-probes', 10_000));
  }
  if (!args.flag('--skip-project')) await projectDashboardPhase(kind, args.num('--project-prompts', 200), args.num('--project-days', 90), args.num('--requests', 50));
}
if (!args.flag('--only-project')) await slotsPhase();
