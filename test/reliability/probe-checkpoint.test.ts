// A probe's platform answer is checkpointed, fenced by the job's lease, before it is analysed
// (src/core/visibility/probe-executor.ts): a worker SIGKILLed after the checkpoint (here: while
// its judge call hangs) leaves the answer behind, and the worker that takes the probe over
// resumes from it without asking the platform again; `attempts` counts platform calls, so it
// stays 1. A claim that was taken over can neither write a checkpoint nor call the platform.
// A provider's answer is checkpointed before the analysis even without a remote judge (it was
// paid for); when the analysis fails, the retry resumes from it.
// Platform calls are counted at the fake provider's HTTP boundary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider, type FakeStep } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { Fleet } from '../helpers/processes.ts';
import { claimJobs, LeaseLost, leaseOf } from '../../src/jobs/queue.ts';
import { executeProbe } from '../../src/core/visibility/probe-executor.ts';
import { buildPlatforms } from '../../src/server/runtime.ts';
import { getMetrics } from '../../src/ops/metrics.ts';
import { getBalance, ledgerBalance } from '../../src/core/billing/ledger.ts';
import type { AskPlatform } from '../../src/platforms/types.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ANSWER = 'For agencies: 1. HubSpot 2. **Acme CRM**, simple pipelines 3. Pipedrive.';
const isJudge = (body: unknown) => JSON.stringify(body).includes('careful analyst');

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Provider calls of a platform in the metrics (every outcome), as /metrics reports them. */
async function providerCallsMetered(platform: string): Promise<number> {
  const metric = await getMetrics().registry.getSingleMetric('sightline_provider_call_duration_seconds')!.get();
  return (metric.values as { metricName?: string; labels: Record<string, unknown>; value: number }[])
    .filter((v) => v.metricName === 'sightline_provider_call_duration_seconds_count' && v.labels.platform === platform)
    .reduce((n, v) => n + v.value, 0);
}

