// askWithRetry over real drivers and the fake providers: Retry-After honoured on 429, retries
// exhausted on 5xx (the last error thrown, attempts counted at the fake), per-attempt timeout,
// non-retryable failures thrown at once, caller aborts respected. Sleeps are recorded, not waited.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { askWithRetry, backoffDelay } from '../../src/platforms/retry.ts';
import { parseRetryAfter } from '../../src/platforms/live/errors.ts';
import { createDrivers } from '../../src/platforms/registry.ts';
import { PlatformError, type PlatformDriver, type ApiPlatform as PlatformName, type ProbeRequest } from '../../src/platforms/types.ts';
import { probeRequest, startFakeProvider, type FakeProvider, type FakeScript } from '../fakes/providers/index.ts';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const fakes: FakeProvider[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function setup(platform: PlatformName, script: FakeScript) {
  const fake = await startFakeProvider(platform, script);
  fakes.push(fake);
  return { fake, driver: createDrivers({ engine: 'live', env: fake.env })[platform] };
}

function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

test('429 with Retry-After (seconds) then success: waits at least Retry-After, then answers', async () => {
  const { fake, driver } = await setup('openai', [{ status: 429, headers: { 'retry-after': '3' }, error: 'Rate limit reached for gpt-5-mini' }, {}]);
  const { delays, sleep } = recordingSleep();
  const answer = await askWithRetry(driver, probeRequest('openai'), { timeoutMs: 5000, maxAttempts: 4, sleep, random: () => 0 });
  assert.equal(answer.engine, 'live');
  assert.equal(fake.requests.length, 2);
  assert.deepEqual(delays, [3000]);
});

test('429 with retry-after-ms (OpenAI) and with an HTTP-date are honoured', async () => {
  const future = new Date(Date.now() + 60_000).toUTCString();
  const { fake, driver } = await setup('claude', [
    { status: 429, headers: { 'retry-after-ms': '1500' }, error: 'slow down' },
    { status: 429, headers: { 'retry-after': future }, error: 'slow down' },
    {},
  ]);
  const { delays, sleep } = recordingSleep();
  await askWithRetry(driver, probeRequest('claude'), { timeoutMs: 5000, maxAttempts: 4, sleep, random: () => 0 });
  assert.equal(fake.requests.length, 3);
  assert.equal(delays[0], 1500);
  assert.ok(delays[1]! > 50_000 && delays[1]! <= 60_000, String(delays[1]));
});

test('a Retry-After longer than maxRetryAfterMs is not waited for: the 429 is thrown at once', async () => {
  const { fake, driver } = await setup('grok', [{ status: 429, headers: { 'retry-after': '86400' }, error: 'daily quota' }, {}]);
  const { delays, sleep } = recordingSleep();
  await assert.rejects(
    askWithRetry(driver, probeRequest('grok'), { timeoutMs: 5000, maxAttempts: 4, sleep, maxRetryAfterMs: 60_000 }),
    (e: unknown) => e instanceof PlatformError && e.code === 'provider_rate_limited' && e.retryAfterMs === 86_400_000,
  );
  assert.equal(fake.requests.length, 1);
  assert.deepEqual(delays, []);
});

test('5xx on every attempt: maxAttempts requests, exponential full-jitter backoff, the last error thrown', async () => {
  const { fake, driver } = await setup('perplexity', (_req, i) => ({ status: i < 3 ? 502 : 503, error: `upstream failure ${i}` }));
  const { delays, sleep } = recordingSleep();
  await assert.rejects(
    askWithRetry(driver, probeRequest('perplexity'), { timeoutMs: 5000, maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 250, sleep, random: () => 0.999 }),
    (e: unknown) => {
      assert.ok(e instanceof PlatformError);
      assert.equal(e.code, 'provider_unavailable');
      assert.equal(e.httpStatus, 503, 'the error of the last attempt');
      return true;
    },
  );
  assert.equal(fake.requests.length, 4);
  // Ceilings 100, 200, 250 (capped) with random just below 1.
  assert.deepEqual(delays, [99, 199, 249]);
});

// The first call through a provider pays for lazy schema setup in the SDK, so timeout tests warm
// the driver up with one answered request; after that a hanging fake is the only delay.
test('a provider that does not answer in time is provider_timeout, retried, then thrown', async () => {
  const { fake, driver } = await setup('gemini', [{}, { hang: true }, { hang: true }]);
  await driver.ask(probeRequest('gemini'));
  const { delays, sleep } = recordingSleep();
  await assert.rejects(
    askWithRetry(driver, probeRequest('gemini'), { timeoutMs: 250, maxAttempts: 2, sleep, random: () => 0 }),
    (e: unknown) => e instanceof PlatformError && e.code === 'provider_timeout' && e.retryable,
  );
  assert.equal(fake.requests.length, 3);
  assert.equal(delays.length, 1);
});

test('a slow first attempt times out and the second succeeds', async () => {
  const { fake, driver } = await setup('grok', [{}, { hang: true }, {}]);
  await driver.ask(probeRequest('grok'));
  const { sleep } = recordingSleep();
  const answer = await askWithRetry(driver, probeRequest('grok'), { timeoutMs: 250, maxAttempts: 3, sleep, random: () => 0 });
  assert.ok(answer.text.length > 0);
  assert.equal(fake.requests.length, 3);
});

test('auth failure (401) is thrown at once: one request, no sleep', async () => {
  const fake = await startFakeProvider('deepseek');
  fakes.push(fake);
  const driver = createDrivers({ engine: 'live', env: { ...fake.env, DEEPSEEK_API_KEY: 'sk-not-the-right-key-123456' } }).deepseek;
  const { delays, sleep } = recordingSleep();
  await assert.rejects(
    askWithRetry(driver, probeRequest('deepseek'), { timeoutMs: 5000, maxAttempts: 4, sleep }),
    (e: unknown) => e instanceof PlatformError && e.code === 'provider_auth_failed' && !e.message.includes('sk-not-the-right-key-123456'),
  );
  assert.equal(fake.requests.length, 1);
  assert.deepEqual(delays, []);
});

test('400 and malformed responses are not retried', async () => {
  const { fake, driver } = await setup('openai', [{ status: 400, error: 'Invalid model' }, { rawBody: 'not json' }]);
  const { delays, sleep } = recordingSleep();
  await assert.rejects(askWithRetry(driver, probeRequest('openai'), { timeoutMs: 5000, maxAttempts: 4, sleep }), (e: unknown) => e instanceof PlatformError && e.code === 'provider_bad_request');
  await assert.rejects(askWithRetry(driver, probeRequest('openai'), { timeoutMs: 5000, maxAttempts: 4, sleep }), (e: unknown) => e instanceof PlatformError && e.code === 'provider_malformed_response');
  assert.equal(fake.requests.length, 2);
  assert.deepEqual(delays, []);
});

test('a caller abort stops at once and is not turned into a timeout or retried', async () => {
  const controller = new AbortController();
  // The fake cancels the run the moment the request reaches it, and never answers.
  const { fake, driver } = await setup('claude', () => {
    setImmediate(() => controller.abort(new Error('run cancelled')));
    return { hang: true };
  });
  const { delays, sleep } = recordingSleep();
  await assert.rejects(
    askWithRetry(driver, probeRequest('claude', { signal: controller.signal }), { timeoutMs: 30_000, maxAttempts: 4, sleep }),
    (e: unknown) => !(e instanceof PlatformError) && (e as Error).message === 'run cancelled',
  );
  assert.equal(fake.requests.length, 1);
  assert.deepEqual(delays, []);
});

test("the caller's signal is forwarded to each attempt and let go of when the attempt ends", async () => {
  const controller = new AbortController();
  const { fake, driver } = await setup('openai', [{ status: 503, error: 'busy' }, {}]);
  const { sleep } = recordingSleep();
  await askWithRetry(driver, probeRequest('openai', { signal: controller.signal }), { timeoutMs: 5000, maxAttempts: 2, sleep, random: () => 0 });
  assert.equal(fake.requests.length, 2);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'no listener left on a long-lived signal');
});

