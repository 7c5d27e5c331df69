// Defects a walkthrough of the demo site's content report found (session 40), each failing
// before its fix: the developer docs' "API token" recommended on the buyer's guide and on the
// stuffed article; a summary that left crawler access out of "strongest", called a page of
// "experts say" claims fully trustworthy, gave a gain without its unit and lowercased a trend
// name; a stuffed keyword's trend row saying "Covered… keep it current"; and one trend worded
// two ways by discover_trends and score_content.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTrends, scoreContent, scoreDocument } from '../../../src/core/content/index.ts';
import type { SiteLoader } from '../../../src/core/content/types.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { demoSiteRoutes } from '../../../src/cli/demo-site-files.ts';

const DEMO = 'http://127.0.0.1:8787';
const NOW = new Date();

/** The demo site as `npm run demo:site` serves it, from memory. */
function demoLoader(): SiteLoader {
  const pages = new Map([...demoSiteRoutes(DEMO)].map(([path, r]) => [path, r.body]));
  return {
    async loadPage(url) {
      const html = pages.get(new URL(url).pathname);
      return html === undefined
        ? { document: extractPage('Not found', url), status: 404, headers: {} as Record<string, string> }
        : { document: extractPage(html, url), status: 200, headers: { 'content-type': 'text/html' } };
    },
    async fetchAs() {
      return null;
    },
    async fetchText(url) {
      const body = pages.get(new URL(url).pathname);
      return body === undefined ? { status: 404, body: 'Not found', contentType: 'text/plain' } : { status: 200, body, contentType: 'text/plain' };
    },
  };
}
const scoreDemo = (path: string) => scoreContent({ url: DEMO + path }, demoLoader(), { now: NOW });
const trendsDemo = (path: string) => discoverTrends({ url: DEMO + path }, demoLoader());

test("a related page's topic is recommended only if that page is about the page's subject: no \"API token\" on the buyer's guides", async () => {
  for (const path of ['/blog/project-management-guide', '/blog/best-project-management-software']) {
    const r = await scoreDemo(path);
    const names = r.trend_coverage.map((t) => t.trend);
    assert.equal(names[0], 'project management software', path);
    assert.ok(!names.some((n) => /API|token/i.test(n)), `${path}: ${names.join(', ')}`);
    assert.ok(!r.recommendations.some((x) => /API token/i.test(x.title + x.recommendation)), `${path}: ${r.recommendations.map((x) => x.title).join(' | ')}`);
    assert.doesNotMatch(r.overall.summary, /api token/i);
    const discovered = (await trendsDemo(path)).trends.map((t) => t.name);
    assert.ok(!discovered.some((n) => /API|token/i.test(n)), `${path}: ${discovered.join(', ')}`);
    // Topics of the blog posts on the same subject stay.
    assert.ok(
      names.some((n) => /task boards|workspace|nonprofits/.test(n)),
      `${path}: ${names.join(', ')}`,
    );
  }
  // The docs page itself keeps its topic.
  const docs = (await trendsDemo('/docs/getting-started')).trends.map((t) => t.name);
  assert.ok(
    docs.some((n) => /API/.test(n)),
    docs.join(', '),
  );
});

