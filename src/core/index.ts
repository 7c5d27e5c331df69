// The engine, assembled: every surface (HTTP, CLI, worker) gets one Core and calls into it.
// The composition root (src/server/runtime.ts) decides the platform drivers and their policy;
// the core only sees an `ask` function and which platforms are available.
import type { Config } from '../config.ts';
import { Worker, type JobHandler, type JobLog, type JobOutcome } from '../jobs/worker.ts';
import { leaseOf, type Job } from '../jobs/queue.ts';
import { PLATFORMS, type AskPlatform, type PlatformDriver, type PlatformName } from '../platforms/types.ts';
import { createContentService, type ContentService } from './content/service.ts';
import { CI_JOB_KIND, CI_LANE, executeCiRun } from './content/runs.ts';
import { parseFetchAllowlist } from './pages/fetch/index.ts';
import { createPageLoader, type PageLoader, type PageLoaderOptions } from './pages/pipeline.ts';
import { createPageExtractor } from './pages/extract-threads.ts';
import { ActivityLog } from './reports/activity.ts';
import type { Store } from '../db/store.ts';
import { catalogListing, loadCatalog, resolveModel, resolvePlatformName, type Catalog } from './visibility/catalog.ts';
import type { ContentModel } from './content/generator.ts';
import { createAnalysisPool } from './content/analysis-threads.ts';
import { executeProbe } from './visibility/probe-executor.ts';
import { createJudge, parseJudgeModel } from './visibility/judge.ts';
import { PROBE_JOB_KIND, type VisibilityDeps } from './visibility/runs.ts';
import { workerExtras } from './worker-extras.ts';
import { retentionPolicy } from './retention.ts';
import { Scheduler } from './tracking/scheduler.ts';
import type { TrackingDeps } from './tracking/tracked-tests.ts';
import { idempotencyPolicy } from './idempotency.ts';
import { createMailer } from './accounts/mail.ts';
import { consolePublicUrl } from './accounts/users.ts';
import { deliverMessage, giveUpDelivery, type DeliveryDeps } from './webhooks/delivery.ts';
import { onDeliveryQueued, TEST_CHANGE_JOB_KIND, WEBHOOK_JOB_KIND, WEBHOOK_LANE } from './webhooks/events.ts';
import { checkTestChange } from './tracking/change-events.ts';
import { rollupFinishedRun } from './projects/rollups.ts';
import { ALERT_MAIL_JOB_KIND, sendAlertMail } from './webhooks/alert-mail.ts';
import { claimDigests, DIGEST_JOB_KIND, sendDigestMail } from './webhooks/digest.ts';
import { useOperatorCitationCatalog } from './visibility/citation-sources.ts';
import { useReadCacheBytes } from './visibility/read-cache.ts';
import { checkCrawlerBlocked, CRAWLER_BLOCKED_JOB_KIND } from './sites/blocked.ts';
import { crawlerRanges } from './sites/ip-ranges.ts';

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
  /** Told of the rows each retention sweep removed, per table (metrics). */
  onRetentionRemoved?: (table: string, rows: number) => void;
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
  /** Tracked tests: what their runs and the scheduler need. */
  tracking: TrackingDeps;
  /** Webhook endpoints and their deliveries. */
  webhooks: DeliveryDeps;
  /** This process's scheduler, once startWorker ran (null when disabled or not started). */
  scheduler(): Scheduler | null;
  modelListing(): ReturnType<typeof catalogListing>;
  /** Starts the in-process worker (idempotent). */
  startWorker(): Worker;
  /** Wakes the in-process worker when work was queued. */
  notifyWork(): void;
  /** The in-process worker, once started. */
  readonly startedWorker: Worker | null;
  /**
   * Stops the scheduler and the worker: no more claims; running jobs get `graceMs` (default 10 s),
   * then are aborted (and handed back). Everything requests use stays open. Called again (by close
   * too), it waits for the same stop.
   */
  stopWorker(opts?: { graceMs?: number }): Promise<void>;
  /** Stops the worker (stopWorker), then closes what requests use (page loader, analysis threads, mail) and flushes logs. */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/** Content Intelligence runs analysed at once per worker (each fetches a handful of pages). */
const CI_LANE_CONCURRENCY = 2;

