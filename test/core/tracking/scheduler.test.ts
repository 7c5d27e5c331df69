// The scheduler with a controllable clock, on the test database (SQLite file or Postgres): every
// due slot gives exactly one run across two scheduler processes, missed slots are caught up once,
// pausing stops slots, budgets and balances skip slots (never half-run), suspended accounts and
// revoked keys say why on the test, a claim left by a dead process is finished once, and
// scheduled runs are recorded with source `schedule`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { revokeKey, setAccountStatus } from '../../../src/core/accounts/accounts.ts';
import { Scheduler } from '../../../src/core/tracking/scheduler.ts';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';

const CHILD = fileURLToPath(new URL('../../helpers/scheduler-child.ts', import.meta.url));
const HOUR = 3_600_000;

function runChild(databaseUrl: string, clock: Date, ticks: number): Promise<{ claimed: number; runs: number; skipped: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, clock.toISOString(), String(ticks)], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`scheduler child exited ${code}`))));
  });
}

describe('scheduler', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  const db = () => s.runtime.core.store.db;
  const schedulerAt = (clock: () => Date) => new Scheduler(s.runtime.core.tracking, { now: clock });
  // deepseek's default model: 1.00 a probe; two repeats → 2.00 a slot.
  const definition = (brand: string) => ({ url: `https://${brand.toLowerCase()}.example/`, target_entity: brand, prompts: ['best tools'], platforms: ['deepseek'], repeats: 2 });
  async function tracked(key: string, brand: string, extra: Record<string, unknown> = {}) {
    const res = await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition: definition(brand), schedule: { cron: '0 * * * *' }, ...extra } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }
  const slotsOf = (testId: string) => db().selectFrom('test_slots').selectAll().where('test_id', '=', testId).orderBy('slot').execute();
  const runsOf = (testId: string) => db().selectFrom('visibility_runs').select(['id', 'source', 'idempotency_key']).where('test_id', '=', testId).orderBy('id').execute();

  test('a stored schedule the parser cannot read leaves the due list and stops no other test', async () => {
    const { key } = await s.account({ credits: 500 });
    const broken = await tracked(key, 'Unreadable');
    const fine = await tracked(key, 'Readable');
    // A cron written before the parser changed (or by hand) that it does not accept, due first.
    await db().updateTable('tests').set({ schedule_cron: 'H 6 * * *', next_run_at: new Date(Date.parse(fine.next_run_at) - HOUR).toISOString() }).where('id', '=', broken.id).execute();
    const clock = new Date(Date.parse(fine.next_run_at) + 30_000);
    const result = await schedulerAt(() => clock).tick();
    assert.equal((await runsOf(fine.id)).length, 1, JSON.stringify(result));
    assert.equal((await runsOf(broken.id)).length, 0);
    const row = await db().selectFrom('tests').select(['next_run_at', 'schedule_cron']).where('id', '=', broken.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { next_run_at: null, schedule_cron: 'H 6 * * *' });
  });

  test('two scheduler processes on one database: each due slot of each test becomes exactly one run', async () => {
    const { key } = await s.account({ credits: 500 });
    const tests = [];
    for (let i = 0; i < 12; i++) tests.push(await tracked(key, `Multi${i}`));
    const clock = new Date(Date.parse(tests[0].next_run_at) + 30_000);
    const url = s.runtime.core.config.DATABASE_URL;
    const [a, b] = await Promise.all([runChild(url, clock, 3), runChild(url, clock, 3)]);
    assert.equal(a.runs + b.runs, 12, JSON.stringify({ a, b }));
    assert.equal(a.claimed + b.claimed, 12);
    for (const t of tests) {
      assert.equal((await slotsOf(t.id)).length, 1);
      const runs = await runsOf(t.id);
      assert.equal(runs.length, 1);
      assert.equal(runs[0].source, 'schedule');
      assert.equal(runs[0].idempotency_key, `slot:${t.id}:${tests[0].next_run_at}`);
      await s.waitForRun(key, runs[0].id);
    }
  });

  test('after downtime, missed slots run once, for the latest; the same clock claims nothing twice', async () => {
    const { key } = await s.account({ credits: 100 });
    const t = await tracked(key, 'Catchup');
    const first = Date.parse(t.next_run_at);
    let now = new Date(first + 5 * HOUR + 10 * 60_000);
    const sch = schedulerAt(() => now);
    await sch.tick();
    await sch.tick();
    const slots = await slotsOf(t.id);
    assert.deepEqual(slots.map((x) => x.slot), [new Date(first + 5 * HOUR).toISOString()]);
    const read = (await s.request('GET', `/v1/tests/${t.id}`, { key })).json();
    assert.equal(read.run_count, 1);
    now = new Date(first + 6 * HOUR + 1000);
    await sch.tick();
    assert.equal((await runsOf(t.id)).length, 2);
    for (const r of await runsOf(t.id)) await s.waitForRun(key, r.id);
  });

  test('pausing stops new slots at once; resuming starts from the next slot', async () => {
    const { key } = await s.account({ credits: 100 });
    const t = await tracked(key, 'Pausy');
    const now = new Date(Date.parse(t.next_run_at) + 2 * HOUR);
    await s.request('PATCH', `/v1/tests/${t.id}`, { key, body: { paused: true } });
    await schedulerAt(() => now).tick();
    assert.equal((await slotsOf(t.id)).length, 0);
    const resumed = (await s.request('PATCH', `/v1/tests/${t.id}`, { key, body: { paused: false } })).json();
    assert.equal(resumed.next_run_at, t.next_run_at);
    await schedulerAt(() => now).tick();
    assert.equal((await runsOf(t.id)).length, 1);
    for (const r of await runsOf(t.id)) await s.waitForRun(key, r.id);
  });

  test('a slot over the monthly budget is skipped with budget_exceeded, recorded on the test and in its history', async () => {
    const { key } = await s.account({ credits: 100 });
    const t = await tracked(key, 'Budgety', { monthly_credit_budget: '3.00' });
    const first = Date.parse(t.next_run_at);
    await schedulerAt(() => new Date(first + 1000)).tick();
    assert.equal((await runsOf(t.id)).length, 1);
    for (const r of await runsOf(t.id)) await s.waitForRun(key, r.id);
    await schedulerAt(() => new Date(first + HOUR + 1000)).tick();
    assert.deepEqual((await slotsOf(t.id)).map((x) => [x.status, x.reason]), [['run', null], ['skipped', 'budget_exceeded']]);
    const read = (await s.request('GET', `/v1/tests/${t.id}`, { key })).json();
    assert.equal(read.credits_used_this_month, '2.00');
    assert.equal(read.last_skip.reason, 'budget_exceeded');
    assert.equal(read.last_skip.slot, new Date(first + HOUR).toISOString().replace('.000Z', 'Z'));
    assert.match(read.last_skip.message, /2\.00 credits; 1\.00 of the 3\.00/);
    const history = (await s.request('GET', `/v1/tests/${t.id}/history`, { key })).json();
    assert.equal(history.points.length, 1);
    assert.deepEqual(history.skipped.map((x: any) => x.reason), ['budget_exceeded']);
    assert.equal((await runsOf(t.id)).length, 1);
  });

  test('a slot the balance cannot fully fund is skipped with insufficient_credits and charges nothing', async () => {
    const { key } = await s.account({ credits: 1 });
    const t = await tracked(key, 'Broke');
    await schedulerAt(() => new Date(Date.parse(t.next_run_at) + 1000)).tick();
    assert.deepEqual((await slotsOf(t.id)).map((x) => [x.status, x.reason]), [['skipped', 'insufficient_credits']]);
    assert.equal((await runsOf(t.id)).length, 0);
    const read = (await s.request('GET', `/v1/tests/${t.id}`, { key })).json();
    assert.equal(read.last_skip.reason, 'insufficient_credits');
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.deepEqual([usage.credits.available_credit_units, usage.credits.reserved_credit_units], ['1.00', '0.00']);
    const activity = (await s.request('GET', '/v1/activity?limit=50', { key })).json().items;
    const scheduled = activity.filter((i: any) => i.source === 'schedule');
    assert.equal(scheduled.length, 1);
    assert.deepEqual([scheduled[0].action, scheduled[0].http_status, scheduled[0].status], ['visibility.runs.create', 402, 'error']);
  });

  test('a suspended account and a revoked key do not run, and the test says why', async () => {
    const suspended = await s.account({ credits: 100 });
    const t1 = await tracked(suspended.key, 'Suspendo');
    await setAccountStatus(db(), suspended.accountId, 'suspended');
    const revoked = await s.account({ credits: 100 });
    const t2 = await tracked(revoked.key, 'Revoko');
    const keyRow = await db().selectFrom('api_keys').select('id').where('account_id', '=', revoked.accountId).executeTakeFirstOrThrow();
    await revokeKey(db(), keyRow.id);
    const now = new Date(Date.parse(t1.next_run_at) + 1000);
    await schedulerAt(() => now).tick();
    assert.equal((await runsOf(t1.id)).length, 0);
    assert.equal((await runsOf(t2.id)).length, 0);
    assert.equal((await slotsOf(t1.id))[0].reason, 'account_suspended');
    assert.equal((await slotsOf(t2.id))[0].reason, 'key_revoked');
    await setAccountStatus(db(), suspended.accountId, 'active');
    assert.equal((await s.request('GET', `/v1/tests/${t1.id}`, { key: suspended.key })).json().last_skip.reason, 'account_suspended');
  });

  test('a claim left by a process that died before creating the run is finished once by a later tick', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const t = await tracked(key, 'Orphan');
    const slot = t.next_run_at.replace('Z', '.000Z');
    await db()
      .insertInto('test_slots')
      .values({ test_id: t.id, slot, account_id: accountId, status: 'claimed', reason: null, message: null, run_id: null, estimated_credits: null, claimed_at: new Date(Date.now() - 10 * 60_000).toISOString(), finished_at: null })
      .execute();
    const sch = schedulerAt(() => new Date(Date.parse(slot) + 1000));
    await sch.tick();
    await sch.tick();
    const runs = await runsOf(t.id);
    assert.equal(runs.length, 1);
    const [row] = await slotsOf(t.id);
    assert.deepEqual([row.status, row.run_id], ['run', runs[0].id]);
    await s.waitForRun(key, runs[0].id);
  });
});
