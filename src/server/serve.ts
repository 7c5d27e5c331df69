// `sightline serve` and `sightline worker`: long-running processes with graceful shutdown.
// serve binds its port before anything else starts: a port that is taken ends the process with
// exit code 1 and no worker running. SIGTERM/SIGINT stop accepting requests and claiming jobs,
// give running requests and jobs SIGHTLINE_SHUTDOWN_GRACE_MS to finish (then abort them: their
// jobs go back to the queue and their credits stay reserved for the next worker), log it, and exit.
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';
import { buildApp } from './app.ts';
import { createKeyRateLimiter } from '../web/rate-limit.ts';
import { inFlightRequests } from '../web/errors.ts';
import { startMetricsServer } from '../ops/metrics-server.ts';
import { describePlatforms, openRuntime, type Runtime } from './runtime.ts';
import { consolePublicUrl, issueSetupToken, needsOwner } from '../core/accounts/users.ts';
import { behindProxy } from '../web/local-client.ts';
import { keysToCheck, startKeyCheck } from './key-check.ts';

function processLogger(config: Config, role: 'serve' | 'worker'): Logger {
  return pino({ level: config.SIGHTLINE_LOG_LEVEL, base: { pid: process.pid, role } });
}

/**
 * Takes SIGINT and SIGTERM from now on and answers `arm(fn)`: a signal before the process can
 * shut down gracefully waits for arm (which runs it at once), never the default kill. The
 * listeners go in first because a signal with none ends the process where it stands: a SIGTERM
 * just after "Server listening" was logged, before listen's promise resumed serve, did.
 */
