// Live drivers end to end over HTTP against the local fake providers: what each driver sends
// (path, auth, model, search tool, location, system message) and what it makes of the reply
// (text, citations de-duplicated with domains, reported model, raw body), plus the failure
// classes every driver must map (auth, malformed body, refusal) and key scrubbing.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDrivers } from '../../src/platforms/registry.ts';
import { API_PLATFORMS, PlatformError, type ApiPlatform as PlatformName } from '../../src/platforms/types.ts';
import { undiciFetch } from '../../src/platforms/live/http.ts';
import { probeRequest, startFakeProvider, DEFAULT_ANSWER_TEXT, type FakeProvider } from '../fakes/providers/index.ts';

// Provider tool warnings are noise in test output.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const fakes: FakeProvider[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function driverFor(platform: PlatformName, script?: Parameters<typeof startFakeProvider>[1], envOverride: Record<string, string> = {}) {
  const fake = await startFakeProvider(platform, script);
  fakes.push(fake);
  const drivers = createDrivers({ engine: 'live', env: { ...fake.env, ...envOverride } });
  return { fake, driver: drivers[platform] };
}

const CITES = [
  { url: 'https://www.Acme.example/anvils?ref=1', title: 'Acme Anvils – catalogue' },
  { url: 'https://globex.example/', title: 'Globex' },
  { url: 'https://www.Acme.example/anvils?ref=1', title: 'Second title must not win' },
];

function systemText(platform: PlatformName, body: any): string {
  switch (platform) {
    case 'openai':
    case 'grok':
      return body.input.find((m: any) => m.role === 'system' || m.role === 'developer')?.content ?? '';
    case 'claude':
      return body.system.map((s: any) => s.text).join(' ');
    case 'gemini':
      return body.systemInstruction.parts.map((p: any) => p.text).join(' ');
    default:
      return body.messages.find((m: any) => m.role === 'system')?.content ?? '';
  }
}

test('openai: Responses API with web_search, user_location from the country, url_citation annotations', async () => {
  const { fake, driver } = await driverFor('openai', [{ answer: { citations: CITES, model: 'gpt-5-mini-2025-08-07' } }]);
  const answer = await driver.ask(probeRequest('openai'));
  const req = fake.requests[0]!;
  assert.equal(req.path, '/v1/responses');
  assert.equal(req.headers.authorization, `Bearer ${fake.apiKey}`);
  assert.equal(req.body.model, 'gpt-5-mini');
  assert.deepEqual(req.body.tools, [{ type: 'web_search', user_location: { type: 'approximate', country: 'DE' } }]);
  assert.equal(req.body.input.at(-1).role, 'user');
  assert.equal(req.body.input.at(-1).content[0].text, 'Which companies make the best anvils?');
  assert.match(systemText('openai', req.body), /German/);
  assert.equal(req.body.store, false);

  assert.equal(answer.engine, 'live');
  assert.equal(answer.text, DEFAULT_ANSWER_TEXT);
  assert.equal(answer.model, 'gpt-5-mini-2025-08-07');
  assert.deepEqual(answer.citations, [
    { title: 'Acme Anvils – catalogue', url: 'https://www.Acme.example/anvils?ref=1', domain: 'acme.example' },
    { title: 'Globex', url: 'https://globex.example/', domain: 'globex.example' },
  ]);
  assert.equal((answer.raw as any).object, 'response');
  assert.deepEqual(answer.usage, { input_tokens: 42, output_tokens: 17 });
});

test('perplexity: Sonar chat completions with user_location; citations from search_results with titles', async () => {
  const { fake, driver } = await driverFor('perplexity', [{ answer: { citations: CITES, model: 'sonar' } }]);
  const answer = await driver.ask(probeRequest('perplexity', { country: 'fr', language: 'fr' }));
  const req = fake.requests[0]!;
  assert.equal(req.path, '/chat/completions');
  assert.equal(req.headers.authorization, `Bearer ${fake.apiKey}`);
  assert.equal(req.body.model, 'sonar');
  assert.deepEqual(req.body.web_search_options, { user_location: { country: 'FR' } });
  assert.deepEqual(
    req.body.messages.map((m: any) => m.role),
    ['system', 'user'],
  );
  assert.match(systemText('perplexity', req.body), /French/);
  assert.equal(answer.model, 'sonar');
  assert.deepEqual(
    answer.citations.map((c) => [c.url, c.title, c.domain]),
    [
      ['https://www.Acme.example/anvils?ref=1', 'Acme Anvils – catalogue', 'acme.example'],
      ['https://globex.example/', 'Globex', 'globex.example'],
    ],
  );
  assert.ok(Array.isArray((answer.raw as any).search_results));
});

