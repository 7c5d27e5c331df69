// Entry of a page extraction worker thread (see extract-threads.ts). Worker threads do not
// inherit the parent's `--import tsx` loader, so tsx is registered here before the TypeScript
// sources load. It answers each { html, url } with { page } or { error }.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { extractInProcess } = await import('./extract-threads.ts');
parentPort.on('message', ({ html, url }) => {
  let answer;
  try {
    answer = { page: extractInProcess(html, url) };
  } catch (err) {
    answer = { error: String(err?.message ?? err) };
  }
  parentPort.postMessage(answer);
});
parentPort.postMessage({ ready: true });
