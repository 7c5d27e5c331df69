// The page pipeline end to end against a local server: fetch → extract → content view, with
// the real extractor and renderer, plus the cache (reuse, coalescing, TTL, LRU, no caching of
// failures). Fetch counts are read from the fixture server's request log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderContentView } from '../../../src/core/pages/content-view.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { FetchError, parseFetchAllowlist } from '../../../src/core/pages/fetch/index.ts';
import { createPageLoader, normalizePageUrl } from '../../../src/core/pages/pipeline.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';

const allow = parseFetchAllowlist('127.0.0.1');
const html = { 'content-type': 'text/html; charset=utf-8' };

const ARTICLE = `<!doctype html><html lang="en"><head>
<title>Brewing guide</title><meta name="description" content="How to brew coffee at home.">
</head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>
<main><article>
<h1>Brewing guide</h1>
<p>Good coffee starts with freshly ground beans and water just off the boil. This guide walks
through the pour-over method step by step, with the ratios that work for most roasts.</p>
<h2>What you need</h2>
<ul><li>A pour-over dripper</li><li>Paper filters</li><li>A kettle</li></ul>
<p>Use about sixty grams of coffee per litre of water, and adjust to taste after a few cups.</p>
</article></main>
<footer>© 2026 Example Coffee. All rights reserved.</footer>
</body></html>`;

// Unclosed tags, stray end tags, misnested inline tags, a runaway nesting depth, a NUL byte.
const BROKEN = `<html><head><title>Broken page</title><body><div><div><p>First paragraph of the broken page
has enough words to count as real content for the extractor to keep it around.<p>Second paragraph
</b></i></span> keeps going <a href=x title='a>b'>misnested <b>bold</a></b> after stray end tags.
${'<div>'.repeat(20_000)}<p>Deep inside twenty thousand unclosed divs the text is still here.\u0000
<table><tr><td>cell one<td>cell two</table></p>`;

