// Consumer-surface drivers over HTTP against the fake SerpApi and DataForSEO (documented shapes,
// test/fixtures/providers): for every surface × provider, what is sent (engine or endpoint, auth,
// location), what is made of the reply (text, citations, provider, ai_answer_present), a result
// without an AI block, the asynchronous flows (SerpApi's page_token follow-up, DataForSEO's
// task_post → tasks_ready → task_get), and the failures every driver must classify: 429 with
// Retry-After (honoured by the retry layer), 5xx, a malformed body, a timeout, and secrets that
// never leave the driver.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDrivers } from '../../src/platforms/registry.ts';
import { askWithRetry } from '../../src/platforms/retry.ts';
import { PlatformError, type ConsumerPlatform, type PlatformDriver, type ProbeRequest } from '../../src/platforms/types.ts';
import {
  DATAFORSEO_TEST_PASSWORD,
  SERPAPI_TEST_KEY,
  startFakeDataForSeo,
  startFakeSerpApi,
  type DataForSeoOptions,
  type FakeConsumerProvider,
  type SerpApiOptions,
} from '../fakes/providers/consumer.ts';

const fakes: FakeConsumerProvider[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

type Provider = 'serpapi' | 'dataforseo';
const COMBOS: Array<[ConsumerPlatform, Provider]> = [
  ['google_ai_overview', 'serpapi'],
  ['google_ai_overview', 'dataforseo'],
  ['google_ai_mode', 'serpapi'],
  ['google_ai_mode', 'dataforseo'],
  ['copilot', 'serpapi'],
  ['chatgpt_app', 'dataforseo'],
];

function request(platform: ConsumerPlatform, over: Partial<ProbeRequest> = {}): ProbeRequest {
  return {
    platform,
    modelId: 'x',
    providerModel: 'x',
    prompt: 'Which companies make the best anvils?',
    language: 'de',
    country: 'DE',
    targetEntity: 'Acme Anvils',
    targetUrl: 'https://acme.example/',
    competitors: ['Globex'],
    ...over,
  };
}

async function setup(
  platform: ConsumerPlatform,
  provider: Provider,
  opts: SerpApiOptions & DataForSeoOptions = {},
  envOverride: Record<string, string> = {},
): Promise<{ fake: FakeConsumerProvider; driver: PlatformDriver }> {
  const fake = provider === 'serpapi' ? await startFakeSerpApi(opts) : await startFakeDataForSeo(opts);
  fakes.push(fake);
  const env = { ...fake.env, [`SIGHTLINE_${platform.toUpperCase()}_PROVIDER`]: provider, SIGHTLINE_DATAFORSEO_POLL_MS: '20', ...envOverride };
  return { fake, driver: createDrivers({ engine: 'live', env })[platform] };
}

const EXPECTED_TEXT: Record<string, RegExp> = {
  'google_ai_overview:serpapi': /^Acme Anvils is widely regarded[\s\S]*## What to look for\n- Material: Forged steel/,
  'google_ai_overview:dataforseo': /^Acme Anvils is widely regarded as a leading maker of forged anvils; Globex/,
  'google_ai_mode:serpapi': /^Well-known anvil makers include Acme Anvils and Globex\.\n- Acme Anvils: forged steel/,
  'google_ai_mode:dataforseo': /^Well-known anvil makers include \*\*Acme Anvils\*\* and \*\*Globex\*\*\.$/,
  'copilot:serpapi': /^Copilot suggests Globex for beginners and Acme Anvils/,
  'chatgpt_app:dataforseo': /^For professional smithing, \*\*Acme Anvils\*\*/,
};

for (const [platform, provider] of COMBOS) {
  const name = `${platform} via ${provider}`;

  test(`${name}: success — text, citations with domains, provider, ai_answer_present`, async () => {
    const { fake, driver } = await setup(platform, provider);
    assert.equal(driver.available(), true);
    assert.equal(driver.provider, provider);
    const answer = await driver.ask(request(platform, { city: platform === 'copilot' ? undefined : 'Munich' }));
    assert.match(answer.text, EXPECTED_TEXT[`${platform}:${provider}`]!);
    assert.equal(answer.aiAnswerPresent, true);
    assert.equal(answer.provider, provider);
    assert.equal(answer.engine, 'live');
    assert.ok(answer.citations.length >= 1);
    for (const c of answer.citations) assert.match(c.domain, /^(acme|globex)\.example$/);
    assert.ok(!answer.citations.some((c) => c.url.includes('utm_source')), 'tracking parameters are dropped');
    if (provider === 'serpapi') {
      const first = fake.requests[0]!;
      assert.equal(first.path, '/search');
      assert.equal(first.query.api_key, SERPAPI_TEST_KEY);
      assert.equal(first.query.q, 'Which companies make the best anvils?');
      if (platform === 'copilot') {
        assert.equal(first.query.engine, 'bing_copilot');
        assert.equal(first.query.gl, undefined, 'Copilot takes no country');
        assert.equal(first.query.location, undefined);
      } else {
        assert.equal(first.query.engine, platform === 'google_ai_mode' ? 'google_ai_mode' : 'google');
        assert.equal(first.query.gl, 'de');
        assert.equal(first.query.hl, 'de');
        assert.equal(first.query.location, 'Munich, Germany');
      }
    } else {
      const post = fake.requests[0]!;
      assert.equal(post.method, 'POST');
      assert.match(post.path, /\/task_post$/);
      assert.match(String(post.headers.authorization), /^Basic /);
      assert.equal(post.body[0].keyword, 'Which companies make the best anvils?');
      assert.equal(post.body[0].language_code, 'de');
      assert.equal(post.body[0].location_name, 'Munich');
      if (platform === 'google_ai_overview') assert.equal(post.body[0].load_async_ai_overview, true);
      if (platform === 'chatgpt_app') assert.equal(post.body[0].force_web_search, true);
    }
  });

  test(`${name}: a result without an AI block is an answer with ai_answer_present false`, async () => {
    const { driver } = await setup(platform, provider, { overview: 'none', noAnswer: true });
    const answer = await driver.ask(request(platform));
    assert.equal(answer.aiAnswerPresent, false);
    assert.equal(answer.text, '');
    assert.deepEqual(answer.citations, []);
    assert.equal(answer.provider, provider);
    assert.ok(answer.raw, 'the provider reply is kept for audit');
  });

  test(`${name}: 429 with Retry-After is retried after the time asked for`, async () => {
    const { fake, driver } = await setup(platform, provider);
    fake.setFault((_r, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: { error: 'Your account has run out of searches.' } } : undefined));
    const slept: number[] = [];
    const answer = await askWithRetry(driver, request(platform), {
      timeoutMs: 5_000,
      maxAttempts: 3,
      random: () => 0,
      sleep: async (ms) => void slept.push(ms),
    });
    assert.equal(answer.aiAnswerPresent, true);
    assert.deepEqual(slept, [2000]);
    await assert.rejects(
      async () => {
        fake.setFault(() => ({ status: 429, headers: { 'retry-after': '3' }, body: { error: 'throttled' } }));
        await driver.ask(request(platform));
      },
      (e: unknown) => e instanceof PlatformError && e.code === 'provider_rate_limited' && e.retryable && e.retryAfterMs === 3000 && e.httpStatus === 429,
    );
  });

  test(`${name}: 5xx is provider_unavailable and retryable`, async () => {
    const { fake, driver } = await setup(platform, provider);
    fake.setFault(() => ({ status: 503, body: { error: 'Service Unavailable' } }));
    await assert.rejects(driver.ask(request(platform)), (e: unknown) => e instanceof PlatformError && e.code === 'provider_unavailable' && e.retryable && e.httpStatus === 503);
  });

  test(`${name}: a proxy's HTML error page is quoted as its visible text`, async () => {
    const { fake, driver } = await setup(platform, provider);
    fake.setFault(() => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html><head><style>h1{}</style></head><body><h1>Bad Gateway</h1><hr>nginx</body></html>' }));
    await assert.rejects(driver.ask(request(platform)), (e: unknown) => {
      assert.ok(e instanceof PlatformError, String(e));
      assert.equal(e.code, 'provider_unavailable');
      assert.equal(e.message, `${platform} (${provider}): the provider failed (HTTP 502): Bad Gateway nginx`);
      return true;
    });
  });

  test(`${name}: a malformed body is provider_malformed_response, not retried`, async () => {
    const { fake, driver } = await setup(platform, provider);
    fake.setFault(() => ({ status: 200, body: '{"search_metadata": {"status": "Succ' }));
    await assert.rejects(driver.ask(request(platform)), (e: unknown) => e instanceof PlatformError && e.code === 'provider_malformed_response' && !e.retryable);
  });

  test(`${name}: a provider that never answers times out (provider_timeout)`, async () => {
    const { fake, driver } = await setup(platform, provider);
    fake.setFault(() => ({ stall: true }));
    await assert.rejects(
      askWithRetry(driver, request(platform), { timeoutMs: 150, maxAttempts: 1 }),
      (e: unknown) => e instanceof PlatformError && e.code === 'provider_timeout' && e.retryable,
    );
  });

  test(`${name}: wrong credentials are provider_auth_failed and no secret shows`, async () => {
    const wrong: Record<string, string> = provider === 'serpapi' ? { SERPAPI_API_KEY: 'serpapi-wrong-key-abcdef0123456789' } : { DATAFORSEO_PASSWORD: 'dfs-wrong-password-abcdef0123' };
    const secret = Object.values(wrong)[0]!;
    const { driver } = await setup(platform, provider, {}, wrong);
    const err = await driver.ask(request(platform)).catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError);
    assert.equal(err.code, 'provider_auth_failed');
    assert.equal(err.retryable, false);
    const everything = `${err.message} ${JSON.stringify(err)} ${String(err.stack)}`;
    assert.ok(!everything.includes(secret), 'the key never shows');
    assert.ok(!everything.includes(Buffer.from(`tester@example.com:${secret}`).toString('base64')));
  });

  test(`${name}: a provider echoing the secret in an error or an answer has it scrubbed`, async () => {
    const { fake, driver } = await setup(platform, provider);
    const secret = provider === 'serpapi' ? SERPAPI_TEST_KEY : DATAFORSEO_TEST_PASSWORD;
    fake.setFault(() => ({ status: 400, body: { error: `bad request for key ${secret}`, status_message: `bad request for ${secret}` } }));
    const err = await driver.ask(request(platform)).catch((e: unknown) => e);
    assert.ok(err instanceof PlatformError);
    assert.equal(err.code, 'provider_bad_request');
    assert.ok(!err.message.includes(secret));
    assert.match(err.message, /\[REDACTED\]/);
  });
}

