// The database half of the composition root: opens the database with the configured pool, applies
// pending migrations and, on Postgres, makes this process announce key and account changes to the
// others (NOTIFY) and, with `listen`, hear theirs (LISTEN, clearing its key cache). openRuntime
// (./runtime.ts) builds the engine on top of it; the operator commands that only read and write
// accounts, keys and credits open this alone, so they do not load the engine (platform drivers,
// page pipeline, analysis, workers): about 0.6 s of CPU less per command.
import type { Config } from '../config.ts';
import { clearAuthCache, shareAuthChanges } from '../core/accounts/accounts.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { AUTH_CHANNEL, listenChannel, notifyChannel, type ChannelListener } from '../db/notify.ts';
import { storeOf, type Store } from '../db/store.ts';

export interface OpenedDatabase {
  handle: DatabaseHandle;
  store: Store;
  config: Config;
  close(): Promise<void>;
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
  } = {},
): Promise<OpenedDatabase> {
  const handle = openDatabase(config.DATABASE_URL, {
    pool: { max: config.SIGHTLINE_DB_POOL_MAX, waitMs: config.SIGHTLINE_DB_POOL_WAIT_MS, connectMs: config.SIGHTLINE_DB_CONNECT_TIMEOUT_MS },
    checkpointInBackground: opts.checkpointInBackground,
    onDatabaseEvent: opts.onDatabaseEvent,
  });
  if (opts.migrate !== false) await migrateToLatest(handle.db);
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
    async close() {
      await authListener?.close();
      await handle.close();
    },
  };
}
