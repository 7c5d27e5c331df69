// WAL checkpoints on a thread of their own (src/db/checkpointer.ts): the service's connection
// leaves the log to the thread (it checkpoints by itself only past FALLBACK_PAGES), the thread
// copies the log back into the database while the connection goes on writing, and closing the
// handle stops the thread and gives the connection SQLite's own checkpoints back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/connection.ts';
import { FALLBACK_PAGES } from '../../src/db/checkpointer.ts';

const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');

test('SQLite: a background thread checkpoints the log while the connection writes', { skip: onPostgres && 'SQLite only' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-checkpointer-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(`sqlite:${file}`, { checkpointInBackground: true });
  const sqlite = handle.sqlite!;
  try {
    assert.equal(sqlite.pragma('wal_autocheckpoint', { simple: true }), FALLBACK_PAGES, 'the connection leaves checkpoints to the thread');
    await sql`create table t (id integer primary key, v text not null)`.execute(handle.db);
    // More pages than SQLite's default threshold of 1,000, in commits of their own.
    const insert = sqlite.prepare('insert into t (v) values (?)');
    for (let i = 0; i < 1500; i++) insert.run('x'.repeat(3000));
    // Within a few of the thread's ticks every frame of the log is in the database file: a
    // checkpoint from the connection then finds nothing left to copy.
    let left = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 50 && left > 0; i++) {
      await sleep(100);
      const [row] = sqlite.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
      left = row!.log - row!.checkpointed;
    }
    assert.equal(left, 0, 'the thread copied the whole log back');
    assert.equal((await sql<{ n: number }>`select count(*) as n from t`.execute(handle.db)).rows[0]!.n, 1500);
  } finally {
    await handle.close();
  }
  assert.equal(sqlite.open, false);
  assert.equal(existsSync(`${file}-wal`), false, 'the last connection to close removed the log: the thread had closed its own');
  rmSync(dir, { recursive: true, force: true });
});
