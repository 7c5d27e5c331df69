// The worker loop: claims jobs with a lease, runs them through the handler registered for
// their kind, renews leases while they run, and respects a concurrency limit per lane (e.g.
// per AI platform) and overall. Handlers own the business outcome (a probe that errors is a
// finished job); a handler that throws RetryLater puts the job back with a delay, and any
// other throw is retried with exponential backoff until max_attempts, then given up: marked
// failed through the give-up handler of its kind, which also settles the business side (a probe
// whose job is given up is errored and its credits released). Every claim is an attempt,
// including the reclaim of a dead worker's job: a job claimed past max_attempts is given up
// without running, so a job that crashes its worker every time ends too.
// A job that waits on its provider (an asynchronous task posted, not ready yet) gives its lane
// slot back for the wait (JobControl.offLane) and keeps its lease; at most maxWaiting jobs of a
// worker wait so at once, and past that a wait keeps its slot.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '../db/store.ts';
import { anyExpiredLease, claimJobs, finishJob, jobFinishedByHandler, LeaseLost, leaseOf, renewLeases, requeueJob, retryJobLater, setJobWaiting, type Job } from './queue.ts';

/** The longest a worker waits between claims while the database is unreachable. */
const MAX_BACKOFF_MS = 5000;

export class RetryLater extends Error {
  constructor(readonly delayMs: number, message: string) {
    super(message);
  }
}

/** What a running job may ask of its worker. */
export interface JobControl {
  /**
   * Runs `wait` (a wait on a provider, not work) with the job's lane slot given back: the job
   * leaves the lane's count here and in the database (so claims fill the slot meanwhile), keeps
   * its lease, and counts in the lane again once `wait` settles, ahead of new claims (the lane may
   * run over its limit for as long as the jobs back from waiting take to finish). When the
   * worker already has maxWaiting such jobs, `wait` runs with the slot kept.
   */
  offLane<T>(wait: () => Promise<T>): Promise<T>;
  /** When the watchdog stops the job (epoch ms; undefined without a time budget): optional work (a judge) must end before it. */
  deadline?: number;
}

/** A handler may mark its job done itself (markJobFinished in queue.ts); else the worker does. */
export type JobHandler = (job: Job, signal: AbortSignal, control: JobControl) => Promise<void>;

/**
 * Ends the business side of a job that ran out of attempts (errors its probe, releases its
 * credits) and marks the job failed with `reason` (finishJob) in the same transaction. If it
 * throws, the job stays claimed: its lease expires and the next claim gives it up again.
 */
export type GiveUpHandler = (job: Job, reason: string, code?: GiveUpCode) => Promise<void>;

/**
 * Hands a job its worker stopped (shutdown) back to the queue with the business side made
 * queued again (a probe reads `queued`, not `running`), in one transaction: requeueJob (queue.ts)
 * plus its own update. A kind without one only has its job requeued.
 */
export type ReleaseHandler = (job: Job) => Promise<void>;

/** The reason a stopping worker aborts the jobs still running when its grace period ends. */
export class WorkerStopping extends Error {
  constructor() {
    super('the worker is shutting down');
  }
}

/** Why a job is given up: out of attempts, or stopped by the watchdog after its time budget. */
export type GiveUpCode = 'worker_gave_up' | 'job_timeout';

/** The structured logger a worker writes job outcomes to (pino's shape). */
export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Work a worker also does at start and then every `everyMs` (e.g. releasing abandoned reservations). */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

export interface WorkerOptions {
  store: Store;
  handlers: Record<string, JobHandler>;
  /** Per job kind; a kind without one is only marked failed when given up. */
  giveUp?: Record<string, GiveUpHandler>;
  /** Per job kind: how a job interrupted by shutdown goes back to the queue (see ReleaseHandler). */
  release?: Record<string, ReleaseHandler>;
  /** Run once at start, then periodically, while the worker runs. */
  periodic?: PeriodicTask[];
  /** Max jobs in flight per lane; lanes not listed use defaultLaneConcurrency. */
  laneConcurrency: Record<string, number>;
  defaultLaneConcurrency?: number;
  /** Max jobs in flight overall (jobs waiting off their lane not counted). */
  concurrency: number;
  /** Max jobs waiting off their lane at once (JobControl.offLane; default 1000); 0 = a wait keeps its slot. */
  maxWaiting?: number;
  leaseMs?: number;
  pollMs?: number;
  /**
   * A job's time budget: past it the watchdog aborts the job, gives it up (its credits
   * released, code job_timeout) and frees its slot, whatever the handler is doing; the handler's
   * later writes are fenced off by the lease. 0 = none.
   */
  jobTimeoutMs?: number;
  /** Jobs in flight per account across every worker (SIGHTLINE_ACCOUNT_CONCURRENCY); undefined = no cap. */
  accountConcurrency?: number;
  /** Whether lane limits hold across every worker (counted in the database) or per process only. */
  globalLaneLimits?: boolean;
  onError?: (err: unknown, job?: Job) => void;
  /** Job outcomes, retries, lost leases, timeouts (one line each). */
  log?: JobLog;
  /** Told of each job's outcome (metrics). */
  onOutcome?: (job: Job, outcome: JobOutcome, ms: number) => void;
}

