// Postgres LISTEN/NOTIFY between the processes of one deployment: a process that changes
// something others cache (a key revoked, an account suspended) announces it on a channel, and
// every process listening drops its cache at once instead of when the cache's TTL runs out.
// The one thing to know: a listener holds a connection of its own (outside the pool, which would
// hand it back with the LISTEN still on it); when that connection drops, it reconnects and calls
// `onNotify` once more after each (re)connect, since anything announced in between was missed.
import { sql, type Kysely } from 'kysely';
import pg from 'pg';

/** Keys revoked or accounts suspended or reinstated: authentication caches are stale. */
export const AUTH_CHANNEL = 'sightline_auth';

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** Announces on a channel; delivered to listeners when the surrounding transaction (if any) commits. */
export async function notifyChannel(db: Kysely<any>, channel: string): Promise<void> {
  await sql`select pg_notify(${channel}, '')`.execute(db);
}

export interface ChannelListener {
  /** Settles once the first LISTEN is in place (or its first attempt failed; it keeps retrying). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function listenChannel(
  url: string,
  channel: string,
  onNotify: () => void,
  opts: { retryMs?: number; onError?: (err: unknown) => void } = {},
): ChannelListener {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const retryMs = opts.retryMs ?? 1000;
  let closed = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const start = (): Promise<void> => {
    if (closed) return Promise.resolve();
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    current = client;
    let failed = false;
    const fail = (err?: unknown) => {
      if (failed) return;
      failed = true;
      client.end().catch(() => {});
      if (closed) return;
      if (err) opts.onError?.(err);
      timer = setTimeout(start, retryMs);
      timer.unref();
    };
    client.on('notification', (msg) => {
      if (msg.channel === channel) onNotify();
    });
    client.on('error', fail);
    client.on('end', () => fail());
    return client
      .connect()
      .then(() => client.query(`listen ${channel}`))
      .then(() => onNotify(), fail);
  };

  const ready = start();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      await current?.end().catch(() => {});
    },
  };
}
