// Fixed-price actions reserve their price before the work: a process that dies during the work
// left those credits reserved forever, and a settle or release that failed hid the work's own
// error and left them reserved too. Now a failed settle/release is reported and never masks the
// work's outcome, and the worker releases action reservations older than any action can run, at
// its start and periodically (releaseAbandonedActionCharges), with the account locked first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../../../src/db/connection.ts';
import { storeOf, type Store } from '../../../src/db/store.ts';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { getBalance, grantCredits, ledgerBalance, lockAccount, reserveCharge } from '../../../src/core/billing/ledger.ts';
import {
  ACTION_RESERVATION_MAX_AGE_MS,
  onActionLedgerError,
  releaseAbandonedActionCharges,
  runPaidAction,
  type ActionContext,
} from '../../../src/core/billing/actions.ts';
import { Worker } from '../../../src/jobs/worker.ts';
import { workerExtras } from '../../../src/core/worker-extras.ts';
import { AppError } from '../../../src/core/errors.ts';
import { openFreshDatabase } from '../../helpers/harness.ts';

const CHILD = 'action-crash-child';

if (process.argv[2] === CHILD) {
  // The child: reserves a paid action's price and is killed during the work.
  const [, , , url, accountId, requestId] = process.argv;
  const handle = openDatabase(url);
  await runPaidAction(storeOf(handle), { accountId, source: 'api', requestId, credits: 0 }, 'pages.content.serialize', 100, async () => {
    process.exit(137);
  });
} else {
  describe('paid actions: reservations never stay reserved', () => {
    let store: Store;
    let close: () => Promise<void>;
    const reported: { op: string; entryId: string; message: string }[] = [];

    before(async () => {
      const fresh = await openFreshDatabase();
      store = fresh.store;
      close = fresh.close;
      onActionLedgerError((err, what) => reported.push({ ...what, message: err instanceof Error ? err.message : String(err) }));
    });
    after(() => close());

    let n = 0;
    async function account(credits: number) {
      const acct = await createAccount(store.db, `sweep${process.pid}_${n++}@example.com`);
      await grantCredits(store, acct.id, credits);
      return acct.id;
    }
    const ctx = (accountId: string): ActionContext => ({ accountId, source: 'api', requestId: `req_${n++}`, credits: 0 });

    async function assertWhole(accountId: string, granted: number) {
      const balance = await getBalance(store.db, accountId);
      assert.equal(balance.reserved, 0, 'nothing left reserved');
      assert.equal(balance.granted, granted);
      assert.equal(balance.available + balance.settled, balance.granted);
      assert.deepEqual(await ledgerBalance(store.db, accountId), balance, 'totals equal the ledger rows');
    }

    /** Moves an account's action reservations back in time, as if `ms` had passed. */
    async function age(accountId: string, ms: number) {
      const then = new Date(Date.now() - ms).toISOString();
      await sql`update ledger_entries set created_at = ${then} where account_id = ${accountId} and kind = 'charge'`.execute(store.db);
    }

    /** A store whose transactions fail once `broken.on` is set (the database went away mid-action). */
    function breakable(): { store: Store; broken: { on: boolean } } {
      const broken = { on: false };
      const db = new Proxy(store.db, {
        get(target, prop) {
          if (prop === 'transaction' && broken.on) return () => ({ execute: async () => Promise.reject(new Error('database unavailable')) });
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
      return { store: { ...store, db }, broken };
    }

    test('a process killed during a paid action: the worker releases the reservation once no action can still be running', async () => {
      const accountId = await account(5_00);
      const childUrl = await databaseUrlOf(store);
      const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD, childUrl, accountId, 'req_crash'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(r.status, 137, r.stderr);
      assert.equal((await getBalance(store.db, accountId)).reserved, 1_00, 'the crash left the price reserved');

      // A worker starting now leaves it: the action could still be running elsewhere.
      const start = async () => {
        const errors: unknown[] = [];
        const w = new Worker({ store, handlers: {}, ...workerExtras(store), laneConcurrency: {}, concurrency: 1, pollMs: 20, onError: (e) => errors.push(e) });
        w.start();
        await new Promise((res) => setTimeout(res, 300));
        await w.stop(50);
        assert.deepEqual(errors, []);
      };
      await start();
      assert.equal((await getBalance(store.db, accountId)).reserved, 1_00);

      // Once older than any action can run, the next worker start releases it.
      await age(accountId, ACTION_RESERVATION_MAX_AGE_MS + 60_000);
      await start();
      await assertWhole(accountId, 5_00);
      const row = await store.db.selectFrom('ledger_entries').selectAll().where('ref_id', '=', 'req_crash').executeTakeFirstOrThrow();
      assert.equal(Number(row.released_amount), 1_00);
      assert.equal(Number(row.settled_amount), 0);
    });

    test('the sweep leaves run reservations, settled actions and young reservations alone, and releases each stale one once', async () => {
      const accountId = await account(10_00);
      // A settled action, then an abandoned one (reserved by hand, as the crashed process did).
      await runPaidAction(store, ctx(accountId), 'visibility.prompts.suggest', 100, async () => ({ result: 1, billable: true }));
      const reserve = (refType: string, refId: string, price: number) =>
        store.db.transaction().execute(async (trx) => {
          await lockAccount(store, trx, accountId);
          return reserveCharge(trx, { accountId, source: 'api', action: 'x', refType, refId, items: [price] });
        });
      await reserve('action', 'req_stale', 200);
      await reserve('visibility_run', 'vr_x', 300);
      await age(accountId, ACTION_RESERVATION_MAX_AGE_MS + 60_000);
      await reserve('action', 'req_young', 100);
      // Two sweeps at once (two workers): the stale one is released exactly once.
      const counts = await Promise.all([releaseAbandonedActionCharges(store), releaseAbandonedActionCharges(store)]);
      assert.equal(counts[0] + counts[1], 1);
      const balance = await getBalance(store.db, accountId);
      assert.equal(balance.settled, 1_00);
      assert.equal(balance.reserved, 300 + 100, 'the run and the young action keep their reservations');
      assert.deepEqual(await ledgerBalance(store.db, accountId), balance);
      assert.equal(await releaseAbandonedActionCharges(store), 0);
    });

    test('a release that fails never hides the work error; the sweep gives the credits back', async () => {
      const accountId = await account(5_00);
      const { store: flaky, broken } = breakable();
      const workError = new Error('the page could not be fetched');
      reported.length = 0;
      await assert.rejects(
        runPaidAction(flaky, ctx(accountId), 'pages.content.serialize', 100, async () => {
          broken.on = true;
          throw workError;
        }),
        (err) => err === workError,
      );
      assert.deepEqual(reported.map((r) => [r.op, r.message]), [['release', 'database unavailable']]);
      assert.equal((await getBalance(store.db, accountId)).reserved, 1_00);
      await age(accountId, ACTION_RESERVATION_MAX_AGE_MS + 60_000);
      assert.equal(await releaseAbandonedActionCharges(store), 1);
      await assertWhole(accountId, 5_00);
    });

    test('a settle that fails charges nothing and is refused as credit_storage_unavailable; the sweep gives the credits back', async () => {
      const accountId = await account(5_00);
      const { store: flaky, broken } = breakable();
      reported.length = 0;
      const c = ctx(accountId);
      await assert.rejects(
        runPaidAction(flaky, c, 'content_intelligence.content.score', 300, async () => {
          broken.on = true;
          return { result: 'scored', billable: true };
        }),
        (err) => err instanceof AppError && err.code === 'credit_storage_unavailable',
      );
      assert.equal(c.credits, 0);
      assert.deepEqual(reported.map((r) => r.op), ['settle', 'release']);
      await age(accountId, ACTION_RESERVATION_MAX_AGE_MS + 60_000);
      assert.equal(await releaseAbandonedActionCharges(store), 1);
      await assertWhole(accountId, 5_00);
    });

    test('a release that fails after non-billable work still answers; a healthy action settles as before', async () => {
      const accountId = await account(5_00);
      const { store: flaky, broken } = breakable();
      const out = await runPaidAction(flaky, ctx(accountId), 'pages.content.serialize', 100, async () => {
        broken.on = true;
        return { result: 'pdf', billable: false };
      });
      assert.deepEqual(out, { result: 'pdf', billable: false, charged: 0 });
      const c = ctx(accountId);
      const ok = await runPaidAction(store, c, 'pages.content.serialize', 100, async () => ({ result: 'text', billable: true }));
      assert.equal(ok.charged, 1_00);
      assert.equal(c.credits, 1_00);
      await age(accountId, ACTION_RESERVATION_MAX_AGE_MS + 60_000);
      assert.equal(await releaseAbandonedActionCharges(store), 1);
      const balance = await getBalance(store.db, accountId);
      assert.deepEqual(balance, { ...balance, granted: 5_00, settled: 1_00, reserved: 0, available: 4_00 });
    });
  });
}

/** The URL the child process opens: the test database's own. */
async function databaseUrlOf(store: Store): Promise<string> {
  if (store.dialect === 'postgres') {
    const { rows } = await sql<{ db: string }>`select current_database() as db`.execute(store.db);
    const u = new URL(process.env.DATABASE_URL!);
    u.pathname = `/${rows[0].db}`;
    return u.toString();
  }
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(store.db);
  return `sqlite:${rows[0].file}`;
}