function onShutdown(log: Logger, graceMs: number): (fn: (signal: string) => Promise<void>) => void {
  let stopping = false;
  let fn: ((signal: string) => Promise<void>) | undefined;
  let pending: string | undefined;
  const handler = (signal: string) => {
    if (!fn) {
      if (pending) return;
      pending = signal;
      // A start-up that never arms (it hangs on the database, say) must not leave a process that
      // ignores every signal: past the grace it ends as a shutdown that did not finish does.
      setTimeout(() => {
        if (fn) return;
        log.error({ signal }, 'shutdown requested during start-up, which did not finish in time; exiting');
        process.exit(1);
      }, graceMs + 5000).unref();
      return;
    }
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    log.info({ signal, grace_ms: graceMs }, 'shutdown started: no new requests or jobs');
    // A shutdown that hangs past its grace (a stuck socket, a database that does not answer) still ends.
    setTimeout(() => {
      log.error({ signal }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, graceMs + 5000).unref();
    fn(signal).then(
      () => {
        log.info({ ms: Date.now() - started }, 'shutdown complete');
        process.exit(0);
      },
      (err) => {
        log.error({ error: (err as Error)?.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
  return (shutdown) => {
    fn = shutdown;
    if (pending) handler(pending);
  };
}

/** The metrics listener when configured (undefined when not); null when its port cannot be bound, said in the log. */
async function metricsServer(config: Config, log: Logger): Promise<Server | undefined | null> {
  if (!config.SIGHTLINE_METRICS_PORT) return undefined;
  const where = { port: config.SIGHTLINE_METRICS_PORT, host: config.SIGHTLINE_METRICS_HOST };
  try {
    const server = await startMetricsServer(where.port, where.host);
    log.info(where, 'metrics listening');
    return server;
  } catch (err) {
    log.fatal({ ...where, error: (err as Error).message }, 'cannot listen for metrics (SIGHTLINE_METRICS_PORT); exiting');
    return null;
  }
}

/** Stops the runtime's worker within the grace period, saying how many jobs were still running. */
async function stopJobs(runtime: Runtime, log: Logger, graceMs: number) {
  const running = runtime.core.startedWorker?.activeCount ?? 0;
  if (running) log.info({ running_jobs: running }, 'waiting for running jobs');
  await runtime.core.stopWorker({ graceMs });
}

/** How long aborted requests' 503s get to reach their clients before their connections are cut. */
const ABORT_FLUSH_MS = 1000;

/**
 * Stops accepting connections and gives the requests in flight the grace period; those still
 * running then are answered 503 `shutting_down` and their connections closed. Resolves once no
 * request is left to answer. The handler of an aborted request is not stopped: its next database
 * call after the runtime closes fails, and its open transaction rolls back, as after a crash (a
 * paid action left reserved is released by the action sweep).
 */
async function closeHttp(app: FastifyInstance, log: Logger, graceMs: number): Promise<void> {
  const inFlight = inFlightRequests(app);
  const running = inFlight?.count() ?? 0;
  if (running) log.info({ running_requests: running }, 'waiting for running requests');
  inFlight?.refuseNew();
  const closed = app.close();
  const within = (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([closed.then(() => true), new Promise<false>((r) => (timer = setTimeout(() => r(false), ms)))]).finally(() => clearTimeout(timer));
  };
  if (await within(graceMs)) return;
  const aborted = inFlight?.abort() ?? 0;
  log.warn({ aborted_requests: aborted }, 'grace period over: requests still running were answered 503 shutting_down');
  if (await within(ABORT_FLUSH_MS)) return;
  app.server.closeAllConnections();
  await closed;
}

/** The start line's platform fields: engine, and in live mode which platforms can answer and which lack credentials. */
function platformFields(runtime: Runtime) {
  const { engine, available, unconfigured } = runtime.platforms;
  return engine === 'live' ? { engine, platforms: available, platforms_without_credentials: unconfigured.map((u) => u.platform) } : { engine };
}

export async function runServe(config: Config, opts: { worker: boolean }): Promise<number> {
  const log = processLogger(config, 'serve');
  const armShutdown = onShutdown(log, config.SIGHTLINE_SHUTDOWN_GRACE_MS);
  const runtime = await openRuntime(config, { log });
  const rateLimiter = await createKeyRateLimiter({
    perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE,
    handle: runtime.handle,
    redisUrl: config.SIGHTLINE_REDIS_URL,
    log,
  });
  const app = await buildApp({ core: runtime.core, rateLimiter, logger: { level: config.SIGHTLINE_LOG_LEVEL } });
  // Bind first: a serve that cannot listen must not keep running as a hidden worker.
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    log.fatal({ error: (err as Error).message, port: config.PORT, host: config.HOST }, 'cannot listen; exiting');
    await app.close().catch(() => {});
    await rateLimiter.close();
    await runtime.close();
    return 1;
  }
  // A metrics port that cannot be bound ends the start like the API's port, before any job runs.
  const metrics = await metricsServer(config, log);
  if (metrics === null) {
    await app.close().catch(() => {});
    await rateLimiter.close();
    await runtime.close();
    return 1;
  }
  // Shutdown is armed once the ports are bound: a SIGTERM that arrived before is a graceful
  // shutdown too, not the default kill. The worker starts first (synchronously, nothing awaited in
  // between): a shutdown armed with a signal already pending then stops it rather than running
  // before it exists.
  if (opts.worker) runtime.core.startWorker();
  // The provider keys are tried once listening, in the background: readiness never waits for a provider.
  const keyCheck = startKeyCheck(config, log);
  const graceMs = config.SIGHTLINE_SHUTDOWN_GRACE_MS;
  armShutdown(async () => {
    keyCheck.stop();
    // Stop accepting and claiming; requests and jobs get the grace period, then are stopped (a
    // request answered 503, a job handed back). Only then close the database they use.
    await Promise.all([closeHttp(app, log, graceMs), stopJobs(runtime, log, graceMs)]);
    metrics?.close();
    await rateLimiter.close();
    await runtime.close({ graceMs });
  });
  // What this process is, in one line (the worker says its own): database, and whether jobs and
  // scheduled runs happen here or in separate `sightline worker` processes.
  const dialect = runtime.core.store.dialect;
  const scheduler = opts.worker && config.SIGHTLINE_SCHEDULER_INTERVAL_MS > 0;
  log.info({ database: dialect, worker: opts.worker, scheduler, ...platformFields(runtime) }, 'serve started');
  process.stderr.write(
    `sightline serve started (${dialect}; ${opts.worker ? `worker${scheduler ? ' and scheduler' : ', no scheduler'} in this process` : 'API only: jobs and schedules run in `sightline worker` processes'})\n` +
      `${describePlatforms(runtime.platforms, config.SIGHTLINE_JUDGE_MODEL, keysToCheck(config))}\n`,
  );
  const bound = app.server.address();
  await printFirstSteps(runtime, { ...config, PORT: typeof bound === 'object' && bound ? bound.port : config.PORT });
  return -1;
}

/**
 * While the instance has no owner: a fresh set-up link (src/core/accounts/users.ts issueSetupToken)
 * for setting it up from another machine; on this one, /console needs no token unless the instance
 * runs behind a proxy (then the link is needed from everywhere). Only a hint: a
 * shutdown that already closed the database skips it.
 */
async function printFirstSteps(runtime: Runtime, config: Config) {
  const db = runtime.core.store.db;
  try {
    if (!(await needsOwner(db))) return;
    const token = await issueSetupToken(db);
    const base = consolePublicUrl(config).replace(/\/+$/, '');
    const noAccounts = (await db.selectFrom('accounts').select('id').limit(1).execute()).length === 0;
    // Behind a proxy (src/web/local-client.ts) no request is local: the link is the only way.
    const intro = behindProxy(config)
      ? 'No owner yet. This instance runs behind a proxy (SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY is set), so creating the owner account needs this one-time set-up link, from any machine; it ends once the owner exists:\n'
      : `No owner yet. On this machine, open http://localhost:${config.PORT}/console to create the owner account.\n` +
        "From another machine, use this one-time set-up link (this server's address in place of localhost); it ends once the owner exists:\n";
    process.stderr.write(
      `\n${intro}` +
        `  ${base}/console#setup=${token}\n` +
        (noAccounts ? 'Or create an account on the command line (prints an API key once):\n  npx sightline accounts create --email you@example.com --credits 100\n' : '') +
        '\n',
    );
  } catch {
    // The database closed under a shutdown: nothing to print.
  }
}

export async function runWorker(config: Config): Promise<number> {
  const log = processLogger(config, 'worker');
  const armShutdown = onShutdown(log, config.SIGHTLINE_SHUTDOWN_GRACE_MS);
  const runtime = await openRuntime(config, { log });
  const metrics = await metricsServer(config, log);
  if (metrics === null) {
    await runtime.close();
    return 1;
  }
  // Probes run here: the keys this process holds are tried as serve's are (in the background).
  const keyCheck = startKeyCheck(config, log);
  armShutdown(async () => {
    keyCheck.stop();
    await stopJobs(runtime, log, config.SIGHTLINE_SHUTDOWN_GRACE_MS);
    metrics?.close();
    await runtime.close();
  });
  runtime.core.startWorker();
  log.info({ database: runtime.core.store.dialect, ...platformFields(runtime) }, 'worker started');
  process.stderr.write(`sightline worker started (${runtime.core.store.dialect})\n${describePlatforms(runtime.platforms, config.SIGHTLINE_JUDGE_MODEL, keysToCheck(config))}\n`);
  return -1;
}
