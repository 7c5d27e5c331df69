// Entry of a page extraction worker thread (see extract-threads.ts). It answers each
// { html, url } with { bytes } (the v8-serialized result, its buffer transferred) or { error }.
// Threads normally run this module bundled into plain JavaScript with the sources it imports
// (workerEntry in extract-threads.ts). Run as a file, it first registers tsx: worker threads do
// not inherit the parent's `--import tsx` loader.
import { serialize, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';

// esbuild sets SIGHTLINE_BUNDLED when it bundles this module (workerEntry in extract-threads.ts).
if (!import.meta.SIGHTLINE_BUNDLED) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { extractInProcess } = await import('./extract-threads.ts');

/*
 * Full garbage collections between extraction and the content view, for big pages. Why: when
 * extractPage returns, the page's tree (about 75 MB for 10 MB of HTML) is garbage, but V8 has
 * no reason to collect it yet, so the content view and the serialized result (25 MB for that
 * page, outside the heap) would be allocated on top of it: the thread's peak was the tree plus
 * the result. The first collection frees the tree, the second compacts the pages the document
 * shares with it, so they go back to the system (heap 152 -> 106 MB committed on that page).
 * `gc` is V8's own, exposed to a fresh context only; where it cannot be had, extraction runs as
 * before.
 */
let gc = null;
try {
  setFlagsFromString('--expose-gc');
  gc = runInNewContext('gc');
} catch {
  gc = null;
}
const collect = () => {
  gc();
  gc();
};
/** Below this many characters of HTML the tree is small and V8's own timing is fine. */
const COLLECT_CHARS = 1024 * 1024;

parentPort.on('message', (msg) => {
  const { html, url } = msg;
  // The message would keep this thread's copy of the page alive until the reply: once parsed, it is not needed.
  msg.html = null;
  let bytes;
  try {
    const between = gc && html.length >= COLLECT_CHARS ? collect : undefined;
    const out = serialize(extractInProcess(html, url, between));
    // The buffer may be a slice of a larger one: transfer exactly the result's bytes.
    bytes = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out.buffer : out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
  } catch (err) {
    parentPort.postMessage({ error: String(err?.stack ?? err) });
    return;
  }
  parentPort.postMessage({ bytes }, [bytes]);
});
parentPort.postMessage({ ready: true });
