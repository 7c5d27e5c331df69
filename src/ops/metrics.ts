// Prometheus metrics (prom-client) for one process: HTTP requests per route, job outcomes,
// provider calls, database connection events, and gauges read from the database at scrape time
// (queue depth and age per lane, credit totals, pool use). The one thing to know: the registry
// is one per process (prom-client names are process-global), so the database gauges read the
// store attached last (the process's own; tests that build several servers see the newest).
// Every process reads them, a worker or not (an API process has the same queue to report),
// at most once per QUEUE_READ_CACHE_MS.
import client from 'prom-client';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Store } from '../db/store.ts';

export interface Metrics {
  registry: client.Registry;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  jobOutcome(kind: string, lane: string, outcome: string, seconds: number): void;
  providerCall(platform: string, outcome: string, seconds: number): void;
  databaseEvent(event: string): void;
  /**
   * What is known of a provider key (`openai`, …, `serpapi`, `dataforseo`): the status of the last
   * check (src/server/key-check.ts) or of the last probe the provider answered or refused.
   */
  providerKey(provider: string, status: string): void;
  /** Rows a retention sweep removed from `table` (core/retention.ts). */
  retentionRemoved(table: string, rows: number): void;
  /**
   * Where the database gauges are read from (the process's store and its pg pool, if any), and the
   * lanes the queue gauges always report (0 when empty), so every process, with a worker or not,
   * has a sample per lane.
   */
  attach(store: Store, pool?: pg.Pool, lanes?: readonly string[]): void;
  render(): Promise<string>;
  contentType: string;
}

/** How long a read of the queue and credit gauges is reused (a scrape every second or more costs one query). */
export const QUEUE_READ_CACHE_MS = 1000;

let singleton: Metrics | undefined;

export function getMetrics(): Metrics {
  singleton ??= createMetrics();
  return singleton;
}

