// Advice a marketer can trust: the defects a reviewer found scoring the demo site (npm run
// demo:site, served on 127.0.0.1 with no site name on the weak page), each failing on the scorer
// before its fix: the site's own brand recommended as a topic; section advice on a page with no
// sections ("0 of 0 do"); five "source your claims" items for one action; a stuffed opening
// earning the full direct-answer points; "declare a date" for a page that declares an old one;
// and demo dates fixed in 2025, so the demo looked worse every month.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTrends, scoreContent, scoreDocument } from '../../../src/core/content/index.ts';
import { siteNames } from '../../../src/core/content/site-names.ts';
import { nonTopicNames } from '../../../src/core/content/trends.ts';
import type { SiteLoader } from '../../../src/core/content/types.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { demoSiteRoutes } from '../../../src/cli/demo-site-files.ts';

const DEMO = 'http://127.0.0.1:8787';

/** A SiteLoader over pages held in memory (path → HTML), 404 for the rest. */
function memoryLoader(pages: Map<string, string>): SiteLoader {
  return {
    async loadPage(url) {
      const html = pages.get(new URL(url).pathname);
      return html === undefined ? { document: extractPage('Not found', url), status: 404, headers: {} as Record<string, string> } : { document: extractPage(html, url), status: 200, headers: { 'content-type': 'text/html' } };
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

/** The demo site exactly as `npm run demo:site` serves it on 127.0.0.1:8787 today. */
const demoLoader = () => memoryLoader(new Map([...demoSiteRoutes(DEMO)].map(([path, r]) => [path, r.body])));
const scoreDemo = (path: string) => scoreContent({ url: DEMO + path }, demoLoader(), { now: new Date() });

test('the site name is never a topic: not on a page that names no site, whatever the host', async () => {
  const r = await scoreDemo('/blog/project-management-tips');
  const trends = r.trend_coverage.map((t) => t.trend);
  assert.ok(!trends.some((t) => /acme/i.test(t)), `trends: ${trends.join(', ')}`);
  assert.ok(!r.recommendations.some((x) => /"Acme/i.test(x.recommendation)), r.recommendations.map((x) => x.recommendation).join('\n'));
  const discovered = await discoverTrends({ url: DEMO + '/blog/project-management-tips' }, demoLoader());
  assert.ok(!discovered.trends.some((t) => /acme/i.test(t.name)), discovered.trends.map((t) => t.name).join(', '));
});

test('site names come from every page read: repeated title affixes, the header logo, the publisher; not topic headings', () => {
  const header = `<header><a href="/" class="logo"><img src="/logo.svg" alt="Zephyrly logo"></a><nav><a href="/">Home</a> <a href="/guides">Guides</a></nav></header>`;
  const page = (path: string, title: string, text: string, head = '', top = '') =>
    extractPage(`<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${top}<main><h1>${title.split(' · ')[0]}</h1><p>${text}</p></main></body></html>`, 'http://127.0.0.1:8787' + path);
  const a = page('/a', 'Snow chains for winter driving', 'Snow chains give a car grip on packed snow and ice.');
  const b = page('/b', 'Roof rack loading · Zephyrly', 'Heavy items go in the middle of the roof rack.');
  const c = page('/c', 'Winter tyres explained · Zephyrly', 'Winter tyres stay flexible below seven degrees.');
  const once = page('/d', 'Ski boxes | Nordwind', 'A ski box keeps skis dry.');
  assert.deepEqual(siteNames([a, b, c, once]), ['Zephyrly'], 'a suffix repeated across pages; one page is not enough');
  // The header logo names the site on a page whose title does not.
  const logo = page('/e', 'Snow chains for winter driving', 'Snow chains give a car grip.', '', header);
  assert.deepEqual(siteNames([logo]), ['Zephyrly']);
  // The publisher and the site-level JSON-LD of a related page.
  const ld = page('/f', 'Pricing', 'Plans from $8.', `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Zephyrly GmbH"},{"@type":"WebSite","name":"Zephyrly"}]}</script>`);
  assert.deepEqual(siteNames([a, ld]), ['Zephyrly GmbH', 'Zephyrly']);
  // "Project Management Software: …" on two pages about project management software is a topic.
  const p1 = page('/g', 'Project Management Software: Pricing', 'What project management software costs per user.');
  const p2 = page('/h', 'Project Management Software: Features', 'Which features project management software needs.');
  assert.deepEqual(siteNames([p1, p2]), []);
  // A page that names no site (no og:site_name, served on an IP address) learns it from the others.
  const names = nonTopicNames({ page: a, related: [b, c] }, 'en');
  assert.ok(names.includes('Zephyrly'), names.join(', '));
  assert.ok(!names.some((n) => /^127/.test(n)), names.join(', '));
});

test('section advice only where there are sections, and never "0 of 0"', async () => {
  const r = await scoreDemo('/blog/project-management-tips');
  const signals = r.recommendations.map((x) => x.signal);
  assert.equal(r.signals.citability.sections, 0);
  assert.ok(signals.includes('sections'), signals.join(','));
  assert.ok(!signals.includes('section_answers'), 'the "add sections" advice covers it');
  const texts = [...r.recommendations.map((x) => `${x.title} ${x.recommendation}`), ...r.score_breakdown.map((p) => p.evidence)];
  for (const t of texts) assert.doesNotMatch(t, /\b0 of 0\b/);
  // The sections advice carries the points of both signals, measured by re-scoring.
  const sections = r.recommendations.find((x) => x.signal === 'sections')!;
  assert.deepEqual(sections.signals, ['sections', 'section_answers']);
});

test('the summary names what the page is about: its title where the leading keyphrase is a lone everyday word', async () => {
  const weak = await scoreDemo('/blog/project-management-tips');
  assert.match(weak.overall.summary, /page about "project management tips"/, weak.overall.summary);
  const good = await scoreDemo('/blog/project-management-guide');
  assert.doesNotMatch(good.overall.summary, /page about "(tool|business|tips)"/, good.overall.summary);
});

test('one recommendation per action: sourcing advice merged, named with every signal it changes, its gain measured', async () => {
  const r = await scoreDemo('/blog/best-project-management-software');
  const titles = r.recommendations.map((x) => x.title);
  assert.equal(new Set(titles).size, titles.length, titles.join(' | '));
  const sourcing = r.recommendations.filter((x) => (x.signals ?? [x.signal]).some((s) => ['named_sources', 'linked_sources', 'sourced_statistics', 'unsourced_figures', 'vague_attribution'].includes(s)));
  assert.ok(sourcing.length <= 2, sourcing.map((x) => x.title).join(' | '));
  const named = new Set(sourcing.flatMap((x) => x.signals ?? [x.signal]));
  for (const s of ['named_sources', 'linked_sources', 'sourced_statistics', 'unsourced_figures', 'vague_attribution']) assert.ok(named.has(s), `${s} named by a recommendation`);
  assert.ok(!titles.includes('Link your sources'), 'no "link your sources" when no source is named');
  const figures = sourcing.find((x) => x.signal === 'unsourced_figures')!;
  assert.deepEqual(figures.signals, ['unsourced_figures', 'sourced_statistics']);
  // Every signal of a merged recommendation is short of its best now; the gain is positive.
  for (const x of r.recommendations) {
    assert.ok(x.expected_impact > 0, x.title);
    for (const s of (x.signals ?? []).filter((s) => s !== 'trend_gap')) assert.ok(r.score_breakdown.some((p) => p.signal === s && (p.points < 0 || p.points < p.max)), `${x.title}: ${s}`);
  }
});

test('a merged recommendation gains what the page gains once its change is made', () => {
  const url = 'https://blog.example/post';
  const para = (t: string) => `<p>${t}</p>`;
  // The same opening paragraph on both sides, so that naming the sources changes only the sources.
  const lead = para('Crop rotation means growing a different crop on the same field each season, so that the soil recovers its nutrients and pests lose their host plants.');
  const html = (body: string) => `<!doctype html><html lang="en"><head><title>Crop rotation for small farms</title></head><body><main><h1>Crop rotation for small farms</h1>${lead}${body}</main></body></html>`;
  const claims = [
    'Experts say rotating legumes restores nitrogen for the next crop on most soils.',
    'Studies show that most small farms rotate on a three-year cycle.',
    'It is widely believed that higher yields follow a legume year.',
  ];
  const before = scoreDocument(extractPage(html(claims.map(para).join('')), url), { trends: ['crop rotation'] });
  const rec = before.recommendations.find((x) => x.signal === 'vague_attribution')!;
  assert.ok(rec.signals!.includes('named_sources'), JSON.stringify(rec));
  // Make the change: name (and link) the source of each claim.
  const fixed = [
    'According to the <a href="https://www.fao.org/soils">FAO Soils Portal</a>, rotating legumes restores nitrogen for the next crop on most soils.',
    'The <a href="https://www.usda.gov/census">USDA 2022 Census of Agriculture</a> found that most small farms rotate on a three-year cycle.',
    'According to the <a href="https://www.rothamsted.ac.uk/trials">Rothamsted long-term trials</a>, higher yields follow a legume year.',
  ];
  const after = scoreDocument(extractPage(html(fixed.map(para).join('')), url), { trends: ['crop rotation'] });
  assert.ok(!after.recommendations.some((x) => (x.signals ?? [x.signal]).includes('vague_attribution')));
  assert.ok(Math.abs(after.overall_score - before.overall_score - rec.expected_impact) <= 1, `${after.overall_score} - ${before.overall_score} vs ${rec.expected_impact}`);
});

test('an opening that repeats the keyword is not a direct answer', async () => {
  const r = await scoreDemo('/blog/best-project-management-software');
  const point = r.score_breakdown.find((p) => p.signal === 'answer_first')!;
  assert.ok(point.points < point.max, `${point.points}/${point.max}: ${point.evidence}`);
  assert.match(point.evidence, /repeats/);
  const rec = r.recommendations.find((x) => x.signal === 'answer_first')!;
  assert.match(rec.recommendation, /repeats "project management software"/);
  // The focused guide, which names its topic once in its answer, keeps the full points.
  const good = await scoreDemo('/blog/project-management-guide');
  const g = good.score_breakdown.find((p) => p.signal === 'answer_first')!;
  assert.equal(g.points, g.max);
});

test('a declared but old date: "update the page", never "declare a date"', () => {
  const html = `<!doctype html><html lang="en"><head><title>Crop rotation for small farms</title>
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Crop rotation","datePublished":"2024-01-02","dateModified":"2024-03-01"}</script></head>
    <body><main><h1>Crop rotation for small farms</h1><p>Crop rotation is the practice of growing a different crop on the same field each season so that soil nutrients recover and pests lose their host plants.</p></main></body></html>`;
  const r = scoreDocument(extractPage(html, 'https://blog.example/rotation'), { now: new Date('2025-06-01T00:00:00Z'), trends: ['crop rotation'] });
  const rec = r.recommendations.find((x) => x.signal === 'declared_date')!;
  assert.doesNotMatch(rec.title, /^Declare/);
  assert.match(rec.title, /Update the page: last updated 457 days ago/);
  const none = scoreDocument(extractPage(html.replace(/<script[\s\S]*?<\/script>/, ''), 'https://blog.example/rotation'), { now: new Date('2025-06-01T00:00:00Z'), trends: ['crop rotation'] });
  assert.match(none.recommendations.find((x) => x.signal === 'declared_date')!.title, /^Declare/);
});

test('the demo site serves dates relative to today: the good guide is fresh whenever the demo runs', async () => {
  const routes = demoSiteRoutes(DEMO);
  const dates = [...routes.values()].flatMap((r) => [...r.body.matchAll(/\b(20\d\d-\d\d-\d\d)\b/g)].map((m) => m[1]!));
  const newest = dates.sort().at(-1)!;
  const age = (Date.now() - Date.parse(newest)) / 86_400_000;
  assert.ok(age >= 0 && age <= 10, `newest demo date ${newest}`);
  const guide = await scoreDemo('/blog/project-management-guide');
  const fresh = guide.score_breakdown.find((p) => p.signal === 'declared_date')!;
  assert.equal(fresh.points, fresh.max, fresh.evidence);
  // A year shown next to a date moves with it ("Updated May 10, 2025" stays the declared date).
  const html = routes.get('/blog/project-management-guide')!.body;
  const visible = /Updated <time datetime="([\d-]+)">([^<]+)<\/time>/.exec(html)!;
  assert.equal(new Date(visible[2] + ' UTC').toISOString().slice(0, 10), visible[1]);
});
