// The server's Content Intelligence analysis, in worker threads, bounded: at most `threads`
// operations run at once (each thread runs one), the rest wait in order. Why: scoring a page is
// synchronous CPU work (signals, keyphrases, compromise), and eight at once on the API's event
// loop made /healthz wait over a second (`npm run bench:content` measures it). The one thing to
// know: a thread that cannot start (no TypeScript loader in this runtime) makes every later
// operation run in process, as before, with one warning; a thread that dies fails only the
// operation it was running (an internal error), and the next one starts a fresh thread. The
// pool itself (size, queue, crash and timeout handling, counts) is src/lib/thread-pool.ts.
import { createThreadPool, threadWarning, type ThreadPoolStats } from '../../lib/thread-pool.ts';
import { OPERATIONS, type Analysis, type OperationName } from './analysis.ts';

export interface AnalysisPool extends Analysis {
  close(): Promise<void>;
  /** Counts of the threads (busy, queued, crashes, timeouts). */
  stats(): ThreadPoolStats;
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

const ENTRY = new URL('./analysis-thread-entry.mjs', import.meta.url);

const warn = (message: string, err?: unknown) => threadWarning('SIGHTLINE_ANALYSIS_THREAD', message, err);

export function createAnalysisPool(opts: AnalysisPoolOptions = {}): AnalysisPool {
  const size = Math.max(0, opts.threads ?? 1);
  const runHere = (job: Job) => {
    try {
      job.resolve((OPERATIONS[job.op] as (...a: unknown[]) => unknown)(...job.args));
    } catch (err) {
      job.reject(err);
    }
  };
  const pool = createThreadPool<Job, { ready?: true; result?: unknown; error?: string }>({
    name: 'analysis',
    size,
    idleMs: opts.idleMs ?? 30_000,
    timeoutMs: opts.timeoutMs ?? 60_000,
    resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 512 },
    entry: () => ENTRY,
    post: (worker, job) => worker.postMessage({ op: job.op, args: job.args }),
    reply(msg, job) {
      if (msg.error !== undefined) job.reject(new Error(`analysis failed: ${msg.error}`));
      else job.resolve(msg.result);
      return undefined;
    },
    runHere,
    failure(job, err) {
      warn(`analysis thread failed during ${job.op}`, err);
      return new Error(`analysis thread failed: ${err instanceof Error ? err.message : String(err)}`);
    },
    closed: () => new Error('analysis closed'),
    warn,
    // It never started: nothing is wrong with the work, the runtime cannot run threads.
    brokenMessage: 'analysis threads cannot start; Content Intelligence analysis runs on the event loop',
  });

  const run = <T>(op: OperationName, args: unknown[]): Promise<T> => {
    if (size === 0 || pool.broken) {
      try {
        return Promise.resolve((OPERATIONS[op] as (...a: unknown[]) => T)(...args));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<T>((resolve, reject) => pool.submit({ op, args, resolve: resolve as (v: unknown) => void, reject }));
  };

  return {
    score: (doc, extras) => run('score', [doc, extras]),
    trends: (site, input) => run('trends', [site, input]),
    prompts: (site, input) => run('prompts', [site, input]),
    // Queued and running operations are rejected at once; the threads' exits are not waited for.
    async close() {
      void pool.close();
    },
    stats: () => pool.stats(),
  };
}
