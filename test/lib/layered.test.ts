import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Layered } from '../../src/lib/layered.ts';

test('a branch iterates as one map would: base keys first (with its own values), then its own new keys', () => {
  const base = new Layered<string, number>();
  base.set('a', 1);
  base.set('b', 2);
  const branch = base.branch();
  branch.set('c', 3);
  branch.set('a', 10);
  assert.deepEqual([...branch], [['a', 10], ['b', 2], ['c', 3]]);
  // The same sets on a plain map give the same order.
  const plain = new Map([['a', 1], ['b', 2]]);
  plain.set('c', 3);
  plain.set('a', 10);
  assert.deepEqual([...branch], [...plain]);
  assert.deepEqual([...base], [['a', 1], ['b', 2]], 'the base is unchanged');
});

test('own() copies the base value on first use, so changes in place stay in the branch', () => {
  const base = new Layered<string, { n: number; tags: Set<string> }>();
  base.set('x', { n: 1, tags: new Set(['p']) });
  const branch = base.branch((v) => ({ n: v.n, tags: new Set(v.tags) }));
  const mine = branch.own('x')!;
  mine.n++;
  mine.tags.add('q');
  assert.equal(branch.own('x'), mine, 'the copy is made once');
  assert.equal(branch.get('x')!.n, 2);
  assert.equal(base.get('x')!.n, 1);
  assert.deepEqual([...base.get('x')!.tags], ['p']);
  assert.equal(branch.own('missing'), undefined);
});

test('only the base layer branches', () => {
  const branch = new Layered<string, number>().branch();
  assert.throws(() => branch.branch(), /only the base layer/);
});
