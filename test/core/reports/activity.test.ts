// The activity log's batched writes: on SQLite they run as one synchronous transaction when the
// connection is idle (Store.writeNow) and through Kysely, queued behind it, when a transaction is
// open; either way every row lands once and a rolled-back transaction takes none of them along.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../../src/db/connection.ts';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { ActivityLog } from '../../../src/core/reports/activity.ts';
import { newId, nowIso } from '../../../src/lib/ids.ts';
import type { Store } from '../../../src/db/store.ts';
import { openFreshDatabase } from '../../helpers/harness.ts';

describe('activity log writes', () => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let store: Store;
  let accountId: string;
  before(async () => {
    ({ handle, store, close } = await openFreshDatabase());
    accountId = (await createAccount(handle.db, `activity-${process.pid}@example.com`)).id;
  });
  after(() => close());

  const row = (action: string) => ({
    id: newId('act'),
    account_id: accountId,
    key_id: null,
    key_prefix: 'svc_api_live_abcdef',
    source: 'api',
    action,
    method: 'GET',
    path: '/v1/usage',
    http_status: 200,
    status: 'ok' as 'ok' | 'error',
    credits: 0,
    request_id: newId('req'),
    created_at: nowIso(),
  });

  it('writes every recorded row once, in chunks and singly, and lists them newest first', async () => {
    const log = new ActivityLog(store);
    for (let i = 0; i < 123; i++) log.record(row(`test.bulk.${i}`)); // two chunks of 50 and 23 single rows
    const { items: listed } = await log.list(accountId, { limit: 100, kind: 'all' });
    assert.equal(listed.length, 100);
    assert.equal(listed[0]!.action, 'test.bulk.122');
    const count = await handle.db.selectFrom('activity').select((eb) => eb.fn.countAll<number>().as('n')).where('action', 'like', 'test.bulk.%').executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 123);
  });

  it('rows that share everything but their ids and time, mixed with others, land exactly as recorded', async () => {
    const log = new ActivityLog(store);
    const recorded: ReturnType<typeof row>[] = [];
    const add = (r: ReturnType<typeof row>) => {
      recorded.push(r);
      log.record(r);
    };
    // 130 rows of one shape (two shared chunks and a remainder), 7 odd ones, 120 of a second
    // shape that differs only in its status, then 3 of the first again.
    for (let i = 0; i < 130; i++) add({ ...row('test.shape.poll'), path: '/v1/usage' });
    for (let i = 0; i < 7; i++) add({ ...row(`test.shape.odd.${i}`), credits: i * 100, key_id: null });
    for (let i = 0; i < 120; i++) add({ ...row('test.shape.poll'), path: '/v1/usage', http_status: 429, status: 'error' });
    for (let i = 0; i < 3; i++) add({ ...row('test.shape.poll'), path: '/v1/usage' });
    // Two clients whose requests interleave, each filling its own group.
    for (let i = 0; i < 60; i++) {
      add({ ...row('test.shape.a'), key_prefix: 'svc_api_live_aaaa' });
      add({ ...row('test.shape.b'), key_prefix: 'svc_api_live_bbbb', method: 'POST' });
    }
    await log.flush();
    const stored = await handle.db.selectFrom('activity').selectAll().where('action', 'like', 'test.shape.%').execute();
    assert.equal(stored.length, recorded.length);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const r of recorded) {
      const got = byId.get(r.id);
      assert.ok(got, `row ${r.id} landed`);
      assert.deepEqual({ ...got, http_status: Number(got.http_status), credits: Number(got.credits) }, r);
    }
  });

  it('a flush while a transaction is open waits for it, and its rows survive that transaction rolling back', async () => {
    const log = new ActivityLog(store);
    let flushed: Promise<void> | undefined;
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ status: 'suspended' }).where('id', '=', accountId).execute();
        for (let i = 0; i < 60; i++) log.record(row(`test.during.${i}`));
        flushed = log.flush();
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('roll back');
      }),
      /roll back/,
    );
    await flushed;
    const count = await handle.db.selectFrom('activity').select((eb) => eb.fn.countAll<number>().as('n')).where('action', 'like', 'test.during.%').executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 60, 'the rows were written after the rollback, not inside the rolled-back transaction');
    const account = await handle.db.selectFrom('accounts').select('status').where('id', '=', accountId).executeTakeFirstOrThrow();
    assert.equal(account.status, 'active');
  });
});
