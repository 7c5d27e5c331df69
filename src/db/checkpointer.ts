// SQLite WAL checkpoints on a thread of their own. A checkpoint copies the write-ahead log back
// into the database file and syncs it to disk; run by SQLite itself, it happens inside whichever
// commit found the log past `wal_autocheckpoint` pages, on the event loop, which then waits for
// the disk (bench:runs: commits of tens of milliseconds, the event loop neither busy nor free).
// Here a worker thread with its own connection runs a PASSIVE checkpoint every `everyMs` (never
// waiting on a lock: it copies what no reader still needs, and a writer goes on meanwhile), and
// the service's connection checkpoints by itself only past FALLBACK_PAGES, should the thread
// fall behind or die.
// The one thing to know: the thread's code is plain JavaScript given as a string (an `eval`
// worker), so it runs the same under tsx, in tests, and in a build; it loads better-sqlite3 from
// the path this module resolves.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** The service's connection checkpoints by itself past this many log pages (SQLite's default is 1,000). */
export const FALLBACK_PAGES = 10_000;

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const tick = () => {
  try {
    checkpoint.all();
  } catch {
    // Another connection is checkpointing (SQLITE_BUSY), or the file went away: try again later.
  }
};
const timer = setInterval(tick, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  tick();
  db.close();
  parentPort.postMessage('closed');
});
`;

/**
 * Starts the checkpoint thread for the WAL database `file` opened as `sqlite`; the returned
 * function stops it (after one last checkpoint) and resolves once its connection is closed.
 */
export function checkpointInBackground(sqlite: BetterSqlite3.Database, file: string, everyMs = 200): () => Promise<void> {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  const worker = new Worker(THREAD, { eval: true, workerData: { module: createRequire(import.meta.url).resolve('better-sqlite3'), file, everyMs } });
  worker.unref();
  // Once the thread is gone (stopped, or failed), the connection checkpoints by itself again, as SQLite does by default.
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
      resolve();
    }),
  );
  worker.on('error', () => {}); // the exit follows; without a listener an error in the thread would end the process
  let stopped: Promise<void> | undefined;
  return () => {
    stopped ??= (async () => {
      worker.postMessage('close'); // ignored by a thread that already exited
      const closed = new Promise<void>((resolve) => worker.once('message', () => resolve()));
      await Promise.race([closed, exited]);
      await worker.terminate();
      await exited;
    })();
    return stopped;
  };
}
