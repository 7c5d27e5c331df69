// Two processes writing one SQLite file (the server and `sightline worker`, or the admin CLI):
// a transaction that reads, then writes must not fail because the other process committed in
// between. With a deferred BEGIN it failed at its first write with SQLITE_BUSY_SNAPSHOT (no busy
// wait applies to that error); transactions now begin IMMEDIATE and wait for the lock instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connection.ts';

const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

// The other process: read-then-write increments in immediate transactions for `ms` milliseconds.
const OTHER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.pragma('busy_timeout = 5000');
const read = db.prepare('select v from counter where id = 1').pluck();
const write = db.prepare('update counter set v = ? where id = 1');
const bump = db.transaction(() => write.run(read.get() + 1));
const until = Date.now() + Number(process.argv[3]);
let n = 0;
while (Date.now() < until) { bump.immediate(); n++; }
process.stdout.write(String(n));
`;

test('SQLite: read-then-write transactions succeed while another process commits to the same file', { skip: onPostgres && 'SQLite only' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-two-proc-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(`sqlite:${file}`);
  try {
    await sql`create table counter (id integer primary key, v integer not null)`.execute(handle.db);
    await sql`insert into counter (id, v) values (1, 0)`.execute(handle.db);
    const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    const child = spawn(process.execPath, ['-e', OTHER, betterSqlite, file, '1500'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // This process: the same increments through Kysely, each read and write awaited separately
    // so that the other process's commits land between them.
    let mine = 0;
    const errors: string[] = [];
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      try {
        await handle.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ v: number }>`select v from counter where id = 1`.execute(trx);
          await new Promise((r) => setImmediate(r));
          await sql`update counter set v = ${rows[0]!.v + 1} where id = 1`.execute(trx);
        });
        mine++;
      } catch (err) {
        errors.push((err as { code?: string }).code ?? String(err));
      }
    }
    assert.equal(await exited, 0);
    const theirs = Number(out);
    assert.ok(mine > 0 && theirs > 0, `both processes wrote (mine ${mine}, theirs ${theirs})`);
    assert.deepEqual(errors.slice(0, 5), [], `${errors.length} transactions failed`);
    const { rows } = await sql<{ v: number }>`select v from counter where id = 1`.execute(handle.db);
    assert.equal(rows[0]!.v, mine + theirs, 'no increment lost');
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
