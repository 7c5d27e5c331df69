// `npm run test:chaos`: the service under the failures production brings, on Postgres, in a
// database of its own, bounded to 5 minutes. 2 API processes and 3 worker processes; 300 runs
// from 20 accounts (random sizes, some failing probes, cancels, idempotent retries and duplicate
// sends); workers SIGKILLed at random and restarted, two rolling restarts (SIGTERM, a deploy);
// every connection of the test database terminated twice. Afterwards: every run terminal, every
// account's ledger exact with nothing reserved, every run's charge settled exactly for its
// succeeded probes and released for the rest (no probe settled twice), no 5xx but 503, no process
// exited except those killed, and every second platform call accounted for: a probe is asked
// again only for a call that was in flight on a SIGKILLed worker (read from the dead worker's
// leases right after the kill) or on a worker that lost its lease. The duplicate rate (attempts
// > 1; attempts counts platform calls) is at most 2% (CHAOS_DUPLICATE_LIMIT) and reported
// against the 0.5% target as duplicate_target_met. Prints one JSON summary; exit 0 when
// every check holds.
// Only the processes it starts are signalled, and only its own database's connections terminated.
import { sql } from 'kysely';
import { createAccount, createKey } from '../../src/core/accounts/accounts.ts';
import { getBalance, grantCredits, ledgerBalance } from '../../src/core/billing/ledger.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { storeOf } from '../../src/db/store.ts';
import { freshDatabaseUrl, usingPostgres } from '../helpers/harness.ts';
import { Fleet, type FleetProcess } from '../helpers/processes.ts';
import { terminateBackends } from '../helpers/postgres.ts';

const RUNS = Number(process.env.CHAOS_RUNS ?? 300);
const ACCOUNTS = 20;
const KILLS = Number(process.env.CHAOS_KILLS ?? 4);
/** Rolling restarts (SIGTERM, then a new worker): a deploy. They must ask no platform twice. */
const RESTARTS = Number(process.env.CHAOS_RESTARTS ?? 2);
const DUPLICATE_TARGET = 0.005;
// A probe's answer is checkpointed before it is analysed and a takeover resumes from it
// (probe-executor.ts), so what is asked twice is what was in flight on a killed worker: a SIGKILL
// loses every call the process had sent and not yet checkpointed (about 4–6 here with 8 jobs per
// worker). The rate is therefore kills × calls in flight / probes: 0.07–0.87% measured with 4
// kills. The exact check above is the gate; the rate's limit is a backstop.
const DUPLICATE_LIMIT = Number(process.env.CHAOS_DUPLICATE_LIMIT ?? 0.02);
const BOUND_MS = 5 * 60_000;
const PLATFORMS = ['openai', 'perplexity', 'gemini', 'grok', 'claude', 'deepseek'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rand = (n: number) => Math.floor(Math.random() * n);

if (!usingPostgres) {
  process.stdout.write('test:chaos needs DATABASE_URL=postgres://… (it creates and drops a database of its own); skipped\n');
  process.exit(0);
}

const started = Date.now();
const db = await freshDatabaseUrl();
const dbName = new URL(db.url).pathname.slice(1);
const handle = openDatabase(db.url, { pool: { max: 4, waitMs: 10_000 } });
await migrateToLatest(handle.db);
const store = storeOf(handle);

const fleet = new Fleet({
  DATABASE_URL: db.url,
  HOST: '127.0.0.1',
  SIGHTLINE_LOG_LEVEL: 'warn',
  SIGHTLINE_RATE_LIMIT_PER_MINUTE: '100000',
  SIGHTLINE_DB_POOL_MAX: '8',
  SIGHTLINE_WORKER_CONCURRENCY: '8',
  SIGHTLINE_JOB_LEASE_MS: '3000',
  SIGHTLINE_SHUTDOWN_GRACE_MS: '2000',
});

const failures: string[] = [];
let summary: Record<string, unknown> = {};
let finished = false;
// Whatever fails, the processes started here are stopped and the database dropped.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err) => {
    failures.push(`${event}: ${(err as Error)?.stack ?? String(err)}`);
    void finish();
  });
}
const bound = setTimeout(() => {
  failures.push(`not finished within ${BOUND_MS / 1000} s`);
  void finish();
}, BOUND_MS - 15_000);