function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  let store: Store | undefined;
  let pool: pg.Pool | undefined;
  let knownLanes: readonly string[] = [];
  /** The queue and credit gauges are read at most once per QUEUE_READ_CACHE_MS: many scrapers cost one query. */
  let lastRead = 0;
  let reading: Promise<void> | null = null;

  const requests = new client.Counter({ name: 'sightline_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
    new client.Histogram({ name, help, labelNames, buckets, registers: [registry] });
  const latency = histogram('sightline_http_request_duration_seconds', 'HTTP request latency by route', ['method', 'route'], [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]);
  const jobs = new client.Counter({ name: 'sightline_jobs_total', help: 'Job outcomes (done, retry, gave_up, timeout, lease_lost, released)', labelNames: ['kind', 'lane', 'outcome'], registers: [registry] });
  const jobSeconds = histogram('sightline_job_duration_seconds', 'Job run time by kind and outcome', ['kind', 'outcome'], [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]);
  const provider = histogram(
    'sightline_provider_call_duration_seconds',
    'AI platform calls (retries included) by platform and outcome (ok or the error code)',
    ['platform', 'outcome'],
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  );
  const retention = new client.Counter({
    name: 'sightline_retention_removed_rows_total',
    help: 'Rows the retention sweep removed, by table (jobs, webhook_messages, webhook_attempts, webhook_events, site_log_lines, activity, removed_users, sessions, auth_tokens, login_throttle)',
    labelNames: ['table'],
    registers: [registry],
  });
  const dbEvents = new client.Counter({ name: 'sightline_db_events_total', help: 'Lost database connections, retries, and unavailable answers', labelNames: ['event'], registers: [registry] });

  const queueDepth = new client.Gauge({ name: 'sightline_queue_depth', help: 'Queued jobs per lane', labelNames: ['lane'], registers: [registry] });
  const queueAge = new client.Gauge({ name: 'sightline_queue_oldest_age_seconds', help: 'Age of the oldest queued job per lane', labelNames: ['lane'], registers: [registry] });
  const running = new client.Gauge({ name: 'sightline_jobs_running', help: 'Jobs running per lane (all workers)', labelNames: ['lane'], registers: [registry] });
  const credits = new client.Gauge({
    name: 'sightline_credits_hundredths',
    help: 'Credit totals over all accounts, in hundredths: granted, reserved, settled, released',
    labelNames: ['state'],
    registers: [registry],
  });
  // One series per provider, valued 1, whose label is the latest status (a state set, as
  // kube_pod_status_phase): an alert matches on the status, a dashboard shows it as is.
  const providerKey = new client.Gauge({
    name: 'sightline_provider_key_status',
    help: 'Provider key state (1 on the current status): ok, key_refused, endpoint_unknown, unreachable, unexpected, not_checkable',
    labelNames: ['provider', 'status'],
    registers: [registry],
  });
  const keyStatus = new Map<string, string>();
  const poolGauge = new client.Gauge({ name: 'sightline_db_pool_connections', help: 'Postgres pool: total, idle, waiting', labelNames: ['state'], registers: [registry] });

  /** Reads the database gauges; a database that does not answer leaves them as they were. */
  async function collectFromDatabase(): Promise<void> {
    if (pool) {
      poolGauge.set({ state: 'total' }, pool.totalCount);
      poolGauge.set({ state: 'idle' }, pool.idleCount);
      poolGauge.set({ state: 'waiting' }, pool.waitingCount);
    }
    if (!store) return;
    if (Date.now() - lastRead < QUEUE_READ_CACHE_MS) return;
    reading ??= readQueueAndCredits(store).finally(() => {
      lastRead = Date.now();
      reading = null;
    });
    await reading;
  }

  async function readQueueAndCredits(store: Store): Promise<void> {
    try {
      // One select per status: each walks its partial index (jobs_queued_ready, jobs_running), not the table.
      const { rows: lanes } = await sql<{ lane: string; status: string; n: number | string; oldest: string | null }>`
        select lane, 'queued' as status, count(*) as n, min(run_after) as oldest from jobs where status = 'queued' group by lane
        union all
        select lane, 'running' as status, count(*) as n, min(run_after) as oldest from jobs where status = 'running' group by lane`.execute(store.db);
      queueDepth.reset();
      queueAge.reset();
      running.reset();
      for (const lane of knownLanes) {
        queueDepth.set({ lane }, 0);
        queueAge.set({ lane }, 0);
        running.set({ lane }, 0);
      }
      const now = Date.now();
      for (const r of lanes) {
        if (r.status === 'running') running.set({ lane: r.lane }, Number(r.n));
        else {
          queueDepth.set({ lane: r.lane }, Number(r.n));
          if (r.oldest) queueAge.set({ lane: r.lane }, Math.max(0, (now - Date.parse(r.oldest)) / 1000));
        }
      }
      const { rows: totals } = await sql<{ granted: number | string | null; reserved: number | string | null; settled: number | string | null }>`
        select sum(credits_granted) as granted, sum(credits_reserved) as reserved, sum(credits_settled) as settled from accounts`.execute(store.db);
      const { rows: released } = await sql<{ n: number | string | null }>`
        select sum(released_amount) as n from ledger_entries where kind = 'charge'`.execute(store.db);
      credits.set({ state: 'granted' }, Number(totals[0]?.granted ?? 0));
      credits.set({ state: 'reserved' }, Number(totals[0]?.reserved ?? 0));
      credits.set({ state: 'settled' }, Number(totals[0]?.settled ?? 0));
      credits.set({ state: 'released' }, Number(released[0]?.n ?? 0));
    } catch {
      dbEvents.inc({ event: 'metrics_read_failed' });
    }
  }

  return {
    registry,
    contentType: registry.contentType,
    httpRequest: (method, route, status, seconds) => {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    jobOutcome: (kind, lane, outcome, seconds) => {
      jobs.inc({ kind, lane, outcome });
      jobSeconds.observe({ kind, outcome }, seconds);
    },
    providerCall: (platform, outcome, seconds) => provider.observe({ platform, outcome }, seconds),
    databaseEvent: (event) => dbEvents.inc({ event }),
    providerKey(name, status) {
      const before = keyStatus.get(name);
      if (before === status) return;
      if (before !== undefined) providerKey.remove({ provider: name, status: before });
      keyStatus.set(name, status);
      providerKey.set({ provider: name, status }, 1);
    },
    retentionRemoved: (table, rows) => retention.inc({ table }, rows),
    attach(s, p, lanes = []) {
      store = s;
      pool = p;
      knownLanes = lanes;
      lastRead = 0;
    },
    async render() {
      await collectFromDatabase();
      return registry.metrics();
    },
  };
}
