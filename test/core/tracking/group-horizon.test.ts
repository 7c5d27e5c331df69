// A history window reaching past the horizon (`days`) starts at the horizon: with window=30d and
// days=27 the oldest point holds 27 days of runs and says so, instead of claiming 30.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { group } from '../../../src/core/tracking/history.ts';

test('the oldest window starts at the horizon, not before it', () => {
  const now = new Date('2026-11-29T00:00:00.000Z');
  const since = new Date(now.getTime() - 27 * 86_400_000).toISOString();
  const runs = [{ id: 'a', created_at: '2026-11-10T00:00:00.000Z' }];
  assert.deepEqual(group(runs, '30d', now, since).map((g) => [g.start, g.end]), [[since, now.toISOString()]]);
  // Without a horizon (or one further back) the window is whole.
  assert.equal(group(runs, '30d', now)[0].start, '2026-10-30T00:00:00.000Z');
  assert.equal(group(runs, '7d', now, since)[0].start, '2026-11-08T00:00:00.000Z');
});
