// The invariants that make runs safe: one run per idempotency key under concurrency, cancel
// that never both cancels and settles a probe, a probe that runs twice settles once, a dead
// worker's probe is reclaimed after its lease, and credits are conserved to the hundredth.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { totalsAndLedger } from '../../src/core/billing/ledger.ts';
import { claimJobs } from '../../src/jobs/queue.ts';
import { executeProbe } from '../../src/core/visibility/probe-executor.ts';
import { createSandboxDriver } from '../../src/platforms/sandbox.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const base = { url: 'https://acme.example', target_entity: 'Acme' };

async function conservation(s: TestServer, accountId: string) {
  const { totals: b, ledger } = await totalsAndLedger(s.runtime.core.store.db, accountId);
  assert.deepEqual(b, ledger, 'the running totals equal the sums over the ledger rows');
  assert.equal(b.granted, b.available + b.reserved + b.settled, 'granted = available + reserved + settled');
  assert.ok(b.available >= 0);
  return b;
}

describe('visibility invariants', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('30 concurrent creates with one idempotency key make one run and one reservation', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const body = { ...base, prompts: ['best crm', 'top crm'], platforms: ['openai', 'deepseek'], idempotency_key: 'order-42' };
    const responses = await Promise.all(Array.from({ length: 30 }, () => s.request('POST', '/v1/visibility/runs', { key, body })));
    assert.ok(responses.every((r) => r.statusCode === 200), responses.map((r) => r.statusCode).join(','));
    const ids = new Set(responses.map((r) => r.json().run_id));
    assert.equal(ids.size, 1);
    assert.equal(responses.filter((r) => !r.json().idempotent_replay).length, 1);
    for (const r of responses) assert.equal(r.json().reserved_credits, '6.00');
    const charges = await s.runtime.core.store.db.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId).where('kind', '=', 'charge').execute();
    assert.equal(charges.length, 1);
    const runs = (await s.request('GET', '/v1/visibility/runs', { key })).json().runs;
    assert.equal(runs.length, 1);
    // Another access source (or another account) with the same key is a different run.
    const other = await s.account({ credits: 100 });
    const r2 = await s.request('POST', '/v1/visibility/runs', { key: other.key, body });
    assert.notEqual(r2.json().run_id, [...ids][0]);
    await s.waitForRun(key, [...ids][0]);
    const replay = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.equal(replay.json().run_id, [...ids][0]);
    await conservation(s, accountId);
  });

  test('cancel releases queued probes, lets running ones finish, and is safe to repeat', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const created = (
      await s.request('POST', '/v1/visibility/runs', {
        key,
        body: { ...base, prompts: Array.from({ length: 20 }, (_, i) => `[[sandbox:delay=300]] q${i}`), platforms: ['deepseek'] },
      })
    ).json();
    await new Promise((r) => setTimeout(r, 100));
    const cancelled = await s.request('POST', `/v1/visibility/runs/${created.run_id}/cancel`, { key });
    assert.equal(cancelled.statusCode, 200);
    const again = await s.request('POST', `/v1/visibility/runs/${created.run_id}/cancel`, { key, body: {} });
    assert.equal(again.statusCode, 200);
    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'cancelled');
    assert.ok(run.probe_counts.cancelled > 0);
    assert.equal(run.probe_counts.cancelled + run.probe_counts.succeeded, 20);
    assert.equal(run.billing.settled_credits, `${run.probe_counts.succeeded}.00`);
    assert.equal(run.billing.released_credits, `${run.probe_counts.cancelled}.00`);
    // Cancelling a terminal run changes nothing.
    const terminal = (await s.request('POST', `/v1/visibility/runs/${created.run_id}/cancel`, { key })).json();
    assert.deepEqual(terminal.probe_counts, run.probe_counts);
    const b = await conservation(s, accountId);
    assert.equal(b.reserved, 0);
  });

  test('cancelling a finished run changes nothing: a completed run stays completed', async () => {
    const { key } = await s.account({ credits: 20 });
    const created = (await s.request('POST', '/v1/visibility/runs', { key, body: { ...base, prompts: ['q1', 'q2'], platforms: ['openai'] } })).json();
    const done = await s.waitForRun(key, created.run_id);
    assert.equal(done.status, 'completed');
    const cancelled = await s.request('POST', `/v1/visibility/runs/${created.run_id}/cancel`, { key });
    assert.equal(cancelled.statusCode, 200);
    assert.equal(cancelled.json().status, 'completed');
    assert.equal(cancelled.json().cancel_requested, false);
    const read = (await s.request('GET', `/v1/visibility/runs/${created.run_id}`, { key })).json();
    assert.equal(read.status, 'completed');
    assert.deepEqual(read.billing, done.billing);
    const listed = (await s.request('GET', '/v1/visibility/runs?status=completed&limit=100', { key })).json();
    assert.ok(listed.runs.some((r: { run_id: string }) => r.run_id === created.run_id));
  });

  test('cancel racing the worker: no probe is both cancelled and settled', async () => {
    const { key, accountId } = await s.account({ credits: 500 });
    const runIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await s.request('POST', '/v1/visibility/runs', {
        key,
        body: { ...base, prompts: Array.from({ length: 12 }, (_, j) => `[[sandbox:delay=${(j % 4) * 5}]] q${i}-${j}`), platforms: ['deepseek', 'openai'] },
      });
      runIds.push(r.json().run_id);
    }
    await Promise.all(runIds.map((id, i) => new Promise((r) => setTimeout(r, i * 7)).then(() => s.request('POST', `/v1/visibility/runs/${id}/cancel`, { key }))));
    for (const id of runIds) {
      const run = await s.waitForRun(key, id);
      const full = (await s.request('GET', `/v1/visibility/runs/${id}?include_probes=true`, { key })).json();
      let settled = 0;
      let released = 0;
      for (const p of full.probes) {
        assert.ok(['succeeded', 'cancelled'].includes(p.status), p.status);
        if (p.status === 'cancelled') assert.equal(p.credits.settled, '0.00');
        settled += Number(p.credits.settled);
        released += Number(p.credits.released);
      }
      assert.equal(Number(run.billing.settled_credits), settled);
      assert.equal(Number(run.billing.released_credits), released);
      assert.equal(run.billing.outstanding_credits, '0.00');
    }
    await conservation(s, accountId);
  });

  test('a probe executed twice (duplicate delivery) settles exactly once', async () => {
    const { key, accountId } = await s.account({ credits: 20 });
    const created = (
      await s.request('POST', '/v1/visibility/runs', { key, body: { ...base, prompts: ['[[sandbox:delay=200]] dup'], platforms: ['openai'] } })
    ).json();
    const probe = await s.runtime.core.store.db.selectFrom('visibility_probes').select('id').where('run_id', '=', created.run_id).executeTakeFirstOrThrow();
    const deps = { store: s.runtime.core.store, catalog: s.runtime.core.catalog, ask: (req: any) => createSandboxDriver(req.platform).ask(req) };
    await Promise.all([executeProbe(deps, probe.id, new AbortController().signal), executeProbe(deps, probe.id, new AbortController().signal)]);
    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'completed');
    assert.equal(run.billing.settled_credits, '2.00');
    const b = await conservation(s, accountId);
    assert.equal(b.settled, 200);
  });
});

