// Migrations on a database that already holds data: 0003 sums each account's existing ledger
// into the running totals the balance reads use; 0004 re-keys the activity log and keeps its rows.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { getBalance, ledgerBalance } from '../../src/core/billing/ledger.ts';
import { ActivityLog } from '../../src/core/reports/activity.ts';
import { storeOf } from '../../src/db/store.ts';
import { openFreshDatabase } from '../helpers/harness.ts';

describe('migrations on a database with data', () => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  before(async () => {
    ({ handle, close } = await openFreshDatabase({ migrate: false }));
  });
  after(() => close());

  it('backfills the totals of accounts whose ledger existed before it', async () => {
    assert.deepEqual(await migrateToLatest(handle.db, '0002_jobs_claim_order'), ['0001_foundation', '0002_jobs_claim_order']);
    const t = '2026-01-01T00:00:00.000Z';
    await sql`insert into accounts (id, email, status, created_at) values ('acct_a', 'a@example.com', 'active', ${t}), ('acct_b', 'b@example.com', 'active', ${t}), ('acct_c', 'c@example.com', 'active', ${t})`.execute(handle.db);
    const row = (id: string, account: string, kind: string, amount: number, settled: number, released: number) =>
      sql`insert into ledger_entries (id, account_id, kind, source, action, ref_type, ref_id, amount, settled_amount, released_amount, estimated_amount, created_at, updated_at)
          values (${id}, ${account}, ${kind}, 'cli', 'x', null, null, ${amount}, ${settled}, ${released}, 0, ${t}, ${t})`.execute(handle.db);
    await row('led_1', 'acct_a', 'grant', 100_00, 0, 0);
    await row('led_2', 'acct_a', 'grant', 5_50, 0, 0);
    await row('led_3', 'acct_a', 'charge', 30_00, 10_00, 5_00); // 15.00 still reserved
    await row('led_4', 'acct_a', 'charge', 2_00, 2_00, 0);
    await row('led_5', 'acct_b', 'grant', 1_00, 0, 0);
    assert.deepEqual(await migrateToLatest(handle.db, '0003_account_credit_totals'), ['0003_account_credit_totals']);
    assert.deepEqual(await getBalance(handle.db, 'acct_a'), { granted: 105_50, settled: 12_00, reserved: 15_00, available: 78_50, activeGrantCount: 2 });
    for (const id of ['acct_a', 'acct_b', 'acct_c']) assert.deepEqual(await getBalance(handle.db, id), await ledgerBalance(handle.db, id));
    assert.equal((await getBalance(handle.db, 'acct_c')).available, 0);
  });

  it('finishes on the next start when a run was cut off after adding some of its columns', async () => {
    // As if 0003 had died after its first ALTER TABLE: the column exists, the migration is not recorded.
    await sql`delete from kysely_migration where name = '0003_account_credit_totals'`.execute(handle.db);
    await sql`update accounts set credits_granted = 0`.execute(handle.db);
    for (const column of ['credits_settled', 'credits_reserved', 'grant_count']) {
      await handle.db.schema.alterTable('accounts').dropColumn(column).execute();
    }
    assert.deepEqual(await migrateToLatest(handle.db, '0003_account_credit_totals'), ['0003_account_credit_totals']);
    assert.deepEqual(await getBalance(handle.db, 'acct_a'), { granted: 105_50, settled: 12_00, reserved: 15_00, available: 78_50, activeGrantCount: 2 });
  });

  it('0004 keeps every activity row when it re-keys the log by (account, id)', async () => {
    const t = '2026-01-01T00:00:00.000Z';
    const act = (id: string, account: string) =>
      sql`insert into activity (id, account_id, key_id, key_prefix, source, action, method, path, http_status, status, credits, request_id, created_at)
          values (${id}, ${account}, 'key_1', 'svc_api_live_ab', 'api', 'usage.read', 'GET', '/v1/usage', 200, 'ok', 0, ${'req_' + id}, ${t})`.execute(handle.db);
    await act('act_1', 'acct_a');
    await act('act_2', 'acct_b');
    await act('act_3', 'acct_a');
    assert.deepEqual(await migrateToLatest(handle.db, '0004_activity_account_key'), ['0004_activity_account_key']);
    const log = new ActivityLog(storeOf(handle));
    assert.deepEqual((await log.list('acct_a', { limit: 10, kind: 'all' })).items.map((r) => [r.id, r.request_id, r.path, r.http_status]), [
      ['act_3', 'req_act_3', '/v1/usage', 200],
      ['act_1', 'req_act_1', '/v1/usage', 200],
    ]);
    assert.equal((await log.list('acct_b', { limit: 10, kind: 'all' })).items.length, 1);
    await assert.rejects(act('act_1', 'acct_a'), 'an id is unique within its account');
    log.record({ id: 'act_4', account_id: 'acct_b', key_id: null, key_prefix: null, source: 'api', action: 'usage.read', method: 'GET', path: '/v1/usage', http_status: 200, status: 'ok', credits: 0, request_id: 'req_4', created_at: t });
    assert.deepEqual((await log.list('acct_b', { limit: 10, kind: 'all' })).items.map((r) => r.id), ['act_4', 'act_2'], 'batched writes still land');
  });
});