test('google_ai_overview via serpapi: a page_token reply is followed up on the google_ai_overview engine', async () => {
  const { fake, driver } = await setup('google_ai_overview', 'serpapi', { overview: 'page_token' });
  const answer = await driver.ask(request('google_ai_overview'));
  assert.deepEqual(
    fake.requests.map((r) => r.query.engine),
    ['google', 'google_ai_overview'],
  );
  assert.equal(fake.requests[1]!.query.page_token, 'KIVu-nictZPdjtMwEIXfJVdgCcR-sample-token');
  assert.equal(fake.requests[1]!.query.api_key, SERPAPI_TEST_KEY);
  assert.match(answer.text, /^Globex makes durable cast anvils/);
  assert.deepEqual(answer.citations.map((c) => c.domain), ['globex.example']);
  assert.equal(answer.aiAnswerPresent, true);
});

for (const platform of ['google_ai_overview', 'google_ai_mode', 'chatgpt_app'] as const) {
  test(`${platform} via dataforseo: the task flow posts, waits in tasks_ready, then fetches endpoint_advanced`, async () => {
    const { fake, driver } = await setup(platform, 'dataforseo', { taskLatencyMs: 150 });
    const started = Date.now();
    const [a, b] = await Promise.all([driver.ask(request(platform)), driver.ask(request(platform, { prompt: 'Second question?' }))]);
    assert.ok(Date.now() - started >= 150, 'the answer waits for the task');
    assert.equal(a.aiAnswerPresent, true);
    assert.equal(b.aiAnswerPresent, true);
    const kinds = fake.requests.map((r) => r.path.replace(/^\/v3\/[a-z_/]+?\/(task_post|tasks_ready|task_get\/advanced)(\/.*)?$/, '$1'));
    assert.equal(kinds.filter((k) => k === 'task_post').length, 2);
    assert.equal(kinds.filter((k) => k === 'task_get/advanced').length, 2);
    const polls = kinds.filter((k) => k === 'tasks_ready').length;
    assert.ok(polls >= 1, 'tasks_ready is asked');
    // One shared poller: two probes in flight do not double the tasks_ready calls.
    assert.ok(polls <= Math.ceil(400 / 20), `tasks_ready polls: ${polls}`);
    const last = fake.requests.at(-1)!;
    assert.equal(last.method, 'GET');
  });
}