describe('worker crash recovery', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(async () => s.close());

  test('a worker that dies mid-probe: the lease expires, another worker completes and settles it once', async () => {
    const { key, accountId } = await s.account({ credits: 20 });
    const created = (await s.request('POST', '/v1/visibility/runs', { key, body: { ...base, prompts: ['best crm'], platforms: ['openai', 'deepseek'] } })).json();
    const store = s.runtime.core.store;
    // A "dead" worker claims both jobs with a 1 ms lease and marks a probe running, then vanishes.
    const claimed = await claimJobs(store, 'wrk_dead', ['openai', 'deepseek'], 10, 1);
    assert.equal(claimed.length, 2);
    await store.db.updateTable('visibility_probes').set({ status: 'running', attempts: 1 }).where('run_id', '=', created.run_id).execute();
    const mid = (await s.request('GET', `/v1/visibility/runs/${created.run_id}`, { key })).json();
    assert.equal(mid.status, 'running');
    await new Promise((r) => setTimeout(r, 20));
    s.runtime.core.startWorker();
    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'completed');
    assert.equal(run.billing.settled_credits, '3.00');
    const full = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_probes=true`, { key })).json();
    assert.ok(full.probes.every((p: any) => p.attempts === 2));
    const jobs = await store.db.selectFrom('jobs').selectAll().execute();
    assert.ok(jobs.every((j) => j.status === 'done' && j.attempts === 2));
    await conservation(s, accountId);
  });

  test('credit conservation after a mixed workload (success, errors, partial funding, cancel)', async () => {
    const { key, accountId } = await s.account({ credits: 37.5 });
    const bodies = [
      { ...base, prompts: ['a', 'b'], platforms: ['openai', 'claude'] },
      { ...base, prompts: ['[[sandbox:error]] c'], platforms: ['gemini', 'deepseek'] },
      { ...base, prompts: ['[[sandbox:delay=500]] d', 'e', 'f'], platforms: ['grok'] },
      { ...base, prompts: ['g', 'h', 'i', 'j'], platforms: ['perplexity', 'claude'] },
    ];
    const ids = [];
    for (const body of bodies) {
      const r = await s.request('POST', '/v1/visibility/runs', { key, body });
      if (r.statusCode === 200) ids.push(r.json().run_id);
    }
    await s.request('POST', `/v1/visibility/runs/${ids[2]}/cancel`, { key });
    for (const id of ids) await s.waitForRun(key, id);
    const b = await conservation(s, accountId);
    assert.equal(b.reserved, 0);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(
      (Number(usage.credits.available_credit_units) * 100 + Number(usage.credits.used_credit_units) * 100).toFixed(0),
      '3750',
    );
  });
});
