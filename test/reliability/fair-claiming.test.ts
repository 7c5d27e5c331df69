// Fair, fenced job claiming (src/jobs/queue.ts, worker.ts): accounts waiting in a lane are
// served round-robin, per-account and per-lane caps hold across workers, a claim's lease token
// fences every write of its outcome, and the watchdog ends a job past its time budget with its
// credits released. Runs on both databases.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { claimJobs, enqueueJobs, finishJob, holdLease, LeaseLost, leaseOf, type Job } from '../../src/jobs/queue.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { executeProbe } from '../../src/core/visibility/probe-executor.ts';
import type { AskPlatform } from '../../src/platforms/types.ts';
import { PROBE_JOB_KIND } from '../../src/core/visibility/runs.ts';
import { getBalance } from '../../src/core/billing/ledger.ts';
import { workerExtras } from '../../src/core/worker-extras.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let laneCounter = 0;

describe('fair, fenced claiming', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(async () => s.close());

  const store = () => s.runtime.core.store;
  /** A lane of its own per test, with `counts[account]` queued jobs per account, oldest first in the given order. */
  async function queue(counts: Record<string, number>): Promise<string> {
    const lane = `lane_${laneCounter++}`;
    for (const [account, n] of Object.entries(counts)) {
      await enqueueJobs(store().db, Array.from({ length: n }, (_, i) => ({ kind: 'test', lane, refId: `${account}_${i}`, accountId: account })));
      await sleep(2); // later accounts' jobs are younger
    }
    return lane;
  }
  const accountsOf = (jobs: Job[]) => jobs.map((j) => j.account_id);

  test('a small account is served in the next claim, however large the backlog queued before it', async () => {
    const lane = await queue({ big: 500, small: 1 });
    const first = await claimJobs(store(), 'w1', [lane], 4, 30_000);
    assert.equal(first.length, 4);
    assert.ok(accountsOf(first).includes('small'), `claimed ${accountsOf(first).join(',')}`);
    // Room the small account cannot use goes to the big one: nothing is left idle.
    assert.equal(accountsOf(first).filter((a) => a === 'big').length, 3);
  });

  test('one job at a time, accounts take turns (round-robin after the last served)', async () => {
    const lane = await queue({ a: 5, b: 5, c: 5 });
    const order: (string | null)[] = [];
    let last: string | null = null;
    for (let i = 0; i < 7; i++) {
      const [job] = await claimJobs(store(), 'w1', [lane], 1, 30_000, { after: last });
      order.push(job!.account_id);
      last = job!.account_id;
    }
    assert.deepEqual(order, ['a', 'b', 'c', 'a', 'b', 'c', 'a']);
  });

  test('the per-account cap holds across workers and lanes; the lane cap across workers', async () => {
    const lane = await queue({ capped: 10, other: 10 });
    const w1 = await claimJobs(store(), 'w1', [lane], 10, 30_000, { accountCap: 2 });
    assert.deepEqual(accountsOf(w1).sort(), ['capped', 'capped', 'other', 'other']);
    assert.equal((await claimJobs(store(), 'w2', [lane], 10, 30_000, { accountCap: 2 })).length, 0, 'a second worker gets nothing');
    await finishJob(store().db, w1[0]!.id, 'done', undefined, leaseOf(w1[0]!));
    const w2 = await claimJobs(store(), 'w2', [lane], 10, 30_000, { accountCap: 2 });
    assert.deepEqual(accountsOf(w2), [w1[0]!.account_id], 'one slot came free');

    const lane2 = await queue({ x: 10 });
    assert.equal((await claimJobs(store(), 'w1', [lane2], 10, 30_000, { laneCap: 3 })).length, 3);
    assert.equal((await claimJobs(store(), 'w2', [lane2], 10, 30_000, { laneCap: 3 })).length, 0);
  });

  test('a slot freed under the overall limit goes to the lane furthest behind, not back to the first lane', async () => {
    // Three lanes of 3 under 7 overall: in a fixed lane order the first two lanes took every freed
    // slot back and the third ran on 1 slot until they were done, then alone.
    const lanes = [await queue({ a: 30 }), await queue({ a: 30 }), await queue({ a: 30 })];
    const started: string[] = [];
    const handlers = {
      test: async (job: Job) => {
        started.push(job.lane);
        await sleep(15);
      },
    };
    const w = new Worker({ store: store(), handlers, laneConcurrency: Object.fromEntries(lanes.map((l) => [l, 3])), concurrency: 7, pollMs: 20 });
    w.start();
    while (started.length < 90) await sleep(10);
    await w.stop();
    // After two thirds of the starts every lane has had close to a third of them, 20 (in a fixed
    // order the last had 1 in 7, about 9). Claims on a slow database come in uneven batches, so
    // the bound sits between the two (15 seen on Postgres with four test files at a time).
    const early = started.slice(0, 60);
    for (const lane of lanes) {
      const n = early.filter((l) => l === lane).length;
      assert.ok(n >= 13, `lane ${lane}: ${n} of the first 60 starts`);
    }
  });

  test('a claim taken over after its lease expired can no longer write: holdLease and fenced finishes refuse', async () => {
    const lane = await queue({ a: 1 });
    const [stale] = await claimJobs(store(), 'w1', [lane], 1, 20);
    await sleep(40);
    const [fresh] = await claimJobs(store(), 'w2', [lane], 1, 30_000);
    assert.equal(fresh!.id, stale!.id);
    await assert.rejects(holdLease(store().db, leaseOf(stale!)), LeaseLost);
    await finishJob(store().db, stale!.id, 'done', undefined, leaseOf(stale!));
    const row = await store().db.selectFrom('jobs').selectAll().where('id', '=', stale!.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'running');
    assert.equal(row.lease_owner, 'w2');
    await holdLease(store().db, leaseOf(fresh!));
  });

  async function oneProbeRun(key: string) {
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['deepseek'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const probe = await store().db.selectFrom('visibility_probes').select(['id']).where('run_id', '=', res.json().run_id).executeTakeFirstOrThrow();
    return { runId: res.json().run_id as string, probeId: probe.id };
  }

  test('a probe whose claim was taken over records nothing; the new holder settles it once', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const { probeId } = await oneProbeRun(key);
    const [stale] = await claimJobs(store(), 'w1', ['deepseek'], 1, 20);
    assert.equal(stale!.ref_id, probeId);
    await sleep(40);
    const [fresh] = await claimJobs(store(), 'w2', ['deepseek'], 1, 30_000);
    const ask: AskPlatform = async () => ({ text: 'Acme is great', citations: [], model: 'm', engine: 'sandbox', raw: null });
    const deps = { store: store(), catalog: s.runtime.core.catalog, ask };
    await assert.rejects(executeProbe(deps, probeId, new AbortController().signal, leaseOf(stale!)), LeaseLost);
    const mid = await getBalance(store().db, accountId);
    assert.equal(mid.settled, 0, 'the stale claim settled nothing');
    await executeProbe(deps, probeId, new AbortController().signal, leaseOf(fresh!));
    const end = await getBalance(store().db, accountId);
    assert.equal(end.reserved, 0);
    assert.equal(end.settled, 100, 'settled once');
  });

  test('the watchdog stops a job past its time budget, releases its credits and frees the slot', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const { runId, probeId } = await oneProbeRun(key);
    let answerLate!: () => void;
    // A provider call that ignores the abort signal: only a watchdog outside the call can end it.
    const ask: AskPlatform = () =>
      new Promise((resolve) => (answerLate = () => resolve({ text: 'Acme', citations: [], model: 'm', engine: 'sandbox', raw: null })));
    const outcomes: string[] = [];
    const w = new Worker({
      store: store(),
      handlers: { [PROBE_JOB_KIND]: (job, signal) => executeProbe({ store: store(), catalog: s.runtime.core.catalog, ask }, job.ref_id, signal, leaseOf(job)) },
      ...workerExtras(store()),
      laneConcurrency: { deepseek: 1 },
      concurrency: 1,
      pollMs: 20,
      jobTimeoutMs: 200,
      onOutcome: (_job, o) => outcomes.push(o),
    });
    w.start();
    const run = await s.waitForRun(key, runId, 10_000);
    assert.equal(run.status, 'failed');
    const probe = await store().db.selectFrom('visibility_probes').select(['status', 'error_code']).where('id', '=', probeId).executeTakeFirstOrThrow();
    assert.deepEqual(probe, { status: 'errored', error_code: 'job_timeout' });
    assert.equal(w.activeCount, 0, 'the slot is free');
    answerLate();
    await sleep(50);
    await w.stop(50);
    assert.deepEqual(outcomes, ['timeout']);
    const b = await getBalance(store().db, accountId);
    assert.deepEqual([b.reserved, b.settled, b.available], [0, 0, 1000], 'released, and the late answer recorded nothing');
  });
});
