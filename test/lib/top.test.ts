import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topSorted } from '../../src/lib/top.ts';

const byCount = (a: { n: number; key: string }, b: { n: number; key: string }) => b.n - a.n || a.key.localeCompare(b.key);

test('topSorted is a stable sort then slice(0, k), for any k', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 50; round++) {
    // Many ties on the count, and keys that tie too (so stability shows).
    const items = Array.from({ length: Math.floor(rnd() * 300) }, (_, i) => ({ n: Math.floor(rnd() * 4), key: `k${Math.floor(rnd() * 40)}`, i }));
    for (const k of [0, 1, 5, 20, 299, 1000]) {
      assert.deepEqual(topSorted(items, k, byCount), [...items].sort(byCount).slice(0, k), `round ${round}, k ${k}`);
    }
  }
});

test('topSorted keeps list order among equal items, like a stable sort', () => {
  const items = [
    { n: 1, key: 'a', i: 0 },
    { n: 2, key: 'b', i: 1 },
    { n: 1, key: 'a', i: 2 },
    { n: 2, key: 'b', i: 3 },
  ];
  assert.deepEqual(
    topSorted(items, 3, byCount).map((x) => x.i),
    [1, 3, 0],
  );
});

test('topSorted reads any iterable, such as a map of counts', () => {
  const counts = new Map([['x.com', 3], ['a.com', 3], ['b.com', 9]]);
  assert.deepEqual(
    topSorted(counts, 2, (a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    [['b.com', 9], ['a.com', 3]],
  );
});
