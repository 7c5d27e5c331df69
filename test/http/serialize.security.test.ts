// SSRF and resource limits of POST /v1/pages/content/serialize, through the real server. A
// second loopback server stands for the operator's internal network: it is NOT allowlisted, and
// its request log proves that no spelling of its address, no redirect and no DNS answer ever
// reached it. Every refusal is 400 fetch_blocked with nothing charged.
//
// The one thing to know: the metadata address 169.254.169.254 must never see a packet. Every
// connection attempt the fetcher makes is observed through undici's `beforeConnect` diagnostics
// channel, so the test proves the address check refuses before connecting; nothing here sends
// traffic anywhere but 127.0.0.1. Host names go only to an injected resolver, never to DNS.
//
// Timeouts, the body cap and the resolver are set through createCore's `pages` options: a second
// app is built on the same database with a Core configured that way.
import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createCore, type Core } from '../../src/core/index.ts';
import type { HostResolver } from '../../src/core/pages/fetch/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { createKeyRateLimiter, type KeyRateLimiter } from '../../src/web/rate-limit.ts';
import { PLATFORMS, type PlatformName } from '../../src/platforms/types.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const html = { 'content-type': 'text/html; charset=utf-8' };
const PAGE = '<html><head><title>Public page</title></head><body><main><p>Plenty of ordinary words on a page that serializes without any trouble at all.</p></main></body></html>';
const PATH = '/v1/pages/content/serialize';
const METADATA = '169.254.169.254';

interface ConnectAttempt {
  hostname: string;
  port: string;
}

