// Database resilience on a real Postgres (skipped on SQLite): terminating every backend of the
// test's own database under load crashes nothing, reads and uncommitted transactions are retried,
// what cannot be retried answers 503 database_unavailable with Retry-After, and a pool with no
// free connection answers 503 after a short wait, never 500. Only this file's database is touched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { getBalance } from '../../src/core/billing/ledger.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { DatabaseUnavailableError } from '../../src/db/resilience.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { admin, terminateBackends } from '../helpers/postgres.ts';
import { freshDatabaseUrl, startTestServer, usingPostgres, type TestServer } from '../helpers/harness.ts';


const dbNameOf = (s: TestServer) => (s.runtime.handle.pgPool!.options as { connectionString: string }).connectionString.split('/').pop()!;

describe('Postgres connection loss', { skip: !usingPostgres && 'needs DATABASE_URL=postgres://…' }, () => {
  let s: TestServer;
  before(async () => {
    // The reads below poll every 10 ms for as long as the run takes (up to a minute on a loaded
    // machine): past the default 600 a minute they would meet the key's rate limit (429). A job
    // whose settle a termination cut off is taken over when its lease ends: 5 s, not 30.
    s = await startTestServer({ SIGHTLINE_DB_POOL_MAX: '6', SIGHTLINE_RATE_LIMIT_PER_MINUTE: '100000', SIGHTLINE_JOB_LEASE_MS: '5000' });
  });
  after(async () => s?.close());

  test('terminating every backend under load crashes nothing; runs finish and the ledger holds', async () => {
    const { key, accountId } = await s.account({ credits: 500 });
    const created = (
      await s.request('POST', '/v1/visibility/runs', {
        key,
        body: {
          url: 'https://acme.example',
          target_entity: 'Acme',
          prompts: Array.from({ length: 12 }, (_, i) => `[[sandbox:delay=150]] q${i}`),
          platforms: ['openai', 'claude'],
        },
      })
    ).json();
    const statuses: number[] = [];
    let reading = true;
    const reads = (async () => {
      while (reading) {
        const r = await s.request('GET', '/v1/usage', { key });
        statuses.push(r.statusCode);
        if (r.statusCode === 503) {
          assert.equal(r.json().detail.error, 'database_unavailable');
          assert.ok(r.headers['retry-after']);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 150));
      await terminateBackends(dbNameOf(s));
    }
    const run = await s.waitForRun(key, created.run_id, 60_000);
    reading = false;
    await reads;
    assert.ok(statuses.length > 10);
    assert.deepEqual([...new Set(statuses)].filter((c) => c !== 200 && c !== 503), [], `only 200 or 503: ${statuses.join(',')}`);
    assert.equal(run.probe_count, 24);
    assert.equal(run.probe_counts.queued + run.probe_counts.running, 0);
    const b = await getBalance(s.runtime.core.store.db, accountId);
    assert.equal(b.reserved, 0);
    assert.equal(b.granted, b.available + b.settled);
    const ready = await s.request('GET', '/readyz');
    assert.equal(ready.statusCode, 200);
  });

  test('a read cut off mid-query is retried on a fresh connection', async () => {
    const db = s.runtime.core.store.db;
    const pending = sql<{ x: number }>`select 1 as x from pg_sleep(0.4)`.execute(db);
    await new Promise((r) => setTimeout(r, 150));
    assert.ok((await terminateBackends(dbNameOf(s))) >= 1);
    const { rows } = await pending;
    assert.equal(rows[0]!.x, 1);
  });

  test('a transaction cut off before COMMIT runs again from the start and commits once', async () => {
    const db = s.runtime.core.store.db;
    await sql`create table if not exists resilience_probe (n integer)`.execute(db);
    let calls = 0;
    await db.transaction().execute(async (trx) => {
      calls++;
      await sql`insert into resilience_probe values (${calls})`.execute(trx);
      if (calls === 1) await terminateBackends(dbNameOf(s));
      await sql`select 1`.execute(trx);
    });
    assert.equal(calls, 2);
    const { rows } = await sql<{ n: number }>`select n from resilience_probe`.execute(db);
    assert.deepEqual(rows.map((r) => r.n), [2], 'the first attempt was rolled back by the server');
  });

  test('a write outside a transaction is not retried: it fails as DatabaseUnavailableError', async () => {
    const db = s.runtime.core.store.db;
    const pending = sql`update resilience_probe set n = n + 1 where (select true from pg_sleep(0.4))`.execute(db).then(() => null, (e: unknown) => e);
    await new Promise((r) => setTimeout(r, 150));
    await terminateBackends(dbNameOf(s));
    assert.ok((await pending) instanceof DatabaseUnavailableError);
  });
});

describe('Postgres pool exhaustion', { skip: !usingPostgres && 'needs DATABASE_URL=postgres://…' }, () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_DB_POOL_MAX: '1', SIGHTLINE_DB_POOL_WAIT_MS: '200' }, { worker: false });
  });
  after(async () => s?.close());

  test('with every connection held, a request waits briefly then answers 503 database_unavailable', async () => {
    const { key } = await s.account({ credits: 10 });
    assert.equal((await s.request('GET', '/v1/usage', { key })).statusCode, 200);
    const db = s.runtime.core.store.db;
    let release!: () => void;
    const held = db.transaction().execute(() => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    // A fresh key: its lookup needs the database (a cached key would be answered from memory).
    const other = await s.account({ credits: 10 }).catch(() => null);
    assert.equal(other, null, 'no connection is free');
    const res = await s.request('GET', '/v1/visibility/runs', { key });
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.json().detail.error, 'database_unavailable');
    assert.equal(res.headers['retry-after'], '2');
    const ready = await s.request('GET', '/readyz');
    assert.equal(ready.statusCode, 503);
    release();
    await held;
    assert.equal((await s.request('GET', '/v1/visibility/runs', { key })).statusCode, 200);
  });
});