test('written pages: a topic of a related page on the same subject stays, one of an unrelated page does not', () => {
  const page = (path: string, title: string, body: string) =>
    extractPage(
      `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
      'https://roadwise.example' + path,
    );
  const guide = page(
    '/winter-tyres',
    'How to choose winter tyres',
    '<p>Winter tyres grip on snow and ice because their rubber stays soft below seven degrees.</p><h2>When do winter tyres pay off?</h2><p>Winter tyres pay off where roads freeze for weeks; elsewhere all-season tyres do.</p>',
  );
  const sameSubject = page(
    '/winter-tyres-tread',
    'Tread depth of winter tyres',
    '<p>Winter tyres need a tread depth of at least four millimetres to clear slush.</p><h2>Measuring tread depth</h2><p>Measure the tread depth of winter tyres with a gauge in three grooves.</p><p>Replace winter tyres when the tread depth is under four millimetres.</p>',
  );
  const docs = page(
    '/developers',
    'Dealer API reference',
    '<p>The dealer API lists orders with an API key.</p><h2>How do I create an API key?</h2><p>Open Settings and choose Create API key; the API key is shown once.</p><h2>Webhooks</h2><p>Webhooks send order events.</p>',
  );
  const r = scoreDocument(guide, { now: new Date('2025-06-01T00:00:00Z'), related: [sameSubject, docs] });
  const names = r.trend_coverage.map((t) => t.trend);
  assert.equal(names[0], 'winter tyres', names.join(', '));
  assert.ok(names.includes('tread depth'), names.join(', '));
  assert.ok(!names.some((n) => /API|webhooks|dealer/i.test(n)), names.join(', '));
});

test('the summary agrees with the components: access counts for "strongest", trust drops on "experts say", the gain has its unit', async () => {
  const tips = await scoreDemo('/blog/project-management-tips');
  assert.equal(tips.components.access, 100);
  assert.match(tips.overall.summary, /Strongest: crawler access \(100\)/);
  assert.match(tips.overall.summary, /first: [^.]+ \(\+\d+ points?\)\.$/);

  const stuffed = await scoreDemo('/blog/best-project-management-software');
  assert.ok(stuffed.signals.evidence.vague_attribution.length >= 5);
  assert.ok(stuffed.components.trust < 40, `trust ${stuffed.components.trust} on unnamed authorities`);
  assert.doesNotMatch(stuffed.overall.summary, /Strongest: trust/);
  assert.equal(stuffed.recommendations.find((x) => x.signal === 'vague_attribution')?.component, 'trust');
});

test('a stuffed keyword\'s trend row says to stop repeating it, in both endpoints, never "Covered… keep it current"', async () => {
  const path = '/blog/best-project-management-software';
  const r = await scoreDemo(path);
  assert.ok(r.recommendations.some((x) => x.signal === 'keyword_stuffing'));
  const row = r.trend_coverage.find((t) => t.trend === 'project management software')!;
  assert.doesNotMatch(row.gap + row.action, /Covered|Keep "/);
  assert.match(row.gap, /Repeated \d+ times/);
  assert.match(row.action, /^Stop repeating "project management software"/);
  const d = (await trendsDemo(path)).trends.find((t) => t.name === 'project management software')!;
  assert.equal(d.action, row.action);
  // The good guide on the same subject is not stuffed: its row stays "keep it current".
  const guide = await scoreDemo('/blog/project-management-guide');
  assert.match(guide.trend_coverage[0]!.action, /^Keep "project management software" current/);
});

test('one trend, one wording: score_content and discover_trends give the same gap and action', async () => {
  for (const path of ['/blog/project-management-guide', '/blog/project-management-tips', '/blog/best-project-management-software']) {
    const scored = await scoreDemo(path);
    const discovered = new Map((await trendsDemo(path)).trends.map((t) => [t.name, t]));
    assert.ok(scored.trend_coverage.length > 1);
    for (const t of scored.trend_coverage) {
      const d = discovered.get(t.trend);
      assert.ok(d, `${path}: ${t.trend} not discovered`);
      assert.equal(t.action, d.action, `${path}: ${t.trend}`);
      assert.equal(t.gap, d.gap, `${path}: ${t.trend}`);
    }
  }
});

test('a trend named in the summary keeps its case', async () => {
  // A supplied trend the strong guide does not cover is its first recommendation.
  const r = await scoreContent({ url: DEMO + '/blog/project-management-guide', trends: ['API token'] }, demoLoader(), { now: NOW });
  assert.equal(r.recommendations[0]!.title, 'Cover "API token"');
  assert.match(r.overall.summary, /first: cover "API token" \(\+\d+ points\)\.$/);
});
