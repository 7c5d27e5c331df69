// A full run through the HTTP API in live mode against local fakes of the providers' wire
// formats: the drivers' requests, parsed answers and citations, model recording, a platform
// outage failing only its own probes (credits released), and platforms without credentials
// listed unavailable and refused before anything is reserved.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('visibility runs in live mode against fake providers', () => {
  let s: TestServer;
  let openai: FakeProvider;
  let claude: FakeProvider;
  let deepseek: FakeProvider;
  before(async () => {
    openai = await startFakeProvider('openai', () => ({
      answer: {
        text: 'Top CRMs for agencies:\n1. HubSpot\n2. **Acme CRM** — simple pipelines\n3. Pipedrive',
        citations: [
          { url: 'https://www.acme-crm.example/pricing', title: 'Acme pricing' },
          { url: 'https://reviews.example/crm', title: 'CRM reviews' },
          { url: 'https://reviews.example/crm', title: 'dup' },
        ],
        model: 'gpt-5-mini-2025-08-07',
      },
    }));
    claude = await startFakeProvider('claude', () => ({ answer: { text: 'HubSpot and Pipedrive lead the market.', citations: [{ url: 'https://hubspot.example/', title: 'HubSpot' }] } }));
    deepseek = await startFakeProvider('deepseek', () => ({ status: 503, error: 'overloaded' }));
    s = await startTestServer({
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      SIGHTLINE_PROBE_MAX_ATTEMPTS: '2',
      ...openai.env,
      ...claude.env,
      ...deepseek.env,
    });
  });
  after(async () => {
    await s.close();
    await Promise.all([openai.close(), claude.close(), deepseek.close()]);
  });

  test('models listing marks platforms without credentials unavailable', async () => {
    const { key } = await s.account();
    const body = (await s.request('GET', '/v1/visibility/models', { key })).json();
    assert.equal(body.platforms.openai[0].engine, 'live');
    assert.equal(body.platforms.openai[0].available, true);
    assert.equal(body.platforms.gemini[0].available, false);
    assert.equal(body.platforms.perplexity[0].available, false);
  });

  test('a run naming an unconfigured platform is refused with 400 platform_unavailable, nothing reserved', async () => {
    const { key } = await s.account({ credits: 20 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme-crm.example', target_entity: 'Acme CRM', prompts: ['best crm'], platforms: ['openai', 'gemini'] },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().detail.error, 'platform_unavailable');
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units, '20.00');
  });

  test('a live run: answers and citations parsed, reported model recorded, an outage fails only its probes', async () => {
    const { key } = await s.account({ credits: 50 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: {
        url: 'https://acme-crm.example/',
        target_entity: 'Acme CRM',
        prompts: ['best crm for agencies'],
        platforms: ['openai', 'claude', 'deepseek'],
        competitors: ['HubSpot', 'Pipedrive'],
        country: 'DE',
        language: 'de',
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const run = await s.waitForRun(key, res.json().run_id);
    assert.equal(run.engine, 'live');
    assert.equal(run.status, 'partially_completed');
    assert.deepEqual(run.probe_counts, { queued: 0, running: 0, succeeded: 2, errored: 1, cancelled: 0, skipped: 0 });
    // openai 2.00 + claude 4.00 settled; deepseek 1.00 released
    assert.equal(run.billing.settled_credits, '6.00');
    assert.equal(run.billing.released_credits, '1.00');
    const full = (await s.request('GET', `/v1/visibility/runs/${run.run_id}?include_results=true`, { key })).json();
    const [o, c, d] = full.probes;
    assert.equal(o.engine, 'live');
    assert.equal(o.reported_model, 'gpt-5-mini-2025-08-07');
    assert.equal(o.brand_mentioned, true);
    assert.equal(o.citation_mentioned, true);
    assert.equal(o.list_rank, 2);
    assert.deepEqual(o.competitors, ['HubSpot', 'Pipedrive']);
    assert.equal(o.citations.length, 2, 'duplicate citation URLs collapse');
    assert.equal(o.citations[0].domain, 'acme-crm.example');
    assert.match(o.answer, /Acme CRM/);
    assert.equal(c.brand_mentioned, false);
    assert.equal(d.status, 'errored');
    assert.match(d.error.code, /provider_/);
    assert.equal(d.credits.released, '1.00');
    // What the drivers sent: the model, the web search tool with the market, and the language.
    const sent = openai.requests.at(-1)!;
    assert.equal(sent.body.model, 'gpt-5-mini');
    assert.ok(JSON.stringify(sent.body.tools).includes('"country":"DE"'));
    assert.match(sent.headers.authorization, /^Bearer /);
    assert.equal(claude.requests.at(-1)!.body.model, 'claude-sonnet-4-5');
    assert.equal(deepseek.requests.length, 2, 'a 503 is retried up to SIGHTLINE_PROBE_MAX_ATTEMPTS');
    // Provider keys never reach stored results.
    const raw = (await s.request('GET', `/v1/visibility/runs/${run.run_id}?include_raw=true`, { key })).body;
    for (const fake of [openai, claude, deepseek]) assert.ok(!raw.includes(fake.apiKey));
    assert.equal(full.summary.mention_rate, 0.5);
    assert.equal(full.summary.visibility_band, 'Good');
  });
});
