// Where page extraction (parse, main content, content view) runs. Ordinary pages are extracted
// on the calling thread; big ones go to worker threads. Why: extraction is synchronous CPU work,
// about 13 ms for an average page but around a second at the 5 MiB body cap, and on the API's
// event loop that second would stall every other request of the process. A worker also has its
// own heap limit, so a pathological page ends as an `extraction` failure (extraction_failed to
// the client, nothing charged) instead of exhausting the service's memory.
//
// The one thing to know: both paths run the same two functions (extractPage, renderContentView)
// and return the same plain data; the worker's result crosses the thread boundary as a structured
// clone. Workers start on first use and stop after being idle, so a process that never sees a big
// page never pays for one. The pool itself (size, queue, crash and timeout handling, counts) is
// src/lib/thread-pool.ts.
import { deserialize } from 'node:v8';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageDocument } from './document.ts';
import { extractPage } from './extract/index.ts';
import { renderContentView } from './content-view.ts';
import { FetchError } from './fetch/errors.ts';
import { createThreadPool, threadWarning, type ThreadPoolStats } from '../../lib/thread-pool.ts';

export { threadWarning };

export interface ExtractedPage {
  document: PageDocument;
  contentView: string;
}

export interface PageExtractor {
  extract(html: string, url: string): Promise<ExtractedPage>;
  /** Stops the worker threads; later calls start them again. */
  close(): Promise<void>;
  /** Counts of the worker threads (busy, queued, crashes, timeouts). */
  stats(): ThreadPoolStats;
}

export interface ExtractorOptions {
  /** Worker threads for big pages; 0 extracts every page on the calling thread. Default 1. */
  threads?: number;
  /** Pages of at least this many characters of HTML go to a worker. Default 256 Ki. */
  minChars?: number;
  /** Old-generation heap limit of a worker (MB). Default 512. */
  maxHeapMb?: number;
  /** A worker idle this long is stopped. Default 30 s. */
  idleMs?: number;
  /** A page taking longer than this in a worker stops it and fails as `extraction`. Default 60 s. */
  timeoutMs?: number;
  /** The worker's entry module (tests replace it). */
  entry?: URL;
}

/**
 * Extraction on the calling thread: what every path ends up running. `between` runs after the
 * document is extracted and before the content view is rendered, when the page's tree is garbage
 * (the worker collects it there, see extract-thread-entry.mjs).
 */
export function extractInProcess(html: string, url: string, between?: () => void): ExtractedPage {
  const document = extractPage(html, url);
  between?.();
  return { document, contentView: renderContentView(document) };
}

interface Job {
  /** Emptied once a ready thread has it (see release): only a thread that never gets ready gives it back. */
  html: string;
  url: string;
  resolve(page: ExtractedPage): void;
  reject(err: unknown): void;
}

/** The worker's entry as a file: it registers tsx in the thread, then loads the TypeScript sources. */
function entryFile(): URL {
  // A function, not a constant: this module is also part of the bundled entry (workerEntry),
  // where there is no such file next to it.
  return new URL('./extract-thread-entry.mjs', import.meta.url);
}

let bundledEntry: Promise<URL> | null = null;
/**
 * The worker's entry as one plain-JavaScript module, bundled once per process with esbuild (what
 * tsx itself runs on). Why: tsx in a thread is a second thread of its own (Node 20 runs module
 * hooks in a separate thread), about 15 MB of the process's memory for as long as the worker
 * lives, next to the page's tree at the worst moment. Where esbuild cannot be loaded or fails,
 * the file entry is used.
 */
