// fetchPage decoding: character encodings chosen by the WHATWG rules (BOM, header, <meta>,
// default) and Content-Encoding (gzip, br, deflate in both wrappings).
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { decodeBody, fetchPage, parseFetchAllowlist, sniffEncoding } from '../../../src/core/pages/fetch/index.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';

const allow = parseFetchAllowlist('127.0.0.1');
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

// windows-1252: é (E9), en dash (96), curly quotes (93/94), euro sign (80). Bytes 0x80-0x9F are
// exactly where windows-1252 and ISO-8859-1 differ.
const CP1252 = bytes('<p>caf', [0xe9], ' ', [0x96], ' ', [0x93], 'q', [0x94], ' ', [0x80], '5</p>');
const CP1252_TEXT = '<p>café – “q” €5</p>';
// Shift_JIS 日本語 = 93FA 967B 8CEA
const SJIS = bytes('<html><head><meta charset="Shift_JIS"><title>', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], '</title></head></html>');
// GB18030: 中文 (two-byte D6D0 CEC4) and 😀 (four-byte 9439 FC36)
const GB = bytes('<p>', [0xd6, 0xd0, 0xce, 0xc4, 0x94, 0x39, 0xfc, 0x36], '</p>');
// EUC-KR 한국 = C7D1 B1B9, declared by http-equiv
const EUCKR = bytes('<meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><p>', [0xc7, 0xd1, 0xb1, 0xb9], '</p>');
const UTF8_TEXT = '<p>Grüße, 日本, 😀</p>';

describe('fetchPage character encodings', () => {
  let server: FixtureServer;

  before(async () => {
    server = await startFixtureServer({
      '/cp1252': { headers: { 'content-type': 'text/html; charset=windows-1252' }, body: CP1252 },
      '/latin1-label': { headers: { 'content-type': 'text/html; charset="ISO-8859-1"' }, body: CP1252 },
      '/sjis-meta': { headers: { 'content-type': 'text/html' }, body: SJIS },
      '/gb18030': { headers: { 'content-type': 'text/html; charset=gb18030' }, body: GB },
      '/gbk-label': { headers: { 'content-type': 'text/html; charset=GBK' }, body: bytes('<p>', [0xd6, 0xd0, 0xce, 0xc4], '</p>') },
      '/euc-kr-http-equiv': { headers: { 'content-type': 'text/html' }, body: EUCKR },
      '/utf8-bom': {
        // The BOM wins over a header that says otherwise.
        headers: { 'content-type': 'text/html; charset=windows-1252' },
        body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(UTF8_TEXT)]),
      },
      '/header-beats-meta': {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: Buffer.from(`<meta charset="shift_jis">${UTF8_TEXT}`),
      },
      '/undeclared-utf8': { headers: { 'content-type': 'text/html' }, body: Buffer.from(UTF8_TEXT) },
      '/undeclared-legacy': { headers: { 'content-type': 'text/html' }, body: CP1252 },
      '/bogus-label': { headers: { 'content-type': 'text/html; charset=no-such-thing' }, body: SJIS },
      '/text-latin1': { headers: { 'content-type': 'text/plain; charset=iso-8859-1' }, body: CP1252 },
      '/text-undeclared': { headers: { 'content-type': 'text/plain' }, body: Buffer.from(UTF8_TEXT) },
      '/utf16le-bom': {
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(UTF8_TEXT, 'utf16le')]),
      },
    });
  });
  after(() => server.close());

  async function get(path: string, accept: 'html' | 'any' = 'html') {
    return fetchPage(server.url(path), { allow, accept });
  }

  it('windows-1252 from the header, and ISO-8859-1 read as windows-1252 (as browsers do)', async () => {
    for (const path of ['/cp1252', '/latin1-label']) {
      const page = await get(path);
      assert.equal(page.charset, 'windows-1252', path);
      assert.equal(page.body, CP1252_TEXT, path);
    }
  });

  it('Shift_JIS from <meta charset>', async () => {
    const page = await get('/sjis-meta');
    assert.equal(page.charset, 'shift_jis');
    assert.match(page.body, /<title>日本語<\/title>/);
  });

  it('GB18030 (two- and four-byte sequences), and the GBK label', async () => {
    const page = await get('/gb18030');
    assert.equal(page.charset, 'gb18030');
    assert.equal(page.body, '<p>中文😀</p>');
    const gbk = await get('/gbk-label');
    assert.equal(gbk.charset, 'gbk');
    assert.equal(gbk.body, '<p>中文</p>');
  });

  it('EUC-KR from a http-equiv meta', async () => {
    const page = await get('/euc-kr-http-equiv');
    assert.equal(page.charset, 'euc-kr');
    assert.match(page.body, /<p>한국<\/p>/);
  });

  it('a UTF-8 BOM beats the header and is stripped; so does a UTF-16LE BOM', async () => {
    const page = await get('/utf8-bom');
    assert.equal(page.charset, 'utf-8');
    assert.equal(page.body, UTF8_TEXT);
    const utf16 = await get('/utf16le-bom');
    assert.equal(utf16.charset, 'utf-16le');
    assert.equal(utf16.body, UTF8_TEXT);
  });

  it('the header beats <meta>, and an unknown header label falls through to <meta>', async () => {
    assert.equal((await get('/header-beats-meta')).body, `<meta charset="shift_jis">${UTF8_TEXT}`);
    const bogus = await get('/bogus-label');
    assert.equal(bogus.charset, 'shift_jis');
    assert.match(bogus.body, /日本語/);
  });

  it('undeclared HTML: valid UTF-8 is UTF-8, anything else windows-1252', async () => {
    const utf8 = await get('/undeclared-utf8');
    assert.equal(utf8.charset, 'utf-8');
    assert.equal(utf8.body, UTF8_TEXT);
    const legacy = await get('/undeclared-legacy');
    assert.equal(legacy.charset, 'windows-1252');
    assert.equal(legacy.body, CP1252_TEXT);
  });

  it('non-HTML text: header charset, else UTF-8', async () => {
    const latin = await get('/text-latin1', 'any');
    assert.equal(latin.charset, 'windows-1252');
    assert.equal(latin.body, CP1252_TEXT);
    const plain = await get('/text-undeclared', 'any');
    assert.equal(plain.charset, 'utf-8');
    assert.equal(plain.body, UTF8_TEXT);
  });

  it('sniffEncoding / decodeBody agree with the fetcher on raw bytes', () => {
    assert.equal(sniffEncoding(SJIS, null, true), 'shift_jis');
    assert.equal(sniffEncoding(SJIS, null, false), 'utf-8', 'no <meta> prescan outside HTML');
    assert.deepEqual(decodeBody(CP1252, 'latin1', true), { text: CP1252_TEXT, charset: 'windows-1252' });
    // The "replacement" encoding (iso-2022-kr and friends) decodes to a single U+FFFD.
    assert.deepEqual(decodeBody(Buffer.from('<p>x</p>'), 'iso-2022-kr', true), { text: '\uFFFD', charset: 'replacement' });
  });
});

