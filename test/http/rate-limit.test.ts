// The per-key limiter on the shared store (SQLite or Postgres): points are taken in batches, and
// concurrent first requests of a key share one batch instead of each taking (and losing) one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseHandle } from '../../src/db/connection.ts';
import { createKeyRateLimiter } from '../../src/http/plugins/rate-limit.ts';
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
});
