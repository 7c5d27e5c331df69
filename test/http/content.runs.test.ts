// Persisted Content Intelligence runs through the real server and worker, pages served by loopback
// fixture sites: depth score and full polled to completion (full: trends, prompts and an audit
// with the AI-crawler rules of the fixture robots.txt), credits reserved then settled or
// released, lists newest first with cursors, saved tests and reports by URL, idempotency, and
// another account's run answering 404.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

const RUNS = '/v1/content-intelligence/runs';

describe('Content Intelligence runs', () => {
  let acme: FixtureServer;
  let shop: FixtureServer;
  let s: TestServer;
  let GUIDE: string;
  let SHOE: string;

  before(async () => {
    acme = await serveFixtureSite('acme-pm.test');
    shop = await serveFixtureSite('blocked-shop.test');
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${acme.port},127.0.0.1:${shop.port}` });
    GUIDE = acme.url('/blog/project-management-guide');
    SHOE = shop.url('/products/trail-running-shoe');
  });
  after(async () => {
    await s.close();
    await acme.close();
    await shop.close();
  });

  async function create(key: string, body: Record<string, unknown>) {
    const res = await s.request('POST', RUNS, { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }
  const usageOf = async (key: string) => (await s.request('GET', '/v1/usage', { key })).json();
  const getRun = async (key: string, id: string, query = '') => s.request('GET', `${RUNS}/${id}${query}`, { key });

  test('depth score: 3.00 reserved, completed with the content score stored, then settled', async () => {
    const { key } = await s.account({ credits: 10 });
    const created = await create(key, { url: GUIDE });
    assert.match(created.run_id, /^ci_/);
    assert.deepEqual(created, { run_id: created.run_id, status: 'queued', analysis_depth: 'score', estimated_credits: '3.00', reserved_credits: '3.00' });

    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    assert.equal(run.object, 'content_intelligence_run');
    assert.equal(run.url, GUIDE);
    assert.equal(run.analysis_depth, 'score');
    assert.equal(run.language, null, 'no language given: the analysis follows the page');
    assert.equal(run.country, 'US');
    assert.equal(run.error, null);
    assert.ok(run.started_at && run.completed_at);
    assert.ok(Number.isInteger(run.overall_score));
    assert.ok(['Poor', 'Fair', 'Good', 'Strong'].includes(run.overall_band));
    assert.deepEqual(run.billing, { status: 'settled', estimated_credits: '3.00', reserved_credits: '3.00', settled_credits: '3.00', released_credits: '0.00' });
    assert.equal('result' in run, false, 'compact by default');

    const full = (await getRun(key, created.run_id, '?include_result=true')).json();
    const result = full.result;
    assert.equal(result.analysis_depth, 'score');
    assert.equal(result.url, GUIDE);
    assert.equal(result.trend_source, 'discovered');
    assert.equal(result.overall_score, run.overall_score);
    assert.equal(result.overall_band, run.overall_band);
    assert.ok(result.trend_coverage.length > 0 && result.recommendations.length > 0);
    for (const k of ['trends', 'prompts', 'audit']) assert.equal(k in result, false, `${k} belongs to depth full`);

    // The stored score is the same analysis the single action returns.
    const single = (await s.request('POST', '/v1/content-intelligence/content/score', { key, body: { url: GUIDE } })).json();
    const { billing: _b, ...score } = single;
    const { analysis_depth: _d, ...stored } = result;
    assert.deepEqual(stored, score);

    const usage = await usageOf(key);
    assert.equal(usage.credits.used_credit_units, '6.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    const runCharge = usage.recent.find((r: { run_id?: string }) => r.run_id === created.run_id);
    assert.equal(runCharge.action, 'content_intelligence.runs.create');
    assert.equal(runCharge.credits, '3.00');
    assert.equal(runCharge.status, 'settled');
  });

  test('depth full: 6.00, with trends, prompt ideas and an audit carrying the AI-crawler rules of robots.txt', async () => {
    const { key } = await s.account({ credits: 6 });
    // The shop's own access log: GPTBot (disallowed) and OAI-SearchBot (allowed) refused by a firewall.
    const site = (await s.request('POST', '/v1/sites', { key, body: { domain: `127.0.0.1:${shop.port}` } })).json();
    assert.match(site.id ?? '', /^site_/, JSON.stringify(site));
    const stamp = new Date().toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
    let n = 0;
    const line = (ua: string, status: number) => `203.0.113.${++n} - - [${stamp}] "GET /products/trail-running-shoe HTTP/1.1" ${status} 120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ${ua}"`;
    const log = [line('GPTBot/1.2', 403), line('OAI-SearchBot/1.0', 403), line('OAI-SearchBot/1.0', 403), line('OAI-SearchBot/1.0', 200)].join('\n');
    assert.equal((await s.request('POST', `/v1/sites/${site.id}/logs`, { key, body: `${log}\n`, headers: { 'content-type': 'text/plain' } })).statusCode, 200);
    const created = await create(key, { url: SHOE, analysis_depth: 'full', industry: 'Running gear' });
    assert.equal(created.analysis_depth, 'full');
    assert.equal(created.reserved_credits, '6.00');
    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    assert.equal(run.billing.settled_credits, '6.00');

    const result = (await getRun(key, created.run_id, '?include_result=true')).json().result;
    assert.equal(result.analysis_depth, 'full');
    assert.equal(result.page_type, 'product');
    assert.equal(result.industry, 'Running gear');
    assert.ok(result.trends.length > 0);
    for (const t of result.trends) assert.deepEqual(Object.keys(t).sort(), ['action', 'gap', 'intent', 'name', 'question_intents', 'questions', 'relevance']);
    assert.ok(result.prompts.length > 0);
    assert.equal(result.prompt_suggestions.length, result.prompts.length);
    for (const p of result.prompt_suggestions) assert.ok(p.prompt && p.intent && p.why && p.funnel_stage);

    const audit = result.audit;
    assert.ok(Number.isInteger(audit.score));
    const crawler = (agent: string) => audit.crawlers.find((c: { agent: string }) => c.agent === agent);
    assert.deepEqual(crawler('GPTBot'), { ...crawler('GPTBot'), allowed: false, rule: 'Disallow: /' });
    assert.equal(crawler('ClaudeBot').allowed, false);
    assert.equal(crawler('CCBot').allowed, false);
    assert.deepEqual([crawler('PerplexityBot').allowed, crawler('PerplexityBot').rule], [false, 'Disallow: /products/']);
    assert.equal(crawler('OAI-SearchBot').allowed, true, 'falls back to the * group');
    // The logs beside robots.txt: a refusal robots.txt does not explain is named as such.
    const evidence = audit.log_evidence;
    assert.equal(evidence.path, '/products/trail-running-shoe');
    assert.deepEqual(
      evidence.crawlers.map((c: { name: string; requests: number; refused: number; robots_allowed: boolean }) => [c.name, c.requests, c.refused, c.robots_allowed]),
      [['OAI-SearchBot', 3, 2, true], ['GPTBot', 1, 1, false]],
    );
    assert.match(evidence.findings[0], /^OAI-SearchBot was refused on 2 of 3 requests for \/products\/trail-running-shoe in the last 7 days although robots\.txt allows it/);
    const signals = audit.recommendations.map((r: { signal: string }) => r.signal);
    for (const sig of ['ai_crawlers_blocked', 'missing_llms_txt', 'missing_sitemap']) assert.ok(signals.includes(sig), `${sig} in ${signals}`);
    assert.equal(audit.llms_txt.present, false);
    assert.ok(shop.hits('/robots.txt') >= 1 && shop.hits('/llms.txt') >= 1);

    const usage = await usageOf(key);
    assert.equal(usage.credits.available_credit_units, '0.00');
    assert.equal(usage.credits.used_credit_units, '6.00');
  });

  test('a page that cannot be loaded ends the run failed with its credits released; a refused address too, without a connection', async () => {
    const { key } = await s.account({ credits: 9 });
    const missing = await create(key, { url: acme.url('/no-such-page'), analysis_depth: 'full' });
    const blocked = await create(key, { url: 'http://127.0.0.1:9/admin' });
    for (const [id, code] of [[missing.run_id, 'extraction_failed'], [blocked.run_id, 'fetch_blocked']]) {
      const run = await s.waitForRun(key, id);
      assert.equal(run.status, 'failed', JSON.stringify(run));
      assert.equal(run.error.code, code);
      assert.equal(typeof run.error.message, 'string');
      assert.equal(run.overall_score, null);
      assert.equal(run.billing.status, 'released');
      assert.equal(run.billing.settled_credits, '0.00');
      assert.equal(run.billing.released_credits, run.billing.reserved_credits);
      assert.equal((await getRun(key, id, '?include_result=true')).json().result, null);
    }
    const usage = await usageOf(key);
    assert.equal(usage.credits.available_credit_units, '9.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
  });

  test('lists are newest first with cursors and a status filter; another account sees none of it (404)', async () => {
    const { key } = await s.account({ credits: 20 });
    const ids: string[] = [];
    for (const path of ['/', '/pricing', '/docs/getting-started']) ids.push((await create(key, { url: acme.url(path) })).run_id);
    for (const id of ids) await s.waitForRun(key, id);

    const page1 = (await s.request('GET', `${RUNS}?limit=2`, { key })).json();
    assert.equal(page1.object, 'list');
    assert.deepEqual(page1.runs.map((r: { run_id: string }) => r.run_id), [ids[2], ids[1]]);
    assert.equal(page1.has_more, true);
    assert.equal(page1.next_starting_after, ids[1]);
    const page2 = (await s.request('GET', `${RUNS}?limit=2&starting_after=${page1.next_starting_after}`, { key })).json();
    assert.deepEqual(page2.runs.map((r: { run_id: string }) => r.run_id), [ids[0]]);
    assert.equal(page2.has_more, false);
    assert.equal(page2.next_starting_after, null);
    for (const r of [...page1.runs, ...page2.runs]) {
      assert.equal(r.status, 'completed');
      assert.equal('result' in r, false);
    }
    // Clamped limits; status filter.
    assert.equal((await s.request('GET', `${RUNS}?limit=0`, { key })).json().runs.length, 1);
    assert.equal((await s.request('GET', `${RUNS}?limit=1000`, { key })).json().runs.length, 3);
    assert.equal((await s.request('GET', `${RUNS}?status=completed`, { key })).json().runs.length, 3);
    assert.equal((await s.request('GET', `${RUNS}?status=failed`, { key })).json().runs.length, 0);
    assert.equal((await s.request('GET', `${RUNS}?status=bogus`, { key })).statusCode, 400);
    assert.equal((await s.request('GET', `${RUNS}?limit=abc`, { key })).statusCode, 422);
    const badCursor = await s.request('GET', `${RUNS}?starting_after=ci_nope`, { key });
    assert.equal(badCursor.statusCode, 400);
    assert.equal(badCursor.json().detail.error, 'invalid_cursor');
    const emptyCursor = await s.request('GET', `${RUNS}?starting_after=`, { key });
    assert.equal(emptyCursor.statusCode, 400);
    assert.equal(emptyCursor.json().detail.error, 'invalid_cursor');

    const { key: other } = await s.account({ credits: 5 });
    const foreign = await getRun(other, ids[0]!);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().detail.error, 'not_found');
    assert.equal((await getRun(other, ids[0]!, '?include_result=true')).statusCode, 404);
    assert.equal((await getRun(key, 'ci_doesnotexist')).statusCode, 404);
    assert.equal((await s.request('GET', RUNS, { key: other })).json().runs.length, 0);
    assert.equal((await s.request('GET', `${RUNS}?starting_after=${ids[2]}`, { key: other })).statusCode, 400, "another account's run is no cursor");
  });

  test('runs attach to a content_intelligence saved test and show up in reports by URL with score and band', async () => {
    const { key } = await s.account({ credits: 20 });
    const pricing = acme.url('/pricing');
    const first = await create(key, { url: pricing });
    const second = await create(key, { url: `${pricing}#plans` }); // same page after normalization
    for (const id of [first.run_id, second.run_id]) await s.waitForRun(key, id);

    const tests = (await s.request('GET', '/v1/tests?test_type=content_intelligence', { key })).json().tests;
    assert.equal(tests.length, 1);
    assert.equal(tests[0].test_type, 'content_intelligence');
    assert.equal(tests[0].run_count, 2);
    const run = (await getRun(key, first.run_id)).json();
    assert.equal(run.test_id, tests[0].id);
    const test = (await s.request('GET', `/v1/tests/${tests[0].id}`, { key })).json();
    assert.deepEqual(test.runs.map((r: { run_id: string }) => r.run_id), [second.run_id, first.run_id]);

    const report = (await s.request('GET', `/v1/reports/by-url?url=${encodeURIComponent(`${pricing.replace('http://', 'HTTP://')}/#top`)}`, { key })).json();
    assert.equal(report.match_count, 1);
    const match = report.matches[0];
    assert.equal(match.test.id, tests[0].id);
    assert.deepEqual(match.runs.map((r: { run_id: string }) => r.run_id), [second.run_id, first.run_id]);
    for (const r of match.runs) {
      assert.ok(Number.isInteger(r.overall_score), JSON.stringify(r));
      assert.ok(['Poor', 'Fair', 'Good', 'Strong'].includes(r.overall_band));
    }
    const limited = (await s.request('GET', `/v1/reports/by-url?url=${encodeURIComponent(pricing)}&test_type=content_intelligence&limit=1`, { key })).json();
    assert.equal(limited.matches[0].runs.length, 1);
    assert.equal((await s.request('GET', `/v1/reports/by-url?url=${encodeURIComponent(pricing)}&test_type=ai_citations`, { key })).json().match_count, 0);
  });

  test('an idempotency key returns the same run and reserves once; a different key makes a new run', async () => {
    const { key, accountId } = await s.account({ credits: 12 });
    const body = { url: GUIDE, analysis_depth: 'score', idempotency_key: 'ci-retry-1' };
    const a = await create(key, body);
    const b = await create(key, body);
    // The same key with another body is refused (as Stripe does): 422 idempotency_key_reused.
    const c = await s.request('POST', RUNS, { key, body: { ...body, analysis_depth: 'full' } });
    assert.equal(a.idempotent_replay, undefined);
    assert.equal(b.run_id, a.run_id);
    assert.equal(b.idempotent_replay, true);
    assert.equal(c.statusCode, 422);
    assert.equal(c.json().detail.error, 'idempotency_key_reused');
    await s.waitForRun(key, a.run_id);
    const replayAfter = await create(key, body);
    assert.equal(replayAfter.run_id, a.run_id);
    assert.equal(replayAfter.status, 'completed');

    // Concurrent first requests with one key: one run, one reservation.
    const racing = await Promise.all(Array.from({ length: 5 }, () => s.request('POST', RUNS, { key, body: { url: GUIDE, idempotency_key: 'ci-race' } })));
    const raceIds = new Set(racing.map((r) => (assert.equal(r.statusCode, 200, r.body), r.json().run_id)));
    assert.equal(raceIds.size, 1);

    const d = await create(key, { ...body, idempotency_key: 'ci-retry-2' });
    assert.notEqual(d.run_id, a.run_id);
    for (const id of [...raceIds, d.run_id]) await s.waitForRun(key, id);
    const usage = await usageOf(key);
    assert.equal(usage.credits.used_credit_units, '9.00', 'three runs of 3.00, replays free');
    assert.equal(usage.recent.filter((r: { action: string }) => r.action === 'content_intelligence.runs.create').length, 3);

    // The key is scoped to the account: another account's same key makes its own run.
    const { key: other } = await s.account({ credits: 3 });
    const e = await create(other, body);
    assert.notEqual(e.run_id, a.run_id);
    await s.waitForRun(other, e.run_id);
    assert.ok(accountId);
  });
});
