// Entry of a Content Intelligence analysis thread (see analysis-threads.ts). It answers each
// { id, op, args } with { id, result } or { id, error }, running the operation of analysis.ts.
// Worker threads do not inherit the parent's `--import tsx` loader: it is registered here first.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

// On Linux the nice value is per thread and pid 0 is this thread: analysis yields the CPU to the
// event loop (requests, /healthz) when both want it. Where that is not allowed, it runs as is.
try {
  setPriority(0, 10);
} catch {
  /* not permitted here */
}

const { register } = await import('tsx/esm/api');
register();
const { OPERATIONS } = await import('./analysis.ts');

parentPort.on('message', ({ id, op, args }) => {
  let result;
  try {
    result = OPERATIONS[op](...args);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.stack ?? err) });
    return;
  }
  parentPort.postMessage({ id, result });
});
parentPort.postMessage({ ready: true });
