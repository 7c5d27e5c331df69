// POST /v1/content-intelligence/content/score and /trends/discover through the real server, the
// pages served by a loopback fixture site (test/fixtures/content/sites/acme-pm.test): the API
// response shapes, the exact credits charged (score 2.00 with supplied trends, 3.00 without;
// trends 1.00) as /v1/usage and /v1/activity show them, and determinism.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

const BANDS = ['Poor', 'Fair', 'Good', 'Strong'];
const isScore = (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 100;
const bandOf = (n: number) => (n < 40 ? 'Poor' : n < 60 ? 'Fair' : n < 80 ? 'Good' : 'Strong');

describe('Content Intelligence single actions (happy paths)', () => {
  let site: FixtureServer;
  let s: TestServer;
  let GUIDE: string;
  let TIPS: string;

  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    GUIDE = site.url('/blog/project-management-guide');
    TIPS = site.url('/blog/project-management-tips');
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  async function post(key: string, path: string, body: unknown) {
    const res = await s.request('POST', path, { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  test('content score without trends: discovered trends, every API field, 3.00 credits settled', async () => {
    const { key } = await s.account({ credits: 10 });
    const r = await post(key, '/v1/content-intelligence/content/score', { url: GUIDE });
    for (const k of [
      'url', 'title', 'page_type', 'trend_source', 'overall_score', 'overall_band', 'overall', 'content_depth', 'content_freshness',
      'sufficiency_score', 'sufficiency_band', 'freshness_score', 'freshness_band', 'trend_coverage', 'recommendations',
      'top_recommendations', 'billing',
    ]) {
      assert.ok(k in r, `missing ${k}`);
    }
    assert.equal(r.url, GUIDE);
    assert.match(r.title, /Project Management Software/);
    assert.equal(r.page_type, 'article');
    assert.equal(r.trend_source, 'discovered');
    for (const n of [r.overall_score, r.sufficiency_score, r.freshness_score, r.overall.score, r.content_depth.score, r.content_freshness.score]) {
      assert.ok(isScore(n), String(n));
    }
    for (const b of [r.overall_band, r.sufficiency_band, r.freshness_band, r.overall.band]) assert.ok(BANDS.includes(b));
    assert.equal(r.overall_band, bandOf(r.overall_score));
    assert.equal(r.overall.score, r.overall_score);
    assert.equal(r.sufficiency_score, r.content_depth.score);
    assert.equal(r.freshness_score, r.content_freshness.score);
    assert.ok(r.overall.summary.length > 20);
    assert.ok(Array.isArray(r.content_depth.notes) && r.content_depth.notes.length > 0);
    assert.ok(r.trend_coverage.length > 0);
    for (const t of r.trend_coverage) {
      assert.deepEqual(Object.keys(t).sort(), ['action', 'coverage', 'gap', 'trend']);
      assert.ok(isScore(t.coverage));
    }
    for (const rec of r.recommendations) {
      assert.ok(['high', 'medium', 'low'].includes(rec.priority));
      assert.equal(typeof rec.title, 'string');
      assert.equal(typeof rec.recommendation, 'string');
      assert.ok(Number.isInteger(rec.expected_impact));
    }
    assert.deepEqual(r.top_recommendations, r.recommendations.slice(0, 3).map((x: { recommendation: string }) => x.recommendation));
    assert.deepEqual(r.billing, { billable: true, credits: '3.00', estimated_credits: '3.00' });
    // Discovery sampled same-site pages through the fetcher.
    assert.ok(site.requests.some((q) => q.path === '/pricing' || q.path === '/docs/getting-started'));

    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '7.00');
    assert.equal(usage.credits.used_credit_units, '3.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.recent[0].action, 'content_intelligence.content.score');
    assert.equal(usage.recent[0].credits, '3.00');
    assert.equal(usage.recent[0].status, 'settled');

    const activity = (await s.request('GET', '/v1/activity?kind=content_intelligence', { key })).json().items;
    assert.equal(activity.length, 1);
    assert.equal(activity[0].action, 'content_intelligence.content.score');
    assert.equal(activity[0].path, '/v1/content-intelligence/content/score');
    assert.equal(activity[0].http_status, 200);
    assert.equal(activity[0].credits, '3.00');
  });

  test('content score with supplied trends (names and objects): used as given, 2.00 credits, no discovery fetches', async () => {
    const { key } = await s.account({ credits: 10 });
    await post(key, '/v1/content-intelligence/content/score', { url: GUIDE }); // warm the page cache
    const before = site.requests.length;
    const r = await post(key, '/v1/content-intelligence/content/score', {
      url: GUIDE,
      extraction_mode: 'CSR',
      trends: ['project management software pricing', { name: 'AI scheduling assistants', relevance: 90 }, '  ', { name: 'gantt charts' }],
      industry: 'Software',
      language: 'en',
      country: 'US',
    });
    assert.equal(r.trend_source, 'supplied');
    assert.deepEqual(r.trend_coverage.map((t: { trend: string }) => t.trend), ['project management software pricing', 'AI scheduling assistants', 'gantt charts']);
    assert.equal(r.trend_coverage[1].coverage, 0);
    assert.deepEqual(r.billing, { billable: true, credits: '2.00', estimated_credits: '2.00' });
    assert.equal(site.requests.length, before, 'the cached page is scored; supplied trends need no related pages');

    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '5.00');
    assert.equal(usage.credits.available_credit_units, '5.00');
    assert.deepEqual(usage.recent.slice(0, 2).map((x: { credits: string }) => x.credits), ['2.00', '3.00']);
  });

  test('an all-blank trends list counts as none: discovered trends at 3.00', async () => {
    const { key } = await s.account({ credits: 10 });
    const r = await post(key, '/v1/content-intelligence/content/score', { url: GUIDE, trends: ['', { name: ' ' }] });
    assert.equal(r.trend_source, 'discovered');
    assert.equal(r.billing.credits, '3.00');
  });

  test('the same page scored twice gives deep-equal results (billing aside)', async () => {
    const { key } = await s.account({ credits: 20 });
    for (const body of [{ url: TIPS }, { url: TIPS, trends: ['remote work', 'meeting notes'] }]) {
      const { billing: b1, ...a } = await post(key, '/v1/content-intelligence/content/score', body);
      const { billing: b2, ...b } = await post(key, '/v1/content-intelligence/content/score', body);
      assert.deepEqual(a, b);
      assert.deepEqual(b1, b2);
    }
    // The tips page has the defects the fixture manifest lists for it.
    const r = await post(key, '/v1/content-intelligence/content/score', { url: TIPS });
    const signals = r.recommendations.map((x: { signal: string }) => x.signal);
    for (const sig of ['meta_description', 'h1', 'schema']) assert.ok(signals.includes(sig), `${sig} in ${signals}`);
    assert.ok(r.overall_score < 60, `tips page scores ${r.overall_score}`);
  });

  test('trend discovery: trends with relevance, gap, action, questions and sources, max_trends honoured, 1.00 credit', async () => {
    const { key } = await s.account({ credits: 5 });
    const r = await post(key, '/v1/content-intelligence/trends/discover', { url: GUIDE, max_trends: 3, language: 'en', country: 'US' });
    assert.equal(r.url, GUIDE);
    assert.equal(typeof r.industry, 'string');
    assert.ok(r.industry.length > 0);
    assert.ok(r.trends.length >= 1 && r.trends.length <= 3, String(r.trends.length));
    for (const t of r.trends) {
      assert.deepEqual(Object.keys(t).sort(), ['action', 'gap', 'intent', 'name', 'question_intents', 'questions', 'relevance']);
      assert.ok(isScore(t.relevance));
      assert.ok(Array.isArray(t.questions) && t.questions.length > 0);
    }
    assert.equal(r.sources[0].url, GUIDE);
    for (const src of r.sources) {
      assert.equal(typeof src.title, 'string');
      assert.ok(src.url.startsWith(site.origin), src.url);
    }
    assert.deepEqual(r.billing, { billable: true, credits: '1.00', estimated_credits: '1.00' });

    const withIndustry = await post(key, '/v1/content-intelligence/trends/discover', { url: GUIDE, industry: 'Project tooling' });
    assert.equal(withIndustry.industry, 'Project tooling');
    assert.ok(withIndustry.trends.length <= 8);
    const again = await post(key, '/v1/content-intelligence/trends/discover', { url: GUIDE, industry: 'Project tooling' });
    assert.deepEqual({ ...again, billing: null }, { ...withIndustry, billing: null });

    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '3.00');
    assert.equal(usage.recent[0].action, 'content_intelligence.trends.discover');
  });

  test('the OpenAPI document describes the five Content Intelligence endpoints and prompt suggestions', async () => {
    const doc = (await s.request('GET', '/openapi.json')).json();
    const ops: [string, string, string[]][] = [
      ['/v1/visibility/prompts/suggest', 'post', ['200', '400', '401', '402', '403', '422', '500']],
      ['/v1/content-intelligence/trends/discover', 'post', ['200', '400', '401', '402', '403', '422', '500']],
      ['/v1/content-intelligence/content/score', 'post', ['200', '400', '401', '402', '403', '422', '500']],
      ['/v1/content-intelligence/runs', 'post', ['200', '400', '401', '402', '403', '422']],
      ['/v1/content-intelligence/runs', 'get', ['200', '400', '401', '403', '422']],
      ['/v1/content-intelligence/runs/{run_id}', 'get', ['200', '401', '403', '404']],
    ];
    for (const [path, method, statuses] of ops) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path} documented`);
      for (const status of statuses) assert.ok(op.responses[status], `${method} ${path} ${status}`);
      if (method === 'post') assert.deepEqual(op.requestBody.content['application/json'].schema.required, ['url'], path);
    }
  });
});
