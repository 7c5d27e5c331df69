// A job that runs out of attempts is given up through its kind's handler: the probe (or Content
// Intelligence run) it worked on ends failed and its reserved credits come back. Before, the job
// was marked failed and nothing touched the probe: it stayed `running` with its credits reserved
// forever. Also a job whose worker dies every time (its lease expires, another worker reclaims
// it) is given up once past max_attempts, without running again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { claimJobs, LeaseLost } from '../../src/jobs/queue.ts';
import { Worker } from '../../src/jobs/worker.ts';
import { executeProbe } from '../../src/core/visibility/probe-executor.ts';
import type { AskPlatform } from '../../src/platforms/types.ts';
import { PROBE_JOB_KIND } from '../../src/core/visibility/runs.ts';
import { CI_JOB_KIND, CI_LANE, executeCiRun } from '../../src/core/content/runs.ts';
import { getBalance, ledgerBalance } from '../../src/core/billing/ledger.ts';
import type { ProbeAnswer } from '../../src/platforms/types.ts';
import { workerExtras } from '../../src/core/worker-extras.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answer = (): ProbeAnswer => ({ text: 'Acme is great', citations: [], model: 'x', engine: 'sandbox', raw: null });

describe('jobs given up after their last attempt', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(() => s.close());

  /** A worker built as the core builds it (handlers + workerExtras), with a given `ask`. */
  function worker(ask: AskPlatform, analyzed: { count: number } = { count: 0 }) {
    const { store, catalog } = s.runtime.core;
    const errors: unknown[] = [];
    const w = new Worker({
      store,
      handlers: {
        [PROBE_JOB_KIND]: (job, signal) => executeProbe({ store, catalog, ask }, job.ref_id, signal),
        [CI_JOB_KIND]: (job) =>
          executeCiRun(store, async () => {
            analyzed.count++;
            throw new Error('must not run');
          }, job.ref_id),
      },
      ...workerExtras(store),
      laneConcurrency: { openai: 1, [CI_LANE]: 1 },
      concurrency: 2,
      leaseMs: 1000,
      pollMs: 20,
      onError: (err) => errors.push(err),
    });
    return { w, errors };
  }

  async function assertWhole(accountId: string, granted: number) {
    const balance = await getBalance(s.runtime.core.store.db, accountId);
    assert.equal(balance.reserved, 0, 'nothing left reserved');
    assert.equal(balance.granted, granted);
    assert.equal(balance.available + balance.settled, balance.granted);
    assert.deepEqual(await ledgerBalance(s.runtime.core.store.db, accountId), balance, 'totals equal the ledger rows');
  }

  async function createProbeRun(key: string) {
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  /** `n` workers in a row claim the lane's job and die holding it (a 30 ms lease, never renewed). */
  async function dieHolding(lane: string, n: number) {
    for (let i = 0; i < n; i++) {
      assert.equal((await claimJobs(s.runtime.core.store, `dead${i}`, [lane], 1, 30)).length, 1);
      await sleep(60);
    }
  }

  async function jobOf(refId: string) {
    return s.runtime.core.store.db.selectFrom('jobs').select(['status', 'attempts', 'max_attempts', 'last_error']).where('ref_id', '=', refId).executeTakeFirstOrThrow();
  }

  async function onlyProbe(runId: string) {
    return s.runtime.core.store.db.selectFrom('visibility_probes').select(['id', 'status', 'error_code']).where('run_id', '=', runId).executeTakeFirstOrThrow();
  }

  test('a probe whose last attempt is aborted (workers died, then a deploy stopped the last one) ends errored and its credits are released', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const run = await createProbeRun(key);
    await dieHolding('openai', 4);
    // The fifth picks it up, starts the probe, and is stopped while the provider call hangs.
    let asked = 0;
    const hang: AskPlatform = (req) => {
      asked++;
      return new Promise((_, reject) => req.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    };
    const { w } = worker(hang);
    w.start();
    const deadline = Date.now() + 5000;
    while (asked === 0 && Date.now() < deadline) await sleep(10);
    assert.equal(asked, 1, 'the fifth attempt ran');
    await w.stop(50);

    const probe = await onlyProbe(run.run_id);
    assert.equal(probe.status, 'errored');
    assert.equal(probe.error_code, 'worker_gave_up');
    const job = await jobOf(probe.id);
    assert.equal(job.status, 'failed');
    assert.equal(job.attempts, 5);
    await assertWhole(accountId, 100_00);
    const read = (await s.request('GET', `/v1/visibility/runs/${run.run_id}`, { key })).json();
    assert.equal(read.status, 'failed');
  });

  test('a probe whose job killed its worker every time is given up at the next reclaim, without running again', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const run = await createProbeRun(key);
    await dieHolding('openai', 5);
    let asked = 0;
    const { w, errors } = worker(async () => {
      asked++;
      return answer();
    });
    w.start();
    const probeId = (await onlyProbe(run.run_id)).id;
    const deadline = Date.now() + 5000;
    while ((await jobOf(probeId)).status !== 'failed' && Date.now() < deadline) await sleep(20);
    await w.stop(50);
    assert.deepEqual(errors, []);
    assert.equal(asked, 0, 'the sixth claim does not run the probe');
    const probe = await onlyProbe(run.run_id);
    assert.equal(probe.status, 'errored');
    assert.equal(probe.error_code, 'worker_gave_up');
    const job = await jobOf(probeId);
    assert.equal(job.status, 'failed');
    assert.equal(job.attempts, 6);
    await assertWhole(accountId, 100_00);
  });

  test('a Content Intelligence run whose job killed its worker every time ends failed and its credits are released', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'https://acme.example/guide' } });
    assert.equal(res.statusCode, 200, res.body);
    const runId = res.json().run_id as string;
    assert.equal((await getBalance(s.runtime.core.store.db, accountId)).reserved, 3_00);
    await dieHolding(CI_LANE, 3);
    const analyzed = { count: 0 };
    const { w, errors } = worker(async () => answer(), analyzed);
    w.start();
    const deadline = Date.now() + 5000;
    while ((await jobOf(runId)).status !== 'failed' && Date.now() < deadline) await sleep(20);
    await w.stop(50);
    assert.deepEqual(errors, []);
    assert.equal(analyzed.count, 0);
    const job = await jobOf(runId);
    assert.equal(job.status, 'failed');
    assert.equal(job.attempts, 4);
    const read = (await s.request('GET', `/v1/content-intelligence/runs/${runId}`, { key })).json();
    assert.equal(read.status, 'failed');
    assert.equal(read.error.code, 'worker_gave_up');
    assert.equal(read.billing.status, 'released');
    await assertWhole(accountId, 10_00);
  });

  test('a finished probe is never changed by a give-up', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const run = await createProbeRun(key);
    const { w } = worker(async () => answer());
    w.start();
    const done = await s.waitForRun(key, run.run_id, 5000);
    await w.stop(50);
    assert.equal(done.status, 'completed');
    const probe = await onlyProbe(run.run_id);
    const before = await getBalance(s.runtime.core.store.db, accountId);
    const job = await s.runtime.core.store.db.selectFrom('jobs').selectAll().where('ref_id', '=', probe.id).executeTakeFirstOrThrow();
    // A give-up that comes late (the job finished) is fenced off by the lease: it records nothing.
    await assert.rejects(workerExtras(s.runtime.core.store).giveUp[PROBE_JOB_KIND](job, 'late give-up'), LeaseLost);
    assert.equal((await onlyProbe(run.run_id)).status, 'succeeded');
    assert.deepEqual(await getBalance(s.runtime.core.store.db, accountId), before);
    assert.equal(before.reserved, 0);
  });
});
