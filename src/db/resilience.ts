// Surviving Postgres connection loss (a failover, a restart, pg_terminate_backend, a network
// blip) and pool exhaustion. The one thing to know: a statement is retried only when running it
// again cannot do anything twice: a read outside a transaction (on a fresh connection), or a whole
// transaction whose COMMIT was never sent (the server rolled it back when the connection died).
// Anything else, and a retry that fails too, surfaces as DatabaseUnavailableError, which every
// surface answers as 503 `database_unavailable` with Retry-After, never as a 500.
//
// Every pooled client carries an 'error' listener from the moment it connects, in use or idle:
// pg emits 'error' on a client whose server went away, and without a listener that event kills
// the process (pg-pool only listens on idle clients).
import { type CompiledQuery, Kysely, PostgresDialect, PostgresDriver, type DatabaseConnection, type Driver, type KyselyConfig, type PostgresDialectConfig, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';

/** SQLSTATEs and socket errors that mean the connection (or the server) is gone, not the query wrong. */
const LOST_CODES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '08000', '08001', '08003', '08004', '08006', '08007', // connection_exception class
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
]);
/**
 * SQLSTATEs a server answers a new connection with while it cannot take one: the database does
 * not allow connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`, 55000), does not exist (a
 * restore in progress, 3D000), or refuses the credentials (a password rotated under the process,
 * 28P01/28000). Unavailable, retry, from where the request stands: the operator fixes it, the
 * process needs no restart. Only when opening a connection: 55000 on a query means something else.
 */
const CONNECT_CODES = new Set(['55000', '3D000', '28P01', '28000', 'ENOTFOUND']);
const LOST_MESSAGE =
  /pool exhausted|is not currently accepting connections|Connection terminated|Connection ended unexpectedly|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|terminating connection|sorry, too many clients|the database system is (starting up|shutting down|in recovery mode)|write after end/i;

/** The pool had no free connection within SIGHTLINE_DB_POOL_WAIT_MS (see WaitingPool). */
const POOL_TIMEOUT = /pool exhausted|timeout exceeded when trying to connect/i;

/** Opening a connection failed in a way that means the database is unavailable for now. */
function isConnectFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return isConnectionLost(err) || (typeof code === 'string' && CONNECT_CODES.has(code));
}

export function isConnectionLost(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && LOST_CODES.has(e.code)) return true;
  return typeof e.message === 'string' && LOST_MESSAGE.test(e.message);
}

