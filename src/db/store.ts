// What the core and the job queue need from storage: a Kysely instance and which SQL dialect
// is behind it (row locks are spelled differently), plus SQLite's direct paths and change stamps
// for the hottest reads and writes.
// Composition roots build it from DATABASE_URL.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { DatabaseHandle, DialectName, ReadNow, WatchTables, WriteNow } from './connection.ts';

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** SQLite's synchronous read for the hottest reads; absent on Postgres (see ReadNow). */
  readNow?: ReadNow;
  /** SQLite's synchronous batch write (the activity log); absent on Postgres (see WriteNow). */
  writeNow?: WriteNow;
  /** SQLite's change stamps for caching reads exactly; absent on Postgres (see WatchTables). */
  watchTables?: WatchTables;
}

export type Tx = Transaction<Database>;
export type Executor = Kysely<Database> | Tx;

/** The core's view of an open database (composition roots and tests build it this way). */
export function storeOf(handle: DatabaseHandle): Store {
  return { db: handle.db, dialect: handle.dialect, readNow: handle.readNow, writeNow: handle.writeNow, watchTables: handle.watchTables };
}
