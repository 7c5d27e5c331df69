// The per-key limiter on the shared store (SQLite or Postgres): points are taken in batches, and
// concurrent first requests of a key share one batch instead of each taking (and losing) one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../src/db/connection.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { sql } from 'kysely';
import { openFreshDatabase } from '../helpers/harness.ts';

describe('per-key rate limiter', () => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  before(async () => {
    ({ handle, close } = await openFreshDatabase());
  });
  after(() => close());

  it('allows the whole limit when the first requests of a key arrive all at once, and not one more', async () => {
    const limiter = await createKeyRateLimiter({ perMinute: 600, handle }); // batches of 6
    try {
      const burst = await Promise.all(Array.from({ length: 100 }, () => limiter.consume('key_burst')));
      assert.ok(burst.every((d) => d.allowed), 'the first 100 of 600 are allowed');
      let allowed = burst.length;
      for (let i = 0; i < 520; i++) if ((await limiter.consume('key_burst')).allowed) allowed++;
      assert.equal(allowed, 600);
      const over = await limiter.consume('key_burst');
      assert.equal(over.allowed, false);
      assert.ok(over.resetSeconds >= 1 && over.resetSeconds <= 60);
      // Once refused, a burst is refused from the process's own record of it, synchronously.
      const refusedBurst = await Promise.all(Array.from({ length: 200 }, () => limiter.consume('key_burst')));
      assert.ok(refusedBurst.every((d) => !d.allowed && d.remaining === 0 && d.resetSeconds >= 1));
      const again = limiter.consume('key_burst');
      assert.ok(!(again instanceof Promise), 'a refusal in force is decided without the store');
      assert.equal((await limiter.consume('key_other')).allowed, true, 'other keys have their own limit');
    } finally {
      await limiter.close();
    }
  });

  it('takes several points all or none: what does not fit is refused and takes nothing; held points count', async () => {
    const limiter = await createKeyRateLimiter({ perMinute: 600, handle }); // batches of 6
    try {
      assert.equal((await limiter.consume('key_many')).remaining, 599, 'one point; the process holds 5 of its batch');
      const held = await limiter.consume('key_many', 4);
      assert.deepEqual([held.allowed, held.remaining], [true, 595], 'spent from the held points');
      const more = await limiter.consume('key_many', 20);
      assert.deepEqual([more.allowed, more.remaining], [true, 575], 'the held point plus 19 from the store');
      let left = 575;
      while (left >= 20) {
        assert.equal((await limiter.consume('key_many', 20)).allowed, true);
        left -= 20;
      }
      const refused = await limiter.consume('key_many', 20);
      assert.deepEqual([refused.allowed, refused.remaining], [false, left], `${left} left: 20 do not fit`);
      assert.ok(refused.resetSeconds >= 1);
      const fits = await limiter.consume('key_many', left);
      assert.deepEqual([fits.allowed, fits.remaining], [true, 0], 'the refusal took nothing');
      assert.equal((await limiter.consume('key_many')).allowed, false);
    } finally {
      await limiter.close();
    }
  });

  it('a batch that waits on the store owns the points this process held: single requests meanwhile do not spend them again', async () => {
    const limiter = await createKeyRateLimiter({ perMinute: 600, handle }); // batches of 6
    try {
      assert.equal((await limiter.consume('key_race')).allowed, true, 'one point; the process holds 5');
      // A batch of 10 needs the store; five single requests arrive while it waits there.
      const decisions = await Promise.all([limiter.consume('key_race', 10), ...Array.from({ length: 5 }, () => limiter.consume('key_race'))]);
      let spent = 1 + 10 * Number(decisions[0]!.allowed) + decisions.slice(1).filter((d) => d.allowed).length;
      for (let i = 0; i < 700; i++) {
        if (!(await limiter.consume('key_race')).allowed) break;
        spent++;
      }
      assert.ok(spent <= 600, `${spent} points spent of a limit of 600`);
    } finally {
      await limiter.close();
    }
  });

  it('keeps points taken while a transaction is open on the service connection when that transaction rolls back (SQLite)', async (t) => {
    const sqlite = handle.sqlite;
    if (!sqlite) return t.skip('Postgres: the store has connections of its own');
    const limiter = await createKeyRateLimiter({ perMinute: 100, handle }); // batches of 1: every request takes from the store
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const tx = handle.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await held;
        throw new Error('roll back');
      });
      while (!sqlite.inTransaction) await new Promise((r) => setImmediate(r));
      const decision = limiter.consume('key_tx');
      await new Promise((r) => setImmediate(r));
      release();
      await assert.rejects(tx, /roll back/);
      assert.equal((await decision).allowed, true);
      const row = sqlite.prepare('select points from rate_limits where key = ?').get('sightline_rl:key_tx') as { points: number } | undefined;
      assert.equal(row?.points, 1, 'the point taken from the store stays taken');
    } finally {
      await limiter.close();
    }
  });
});
