// What run reads keep between reads (kept probe rows, finished runs' summaries) stays within the
// read cache's budget in bytes (SIGHTLINE_READ_CACHE_MB, read-cache.ts), least recently read runs
// dropped first, so memory does not grow with the runs read; a run that alone exceeds it is not
// kept, and reads stay what a cold read gives whatever is kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { keptRowBytes, readCacheBytes, useReadCacheBytes } from '../../../src/core/visibility/read-cache.ts';
import { keptRunStats, readRunProbes } from '../../../src/core/visibility/run-probes.ts';
import { keptSummaryStats } from '../../../src/core/visibility/read.ts';
import { loadConfig } from '../../../src/config.ts';

let s: TestServer;
before(async () => {
  s = await startTestServer({ SIGHTLINE_READ_CACHE_MB: '5' });
});
after(() => s.close());

test('SIGHTLINE_READ_CACHE_MB sets the budget, 64 MB by default', () => {
  assert.equal(readCacheBytes(), 5 * 1024 * 1024);
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).SIGHTLINE_READ_CACHE_MB, 64);
});

test('a kept row is estimated from its text: a fixed part and 10 bytes a character', () => {
  const row = { id: 'p_1', status: 'succeeded', analysis: 'x'.repeat(1000), brand_mentioned: 1 };
  assert.equal(keptRowBytes(row), 2048 + 10 * (3 + 9 + 1000));
});

test('kept rows and finished summaries stay within the budget, the least recently read run dropped first', async () => {
  const { key } = await s.account({ credits: 100 });
  const create = async (n: number) =>
    (
      await s.request('POST', '/v1/visibility/runs', {
        key,
        body: { url: 'https://www.acme.example/crm', target_entity: 'Acme CRM', competitors: ['Globex'], prompts: [`best crm ${n}`, `top crm ${n}`], platforms: ['openai', 'claude'] },
      })
    ).json().run_id as string;
  const a = await create(1);
  const b = await create(2);
  await s.waitForRun(key, a, 30_000);
  await s.waitForRun(key, b, 30_000);
  const db = s.runtime.core.store.db;
  const read = async (id: string) => (await s.request('GET', `/v1/visibility/runs/${id}`, { key })).json();
  const bytes = async (id: string) => (await readRunProbes<object>(db, id)).reduce((sum, r) => sum + keptRowBytes(r), 0);
  const [bytesA, bytesB] = [await bytes(a), await bytes(b)];
  const first = { a: await read(a), b: await read(b) };

  // Room for either run, never both.
  useReadCacheBytes(Math.max(bytesA, bytesB) + Math.floor(Math.min(bytesA, bytesB) / 2));
  assert.deepEqual(await read(a), first.a);
  assert.deepEqual(await read(b), first.b);
  assert.deepEqual(keptRunStats(db).runs, [b]);
  assert.ok(keptRunStats(db).bytes <= readCacheBytes());
  assert.deepEqual(keptSummaryStats().finished, [`read:${b}`]);
  assert.ok(keptSummaryStats().bytes <= readCacheBytes());
  assert.deepEqual(keptSummaryStats().folded, [], 'a finished run keeps its summary, not its folds');
  assert.deepEqual(await read(a), first.a);
  assert.deepEqual(keptRunStats(db).runs, [a]);

  // A run that alone exceeds the budget is not kept; its reads are the same.
  useReadCacheBytes(Math.floor(Math.min(bytesA, bytesB) / 2));
  assert.deepEqual(await read(a), first.a);
  assert.deepEqual(await read(b), first.b);
  assert.deepEqual(keptRunStats(db), { runs: [], bytes: 0 });
  assert.deepEqual(keptSummaryStats().finished, []);

  // 0 keeps nothing.
  useReadCacheBytes(0);
  assert.deepEqual(await read(b), first.b);
  assert.deepEqual(keptRunStats(db), { runs: [], bytes: 0 });
  assert.deepEqual(keptSummaryStats(), { finished: [], bytes: 0, folded: [] });
  useReadCacheBytes(64 * 1024 * 1024);
});
