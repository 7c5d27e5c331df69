// The thread pool tells a runtime that cannot run its threads from a machine too busy to start one
// in time: a thread that dies before it is ready gives up on threads for good, a thread still
// starting when its job's time is up only hands that job to the calling thread, and only
// SLOW_STARTS_TO_GIVE_UP such starts in a row give up. Real worker threads, whose start is held
// back by the test (the worker waits before saying it is ready), so nothing depends on the clock
// of a busy machine: a start held for a minute is always later than the deadline, and a plain start
// is given seconds.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createThreadPool, SLOW_STARTS_TO_GIVE_UP } from '../../src/lib/thread-pool.ts';

const dir = mkdtempSync(join(tmpdir(), 'thread-pool-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The worker holds its start for TP_START_DELAY_MS (read from the environment it was spawned with),
// or throws at once when TP_START_THROWS is set; then it doubles every number it is sent.
const entry = join(dir, 'worker.mjs');
writeFileSync(
  entry,
  `import { parentPort } from 'node:worker_threads';
if (process.env.TP_START_THROWS) throw new Error('cannot start here');
const delay = Number(process.env.TP_START_DELAY_MS || 0);
if (delay) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, delay);
parentPort.postMessage({ ready: true });
parentPort.on('message', (n) => parentPort.postMessage({ value: n * 2 }));
`,
);

interface Job {
  n: number;
  resolve(v: { value: number; where: 'thread' | 'here' }): void;
  reject(err: unknown): void;
}

function pool(timeoutMs: number) {
  const warnings: string[] = [];
  const p = createThreadPool<Job, { ready?: true; value?: number }>({
    name: 'test',
    size: 1,
    idleMs: 60_000,
    timeoutMs,
    resourceLimits: {},
    entry: () => pathToFileURL(entry),
    post: (worker, job) => worker.postMessage(job.n),
    reply: (msg, job) => void job.resolve({ value: msg.value!, where: 'thread' }),
    runHere: (job) => job.resolve({ value: job.n * 2, where: 'here' }),
    failure: (_job, err) => err,
    closed: () => new Error('closed'),
    warn: (message) => void warnings.push(message),
    brokenMessage: 'test threads cannot start',
  });
  const run = (n: number) => new Promise<{ value: number; where: 'thread' | 'here' }>((resolve, reject) => p.submit({ n, resolve, reject }));
  return { pool: p, run, warnings };
}

function spawnedWith(env: Record<string, string | undefined>) {
  const saved = { TP_START_DELAY_MS: process.env.TP_START_DELAY_MS, TP_START_THROWS: process.env.TP_START_THROWS };
  Object.assign(process.env, { TP_START_DELAY_MS: '', TP_START_THROWS: '' }, env);
  return () => Object.assign(process.env, { TP_START_DELAY_MS: saved.TP_START_DELAY_MS ?? '', TP_START_THROWS: saved.TP_START_THROWS ?? '' });
}

describe('thread pool starts', () => {
  it('a thread slow to start hands its job to the calling thread; the next job gets a thread', async () => {
    const { pool: p, run, warnings } = pool(3_000);
    try {
      let restore = spawnedWith({ TP_START_DELAY_MS: '60000' });
      assert.deepEqual(await run(2), { value: 4, where: 'here' });
      restore();
      assert.equal(p.broken, false);
      restore = spawnedWith({});
      assert.deepEqual(await run(3), { value: 6, where: 'thread' });
      restore();
      assert.equal(p.stats().completed, 1);
      assert.deepEqual(warnings, []);
    } finally {
      await p.close();
    }
  });

  it(`${SLOW_STARTS_TO_GIVE_UP} slow starts in a row give up on threads, with one warning`, async () => {
    const { pool: p, run, warnings } = pool(200);
    const restore = spawnedWith({ TP_START_DELAY_MS: '60000' });
    try {
      for (let i = 0; i < SLOW_STARTS_TO_GIVE_UP; i++) assert.deepEqual(await run(i), { value: i * 2, where: 'here' });
      assert.equal(p.broken, true);
      assert.deepEqual(warnings, ['test threads cannot start']);
    } finally {
      restore();
      await p.close();
    }
  });

  it('a thread that dies before it is ready gives up on threads at once', async () => {
    const { pool: p, run, warnings } = pool(3_000);
    const restore = spawnedWith({ TP_START_THROWS: '1' });
    try {
      assert.deepEqual(await run(5), { value: 10, where: 'here' });
      assert.equal(p.broken, true);
      assert.deepEqual(warnings, ['test threads cannot start']);
    } finally {
      restore();
      await p.close();
    }
  });
});