describe('POST /v1/pages/content/serialize (SSRF and limits)', () => {
  let site: FixtureServer;
  let internal: FixtureServer;
  let s: TestServer;
  const attempts: ConnectAttempt[] = [];
  const onConnect = (message: unknown) => {
    const p = (message as { connectParams: { hostname: string; port: string } }).connectParams;
    attempts.push({ hostname: p.hostname, port: String(p.port) });
  };
  const resolved: string[] = [];
  // The injected resolver: fixture.test is the allowlisted site, evil.test an internal address.
  const lookup: HostResolver = async (hostname) => {
    resolved.push(hostname);
    if (hostname === 'fixture.test' || hostname === 'evil.test') return [{ address: '127.0.0.1', family: 4 }];
    if (hostname === 'evil6.test') return [{ address: '::ffff:127.0.0.1', family: 6 }];
    if (hostname === 'metadata.test') return [{ address: METADATA, family: 4 }];
    throw Object.assign(new Error(`test resolver: no answer for ${hostname}`), { code: 'ENOTFOUND' });
  };
  // The app built from createCore({ pages: {...} }) on the same database.
  let tuned: { core: Core; app: FastifyInstance; limiter: KeyRateLimiter };

  before(async () => {
    dc.subscribe('undici:client:beforeConnect', onConnect);
    internal = await startFixtureServer({ '/': { headers: html, body: PAGE }, '/secret': { headers: html, body: PAGE } });
    site = await startFixtureServer({
      '/page': { headers: html, body: PAGE },
      '/to-internal': { redirect: `http://127.0.0.1:${internal.port}/secret` },
      '/to-localhost': { redirect: `http://localhost:${internal.port}/secret` },
      '/to-decimal': { status: 307, redirect: `http://2130706433:${internal.port}/secret` },
      '/to-metadata': { status: 301, redirect: `http://${METADATA}/latest/meta-data/` },
      '/to-evil-name': { redirect: `http://evil.test:${internal.port}/secret` },
      '/to-no-name': { redirect: `http://nowhere.test:${internal.port}/secret` },
      '/hop1': { redirect: '/hop2' },
      '/hop2': { redirect: `http://[::ffff:127.0.0.1]:${internal.port}/secret` },
      '/slow-headers': { headers: html, body: PAGE, delayMs: 5_000 },
      '/stalled-body': { headers: html, stallBody: true },
      '/trickle': { headers: html, chunks: ['<html><body><main><p>', ...Array(40).fill('word '), '</p></main></body></html>'], chunkDelayMs: 100 },
      '/endless': {
        headers: html,
        endless: { chunk: (n) => `<p>An endless stream of paragraphs about coffee, this is number ${n}, each one much like the one before it.</p>\n` },
      },
    });
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });

    const base = s.runtime.core;
    const core = createCore({
      store: base.store,
      config: base.config,
      drivers: base.drivers,
      ask: () => Promise.reject(new Error('not used by these tests')),
      platformConcurrency: Object.fromEntries(PLATFORMS.map((p) => [p, 1])) as Record<PlatformName, number>,
      // The body's 2 s lets the endless page reach its cap on a loaded machine; the trickle (4 s) still times out.
      pages: {
        fetchOptions: { lookup, connectTimeoutMs: 300, headersTimeoutMs: 300, bodyTimeoutMs: 2_000, maxBytes: 256 * 1024 },
      },
    });
    const limiter = await createKeyRateLimiter({ perMinute: 600, handle: s.runtime.handle });
    const app = await buildApp({ core, rateLimiter: limiter });
    await app.ready();
    tuned = { core, app, limiter };
  });

  after(async () => {
    dc.unsubscribe('undici:client:beforeConnect', onConnect);
    await tuned.app.close();
    await tuned.limiter.close();
    await tuned.core.close();
    await s.close();
    await site.close();
    await internal.close();
  });

  async function post(key: string, body: unknown, app: FastifyInstance = s.app) {
    const res = await app.inject({ method: 'POST', url: PATH, headers: { authorization: `Bearer ${key}` }, payload: body as object });
    return { status: res.statusCode, body: res.json() };
  }

  async function assertNothingCharged(key: string, credits: string) {
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, credits);
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
  }

  test('every spelling of a loopback, unspecified or metadata address is refused without charge', async () => {
    const { key } = await s.account({ credits: 5 });
    const p = internal.port;
    const urls = [
      `http://127.1:${p}/`,
      `http://2130706433:${p}/`,
      `http://0x7f000001:${p}/`,
      `http://0177.0.0.1:${p}/`,
      `http://0x7f.0.0.1:${p}/`,
      `http://127.000.000.001:${p}/`,
      `http://[::1]:${p}/`,
      `http://[::ffff:127.0.0.1]:${p}/`,
      `http://[::ffff:7f00:1]:${p}/`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
      `http://localhost:${p}/`,
      `http://LOCALHOST.:${p}/`,
      `http://api.localhost:${p}/`,
      `http://0.0.0.0:${p}/`,
      `http://0:${p}/`,
      `http://[::]:${p}/`,
      `http://${METADATA}/latest/meta-data/`,
      `http://[::ffff:${METADATA}]/latest/meta-data/`,
      `http://2852039166/latest/meta-data/`,
      `https://${METADATA}/`,
    ];
    for (const url of urls) {
      const res = await post(key, { url });
      assert.equal(res.status, 400, `${url} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'fetch_blocked', url);
      assert.equal(typeof res.body.detail.message, 'string');
    }
    assert.equal(internal.requests.length, 0, 'the internal server was never reached');
    assert.deepEqual(attempts.filter((a) => a.hostname !== '127.0.0.1' || a.port !== String(site.port)), [], 'no connection was even attempted');
    await assertNothingCharged(key, '5.00');
    const activity = (await s.request('GET', '/v1/activity?kind=pages', { key })).json().items;
    assert.equal(activity.length, urls.length);
    assert.ok(activity.every((a: { http_status: number; credits: string }) => a.http_status === 400 && a.credits === '0.00'));
  });

  test('the allowlist applies to the address, whatever the spelling', async () => {
    const { key } = await s.account({ credits: 5 });
    const res = await post(key, { url: `http://127.1:${site.port}/page` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.serialization.title, 'Public page');
    assert.equal(res.body.serialization.url, `http://127.0.0.1:${site.port}/page`);
  });

  test('redirects to internal addresses are refused on the hop, before the hop is requested', async () => {
    const { key } = await s.account({ credits: 5 });
    for (const path of ['/to-internal', '/to-localhost', '/to-decimal', '/to-metadata', '/hop1']) {
      const res = await post(key, { url: site.url(path) });
      assert.equal(res.status, 400, `${path} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'fetch_blocked', path);
      assert.ok(site.hits(path) >= 1, `${path} itself was fetched`);
    }
    assert.equal(site.hits('/hop2'), 1, 'the allowed middle hop was followed');
    assert.equal(internal.requests.length, 0, 'no private hop was ever requested');
    assert.ok(!attempts.some((a) => a.hostname === METADATA || a.port === String(internal.port)), 'no connection attempt to a refused hop');
    await assertNothingCharged(key, '5.00');
  });

  test('DNS answers are checked: a name resolving to loopback is refused, also on a redirect', async () => {
    const { key } = await s.account({ credits: 5 });
    for (const url of [
      `http://evil.test:${internal.port}/secret`,
      `http://evil6.test:${internal.port}/secret`,
      `http://metadata.test/latest/meta-data/`,
      site.url('/to-evil-name'),
    ]) {
      const res = await post(key, { url }, tuned.app);
      assert.equal(res.status, 400, `${url} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'fetch_blocked', url);
    }
    assert.ok(resolved.includes('evil.test') && resolved.includes('metadata.test'), 'the injected resolver answered');
    assert.equal(internal.requests.length, 0);
    assert.ok(!attempts.some((a) => a.hostname !== '127.0.0.1' && a.hostname !== 'fixture.test'));
    // The same resolver lets an allowlisted address be reached by name.
    const ok = await post(key, { url: `http://fixture.test:${site.port}/page` }, tuned.app);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.serialization.title, 'Public page');
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '1.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
  });

  // A name that does not resolve and one that resolves only to a private address get one answer,
  // so the fetcher cannot be asked which internal host names exist (evil.test stands for such a
  // name: the injected resolver answers loopback; nowhere.test has no answer).
  test('a name that does not resolve and a name of a private address get the very same answer', async () => {
    const { key } = await s.account({ credits: 10 });
    const answer = async (url: string, path = PATH) => {
      const res = await tuned.app.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${key}` }, payload: { url } });
      const { request_id: _id, ...detail } = res.json().detail;
      return { status: res.statusCode, detail };
    };
    for (const path of [PATH, '/v1/content-intelligence/content/score']) {
      const internalName = await answer(`http://evil.test:${internal.port}/secret`, path);
      assert.deepEqual(await answer(`http://nowhere.test:${internal.port}/secret`, path), internalName, path);
      assert.deepEqual(await answer(site.url('/to-no-name'), path), await answer(site.url('/to-evil-name'), path), `${path}, on a redirect`);
      assert.equal(internalName.status, 400);
      assert.deepEqual([internalName.detail.error, internalName.detail.fetch_error, internalName.detail.retryable], ['fetch_blocked', 'blocked_address', false]);
      // What helps an honest user: check the spelling; or the operator allows the host.
      assert.match(internalName.detail.message, /no such name exists \(check the domain.s spelling\)/);
      assert.match(internalName.detail.message, /SIGHTLINE_FETCH_ALLOW/);
    }
    assert.equal(internal.requests.length, 0);
    await assertNothingCharged(key, '10.00');
  });

  test('a slow or stalled server times out: 500 extraction_failed, nothing charged', async () => {
    const { key } = await s.account({ credits: 5 });
    for (const path of ['/slow-headers', '/stalled-body', '/trickle']) {
      const res = await post(key, { url: site.url(path) }, tuned.app);
      assert.equal(res.status, 500, `${path} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'extraction_failed', path);
      assert.equal(res.body.detail.fetch_error, 'timeout', path);
      assert.match(res.body.detail.request_id, /^req_/);
    }
    await assertNothingCharged(key, '5.00');
  });

  test('an endless body is cut at the cap and the part read is still serialized and billed', async () => {
    const { key } = await s.account({ credits: 5 });
    const res = await post(key, { url: site.url('/endless'), max_chars: 2_000 }, tuned.app);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const ser = res.body.serialization;
    assert.equal(ser.billing.billable, true);
    assert.match(ser.content_view, /An endless stream of paragraphs about coffee/);
    assert.equal(ser.content_view_truncated, true);
    assert.ok(ser.total_chars > 2_000 && ser.total_chars <= 256 * 1024, `total_chars ${ser.total_chars}`);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '1.00');
  });
});
