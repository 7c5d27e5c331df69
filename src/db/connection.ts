// Opens the database named by DATABASE_URL: `sqlite:/path/file.db` (default, WAL mode),
// `sqlite::memory:`, or `postgres://…`. Callers get a Kysely instance plus the dialect name,
// because a few statements (row locks) differ between the two; everything else is portable.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.ts';
import { openResilientPostgres, type PoolOptions, type ResilienceOptions } from './resilience.ts';
import { checkpointInBackground } from './checkpointer.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The raw driver client, for libraries that need it (the rate limiter's store). */
  sqlite?: BetterSqlite3.Database;
  pgPool?: pg.Pool;
  /** SQLite only: see `ReadNow`. */
  readNow?: ReadNow;
  /** SQLite only: see `WriteNow`. */
  writeNow?: WriteNow;
  /** SQLite only: see `WatchTables`. */
  watchTables?: WatchTables;
  close(): Promise<void>;
}

/**
 * Runs one read statement (`?` placeholders) synchronously on the SQLite connection and returns
 * its rows, or returns undefined when a transaction is open on that connection: a direct read
 * would then see the transaction's uncommitted writes, so the caller must queue behind it through
 * Kysely instead. Outside a transaction a direct read is exactly what Kysely would run, minus its
 * per-query promise chain and connection mutex, about a third of a hot read's cost (bench:api).
 * Assumes no statement is being iterated (`iterate()`) on the connection, which better-sqlite3
 * would refuse; nothing in sightline streams rows.
 */
export type ReadNow = (sqlText: string, params: readonly unknown[]) => Record<string, unknown>[] | undefined;

/**
 * Runs write statements (`?` placeholders) in one synchronous SQLite transaction and returns true,
 * or returns false without running anything when a transaction is open on the connection (the
 * caller then writes through Kysely, queued behind it). Parameters are bound from the array as
 * is: no per-query promise chain and no spread of hundreds of arguments (bench:api, activity rows).
 */
export type WriteNow = (statements: readonly { sql: string; params: readonly unknown[] }[]) => boolean;

/**
 * Returns a stamp function for a set of tables: it returns a number that changes whenever one of
 * those tables may have changed since the previous call, or undefined while a transaction is open
 * on the connection (then nothing read may be cached). Exact, so a reader may serve an earlier
 * answer while the stamp is unchanged:
 * - writes made through this connection, by any code, committed or not, fire temporary triggers
 *   (per connection, created here) that bump the stamp; a write later rolled back only costs a
 *   miss;
 * - commits by any other connection or process change SQLite's `PRAGMA data_version` (it ignores
 *   this connection's own commits, the triggers' part). The stamp reads it once per event-loop
 *   turn, at its first call on that turn, and calls later on the same turn share that reading:
 *   one read costs a read transaction, two lock syscalls (fcntl), about 2 µs, which per request
 *   was the largest cost of a kept usage answer after the activity row (bench:api). Sharing is
 *   exact for requests: every request answered on a turn was read from its socket before the
 *   turn's first call (libuv reads each ready socket once per turn, again only after a read
 *   filled its 64 KiB buffer), so no answer predates a commit its client could have known of.
 *   Code that learns of another connection's commit on the same turn (a test holding two
 *   connections) sees it from the next turn on.
 * Any commit by another process invalidates, whatever table it wrote: a stamp is cheap to miss.
 * GET /v1/usage uses it for the balance and the recent ledger (bench:api).
 */
export type WatchTables = (tables: readonly string[]) => () => number | undefined;

function tableWatcher(sqlite: BetterSqlite3.Database): WatchTables {
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const schemaVersion = sqlite.prepare('pragma schema_version').pluck();
  const generations: number[] = [];
  /** `PRAGMA data_version` as read on this event-loop turn; undefined until the turn's first read. */
  let turnVersion: number | undefined;
  const forgetTurnVersion = () => {
    turnVersion = undefined;
  };
  const versionThisTurn = (): number => {
    if (turnVersion === undefined) {
      turnVersion = dataVersion.get() as number;
      setImmediate(forgetTurnVersion);
    }
    return turnVersion;
  };
  sqlite.function('sightline_table_changed', { deterministic: false }, (watch: unknown) => {
    generations[Number(watch)]!++;
    return null;
  });
  return (tables) => {
    for (const table of tables) if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
    const watch = generations.length;
    generations.push(0);
    let installed = false;
    let seenVersion = 0;
    let seenSchema = 0;
    let foreign = 0;
    // The triggers are created on first use, outside any transaction (a trigger created inside
    // one would vanish with its rollback) and after migrations have created the tables.
    const install = (): boolean => {
      try {
        for (const table of tables) {
          for (const op of ['insert', 'update', 'delete']) {
            sqlite.exec(`create temp trigger if not exists sightline_watch_${watch}_${table}_${op} after ${op} on main.${table}
                         begin select sightline_table_changed(${watch}); end`);
          }
        }
      } catch {
        return (installed = false);
      }
      seenVersion = versionThisTurn();
      seenSchema = schemaVersion.get() as number;
      return (installed = true);
    };
    return () => {
      if (sqlite.inTransaction || (!installed && !install())) return undefined;
      const version = versionThisTurn();
      if (version !== seenVersion) {
        seenVersion = version;
        foreign++;
        // After another process changed the schema (a migration), make sure the triggers are
        // all there (create … if not exists): SQLite keeps them on a table rebuilt under the
        // same name (the test), and this costs nothing unless the schema changed.
        const schema = schemaVersion.get() as number;
        if (schema !== seenSchema) {
          seenSchema = schema;
          if (!install()) return undefined;
        }
      }
      // Both counters only grow, so their sum changes whenever either does and never repeats.
      return foreign + generations[watch]!;
    };
  };
}

