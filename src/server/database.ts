// The database half of the composition root: opens the database with the configured pool, applies
// pending migrations and, on Postgres, makes this process announce key and account changes to the
// others (NOTIFY) and, with `listen`, hear theirs (LISTEN, clearing its key cache). openRuntime
// (./runtime.ts) builds the engine on top of it; the operator commands that only read and write
// accounts, keys and credits open this alone, so they do not load the engine (platform drivers,
// page pipeline, analysis, workers): about 0.6 s of CPU less per command.
import type { Config } from '../config.ts';
import { clearAuthCache, shareAuthChanges } from '../core/accounts/accounts.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from '../db/connection.ts';
import { appliedMigrationCount, migrateToLatest } from '../db/migrations.ts';
import { AUTH_CHANNEL, listenChannel, notifyChannel, type ChannelListener } from '../db/notify.ts';
import { storeOf, type Store } from '../db/store.ts';

export interface OpenedDatabase {
  handle: DatabaseHandle;
  store: Store;
  config: Config;
  /** The migrations this open applied (none when the database was up to date or `migrate` was false). */
  migrated: string[];
  close(): Promise<void>;
}

/**
 * The database is not one sightline has set up: no such SQLite file, or no migration applied. A
 * command that acts on existing accounts refuses it rather than create and migrate an empty one
 * (a DATABASE_URL or SIGHTLINE_DATA_DIR pointing somewhere else than the server's).
 */
export class DatabaseNotSetUp extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'DatabaseNotSetUp';
  }
}

export async function openConfiguredDatabase(
  config: Config,
  opts: {
    migrate?: boolean;
    /** Postgres: hear the other processes' key and account changes (a server or worker does). */
    listen?: boolean;
    onDatabaseEvent?: OpenOptions['onDatabaseEvent'];
    /** SQLite file: WAL checkpoints on a thread of their own (the service's; see connection.ts). */
    checkpointInBackground?: boolean;
    onListenError?: (err: unknown) => void;
    /** Only a database sightline has set up (see DatabaseNotSetUp): never creates or first-migrates one. */
    existing?: boolean;
  } = {},
): Promise<OpenedDatabase> {
  let handle: DatabaseHandle;
  try {
    handle = openDatabase(config.DATABASE_URL, {
      pool: { max: config.SIGHTLINE_DB_POOL_MAX, waitMs: config.SIGHTLINE_DB_POOL_WAIT_MS, connectMs: config.SIGHTLINE_DB_CONNECT_TIMEOUT_MS },
      checkpointInBackground: opts.checkpointInBackground,
      onDatabaseEvent: opts.onDatabaseEvent,
      mustExist: opts.existing,
    });
  } catch (err) {
    if (opts.existing && (err as { code?: string }).code === 'SQLITE_CANTOPEN') throw new DatabaseNotSetUp('the file does not exist');
    throw err;
  }
  if (opts.existing) {
    let applied: number;
    try {
      applied = await appliedMigrationCount(handle.db);
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
    if (applied === 0) {
      await handle.close();
      throw new DatabaseNotSetUp('it holds no sightline data (no migration applied)');
    }
  }
  const migrated = opts.migrate !== false ? await migrateToLatest(handle.db) : [];
  // Postgres: revocations and suspensions reach every process's key cache at once (accounts.ts).
  let authListener: ChannelListener | undefined;
  if (handle.dialect === 'postgres') {
    shareAuthChanges(handle.db, () => notifyChannel(handle.db, AUTH_CHANNEL));
    if (opts.listen) {
      authListener = listenChannel(config.DATABASE_URL, AUTH_CHANNEL, () => clearAuthCache(handle.db), { onError: opts.onListenError });
      await authListener.ready;
    }
  }
  return {
    handle,
    store: storeOf(handle),
    config,
    migrated,
    async close() {
      await authListener?.close();
      await handle.close();
    },
  };
}
