// Real processes on one database: an API process without a worker reports the queue on /metrics
// (a sample per lane, 0 when empty, read from the database on scrape); a worker given SIGTERM
// with probes in flight hands them back at the end of its grace period: probe and job read
// `queued` again, lease cleared, runnable at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.ts';
import { QUEUE_READ_CACHE_MS } from '../../src/ops/metrics.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { Fleet, type FleetProcess } from '../helpers/processes.ts';

const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('queue metrics in an API process, and graceful shutdown of a worker', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let fleet: Fleet;
  let api: FleetProcess;
  let handle: DatabaseHandle;
  let key: string;
  const env = () => ({
    DATABASE_URL: db.url,
    SIGHTLINE_LOG_LEVEL: 'warn',
    SIGHTLINE_METRICS_TOKEN: 'a-metrics-token-for-the-queue-tests-0123',
    SIGHTLINE_SHUTDOWN_GRACE_MS: '300',
    SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
  });

  before(async () => {
    db = await freshDatabaseUrl();
    fleet = new Fleet(env());
    api = await fleet.startApi('api');
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'accounts', 'create', '--email', 'ops@example.com', '--credits', '100', '--json'], { env: { ...process.env, ...env() } });
    key = JSON.parse(stdout).api_key;
    handle = openDatabase(db.url);
  });
  after(async () => {
    await fleet.stopAll();
    await handle.close();
    await db.drop();
  });

  const scrape = async () => {
    const res = await fetch(`http://127.0.0.1:${api.port}/metrics`, { headers: { authorization: 'Bearer a-metrics-token-for-the-queue-tests-0123' } });
    assert.equal(res.status, 200);
    return res.text();
  };
  const sample = (text: string, name: string, lane: string) => {
    const m = new RegExp(`^${name}\\{lane="${lane}"\\} (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  };

  test('an API process with no worker: queue depth and age per lane, 0 when empty, then what is queued', async () => {
    const empty = await scrape();
    for (const lane of ['openai', 'perplexity', 'content']) {
      assert.equal(sample(empty, 'sightline_queue_depth', lane), 0, `depth of ${lane}:\n${empty.slice(0, 2000)}`);
      assert.equal(sample(empty, 'sightline_queue_oldest_age_seconds', lane), 0);
    }
    const run = await fetch(`http://127.0.0.1:${api.port}/v1/visibility/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://acme.example', target_entity: 'Acme', prompts: ['a [[sandbox:delay=30000]]', 'b [[sandbox:delay=30000]]', 'c [[sandbox:delay=30000]]'], platforms: ['openai'] }),
    });
    assert.equal(run.status, 200, await run.clone().text());
    await sleep(QUEUE_READ_CACHE_MS + 100);
    const queued = await until('a queue depth of 3', async () => {
      const text = await scrape();
      return sample(text, 'sightline_queue_depth', 'openai') === 3 ? text : undefined;
    });
    assert.ok(sample(queued, 'sightline_queue_oldest_age_seconds', 'openai')! > 0);
    assert.equal(sample(queued, 'sightline_queue_depth', 'perplexity'), 0);
  });

  test('SIGTERM: probes still running at the end of the grace period go back to queued with their jobs', async () => {
    const probes = () => sql<{ status: string }>`select status from visibility_probes`.execute(handle.db).then((r) => r.rows.map((p) => p.status));
    const worker = fleet.start('worker', ['worker']);
    await until('three running probes', async () => ((await probes()).filter((s) => s === 'running').length === 3 ? true : undefined));
    const stopped = Date.now();
    await fleet.kill(worker, 'SIGTERM');
    assert.equal(worker.child.exitCode, 0, worker.output());
    assert.ok(Date.now() - stopped < 10_000);
    assert.deepEqual(await probes(), ['queued', 'queued', 'queued'], worker.output());
    const { rows: jobs } = await sql<{ status: string; lease_owner: string | null; lease_until: string | null; run_after: string; attempts: number | string }>`
      select status, lease_owner, lease_until, run_after, attempts from jobs`.execute(handle.db);
    assert.equal(jobs.length, 3);
    for (const j of jobs) {
      assert.equal(j.status, 'queued');
      assert.equal(j.lease_owner, null);
      assert.equal(j.lease_until, null);
      assert.ok(Date.parse(String(j.run_after)) <= Date.now(), `runnable now: ${j.run_after}`);
      assert.equal(Number(j.attempts), 1);
    }
    // Another worker takes them as soon as it is up, not after a lease runs out.
    const next = fleet.start('worker-2', ['worker']);
    await until('the probes running again', async () => ((await probes()).every((s) => s === 'running') ? true : undefined)).catch((err) => {
      throw new Error(`${err.message}\n${next.output()}`);
    });
    await fleet.kill(next, 'SIGTERM');
  });
});