/**
 * Reuses prepared statements by SQL text. Kysely's SQLite driver and the rate limiter's store
 * call `prepare()` for every query, and compiling the statement was the largest single cost of
 * an authenticated read (bench:api). Safe because these callers never toggle per-statement modes
 * (pluck/raw/expand/safeIntegers), and a statement that is still busy (an open `iterate()`) is
 * never handed out twice: that caller gets a fresh one. Internal statements (pragma,
 * transactions) don't pass through this method.
 */
function cachePreparedStatements(sqlite: BetterSqlite3.Database, max = 1000): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, BetterSqlite3.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const stmt = prepare(source);
    if (!cached) {
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(source, stmt);
    }
    return stmt;
  }) as typeof sqlite.prepare;
}

/**
 * SQLite transactions start with BEGIN IMMEDIATE: they take the write lock first, waiting up to
 * busy_timeout for it. A plain (deferred) BEGIN reads first and fails at its first write with
 * SQLITE_BUSY_SNAPSHOT, at once and whatever the busy timeout, when another process (a worker,
 * the admin CLI) committed in between: a reservation read the balance, then could not write.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly sqliteConfig: SqliteDialectConfig) {
    super(sqliteConfig);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.sqliteConfig);
  }
}

/** Postgres pool defaults (SIGHTLINE_DB_POOL_MAX, SIGHTLINE_DB_POOL_WAIT_MS, SIGHTLINE_DB_CONNECT_TIMEOUT_MS; docs/operating.md, "Postgres"). */
export const DEFAULT_POOL: PoolOptions = { max: 10, waitMs: 3000, connectMs: 10_000 };

export interface OpenOptions {
  pool?: Partial<PoolOptions>;
  /** SQLite file: open only one that exists (SQLITE_CANTOPEN otherwise), never create it or its folder. */
  mustExist?: boolean;
  /** Postgres: told of lost connections and retries (see resilience.ts). */
  onDatabaseEvent?: ResilienceOptions['onEvent'];
  /** SQLite file: WAL checkpoints on a thread of their own, off the event loop (checkpointer.ts); for the service. */
  checkpointInBackground?: boolean;
}

export function openDatabase(url: string, opts: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // Every client carries an error listener, reads and uncommitted transactions are retried on a
    // lost connection, the rest answers 503 (resilience.ts).
    const { db, pool } = openResilientPostgres<Database>(pg.Pool, url, { ...DEFAULT_POOL, ...opts.pool }, { onEvent: opts.onDatabaseEvent });
    return { db, dialect: 'postgres', pgPool: pool, close: () => db.destroy() };
  }
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    const file = path === ':memory:' ? ':memory:' : resolve(path);
    if (file !== ':memory:' && !opts.mustExist) mkdirSync(dirname(file), { recursive: true });
    const sqlite = new BetterSqlite3(file, { fileMustExist: opts.mustExist === true && file !== ':memory:' });
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Other processes (a separate worker) may hold the write lock briefly.
    sqlite.pragma('busy_timeout = 5000');
    const watchTables = tableWatcher(sqlite);
    cachePreparedStatements(sqlite);
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
    const readNow: ReadNow = (sqlText, params) =>
      sqlite.inTransaction ? undefined : (sqlite.prepare(sqlText).all(...params) as Record<string, unknown>[]);
    const writeAll = sqlite.transaction((statements: Parameters<WriteNow>[0]) => {
      for (const s of statements) sqlite.prepare(s.sql).run(s.params as unknown[]);
    });
    const writeNow: WriteNow = (statements) => {
      if (sqlite.inTransaction) return false;
      writeAll.immediate(statements);
      return true;
    };
    const stopCheckpoints = opts.checkpointInBackground && file !== ':memory:' ? checkpointInBackground(sqlite, file) : undefined;
    const close = async () => {
      await stopCheckpoints?.();
      await db.destroy();
    };
    return { db, dialect: 'sqlite', sqlite, readNow, writeNow, watchTables, close };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${JSON.stringify(url.split(':')[0])})`);
}
