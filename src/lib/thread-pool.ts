// A bounded pool of worker threads for synchronous CPU work that must stay off the event loop
// (page extraction, Content Intelligence analysis). At most `size` jobs run at once, one per
// thread; the rest wait in order. Threads start on first use, stop after `idleMs` idle (an idle
// thread never keeps the process alive), and a job that runs longer than `timeoutMs` stops its
// thread. The one thing to know: a thread that dies before it says it is ready means this runtime
// cannot run the pool's threads, so the pool gives up on threads for good (one warning) and every
// job from then on runs on the calling thread through `runHere`. A thread still starting when its
// job's time is up (a busy machine) is stopped and that job runs on the calling thread; only
// `SLOW_STARTS_TO_GIVE_UP` such starts in a row give up on threads. A thread that dies while working
// (out of memory, a crash, the timeout) fails only the job it had, and the next job gets a fresh
// thread. What a job is, how it is sent and how a reply settles it is the client's business.
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** A job of the pool: the client's own shape, with a way to fail it. */
export interface PoolJob {
  reject(err: unknown): void;
}

/** Counts of the pool, for logs and tests. */
export interface ThreadPoolStats {
  size: number;
  threads: number;
  busy: number;
  queued: number;
  completed: number;
  crashes: number;
  timeouts: number;
  /** Threads could not start: every job runs on the calling thread. */
  broken: boolean;
}

export interface ThreadPoolOptions<J extends PoolJob, M> {
  /** Names the pool's threads in errors ("<name> thread exited with code 1"). */
  name: string;
  /** Most threads at once (each runs one job). */
  size: number;
  idleMs: number;
  timeoutMs: number;
  resourceLimits: ResourceLimits;
  /** The threads' entry module; may be produced on first use (a promise). */
  entry(): URL | Promise<URL>;
  /** Sends the job to its thread. */
  post(worker: Worker, job: J): void;
  /** The thread holding the job is ready: it has the job's data now (optional). */
  delivered?(job: J): void;
  /**
   * A thread's reply to its job: settle the job. Return a function to have the thread stopped
   * first and the function run once it has exited (a huge result, so the thread's heap and the
   * rebuilt result never coexist).
   */
  reply(msg: M, job: J): (() => void) | undefined;
  /** Runs the job on the calling thread and settles it (when threads cannot start). */
  runHere(job: J): void;
  /** The error a job fails with when its thread died ('crash') or ran out of time ('timeout'). */
  failure(job: J, err: unknown, how: 'crash' | 'timeout'): unknown;
  /** The error a job fails with when the pool is closed. */
  closed(job: J): unknown;
  /** Tells the operator (a process warning). */
  warn(message: string, err?: unknown): void;
  /** The warning given once when threads cannot start. */
  brokenMessage: string;
}

export interface ThreadPool<J extends PoolJob> {
  submit(job: J): void;
  /** Threads could not start: the client should run jobs itself. */
  readonly broken: boolean;
  stats(): ThreadPoolStats;
  /** Fails queued and running jobs with `closed` and stops the threads; later jobs start them again. */
  close(): Promise<void>;
}

/** A process warning with the error's stack: how thread pools tell the operator why a thread failed. */
export function threadWarning(code: string, message: string, err?: unknown): void {
  const detail = err instanceof Error ? (err.stack ?? err.message) : err === undefined ? '' : String(err);
  process.emitWarning(detail ? `${message}: ${detail}` : message, { code });
}