test('perplexity: a reply with only the bare citations list still yields citations', async () => {
  const bare = {
    id: 'x',
    model: 'sonar-pro',
    created: 1,
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Acme.' } }],
    citations: ['https://a.example/1', 'https://a.example/1', 'https://b.example/'],
  };
  const { driver } = await driverFor('perplexity', [{ body: bare }]);
  const answer = await driver.ask(probeRequest('perplexity'));
  assert.deepEqual(
    answer.citations.map((c) => [c.url, c.title, c.domain]),
    [
      ['https://a.example/1', null, 'a.example'],
      ['https://b.example/', null, 'b.example'],
    ],
  );
  assert.equal(answer.model, 'sonar-pro');
});

test('gemini: generateContent with google_search grounding; market in the system instruction; modelVersion recorded', async () => {
  const { fake, driver } = await driverFor('gemini', [{ answer: { citations: CITES.slice(0, 2), model: 'gemini-2.5-flash-preview-05-20' } }]);
  const answer = await driver.ask(probeRequest('gemini'));
  const req = fake.requests[0]!;
  assert.equal(req.path, '/v1beta/models/gemini-2.5-flash:generateContent');
  assert.equal(req.headers['x-goog-api-key'], fake.apiKey);
  assert.deepEqual(req.body.tools, [{ googleSearch: {} }]);
  assert.equal(req.body.contents[0].parts[0].text, 'Which companies make the best anvils?');
  const sys = systemText('gemini', req.body);
  assert.match(sys, /German/);
  assert.match(sys, /Germany \(DE\)/);
  assert.equal(answer.model, 'gemini-2.5-flash-preview-05-20');
  assert.equal(answer.citations.length, 2);
  assert.equal(answer.citations[0]!.domain, 'acme.example');
});

test('grok: xAI Responses API with the web_search tool; url_citation annotations; market in the system message', async () => {
  const { fake, driver } = await driverFor('grok', [{ answer: { citations: CITES, model: 'grok-4-fast-reasoning' } }]);
  const answer = await driver.ask(probeRequest('grok', { country: 'US', language: 'en' }));
  const req = fake.requests[0]!;
  assert.equal(req.path, '/v1/responses');
  assert.equal(req.headers.authorization, `Bearer ${fake.apiKey}`);
  assert.equal(req.body.model, 'grok-4-fast');
  assert.deepEqual(req.body.tools, [{ type: 'web_search' }]);
  assert.equal(req.body.search_parameters, undefined, 'Live Search (search_parameters) is retired by xAI');
  assert.match(systemText('grok', req.body), /English.*United States \(US\)/);
  assert.equal(answer.model, 'grok-4-fast-reasoning');
  assert.deepEqual(
    answer.citations.map((c) => c.url),
    ['https://www.Acme.example/anvils?ref=1', 'https://globex.example/'],
  );
  assert.equal(answer.citations[0]!.title, 'Acme Anvils – catalogue');
});

test('claude: Messages API with web_search_20250305 and user_location; citations are what the answer cites', async () => {
  const { fake, driver } = await driverFor('claude', [
    { answer: { citations: [CITES[1]!, CITES[0]!, { url: 'https://globex.example/', title: 'dup' }], cited: 3, model: 'claude-sonnet-4-5-20250929' } },
  ]);
  const answer = await driver.ask(probeRequest('claude'));
  const req = fake.requests[0]!;
  assert.equal(req.path, '/v1/messages');
  assert.equal(req.headers['x-api-key'], fake.apiKey);
  assert.equal(req.headers['anthropic-version'], '2023-06-01');
  assert.equal(req.body.model, 'claude-sonnet-4-5');
  assert.ok(req.body.max_tokens > 0);
  assert.deepEqual(req.body.tools, [
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5, user_location: { type: 'approximate', country: 'DE' } },
  ]);
  assert.match(systemText('claude', req.body), /German/);
  assert.equal(answer.model, 'claude-sonnet-4-5-20250929');
  assert.deepEqual(
    answer.citations.map((c) => [c.url, c.title]),
    [
      ['https://globex.example/', 'Globex'],
      ['https://www.Acme.example/anvils?ref=1', 'Acme Anvils – catalogue'],
    ],
  );
});