// Accounts: most with plenty of credits, two short ones (partial funding and 402s).
const accounts: { id: string; key: string }[] = [];
for (let i = 0; i < ACCOUNTS; i++) {
  const acct = await createAccount(handle.db, `chaos${i}@example.com`);
  const key = await createKey(handle.db, acct.id);
  await grantCredits(store, acct.id, (i < 2 ? 30 : 2000) * 100);
  accounts.push({ id: acct.id, key: key.api_key });
}

const apis = [await fleet.startApi('api1'), await fleet.startApi('api2')];
/**
 * Probes whose job a live worker lost while it ran (a stall past the lease: another worker took the
 * job over), from the workers' `job lease_lost` log lines. A call such a worker had sent is
 * answered to nobody (its checkpoint write is refused), so the new holder asks again.
 */
const leaseLost = new Map<string, number>();
function startWorker(name: string): FleetProcess {
  const p = fleet.start(name, ['worker']);
  let rest = '';
  p.child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (!line.includes('lease_lost')) continue;
      try {
        const o = JSON.parse(line) as { outcome?: string; ref_id?: string };
        if (o.outcome === 'lease_lost' && o.ref_id) leaseLost.set(o.ref_id, (leaseLost.get(o.ref_id) ?? 0) + 1);
      } catch {
        /* not a log line */
      }
    }
  });
  return p;
}
const workers: FleetProcess[] = [0, 1, 2].map((i) => startWorker(`worker${i + 1}`));
const startedAt = new Map(workers.map((w) => [w, Date.now()]));

const stats = { creates: 0, replays: 0, cancels: 0, status503: 0, networkRetries: 0, status402: 0, unexpected: [] as string[], kills: 0, restarts: 0, terminated: [] as number[] };

