// The share-link PDF cache (pure): one entry per link, served again while its version holds,
// rendered again for a new version, bounded in bytes (least recently used out), and one render
// shared by requests that arrive while it runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PdfCache } from '../../src/share/pdf-cache.ts';

const pdf = (size: number, fill: number) => Buffer.alloc(size, fill);

test('a version is rendered once; a new version of the link replaces it', async () => {
  const cache = new PdfCache(1000);
  let made = 0;
  const render = (fill: number) => async () => {
    made++;
    return pdf(100, fill);
  };
  const a = await cache.get('shr_a', 'v1', render(1));
  const again = await cache.get('shr_a', 'v1', render(9));
  assert.equal(made, 1);
  assert.ok(again.equals(a));
  assert.equal(cache.hits, 1);
  const next = await cache.get('shr_a', 'v2', render(2));
  assert.equal(made, 2);
  assert.equal(next[0], 2);
  assert.equal(cache.bytes, 100, 'the old version is dropped, not kept beside the new one');
});

test('bounded in bytes: the least recently read link goes first; a PDF larger than the bound is not kept', async () => {
  const cache = new PdfCache(250);
  await cache.get('a', 'v', async () => pdf(100, 1));
  await cache.get('b', 'v', async () => pdf(100, 2));
  await cache.get('a', 'v', async () => pdf(100, 9)); // a read: b is now the oldest
  await cache.get('c', 'v', async () => pdf(100, 3));
  assert.equal(cache.bytes, 200);
  const renders = cache.renders;
  await cache.get('a', 'v', async () => pdf(100, 9));
  await cache.get('c', 'v', async () => pdf(100, 9));
  assert.equal(cache.renders, renders, 'a and c kept');
  await cache.get('b', 'v', async () => pdf(100, 2));
  assert.equal(cache.renders, renders + 1, 'b was evicted');
  await cache.get('huge', 'v', async () => pdf(300, 4));
  assert.ok(cache.bytes <= 250);

  const off = new PdfCache(0);
  await off.get('a', 'v', async () => pdf(10, 1));
  await off.get('a', 'v', async () => pdf(10, 1));
  assert.equal(off.renders, 2, 'a bound of 0 keeps nothing');
});

test('requests during a render wait for it instead of rendering again', async () => {
  const cache = new PdfCache(1000);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let made = 0;
  const render = async () => {
    made++;
    await gate;
    return pdf(10, 7);
  };
  const all = Promise.all([cache.get('a', 'v', render), cache.get('a', 'v', render), cache.get('a', 'v', render)]);
  release();
  const out = await all;
  assert.equal(made, 1);
  assert.ok(out.every((b) => b.equals(out[0]!)));
});
