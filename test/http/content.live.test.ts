// Trends and prompt ideas written by the operator's model (SIGHTLINE_CONTENT_MODEL in live mode)
// through the platform drivers, against a local fake of the OpenAI Responses API: valid
// structured output is used (generator "model", the model recorded, each trend measured against
// the page); output that is not JSON, does not match the schema or breaks the nonsense rules, and
// a provider that fails, fall back to the offline generator and say so. Charges are unchanged.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFakeProvider, type FakeProvider, type FakeStep } from '../fakes/providers/index.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

const VALID_TRENDS = {
  trends: [
    { name: 'AI scheduling assistants', relevance: 92, intent: 'commercial', questions: ['Which AI scheduling assistant works with Jira?', 'Is AI scheduling worth it for a 10-person team?'] },
    { name: 'Project management software pricing', relevance: 80, intent: 'commercial', questions: ['How much does project management software cost per user?'] },
  ],
};
const VALID_PROMPTS = {
  prompts: [
    { prompt: 'Which project management tool do small agencies use in 2025?', intent: 'category_discovery', intent_class: 'commercial', why: 'Unbranded discovery.' },
    { prompt: 'Is Acme PM good for remote teams?', intent: 'reviews', intent_class: 'commercial', why: 'Branded review question.' },
  ],
};

describe('Content Intelligence with a content model (live mode, fake OpenAI)', () => {
  let site: FixtureServer;
  let openai: FakeProvider;
  let s: TestServer;
  let GUIDE: string;
  let reply: (prompt: string) => FakeStep = () => ({ status: 500, error: 'not scripted' });

  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    openai = await startFakeProvider('openai', (req) => reply(JSON.stringify(req.body)));
    s = await startTestServer({
      SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}`,
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      SIGHTLINE_CONTENT_MODEL: 'openai:gpt-5-mini',
      SIGHTLINE_PROBE_MAX_ATTEMPTS: '1',
      ...openai.env,
    });
    GUIDE = site.url('/blog/project-management-guide');
  });
  after(async () => {
    await s.close();
    await Promise.all([site.close(), openai.close()]);
  });

  async function post(key: string, path: string, body: unknown) {
    const res = await s.request('POST', path, { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  test('valid structured output: generator "model", the model recorded, trends measured against the page', async () => {
    reply = (p) => ({ answer: { text: '```json\n' + JSON.stringify(/Write \d+ prompts/.test(p) ? VALID_PROMPTS : VALID_TRENDS) + '\n```', citations: [{ url: 'https://research.example/ai-pm', title: 'AI in PM' }], model: 'gpt-5-mini-2025-08-07' } });
    const { key } = await s.account({ credits: 10 });
    const r = await post(key, '/v1/content-intelligence/trends/discover', { url: GUIDE, max_trends: 5 });
    assert.equal(r.generator, 'model');
    assert.deepEqual(r.model, { platform: 'openai', model: 'gpt-5-mini-2025-08-07' });
    assert.equal(r.fallback, undefined);
    assert.deepEqual(r.trends.map((t: { name: string }) => t.name), ['AI scheduling assistants', 'Project management software pricing']);
    assert.equal(r.trends[0].gap, 'Not mentioned on the page.', 'measured against the page, not taken from the model');
    assert.ok(r.sources.some((x: { url: string }) => x.url === 'https://research.example/ai-pm'), 'web search citations are sources');
    assert.equal(r.billing.credits, '1.00');
    const sent = JSON.stringify(openai.requests.at(-1)!.body);
    assert.match(sent, /one JSON object/);
    assert.match(sent, /web_search/, 'asked with web search where the platform has it');

    const p = await post(key, '/v1/visibility/prompts/suggest', { url: GUIDE, count: 5 });
    assert.equal(p.generator, 'model');
    assert.deepEqual(p.prompts, VALID_PROMPTS.prompts.map((x) => x.prompt));
    assert.equal(p.suggestions[0].funnel_stage, 'awareness');
  });

  test('output that is not JSON, does not match the schema or is nonsense falls back to the offline generator and says so', async () => {
    const { key } = await s.account({ credits: 10 });
    const cases: [string, RegExp][] = [
      ['Sure! Trending topics are AI and automation.', /no JSON object/],
      [JSON.stringify({ trends: [{ name: 'AI', relevance: 'high', questions: [] }] }), /schema/],
      [JSON.stringify({ trends: [{ name: 'Source', relevance: 90, intent: 'informational', questions: ['What is none?'] }] }), /rejected output/],
    ];
    for (const [text, why] of cases) {
      reply = () => ({ answer: { text } });
      const r = await post(key, '/v1/content-intelligence/trends/discover', { url: GUIDE });
      assert.equal(r.generator, 'offline');
      assert.equal(r.fallback.platform, 'openai');
      assert.equal(r.fallback.model, 'gpt-5-mini');
      assert.match(r.fallback.reason, why);
      assert.ok(r.trends.length > 0, 'the offline trends answer');
      assert.equal(r.billing.credits, '1.00');
    }
  });

  test('a failing provider falls back, for trends, prompts and full runs alike', async () => {
    reply = () => ({ status: 500, error: 'upstream exploded' });
    const { key } = await s.account({ credits: 20 });
    const t = await post(key, '/v1/content-intelligence/trends/discover', { url: GUIDE });
    assert.equal(t.generator, 'offline');
    assert.match(t.fallback.reason, /openai failed/);
    const p = await post(key, '/v1/visibility/prompts/suggest', { url: GUIDE });
    assert.equal(p.generator, 'offline');
    assert.ok(p.prompts.length > 0);
    const run = await post(key, '/v1/content-intelligence/runs', { url: GUIDE, analysis_depth: 'full' });
    const done = await s.waitForRun(key, run.run_id);
    assert.equal(done.status, 'completed');
    const full = (await s.request('GET', `/v1/content-intelligence/runs/${run.run_id}?include_result=true`, { key })).json();
    assert.equal(full.result.trends_generator, 'offline');
    assert.match(full.result.trends_fallback.reason, /openai failed/);
    assert.equal(full.result.prompts_generator, 'offline');
  });
});
