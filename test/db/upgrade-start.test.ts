// An upgrade as an operator runs it: a database made by the previous release (every migration
// but the newest), then an API process and a worker of the new one started at the same moment. Both start,
// the pending migration is applied once, under the migration lock, and the process that applied
// it says so in its log ("applied 1 migration", with the names); the other one logs nothing of it.
// Rolling back (older code on a database a newer release upgraded) stops at start in one line that
// says so and what to do, instead of Kysely's "corrupted migrations" stack.
// SQLite by default, Postgres when DATABASE_URL points at one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/connection.ts';
import { MIGRATION_NAMES, migrateToLatest } from '../../src/db/migrations.ts';

/** The database is made by the code before the newest migration; the newest is pending. */
const BEFORE = MIGRATION_NAMES.at(-2)!;
const PENDING = MIGRATION_NAMES.at(-1)!;
import { freshDatabaseUrl } from '../helpers/harness.ts';

const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

interface Started {
  pid: number;
  lines: () => Record<string, unknown>[];
  stop: () => Promise<number | null>;
}

/** Starts the bin and resolves once its log says `<role> started`. */
function start(args: string[], env: NodeJS.ProcessEnv, role: string): Promise<Started> {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return new Promise((resolve, reject) => {
    // A process that does not start in time is killed: left running, it would hold this file open.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${role} did not start:\n${out}\n${err}`));
    }, 90_000);
    const check = () => {
      if (lines().some((l) => l.msg === `${role} started`)) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve({
          pid: child.pid!,
          lines,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited ${code} before it started:\n${out}\n${err}`));
    });
  });
}

describe('upgrading a database while two processes start at once', () => {
  let db: { url: string; drop: () => Promise<void> };
  before(async () => {
    db = await freshDatabaseUrl();
    const handle = openDatabase(db.url);
    try {
      const applied = await migrateToLatest(handle.db, BEFORE);
      assert.equal(applied.at(-1), BEFORE);
    } finally {
      await handle.close();
    }
  });
  after(() => db.drop());

  test('the pending migration is applied once, and its process logs which', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, SIGHTLINE_LOG_LEVEL: 'info', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', HOST: '127.0.0.1' };
    const started = await Promise.allSettled([start(['serve', '--port', '0', '--no-worker'], env, 'serve'), start(['worker'], env, 'worker')]);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) {
      // Stop the one that did start before failing, so no process outlives the test.
      for (const r of started) if (r.status === 'fulfilled') await r.value.stop();
      throw failed.reason;
    }
    const [api, worker] = started.map((r) => (r as PromiseFulfilledResult<Started>).value) as [Started, Started];
    try {
      const applied = [...api.lines(), ...worker.lines()].filter((l) => typeof l.msg === 'string' && l.msg.startsWith('applied '));
      assert.equal(applied.length, 1, JSON.stringify(applied));
      assert.equal(applied[0]!.msg, 'applied 1 migration');
      assert.deepEqual(applied[0]!.migrations, [PENDING]);
    } finally {
      assert.equal(await api.stop(), 0);
      assert.equal(await worker.stop(), 0);
    }
    const handle = openDatabase(db.url);
    try {
      const rows = await handle.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
      const names = rows.map((r) => (r as { name: string }).name);
      assert.equal(names.filter((n) => n === PENDING).length, 1);
      assert.equal(await migrateToLatest(handle.db).then((a) => a.length), 0, 'nothing left to apply');
    } finally {
      await handle.close();
    }
  });
});

describe('rolling back: code older than its database', () => {
  let db: { url: string; drop: () => Promise<void> };
  before(async () => {
    db = await freshDatabaseUrl();
    const handle = openDatabase(db.url);
    try {
      await migrateToLatest(handle.db);
      // What a newer release leaves behind: a migration this code has never heard of.
      await sql`insert into kysely_migration (name, timestamp) values ('0999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(handle.db);
    } finally {
      await handle.close();
    }
  });
  after(() => db.drop());

  test('serve, worker and migrate refuse it in one line, and change nothing', async () => {
    const exec = promisify(execFile);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, SIGHTLINE_LOG_LEVEL: 'silent' };
    for (const args of [['serve', '--port', '0'], ['worker'], ['migrate']]) {
      const out = await exec(process.execPath, [BIN, ...args], { env, timeout: 60_000 }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      assert.equal(out.code, 1, `${args[0]}: ${out.stdout}${out.stderr}`);
      const lines = out.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, out.stderr);
      assert.match(lines[0]!, /^sightline: the database .* was upgraded by a newer sightline: it has migration 0999_from_the_future that this version does not know\. Run the version that upgraded it, or restore the backup/);
      assert.doesNotMatch(out.stderr, /\n\s+at |corrupted/);
    }
  });
});