test('dataforseo task flow: the posted task is recorded, and a retry after a failed fetch resumes it instead of posting again', async () => {
  const { fake, driver } = await setup('chatgpt_app', 'dataforseo', { taskLatencyMs: 100 });
  let fetches = 0;
  // The first fetch of the task fails with a 5xx (retryable): the retry must not post a new task.
  fake.setFault((r) => (r.path.includes('/task_get/advanced/') && fetches++ === 0 ? { status: 503, body: { status_code: 50000, status_message: 'Internal Error.' } } : undefined));
  const recorded: string[] = [];
  let posted: string | null = null;
  const task = {
    get posted() {
      return posted;
    },
    async record(id: string) {
      posted = id;
      recorded.push(id);
    },
  };
  const waits: string[] = [];
  const waitOffLane = async <T>(wait: () => Promise<T>) => {
    waits.push('wait');
    return wait();
  };
  const answer = await askWithRetry(driver, request('chatgpt_app', { task, waitOffLane }), { timeoutMs: 5_000, maxAttempts: 3, baseDelayMs: 1 });
  assert.equal(answer.aiAnswerPresent, true);
  const posts = fake.requests.filter((r) => r.path.endsWith('/task_post'));
  const gets = fake.requests.filter((r) => r.path.includes('/task_get/advanced/'));
  assert.equal(posts.length, 1, 'posted once');
  assert.equal(recorded.length, 1, 'the task id was recorded once, as posted');
  assert.equal(gets.length, 2, 'the failed fetch, then the resumed one');
  assert.ok(gets.every((r) => r.path.endsWith(`/${recorded[0]}`)));
  assert.deepEqual(waits, ['wait'], 'the resumed task was ready: fetched without waiting again');
});

