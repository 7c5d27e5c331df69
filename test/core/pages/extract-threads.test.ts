// Big pages are extracted in worker threads: same result as on the calling thread, the event
// loop stays free meanwhile, a page that exhausts the worker's heap fails as `extraction`
// without harming the process, and the threads stop when idle or closed.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPageExtractor, extractInProcess } from '../../../src/core/pages/extract-threads.ts';
import { createPageLoader } from '../../../src/core/pages/pipeline.ts';
import { parseFetchAllowlist } from '../../../src/core/pages/fetch/address-policy.ts';
import { FetchError } from '../../../src/core/pages/fetch/errors.ts';
import { startFixtureServer } from '../../helpers/fixture-server.ts';

function bigPage(sections: number): string {
  const parts = ['<!doctype html><html lang="en"><head><title>Big page</title><meta name="description" content="Many sections"></head><body>'];
  parts.push('<nav><a href="/">Home</a><a href="/about">About</a></nav><main><article><h1>Big page</h1>');
  for (let i = 0; i < sections; i++) {
    parts.push(`<h2>Section ${i}</h2><p>Paragraph ${i} explains the topic with a <a href="/x${i}">link</a> and enough words to be prose.</p>`);
    parts.push(`<ul><li>First ${i}</li><li>Second ${i}</li></ul><table><tr><th>Key</th><th>Value</th></tr><tr><td>k${i}</td><td>v${i}</td></tr></table>`);
  }
  parts.push('</article></main><footer>Footer text</footer></body></html>');
  return parts.join('');
}