describe('probe answers checkpointed before analysis', () => {
  let s: TestServer;
  let claude: FakeProvider;
  let openai: FakeProvider;
  /** What the probe platform answers next (per test). */
  let answerStep: () => FakeStep = () => ({ answer: { text: ANSWER } });
  /** Whether the judge hangs (the worker "dies" while it waits). */
  let judgeHangs = false;
  let env: Record<string, string>;

  before(async () => {
    claude = await startFakeProvider('claude', () => answerStep());
    openai = await startFakeProvider('openai', (): FakeStep => {
      if (judgeHangs) return { hang: true };
      return {
        answer: {
          text: JSON.stringify({
            brands: [
              { name: 'Acme CRM', sentiment: 'positive', recommended: true },
              { name: 'HubSpot', sentiment: 'neutral', recommended: false },
            ],
          }),
          model: 'gpt-judge',
        },
      };
    });
    env = {
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      // The worker processes' key check at start would be one more request to the fake, counted here.
      SIGHTLINE_CHECK_KEYS_AT_START: 'off',
      SIGHTLINE_PROBE_MAX_ATTEMPTS: '1',
      SIGHTLINE_JUDGE_MODEL: 'openai:gpt-judge',
      // Long enough that a loaded machine never loses a lease mid-analysis (a lost lease is a
      // third claim); a takeover is made by expiring the dead worker's lease below.
      SIGHTLINE_JOB_LEASE_MS: '30000',
      ...claude.env,
      ...openai.env,
    };
    s = await startTestServer(env, { worker: false });
  });
  after(async () => {
    await s.close();
    await Promise.all([claude.close(), openai.close()]);
  });

  const probeCalls = () => claude.requests.filter((r) => !isJudge(r.body)).length;

  async function createRun(key: string) {
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme-crm.example', target_entity: 'Acme CRM', competitors: ['HubSpot'], prompts: ['best crm for agencies'], platforms: ['claude'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const runId: string = res.json().run_id;
    const probe = await s.runtime.core.store.db.selectFrom('visibility_probes').select(['id']).where('run_id', '=', runId).executeTakeFirstOrThrow();
    return { runId, probeId: probe.id };
  }

  const probeRow = (id: string) =>
    s.runtime.core.store.db
      .selectFrom('visibility_probes')
      .select(['status', 'attempts', 'checkpoint', 'answer'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function assertLedgerWhole(accountId: string, granted: number) {
    const balance = await getBalance(s.runtime.core.store.db, accountId);
    assert.equal(balance.reserved, 0, 'nothing left reserved');
    assert.equal(balance.granted, granted);
    assert.equal(balance.available + balance.settled, granted);
    assert.deepEqual(await ledgerBalance(s.runtime.core.store.db, accountId), balance, 'totals equal the ledger rows');
  }

  test('a worker SIGKILLed after the answer was checkpointed: the takeover resumes from it and the platform is asked once', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const before = probeCalls();
    judgeHangs = true;
    const { runId, probeId } = await createRun(key);
    // A real worker process answers the probe, then hangs in the judge call (the analysis).
    const fleet = new Fleet({ ...env, DATABASE_URL: s.runtime.core.config.DATABASE_URL, SIGHTLINE_LOG_LEVEL: 'silent' });
    const doomed = fleet.start('worker-a', ['worker']);
    try {
      await until('the first worker to reach its judge call', () => openai.requests.length > 0 || doomed.unexpectedExit !== null);
      assert.equal(doomed.unexpectedExit, null, doomed.output());
      const mid = await probeRow(probeId);
      assert.equal(mid.status, 'running');
      assert.equal(mid.attempts, 1);
      assert.ok(mid.checkpoint, 'the answer is checkpointed before the analysis');
      assert.equal(JSON.parse(mid.checkpoint!).answer.text, ANSWER);
      await fleet.kill(doomed);
    } finally {
      await fleet.stopAll();
    }
    assert.equal(probeCalls() - before, 1);

    // Another worker takes the job over once the dead one's lease has run out.
    await s.runtime.core.store.db
      .updateTable('jobs')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('ref_id', '=', probeId)
      .execute();
    judgeHangs = false;
    s.runtime.core.startWorker();
    const run = await s.waitForRun(key, runId);
    assert.equal(run.status, 'completed');
    assert.equal(probeCalls() - before, 1, 'the platform was not asked again');
    const done = await probeRow(probeId);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempts, 1, 'attempts counts platform calls');
    assert.equal(done.checkpoint, null, 'the checkpoint is cleared when the probe settles');
    assert.equal(done.answer, ANSWER);
    const read = (await s.request('GET', `/v1/visibility/runs/${runId}/probes/${probeId}`, { key })).json();
    assert.equal(read.attempts, 1);
    assert.equal(read.brand_mentioned, true);
    assert.equal(read.brands.find((b: any) => b.name === 'Acme CRM').sentiment, 'positive', JSON.stringify(read.judge_error));
    const job = await s.runtime.core.store.db.selectFrom('jobs').select(['status', 'attempts']).where('ref_id', '=', probeId).executeTakeFirstOrThrow();
    assert.equal(job.status, 'done');
    assert.equal(job.attempts, 2, 'claimed twice, asked once');
    await assertLedgerWhole(accountId, 10_00);
    await s.runtime.core.startedWorker!.stop(1000);
  });

  test('a claim taken over while its platform call was in flight cannot write a checkpoint; one taken over before sending never calls', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const { store, catalog } = s.runtime.core;
    const { ask } = buildPlatforms(s.runtime.core.config);
    const deps = { store, catalog, ask, judge: null };
    const { runId, probeId } = await createRun(key);
    const before = probeCalls();

    // Worker A claims with a short lease and calls; the platform answers slowly.
    answerStep = () => ({ delayMs: 400, answer: { text: ANSWER } });
    const [a] = await claimJobs(store, 'wrk_a', ['claude'], 1, 100);
    const running = executeProbe(deps, probeId, new AbortController().signal, leaseOf(a!));
    await until('worker A to call the platform', () => probeCalls() > before);
    // A's lease runs out and worker B takes the job over before the answer arrives.
    await sleep(150);
    const [b] = await claimJobs(store, 'wrk_b', ['claude'], 1, 30_000);
    assert.equal(b?.id, a!.id, 'B took the expired job over');
    await assert.rejects(running, LeaseLost);
    const afterA = await probeRow(probeId);
    assert.equal(afterA.checkpoint, null, 'the expired claim wrote no checkpoint');
    assert.equal(afterA.status, 'running');
    assert.equal(afterA.attempts, 1);

    // Worker C takes over from B before B sends anything: B's call is refused before it is sent.
    answerStep = () => ({ answer: { text: ANSWER } });
    await s.runtime.core.store.db
      .updateTable('jobs')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', b!.id)
      .execute();
    const [c] = await claimJobs(store, 'wrk_c', ['claude'], 1, 30_000);
    assert.equal(c?.id, b!.id);
    const metered = await providerCallsMetered('claude');
    await assert.rejects(executeProbe(deps, probeId, new AbortController().signal, leaseOf(b!)), LeaseLost);
    assert.equal(probeCalls() - before, 1, 'B never called the platform');
    assert.equal(await providerCallsMetered('claude'), metered, 'a refused send is no provider call in /metrics');

    // C holds the lease: it asks (A's answer was never kept), checkpoints and settles once.
    await executeProbe(deps, probeId, new AbortController().signal, leaseOf(c!));
    assert.equal(probeCalls() - before, 2);
    const done = await probeRow(probeId);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempts, 2, 'two platform calls, counted');
    assert.equal(done.checkpoint, null);
    const run = await s.waitForRun(key, runId);
    assert.equal(run.status, 'completed');
    await assertLedgerWhole(accountId, 10_00);
  });

  test('without a remote judge, a failed analysis leaves the answer checkpointed and the retry resumes from it', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const { store, catalog } = s.runtime.core;
    const { ask } = buildPlatforms(s.runtime.core.config);
    const { runId, probeId } = await createRun(key);
    const before = probeCalls();
    answerStep = () => ({ answer: { text: ANSWER } });

    // A local judge (it waits on nothing) that fails: the settle never happens.
    const failing = { engine: 'sandbox' as const, confirms: false, judge: async () => Promise.reject(new Error('judge broke')) };
    const [a] = await claimJobs(store, 'wrk_a', ['claude'], 1, 30_000);
    await assert.rejects(executeProbe({ store, catalog, ask, judge: failing }, probeId, new AbortController().signal, leaseOf(a!)), /judge broke/);
    const failed = await probeRow(probeId);
    assert.equal(failed.status, 'running');
    assert.equal(failed.attempts, 1);
    assert.equal(JSON.parse(failed.checkpoint!).answer.text, ANSWER, 'the answer is kept for the retry');

    // The retry (the same job claimed again) settles from the checkpoint without asking.
    await store.db
      .updateTable('jobs')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', a!.id)
      .execute();
    const [b] = await claimJobs(store, 'wrk_b', ['claude'], 1, 30_000);
    assert.equal(b?.id, a!.id);
    await executeProbe({ store, catalog, ask, judge: null }, probeId, new AbortController().signal, leaseOf(b!));
    assert.equal(probeCalls() - before, 1, 'the platform was asked once');
    const done = await probeRow(probeId);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempts, 1);
    assert.equal(done.checkpoint, null);
    assert.equal((await s.waitForRun(key, runId)).status, 'completed');
    await assertLedgerWhole(accountId, 10_00);

    // A fresh probe with nothing to wait on: queued until its call is sent, then settled at once.
    const second = await createRun(key);
    const [c] = await claimJobs(store, 'wrk_c', ['claude'], 1, 30_000);
    assert.equal((await probeRow(second.probeId)).status, 'queued', 'claimed, not sent yet');
    await executeProbe({ store, catalog, ask, judge: null }, second.probeId, new AbortController().signal, leaseOf(c!));
    const settled = await probeRow(second.probeId);
    assert.equal(settled.status, 'succeeded');
    assert.equal(settled.attempts, 1);
    assert.equal(probeCalls() - before, 2);
    await assertLedgerWhole(accountId, 10_00);
  });
  test('a sandbox answer is checkpointed before its analysis on Postgres only (on SQLite it settles in the same turn)', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const { store, catalog } = s.runtime.core;
    const { probeId } = await createRun(key);
    const ask: AskPlatform = async (req) => {
      await req.beforeSend?.();
      return { text: ANSWER, citations: [], model: 'm', engine: 'sandbox', raw: null };
    };
    // A local judge that looks at the probe while the answer is analysed.
    let seen: string | null | undefined;
    const judge = {
      engine: 'sandbox' as const,
      confirms: false,
      judge: async () => {
        seen = (await probeRow(probeId)).checkpoint;
        throw new Error('judge looked');
      },
    };
    const [a] = await claimJobs(store, 'wrk_sandbox', ['claude'], 1, 30_000);
    await assert.rejects(executeProbe({ store, catalog, ask, judge }, probeId, new AbortController().signal, leaseOf(a!)), /judge looked/);
    if (store.dialect === 'postgres') assert.equal(JSON.parse(seen!).answer.text, ANSWER, 'checkpointed before the analysis');
    else assert.equal(seen, null, 'no checkpoint before the analysis: one commit fewer');
    // Either way the failed analysis leaves the answer for the retry.
    assert.equal(JSON.parse((await probeRow(probeId)).checkpoint!).answer.text, ANSWER);
    const balance = await getBalance(store.db, accountId);
    assert.ok(balance.reserved > 0 && balance.settled === 0, 'still reserved: nothing settled, nothing released');
  });
});