test('the timeout holds even for a driver that ignores its abort signal', async () => {
  let calls = 0;
  const stubborn: PlatformDriver = {
    platform: 'openai',
    engine: 'live',
    available: () => true,
    ask: (_req: ProbeRequest) => {
      calls++;
      return new Promise(() => {});
    },
  };
  await assert.rejects(
    askWithRetry(stubborn, probeRequest('openai'), { timeoutMs: 20, maxAttempts: 3, sleep: async () => {} }),
    (e: unknown) => e instanceof PlatformError && e.code === 'provider_timeout',
  );
  assert.equal(calls, 3);
});

test('non-PlatformError failures are thrown unchanged without retry', async () => {
  let calls = 0;
  const broken: PlatformDriver = {
    platform: 'openai',
    engine: 'sandbox',
    available: () => true,
    ask: async () => {
      calls++;
      throw new Error('bug');
    },
  };
  await assert.rejects(askWithRetry(broken, probeRequest('openai'), { timeoutMs: 1000, maxAttempts: 4 }), /bug/);
  assert.equal(calls, 1);
});

test('parseRetryAfter: seconds, fractional seconds, HTTP-date, retry-after-ms, garbage', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter({ 'retry-after': '5' }, now), 5000);
  assert.equal(parseRetryAfter({ 'Retry-After': '0.5' }, now), 500);
  assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now), 30_000);
  assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now), 0);
  assert.equal(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now), 250);
  assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), null);
  assert.equal(parseRetryAfter({}, now), null);
  assert.equal(parseRetryAfter(undefined, now), null);
});

test('backoffDelay: full jitter under a doubling, capped ceiling', () => {
  assert.equal(backoffDelay(1, 500, 30_000, () => 0.5), 250);
  assert.equal(backoffDelay(3, 500, 30_000, () => 0.5), 1000);
  assert.equal(backoffDelay(20, 500, 30_000, () => 0.5), 15_000);
  assert.equal(backoffDelay(2, 500, 30_000, () => 0), 0);
});
