// The usage read (balance + recent ledger in one statement) on both databases, and on SQLite its
// direct path (Store.readNow): it must never show what an open transaction has not committed,
// and it must give exactly what the Kysely path gives.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../../src/db/connection.ts';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { sql } from 'kysely';
import { balanceWithRecent, getBalance, grantCredits, ledgerBalance, lockAccount, releaseCharge, reserveCharge, settleCharge, totalsAndLedger } from '../../../src/core/billing/ledger.ts';
import type { Store } from '../../../src/db/store.ts';
import { openFreshDatabase } from '../../helpers/harness.ts';

describe('balance and recent ledger read', () => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let store: Store;
  let accountId: string;

  before(async () => {
    ({ handle, store, close } = await openFreshDatabase());
    accountId = (await createAccount(handle.db, `balance-read-${process.pid}@example.com`)).id;
    await grantCredits(store, accountId, 10_00);
    await grantCredits(store, accountId, 2_50);
  });
  after(() => close());

  it('gives the balance and the newest rows first, the same through the direct path and through Kysely', async () => {
    const direct = await balanceWithRecent(store, accountId, 20);
    const viaKysely = await balanceWithRecent({ db: store.db, dialect: store.dialect }, accountId, 20);
    assert.deepEqual(direct, viaKysely);
    assert.equal(direct.balance.available, 12_50);
    assert.equal(direct.balance.activeGrantCount, 2);
    assert.deepEqual(direct.recent.map((r) => r.credits), ['2.50', '10.00']);
    const one = await balanceWithRecent(store, accountId, 1);
    assert.equal(one.recent.length, 1);
    assert.equal(one.balance.available, 12_50, 'the limit never changes the balance');
  });

  it('keeps the running totals equal to the ledger sums through reservations, settlements and releases, also when they run concurrently', async () => {
    const id = (await createAccount(handle.db, `balance-totals-${process.pid}@example.com`)).id;
    await grantCredits(store, id, 100_00);
    const reserve = (items: number[]) =>
      handle.db.transaction().execute(async (trx) => {
        await lockAccount(store, trx, id);
        return reserveCharge(trx, { accountId: id, source: 'api', action: 'test', refType: 'test', refId: 'x', items });
      });
    const charges = await Promise.all(Array.from({ length: 12 }, (_, i) => reserve([1_00, 2_00, 3_00].slice(0, 1 + (i % 3)))));
    assert.deepEqual(await getBalance(handle.db, id), await ledgerBalance(handle.db, id));
    // Settle some, release some, partly both, concurrently, some outside a transaction.
    await Promise.all(
      charges.map((c, i) => {
        if (i % 3 === 0) return settleCharge(handle.db, c.entryId, c.reserved);
        if (i % 3 === 1) return releaseCharge(handle.db, c.entryId, c.reserved);
        return handle.db.transaction().execute(async (trx) => {
          await settleCharge(trx, c.entryId, 1_00);
          await releaseCharge(trx, c.entryId, c.reserved - 1_00);
        });
      }),
    );
    // A move that does not fit changes nothing, neither the row nor the totals.
    await assert.rejects(settleCharge(handle.db, charges[0]!.entryId, 1), /not that much outstanding/);
    const totals = await getBalance(handle.db, id);
    assert.deepEqual(totals, await ledgerBalance(handle.db, id));
    // The one-statement read (for checks while a worker settles) gives the same two balances.
    assert.deepEqual(await totalsAndLedger(handle.db, id), { totals, ledger: totals });
    const none = await totalsAndLedger(handle.db, (await createAccount(handle.db, `balance-none-${process.pid}@example.com`)).id);
    assert.deepEqual(none.totals, none.ledger);
    assert.equal(none.totals.granted, 0);
    assert.equal(totals.reserved, 0);
    assert.equal(totals.granted, totals.available + totals.settled);
  });

  it('an account without ledger rows reads as zero with no rows', async () => {
    const empty = (await createAccount(handle.db, `balance-read-empty-${process.pid}@example.com`)).id;
    const { balance, recent } = await balanceWithRecent(store, empty, 20);
    assert.deepEqual(balance, { granted: 0, settled: 0, reserved: 0, available: 0, activeGrantCount: 0 });
    assert.deepEqual(recent, []);
  });

  it('never shows a grant that an open transaction later rolls back', async () => {
    let readDuringTx: Promise<Awaited<ReturnType<typeof balanceWithRecent>>> | undefined;
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('ledger_entries')
          .values({
            id: 'led_rolled_back',
            account_id: accountId,
            kind: 'grant',
            source: 'cli',
            action: 'credits.grant',
            ref_type: null,
            ref_id: null,
            amount: 1_000_00,
            settled_amount: 0,
            released_amount: 0,
            estimated_amount: 0,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
        await sql`update accounts set credits_granted = credits_granted + ${1_000_00}, grant_count = grant_count + 1 where id = ${accountId}`.execute(trx);
        // On SQLite the connection is inside this transaction now: a direct read would see the row.
        readDuringTx = balanceWithRecent(store, accountId, 20);
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const seen = await readDuringTx!;
    assert.equal(seen.balance.available, 12_50);
    assert.ok(!seen.recent.some((r) => r.credits === '1000.00'));
  });
});
