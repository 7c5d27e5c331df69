// Entry of the share-link PDF worker thread (see pdf-thread.ts). It answers each { report } with
// { bytes } (the PDF, its buffer transferred) or { error }. pdfkit and the fonts load once, on
// this thread's first render, and stay loaded for the thread's life. Worker threads do not
// inherit the parent's `--import tsx` loader: run from src/, it is registered here first; run
// from the compiled dist/ (production), where pdf.js sits beside this file, it is not needed,
// and the thread is spared tsx's module-hooks thread (about 15 MB, see extract-threads.ts).
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

if (!existsSync(new URL('./pdf.js', import.meta.url))) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { reportPdf } = await import('./pdf.ts');

parentPort.on('message', async ({ report }) => {
  let bytes;
  try {
    const pdf = await reportPdf(report);
    // Buffer.concat may hand back a slice of a pooled buffer: transfer exactly the PDF's bytes.
    bytes = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf.buffer : pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength);
  } catch (err) {
    parentPort.postMessage({ error: String(err?.stack ?? err) });
    return;
  }
  parentPort.postMessage({ bytes }, [bytes]);
});
parentPort.postMessage({ ready: true });
