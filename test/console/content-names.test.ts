// The Content Intelligence report names every audit check and component the API returns in
// words: no ids with underscores, acronyms in capitals ("AI training crawlers", not "Ai training
// crawlers", the name a walkthrough found for a site that blocks training crawlers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditSite, scoreContent } from '../../src/core/content/index.ts';
import { fixtureLoader } from '../core/content/fixture-loader.ts';

// The browser module, untyped: imported by URL so the compiler does not ask for its declarations.
const NAMES = new URL('../../src/console/public/js/pages/content-names.js', import.meta.url).href;
const { checkName, componentName, idWords } = (await import(NAMES)) as Record<'checkName' | 'componentName' | 'idWords', (id: string) => string>;

test('every audit check of a site blocking training crawlers has a name; AI stays in capitals', async () => {
  const audit = await auditSite('https://crawl-training.test/blog/guide', fixtureLoader());
  const ids = audit.checks.map((c) => c.id).filter((id) => !id.startsWith('ai_crawler:'));
  assert.ok(ids.includes('ai_training_crawlers'), ids.join(', '));
  for (const id of ids) assert.doesNotMatch(checkName(id), /_|\bAi\b|\bJson\b|\bUrl\b/, id);
  assert.equal(checkName('ai_training_crawlers'), 'AI training crawlers');
});

test('component names, and the fallback for an id not yet named', async () => {
  const r = await scoreContent({ url: 'https://acme-pm.test/blog/project-management-guide' }, fixtureLoader(), { now: new Date('2025-06-01T00:00:00Z') });
  for (const k of Object.keys(r.components)) assert.doesNotMatch(componentName(k), /_/, k);
  assert.equal(componentName('access'), 'Crawler access');
  assert.equal(idWords('ai_search_crawlers'), 'AI search crawlers');
  assert.equal(idWords('faq_json_ld'), 'FAQ JSON LD');
  assert.equal(idWords('trend_coverage'), 'Trend coverage');
});
