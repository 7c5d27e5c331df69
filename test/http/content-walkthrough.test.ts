// A content lead's page through the real server (POST /v1/content-intelligence/content/score,
// the page served from loopback): what a reviewer of the walkthrough found wrong in the answer.
// - A byline linking the author's profile page makes the author checkable even when the JSON-LD
//   Person has no url: no "Link the author to a profile page" advice for a linked author.
// - Trend gaps count passages, and say so ("Mentioned in 2 passages"), not "times": a stuffed
//   sentence naming CRM eight times is one passage.
// - "A 30-day rollout plan" shows "rollout plan" is countable: the question is about "rollout
//   plans", not "rollout plan".
// - "expected for an article page", not "a article page".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const GUIDE = readFileSync(new URL('../fixtures/content/walkthrough/crm-guide.html', import.meta.url), 'utf8');
const HTML = { 'content-type': 'text/html; charset=utf-8' };

describe('Content Intelligence: the walkthrough pages', () => {
  let site: FixtureServer;
  let s: TestServer;
  let key: string;

  before(async () => {
    site = await startFixtureServer();
    site.route('/guides/crm', { headers: HTML, body: GUIDE.replaceAll('ORIGIN', site.origin) });
    site.route('/authors/dana', { headers: HTML, body: '<html><head><title>Dana Whitfield</title></head><body><h1>Dana Whitfield</h1></body></html>' });
    site.route('/robots.txt', { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' });
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    key = (await s.account({ credits: 20 })).key;
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  async function score(body: Record<string, unknown>) {
    const res = await s.request('POST', '/v1/content-intelligence/content/score', { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  test('a linked byline is a checkable author; the wording reads right', async () => {
    const r = await score({ url: site.url('/guides/crm'), trends: ['CRM', 'rollout plan', 'client portal', 'engagement letters'] });
    assert.equal(r.signals.citability.author, 'Dana Whitfield');
    assert.equal(r.signals.citability.author_checkable, true);
    const author = r.score_breakdown.find((b: { signal: string }) => b.signal === 'author');
    assert.equal(author.evidence, 'Author "Dana Whitfield" with a profile link.');
    assert.equal(author.points, author.max);
    assert.ok(!r.recommendations.some((x: { signal: string }) => x.signal === 'author'), JSON.stringify(r.recommendations));

    const schema = r.score_breakdown.find((b: { signal: string }) => b.signal === 'schema');
    assert.match(schema.evidence, /expected for an article page: Article\.$/);

    const row = (t: string) => r.trend_coverage.find((c: { trend: string }) => c.trend === t);
    // "Engagement-letter workflow" and "move engagement letters": two passages, no section.
    assert.equal(row('engagement letters').gap, 'Mentioned in 2 passages but no H2/H3 section covers it.');
    assert.ok(r.trend_coverage.every((c: { gap: string }) => !/\d+ times?\b|\(\d+ mentions?\)/.test(c.gap)), JSON.stringify(r.trend_coverage));
    // A covered trend of a page showing "Updated 25 November 2026" is not told to show one.
    assert.equal(row('CRM').gap, 'Covered: section, question and repeated mentions.');
    assert.doesNotMatch(row('CRM').action, /show a visible "Updated" date/);
    // The page's own "A 30-day rollout plan" makes the noun countable.
    assert.doesNotMatch(JSON.stringify(r), /about rollout plan\b/);
  });

  test('a stuffed sentence is one passage, said so', async () => {
    site.route('/poor', {
      headers: HTML,
      body: '<html><head><title>Home</title></head><body><div>Welcome to our blog! We are passionate about innovation.</div><div>CRM CRM CRM best CRM cheap CRM CRM software CRM accounting CRM for you.</div></body></html>',
    });
    const r = await score({ url: site.url('/poor'), trends: ['CRM'] });
    assert.equal(r.trend_coverage[0].gap, 'Mentioned in 1 passage but no H2/H3 section covers it.');
  });
});

describe('Content Intelligence: a page whose only figure is sourced', () => {
  let site: FixtureServer;
  let s: TestServer;
  let key: string;
  before(async () => {
    site = await startFixtureServer();
    site.route('/crm', {
      headers: HTML,
      body: `<html lang="en"><head><title>CRM for accounting firms: what to choose in 2026 | LedgerLoop</title></head><body><main>
<h1>CRM for accounting firms</h1>
<p>An accounting firm should pick a CRM that connects to its ledger software, tracks filing deadlines and costs under $40 per user a month; according to the AICPA 2026 technology survey, 61% of small firms now use one.</p>
<h2>What matters most</h2><ul><li>Integration with QuickBooks Online and Xero</li><li>Deadline reminders</li><li>A client portal</li></ul>
</main></body></html>`,
    });
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    key = (await s.account({ credits: 20 })).key;
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  test('is told to add a sourced figure, not that its figure has no source; counts agree in number', async () => {
    const res = await s.request('POST', '/v1/content-intelligence/content/score', { key, body: { url: site.url('/crm'), trends: ['CRM'] } });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json();
    assert.deepEqual([r.signals.evidence.statistics, r.signals.evidence.sourced_statistics], [1, 1]);
    const figures = r.recommendations.find((x: { signal: string }) => x.signal === 'sourced_statistics');
    assert.equal(figures.title, 'Add sourced figures');
    assert.match(figures.recommendation, /^The one passage with a figure names its source; add another specific figure/);
    const text = JSON.stringify(r.recommendations);
    assert.doesNotMatch(text, /\b0 of \d+ passages? with figures give no source/);
    assert.doesNotMatch(text, /\b1 passages\b/);
    // The summary names the topic with its acronym's case kept.
    assert.doesNotMatch(r.overall.summary, /"crm\b/);
  });
});