describe('Postgres that is not there', { skip: !usingPostgres && 'needs DATABASE_URL=postgres://…' }, () => {
  test('a migrated database whose server vanished answers DatabaseUnavailableError, not a crash', async () => {
    const fresh = await freshDatabaseUrl();
    const handle = openDatabase(fresh.url, { pool: { max: 2, waitMs: 500 } });
    await migrateToLatest(handle.db);
    const url = new URL(fresh.url);
    url.port = '1'; // nothing listens there
    const gone = openDatabase(url.toString(), { pool: { max: 2, waitMs: 500 } });
    await assert.rejects(sql`select 1`.execute(gone.db), DatabaseUnavailableError);
    await gone.close();
    await handle.close();
    await fresh.drop();
  });
});


describe('Postgres that refuses new connections', { skip: !usingPostgres && 'needs DATABASE_URL=postgres://…' }, () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_DB_POOL_MAX: '4' }, { worker: false });
  });
  after(async () => {
    if (s) await admin(`alter database ${dbNameOf(s)} allow_connections true`).catch(() => {});
    await s?.close();
  });

  test('ALLOW_CONNECTIONS false (SQLSTATE 55000): 503 database_unavailable with Retry-After, never 500; back once allowed', async () => {
    const { key } = await s.account({ credits: 10 });
    assert.equal((await s.request('GET', '/v1/usage', { key })).statusCode, 200);
    const name = dbNameOf(s);
    await admin(`alter database ${name} allow_connections false`);
    await terminateBackends(name);
    try {
      for (const [method, url, body] of [
        ['GET', '/v1/usage', undefined],
        ['POST', '/v1/visibility/runs', { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] }],
      ] as const) {
        const res = await s.request(method, url, { key, body });
        assert.equal(res.statusCode, 503, `${method} ${url}: ${res.body}`);
        assert.equal(res.json().detail.error, 'database_unavailable');
        assert.equal(res.headers['retry-after'], '2');
      }
    } finally {
      await admin(`alter database ${name} allow_connections true`);
    }
    assert.equal((await s.request('GET', '/v1/usage', { key })).statusCode, 200);
  });

  test('a missing database (3D000) is unavailable too, not an unexpected error', async () => {
    const url = new URL((s.runtime.handle.pgPool!.options as { connectionString: string }).connectionString);
    url.pathname = '/sightline_no_such_database';
    const gone = openDatabase(url.toString(), { pool: { max: 1, waitMs: 500 } });
    await assert.rejects(sql`select 1`.execute(gone.db), DatabaseUnavailableError);
    await gone.close();
  });
});

describe('Postgres pool: waiting for a free connection is not opening one', { skip: !usingPostgres && 'needs DATABASE_URL=postgres://…' }, () => {
  test('a 1 ms wait still opens connections (they get the connect timeout); an exhausted pool says so', async () => {
    const fresh = await freshDatabaseUrl();
    const handle = openDatabase(fresh.url, { pool: { max: 1, waitMs: 1, connectMs: 10_000 } });
    try {
      assert.equal((await sql<{ x: number }>`select 1 as x`.execute(handle.db)).rows[0]!.x, 1);
      let release!: () => void;
      const held = handle.db.transaction().execute(() => new Promise<void>((r) => (release = r)));
      await new Promise((r) => setTimeout(r, 50));
      const err = await sql`select 1`.execute(handle.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof DatabaseUnavailableError, String(err));
      assert.equal(err.poolExhausted, true);
      assert.match(err.message, /pool exhausted: all 1 connections \(SIGHTLINE_DB_POOL_MAX\) stayed in use for 1 ms/);
      release();
      await held;
    } finally {
      await handle.close();
      await fresh.drop();
    }
  });
});