test('deepseek: OpenAI-compatible chat completions, no tools, market in the system message, no citations', async () => {
  const { fake, driver } = await driverFor('deepseek', [{ answer: { model: 'deepseek-chat' } }]);
  const answer = await driver.ask(probeRequest('deepseek'));
  const req = fake.requests[0]!;
  assert.equal(req.path, '/chat/completions');
  assert.equal(req.headers.authorization, `Bearer ${fake.apiKey}`);
  assert.equal(req.body.model, 'deepseek-chat');
  assert.equal(req.body.tools, undefined);
  assert.match(systemText('deepseek', req.body), /German.*Germany \(DE\)/);
  assert.equal(req.body.messages.at(-1).content, 'Which companies make the best anvils?');
  assert.deepEqual(answer.citations, []);
  assert.equal(answer.model, 'deepseek-chat');
});

for (const platform of API_PLATFORMS) {
  test(`${platform}: an answer without citations parses to an empty list`, async () => {
    const { driver } = await driverFor(platform, [{ answer: { text: 'No sources here.', citations: [] } }]);
    const answer = await driver.ask(probeRequest(platform));
    assert.equal(answer.text, 'No sources here.');
    assert.deepEqual(answer.citations, []);
    assert.equal(typeof answer.model, 'string');
    assert.ok(answer.model.length > 0);
  });

  test(`${platform}: a wrong API key is provider_auth_failed, not retryable, and the key never shows`, async () => {
    const wrongKey = `sk-wrong-${platform}-0123456789abcdef`;
    const fake = await startFakeProvider(platform);
    fakes.push(fake);
    const driver = createDrivers({ engine: 'live', env: { ...fake.env, [Object.keys(fake.env).find((k) => k.endsWith('_API_KEY'))!]: wrongKey } })[platform];
    const err = await driver.ask(probeRequest(platform)).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof PlatformError, String(err));
    assert.equal(err.code, 'provider_auth_failed');
    assert.equal(err.retryable, false);
    // Google refuses an unknown key with 400 API_KEY_INVALID, the others with 401.
    assert.equal(err.httpStatus, platform === 'gemini' ? 400 : 401);
    // The fake quotes the presented key back, as OpenAI and xAI do; the driver must scrub it.
    const everything = `${err.message} ${err.stack} ${JSON.stringify(err)} ${String(err.cause ?? '')}`;
    assert.ok(!everything.includes(wrongKey), everything);
    if (platform !== 'gemini') assert.match(err.message, /\[REDACTED\]/);
    assert.equal(fake.requests.length, 1);
  });

  test(`${platform}: a malformed JSON body is provider_malformed_response, not retryable`, async () => {
    const { driver } = await driverFor(platform, [{ rawBody: '{"id": "x", "output": [ {"type": ' }]);
    await assert.rejects(driver.ask(probeRequest(platform)), (e: unknown) => {
      assert.ok(e instanceof PlatformError, String(e));
      assert.equal(e.code, 'provider_malformed_response');
      assert.equal(e.retryable, false);
      return true;
    });
  });

  test(`${platform}: a well-formed JSON body of the wrong shape is provider_malformed_response`, async () => {
    const { driver } = await driverFor(platform, [{ body: { unexpected: true } }]);
    await assert.rejects(driver.ask(probeRequest(platform)), (e: unknown) => e instanceof PlatformError && e.code === 'provider_malformed_response');
  });

  test(`${platform}: 429 carries retryAfterMs from Retry-After; 503 is provider_unavailable`, async () => {
    const { driver } = await driverFor(platform, [
      { status: 429, headers: { 'retry-after': '7' }, error: 'Rate limit reached' },
      { status: 503, error: 'overloaded' },
    ]);
    await assert.rejects(driver.ask(probeRequest(platform)), (e: unknown) => {
      assert.ok(e instanceof PlatformError);
      assert.equal(e.code, 'provider_rate_limited');
      assert.equal(e.retryable, true);
      assert.equal(e.retryAfterMs, 7000);
      assert.equal(e.httpStatus, 429);
      return true;
    });
    await assert.rejects(driver.ask(probeRequest(platform)), (e: unknown) => {
      assert.ok(e instanceof PlatformError);
      assert.equal(e.code, 'provider_unavailable');
      assert.equal(e.retryable, true);
      return true;
    });
  });

  test(`${platform}: the API key never appears in raw, even when the provider echoes it`, async () => {
    const fake = await startFakeProvider(platform);
    fakes.push(fake);
    fake.setScript(() => ({ answer: { text: `Echo ${fake.apiKey} back`, citations: [{ url: `https://x.example/?k=${fake.apiKey}`, title: fake.apiKey }] } }));
    const driver = createDrivers({ engine: 'live', env: fake.env })[platform];
    const answer = await driver.ask(probeRequest(platform));
    const serialized = JSON.stringify(answer);
    assert.ok(!serialized.includes(fake.apiKey));
    assert.ok(answer.raw !== null && typeof answer.raw === 'object');
  });
}