describe('fetchPage content encodings', () => {
  let server: FixtureServer;
  const html = `<!doctype html><meta charset="utf-8"><title>compressed</title><p>${'Grüße! '.repeat(2000)}</p>`;
  const raw = Buffer.from(html);

  before(async () => {
    server = await startFixtureServer({
      '/gzip': { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: zlib.gzipSync(raw) },
      '/br': { headers: { 'content-type': 'text/html', 'content-encoding': 'br' }, body: zlib.brotliCompressSync(raw) },
      '/deflate': { headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' }, body: zlib.deflateSync(raw) },
      '/deflate-raw': { headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' }, body: zlib.deflateRawSync(raw) },
      '/stacked': {
        // Applied in order: first gzip, then br; decoded in reverse.
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip, br' },
        body: zlib.brotliCompressSync(zlib.gzipSync(raw)),
      },
      '/cut-gzip': {
        // A gzip stream cut off early: keep what decodes, as browsers do.
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        body: zlib.gzipSync(raw).subarray(0, 200),
      },
      '/corrupt-gzip': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        body: Buffer.from('this is not gzip at all'),
      },
      '/zstd': { headers: { 'content-type': 'text/html', 'content-encoding': 'compress' }, body: 'x' },
    });
  });
  after(() => server.close());

  for (const path of ['/gzip', '/br', '/deflate', '/deflate-raw', '/stacked']) {
    it(`decodes ${path.slice(1)}`, async () => {
      const page = await fetchPage(server.url(path), { allow });
      assert.equal(page.body, html);
      assert.equal(page.bytes, raw.length);
      assert.equal(page.truncated, false);
    });
  }

  it('keeps the decodable start of a cut-off gzip body', async () => {
    const page = await fetchPage(server.url('/cut-gzip'), { allow });
    assert.ok(page.body.length > 0);
    assert.ok(html.startsWith(page.body.replace(/\uFFFD$/, '')));
  });

  it('refuses a corrupt body and an unknown content encoding with typed errors', async () => {
    await assert.rejects(fetchPage(server.url('/corrupt-gzip'), { allow }), { name: 'FetchError', code: 'network' });
    await assert.rejects(fetchPage(server.url('/zstd'), { allow }), { name: 'FetchError', code: 'unsupported_content' });
  });
});