describe('page pipeline', () => {
  let server: FixtureServer;
  let flakyCalls = 0;

  before(async () => {
    server = await startFixtureServer({
      '/article': { headers: html, body: ARTICLE },
      '/broken': { headers: html, body: BROKEN },
      '/slow': { headers: html, body: ARTICLE, delayMs: 150 },
      '/a': { headers: html, body: '<title>A</title><p>a</p>' },
      '/b': { headers: html, body: '<title>B</title><p>b</p>' },
      '/c': { headers: html, body: '<title>C</title><p>c</p>' },
      '/paper.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
      '/robots.txt': { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no robots here' },
      '/llms.txt': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '# Example\n> Coffee.\n' },
      '/flaky': (_req, res) => {
        flakyCalls++;
        if (flakyCalls === 1) res.writeHead(500, html).end('<p>oops</p>');
        else res.writeHead(200, html).end('<title>Flaky</title><p>fine now</p>');
      },
      '/moved': { redirect: '/article' },
    });
  });
  after(() => server.close());

  it('loads an article into document and content view, like extractPage + renderContentView', async () => {
    const loader = createPageLoader({ allow });
    const page = await loader.load(server.url('/article'));
    assert.equal(page.fetched.status, 200);
    assert.equal(page.fetched.finalUrl, server.url('/article'));
    assert.equal('body' in page.fetched, false, 'the raw HTML is not kept');
    assert.equal(page.document.title, 'Brewing guide');
    assert.equal(page.document.description, 'How to brew coffee at home.');
    assert.equal(page.document.language, 'en');
    assert.match(page.contentView, /Brewing guide/);
    assert.match(page.contentView, /freshly ground beans/);
    assert.match(page.contentView, /- A pour-over dripper/);
    // Exactly what the extractor and renderer make of the same HTML and URL.
    const expected = extractPage(ARTICLE, server.url('/article'));
    assert.deepEqual(page.document, expected);
    assert.equal(page.contentView, renderContentView(expected));
  });

  it('extracts relative to the final URL after redirects', async () => {
    const page = await createPageLoader({ allow }).load(server.url('/moved'));
    assert.equal(page.fetched.finalUrl, server.url('/article'));
    assert.equal(page.document.url, server.url('/article'));
    assert.deepEqual(page.fetched.redirects, [server.url('/article')]);
  });

  it('survives broken HTML', async () => {
    const page = await createPageLoader({ allow }).load(server.url('/broken'));
    assert.equal(page.document.title, 'Broken page');
    assert.match(page.contentView, /First paragraph of the broken page/);
    assert.match(page.contentView, /after stray end tags/);
    assert.match(page.contentView, /Deep inside twenty thousand unclosed divs/);
  });

  it('reuses a result: a second load does not refetch (fragment and host case do not matter)', async () => {
    const loader = createPageLoader({ allow });
    const before = server.hits('/article');
    const first = await loader.load(server.url('/article'));
    const second = await loader.load(server.url('/article') + '#section');
    const third = await loader.load(server.url('/article').replace('http://', 'HTTP://'));
    assert.equal(server.hits('/article') - before, 1);
    assert.equal(second, first);
    assert.equal(third, first);
  });

  it('coalesces concurrent loads of one URL into one fetch', async () => {
    const loader = createPageLoader({ allow });
    const before = server.hits('/slow');
    const pages = await Promise.all(Array.from({ length: 8 }, () => loader.load(server.url('/slow'))));
    assert.equal(server.hits('/slow') - before, 1);
    for (const p of pages) assert.equal(p, pages[0]);
    assert.equal(loader.size, 1);
  });

  it('refetches after the TTL', async () => {
    let now = 1_000_000;
    const loader = createPageLoader({ allow, cacheTtlMs: 60_000, now: () => now });
    const before = server.hits('/a');
    await loader.load(server.url('/a'));
    now += 59_999;
    await loader.load(server.url('/a'));
    assert.equal(server.hits('/a') - before, 1);
    now += 2;
    await loader.load(server.url('/a'));
    assert.equal(server.hits('/a') - before, 2);
  });

  it('evicts the least recently used entry beyond cacheMax', async () => {
    const loader = createPageLoader({ allow, cacheMax: 2 });
    const hits = () => ['/a', '/b', '/c'].map((p) => server.hits(p));
    const start = hits();
    await loader.load(server.url('/a'));
    await loader.load(server.url('/b'));
    await loader.load(server.url('/a')); // a is now the most recent
    await loader.load(server.url('/c')); // evicts b
    assert.equal(loader.size, 2);
    await loader.load(server.url('/a'));
    await loader.load(server.url('/b'));
    const delta = hits().map((h, i) => h - start[i]!);
    assert.deepEqual(delta, [1, 2, 1]);
  });

  it('keeps cached pages within cacheMaxChars, and shares but does not keep a page bigger than the budget', async () => {
    const small = await createPageLoader({ allow }).load(server.url('/a'));
    const weight = small.contentView.length + small.document.bodyText.length + small.fetched.bytes;
    // Room for two of the small pages (texts and HTML), although cacheMax would allow many more.
    const loader = createPageLoader({ allow, cacheMaxChars: weight * 2 });
    const start = server.hits('/a');
    await loader.load(server.url('/a'));
    await loader.load(server.url('/b'));
    await loader.load(server.url('/c')); // evicts a, the least recently used
    assert.equal(loader.size, 2);
    await loader.load(server.url('/a'));
    assert.equal(server.hits('/a') - start, 2);

    const tiny = createPageLoader({ allow, cacheMaxChars: 10 });
    const before = server.hits('/article');
    const [one, two] = await Promise.all([tiny.load(server.url('/article')), tiny.load(server.url('/article'))]);
    assert.equal(one, two, 'concurrent callers share one load');
    assert.equal(server.hits('/article') - before, 1);
    assert.equal(tiny.size, 0, 'a result over the whole budget is not kept');
  });

  it('does not cache failures', async () => {
    const loader = createPageLoader({ allow });
    await assert.rejects(loader.load(server.url('/flaky')), (e: unknown) => e instanceof FetchError && e.code === 'http_error' && e.status === 500);
    assert.equal(loader.size, 0);
    const page = await loader.load(server.url('/flaky'));
    assert.equal(page.document.title, 'Flaky');
  });

  it('reports non-HTML and blocked pages as typed FetchErrors', async () => {
    const loader = createPageLoader({ allow });
    await assert.rejects(loader.load(server.url('/paper.pdf')), { name: 'FetchError', code: 'unsupported_content' });
    await assert.rejects(createPageLoader().load(server.url('/article')), { name: 'FetchError', code: 'blocked_address' });
    await assert.rejects(loader.load('not a url'), { name: 'FetchError', code: 'invalid_url' });
    await assert.rejects(loader.load('ftp://example.com/'), { name: 'FetchError', code: 'unsupported_scheme' });
  });

  it('fetchText returns text resources, 404s included, and caches them apart from pages', async () => {
    const loader = createPageLoader({ allow });
    const robots = await loader.fetchText(server.url('/robots.txt'));
    assert.equal(robots.status, 404);
    assert.equal(robots.body, 'no robots here');
    const before = server.hits('/llms.txt');
    const llms = await loader.fetchText(server.url('/llms.txt'));
    await loader.fetchText(server.url('/llms.txt'));
    assert.equal(llms.body, '# Example\n> Coffee.\n');
    assert.equal(server.hits('/llms.txt') - before, 1);
    // The same URL as a page is a separate entry (and here an unsupported one).
    await assert.rejects(loader.load(server.url('/llms.txt')), { name: 'FetchError', code: 'unsupported_content' });
  });

  it('normalizePageUrl keeps paths and queries but drops fragments, default ports and case', () => {
    assert.equal(normalizePageUrl('HTTPS://Example.COM:443/A/b?x=1#top'), 'https://example.com/A/b?x=1');
    assert.equal(normalizePageUrl('http://example.com'), 'http://example.com/');
    assert.throws(() => normalizePageUrl('nope'), { name: 'FetchError', code: 'invalid_url' });
  });
});

describe('page cache weight', () => {
  it('counts the links a cached page holds, not only its texts', async () => {
    const { weighResult } = await import('../../../src/core/pages/pipeline.ts');
    const html = '<html><body><p>Short text.</p>' + '<a href="https://example.com/a-long-path">label</a>'.repeat(1000);
    const document = extractPage(html, 'https://example.com/');
    const weight = weighResult({ document, contentView: 'x', fetched: { bytes: 0 } });
    assert.ok(weight > 1000 * ('https://example.com/a-long-path'.length + 'label'.length), `weight ${weight}`);
  });
});