test('openai: a refusal content part is provider_refused (not retryable)', async () => {
  const { driver } = await driverFor('openai', [{ refusal: "I'm sorry, I can't help with that." }]);
  await assert.rejects(driver.ask(probeRequest('openai')), (e: unknown) => {
    assert.ok(e instanceof PlatformError);
    assert.equal(e.code, 'provider_refused');
    assert.equal(e.retryable, false);
    return true;
  });
});

test('claude: stop_reason refusal is provider_refused', async () => {
  const { driver } = await driverFor('claude', [{ refusal: 'I cannot help with that.' }]);
  await assert.rejects(driver.ask(probeRequest('claude')), (e: unknown) => e instanceof PlatformError && e.code === 'provider_refused');
});

test('gemini: a blocked prompt (promptFeedback.blockReason) is provider_refused', async () => {
  const { driver } = await driverFor('gemini', [{ refusal: 'blocked for safety' }]);
  await assert.rejects(driver.ask(probeRequest('gemini')), (e: unknown) => e instanceof PlatformError && e.code === 'provider_refused');
});

test('a live driver without an API key is unavailable and refuses to ask', async () => {
  const drivers = createDrivers({ engine: 'live', env: {} });
  for (const p of API_PLATFORMS) {
    assert.equal(drivers[p].available(), false, p);
    assert.equal(drivers[p].engine, 'live');
    await assert.rejects(drivers[p].ask(probeRequest(p)), (e: unknown) => e instanceof PlatformError && e.code === 'provider_not_configured');
  }
});

test('an unreachable provider is provider_network_error (retryable)', async () => {
  const fake = await startFakeProvider('deepseek');
  const env = fake.env;
  await fake.close(); // nothing listens on that port any more
  const driver = createDrivers({ engine: 'live', env })['deepseek'];
  await assert.rejects(driver.ask(probeRequest('deepseek')), (e: unknown) => {
    assert.ok(e instanceof PlatformError, String(e));
    assert.equal(e.code, 'provider_network_error');
    assert.equal(e.retryable, true);
    return true;
  });
});

test('deepseek: finish_reason content_filter with no text is provider_refused', async () => {
  const filtered = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'deepseek-chat',
    choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }],
    usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 },
  };
  const { driver } = await driverFor('deepseek', [{ body: filtered }]);
  await assert.rejects(driver.ask(probeRequest('deepseek')), (e: unknown) => e instanceof PlatformError && e.code === 'provider_refused' && !e.retryable);
});

test('an empty answer without a refusal is provider_malformed_response', async () => {
  const { driver } = await driverFor('perplexity', [{ answer: { text: '' } }]);
  await assert.rejects(driver.ask(probeRequest('perplexity')), (e: unknown) => e instanceof PlatformError && e.code === 'provider_malformed_response');
});

test('a proxy HTML error page gives the error its visible text, never an empty detail', async () => {
  // Through undiciFetch, as the server calls providers: it carries no status text.
  for (const platform of API_PLATFORMS) {
    const fake = await startFakeProvider(platform, [
      { status: 502, headers: { 'content-type': 'text/html' }, rawBody: '<html><head><style>b{}</style></head><body><h1>Bad Gateway</h1><hr>nginx</body></html>' },
      { status: 503, headers: { 'content-type': 'text/html' }, rawBody: '' },
    ]);
    fakes.push(fake);
    const driver = createDrivers({ engine: 'live', env: fake.env, fetch: undiciFetch })[platform];
    await assert.rejects(driver.ask(probeRequest(platform)), (e: unknown) => {
      assert.ok(e instanceof PlatformError, String(e));
      assert.equal(e.code, 'provider_unavailable');
      assert.equal(e.message, `${platform}: the provider failed (HTTP 502): Bad Gateway nginx`);
      return true;
    });
    await assert.rejects(driver.ask(probeRequest(platform)), (e: unknown) => {
      assert.ok(e instanceof PlatformError, String(e));
      assert.equal(e.message, `${platform}: the provider failed (HTTP 503): no error message in the response`);
      return true;
    });
  }
});
