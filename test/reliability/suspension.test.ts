// Suspending an account stops its spending at once: a probe or a Content Intelligence run still
// queued when the operator suspends the account is not run, it ends `account_suspended` with its
// credits released; work that had started before the suspension finishes and is charged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setAccountStatus } from '../../src/core/accounts/accounts.ts';
import { getBalance } from '../../src/core/billing/ledger.ts';
import { executeCiRun } from '../../src/core/content/runs.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe('an account suspended while its work is queued', () => {
  let s: TestServer;
  before(async () => {
    // One openai call at a time, so a run's probes wait in the queue behind the first.
    s = await startTestServer({ SIGHTLINE_OPENAI_CONCURRENCY: '1', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('its queued probes end account_suspended with their credits released; the running one finishes and is charged', async () => {
    const { accountId, key } = await s.account({ credits: 100 });
    const db = s.runtime.core.store.db;
    const prompts = Array.from({ length: 5 }, (_, i) => `anvil question ${i} [[sandbox:delay=700]]`);
    const created = await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example', target_entity: 'Acme', prompts, platforms: ['openai'] } });
    assert.equal(created.statusCode, 200, created.body);
    const runId = created.json().run_id as string;
    await until('a probe to run', () => db.selectFrom('visibility_probes').select('id').where('run_id', '=', runId).where('status', '=', 'running').executeTakeFirst());
    await setAccountStatus(db, accountId, 'suspended');

    const probes = await until('every probe to end', async () => {
      const rows = await db.selectFrom('visibility_probes').select(['status', 'error_code', 'price']).where('run_id', '=', runId).execute();
      return rows.every((p) => p.status !== 'queued' && p.status !== 'running') && rows;
    });
    const ran = probes.filter((p) => p.status === 'succeeded');
    const refused = probes.filter((p) => p.error_code === 'account_suspended');
    assert.ok(ran.length >= 1, 'the probe running at the suspension finished');
    assert.ok(refused.length >= 3, `the queued ones were refused: ${JSON.stringify(probes)}`);
    assert.equal(ran.length + refused.length, 5, JSON.stringify(probes));
    assert.ok(refused.every((p) => p.status === 'errored'));

    const balance = await getBalance(db, accountId);
    assert.equal(balance.reserved, 0);
    assert.equal(balance.settled, ran.length * 200, 'only what ran is charged');
    assert.equal(balance.available, 100_00 - ran.length * 200);
    const run = await db.selectFrom('visibility_runs').innerJoin('ledger_entries', 'ledger_entries.id', 'visibility_runs.ledger_entry_id').select(['settled_amount', 'released_amount']).where('visibility_runs.id', '=', runId).executeTakeFirstOrThrow();
    assert.equal(Number(run.released_amount), refused.length * 200);
    const jobs = await db.selectFrom('jobs').select('status').where('account_id', '=', accountId).execute();
    assert.ok(jobs.every((j) => j.status === 'done'), JSON.stringify(jobs));
  });

  test('a queued Content Intelligence run fails account_suspended without being analysed, its credits released', async () => {
    const { accountId, key } = await s.account({ credits: 20 });
    const db = s.runtime.core.store.db;
    const store = s.runtime.core.store;
    // Stop the worker so the run stays queued, then suspend the account and run its job by hand.
    await s.runtime.core.startedWorker!.stop(1000);
    const created = await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'https://acme.example/guide' } });
    assert.equal(created.statusCode, 200, created.body);
    const runId = created.json().run_id as string;
    await setAccountStatus(db, accountId, 'suspended');
    let analysed = false;
    await executeCiRun(store, async () => {
      analysed = true;
      throw new Error('not to be called');
    }, runId);
    assert.equal(analysed, false);
    const run = await db.selectFrom('ci_runs').select(['status', 'error_code']).where('id', '=', runId).executeTakeFirstOrThrow();
    assert.deepEqual(run, { status: 'failed', error_code: 'account_suspended' });
    const balance = await getBalance(db, accountId);
    assert.deepEqual([balance.available, balance.reserved, balance.settled], [20_00, 0, 0]);
  });
});
