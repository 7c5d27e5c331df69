// Content Intelligence analysis in worker threads (analysis-threads.ts): a thread gives the same
// score, trends and prompt ideas as the calling thread, runs operations one at a time per thread
// in order, and closing rejects what is still queued.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnalysisPool } from '../../../src/core/content/analysis-threads.ts';
import { inProcessAnalysis } from '../../../src/core/content/analysis.ts';
import { loadSite } from '../../../src/core/content/site.ts';
import { fixtureLoader } from './fixture-loader.ts';

const now = new Date('2025-06-01T00:00:00Z');
const GUIDE = 'https://acme-pm.test/blog/project-management-guide';

test('a thread answers exactly what the calling thread answers', async () => {
  const pool = createAnalysisPool({ threads: 1 });
  try {
    const site = await loadSite(GUIDE, fixtureLoader(), 3);
    const extras = { now, related: site.related.map((p) => p.document), trendSource: 'discovered' as const };
    assert.deepEqual(await pool.score(site.page.document, extras), await inProcessAnalysis.score(site.page.document, extras));
    assert.deepEqual(await pool.trends(site, { url: GUIDE }), await inProcessAnalysis.trends(site, { url: GUIDE }));
    assert.deepEqual(await pool.prompts(site, { url: GUIDE, count: 8 }), await inProcessAnalysis.prompts(site, { url: GUIDE, count: 8 }));
    // Several at once: all answered, each with its own page.
    const urls = ['https://acme-pm.test/blog/okr-guide', 'https://acme-pm.test/blog/remote-teams', GUIDE];
    const docs = await Promise.all(urls.map(async (u) => (await fixtureLoader().loadPage(u))!.document));
    const scores = await Promise.all(docs.map((d) => pool.score(d, { now })));
    assert.deepEqual(scores.map((s) => s.url), urls);
    // The pool's counts: six operations answered by its one thread, none failed, none waiting.
    assert.deepEqual(pool.stats(), { size: 1, threads: 1, busy: 0, queued: 0, completed: 6, crashes: 0, timeouts: 0, broken: false });
  } finally {
    await pool.close();
  }
});

test('closing rejects queued work; threads: 0 runs in process', async () => {
  const pool = createAnalysisPool({ threads: 1 });
  const doc = (await fixtureLoader().loadPage(GUIDE))!.document;
  const pending = [pool.score(doc, { now }), pool.score(doc, { now })];
  await pool.close();
  const settled = await Promise.allSettled(pending);
  assert.ok(settled.every((r) => r.status === 'rejected'));
  const here = createAnalysisPool({ threads: 0 });
  assert.equal((await here.score(doc, { now })).page_type, 'article');
  await here.close();
});
