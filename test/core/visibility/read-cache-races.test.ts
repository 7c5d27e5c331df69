// The read cache's count of bytes stays exact when reads of several runs interleave (a run dropped,
// or put back, by another read while one of its reads waits on the database), and a run the cache
// does not keep keeps no summary folds either: what reads keep stays within the budget.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { readCacheBytes, useReadCacheBytes } from '../../../src/core/visibility/read-cache.ts';
import { keptRunStats, readRunProbes, RUN_PROBE_COLUMNS } from '../../../src/core/visibility/run-probes.ts';
import { keptSummaryStats } from '../../../src/core/visibility/read.ts';
import type { Executor } from '../../../src/db/store.ts';

let s: TestServer;
let budget: number;
before(async () => {
  s = await startTestServer({}, { worker: false });
  budget = readCacheBytes();
});
after(async () => {
  useReadCacheBytes(budget);
  await s.close();
});

test('interleaved reads of runs that do not all fit keep an exact count of bytes', async () => {
  const sqlite = new Database(':memory:');
  const cols = RUN_PROBE_COLUMNS.map((c) => (c === 'seq' || c === 'attempts' ? `${c} integer` : `${c} text`)).join(', ');
  sqlite.exec(`create table visibility_probes (run_id text, ${cols})`);
  const insert = sqlite.prepare('insert into visibility_probes (run_id, id, seq, status, prompt, platform, attempts) values (?, ?, ?, ?, ?, ?, 0)');
  const runs = ['r1', 'r2', 'r3', 'r4'];
  for (const run of runs) {
    insert.run(run, `${run}a`, 1, 'succeeded', 'p'.repeat(500), 'openai');
    insert.run(run, `${run}b`, 2, 'running', 'p', 'openai');
  }
  const db = new Kysely<never>({ dialect: new SqliteDialect({ database: sqlite }) }) as unknown as Executor;
  await readRunProbes(db, 'r1');
  const one = keptRunStats(db).bytes;
  assert.ok(one > 0);
  useReadCacheBytes(one + 10); // room for one run
  try {
    for (let round = 0; round < 20; round++) {
      const order = round % 2 ? runs : [...runs].reverse();
      await Promise.all(order.map((r) => readRunProbes(db, r)));
      const kept = keptRunStats(db);
      assert.equal(kept.bytes, kept.runs.length * one, `round ${round}: ${JSON.stringify(kept)}`);
      assert.ok(kept.bytes <= one + 10, `round ${round}: over the budget: ${JSON.stringify(kept)}`);
    }
  } finally {
    useReadCacheBytes(budget);
    await (db as unknown as Kysely<never>).destroy();
  }
});

test('a run the cache does not keep keeps no summary folds', async () => {
  const { key } = await s.account({ credits: 100 });
  const body = { url: 'https://www.acme.example/crm', target_entity: 'Acme CRM', competitors: ['Globex'], prompts: ['a', 'b', 'c'], platforms: ['openai', 'claude'] };
  const runId = (await s.request('POST', '/v1/visibility/runs', { key, body })).json().run_id as string;
  const db = s.runtime.core.store.db;
  // All but the last probe finished: a running run whose finished prefix could be folded.
  await sql`update visibility_probes set status = 'errored', error_code = 'x' where run_id = ${runId} and seq < (select max(seq) from visibility_probes where run_id = ${runId})`.execute(db);
  await s.request('GET', `/v1/visibility/runs/${runId}`, { key });
  assert.ok(keptSummaryStats().folded.includes(runId), 'kept with room in the budget');
  useReadCacheBytes(0);
  try {
    for (let i = 0; i < 3; i++) assert.equal((await s.request('GET', `/v1/visibility/runs/${runId}`, { key })).statusCode, 200);
    assert.deepEqual(keptRunStats(db).runs, []);
    assert.ok(!keptSummaryStats().folded.includes(runId), 'no folds beside rows not kept');
  } finally {
    useReadCacheBytes(budget);
  }
});
