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
