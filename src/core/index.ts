// The engine, assembled: every surface (HTTP, CLI, worker) gets one Core and calls into it.
// The composition root (src/cli/runtime.ts) decides the platform drivers and their policy;
// the core only sees an `ask` function and which platforms are available.
import type { Config } from '../config.ts';
import { Worker, type JobHandler, type JobLog, type JobOutcome } from '../jobs/worker.ts';
import { leaseOf, type Job } from '../jobs/queue.ts';
import { PLATFORMS, type PlatformDriver, type PlatformName } from '../platforms/types.ts';
import { createContentService, type ContentService } from './content/service.ts';
import { CI_JOB_KIND, CI_LANE, executeCiRun } from './content/runs.ts';
import { parseFetchAllowlist } from './pages/fetch/index.ts';
import { createPageLoader, type PageLoader, type PageLoaderOptions } from './pages/pipeline.ts';
import { createPageExtractor } from './pages/extract-threads.ts';
import { ActivityLog } from './reports/activity.ts';
import type { Store } from './store.ts';
import { catalogListing, loadCatalog, type Catalog } from './visibility/catalog.ts';
import { executeProbe, type AskPlatform } from './visibility/probe-executor.ts';
import { PROBE_JOB_KIND, type VisibilityDeps } from './visibility/runs.ts';
import { workerExtras } from './worker-extras.ts';
import { idempotencyPolicy } from './idempotency.ts';

export interface CoreOptions {
  store: Store;
  config: Config;
  catalog?: Catalog;
  drivers: Record<PlatformName, PlatformDriver>;
  ask: AskPlatform;
  /** Max probes in flight per platform (worker lanes). */
  platformConcurrency: Record<PlatformName, number>;
  workerConcurrency?: number;
  /** Extra job handlers (e.g. Content Intelligence runs) and their lanes. */
  extraJobs?: { handlers: Record<string, (refId: string, signal: AbortSignal) => Promise<void>>; lanes: Record<string, number> };
  onWorkerError?: (err: unknown) => void;
  /** Where the worker logs job outcomes (pino). */
  jobLog?: JobLog;
  /** Told of each job's outcome (metrics). */
  onJobOutcome?: (job: Job, outcome: JobOutcome, ms: number) => void;
  /** Page loader settings (fetch timeouts, resolver, cache); `allow` defaults to SIGHTLINE_FETCH_ALLOW. */
  pages?: PageLoaderOptions;
}

export interface Core {
  store: Store;
  config: Config;
  catalog: Catalog;
  activity: ActivityLog;
  visibility: VisibilityDeps;
  drivers: Record<PlatformName, PlatformDriver>;
  /** The shared page loader (fetch → extract → content view, briefly cached). */
  pages: PageLoader;
  /** Content Intelligence: prompt ideas, trends, content score and persisted runs. */
  content: ContentService;
  modelListing(): ReturnType<typeof catalogListing>;
  /** Starts the in-process worker (idempotent). */
  startWorker(): Worker;
  /** Wakes the in-process worker when work was queued. */
  notifyWork(): void;
  /** The in-process worker, once started. */
  readonly startedWorker: Worker | null;
  /** Stops the worker (running jobs get `graceMs`, default 10 s, then are aborted) and flushes logs. */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/** Content Intelligence runs analysed at once per worker (each fetches a handful of pages). */
const CI_LANE_CONCURRENCY = 2;

export function createCore(opts: CoreOptions): Core {
  idempotencyPolicy.ttlMs = opts.config.SIGHTLINE_IDEMPOTENCY_TTL_SECONDS * 1000;
  const catalog = opts.catalog ?? loadCatalog(opts.config.SIGHTLINE_CATALOG_PATH);
  const isAvailable = (p: PlatformName) => catalog.has(p) && !!opts.drivers[p]?.available();
  const engine = opts.drivers[PLATFORMS[0]]?.engine ?? 'sandbox';
  let worker: Worker | null = null;
  const activity = new ActivityLog(opts.store);
  const pages = createPageLoader({
    extractor: createPageExtractor({ threads: opts.config.SIGHTLINE_EXTRACT_THREADS }),
    fetchConcurrency: opts.config.SIGHTLINE_FETCH_CONCURRENCY,
    fetchQueue: opts.config.SIGHTLINE_FETCH_QUEUE,
    ...opts.pages,
    allow: opts.pages?.allow ?? fetchAllowlist(opts.config.SIGHTLINE_FETCH_ALLOW),
  });
  const content = createContentService({ store: opts.store, pages, onQueued: () => worker?.workQueued() });

  const core: Core = {
    store: opts.store,
    config: opts.config,
    catalog,
    activity,
    drivers: opts.drivers,
    pages,
    content,
    visibility: { store: opts.store, catalog, engine, isAvailable, onQueued: () => worker?.workQueued() },
    modelListing: () => catalogListing(catalog, (p) => ({ engine: opts.drivers[p]?.engine ?? engine, available: isAvailable(p) })),
    startWorker() {
      if (worker) return worker;
      // Each handler gets its claim's lease: an outcome is recorded only while it holds.
      const handlers: Record<string, JobHandler> = {
        [PROBE_JOB_KIND]: (job, signal) => executeProbe({ store: opts.store, catalog, ask: opts.ask }, job.ref_id, signal, leaseOf(job)),
        [CI_JOB_KIND]: (job, signal) => executeCiRun(opts.store, content.analyze, job.ref_id, signal, leaseOf(job)),
      };
      for (const [kind, h] of Object.entries(opts.extraJobs?.handlers ?? {})) handlers[kind] = (job, signal) => h(job.ref_id, signal);
      worker = new Worker({
        store: opts.store,
        handlers,
        // Giving up jobs out of attempts (their credits released), releasing abandoned action reservations.
        ...workerExtras(opts.store),
        // Content Intelligence runs get a lane of their own, so page fetching never waits behind probes.
        laneConcurrency: { ...opts.platformConcurrency, [CI_LANE]: CI_LANE_CONCURRENCY, ...(opts.extraJobs?.lanes ?? {}) },
        concurrency: opts.workerConcurrency ?? opts.config.SIGHTLINE_WORKER_CONCURRENCY,
        // Lane limits (provider concurrency per platform) hold across every worker process.
        globalLaneLimits: true,
        accountConcurrency: opts.config.SIGHTLINE_ACCOUNT_CONCURRENCY || undefined,
        jobTimeoutMs: opts.config.SIGHTLINE_JOB_TIMEOUT_MS,
        leaseMs: opts.config.SIGHTLINE_JOB_LEASE_MS,
        onError: opts.onWorkerError,
        log: opts.jobLog,
        onOutcome: opts.onJobOutcome,
      });
      worker.start();
      return worker;
    },
    notifyWork: () => worker?.workQueued(),
    get startedWorker() {
      return worker;
    },
    async close(closeOpts = {}) {
      if (worker) await worker.stop(closeOpts.graceMs);
      await activity.flush();
      await pages.close();
    },
  };
  return core;
}

/** Parses SIGHTLINE_FETCH_ALLOW, so that a typo stops the start instead of silently allowing nothing. */
function fetchAllowlist(spec: string) {
  try {
    return parseFetchAllowlist(spec);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  ${(err as Error).message}`);
  }
}
