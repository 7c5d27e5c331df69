// The usage answer is kept between calls on SQLite (change stamps, see WatchTables in
// src/db/connection.ts). It must never be stale: every way the balance or the ledger can change
// is tried here, and after each the answer must equal a fresh read. On Postgres nothing is kept
// and the same assertions hold.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../../src/db/connection.ts';
import { migrateToLatest } from '../../../src/db/migrations.ts';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { grantCredits, lockAccount, reserveCharge, settleCharge } from '../../../src/core/billing/ledger.ts';
import { getUsage } from '../../../src/core/reports/usage.ts';
import { toJson } from '../../../src/core/freeze.ts';
import { storeOf, type Store } from '../../../src/db/store.ts';
import { freshDatabaseUrl, usingPostgres } from '../../helpers/harness.ts';

describe('usage answer kept between calls', () => {
  let url: string;
  let drop: () => Promise<void>;
  let handle: DatabaseHandle;
  let other: DatabaseHandle;
  let store: Store;
  let accountId: string;

  /** What a read with nothing kept gives (a store without change stamps). */
  const fresh = () => getUsage({ db: store.db, dialect: store.dialect }, accountId, 20);
  /**
   * Another connection's commit is seen from the next event-loop turn on (the stamp reads
   * data_version once per turn; see WatchTables): the next request is always on a later turn.
   */
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const check = async (available: string, message: string) => {
    const usage = await getUsage(store, accountId, 20);
    assert.equal(usage.credits.available_credit_units, available, message);
    assert.deepEqual(usage, await fresh(), message);
  };

  before(async () => {
    ({ url, drop } = await freshDatabaseUrl());
    handle = openDatabase(url);
    await migrateToLatest(handle.db);
    store = storeOf(handle);
    // A second connection: another API process or a separate worker on the same database.
    other = openDatabase(url);
    accountId = (await createAccount(handle.db, `usage-cache-${process.pid}@example.com`)).id;
    await grantCredits(store, accountId, 10_00);
  });
  after(async () => {
    await other.close();
    await handle.close();
    await drop();
  });

  it('gives the same answer twice while nothing changes (one object on SQLite)', async () => {
    const first = await getUsage(store, accountId, 20);
    const second = await getUsage(store, accountId, 20);
    assert.deepEqual(second, first);
    if (!usingPostgres) {
      assert.equal(second, first, 'kept on SQLite');
      assert.ok(Object.isFrozen(second.credits) && Object.isFrozen(second.recent[0]), 'a kept answer cannot be changed by a caller');
      assert.equal(toJson(second), JSON.stringify(second));
      assert.equal(toJson(second), toJson(first), 'its JSON text is kept with it');
    }
    assert.equal((await getUsage(store, accountId, 1)).recent.length, 1, 'each limit has its own answer');
  });

  it('sees a grant made through this connection', async () => {
    await getUsage(store, accountId, 20);
    await grantCredits(store, accountId, 5_00);
    await check('15.00', 'own grant');
  });

  it('sees a reservation and its settlement made through this connection, inside transactions', async () => {
    await getUsage(store, accountId, 20);
    const charge = await store.db.transaction().execute(async (trx) => {
      await lockAccount(store, trx, accountId);
      return reserveCharge(trx, { accountId, source: 'api', action: 'test', refType: 'test', refId: 'x', items: [2_00] });
    });
    await check('13.00', 'reserved');
    await settleCharge(store.db, charge.entryId, 2_00);
    await check('13.00', 'settled');
    assert.equal((await getUsage(store, accountId, 20)).credits.used_credit_units, '2.00');
  });

  it('sees a grant committed by another connection', async () => {
    await getUsage(store, accountId, 20);
    await grantCredits(storeOf(other), accountId, 1_00);
    await nextTurn();
    await check('14.00', 'grant by another connection');
  });

  it('sees a direct update of the account row by another connection (any writer, not only the ledger module)', async () => {
    await getUsage(store, accountId, 20);
    await sql`update accounts set grant_count = grant_count + 0, credits_granted = credits_granted + 100 where id = ${accountId}`.execute(other.db);
    await nextTurn();
    const usage = await getUsage(store, accountId, 20);
    assert.equal(usage.credits.granted_credit_units, '17.00');
    assert.deepEqual(usage, await fresh());
    await sql`update accounts set credits_granted = credits_granted - 100 where id = ${accountId}`.execute(other.db);
    await nextTurn();
    await check('14.00', 'undone by another connection');
  });

  it('sees a direct update made through this connection outside the ledger module', async () => {
    await getUsage(store, accountId, 20);
    await sql`update accounts set credits_granted = credits_granted + 100 where id = ${accountId}`.execute(handle.db);
    await check('15.00', 'own direct update');
    await sql`update accounts set credits_granted = credits_granted - 100 where id = ${accountId}`.execute(handle.db);
    await check('14.00', 'own direct update undone');
  });

  it('neither keeps nor serves an answer while a transaction is open, and forgets a rolled-back grant', async () => {
    await getUsage(store, accountId, 20);
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await lockAccount(store, trx, accountId);
        await sql`update accounts set credits_granted = credits_granted + 5000 where id = ${accountId}`.execute(trx);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    await check('14.00', 'rolled back');
  });

  it('still sees its own writes after another process rebuilt a watched table (a migration)', async (t) => {
    if (usingPostgres) return t.skip('nothing is kept on Postgres');
    await check('14.00', 'before the rebuild');
    await sql`create table ledger_rebuilt as select * from ledger_entries`.execute(other.db);
    await sql`drop table ledger_entries`.execute(other.db);
    await sql`alter table ledger_rebuilt rename to ledger_entries`.execute(other.db);
    await nextTurn();
    await check('14.00', 'after the rebuild');
    await grantCredits(store, accountId, 1_00);
    await check('15.00', 'own grant after the rebuild');
    await grantCredits(store, accountId, 1_00);
    await check('16.00', 'and the next one');
  });

  it('is not invalidated by writes to other tables (the activity log)', async (t) => {
    if (usingPostgres) return t.skip('nothing is kept on Postgres');
    const stamp = handle.watchTables!(['accounts', 'ledger_entries']);
    const before = stamp();
    assert.notEqual(before, undefined);
    await sql`insert into activity (id, account_id, source, action, method, path, http_status, status, credits, request_id, created_at)
              values ('act_x', ${accountId}, 'api', 'usage.read', 'GET', '/v1/usage', 200, 'ok', 0, 'req_x', '2026-01-01T00:00:00.000Z')`.execute(handle.db);
    assert.equal(stamp(), before, 'own write to an unwatched table');
    await sql`select * from ledger_entries`.execute(handle.db);
    assert.equal(stamp(), before, 'a read');
    await sql`delete from ledger_entries where id = 'none'`.execute(handle.db);
    assert.equal(stamp(), before, 'a delete of no rows fires no trigger');
    await grantCredits(store, accountId, 1);
    assert.notEqual(stamp(), before, 'a watched write');
    const mid = stamp();
    await sql`insert into activity (id, account_id, source, action, method, path, http_status, status, credits, request_id, created_at)
              values ('act_y', ${accountId}, 'api', 'usage.read', 'GET', '/v1/usage', 200, 'ok', 0, 'req_y', '2026-01-01T00:00:00.000Z')`.execute(other.db);
    assert.equal(stamp(), mid, "another connection's commit is not read again on the same turn");
    await nextTurn();
    assert.notEqual(stamp(), mid, "another connection's commit, whatever it wrote, from the next turn on");
    const later = stamp();
    await grantCredits(store, accountId, 1);
    assert.notEqual(stamp(), later, 'own writes are seen at once, on the same turn');
    await handle.db.transaction().execute(async () => {
      assert.equal(stamp(), undefined, 'no stamp inside a transaction');
    });
  });
});