export class DatabaseUnavailableError extends Error {
  readonly code = 'database_unavailable';
  constructor(
    readonly cause: unknown,
    /** The COMMIT was sent and its answer lost: the transaction may have committed, so it is not retried. */
    readonly commitUncertain = false,
    /** No connection came free in time (every one in use): retrying would only wait again. */
    readonly poolExhausted = false,
  ) {
    super(`database unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return err instanceof DatabaseUnavailableError || isConnectionLost(err);
}

/**
 * SQLSTATEs of credentials the server refused: invalid_password (28P01) and
 * invalid_authorization_specification (28000: no such role, a role that may not log in, no
 * pg_hba.conf entry for this client).
 */
const AUTH_CODES = new Set(['28P01', '28000']);

/**
 * The SQLSTATE when the database is unavailable because it refused this process's credentials
 * (err, or the error it wraps); else undefined. Clients get the 503 database_unavailable of any
 * outage; the operator is told this one apart (authenticationFailure), because waiting will not
 * clear it: DATABASE_URL, or the role on the server, must be fixed.
 */
export function refusedCredentialsCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && AUTH_CODES.has(e.code)) return e.code;
  }
  return undefined;
}

/**
 * What the operator reads (log lines, /readyz) about refused credentials: the reason and the
 * setting to fix, never the password (the server's words name the user at most); undefined for
 * any other failure.
 */
export function authenticationFailure(err: unknown): { reason: 'authentication_failed'; message: string } | undefined {
  const code = refusedCredentialsCode(err);
  if (!code) return undefined;
  return {
    reason: 'authentication_failed',
    message: `authentication failed: the database refused the credentials of DATABASE_URL (SQLSTATE ${code}); fix the user name or password there, or the role on the database server. Requests answer 503 until then; no restart is needed after.`,
  };
}

/** The operator's log line for an unavailable database: its fields and message, saying when the credentials were refused. */
export function unavailableLogLine(err: unknown): { fields: { reason?: string }; msg: string } {
  const refused = authenticationFailure(err);
  return refused ? { fields: { reason: refused.reason }, msg: `database unavailable: ${refused.message}` } : { fields: {}, msg: 'database unavailable' };
}

export interface ResilienceOptions {
  /** Attempts of a retryable read or transaction (first one included). */
  attempts?: number;
  /** Delay before the first retry; doubles each time. */
  backoffMs?: number;
  /** Told of every connection lost and every retry (logs and metrics). */
  onEvent?: (event: 'connection_error' | 'retry' | 'unavailable', err: unknown) => void;
}

const READ_SQL = /^\s*(\(\s*)*(select|with\s+(?![\s\S]*\b(insert|update|delete)\b))/i;

function unavailable(err: unknown, commitUncertain = false): DatabaseUnavailableError {
  if (err instanceof DatabaseUnavailableError) return err;
  return new DatabaseUnavailableError(err, commitUncertain, POOL_TIMEOUT.test((err as Error)?.message ?? ''));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Kysely's Postgres driver, plus retries of reads on a fresh connection and typed unavailability. */
class ResilientPostgresDriver extends PostgresDriver {
  /** Connections with a transaction open: their statements are never retried one by one. */
  private readonly inTransaction = new WeakSet<DatabaseConnection>();

  constructor(config: PostgresDialectConfig, private readonly opts: Required<Omit<ResilienceOptions, 'onEvent'>> & ResilienceOptions) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    let connection: DatabaseConnection;
    try {
      connection = await super.acquireConnection();
    } catch (err) {
      throw isConnectFailure(err) ? unavailable(err) : err;
    }
    return this.wrap(connection);
  }

  /** The same connection, whose executeQuery retries reads outside transactions. */
  private wrap(connection: DatabaseConnection): DatabaseConnection {
    const wrapped = wrappers.get(connection);
    if (wrapped) return wrapped;
    const driver = this;
    const w: DatabaseConnection = {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        try {
          return await connection.executeQuery<R>(query);
        } catch (err) {
          if (!isConnectionLost(err)) throw err;
          driver.opts.onEvent?.('connection_error', err);
          if (driver.inTransaction.has(w) || !READ_SQL.test(query.sql)) throw unavailable(err);
          return driver.retryRead<R>(query, err);
        }
      },
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    wrappers.set(connection, w);
    inner.set(w, connection);
    return w;
  }

  private async retryRead<R>(query: CompiledQuery, first: unknown): Promise<QueryResult<R>> {
    let last = first;
    for (let attempt = 1; attempt < this.opts.attempts; attempt++) {
      await sleep(this.opts.backoffMs * 2 ** (attempt - 1));
      this.opts.onEvent?.('retry', last);
      let conn: DatabaseConnection | undefined;
      try {
        conn = await super.acquireConnection();
        return await conn.executeQuery<R>(query);
      } catch (err) {
        if (!(conn ? isConnectionLost(err) : isConnectFailure(err))) throw err;
        last = err;
      } finally {
        if (conn) await super.releaseConnection(conn as never);
      }
    }
    throw unavailable(last);
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.inTransaction.add(connection);
    await super.beginTransaction(connection, settings);
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } catch (err) {
      if (!isConnectionLost(err)) throw err;
      throw new DatabaseUnavailableError(err instanceof DatabaseUnavailableError ? err.cause : err, true);
    } finally {
      this.inTransaction.delete(connection);
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.inTransaction.delete(connection);
    try {
      await super.rollbackTransaction(connection);
    } catch (err) {
      // The server rolls back a transaction whose connection died; the first error is the one to report.
      if (!isConnectionLost(err)) throw err;
    }
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await super.releaseConnection((inner.get(connection) ?? connection) as never);
  }
}

const wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();

class ResilientPostgresDialect extends PostgresDialect {
  constructor(private readonly config: PostgresDialectConfig, private readonly opts: ResilienceOptions) {
    super(config);
  }
  override createDriver(): Driver {
    return new ResilientPostgresDriver(this.config, { attempts: 3, backoffMs: 100, ...this.opts });
  }
}

/**
 * Kysely whose `transaction().execute(fn)` runs fn again, on a fresh connection, when the
 * connection died before COMMIT was sent: the server rolled the first attempt back, so nothing
 * happened twice. fn must only touch the database (it may run more than once).
 */
export class ResilientKysely<DB> extends Kysely<DB> {
  constructor(config: KyselyConfig, private readonly retry: Required<Omit<ResilienceOptions, 'onEvent'>> & ResilienceOptions) {
    super(config);
  }

  override transaction() {
    const builder = super.transaction();
    const execute = builder.execute.bind(builder);
    const { attempts, backoffMs, onEvent } = this.retry;
    builder.execute = async <T>(callback: Parameters<typeof execute<T>>[0]): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await execute(callback);
        } catch (err) {
          if (!isConnectionLost(err)) throw err;
          const u = unavailable(err);
          if (u.commitUncertain || u.poolExhausted || attempt >= attempts) {
            onEvent?.('unavailable', err);
            throw u;
          }
          onEvent?.('retry', err);
          await sleep(backoffMs * 2 ** (attempt - 1));
        }
      }
    };
    return builder;
  }
}

export interface PoolOptions {
  /** Connections per process (SIGHTLINE_DB_POOL_MAX). */
  max: number;
  /** How long a query waits for a free connection before 503 (SIGHTLINE_DB_POOL_WAIT_MS). */
  waitMs: number;
  /** How long opening one new connection may take (SIGHTLINE_DB_CONNECT_TIMEOUT_MS). */
  connectMs: number;
}

/**
 * pg-pool has one `connectionTimeoutMillis` for two different waits: a checkout waiting for a
 * busy pool to free a connection, and opening a new connection to the server. Here the first is
 * `waitMs` and the second `connectMs` (a 50 ms wait for a free connection must not make every
 * connection to a server 60 ms away fail): newClient, which reads the option synchronously (for
 * the client it constructs and the timer it starts), sees connectMs. A checkout that waited out
 * waitMs fails with a message that says the pool was exhausted, not a network timeout.
 */
function waitingPool(PgPool: typeof pg.Pool, pool: PoolOptions): typeof pg.Pool {
  return class WaitingPool extends PgPool {
    newClient(...args: unknown[]): unknown {
      const options = (this as unknown as { options: { connectionTimeoutMillis?: number } }).options;
      const wait = options.connectionTimeoutMillis;
      options.connectionTimeoutMillis = pool.connectMs;
      try {
        return (PgPool.prototype as unknown as { newClient: (...a: unknown[]) => unknown }).newClient.apply(this, args);
      } finally {
        options.connectionTimeoutMillis = wait;
      }
    }
    override connect(...args: unknown[]): never {
      const done = args[0] as ((err: Error | undefined, ...rest: unknown[]) => void) | undefined;
      const rename = (err: Error) =>
        POOL_TIMEOUT.test(err?.message ?? '')
          ? Object.assign(new Error(`pool exhausted: all ${pool.max} connections (SIGHTLINE_DB_POOL_MAX) stayed in use for ${pool.waitMs} ms (SIGHTLINE_DB_POOL_WAIT_MS)`), { code: 'POOL_EXHAUSTED' })
          : err;
      if (typeof done === 'function') return super.connect((err, ...rest) => done(err ? rename(err) : err, ...rest)) as never;
      return super.connect().catch((err: Error) => Promise.reject(rename(err))) as never;
    }
  } as unknown as typeof pg.Pool;
}

/** A pg pool whose clients never crash the process, and the Kysely instance over it. */
export function openResilientPostgres<DB>(
  PgPool: typeof pg.Pool,
  url: string,
  pool: PoolOptions,
  opts: ResilienceOptions = {},
): { db: Kysely<DB>; pool: pg.Pool } {
  const Pool = waitingPool(PgPool, pool);
  const p = new Pool({
    connectionString: url,
    max: pool.max,
    // The wait for a free connection; opening one gets pool.connectMs (waitingPool).
    connectionTimeoutMillis: pool.waitMs,
    idleTimeoutMillis: 30_000,
    // TCP keepalive, so a connection to a server that vanished without a FIN is noticed.
    keepAlive: true,
  });
  const onError = (err: unknown) => opts.onEvent?.('connection_error', err);
  // Idle clients: pg-pool emits their errors on the pool (and drops them).
  p.on('error', onError);
  // Every client, for its whole life: a client in use emits 'error' itself when its server goes.
  p.on('connect', (client) => client.on('error', onError));
  const dialect = new ResilientPostgresDialect({ pool: p }, opts);
  const db = new ResilientKysely<DB>({ dialect }, { attempts: 3, backoffMs: 100, ...opts });
  return { db, pool: p };
}
