// The server's Content Intelligence analysis, in worker threads, bounded: at most `threads`
// operations run at once (each thread runs one), the rest wait in order. Why: scoring a page is
// synchronous CPU work (signals, keyphrases, compromise), and eight at once on the API's event
// loop made /healthz wait over a second (`npm run bench:content` measures it). The one thing to
// know: a thread that cannot start (no TypeScript loader in this runtime) makes every later
// operation run in process, as before, with one warning; a thread that dies fails only the
// operation it was running (an internal error), and the next one starts a fresh thread.
import { Worker } from 'node:worker_threads';
import { threadWarning } from '../pages/extract-threads.ts';
import { OPERATIONS, type Analysis, type OperationName } from './analysis.ts';

export interface AnalysisPool extends Analysis {
  close(): Promise<void>;
}

export interface AnalysisPoolOptions {
  /** Threads; 0 runs every operation on the calling thread. Default 1. */
  threads?: number;
  /** An idle thread is stopped after this long. Default 30 s. */
  idleMs?: number;
  /** An operation taking longer stops its thread and fails. Default 60 s. */
  timeoutMs?: number;
  /** Old-generation heap limit of a thread (MB). Default 512. */
  maxHeapMb?: number;
}

interface Job {
  op: OperationName;
  args: unknown[];
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  deadline: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

const ENTRY = new URL('./analysis-thread-entry.mjs', import.meta.url);

const warn = (message: string, err?: unknown) => threadWarning('SIGHTLINE_ANALYSIS_THREAD', message, err);

export function createAnalysisPool(opts: AnalysisPoolOptions = {}): AnalysisPool {
  const size = Math.max(0, opts.threads ?? 1);
  const idleMs = opts.idleMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxHeapMb = opts.maxHeapMb ?? 512;
  const threads = new Set<Thread>();
  const queue: Job[] = [];
  let broken = false;

  const runHere = (job: Job) => {
    try {
      job.resolve((OPERATIONS[job.op] as (...a: unknown[]) => unknown)(...job.args));
    } catch (err) {
      job.reject(err);
    }
  };

  function stop(thread: Thread): Job | null {
    threads.delete(thread);
    for (const t of [thread.deadline, thread.idle]) if (t) clearTimeout(t);
    thread.deadline = thread.idle = null;
    const job = thread.job;
    thread.job = null;
    void thread.worker.terminate();
    return job;
  }

  function retire(thread: Thread, err: unknown) {
    if (!threads.has(thread)) return;
    const job = stop(thread);
    if (!thread.ready) {
      // It never started: nothing is wrong with the work, the runtime cannot run threads.
      if (!broken) warn('analysis threads cannot start; Content Intelligence analysis runs on the event loop', err);
      broken = true;
      if (job) runHere(job);
      for (const q of queue.splice(0)) runHere(q);
      return;
    }
    if (job) {
      warn(`analysis thread failed during ${job.op}`, err);
      job.reject(new Error(`analysis thread failed: ${err instanceof Error ? err.message : String(err)}`));
    }
    dispatch();
  }

  function spawn(): Thread {
    const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
    const thread: Thread = { worker, ready: false, job: null, deadline: null, idle: null };
    worker.on('message', (msg: { ready?: true; result?: unknown; error?: string }) => {
      if (msg.ready) {
        thread.ready = true;
        return;
      }
      const job = thread.job;
      thread.job = null;
      if (thread.deadline) clearTimeout(thread.deadline);
      thread.deadline = null;
      if (job) {
        if (msg.error !== undefined) job.reject(new Error(`analysis failed: ${msg.error}`));
        else job.resolve(msg.result);
      }
      dispatch();
    });
    worker.on('error', (err) => retire(thread, err));
    worker.on('exit', (code) => retire(thread, new Error(`analysis thread exited with code ${code}`)));
    threads.add(thread);
    return thread;
  }

  function dispatch() {
    while (queue.length) {
      if (broken) return void queue.splice(0).forEach(runHere);
      let thread = [...threads].find((t) => !t.job);
      if (!thread && threads.size < size) thread = spawn();
      if (!thread) break;
      const job = queue.shift()!;
      if (thread.idle) clearTimeout(thread.idle);
      thread.idle = null;
      thread.job = job;
      thread.worker.ref();
      const busy = thread;
      thread.deadline = setTimeout(() => retire(busy, new Error(`analysis took longer than ${timeoutMs} ms`)), timeoutMs);
      thread.deadline.unref();
      thread.worker.postMessage({ op: job.op, args: job.args });
    }
    for (const thread of threads) {
      if (thread.job || thread.idle) continue;
      thread.worker.unref();
      const idle = thread;
      thread.idle = setTimeout(() => void stop(idle), idleMs);
      thread.idle.unref();
    }
  }

  const run = <T>(op: OperationName, args: unknown[]): Promise<T> => {
    if (size === 0 || broken) {
      try {
        return Promise.resolve((OPERATIONS[op] as (...a: unknown[]) => T)(...args));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<T>((resolve, reject) => {
      queue.push({ op, args, resolve: resolve as (v: unknown) => void, reject });
      dispatch();
    });
  };

  return {
    score: (doc, extras) => run('score', [doc, extras]),
    trends: (site, input) => run('trends', [site, input]),
    prompts: (site, input) => run('prompts', [site, input]),
    async close() {
      for (const job of queue.splice(0)) job.reject(new Error('analysis closed'));
      for (const thread of [...threads]) stop(thread)?.reject(new Error('analysis closed'));
    },
  };
}
