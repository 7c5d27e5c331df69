// The per-platform gate: concurrency never exceeds the limit, requests per minute are paced by a
// sliding window (on an injected clock, so no real minute passes), and one platform's stalled or
// failing work never delays another platform.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformGate, type GateClock } from '../../src/platforms/gate.ts';

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A manual clock: sleep() resolves when advance() passes its deadline. */
function manualClock() {
  let t = 1_000_000;
  const sleepers: Array<{ at: number; resolve: () => void }> = [];
  const clock: GateClock = {
    now: () => t,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        sleepers.push({ at: t + ms, resolve });
      }),
  };
  return {
    clock,
    sleeping: () => sleepers.length,
    async advance(ms: number) {
      t += ms;
      for (const s of [...sleepers]) {
        if (s.at <= t) {
          sleepers.splice(sleepers.indexOf(s), 1);
          s.resolve();
        }
      }
      for (let i = 0; i < 5; i++) await tick();
    },
  };
}

test('concurrency: at most N calls of a platform run at once; the rest queue in order', async () => {
  const gate = createPlatformGate({ openai: { concurrency: 2, requestsPerMinute: 0 } });
  const gates = [deferred(), deferred(), deferred(), deferred()];
  const started: number[] = [];
  let running = 0;
  let peak = 0;
  const runs = gates.map((d, i) =>
    gate.run('openai', async () => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await d.promise;
      running--;
      return i;
    }),
  );
  await tick();
  assert.deepEqual(started, [0, 1]);
  assert.equal(gate.inFlight('openai'), 2);
  assert.equal(gate.hasCapacity('openai'), false);
  gates[0]!.resolve();
  await tick();
  await tick();
  assert.deepEqual(started, [0, 1, 2]);
  for (const d of gates) d.resolve();
  assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
  assert.equal(peak, 2);
  assert.equal(gate.inFlight('openai'), 0);
  assert.equal(gate.hasCapacity('openai'), true);
});

test('a failing call releases its slot', async () => {
  const gate = createPlatformGate({ claude: { concurrency: 1, requestsPerMinute: 0 } });
  await assert.rejects(gate.run('claude', async () => {
    throw new Error('boom');
  }), /boom/);
  assert.equal(gate.inFlight('claude'), 0);
  assert.equal(await gate.run('claude', async () => 'ok'), 'ok');
});

test('requests per minute: the window admits RPM starts, then the next waits for the oldest to age out', async () => {
  const m = manualClock();
  const gate = createPlatformGate({ perplexity: { concurrency: 10, requestsPerMinute: 3 } }, m.clock);
  const started: number[] = [];
  const runs = [0, 1, 2, 3, 4].map((i) => gate.run('perplexity', async () => void started.push(i)));
  for (let i = 0; i < 5; i++) await tick();
  assert.deepEqual(started, [0, 1, 2]);
  assert.equal(gate.hasCapacity('perplexity'), false);
  await m.advance(59_999);
  assert.deepEqual(started, [0, 1, 2], 'not before a full minute has passed');
  await m.advance(1);
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  await Promise.all(runs);
});

test('a stalled or rate-limited platform never blocks another platform', async () => {
  const m = manualClock();
  const gate = createPlatformGate(
    { gemini: { concurrency: 1, requestsPerMinute: 1 }, deepseek: { concurrency: 1, requestsPerMinute: 0 } },
    m.clock,
  );
  const stuck = deferred();
  const first = gate.run('gemini', () => stuck.promise); // holds gemini's only slot
  const second = gate.run('gemini', async () => 'late'); // queued behind it (and behind the RPM window)
  const other = await gate.run('deepseek', async () => 'deepseek ran');
  assert.equal(other, 'deepseek ran');
  assert.equal(gate.inFlight('gemini'), 1);
  assert.equal(gate.hasCapacity('deepseek'), true);
  stuck.resolve();
  await first;
  await tick();
  await m.advance(60_000);
  assert.equal(await second, 'late');
});

test('unconfigured platforms default to concurrency 4 and no pacing', async () => {
  const gate = createPlatformGate({});
  const hold = deferred();
  const runs = [0, 1, 2, 3, 4].map(() => gate.run('grok', () => hold.promise));
  await tick();
  assert.equal(gate.inFlight('grok'), 4);
  hold.resolve();
  await Promise.all(runs);
});
