// Citation sources: a hand-labelled table of cited URLs (test/fixtures/citation-urls.tsv, over
// 300) classed exactly, an operator's catalog extending the bundled one, and the run figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { citationSources, classifyCitation, summarizeCitationSources, type Brand } from '../../src/core/visibility/citation-sources.ts';

const BRAND: Brand = { domains: ['acme.example', 'acme-cdn.net'], competitors: [{ name: 'Globex' }, { name: 'Initech', domains: ['initech.io'] }] };

test('every labelled URL of the table is classed as labelled', () => {
  const rows = readFileSync(new URL('../fixtures/citation-urls.tsv', import.meta.url), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  assert.ok(rows.length >= 300, `${rows.length} rows`);
  const sources = citationSources();
  const wrong = rows.flatMap(([url, cls, competitor]) => {
    const c = classifyCitation(url, BRAND, sources);
    return c?.class === cls && (c.competitor ?? '') === (competitor ?? '') ? [] : [`${url}: ${c?.class}/${c?.competitor ?? ''}, labelled ${cls}/${competitor ?? ''}`];
  });
  assert.deepEqual(wrong, []);
});

test("an operator's catalog adds and overrides entries", () => {
  const dir = mkdtempSync(join(tmpdir(), 'citations-'));
  const path = join(dir, 'extra.json');
  writeFileSync(path, JSON.stringify({ kinds: { community: ['medium.com'], review: ['anvilratings.test'], news: ['producthunt.com'] } }));
  const sources = citationSources(path);
  assert.equal(classifyCitation('https://medium.com/@x/post', BRAND, sources)?.class, 'community');
  assert.equal(classifyCitation('https://www.anvilratings.test/top', BRAND, sources)?.class, 'review');
  assert.equal(classifyCitation('https://www.producthunt.com/posts/anvil', BRAND, sources)?.class, 'news');
  assert.equal(classifyCitation('https://www.producthunt.com/discussions/x', BRAND, sources)?.class, 'community');
  assert.equal(classifyCitation('not a url', BRAND, sources), null);
});

test('run figures: share by class and domain, top URLs, sources cited when a competitor is named and the brand is not', () => {
  const sources = citationSources();
  const summary = summarizeCitationSources(
    [
      { prompt: 'best anvils', brand_mentioned: true, competitors: ['Globex'], citations: ['https://acme.example/', 'https://www.reddit.com/r/anvils/1', 'https://en.wikipedia.org/wiki/Anvil'] },
      { prompt: 'best anvils', brand_mentioned: false, competitors: ['Globex'], citations: ['https://www.reddit.com/r/anvils/1', 'https://globex.com/', 'https://www.g2.com/anvils'] },
      { prompt: 'anvil makers', brand_mentioned: false, competitors: ['Initech'], citations: ['https://www.g2.com/anvils', 'https://www.g2.com/anvils'] },
      { prompt: 'anvil prices', brand_mentioned: false, competitors: [], citations: ['https://www.youtube.com/watch?v=1'] },
    ],
    BRAND,
    sources,
  );
  assert.equal(summary.citation_count, 8);
  const byClass = Object.fromEntries(summary.citation_share_by_class.map((c) => [c.class, c.citations]));
  assert.deepEqual(byClass, { owned: 1, competitor: 1, community: 2, reference: 1, video: 1, review: 2, news: 0, other: 0 });
  assert.equal(summary.citation_share_by_class.find((c) => c.class === 'community')!.share, 0.25);
  assert.deepEqual(summary.citation_share_by_domain.slice(0, 2).map((d) => [d.domain, d.citations]), [['g2.com', 2], ['reddit.com', 2]]);
  assert.deepEqual(summary.top_cited_urls[0], { url: 'https://www.g2.com/anvils', domain: 'g2.com', class: 'review', citations: 2 });
  assert.deepEqual(
    summary.competitor_only_sources.map((g) => [g.prompt, g.competitors, g.sources.map((s) => `${s.class}:${s.domain}`)]),
    [
      ['anvil makers', ['Initech'], ['review:g2.com']],
      ['best anvils', ['Globex'], ['competitor:globex.com', 'review:g2.com', 'community:reddit.com']],
    ],
  );
});

test('a run read, a run list and a test history carry citation_sources (real server)', async () => {
  const { startTestServer } = await import('../helpers/harness.ts');
  const s = await startTestServer();
  try {
    const { key } = await s.account({ credits: 50 });
    const created = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example/', target_entity: 'Acme', competitors: ['Globex'], prompts: ['best anvils [[sandbox:mention]]'], platforms: ['openai', 'perplexity'] } })).json();
    await s.waitForRun(key, created.run_id);
    const run = (await s.request('GET', `/v1/visibility/runs/${created.run_id}`, { key })).json();
    const cs = run.summary.citation_sources;
    assert.equal(typeof cs.citation_count, 'number');
    assert.deepEqual(cs.citation_share_by_class.map((c: { class: string }) => c.class), ['owned', 'competitor', 'community', 'reference', 'video', 'review', 'news', 'other']);
    assert.equal(cs.citation_share_by_class.reduce((n: number, c: { citations: number }) => n + c.citations, 0), cs.citation_count);
    assert.ok(Array.isArray(cs.competitor_only_sources));
    const list = (await s.request('GET', '/v1/visibility/runs', { key })).json();
    assert.deepEqual(list.runs[0].summary.citation_sources, cs);
    const history = (await s.request('GET', `/v1/tests/${run.test_id}/history`, { key })).json();
    assert.ok(history.points.every((p: { citation_sources?: unknown }) => p.citation_sources));
  } finally {
    await s.close();
  }
});

test('SIGHTLINE_CITATION_SOURCES_PATH reaches every classification of the server (runs and exports)', async () => {
  const { startTestServer } = await import('../helpers/harness.ts');
  const { useOperatorCitationCatalog } = await import('../../src/core/visibility/citation-sources.ts');
  const dir = mkdtempSync(join(tmpdir(), 'citations-'));
  const path = join(dir, 'operator.json');
  writeFileSync(path, JSON.stringify({ kinds: { review: ['anvilratings.test'] } }));
  const s = await startTestServer({ SIGHTLINE_CITATION_SOURCES_PATH: path });
  try {
    assert.equal(classifyCitation('https://www.anvilratings.test/top', BRAND, citationSources())?.class, 'review');
  } finally {
    await s.close();
    useOperatorCitationCatalog(undefined);
  }
  assert.equal(classifyCitation('https://www.anvilratings.test/top', BRAND, citationSources())?.class, 'other');
});
