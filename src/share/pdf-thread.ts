// Where a share link's PDF is rendered: in a worker thread, so the server's event loop never
// waits for it. Why: setting a large report's text, subsetting and compressing its fonts and
// loading pdfkit itself are synchronous CPU work, and on the main thread they held every other
// request of the process for up to a quarter of a second at a time (`npm run bench:share`),
// on a page anyone with the link can fetch without signing in. The one thing to know: the main
// thread still reads the database and gathers the report (a plain object); only that object
// crosses to the thread, and the PDF's bytes come back transferred, not copied. One thread,
// started by the first PDF (never by `serve`'s start) and stopped after a minute idle; pdfkit and
// the fonts load once per thread. A thread that crashes or runs out of time fails that one
// request (500 internal_error) and the next request gets a fresh thread; where threads cannot
// start at all, PDFs render on the event loop as before (pdf.ts yields between table rows).
// The pool itself (queue, idle stop, timeout, crash handling, counts) is src/lib/thread-pool.ts.
import type { ShareReport } from '../core/reports/shares.ts';
import { createThreadPool, threadWarning, type ThreadPoolStats } from '../lib/thread-pool.ts';
import { reportPdf } from './pdf.ts';

export interface PdfRenderer {
  render(report: ShareReport): Promise<Buffer>;
  /** Fails queued and running renders and stops the thread; a later render starts it again. */
  close(): Promise<void>;
  /** Counts of the thread (busy, queued, crashes, timeouts). */
  stats(): ThreadPoolStats;
}

export interface PdfRendererOptions {
  /** Threads; 0 renders on the calling thread. Default 1: a PDF is rare, and the cache keeps it. */
  threads?: number;
  /** A render taking longer stops its thread and fails. Default 60 s. */
  timeoutMs?: number;
  /** An idle thread is stopped after this long. Default 60 s. */
  idleMs?: number;
  /** The thread's entry module (tests replace it). */
  entry?: URL;
}

interface Job {
  report: ShareReport;
  resolve(pdf: Buffer): void;
  reject(err: unknown): void;
}

const ENTRY = new URL('./pdf-thread-entry.mjs', import.meta.url);

const warn = (message: string, err?: unknown) => threadWarning('SIGHTLINE_SHARE_PDF_THREAD', message, err);

/** What the request fails with: the client sees 500 internal_error, the log says why. */
const renderFailed = (cause: unknown) => new Error(`share PDF render failed: ${cause instanceof Error ? cause.message : String(cause)}`);

export function createPdfRenderer(opts: PdfRendererOptions = {}): PdfRenderer {
  const size = Math.max(0, opts.threads ?? 1);
  const runHere = (job: Job) => void reportPdf(job.report).then(job.resolve, job.reject);
  const pool = createThreadPool<Job, { ready?: true; bytes?: ArrayBuffer; error?: string }>({
    name: 'share PDF',
    size,
    idleMs: opts.idleMs ?? 60_000,
    timeoutMs: opts.timeoutMs ?? 60_000,
    resourceLimits: { maxOldGenerationSizeMb: 512 },
    entry: () => opts.entry ?? ENTRY,
    post: (worker, job) => worker.postMessage({ report: job.report }),
    reply(msg, job) {
      if (msg.bytes) job.resolve(Buffer.from(msg.bytes));
      else job.reject(renderFailed(msg.error ?? 'unknown error'));
      return undefined;
    },
    runHere,
    failure(_job, err, how) {
      if (how === 'crash') warn('share PDF thread failed', err);
      return renderFailed(err);
    },
    closed: () => renderFailed('the server is closing'),
    warn,
    brokenMessage: 'share PDF threads cannot start; PDFs are rendered on the event loop',
  });
  return {
    render(report) {
      if (size === 0 || pool.broken) return reportPdf(report);
      return new Promise<Buffer>((resolve, reject) => pool.submit({ report, resolve, reject }));
    },
    close: () => pool.close(),
    stats: () => pool.stats(),
  };
}
