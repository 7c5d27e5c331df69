// Entry of a page extraction worker thread (see extract-threads.ts). Worker threads do not
// inherit the parent's `--import tsx` loader, so tsx is registered here before the TypeScript
// sources load. It answers each { html, url } with { bytes } (the v8-serialized result, its
// buffer transferred) or { error }.
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { extractInProcess } = await import('./extract-threads.ts');
parentPort.on('message', ({ html, url }) => {
  let bytes;
  try {
    const out = serialize(extractInProcess(html, url));
    // The buffer may be a slice of a larger one: transfer exactly the result's bytes.
    bytes = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out.buffer : out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
  } catch (err) {
    parentPort.postMessage({ error: String(err?.stack ?? err) });
    return;
  }
  parentPort.postMessage({ bytes }, [bytes]);
});
parentPort.postMessage({ ready: true });