function workerEntry(): Promise<URL> {
  bundledEntry ??= (async () => {
    const file = entryFile();
    try {
      const esbuild = await import('esbuild');
      // Written to a file and read back rather than returned (write: false): esbuild's answer
      // over its pipe grew this thread's heap by ~15 MB for a 250 KB bundle. The file goes at
      // once; threads start from the code itself (a data: URL), so nothing is left on disk.
      const dir = mkdtempSync(join(tmpdir(), 'sightline-extract-'));
      try {
        const outfile = join(dir, 'extract-thread.mjs');
        await esbuild.build({
          entryPoints: [fileURLToPath(file)],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          logLevel: 'silent',
          // Only imported when the entry runs unbundled (see there).
          external: ['tsx', 'tsx/*'],
          define: { 'import.meta.SIGHTLINE_BUNDLED': 'true' },
        });
        // esbuild's service is a child process that would otherwise stay for the process's life.
        await esbuild.stop();
        return new URL(`data:text/javascript;base64,${readFileSync(outfile).toString('base64')}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    } catch (err) {
      warn('page extraction threads load their TypeScript sources through tsx (bundling failed)', err);
      return file;
    }
  })();
  return bundledEntry;
}
/** A result this big (serialized) retires its thread first (see the message handler). */
const RESTART_BYTES = 8 * 1024 * 1024;

function extractionFailed(url: string, cause: unknown): FetchError {
  return new FetchError('extraction', undefined, { url, cause });
}

/** Thread failures answer the client with extraction_failed; the operator sees why here. */
const warn = (message: string, err?: unknown) => threadWarning('SIGHTLINE_EXTRACT_THREAD', message, err);

export function createPageExtractor(opts: ExtractorOptions = {}): PageExtractor {
  const size = Math.max(0, opts.threads ?? 1);
  const minChars = opts.minChars ?? 256 * 1024;

  // An exception here is a bug of the extractor, not a property of the page: it propagates as
  // it is (a logged 500), unlike a thread that dies of the page (extraction_failed).
  const runInProcess = (job: Job) => {
    try {
      job.resolve(extractInProcess(job.html, job.url));
    } catch (err) {
      job.reject(err);
    }
  };

  function finish(job: Job, bytes: ArrayBuffer) {
    try {
      job.resolve(deserialize(new Uint8Array(bytes)) as ExtractedPage);
    } catch (err) {
      job.reject(extractionFailed(job.url, err));
    }
  }

  const pool = createThreadPool<Job, { ready?: true; bytes?: ArrayBuffer; error?: string }>({
    name: 'extraction',
    size,
    idleMs: opts.idleMs ?? 30_000,
    timeoutMs: opts.timeoutMs ?? 60_000,
    resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 512, maxYoungGenerationSizeMb: 16 },
    // Given, or bundled on first use (workerEntry).
    entry: () => opts.entry ?? workerEntry(),
    post: (worker, job) => worker.postMessage({ html: job.html, url: job.url }),
    /**
     * The thread has its own copy of the page now: this one is not needed any more (a ready
     * thread's job ends in its result or in extraction_failed, never back in process), so the
     * caller's page can be freed while the thread works (5 MiB of body at the fetch cap).
     */
    delivered: (job) => {
      job.html = '';
    },
    reply(msg, job) {
      if (!msg.bytes) {
        job.reject(new Error(`page extraction failed in its thread: ${msg.error ?? 'unknown error'}`));
        return undefined;
      }
      const bytes = msg.bytes;
      if (bytes.byteLength < RESTART_BYTES) {
        finish(job, bytes);
        return undefined;
      }
      // A huge result: the thread's heap still holds the page's tree and its own copy of the
      // result. Stop the thread before the result is rebuilt here, so the two never coexist.
      return () => finish(job, bytes);
    },
    runHere: runInProcess,
    failure(job, err, how) {
      if (how === 'crash') warn(`page extraction thread failed on ${job.url}`, err);
      return extractionFailed(job.url, err);
    },
    closed: (job) => extractionFailed(job.url, new Error('extractor closed')),
    warn,
    brokenMessage: 'page extraction threads cannot start; big pages are extracted on the event loop',
  });

  return {
    extract(html, url) {
      if (size === 0 || pool.broken || html.length < minChars) {
        try {
          return Promise.resolve(extractInProcess(html, url));
        } catch (err) {
          return Promise.reject(err);
        }
      }
      return new Promise<ExtractedPage>((resolve, reject) => pool.submit({ html, url, resolve, reject }));
    },
    close: () => pool.close(),
    stats: () => pool.stats(),
  };
}
