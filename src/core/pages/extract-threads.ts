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
// page never pays for one.
import { deserialize } from 'node:v8';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageDocument } from './document.ts';
import { extractPage } from './extract/index.ts';
import { renderContentView } from './content-view.ts';
import { FetchError } from './fetch/errors.ts';

export interface ExtractedPage {
  document: PageDocument;
  contentView: string;
}

export interface PageExtractor {
  extract(html: string, url: string): Promise<ExtractedPage>;
  /** Stops the worker threads; later calls start them again. */
  close(): Promise<void>;
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

interface Thread {
  worker: Worker;
  job: Job | null;
  /** The job's deadline (a page that takes longer stops the thread). */
  deadline: NodeJS.Timeout | null;
  /** Set once the worker has loaded the extractor; a worker that dies before that is broken. */
  ready: boolean;
  idle: NodeJS.Timeout | null;
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

/** A process warning with the error's stack: how thread pools tell the operator why a thread failed. */
export function threadWarning(code: string, message: string, err?: unknown): void {
  const detail = err instanceof Error ? (err.stack ?? err.message) : err === undefined ? '' : String(err);
  process.emitWarning(detail ? `${message}: ${detail}` : message, { code });
}

/** Thread failures answer the client with extraction_failed; the operator sees why here. */
const warn = (message: string, err?: unknown) => threadWarning('SIGHTLINE_EXTRACT_THREAD', message, err);

export function createPageExtractor(opts: ExtractorOptions = {}): PageExtractor {
  const size = Math.max(0, opts.threads ?? 1);
  const minChars = opts.minChars ?? 256 * 1024;
  const maxHeapMb = opts.maxHeapMb ?? 512;
  const idleMs = opts.idleMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const threads = new Set<Thread>();
  const queue: Job[] = [];
  // Workers that cannot even load (no TypeScript loader in this runtime, a broken install) would
  // fail every big page: after the first such failure big pages are extracted in process.
  let broken = false;

  // An exception here is a bug of the extractor, not a property of the page: it propagates as
  // it is (a logged 500), unlike a thread that dies of the page (extraction_failed).
  const runInProcess = (job: Job) => {
    try {
      job.resolve(extractInProcess(job.html, job.url));
    } catch (err) {
      job.reject(err);
    }
  };

  /** Takes the thread out of service (no job is given to it any more) and stops it. */
  function stop(thread: Thread): { job: Job | null; exited: Promise<number> } {
    threads.delete(thread);
    if (thread.idle) clearTimeout(thread.idle);
    if (thread.deadline) clearTimeout(thread.deadline);
    thread.idle = thread.deadline = null;
    const job = thread.job;
    thread.job = null;
    return { job, exited: thread.worker.terminate() };
  }

  /** Threads cannot start here: this job and every later big page are extracted in process. */
  function giveUp(job: Job | null, err: unknown) {
    if (!broken) warn('page extraction threads cannot start; big pages are extracted on the event loop', err);
    broken = true;
    // Nothing was wrong with the page: it runs here instead, like every later one.
    if (job) runInProcess(job);
    for (const queued of queue.splice(0)) runInProcess(queued);
  }

  /** The thread died ('error' or 'exit'): out of memory, a crash, or a stop we asked for. */
  function retire(thread: Thread, err: unknown) {
    if (!threads.has(thread)) return; // stopped on purpose; its job was settled then
    const { job } = stop(thread);
    if (!thread.ready) return giveUp(job, err);
    if (job) {
      warn(`page extraction thread failed on ${job.url}`, err);
      job.reject(extractionFailed(job.url, err));
    }
    dispatch();
  }

  function finish(job: Job, bytes: ArrayBuffer) {
    try {
      job.resolve(deserialize(new Uint8Array(bytes)) as ExtractedPage);
    } catch (err) {
      job.reject(extractionFailed(job.url, err));
    }
  }

  /**
   * The thread has its own copy of the page now: this one is not needed any more (a ready
   * thread's job ends in its result or in extraction_failed, never back in process), so the
   * caller's page can be freed while the thread works (5 MiB of body at the fetch cap).
   */
  function release(job: Job) {
    job.html = '';
  }

  function spawn(entry: URL): Thread {
    const worker = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 16 } });
    const thread: Thread = { worker, job: null, deadline: null, ready: false, idle: null };
    worker.on('message', (msg: { ready?: true; bytes?: ArrayBuffer; error?: string }) => {
      if (msg.ready) {
        thread.ready = true;
        if (thread.job) release(thread.job);
        return;
      }
      const job = thread.job;
      thread.job = null;
      if (thread.deadline) clearTimeout(thread.deadline);
      thread.deadline = null;
      if (!job) return dispatch();
      if (!msg.bytes) {
        job.reject(new Error(`page extraction failed in its thread: ${msg.error ?? 'unknown error'}`));
        return dispatch();
      }
      const bytes = msg.bytes;
      if (bytes.byteLength < RESTART_BYTES) {
        finish(job, bytes);
        return dispatch();
      }
      // A huge result: the thread's heap still holds the page's tree and its own copy of the
      // result. Stop the thread before the result is rebuilt here, so the two never coexist.
      void stop(thread).exited.then(() => {
        finish(job, bytes);
        dispatch();
      });
    });
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY), a crash, or terminate(): the job in flight fails.
    worker.on('error', (err) => retire(thread, err));
    worker.on('exit', (code) => retire(thread, new Error(`extraction thread exited with code ${code}`)));
    threads.add(thread);
    return thread;
  }

  // The entry threads start from: given, or bundled on first use (workerEntry).
  let entry: URL | null = opts.entry ?? null;
  let entryPending = false;

  function dispatch() {
    while (queue.length) {
      if (broken) return void queue.splice(0).forEach(runInProcess);
      let thread = [...threads].find((t) => !t.job);
      if (!thread && threads.size < size) {
        if (!entry) {
          if (!entryPending) {
            entryPending = true;
            void workerEntry().then((url) => {
              entry = url;
              entryPending = false;
              dispatch();
            });
          }
          return;
        }
        thread = spawn(entry);
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
        const err = new Error(`extraction took longer than ${timeoutMs} ms`);
        // A thread that never got ready hung while starting, not on the page.
        if (!busy.ready) return giveUp(late, err);
        if (late) late.reject(extractionFailed(late.url, err));
        dispatch();
      }, timeoutMs);
      thread.deadline.unref();
      thread.worker.postMessage({ html: job.html, url: job.url });
      if (thread.ready) release(job);
    }
    for (const thread of threads) {
      if (thread.job || thread.idle) continue;
      thread.worker.unref();
      const idle = thread;
      thread.idle = setTimeout(() => void stop(idle), idleMs);
      thread.idle.unref();
    }
  }

  return {
    extract(html, url) {
      if (size === 0 || broken || html.length < minChars) {
        try {
          return Promise.resolve(extractInProcess(html, url));
        } catch (err) {
          return Promise.reject(err);
        }
      }
      return new Promise<ExtractedPage>((resolve, reject) => {
        queue.push({ html, url, resolve, reject });
        dispatch();
      });
    },
    async close() {
      const closed = () => new Error('extractor closed');
      for (const job of queue.splice(0)) job.reject(extractionFailed(job.url, closed()));
      const exits = [...threads].map((thread) => {
        const { job, exited } = stop(thread);
        job?.reject(extractionFailed(job.url, closed()));
        return exited;
      });
      await Promise.all(exits);
    },
  };
}
