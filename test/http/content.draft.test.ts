// POST /v1/content-intelligence/content/score with `html` (a draft not yet published), through the
// real server: the same HTML served by a loopback fixture site and supplied in the body gives the
// same content scores, while the supplied score fetches nothing and leaves the live-site findings
// null with a reason; the size cap (413), empty and non-HTML input (400) charge nothing; and the
// CLI reads the HTML from a file or stdin (--html-file FILE|-).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

const SCORE = '/v1/content-intelligence/content/score';
const TRENDS = ['gantt charts', 'resource planning'];
const CAP = 5 * 1024 * 1024;

describe('Content score of supplied HTML (a draft)', () => {
  let site: FixtureServer;
  let s: TestServer;
  let base: string;
  let GUIDE: string;
  let html: string;
  let dir: string;

  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    GUIDE = site.url('/blog/project-management-guide');
    html = await (await fetch(GUIDE)).text();
    dir = mkdtempSync(join(tmpdir(), 'sightline-draft-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s.close();
    await site.close();
  });

  const balance = async (key: string) => (await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units;

  test('same HTML fetched or supplied: same content scores; supplied fetches nothing and says what it left out', async () => {
    const { key } = await s.account({ credits: 10 });
    const fetchedRes = await s.request('POST', SCORE, { key, body: { url: GUIDE, trends: TRENDS } });
    assert.equal(fetchedRes.statusCode, 200, fetchedRes.body);
    const fetched = fetchedRes.json();
    const before = site.requests.length;
    const suppliedRes = await s.request('POST', SCORE, { key, body: { url: GUIDE, trends: TRENDS, html } });
    assert.equal(suppliedRes.statusCode, 200, suppliedRes.body);
    const supplied = suppliedRes.json();
    assert.equal(site.requests.length, before, 'nothing fetched for supplied HTML (no page, no robots.txt)');

    assert.equal(fetched.source, 'fetched');
    assert.equal(supplied.source, 'supplied');
    assert.equal(fetched.not_checked, undefined);
    assert.match(supplied.not_checked.reason, /supplied/);
    assert.ok(supplied.not_checked.findings.includes('crawl_access'));
    // The live-site findings are unknown, not a pass.
    assert.equal(supplied.crawl_access, null);
    assert.equal(supplied.components.access, null);
    assert.notEqual(fetched.crawl_access, null);
    assert.equal(typeof fetched.components.access, 'number');
    assert.doesNotMatch(supplied.overall.summary, /crawler access/);

    // Everything the content earns is the same.
    for (const k of ['url', 'title', 'page_type', 'trend_source', 'content_depth', 'content_freshness', 'sufficiency_score', 'freshness_score', 'trend_coverage', 'signals']) {
      assert.deepEqual(supplied[k], fetched[k], k);
    }
    const { access: _a, ...suppliedComponents } = supplied.components;
    const { access: _b, ...fetchedComponents } = fetched.components;
    assert.deepEqual(suppliedComponents, fetchedComponents);
    const content = (recs: { title: string }[]) => recs.filter((r) => !/crawl/i.test(r.title));
    assert.deepEqual(content(supplied.recommendations), content(fetched.recommendations));
    // The fixture site blocks no search crawler, so the overall score is not capped either way.
    assert.deepEqual(fetched.crawl_access.blocked_search, []);
    assert.equal(supplied.overall_score, fetched.overall_score);

    // Billing as for a fetched page: 2.00 each with trends.
    assert.deepEqual(supplied.billing, fetched.billing);
    assert.deepEqual(supplied.billing, { billable: true, credits: '2.00', estimated_credits: '2.00' });
    assert.equal(await balance(key), '6.00');
  });

  test('without trends, a supplied draft is scored from the page alone (3.00), links resolved against url', async () => {
    const { key } = await s.account({ credits: 10 });
    const draft = '<!doctype html><html><head><title>Draft: Sprint retrospectives</title></head><body><main><h1>Sprint retrospectives</h1><p>A retrospective closes every sprint. <a href="/blog/agile-sprint-planning">Planning</a> comes first.</p></main></body></html>';
    const before = site.requests.length;
    const res = await s.request('POST', SCORE, { key, body: { url: site.url('/blog/retros'), html: draft } });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json();
    assert.equal(site.requests.length, before);
    assert.equal(r.url, site.url('/blog/retros'));
    assert.equal(r.title, 'Draft: Sprint retrospectives');
    assert.equal(r.trend_source, 'discovered');
    assert.equal(r.source, 'supplied');
    assert.deepEqual(r.billing, { billable: true, credits: '3.00', estimated_credits: '3.00' });
    assert.equal(await balance(key), '7.00');
  });

  test('refused before any credit moves: over the fetcher cap 413, empty or not HTML 400', async () => {
    const { key } = await s.account({ credits: 10 });
    const big = `<html><body><p>${'a'.repeat(CAP)}</p></body></html>`;
    const tooBig = await s.request('POST', SCORE, { key, body: { url: GUIDE, html: big } });
    assert.equal(tooBig.statusCode, 413, tooBig.body);
    assert.equal(tooBig.json().detail.error, 'payload_too_large');
    assert.equal(tooBig.json().detail.max_bytes, CAP);
    assert.match(tooBig.json().detail.message, /5 MiB/);
    for (const [bad, what] of [
      ['', /empty/],
      ['   \n ', /empty/],
      ['Just some plain text of a draft, no markup.', /not HTML/],
      ['{"title": "json"}', /not HTML/],
    ] as const) {
      const res = await s.request('POST', SCORE, { key, body: { url: GUIDE, html: bad } });
      assert.equal(res.statusCode, 400, `${JSON.stringify(bad)}: ${res.body}`);
      assert.equal(res.json().detail.error, 'invalid_html');
      assert.match(res.json().detail.message, what);
    }
    // An invalid URL is still refused with html.
    const badUrl = await s.request('POST', SCORE, { key, body: { url: 'not a url', html } });
    assert.equal(badUrl.json().detail.error, 'invalid_url');
    assert.equal(await balance(key), '10.00', 'a refused request charges nothing');
    const activity = (await s.request('GET', '/v1/activity?kind=content_intelligence', { key })).json().items;
    assert.ok(activity.length >= 5);
    for (const a of activity) {
      assert.equal(a.credits, '0.00');
      assert.ok([400, 413].includes(a.http_status), String(a.http_status));
    }
  });

  test('MCP: score_content takes html; the answer matches its output schema and fetches nothing', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'score_content')!;
    assert.match(String((tool.inputSchema.properties as Record<string, { description?: string }>).html?.description), /nothing fetched/);
    const before = site.requests.length;
    // callTool checks structuredContent against the published output schema.
    const r: any = await client.callTool({ name: 'score_content', arguments: { url: GUIDE, html, trends: TRENDS } });
    assert.ok(!r.isError, r.content?.[0]?.text);
    assert.equal(r.structuredContent.source, 'supplied');
    assert.equal(r.structuredContent.crawl_access, null);
    assert.equal(site.requests.length, before);
    const empty: any = await client.callTool({ name: 'score_content', arguments: { url: GUIDE, html: ' ' } });
    assert.ok(empty.isError);
    assert.match(empty.content[0].text, /invalid_html/);
    // A draft past the cap reaches the core's own check (not the endpoint's body limit, which was
    // 4 MiB and refused drafts the API takes): the tool's error names the cap; nothing is charged.
    const big: any = await client.callTool({ name: 'score_content', arguments: { url: GUIDE, html: `<p>${'"quoted" '.repeat(CAP / 9)}</p>` } });
    assert.ok(big.isError);
    const bigError = JSON.parse(big.content[0].text);
    assert.equal(bigError.error, 'payload_too_large');
    assert.equal(bigError.max_bytes, CAP);
    await client.close();
    assert.equal(await balance(key), '8.00');
  });

  test('CLI: ci score --html-file FILE and --html-file - (stdin)', async () => {
    const { key } = await s.account({ credits: 10 });
    const env = { SIGHTLINE_API_URL: base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') };
    const file = join(dir, 'draft.html');
    writeFileSync(file, html);
    const before = site.requests.length;
    const fromFile = await runCli(['ci', 'score', GUIDE, '--html-file', file, '--trend', TRENDS[0]!, '--json'], { env });
    assert.equal(fromFile.code, 0, fromFile.err);
    assert.equal(fromFile.json.source, 'supplied');
    const piped = await runCli(['ci', 'score', GUIDE, '--html-file', '-', '--trend', TRENDS[0]!, '--json'], { env, input: html });
    assert.equal(piped.code, 0, piped.err);
    assert.equal(piped.json.source, 'supplied');
    assert.equal(piped.json.overall_score, fromFile.json.overall_score);
    assert.equal(site.requests.length, before, 'the CLI sent the HTML; the server fetched nothing');
    const empty = await runCli(['ci', 'score', GUIDE, '--html-file', '-', '--json'], { env, input: '' });
    assert.notEqual(empty.code, 0);
    assert.equal(empty.json.error, 'invalid_html');
    assert.equal(await balance(key), '6.00');
  });
});
