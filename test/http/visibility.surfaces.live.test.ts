// A run mixing an API platform and consumer surfaces, end to end through the HTTP API in live mode
// against the local fakes (OpenAI's Responses API, SerpApi, DataForSEO with its task flow): the
// models listing's surface/provider/location fields, probes recording surface, provider,
// ai_answer_present and city, a result without an AI Overview succeeding as such (charged, no
// mention, no citations), by_platform's ai_answer_rate and the API vs consumer comparison.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startFakeDataForSeo, startFakeSerpApi, type FakeConsumerProvider } from '../fakes/providers/consumer.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('a live run over API and consumer platforms', () => {
  let s: TestServer;
  let openai: FakeProvider;
  let serpapi: FakeConsumerProvider;
  let dataforseo: FakeConsumerProvider;
  before(async () => {
    openai = await startFakeProvider('openai', () => ({
      answer: {
        text: 'Leading anvil makers: 1. Acme Anvils 2. Initech',
        citations: [{ url: 'https://www.acme.example/anvils', title: 'Acme' }],
        model: 'gpt-5-mini-2025-08-07',
      },
    }));
    serpapi = await startFakeSerpApi({ overview: 'none' });
    dataforseo = await startFakeDataForSeo({ taskLatencyMs: 60 });
    s = await startTestServer({
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      SIGHTLINE_DATAFORSEO_POLL_MS: '20',
      ...openai.env,
      ...serpapi.env,
      ...dataforseo.env,
    });
  });
  after(async () => {
    await s.close();
    await Promise.all([openai.close(), serpapi.close(), dataforseo.close()]);
  });

  test('models listing: surface, provider and location support per platform', async () => {
    const { key } = await s.account();
    const body = (await s.request('GET', '/v1/visibility/models', { key })).json();
    const first = (p: string) => body.platforms[p][0];
    assert.deepEqual(
      ['surface', 'provider', 'supports_country', 'supports_city', 'available'].map((k) => first('openai')[k]),
      ['api', null, true, false, true],
    );
    assert.deepEqual(
      ['surface', 'provider', 'supports_country', 'supports_city', 'available'].map((k) => first('google_ai_overview')[k]),
      ['consumer', 'serpapi', true, true, true],
    );
    assert.deepEqual(
      ['surface', 'provider', 'supports_country', 'supports_city'].map((k) => first('copilot')[k]),
      ['consumer', 'serpapi', false, false],
    );
    assert.equal(first('chatgpt_app').provider, 'dataforseo');
    assert.equal(first('chatgpt_app').credits_per_probe, '3.00');
  });

  test('the run completes; consumer probes carry provider and ai_answer_present; the comparison is there', async () => {
    const { key } = await s.account({ credits: 50 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: {
        url: 'https://acme.example/',
        target_entity: 'Acme Anvils',
        prompts: ['Which companies make the best anvils?'],
        platforms: ['openai', 'chatgpt_app', 'google_ai_overview', 'copilot'],
        competitors: ['Globex', 'Initech'],
        country: 'DE',
        city: 'Munich',
        language: 'de',
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const started = await s.waitForRun(key, res.json().run_id);
    assert.equal(started.status, 'completed');
    const run = (await s.request('GET', `/v1/visibility/runs/${res.json().run_id}?include_probes=true`, { key })).json();
    const byPlatform = Object.fromEntries(run.probes.map((p: any) => [p.platform, p]));

    assert.equal(byPlatform.openai.surface, 'api');
    assert.equal(byPlatform.openai.provider, null);
    assert.equal(byPlatform.openai.ai_answer_present, null);
    assert.equal(byPlatform.openai.city, null, 'API platforms take no city');

    const app = byPlatform.chatgpt_app;
    assert.deepEqual([app.surface, app.provider, app.ai_answer_present, app.status, app.brand_mentioned, app.city], ['consumer', 'dataforseo', true, 'succeeded', true, 'Munich']);
    assert.deepEqual(app.citations.map((c: any) => c.domain), ['acme.example']);

    const aio = byPlatform.google_ai_overview;
    assert.deepEqual([aio.status, aio.provider, aio.ai_answer_present, aio.brand_mentioned], ['succeeded', 'serpapi', false, false]);
    assert.deepEqual(aio.citations, []);
    assert.equal(aio.credits.settled, '2.00', 'charged as the provider charges: the search was made');

    const copilot = byPlatform.copilot;
    assert.deepEqual([copilot.ai_answer_present, copilot.city], [true, null]);
    assert.deepEqual(copilot.competitors, ['Globex']);

    // What reached the providers: the city for DataForSEO; gl/hl/location for SerpApi's Google; nothing for Copilot.
    const post = dataforseo.requests.find((r) => r.path.endsWith('/task_post'))!;
    assert.equal(post.body[0].location_name, 'Munich');
    const google = serpapi.requests.find((r) => r.query.engine === 'google')!;
    assert.deepEqual([google.query.gl, google.query.hl, google.query.location], ['de', 'de', 'Munich, Germany']);
    const bing = serpapi.requests.find((r) => r.query.engine === 'bing_copilot')!;
    assert.equal(bing.query.location, undefined);

    const rates = Object.fromEntries(run.summary.by_platform.map((b: any) => [b.platform, b]));
    assert.equal(rates.google_ai_overview.ai_answer_rate, 0);
    assert.equal(rates.chatgpt_app.ai_answer_rate, 1);
    assert.equal(rates.openai.ai_answer_rate, undefined);

    // Which location each answer is from: the city where the surface takes one, the country for
    // the API platform, none for Copilot (it takes no location).
    assert.deepEqual(run.summary.locations, [
      { country: 'DE', city: 'Munich', platforms: [{ platform: 'chatgpt_app', answers: 1 }, { platform: 'google_ai_overview', answers: 1 }] },
      { country: 'DE', city: null, platforms: [{ platform: 'openai', answers: 1 }] },
      { country: null, city: null, platforms: [{ platform: 'copilot', answers: 1 }] },
    ]);

    const cmp = run.summary.surface_comparison;
    assert.deepEqual(cmp.map((c: any) => `${c.api_platform}:${c.consumer_platform}`), ['openai:chatgpt_app', 'openai:copilot']);
    const [vsApp, vsCopilot] = cmp;
    // openai named {Acme Anvils, Initech}; the app {Acme Anvils, Globex}: 1/3.
    assert.equal(vsApp.brand_jaccard, 0.3333);
    assert.equal(vsApp.cited_domain_jaccard, 1);
    assert.deepEqual(vsApp.disagreements, []);
    assert.equal(vsCopilot.disagreements.length, 0, 'Copilot names Acme Anvils too');
    assert.equal(vsCopilot.consumer.mention_rate, 1);
  });

  test('a mixed run naming a platform without credentials (gemini) is refused before anything is reserved', async () => {
    const { key } = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['x'], platforms: ['google_ai_mode', 'gemini'] },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().detail.error, 'platform_unavailable');
  });
});