/** One request, retried with the same body on 503 and network errors (what a client does). */
async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: any }> {
  for (let attempt = 0; ; attempt++) {
    const api = apis[rand(apis.length)]!;
    try {
      const res = await fetch(`http://127.0.0.1:${api.port}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json().catch(() => null);
      if (res.status === 503 && attempt < 20) {
        stats.status503++;
        await sleep(200 + rand(300));
        continue;
      }
      return { status: res.status, json };
    } catch (err) {
      if (attempt >= 20) throw err;
      stats.networkRetries++;
      await sleep(200 + rand(300));
    }
  }
}

function runBody(i: number) {
  const prompts = Array.from({ length: 1 + rand(8) }, (_, j) => {
    const directive = rand(20) === 0 ? '[[sandbox:error]]' : `[[sandbox:delay=${30 + rand(170)}]]`;
    return `${directive} chaos question ${i}-${j}`;
  });
  const platforms = [...PLATFORMS].sort(() => Math.random() - 0.5).slice(0, 1 + rand(4));
  return { url: `https://brand${i % 7}.example`, target_entity: `Brand${i % 7}`, competitors: ['Globex'], prompts, platforms, idempotency_key: `chaos-${i}` };
}

const runIds = new Set<string>();

async function createOne(i: number) {
  const account = accounts[i % ACCOUNTS]!;
  const body = runBody(i);
  // Every fifth create is sent twice at once (a client retrying too early): one run either way.
  const sends = rand(5) === 0 ? 2 : 1;
  const results = await Promise.all(Array.from({ length: sends }, () => call('POST', '/v1/visibility/runs', account.key, body)));
  for (const r of results) {
    if (r.status === 200) {
      runIds.add(r.json.run_id);
      if (r.json.idempotent_replay) stats.replays++;
      else stats.creates++;
    } else if (r.status === 402) stats.status402++;
    else stats.unexpected.push(`create ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`);
  }
  const ok = results.find((r) => r.status === 200);
  if (ok && new Set(results.filter((r) => r.status === 200).map((r) => r.json.run_id)).size > 1) {
    stats.unexpected.push(`one idempotency key gave two runs: ${results.map((r) => r.json?.run_id).join(', ')}`);
  }
  if (ok && rand(10) === 0) {
    await sleep(50 + rand(400));
    const c = await call('POST', `/v1/visibility/runs/${ok.json.run_id}/cancel`, account.key);
    if (c.status === 200) stats.cancels++;
    else stats.unexpected.push(`cancel ${c.status} ${JSON.stringify(c.json).slice(0, 200)}`);
  }
}

async function traffic() {
  let next = 0;
  await Promise.all(
    Array.from({ length: 12 }, async () => {
      while (next < RUNS) await createOne(next++);
    }),
  );
}

async function chaos(trafficDone: () => boolean) {
  const t0 = Date.now();
  const terminations = [4000, 11000];
  let kills = 0;
  let restarts = 0;
  let nextKill = 2500 + rand(3000);
  while (!trafficDone() || terminations.length || kills < KILLS || restarts < RESTARTS) {
    const t = Date.now() - t0;
    if (terminations.length && t >= terminations[0]!) {
      terminations.shift();
      stats.terminated.push(await terminateBackends(dbName));
    }
    // Only a worker that has been up a while (tsx starts in seconds here) and while probes run:
    // killing one that is still starting proves nothing.
    const busy = workers.map((w, i) => [w, i] as const).filter(([w]) => Date.now() - startedAt.get(w)! > 5000);
    if (kills + restarts < KILLS + RESTARTS && t >= nextKill && busy.length && (await runningProbes()) > 0) {
      const i = busy[rand(busy.length)]![1];
      const victim = workers[i]!;
      // Two kills, then a rolling restart, and so on: kills first, since the traffic may end
      // before every disruption has had a busy worker to hit.
      const graceful = restarts < RESTARTS && (kills >= KILLS || (kills > 0 && kills % 2 === 0 && restarts < kills / 2));
      if (graceful) {
        await fleet.kill(victim, 'SIGTERM');
        restarts++;
        stats.restarts++;
      } else {
        await fleet.kill(victim);
        kills++;
        stats.kills++;
        await noteLostCalls(victim.child.pid!);
      }
      await sleep(300);
      workers[i] = startWorker(`worker${i + 1}.${kills + restarts}`);
      startedAt.set(workers[i]!, Date.now());
      nextKill = t + 2000 + rand(2000);
    }
    // Nothing left to disrupt: the traffic is done and no probe is queued or running.
    if (trafficDone() && !terminations.length && (await activeProbes()) === 0) break;
    if (t > 120_000) break;
    await sleep(100);
  }
}

/**
 * Platform calls lost with a SIGKILLed worker: its probes that were counted as sent (attempts ≥ 1)
 * and had no checkpoint yet when it died. Read right after the kill, while the dead worker's
 * leases (jobs.lease_owner = wrk_<host>_<pid>_<random>) still stand. These, and only these, may be
 * asked again.
 */
const lostCalls = new Map<string, number>();
async function noteLostCalls(pid: number) {
  const { rows } = await sql<{ id: string }>`
    select p.id from visibility_probes p join jobs j on j.ref_id = p.id
     where j.status = 'running' and split_part(j.lease_owner, '_', 3) = ${String(pid)}
       and p.status = 'running' and p.checkpoint is null and p.attempts >= 1`.execute(handle.db);
  for (const r of rows) lostCalls.set(r.id, (lostCalls.get(r.id) ?? 0) + 1);
}

async function runningProbes(): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from visibility_probes where status = 'running'`.execute(handle.db);
  return Number(rows[0]!.n);
}

async function activeProbes(): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from visibility_probes where status in ('queued', 'running')`.execute(handle.db);
  return Number(rows[0]!.n);
}

let done = false;
try {
  await Promise.all([traffic().finally(() => (done = true)), chaos(() => done)]);
  const settleDeadline = Date.now() + 150_000;
  while ((await activeProbes()) > 0 && Date.now() < settleDeadline) await sleep(500);
  await verify();
} catch (err) {
  failures.push(`the chaos run itself failed: ${(err as Error).stack}`);
}
await finish();

async function verify() {
  const active = await activeProbes();
  if (active > 0) failures.push(`${active} probes still queued or running`);
  if (runIds.size === 0) failures.push('no run was created');
  for (const a of accounts) {
    const b = await getBalance(handle.db, a.id);
    const fromRows = await ledgerBalance(handle.db, a.id);
    if (JSON.stringify(b) !== JSON.stringify(fromRows)) failures.push(`account ${a.id}: totals ${JSON.stringify(b)} ≠ ledger rows ${JSON.stringify(fromRows)}`);
    if (b.reserved !== 0) failures.push(`account ${a.id}: ${b.reserved} still reserved`);
    if (b.granted !== b.available + b.reserved + b.settled) failures.push(`account ${a.id}: granted ≠ available + reserved + settled`);
    if (b.available < 0) failures.push(`account ${a.id}: negative balance`);
  }
  // Each run's charge: settled exactly for its succeeded probes, released for the errored and
  // cancelled ones (a probe settled twice, or settled and released, would break the sums).
  const { rows } = await sql<{ id: string; amount: string; settled: string; released: string; won: string; lost: string }>`
    select r.id, l.amount, l.settled_amount as settled, l.released_amount as released,
           coalesce(sum(case when p.status = 'succeeded' then p.price end), 0) as won,
           coalesce(sum(case when p.status in ('errored', 'cancelled') then p.price end), 0) as lost
      from visibility_runs r join ledger_entries l on l.id = r.ledger_entry_id
      join visibility_probes p on p.run_id = r.id
     group by r.id, l.amount, l.settled_amount, l.released_amount`.execute(handle.db);
  for (const r of rows) {
    if (Number(r.settled) !== Number(r.won) || Number(r.released) !== Number(r.lost) || Number(r.amount) !== Number(r.won) + Number(r.lost)) {
      failures.push(`run ${r.id}: reserved ${r.amount}, settled ${r.settled} for ${r.won} succeeded, released ${r.released} for ${r.lost} failed`);
    }
  }
  const counts = await sql<{ runs: string; probes: string; executed: string; duplicated: string }>`
    select (select count(*) from visibility_runs) as runs, count(*) as probes,
           count(*) filter (where attempts >= 1) as executed, count(*) filter (where attempts > 1) as duplicated
      from visibility_probes`.execute(handle.db);
  const c = counts.rows[0]!;
  const reclaimed = await sql<{ n: string }>`select count(*) as n from jobs where attempts > 1`.execute(handle.db);
  const executed = Number(c.executed);
  const duplicated = Number(c.duplicated);
  const rate = executed ? duplicated / executed : 0;
  if (rate > DUPLICATE_LIMIT) failures.push(`probes executed more than once: ${duplicated} of ${executed} (${(rate * 100).toFixed(2)}%) > ${DUPLICATE_LIMIT * 100}%`);
  // Every second call must be one lost with a SIGKILLed worker (in flight when it died) or with a
  // worker that stalled past its lease: none from a terminated connection, a retry or a rolling
  // restart.
  const asked = await sql<{ id: string; attempts: number | string }>`select id, attempts from visibility_probes where attempts > 1`.execute(handle.db);
  const explained = (id: string) => (lostCalls.get(id) ?? 0) + (leaseLost.get(id) ?? 0);
  const unexplained = asked.rows.filter((r) => Number(r.attempts) - 1 > explained(r.id));
  for (const r of unexplained.slice(0, 10)) {
    failures.push(`probe ${r.id} was asked ${r.attempts} times: ${lostCalls.get(r.id) ?? 0} of its calls were in flight on a SIGKILLed worker, ${leaseLost.get(r.id) ?? 0} on a worker that lost its lease`);
  }
  for (const u of stats.unexpected) failures.push(`unexpected answer: ${u}`);
  for (const p of fleet.crashed()) failures.push(`${p.name} exited on its own (${JSON.stringify(p.unexpectedExit)}):\n${p.output().slice(-3000)}`);
  summary = {
    runs: Number(c.runs),
    probes: Number(c.probes),
    probes_executed: executed,
    probes_executed_more_than_once: duplicated,
    duplicate_rate_percent: Number((rate * 100).toFixed(3)),
    duplicate_target_percent: DUPLICATE_TARGET * 100,
    duplicate_target_met: rate <= DUPLICATE_TARGET,
    duplicate_limit_percent: DUPLICATE_LIMIT * 100,
    calls_in_flight_on_sigkilled_workers: [...lostCalls.values()].reduce((a, b) => a + b, 0),
    probes_whose_lease_a_live_worker_lost: leaseLost.size,
    second_calls_not_explained: unexplained.length,
    jobs_claimed_more_than_once: Number(reclaimed.rows[0]!.n),
    worker_sigkills: stats.kills,
    worker_sigkills_planned: KILLS,
    worker_rolling_restarts: stats.restarts,
    worker_rolling_restarts_planned: RESTARTS,
    backends_terminated: stats.terminated,
    creates: stats.creates,
    idempotent_replays: stats.replays,
    cancels: stats.cancels,
    answers_402: stats.status402,
    answers_503_retried: stats.status503,
    network_retries: stats.networkRetries,
  };
}

async function finish() {
  if (finished) return;
  finished = true;
  clearTimeout(bound);
  await fleet.stopAll().catch(() => {});
  await handle.close().catch(() => {});
  await db.drop().catch(() => {});
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  process.stdout.write(JSON.stringify({ ok: failures.length === 0, seconds, ...summary, failures }, null, 2) + '\n');
  process.exit(failures.length === 0 ? 0 : 1);
}