interface Thread<J> {
  worker: Worker;
  /** Set once the worker has loaded its entry; a worker that dies before that is broken. */
  ready: boolean;
  job: J | null;
  /** The job's deadline (a job that takes longer stops the thread). */
  deadline: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

/** Starts in a row that outlast their job's deadline before the pool stops trying threads. */
export const SLOW_STARTS_TO_GIVE_UP = 3;

export function createThreadPool<J extends PoolJob, M extends { ready?: true }>(opts: ThreadPoolOptions<J, M>): ThreadPool<J> {
  const threads = new Set<Thread<J>>();
  const queue: J[] = [];
  let broken = false;
  /** Threads in a row that were still starting when their job's time was up. */
  let slowStarts = 0;
  const counts = { completed: 0, crashes: 0, timeouts: 0 };
  let entry: URL | null = null;
  let entryPending = false;

  /** Takes the thread out of service (no job is given to it any more) and stops it. */
  function stop(thread: Thread<J>): { job: J | null; exited: Promise<number> } {
    threads.delete(thread);
    for (const t of [thread.deadline, thread.idle]) if (t) clearTimeout(t);
    thread.deadline = thread.idle = null;
    const job = thread.job;
    thread.job = null;
    return { job, exited: thread.worker.terminate() };
  }

  /** Threads cannot start here: this job and every later one run on the calling thread. */
  function giveUp(job: J | null, err: unknown) {
    if (!broken) opts.warn(opts.brokenMessage, err);
    broken = true;
    // Nothing was wrong with the job: it runs here instead, like every later one.
    if (job) opts.runHere(job);
    for (const queued of queue.splice(0)) opts.runHere(queued);
  }

  /** The thread died ('error' or 'exit'): out of memory, a crash, or a stop we asked for. */
  function retire(thread: Thread<J>, err: unknown) {
    if (!threads.has(thread)) return; // stopped on purpose; its job was settled then
    const { job } = stop(thread);
    if (!thread.ready) return giveUp(job, err);
    if (job) {
      counts.crashes++;
      job.reject(opts.failure(job, err, 'crash'));
    }
    dispatch();
  }

  function spawn(url: URL): Thread<J> {
    const worker = new Worker(url, { resourceLimits: opts.resourceLimits });
    const thread: Thread<J> = { worker, ready: false, job: null, deadline: null, idle: null };
    worker.on('message', (msg: M) => {
      if (msg.ready) {
        thread.ready = true;
        slowStarts = 0;
        if (thread.job) opts.delivered?.(thread.job);
        return;
      }
      const job = thread.job;
      thread.job = null;
      if (thread.deadline) clearTimeout(thread.deadline);
      thread.deadline = null;
      if (!job) return dispatch();
      counts.completed++;
      const after = opts.reply(msg, job);
      if (!after) return dispatch();
      void stop(thread).exited.then(() => {
        after();
        dispatch();
      });
    });
    worker.on('error', (err) => retire(thread, err));
    worker.on('exit', (code) => retire(thread, new Error(`${opts.name} thread exited with code ${code}`)));
    threads.add(thread);
    return thread;
  }

  /** The entry threads start from, or null while it is being produced (dispatch runs again then). */
  function entryUrl(): URL | null {
    if (entry || entryPending) return entry;
    const got = opts.entry();
    if (got instanceof URL) return (entry = got);
    entryPending = true;
    void got.then((url) => {
      entry = url;
      entryPending = false;
      dispatch();
    });
    return null;
  }

  function dispatch() {
    while (queue.length) {
      if (broken) return void queue.splice(0).forEach(opts.runHere);
      let thread = [...threads].find((t) => !t.job);
      if (!thread && threads.size < opts.size) {
        const url = entryUrl();
        if (!url) return;
        thread = spawn(url);
      }
      if (!thread) return;
      const job = queue.shift()!;
      if (thread.idle) clearTimeout(thread.idle);
      thread.idle = null;
      thread.job = job;
      // Busy, the thread keeps the process alive (its job must settle); idle, it never does.
      thread.worker.ref();
      const busy = thread;
      thread.deadline = setTimeout(() => {
        const { job: late } = stop(busy);
        const err = new Error(`${opts.name} took longer than ${opts.timeoutMs} ms`);
        // A thread that never got ready was slow to start (a busy machine), not slow on the job:
        // the job runs here; only starts that keep failing give up on threads.
        if (!busy.ready) {
          if (++slowStarts >= SLOW_STARTS_TO_GIVE_UP) return giveUp(late, err);
          if (late) opts.runHere(late);
          return dispatch();
        }
        if (late) {
          counts.timeouts++;
          late.reject(opts.failure(late, err, 'timeout'));
        }
        dispatch();
      }, opts.timeoutMs);
      thread.deadline.unref();
      opts.post(thread.worker, job);
      if (thread.ready) opts.delivered?.(job);
    }
    for (const thread of threads) {
      if (thread.job || thread.idle) continue;
      thread.worker.unref();
      const idle = thread;
      thread.idle = setTimeout(() => void stop(idle), opts.idleMs);
      thread.idle.unref();
    }
  }

  return {
    submit(job) {
      queue.push(job);
      dispatch();
    },
    get broken() {
      return broken;
    },
    stats() {
      const busy = [...threads].filter((t) => t.job).length;
      return { size: opts.size, threads: threads.size, busy, queued: queue.length, ...counts, broken };
    },
    async close() {
      for (const job of queue.splice(0)) job.reject(opts.closed(job));
      const exits = [...threads].map((thread) => {
        const { job, exited } = stop(thread);
        job?.reject(opts.closed(job));
        return exited;
      });
      await Promise.all(exits);
    },
  };
}
