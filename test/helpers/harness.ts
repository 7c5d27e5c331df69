// Builds a real server on a real database for tests: SQLite in a temp file by default, or a
// fresh schema-isolated Postgres database when DATABASE_URL points at Postgres. Accounts and
// keys are made through the same core functions the CLI uses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createAccount, createKey } from '../../src/core/accounts/accounts.ts';
import { grantCredits } from '../../src/core/billing/ledger.ts';
import { buildApp, type AppOptions } from '../../src/server/app.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { openRuntime, type Runtime } from '../../src/server/runtime.ts';
import type { CoreOptions } from '../../src/core/index.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';
import { storeOf, type Store } from '../../src/db/store.ts';

export const usingPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

let dbCounter = 0;

/** A database URL of its own for one test file: a temp SQLite file, or a new Postgres database. */
export async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (usingPostgres) {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `sightline_t_${process.pid}_${Date.now()}_${dbCounter++}`;
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(base.toString());
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: base.toString() });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'sightline-test-'));
  return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A database of its own, opened (and migrated unless `migrate: false`); `close()` also deletes it. */
export async function openFreshDatabase(opts: { migrate?: boolean } = {}): Promise<{ handle: DatabaseHandle; store: Store; close(): Promise<void> }> {
  const db = await freshDatabaseUrl();
  const handle = openDatabase(db.url);
  if (opts.migrate !== false) await migrateToLatest(handle.db);
  return {
    handle,
    store: storeOf(handle),
    async close() {
      await handle.close();
      await db.drop();
    },
  };
}

export interface TestServer {
  app: FastifyInstance;
  runtime: Runtime;
  /** Creates an account with credits and a default key. */
  account(opts?: { credits?: number; email?: string }): Promise<{ accountId: string; key: string }>;
  key(accountId: string, opts?: Parameters<typeof createKey>[2]): Promise<string>;
  request(method: string, url: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  /** Polls until the run reaches a terminal status (or throws after timeoutMs). */
  waitForRun(key: string, runId: string, timeoutMs?: number): Promise<any>;
  close(): Promise<void>;
}

let emailCounter = 0;

/** `core`: composition-root overrides (a fake resolver, say) passed to openRuntime; `app`: buildApp's (a share PDF thread entry). */
export async function startTestServer(env: Record<string, string> = {}, opts: { worker?: boolean; core?: Partial<CoreOptions>; app?: Pick<AppOptions, 'sharePdf'> } = {}): Promise<TestServer> {
  const db = await freshDatabaseUrl();
  const config = loadConfig({ SIGHTLINE_LOG_LEVEL: 'silent', ...env, DATABASE_URL: db.url });
  const runtime = await openRuntime(config, { core: opts.core });
  const rateLimiter = await createKeyRateLimiter({ perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE, handle: runtime.handle });
  // Errors no handler expected (a 500) are logged, so a failure in CI says why; quiet otherwise.
  const app = await buildApp({ ...opts.app, core: runtime.core, rateLimiter, logger: { level: process.env.SIGHTLINE_TEST_LOG_LEVEL ?? 'error' } });
  await app.ready();
  if (opts.worker !== false) runtime.core.startWorker();
  const server: TestServer = {
    app,
    runtime,
    async account(o = {}) {
      const acct = await createAccount(runtime.core.store.db, o.email ?? `user${process.pid}_${emailCounter++}@example.com`);
      const k = await createKey(runtime.core.store.db, acct.id);
      if (o.credits) await grantCredits(runtime.core.store, acct.id, Math.round(o.credits * 100));
      return { accountId: acct.id, key: k.api_key };
    },
    async key(accountId, o) {
      return (await createKey(runtime.core.store.db, accountId, o)).api_key;
    },
    request(method, url, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) headers.authorization = `Bearer ${o.key}`;
      return app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(o.body !== undefined ? { payload: o.body as object } : {}),
      });
    },
    // 60 s by default: a Content Intelligence run analyses its page on a worker thread, which on a
    // loaded 2-core CI machine has taken more than 20 s; a run that settles returns at once anyway.
    async waitForRun(key, runId, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      const path = runId.startsWith('ci_') ? `/v1/content-intelligence/runs/${runId}` : `/v1/visibility/runs/${runId}`;
      const started = Date.now();
      for (;;) {
        const res = await server.request('GET', path, { key });
        // A long run (a full Content Intelligence run on a loaded machine) outlasts the key's
        // 600 requests a minute at a fast poll: a 429 waits as it says, and the poll slows after 2 s.
        if (res.statusCode === 429) {
          if (Date.now() > deadline) throw new Error(`run ${runId} still rate-limited after ${timeoutMs} ms`);
          await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.headers['retry-after']) || 1)));
          continue;
        }
        const body = res.json();
        if (['completed', 'partially_completed', 'failed', 'cancelled'].includes(body.status)) return body;
        if (Date.now() > deadline) throw new Error(`run ${runId} still ${body.status ?? `HTTP ${res.statusCode}: ${res.body}`} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, Date.now() - started < 2000 ? 25 : 150));
      }
    },
    async close() {
      await app.close();
      await rateLimiter.close();
      await runtime.close();
      await db.drop();
    },
  };
  return server;
}
