// Every way the Content Intelligence single actions refuse or fail, through the real server and a
// loopback fixture site, with proof that nothing was charged: 422 bounds and 400 URL/mode before
// any reservation or fetch, 402 at a zero balance before any fetch, and pages that cannot be
// loaded (refused address, 404, non-HTML, nobody listening) failing with the reservation released.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

const SCORE = '/v1/content-intelligence/content/score';
const TRENDS = '/v1/content-intelligence/trends/discover';
const RUNS = '/v1/content-intelligence/runs';

describe('Content Intelligence single actions (errors)', () => {
  let site: FixtureServer;
  let outside: FixtureServer;
  let deadPort: number;
  let s: TestServer;
  let GUIDE: string;

  before(async () => {
    site = await serveFixtureSite('acme-pm.test', {
      '/paper.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4 not really a pdf' },
    });
    // A loopback server that is NOT allowlisted: the fetcher must refuse it without connecting.
    outside = await startFixtureServer({ '/': { headers: { 'content-type': 'text/html' }, body: '<title>secret</title><p>internal admin page</p>' } });
    const dead = await startFixtureServer();
    deadPort = dead.port;
    await dead.close();
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}, 127.0.0.1:${deadPort}` });
    GUIDE = site.url('/blog/project-management-guide');
  });
  after(async () => {
    await s.close();
    await site.close();
    await outside.close();
  });

  async function post(key: string, path: string, body: unknown) {
    const res = await s.request('POST', path, { key, body });
    return { status: res.statusCode, body: res.json() };
  }

  async function assertNothingCharged(key: string, available: string) {
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, available);
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
    return usage;
  }

  test('declared bounds, wrong types and missing fields are 422 with the field location; nothing reserved or fetched', async () => {
    const { key } = await s.account({ credits: 10 });
    const before = site.requests.length;
    const cases: [string, unknown, (string | number)[]][] = [
      [TRENDS, {}, ['body', 'url']],
      [TRENDS, { url: 7 }, ['body', 'url']],
      [TRENDS, { url: GUIDE, max_trends: 0 }, ['body', 'max_trends']],
      [TRENDS, { url: GUIDE, max_trends: 21 }, ['body', 'max_trends']],
      [TRENDS, { url: GUIDE, max_trends: 2.5 }, ['body', 'max_trends']],
      [TRENDS, { url: GUIDE, language: 5 }, ['body', 'language']],
      [SCORE, { trends: ['x'] }, ['body', 'url']],
      [SCORE, { url: GUIDE, trends: 'pricing' }, ['body', 'trends']],
      [SCORE, { url: GUIDE, trends: [{ relevance: 3 }] }, ['body', 'trends', 0]],
      [SCORE, { url: GUIDE, trends: Array.from({ length: 51 }, (_, i) => `trend ${i}`) }, ['body', 'trends']],
      [SCORE, { url: GUIDE, extraction_mode: 3 }, ['body', 'extraction_mode']],
      [RUNS, { url: GUIDE, analysis_depth: 'deep' }, ['body', 'analysis_depth']],
      [RUNS, { url: GUIDE, idempotency_key: 'k'.repeat(161) }, ['body', 'idempotency_key']],
      [RUNS, { analysis_depth: 'full' }, ['body', 'url']],
    ];
    for (const [path, body, loc] of cases) {
      const res = await post(key, path, body);
      assert.equal(res.status, 422, `${path} ${JSON.stringify(body).slice(0, 80)} → ${JSON.stringify(res.body)}`);
      assert.ok(Array.isArray(res.body.detail));
      assert.deepEqual(res.body.detail[0].loc.slice(0, loc.length), loc, JSON.stringify(res.body));
    }
    // The bounds themselves are accepted.
    assert.equal((await post(key, TRENDS, { url: GUIDE, max_trends: 1 })).status, 200);
    assert.equal((await post(key, TRENDS, { url: GUIDE, max_trends: 20 })).status, 200);
    assert.ok(site.requests.length > before);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '2.00');
    assert.equal((await s.request('GET', RUNS, { key })).json().runs.length, 0, 'no run was created');
  });

  test('invalid URLs are 400 invalid_url and an unknown extraction_mode 400 unsupported_extraction_mode, before anything is reserved or fetched', async () => {
    const { key } = await s.account({ credits: 10 });
    const before = site.requests.length;
    const bad = ['not a url', '', '   ', '/relative/path', 'ftp://127.0.0.1/file', 'javascript:alert(1)', 'file:///etc/passwd', `http://user:secret@127.0.0.1:${site.port}/`, 'http://'];
    for (const path of [TRENDS, SCORE, RUNS]) {
      for (const url of bad) {
        const res = await post(key, path, { url });
        assert.equal(res.status, 400, `${path} ${url} → ${JSON.stringify(res.body)}`);
        assert.equal(res.body.detail.error, 'invalid_url');
      }
    }
    for (const mode of ['js', 'SPA', '', 'render']) {
      const res = await post(key, SCORE, { url: GUIDE, extraction_mode: mode });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.detail.error, 'unsupported_extraction_mode');
      assert.deepEqual(res.body.detail.allowed, ['ssr', 'csr', 'full']);
    }
    assert.equal(site.requests.length, before);
    const usage = await assertNothingCharged(key, '10.00');
    assert.deepEqual(usage.recent.map((r: { kind: string }) => r.kind), ['grant'], 'no reservation was ever made');
  });

  test('402 at a zero balance (and one credit short of a score), with no fetch happening', async () => {
    const { key } = await s.account();
    const before = site.requests.length;
    const fresh = site.url('/blog/okr-guide?fresh=402');
    for (const [path, body] of [
      [TRENDS, { url: fresh }],
      [SCORE, { url: fresh }],
      [SCORE, { url: fresh, trends: ['okrs'] }],
      [RUNS, { url: fresh }],
      [RUNS, { url: fresh, analysis_depth: 'full' }],
    ] as const) {
      const res = await post(key, path, body);
      assert.equal(res.status, 402, `${path} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'insufficient_credits');
    }
    const { key: poor } = await s.account({ credits: 2 });
    const res = await post(poor, SCORE, { url: fresh });
    assert.equal(res.status, 402);
    assert.equal(res.body.detail.required_credits, '3.00');
    assert.equal(res.body.detail.available_credits, '2.00');
    assert.equal(site.requests.length, before);
    assert.equal(site.hits('/blog/okr-guide?fresh=402'), 0);
    // With supplied trends the price is 2: the same balance is enough.
    assert.equal((await post(poor, SCORE, { url: fresh, trends: ['okrs'] })).status, 200);
    assert.equal((await s.request('GET', RUNS, { key })).json().runs.length, 0);
  });

  test('a refused address is 400 fetch_blocked: no connection made, reservation released, nothing charged', async () => {
    const { key } = await s.account({ credits: 10 });
    for (const [path, body] of [
      [TRENDS, { url: outside.url('/') }],
      [SCORE, { url: outside.url('/') }],
      [SCORE, { url: outside.url('/'), trends: ['admin'] }],
    ] as const) {
      const res = await post(key, path, body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.detail.error, 'fetch_blocked');
    }
    assert.equal(outside.requests.length, 0, 'the non-allowlisted server was never contacted');
    const usage = await assertNothingCharged(key, '10.00');
    const charges = usage.recent.filter((r: { kind: string }) => r.kind === 'charge');
    assert.equal(charges.length, 3);
    for (const c of charges) assert.equal(c.status, 'released');
  });

  test('a page that cannot be loaded (404, PDF, nobody listening) is 500 extraction_failed with everything released', async () => {
    const { key } = await s.account({ credits: 10 });
    const urls = [site.url('/no-such-page'), site.url('/paper.pdf'), `http://127.0.0.1:${deadPort}/page`];
    for (const url of urls) {
      for (const body of [{ url }, { url, trends: ['anything'] }]) {
        const res = await post(key, SCORE, body);
        assert.equal(res.status, 500, `${url} → ${JSON.stringify(res.body)}`);
        assert.equal(res.body.detail.error, 'extraction_failed');
        assert.equal(typeof res.body.detail.request_id, 'string');
        assert.ok(!JSON.stringify(res.body).includes('    at '), 'no stack trace');
      }
      const res = await post(key, TRENDS, { url });
      assert.equal(res.status, 500, JSON.stringify(res.body));
      assert.equal(res.body.detail.error, 'extraction_failed');
    }
    const missing = await post(key, SCORE, { url: site.url('/no-such-page') });
    assert.equal(missing.body.detail.http_status, 404);
    // Whether asking again can help: not for a 404 or a PDF, maybe for a server not listening.
    assert.equal(missing.body.detail.retryable, false);
    assert.equal((await post(key, SCORE, { url: site.url('/paper.pdf') })).body.detail.retryable, false);
    assert.equal((await post(key, SCORE, { url: `http://127.0.0.1:${deadPort}/page` })).body.detail.retryable, true);
    const usage = await assertNothingCharged(key, '10.00');
    for (const c of usage.recent.filter((r: { kind: string }) => r.kind === 'charge')) {
      assert.equal(c.status, 'released');
      assert.equal(c.settled_credits, '0.00');
    }
    const activity = (await s.request('GET', '/v1/activity?kind=content_intelligence', { key })).json().items;
    assert.ok(activity.length >= 10);
    for (const a of activity) {
      assert.equal(a.credits, '0.00');
      assert.equal(a.http_status, 500);
    }
  });
});