test('dataforseo task flow: a task recorded by an earlier worker and not ready yet is waited for, not posted', async () => {
  const { fake, driver } = await setup('google_ai_mode', 'dataforseo', { taskLatencyMs: 300 });
  // An earlier attempt posted the task (and died): its id is all the new attempt has.
  let id = '';
  const record = async (taskId: string) => {
    id = taskId;
    throw new Error('the worker dies here');
  };
  const first = await driver.ask(request('google_ai_mode', { task: { posted: null, record } })).catch(() => null);
  assert.equal(first, null);
  assert.ok(id);
  const before = fake.requests.length;
  const answer = await driver.ask(request('google_ai_mode', { task: { posted: id, record: async () => assert.fail('nothing to record') } }));
  assert.equal(answer.aiAnswerPresent, true);
  const kinds = fake.requests.slice(before).map((r) => r.path.split('/').slice(-2).join('/'));
  assert.equal(kinds.filter((k) => k.endsWith('task_post')).length, 0, 'not posted again');
  assert.equal(kinds[0], `advanced/${id}`, 'asked for the recorded task first (not ready: 40602)');
  assert.ok(kinds.some((k) => k.endsWith('tasks_ready')), 'then waited in tasks_ready');
  assert.equal(kinds.at(-1), `advanced/${id}`);
});

test('dataforseo live method: one POST to live/advanced', async () => {
  const { fake, driver } = await setup('google_ai_mode', 'dataforseo', {}, { SIGHTLINE_DATAFORSEO_METHOD: 'live' });
  const answer = await driver.ask(request('google_ai_mode'));
  assert.equal(answer.aiAnswerPresent, true);
  assert.deepEqual(fake.requests.map((r) => `${r.method} ${r.path}`), ['POST /v3/serp/google/ai_mode/live/advanced']);
});

test('provider choice: a provider that cannot serve a surface stops the start with a clear message', () => {
  assert.throws(() => createDrivers({ engine: 'live', env: { SIGHTLINE_COPILOT_PROVIDER: 'dataforseo' } }), /SIGHTLINE_COPILOT_PROVIDER=dataforseo: dataforseo cannot serve copilot; it is served by serpapi/);
  assert.throws(() => createDrivers({ engine: 'sandbox', env: { SIGHTLINE_CHATGPT_APP_PROVIDER: 'serpapi' } }), /cannot serve chatgpt_app/);
  assert.throws(() => createDrivers({ engine: 'live', env: { SIGHTLINE_GOOGLE_AI_MODE_PROVIDER: 'brightdata' } }), /is not a provider/);
});

test('provider choice: the first configured provider serves; a surface no configured provider serves is unavailable', () => {
  const serp = createDrivers({ engine: 'live', env: { SERPAPI_API_KEY: 'serpapi-key-0123456789' } });
  assert.equal(serp.google_ai_overview.provider, 'serpapi');
  assert.equal(serp.copilot.available(), true);
  assert.equal(serp.chatgpt_app.available(), false);
  assert.equal(serp.chatgpt_app.provider, null);
  const both = createDrivers({
    engine: 'live',
    env: { SERPAPI_API_KEY: 'serpapi-key-0123456789', DATAFORSEO_LOGIN: 'a@b.example', DATAFORSEO_PASSWORD: 'pw-0123456789', SIGHTLINE_GOOGLE_AI_MODE_PROVIDER: 'dataforseo' },
  });
  assert.equal(both.google_ai_overview.provider, 'serpapi');
  assert.equal(both.google_ai_mode.provider, 'dataforseo');
  assert.equal(both.chatgpt_app.provider, 'dataforseo');
  const none = createDrivers({ engine: 'live', env: {} });
  for (const p of ['google_ai_overview', 'google_ai_mode', 'copilot', 'chatgpt_app'] as const) assert.equal(none[p].available(), false);
});