describe('page extraction threads', () => {
  const extractors: { close(): Promise<void> }[] = [];
  const make = (opts: Parameters<typeof createPageExtractor>[0]) => {
    const e = createPageExtractor(opts);
    extractors.push(e);
    return e;
  };
  after(async () => {
    for (const e of extractors) await e.close();
  });

  it('gives a big page the same document and content view as extraction on the calling thread', async () => {
    const html = bigPage(3000); // ~600 KB
    const threaded = await make({ threads: 1, minChars: 1024 }).extract(html, 'https://example.com/big');
    const local = extractInProcess(html, 'https://example.com/big');
    assert.deepEqual(threaded, local);
    assert.ok(threaded.contentView.includes('## Section 2999'));
  });

  it('keeps the event loop free while a big page is extracted', async () => {
    const extractor = make({ threads: 1, minChars: 1024 });
    const html = bigPage(6000);
    await extractor.extract(bigPage(10), 'https://example.com/warm'); // the thread is started
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await extractor.extract(html, 'https://example.com/big');
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // On the calling thread the extraction would have blocked every timer for its whole duration.
    assert.ok(ticks >= 3, `timers ran ${ticks} times during ${elapsed.toFixed(0)} ms of extraction`);
  });

  it('fails a page that exhausts the thread heap as an extraction FetchError, and the next page works', async () => {
    const extractor = make({ threads: 1, minChars: 1024, maxHeapMb: 16 });
    const huge = bigPage(60_000); // ~12 MB of HTML: its tree needs far more than 16 MB
    await assert.rejects(extractor.extract(huge, 'https://example.com/huge'), (err: unknown) => err instanceof FetchError && err.code === 'extraction');
    const ok = await extractor.extract(bigPage(50), 'https://example.com/small');
    assert.equal(ok.document.title, 'Big page');
  });

  it('extracts small pages on the calling thread and runs big ones one per thread, in order', async () => {
    const extractor = make({ threads: 2, minChars: 50_000 });
    const results = await Promise.all([bigPage(1000), bigPage(5), bigPage(1200), bigPage(900)].map((h, i) => extractor.extract(h, `https://example.com/${i}`)));
    assert.deepEqual(
      results.map((r) => r.document.url),
      ['https://example.com/0', 'https://example.com/1', 'https://example.com/2', 'https://example.com/3'],
    );
    assert.ok(results[2]!.contentView.includes('## Section 1199'));
  });

  it('when its threads cannot even start, big pages are extracted on the calling thread instead', async () => {
    const entry = new URL('data:text/javascript,throw new Error("no loader here")');
    const extractor = make({ threads: 1, minChars: 1024, entry });
    const html = bigPage(200);
    const [first, second] = await Promise.all([extractor.extract(html, 'https://example.com/a'), extractor.extract(html, 'https://example.com/b')]);
    assert.deepEqual(first, extractInProcess(html, 'https://example.com/a'));
    assert.equal(second.document.url, 'https://example.com/b');
    assert.deepEqual(await extractor.extract(html, 'https://example.com/c'), extractInProcess(html, 'https://example.com/c'));
  });

  it('a page arriving just as the idle thread stops is extracted by a new thread', async () => {
    const extractor = make({ threads: 1, minChars: 1024, idleMs: 50 });
    const html = bigPage(100);
    await extractor.extract(html, 'https://example.com/1');
    for (const wait of [45, 50, 55, 60]) {
      await new Promise((r) => setTimeout(r, wait));
      const page = await extractor.extract(html, `https://example.com/${wait}`);
      assert.equal(page.document.url, `https://example.com/${wait}`);
    }
  });

  it('a page over the deadline stops its thread and fails as extraction; the next page works', async () => {
    const extractor = make({ threads: 1, minChars: 1024, timeoutMs: 1_500 });
    // The thread has started (on a loaded machine a start can outlast the 1.5 s deadline: try again).
    for (let tries = 1; ; tries++) {
      try {
        await extractor.extract(bigPage(10), 'https://example.com/warm');
        break;
      } catch (err) {
        if (tries === 5 || !(err instanceof FetchError)) throw err;
      }
    }
    await assert.rejects(extractor.extract(bigPage(60_000), 'https://example.com/slow'), (err: unknown) => err instanceof FetchError && err.code === 'extraction');
    const relaxed = make({ threads: 1, minChars: 1024 });
    assert.equal((await relaxed.extract(bigPage(50), 'https://example.com/ok')).document.title, 'Big page');
  });

  it('an idle thread never keeps the process alive', async () => {
    const script = [
      "import { createPageExtractor } from './src/core/pages/extract-threads.ts';",
      "const html = '<html><body><main>' + '<p>Paragraph of text for the thread, number ' + 'x'.repeat(40) + '</p>'.repeat(1) + '</main></body></html>';",
      'const e = createPageExtractor({ threads: 1, minChars: 10, idleMs: 600_000 });',
      "const page = await e.extract(html.repeat(20), 'https://example.com/');",
      "console.log(page.document.url);",
    ].join('\n');
    const { execFile } = await import('node:child_process');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: new URL('../../../', import.meta.url), timeout: 60_000 }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    );
    // The child printed its result and exited by itself, long before the 10-minute idle stop.
    assert.equal(out.trim(), 'https://example.com/');
  });

  it('a thread that hangs while starting is given up on: the page is extracted on the calling thread', async () => {
    const entry = new URL('data:text/javascript,setInterval(() => {}, 1000)'); // never says ready
    const extractor = make({ threads: 1, minChars: 1024, entry, timeoutMs: 300 });
    const html = bigPage(100);
    assert.deepEqual(await extractor.extract(html, 'https://example.com/hang'), extractInProcess(html, 'https://example.com/hang'));
  });

  it('with threads: 0 every page is extracted on the calling thread', async () => {
    const html = bigPage(500);
    assert.deepEqual(await make({ threads: 0, minChars: 1 }).extract(html, 'https://example.com/'), extractInProcess(html, 'https://example.com/'));
  });

  it('the page loader uses it: a big page fetched over loopback is extracted in a thread', async () => {
    const html = bigPage(2000);
    const server = await startFixtureServer({ '/big': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: html } });
    try {
      const loader = createPageLoader({ allow: parseFetchAllowlist('127.0.0.1'), extractor: make({ threads: 1, minChars: 1024 }) });
      const page = await loader.load(server.url('/big'));
      assert.equal(page.contentView, extractInProcess(html, server.url('/big')).contentView);
      await loader.close();
    } finally {
      await server.close();
    }
  });
});