export type JobOutcome = 'done' | 'retry' | 'gave_up' | 'timeout' | 'lease_lost' | 'released';

interface InFlight {
  job: Job;
  controller: AbortController;
  done: Promise<void>;
  /** Set by the heartbeat when another worker took the job over. */
  leaseLost?: boolean;
  /** True while the job waits off its lane (JobControl.offLane). */
  waiting?: boolean;
}

export function workerId(): string {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '').slice(0, 63) || 'host';
  return `wrk_${host}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export class Worker {
  /**
   * Written to every job it claims (jobs.lease_owner): host and process id say which process holds
   * a job (what an operator looks for when one stalls), the random part tells apart two workers of
   * one process.
   */
  readonly id = workerId();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly perLane = new Map<string, number>();
  /** Jobs in flight that wait off their lane (they count in neither perLane nor the overall limit). */
  private waitingCount = 0;
  private readonly idleUntil = new Map<string, number>();
  private running = false;
  private wake: (() => void) | null = null;
  private loopDone: Promise<void> = Promise.resolve();
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly periodicRuns = new Set<Promise<void>>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  /** When this worker last looked for jobs with expired leases (see claimOnce). */
  private lastExpiredCheck = 0;
  /** Per lane, the account served last (round-robin cursor, see claimJobs). */
  private readonly lastAccount = new Map<string, string | null>();
  /** Per lane, the jobs claimed since the lane was last found empty (see claimOnce). */
  private readonly served = new Map<string, number>();

  constructor(private readonly opts: WorkerOptions) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 200;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.heartbeat = setInterval(() => {
      const ids = [...this.inFlight.keys()];
      renewLeases(this.opts.store.db, this.id, ids, this.leaseMs).then(
        (held) => {
          // A job this worker no longer holds was taken over by another worker (its lease ran out
          // while this process stalled): stop it; its writes would be refused anyway (holdLease).
          for (const id of ids) {
            const f = this.inFlight.get(id);
            if (f && !held.has(id)) {
              f.leaseLost = true;
              f.controller.abort(new LeaseLost(id));
            }
          }
        },
        (err) => this.opts.onError?.(err),
      );
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    this.heartbeat.unref();
    for (const task of this.opts.periodic ?? []) {
      let busy = false;
      const tick = () => {
        if (busy || !this.running) return;
        busy = true;
        const run: Promise<void> = task
          .run()
          .then(
            () => undefined,
            (err) => this.opts.onError?.(err),
          )
          .finally(() => {
            busy = false;
            this.periodicRuns.delete(run);
          });
        this.periodicRuns.add(run);
      };
      tick();
      const t = setInterval(tick, task.everyMs);
      t.unref();
      this.timers.push(t);
    }
    this.loopDone = this.loop();
  }

  /** Wakes the loop now (new work was enqueued in this process). */
  notify(): void {
    this.wake?.();
  }

  /**
   * Stops claiming, waits for running jobs, and after graceMs aborts those still running and hands
   * them back to the queue (release), so another worker takes them at once instead of after their
   * lease runs out.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.timers.splice(0).forEach(clearInterval);
    this.notify();
    await this.loopDone;
    await Promise.allSettled([...this.periodicRuns]);
    const all = [...this.inFlight.values()];
    const timer = setTimeout(() => all.forEach((f) => f.controller.abort(new WorkerStopping())), graceMs);
    await Promise.allSettled(all.map((f) => f.done));
    clearTimeout(timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  get activeCount(): number {
    return this.inFlight.size;
  }

  /** Jobs in flight that wait on their provider off their lane. */
  get waitingJobs(): number {
    return this.waitingCount;
  }

  /** Jobs in flight that hold a slot (every job in flight but those waiting off their lane). */
  private get working(): number {
    return this.inFlight.size - this.waitingCount;
  }

  private laneLimit(lane: string): number {
    return this.opts.laneConcurrency[lane] ?? this.opts.defaultLaneConcurrency ?? this.opts.concurrency;
  }

  private async loop(): Promise<void> {
    // Consecutive failed claims (the database is unreachable): the wait doubles up to
    // MAX_BACKOFF_MS, and the first successful claim resets it. The pool reconnects by itself.
    let failures = 0;
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.claimOnce();
        failures = 0;
      } catch (err) {
        failures++;
        this.opts.onError?.(err);
      }
      if (!this.running) break;
      if (claimed === 0) {
        const wait = failures === 0 ? this.pollMs : Math.min(MAX_BACKOFF_MS, this.pollMs * 2 ** failures);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  private async claimOnce(): Promise<number> {
    const free = this.opts.concurrency - this.working;
    if (free <= 0) return 0;
    // The lanes with room, fewest jobs in flight first, then the lane served least since its
    // backlog began: a slot freed under the overall limit goes where it evens the lanes out. In a
    // fixed order the first lanes took every freed slot back and the last stayed below its share
    // to the end of the run, finishing alone (bench:runs, 2,000 probes over six lanes of 11 under
    // 64 overall: the sixth lane kept 9 slots and ran 3 s past the others).
    const inLane = (l: string) => this.perLane.get(l) ?? 0;
    const lanes = Object.keys(this.opts.laneConcurrency)
      .filter((l) => inLane(l) < this.laneLimit(l))
      .sort((a, b) => inLane(a) - inLane(b) || (this.served.get(a) ?? 0) - (this.served.get(b) ?? 0));
    let total = 0;
    // Jobs of dead workers (expired leases) are looked for once per poll interval, not on every
    // claim: a claim runs after every finished job, and the extra statement doubled its cost.
    // One statement across all lanes tells whether there are any: then each lane with room asks
    // for them (before, every lane ran its own expired-claim statement every interval).
    let expired = false;
    if (Date.now() - this.lastExpiredCheck >= this.pollMs) {
      this.lastExpiredCheck = Date.now();
      expired = await anyExpiredLease(this.opts.store.db);
    }
    // Ask per lane so one busy platform never starves another.
    const now = Date.now();
    for (const lane of lanes) {
      const room = Math.min(this.laneLimit(lane) - (this.perLane.get(lane) ?? 0), this.opts.concurrency - this.working);
      if (room <= 0) continue;
      // A lane found empty is not asked again until the next poll or until work is queued in
      // this process: otherwise every finished probe would also query every empty lane.
      if (!expired && (this.idleUntil.get(lane) ?? 0) > now) continue;
      const jobs = await claimJobs(this.opts.store, this.id, [lane], room, this.leaseMs, {
        expired,
        after: this.lastAccount.get(lane) ?? null,
        laneCap: this.opts.globalLaneLimits ? this.laneLimit(lane) : undefined,
        accountCap: this.opts.accountConcurrency,
      });
      if (jobs.length === 0) {
        this.idleUntil.set(lane, now + this.pollMs);
        this.served.delete(lane);
      } else {
        this.idleUntil.delete(lane);
        this.served.set(lane, (this.served.get(lane) ?? 0) + jobs.length);
      }
      const served = jobs.findLast((j) => j.account_id !== null);
      if (served) this.lastAccount.set(lane, served.account_id);
      for (const job of jobs) this.launch(job);
      total += jobs.length;
    }
    return total;
  }

  /** Work was queued (in this process): every lane may have jobs again. */
  workQueued(): void {
    this.idleUntil.clear();
    this.notify();
  }

  private launch(job: Job): void {
    const entry: InFlight = { job, controller: new AbortController(), done: Promise.resolve() };
    this.perLane.set(job.lane, (this.perLane.get(job.lane) ?? 0) + 1);
    // A job of the same id may still be in flight here (this worker took its own expired lease
    // over): the newer claim replaces it, and the older one's writes are fenced off.
    this.inFlight.get(job.id)?.controller.abort(new LeaseLost(job.id));
    this.inFlight.set(job.id, entry);
    entry.done = this.execute(job, entry).finally(() => {
      if (this.inFlight.get(job.id) === entry) this.inFlight.delete(job.id);
      this.perLane.set(job.lane, (this.perLane.get(job.lane) ?? 1) - 1);
      this.notify(); // a slot is free: claim the next job now rather than at the next poll
    });
  }

  private async execute(job: Job, entry: InFlight): Promise<void> {
    const signal = entry.controller.signal;
    const handler = this.opts.handlers[job.kind];
    const db = this.opts.store.db;
    const lease = leaseOf(job);
    const started = Date.now();
    const fields = { job_id: job.id, kind: job.kind, lane: job.lane, ref_id: job.ref_id, account_id: job.account_id, attempt: job.attempts, worker: this.id };
    const outcome = (o: JobOutcome, extra: object = {}, level: 'info' | 'warn' = 'info') => {
      const ms = Date.now() - started;
      this.opts.log?.[level]({ ...fields, outcome: o, ms, ...extra }, `job ${o}`);
      this.opts.onOutcome?.(job, o, ms);
    };
    // Claimed past its last attempt: the job's previous runs all died with their worker (a reclaim
    // after an expired lease), so it is given up rather than run again.
    if (job.attempts > job.max_attempts) {
      await this.giveUp(job, `gave up after ${job.max_attempts} attempts (the worker running it stopped)`);
      return outcome('gave_up', {}, 'warn');
    }
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const deadline = this.opts.jobTimeoutMs ? started + this.opts.jobTimeoutMs : undefined;
      const run = handler(job, signal, { offLane: (wait) => this.offLane(job, entry, wait), deadline });
      if (!this.opts.jobTimeoutMs) await run;
      else if (await this.overBudget(run, this.opts.jobTimeoutMs)) {
        // The watchdog: the job ran past its budget. Abort it, give it up (credits released),
        // and free its slot now; whatever it still writes is fenced off (the job is no longer running).
        entry.controller.abort(new Error('job time budget exceeded'));
        run.catch(() => {});
        await this.giveUp(job, `stopped after its time budget of ${this.opts.jobTimeoutMs} ms`, 'job_timeout');
        return outcome('timeout', { budget_ms: this.opts.jobTimeoutMs }, 'warn');
      }
      if (!jobFinishedByHandler(signal)) await finishJob(db, job.id, 'done', undefined, lease);
      outcome('done');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof LeaseLost || entry.leaseLost) return outcome('lease_lost', {}, 'warn');
      if (signal.reason instanceof WorkerStopping && job.attempts < job.max_attempts) {
        await this.release(job);
        return outcome('released', {}, 'warn');
      }
      this.opts.onError?.(err, job);
      if (!(err instanceof RetryLater) && job.attempts >= job.max_attempts) {
        await this.giveUp(job, message);
        return outcome('gave_up', { error: message }, 'warn');
      }
      const delayMs = err instanceof RetryLater ? err.delayMs : Math.min(60_000, 500 * 2 ** job.attempts);
      try {
        await retryJobLater(db, job.id, delayMs, message, lease);
      } catch (inner) {
        this.opts.onError?.(inner, job);
      }
      outcome('retry', { error: message, delay_ms: delayMs }, 'warn');
    }
  }

  /**
   * JobControl.offLane: the job leaves its lane's count (here and in the database, fenced by its
   * lease) while `wait` runs and joins it again when `wait` settles. Not parked (wait runs with
   * the slot kept) when maxWaiting jobs already wait, or when the database refuses the mark.
   */
  private async offLane<T>(job: Job, entry: InFlight, wait: () => Promise<T>): Promise<T> {
    if (entry.waiting || this.waitingCount >= (this.opts.maxWaiting ?? 1000)) return wait();
    const db = this.opts.store.db;
    const lease = leaseOf(job);
    let parked = false;
    try {
      parked = await setJobWaiting(db, lease, true);
    } catch (err) {
      this.opts.onError?.(err, job);
    }
    if (!parked) return wait();
    entry.waiting = true;
    this.waitingCount++;
    this.perLane.set(job.lane, (this.perLane.get(job.lane) ?? 1) - 1);
    // The slot is free: claim the lane's next job now.
    this.idleUntil.delete(job.lane);
    this.notify();
    try {
      return await wait();
    } finally {
      entry.waiting = false;
      this.waitingCount--;
      this.perLane.set(job.lane, (this.perLane.get(job.lane) ?? 0) + 1);
      // Counted in the lane again before the result is fetched. A refused mark (lease lost) is
      // left to the job's next fenced write, which stops it.
      await setJobWaiting(db, lease, false).catch((err: unknown) => this.opts.onError?.(err, job));
    }
  }

  /** Resolves true when `run` has not settled within `ms` (its rejection, if first, is thrown). */
  private async overBudget(run: Promise<void>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<true>((resolve) => {
      timer = setTimeout(() => resolve(true), ms);
      timer.unref();
    });
    try {
      return await Promise.race([run.then(() => false as const), budget]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Shutdown: the job goes back to the queue through its kind's release handler (or only the job row). */
  private async release(job: Job): Promise<void> {
    const handler = this.opts.release?.[job.kind];
    try {
      if (handler) await handler(job);
      else await requeueJob(this.opts.store.db, leaseOf(job), 'interrupted by worker shutdown');
    } catch (err) {
      // Not released (the database is gone, or the lease was taken over): the lease runs out instead.
      if (!(err instanceof LeaseLost)) this.opts.onError?.(err, job);
    }
  }

  /** The job has no attempt left: its kind's give-up handler ends it (or it is only marked failed). */
  private async giveUp(job: Job, reason: string, code: GiveUpCode = 'worker_gave_up'): Promise<void> {
    const handler = this.opts.giveUp?.[job.kind];
    try {
      if (handler) await handler(job, reason, code);
      else await finishJob(this.opts.store.db, job.id, 'failed', reason, leaseOf(job));
    } catch (err) {
      if (!(err instanceof LeaseLost)) this.opts.onError?.(err, job);
    }
  }
}
