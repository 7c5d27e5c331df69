// fetchPage bounds: header and body timeouts, the body size cap (also for compressed bodies
// that inflate far beyond it). Assertions are on outcomes (codes, sizes), never on durations.
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { FetchError, fetchPage, parseFetchAllowlist } from '../../../src/core/pages/fetch/index.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';

const allow = parseFetchAllowlist('127.0.0.1');
const KiB = 1024;

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof FetchError, `not a FetchError: ${String(e)}`);
    return e.code;
  }
}

describe('fetchPage limits', () => {
  let server: FixtureServer;
  const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * KiB, 'a')); // 20 MiB of "a", about 20 KiB gzipped

  before(async () => {
    server = await startFixtureServer({
      '/slow-headers': { delayMs: 3_000, headers: { 'content-type': 'text/html' }, body: 'late' },
      '/stalled-body': { headers: { 'content-type': 'text/html' }, stallBody: true },
      '/trickle': {
        headers: { 'content-type': 'text/html' },
        chunks: Array.from({ length: 100 }, () => '<p>drip</p>'),
        chunkDelayMs: 50,
      },
      '/endless': { headers: { 'content-type': 'text/html; charset=utf-8' }, endless: { chunk: '<p>more and more</p>\n' } },
      '/endless-multibyte': { headers: { 'content-type': 'text/html; charset=utf-8' }, endless: { chunk: 'éé' } },
      '/bomb': { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: bomb },
      '/exact': { headers: { 'content-type': 'text/html' }, body: 'x'.repeat(1000) },
    });
  });
  after(() => server.close());

  it('times out waiting for headers', async () => {
    assert.equal(await code(fetchPage(server.url('/slow-headers'), { allow, headersTimeoutMs: 200 })), 'timeout');
  });

  it('times out a body that stops arriving', async () => {
    assert.equal(await code(fetchPage(server.url('/stalled-body'), { allow, bodyTimeoutMs: 200 })), 'timeout');
  });

  it('times out a body that keeps trickling past the total body deadline', async () => {
    // Each chunk arrives well within the deadline; the whole body does not.
    assert.equal(await code(fetchPage(server.url('/trickle'), { allow, bodyTimeoutMs: 400 })), 'timeout');
  });

  it('stops reading an endless body at the cap and marks it truncated', async () => {
    const page = await fetchPage(server.url('/endless'), { allow, maxBytes: 256 * KiB });
    assert.equal(page.truncated, true);
    assert.equal(page.bytes, 256 * KiB);
    assert.ok(page.body.startsWith('<p>more and more</p>\n'));
    assert.equal(page.body.length, 256 * KiB);
  });

  it('stops at the default 5 MiB cap', async () => {
    const page = await fetchPage(server.url('/endless'), { allow });
    assert.equal(page.truncated, true);
    assert.equal(page.bytes, 5 * 1024 * KiB);
  });

  it('drops a character cut in half by the cap instead of showing U+FFFD', async () => {
    const page = await fetchPage(server.url('/endless-multibyte'), { allow, maxBytes: 1001 });
    assert.equal(page.truncated, true);
    assert.equal(page.body, 'é'.repeat(500));
  });

  it('caps decompressed bytes, so a compression bomb stops at the cap', async () => {
    const page = await fetchPage(server.url('/bomb'), { allow, maxBytes: 1024 * KiB });
    assert.equal(page.truncated, true);
    assert.equal(page.bytes, 1024 * KiB);
    assert.equal(page.body, 'a'.repeat(1024 * KiB));
  });

  it('does not mark a body of exactly the cap as truncated', async () => {
    const page = await fetchPage(server.url('/exact'), { allow, maxBytes: 1000 });
    assert.equal(page.truncated, false);
    assert.equal(page.bytes, 1000);
  });
});
