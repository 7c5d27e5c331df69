// fetchPage against a real local server: articles, redirects, content types, HTTP errors.
// Only loopback is contacted; the fixture server's address is allowlisted per test.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FetchError, USER_AGENT, fetchPage, parseFetchAllowlist } from '../../../src/core/pages/fetch/index.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Café guide</title></head>
<body><article><h1>Café guide</h1><p>Crème brûlée — naïve “quotes” ✓</p></article></body></html>`;

async function rejectsWith(p: Promise<unknown>, code: string): Promise<FetchError> {
  const err = await p.then(
    () => assert.fail(`expected FetchError ${code}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof FetchError, `not a FetchError: ${String(err)}`);
  assert.equal(err.code, code, err.message);
  return err;
}

describe('fetchPage', () => {
  let server: FixtureServer;
  let other: FixtureServer;
  let allow: ReturnType<typeof parseFetchAllowlist>;

  before(async () => {
    server = await startFixtureServer({
      '/article': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
      '/untyped': { body: '<!DOCTYPE html><title>no type</title><p>hi</p>' },
      '/untyped-binary': { body: Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x00, 0xff]) },
      '/paper.pdf': { headers: { 'content-type': 'application/pdf' }, body: Buffer.from('%PDF-1.4\n%\xff\xff\n', 'latin1') },
      '/data.json': { headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' },
      '/missing': { status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not here</h1>' },
      '/broken': { status: 503, headers: { 'content-type': 'text/html' }, body: 'down' },
      '/r1': { redirect: '/r2', status: 301 },
      '/r2': { redirect: '/r3?x=1', status: 307 },
      '/r3': { redirect: 'article#frag', status: 308 },
      '/loop': { redirect: '/loop' },
      '/to-ftp': { redirect: 'ftp://127.0.0.1/file' },
      '/to-bad': { redirect: 'http://exa mple.com/' },
      '/no-location': { status: 302, headers: { 'content-type': 'text/html' }, body: '<p>moved, no location</p>' },
      '/hop5': { redirect: '/hop4' },
      '/hop4': { redirect: '/hop3' },
      '/hop3': { redirect: '/hop2' },
      '/hop2': { redirect: '/hop1' },
      '/hop1': { redirect: '/article' },
    });
    other = await startFixtureServer({ '/secret': { headers: { 'content-type': 'text/html' }, body: '<p>secret</p>' } });
    // Only the main server's port: `other` (same address, other port) is not allowlisted.
    allow = parseFetchAllowlist(`127.0.0.1:${server.port}`);
    server.route('/to-other', { redirect: other.url('/secret') });
    server.route('/to-localhost', { redirect: `http://localhost:${other.port}/secret` });
    server.route('/to-v6', { redirect: `http://[::1]:${other.port}/secret` });
  });

  after(async () => {
    await server.close();
    await other.close();
  });

  it('fetches and decodes an article, identifying itself', async () => {
    const page = await fetchPage(server.url('/article'), { allow });
    assert.equal(page.status, 200);
    assert.equal(page.url, server.url('/article'));
    assert.equal(page.finalUrl, server.url('/article'));
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.charset, 'utf-8');
    assert.equal(page.body, ARTICLE);
    assert.equal(page.bytes, Buffer.byteLength(ARTICLE));
    assert.equal(page.truncated, false);
    assert.deepEqual(page.redirects, []);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    const req = server.requests.find((r) => r.path === '/article')!;
    assert.equal(req.method, 'GET');
    assert.equal(req.headers['user-agent'], USER_AGENT);
    assert.match(String(req.headers['accept-encoding']), /gzip/);
    assert.match(String(req.headers['accept']), /text\/html/);
    assert.equal(req.headers['host'], `127.0.0.1:${server.port}`);
  });

  it('follows redirects (301, 307, 308, relative and with query), dropping fragments', async () => {
    const page = await fetchPage(server.url('/r1'), { allow });
    assert.equal(page.finalUrl, server.url('/article'));
    assert.deepEqual(page.redirects, [server.url('/r2'), server.url('/r3?x=1'), server.url('/article')]);
    assert.equal(page.body, ARTICLE);
  });

  it('follows up to 5 redirects and refuses the 6th', async () => {
    const five = await fetchPage(server.url('/hop5'), { allow });
    assert.equal(five.redirects.length, 5);
    assert.equal(five.finalUrl, server.url('/article'));
    const before = server.hits('/loop');
    await rejectsWith(fetchPage(server.url('/loop'), { allow }), 'too_many_redirects');
    assert.equal(server.hits('/loop') - before, 6);
    await rejectsWith(fetchPage(server.url('/hop5'), { allow, maxRedirects: 2 }), 'too_many_redirects');
  });

  it('refuses a redirect to a non-allowlisted address without requesting it', async () => {
    for (const path of ['/to-other', '/to-localhost', '/to-v6']) {
      const err = await rejectsWith(fetchPage(server.url(path), { allow }), 'blocked_address');
      assert.match(err.message, /^The URL points at an address this server may not fetch .*SIGHTLINE_FETCH_ALLOW/);
    }
    assert.equal(other.requests.length, 0, 'the refused hop must never be requested');
    // The same hop is fine once its port is allowlisted too.
    const both = parseFetchAllowlist(`127.0.0.1:${server.port},127.0.0.1:${other.port}`);
    const page = await fetchPage(server.url('/to-other'), { allow: both });
    assert.equal(page.body, '<p>secret</p>');
    assert.equal(other.hits('/secret'), 1);
  });

  it('refuses redirects to other schemes and to malformed URLs (the page failing: bad_redirect, not a bad request URL)', async () => {
    await rejectsWith(fetchPage(server.url('/to-ftp'), { allow }), 'bad_redirect');
    await rejectsWith(fetchPage(server.url('/to-bad'), { allow }), 'bad_redirect');
  });

  it('returns a 3xx without Location as it is', async () => {
    const page = await fetchPage(server.url('/no-location'), { allow });
    assert.equal(page.status, 302);
    assert.equal(page.body, '<p>moved, no location</p>');
  });

  it('refuses invalid URLs and other schemes before any network work', async () => {
    for (const url of ['not a url', '', 'http://', 'http://exa mple.com/', '//example.com/']) {
      await rejectsWith(fetchPage(url, { allow }), 'invalid_url');
    }
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'data:text/html,hi', 'javascript:alert(1)', 'gopher://127.0.0.1:70/']) {
      await rejectsWith(fetchPage(url, { allow }), 'unsupported_scheme');
    }
    await rejectsWith(fetchPage(`http://user:pw@127.0.0.1:${server.port}/article`, { allow }), 'invalid_url');
  });

  it('gives unsupported_content for a PDF, with status and type, without reading it', async () => {
    const err = await rejectsWith(fetchPage(server.url('/paper.pdf'), { allow }), 'unsupported_content');
    assert.equal(err.status, 200);
    assert.equal(err.contentType, 'application/pdf');
    assert.equal(err.url, server.url('/paper.pdf'));
    // Safe to hand to a client: no stack frames, no internals.
    assert.equal(err.stack, `FetchError [unsupported_content]: ${err.message}`);
    assert.deepEqual(JSON.parse(JSON.stringify(err)), { code: 'unsupported_content', message: err.message, status: 200 });
    await rejectsWith(fetchPage(server.url('/paper.pdf'), { allow, accept: 'any' }), 'unsupported_content');
    await rejectsWith(fetchPage(server.url('/data.json'), { allow }), 'unsupported_content');
  });

  it("with accept 'any' returns text of non-HTML types (robots.txt, JSON)", async () => {
    const robots = await fetchPage(server.url('/robots.txt'), { allow, accept: 'any' });
    assert.equal(robots.contentType, 'text/plain');
    assert.equal(robots.body, 'User-agent: *\nDisallow: /private\n');
    const json = await fetchPage(server.url('/data.json'), { allow, accept: 'any' });
    assert.equal(json.body, '{"a":1}');
  });

  it('sniffs an untyped body: HTML passes, anything else is unsupported', async () => {
    const page = await fetchPage(server.url('/untyped'), { allow });
    assert.equal(page.contentType, null);
    assert.match(page.body, /<title>no type<\/title>/);
    await rejectsWith(fetchPage(server.url('/untyped-binary'), { allow }), 'unsupported_content');
  });

  it('throws http_error for 4xx/5xx, or returns the page with allowHttpErrors', async () => {
    const err = await rejectsWith(fetchPage(server.url('/missing'), { allow }), 'http_error');
    assert.equal(err.status, 404);
    assert.equal((await rejectsWith(fetchPage(server.url('/broken'), { allow }), 'http_error')).status, 503);
    const page = await fetchPage(server.url('/missing'), { allow, allowHttpErrors: true });
    assert.equal(page.status, 404);
    assert.equal(page.body, '<h1>Not here</h1>');
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startFixtureServer();
    const url = closed.url('/');
    await closed.close(); // nothing listens on that port now
    await rejectsWith(fetchPage(url, { allow: parseFetchAllowlist('127.0.0.1') }), 'network');
  });

  it('honours an abort signal', async () => {
    const ac = new AbortController();
    ac.abort();
    await rejectsWith(fetchPage(server.url('/article'), { allow, signal: ac.signal }), 'network');
  });
});
