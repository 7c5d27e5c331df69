// The per-platform gate: concurrency never exceeds the limit, requests per minute are paced by a
// sliding window (on an injected clock, so no real minute passes), and one platform's stalled or
// failing work never delays another platform.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformGate, type GateClock } from '../../src/platforms/gate.ts';
import { gatedAsk } from '../../src/platforms/retry.ts';
import type { PlatformDriver, PlatformName } from '../../src/platforms/types.ts';
import { probeRequest } from '../fakes/providers/index.ts';

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

test('an aborted waiter leaves the slot queue: its fn never runs and the next waiter gets the slot', async () => {
  const gate = createPlatformGate({ claude: { concurrency: 1, requestsPerMinute: 0 } });
  const hold = deferred();
  const ran: string[] = [];
  const first = gate.run('claude', async () => {
    ran.push('first');
    await hold.promise;
  });
  const ac = new AbortController();
  const second = gate.run('claude', async () => void ran.push('second'), ac.signal);
  const third = gate.run('claude', async () => void ran.push('third'));
  await tick();
  ac.abort(new Error('probe cancelled'));
  await assert.rejects(second, /probe cancelled/);
  hold.resolve();
  await first;
  await third;
  assert.deepEqual(ran, ['first', 'third']);
  assert.equal(gate.inFlight('claude'), 0);
  // An already-aborted signal never enters the gate.
  await assert.rejects(gate.run('claude', async () => void ran.push('late'), AbortSignal.abort(new Error('gone'))), /gone/);
  assert.deepEqual(ran, ['first', 'third']);
});

test('an aborted waiter leaves the minute window queue without recording a start', async () => {
  const m = manualClock();
  const gate = createPlatformGate({ perplexity: { concurrency: 10, requestsPerMinute: 1 } }, m.clock);
  const ran: string[] = [];
  await gate.run('perplexity', async () => void ran.push('a'));
  const ac = new AbortController();
  const b = gate.run('perplexity', async () => void ran.push('b'), ac.signal);
  const c = gate.run('perplexity', async () => void ran.push('c'));
  for (let i = 0; i < 5; i++) await tick();
  ac.abort(new Error('timed out waiting'));
  await assert.rejects(b, /timed out waiting/);
  assert.equal(gate.inFlight('perplexity'), 1, 'only c still holds a slot');
  await m.advance(60_000);
  await c;
  assert.deepEqual(ran, ['a', 'c'], 'c takes the start b would have taken');
  assert.equal(gate.hasCapacity('perplexity'), false, 'one start (c) in the window, not two');
  await m.advance(60_000);
  assert.equal(gate.hasCapacity('perplexity'), true);
});

test('gatedAsk: time waiting in the gate does not count against the attempt timeout; no call sees an aborted signal', async () => {
  const m = manualClock();
  const gate = createPlatformGate({ claude: { concurrency: 4, requestsPerMinute: 1 } }, m.clock);
  const calls: Array<{ prompt: string; aborted: boolean }> = [];
  const driver: PlatformDriver = {
    platform: 'claude',
    engine: 'live',
    available: () => true,
    async ask(req) {
      calls.push({ prompt: req.prompt, aborted: !!req.signal?.aborted });
      req.signal?.throwIfAborted();
      return { text: `answer to ${req.prompt}`, citations: [], model: 'm', engine: 'live', raw: null };
    },
  };
  const drivers = { claude: driver } as unknown as Record<PlatformName, PlatformDriver>;
  // 20 ms per attempt; the queued probes wait in the gate far longer than that (real time) before
  // the window lets them start.
  const ask = gatedAsk(drivers, gate, () => ({ timeoutMs: 20, maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 }));
  const probes = ['p1', 'p2', 'p3', 'p4'].map((p) => ask({ ...probeRequest('claude'), prompt: p }));
  const settled = Promise.allSettled(probes);
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(calls.map((c) => c.prompt), ['p1']);
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 30));
    await m.advance(60_000);
  }
  const results = await settled;
  assert.deepEqual(
    results.map((r) => (r.status === 'fulfilled' ? r.value.text : String((r.reason as Error & { code?: string }).code))),
    ['answer to p1', 'answer to p2', 'answer to p3', 'answer to p4'],
  );
  assert.deepEqual(calls.map((c) => c.prompt), ['p1', 'p2', 'p3', 'p4'], 'one call per probe, no timed-out retries');
  assert.ok(calls.every((c) => !c.aborted), 'no driver call ever receives an aborted signal');
});

test('gatedAsk: a probe aborted while waiting in the gate never calls the driver and frees its place', async () => {
  const m = manualClock();
  const gate = createPlatformGate({ claude: { concurrency: 4, requestsPerMinute: 1 } }, m.clock);
  const calls: string[] = [];
  const driver: PlatformDriver = {
    platform: 'claude',
    engine: 'live',
    available: () => true,
    async ask(req) {
      calls.push(req.prompt);
      return { text: 'ok', citations: [], model: 'm', engine: 'live', raw: null };
    },
  };
  const ask = gatedAsk({ claude: driver } as unknown as Record<PlatformName, PlatformDriver>, gate, () => ({ timeoutMs: 1000, maxAttempts: 3 }));
  await ask({ ...probeRequest('claude'), prompt: 'first' });
  const ac = new AbortController();
  const cancelled = ask({ ...probeRequest('claude'), prompt: 'cancelled', signal: ac.signal });
  const next = ask({ ...probeRequest('claude'), prompt: 'next' });
  for (let i = 0; i < 5; i++) await tick();
  ac.abort(new Error('run cancelled'));
  await assert.rejects(cancelled, /run cancelled/);
  await m.advance(60_000);
  await next;
  assert.deepEqual(calls, ['first', 'next']);
});