export function createCore(opts: CoreOptions): Core {
  idempotencyPolicy.ttlMs = opts.config.SIGHTLINE_IDEMPOTENCY_TTL_SECONDS * 1000;
  const catalog = opts.catalog ?? fromFile('SIGHTLINE_CATALOG_PATH', () => loadCatalog(opts.config.SIGHTLINE_CATALOG_PATH));
  fromFile('SIGHTLINE_CITATION_SOURCES_PATH', () => useOperatorCitationCatalog(opts.config.SIGHTLINE_CITATION_SOURCES_PATH));
  // Read once now (and kept): a file that cannot be read would otherwise fail every log upload and
  // crawler report with a 500.
  const rangesPath = opts.config.SIGHTLINE_CRAWLER_RANGES_PATH;
  if (rangesPath) fromFile('SIGHTLINE_CRAWLER_RANGES_PATH', () => crawlerRanges(rangesPath));
  useReadCacheBytes(opts.config.SIGHTLINE_READ_CACHE_MB * 1024 * 1024);
  const isAvailable = (p: PlatformName) => catalog.has(p) && !!opts.drivers[p]?.available();
  const engine = opts.drivers[PLATFORMS[0]]?.engine ?? 'sandbox';
  let worker: Worker | null = null;
  let scheduler: Scheduler | null = null;
  let workerStopped: Promise<void> | undefined;
  const judgeSpec = opts.config.SIGHTLINE_JUDGE_MODEL;
  if (engine === 'live' && judgeSpec) {
    // A judge without credentials would fail every probe's verdict: refuse to start instead.
    const { platform } = parseJudgeModel(judgeSpec);
    if (!opts.drivers[platform]?.available()) throw new Error(`SIGHTLINE_JUDGE_MODEL names ${platform}, which has no API key configured.`);
  }
  const judge = createJudge({ engine, spec: judgeSpec, ask: opts.ask });
  const activity = new ActivityLog(opts.store);
  const pages = createPageLoader({
    extractor: createPageExtractor({ threads: opts.config.SIGHTLINE_EXTRACT_THREADS }),
    fetchConcurrency: opts.config.SIGHTLINE_FETCH_CONCURRENCY,
    fetchQueue: opts.config.SIGHTLINE_FETCH_QUEUE,
    fetchPerAccount: opts.config.SIGHTLINE_FETCH_ACCOUNT_CONCURRENCY,
    ...opts.pages,
    allow: opts.pages?.allow ?? fetchAllowlist(opts.config.SIGHTLINE_FETCH_ALLOW),
  });
  const analysis = createAnalysisPool({ threads: opts.config.SIGHTLINE_ANALYSIS_THREADS });
  const content = createContentService({
    store: opts.store,
    pages,
    analysis,
    onQueued: () => worker?.workQueued(),
    contentModel: contentModelFrom(opts.config.SIGHTLINE_CONTENT_MODEL, engine, catalog, opts.drivers, opts.ask),
  });

  const mailer = createMailer(opts.config.SIGHTLINE_SMTP_URL, opts.config.SIGHTLINE_MAIL_FROM);
  const webhooks: DeliveryDeps = {
    store: opts.store,
    allow: opts.pages?.allow ?? fetchAllowlist(opts.config.SIGHTLINE_FETCH_ALLOW),
    lookup: opts.pages?.fetchOptions?.lookup,
    secretKey: opts.config.SIGHTLINE_WEBHOOK_SECRET_KEY?.trim() || undefined,
    maxEndpoints: opts.config.SIGHTLINE_MAX_WEBHOOKS_PER_ACCOUNT,
    timeoutMs: opts.config.SIGHTLINE_WEBHOOK_TIMEOUT_MS,
    retrySchedule: opts.config.SIGHTLINE_WEBHOOK_RETRY_SCHEDULE,
    disableAfterMs: opts.config.SIGHTLINE_WEBHOOK_DISABLE_AFTER_MS,
    mailer,
    publicUrl: consolePublicUrl(opts.config),
    log: opts.jobLog,
  };
  let stopWaking: (() => void) | null = null;
  const visibility: VisibilityDeps = { store: opts.store, catalog, engine, isAvailable, onQueued: () => worker?.workQueued() };
  const tracking: TrackingDeps = {
    store: opts.store,
    visibility,
    createCiRun: (ctx, body, o) => content.createRun(ctx, body as never, o),
    activity,
    maxProjects: opts.config.SIGHTLINE_MAX_PROJECTS_PER_ACCOUNT,
  };
  const core: Core = {
    store: opts.store,
    config: opts.config,
    catalog,
    activity,
    drivers: opts.drivers,
    pages,
    content,
    visibility,
    tracking,
    webhooks,
    scheduler: () => scheduler,
    modelListing: () =>
      catalogListing(catalog, (p) => ({ engine: opts.drivers[p]?.engine ?? engine, available: isAvailable(p), provider: opts.drivers[p]?.provider ?? null })),
    startWorker() {
      if (worker) return worker;
      // Each handler gets its claim's lease: an outcome is recorded only while it holds.
      const handlers: Record<string, JobHandler> = {
        [PROBE_JOB_KIND]: (job, signal, control) => executeProbe({ store: opts.store, catalog, ask: opts.ask, judge }, job.ref_id, signal, leaseOf(job), control),
        [CI_JOB_KIND]: (job, signal) => executeCiRun(opts.store, content.analyze, job.ref_id, signal, leaseOf(job)),
        [WEBHOOK_JOB_KIND]: (job, signal) => deliverMessage(webhooks, job, signal),
        [TEST_CHANGE_JOB_KIND]: async (job) => {
          await checkTestChange(opts.store, catalog, job.ref_id);
          // A project's run: its dashboard tallies, written once now rather than at the next read.
          await rollupFinishedRun(opts.store, job.ref_id);
        },
        [ALERT_MAIL_JOB_KIND]: (job) => sendAlertMail(webhooks, job.ref_id),
        [DIGEST_JOB_KIND]: (job) => sendDigestMail({ ...webhooks, catalog }, job.ref_id),
        [CRAWLER_BLOCKED_JOB_KIND]: async (job) => void (await checkCrawlerBlocked({ store: opts.store, pages, log: opts.jobLog }, job.ref_id)),
      };
      // The retention sweep runs in every worker process; its deletes are safe side by side (retention.ts).
      const extras = workerExtras(opts.store, {
        policy: retentionPolicy(opts.config),
        everyMs: opts.config.SIGHTLINE_RETENTION_SWEEP_INTERVAL_MS,
        log: opts.jobLog,
        onRemoved: opts.onRetentionRemoved,
      });
      for (const [kind, h] of Object.entries(opts.extraJobs?.handlers ?? {})) handlers[kind] = (job, signal) => h(job.ref_id, signal);
      worker = new Worker({
        store: opts.store,
        handlers,
        // Giving up jobs out of attempts (their credits released), releasing abandoned action reservations.
        ...extras,
        giveUp: { ...extras.giveUp, [WEBHOOK_JOB_KIND]: (job, reason) => giveUpDelivery(webhooks, job, reason) },
        // Content Intelligence runs get a lane of their own, so page fetching never waits behind probes.
        laneConcurrency: { ...opts.platformConcurrency, [CI_LANE]: CI_LANE_CONCURRENCY, ...(opts.extraJobs?.lanes ?? {}), [WEBHOOK_LANE]: opts.config.SIGHTLINE_WEBHOOK_CONCURRENCY },
        concurrency: opts.workerConcurrency ?? opts.config.SIGHTLINE_WORKER_CONCURRENCY,
        maxWaiting: opts.config.SIGHTLINE_WORKER_MAX_WAITING,
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
      const started = worker;
      stopWaking = onDeliveryQueued(() => started.workQueued());
      // Every process that works the queue also takes due slots of tracked tests: the database
      // makes each slot one run however many processes do (tracking/scheduler.ts).
      if (opts.config.SIGHTLINE_SCHEDULER_INTERVAL_MS > 0) {
        scheduler = new Scheduler(tracking, {
          intervalMs: opts.config.SIGHTLINE_SCHEDULER_INTERVAL_MS,
          onError: opts.onWorkerError,
          log: opts.jobLog,
          afterTick: (now) => claimDigests(opts.store, now),
        });
        scheduler.start();
      }
      return worker;
    },
    notifyWork: () => worker?.workQueued(),
    get startedWorker() {
      return worker;
    },
    stopWorker(stopOpts = {}) {
      workerStopped ??= (async () => {
        if (scheduler) await scheduler.stop();
        if (worker) await worker.stop(stopOpts.graceMs);
      })();
      return workerStopped;
    },
    async close(closeOpts = {}) {
      await core.stopWorker(closeOpts);
      stopWaking?.();
      mailer.close();
      await activity.flush();
      await pages.close();
      await analysis.close();
    },
  };
  return core;
}

/**
 * SIGHTLINE_CONTENT_MODEL (`platform:model`, model a catalog id or default/latest/prior) in live
 * mode: the model that writes trends and prompt ideas. A name that does not resolve stops the
 * start (a typo must not silently fall back); in sandbox mode it is ignored (sandbox answers are
 * never presented as a model's ideas).
 */
function contentModelFrom(spec: string | undefined, engine: string, catalog: Catalog, drivers: Record<PlatformName, PlatformDriver>, ask: AskPlatform): ContentModel | null {
  if (!spec?.trim() || engine !== 'live') return null;
  const [platformName, ...rest] = spec.trim().split(':');
  const platform = resolvePlatformName(platformName ?? '');
  if (!platform) throw new Error(`Invalid configuration:\n  SIGHTLINE_CONTENT_MODEL: unknown platform ${JSON.stringify(platformName)} (use platform:model, e.g. openai:gpt-5-mini)`);
  let model;
  try {
    model = resolveModel(catalog, platform, rest.join(':') || undefined);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  SIGHTLINE_CONTENT_MODEL: ${(err as Error).message}`);
  }
  if (!drivers[platform]?.available()) throw new Error(`Invalid configuration:\n  SIGHTLINE_CONTENT_MODEL: platform ${platform} has no API key configured`);
  return { platform, modelId: model.id, providerModel: model.providerModel, ask };
}

/**
 * Runs `read`, a read of the file a variable names, turning its failure (no such file, not JSON,
 * not the expected shape) into a configuration error that names the variable: the start stops with
 * one line instead of a stack, or instead of failing requests later.
 */
function fromFile<T>(variable: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    const message = ((err as Error)?.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 300);
    throw new Error(`Invalid configuration:\n  ${variable}: cannot use the file it names: ${message}`);
  }
}

/** Parses SIGHTLINE_FETCH_ALLOW, so that a typo stops the start instead of silently allowing nothing. */
function fetchAllowlist(spec: string) {
  try {
    return parseFetchAllowlist(spec);
  } catch (err) {
    throw new Error(`Invalid configuration:\n  ${(err as Error).message}`);
  }
}
