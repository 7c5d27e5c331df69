// Every way POST /v1/pages/content/serialize refuses or fails, through the real server against a
// loopback fixture site, with the proof that nothing was charged: 422 schema bounds and 400
// semantic errors before any reservation (and before any fetch), 402/403/401/503 before any
// fetch, not-billable 200s for PDFs and upstream HTTP errors, 500 extraction_failed for network
// failures and redirect loops.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createCore } from '../../src/core/index.ts';
import { PLATFORMS, type PlatformName } from '../../src/platforms/types.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const html = { 'content-type': 'text/html; charset=utf-8' };
const PAGE = '<html><head><title>Fine page</title></head><body><main><p>Plenty of ordinary words on a page that serializes without any trouble at all.</p></main></body></html>';
const PATH = '/v1/pages/content/serialize';

describe('POST /v1/pages/content/serialize (errors)', () => {
  let site: FixtureServer;
  let deadPort: number;
  let s: TestServer;

  before(async () => {
    site = await startFixtureServer({
      '/page': { headers: html, body: PAGE },
      '/paper.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4 not really a pdf' },
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
      '/feed.json': { headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
      '/gone': { status: 404, headers: html, body: '<html><title>Not found</title><p>Nothing here, sorry about that.</p></html>' },
      '/boom': { status: 503, headers: html, body: '<p>down for maintenance</p>' },
      '/moved-pdf': { redirect: '/paper.pdf' },
      '/loop': { redirect: '/loop' },
      '/to-ftp': { redirect: 'ftp://files.example/page' },
      '/to-credentials': { redirect: 'http://user:secret@127.0.0.1/page' },
    });
    // A loopback port nobody listens on (allowlisted, so the failure is the connection itself).
    const dead = await startFixtureServer();
    deadPort = dead.port;
    await dead.close();
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}, 127.0.0.1:${deadPort}` });
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  async function post(key: string, body: unknown) {
    const res = await s.request('POST', PATH, { key, body });
    return { status: res.statusCode, body: res.json() };
  }

  async function assertNothingCharged(key: string, credits: string) {
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, credits);
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
    return usage;
  }

  test('declared bounds and missing fields are 422 with the field location; nothing fetched or reserved', async () => {
    const { key } = await s.account({ credits: 5 });
    const before = site.requests.length;
    const url = site.url('/page');
    const cases: [unknown, (string | number)[]][] = [
      [{ url, max_chars: 0 }, ['body', 'max_chars']],
      [{ url, max_chars: 25_001 }, ['body', 'max_chars']],
      [{ url, max_chars: 12.5 }, ['body', 'max_chars']],
      [{ url, max_chars: '100' }, ['body', 'max_chars']],
      [{ url, offset: -1 }, ['body', 'offset']],
      [{ url, offset: 1.5 }, ['body', 'offset']],
      [{}, ['body', 'url']],
      [{ max_chars: 100 }, ['body', 'url']],
      [{ url: 42 }, ['body', 'url']],
      [{ url, extraction_mode: 7 }, ['body', 'extraction_mode']],
    ];
    for (const [body, loc] of cases) {
      const res = await post(key, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
      assert.ok(Array.isArray(res.body.detail));
      assert.deepEqual(res.body.detail[0].loc, loc, JSON.stringify(res.body));
    }
    // The bounds themselves are accepted.
    assert.equal((await post(key, { url, max_chars: 1 })).status, 200);
    assert.equal((await post(key, { url, max_chars: 25_000, offset: 0 })).status, 200);
    assert.equal(site.requests.length, before + 1, 'only the first accepted request fetches (then cached)');
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '2.00');
    assert.equal(usage.recent.filter((r: { action: string }) => r.action === 'pages.content.serialize').length, 2);
  });

  test('an unsupported extraction_mode and invalid URLs are 400 before anything is reserved or fetched', async () => {
    const { key } = await s.account({ credits: 5 });
    const before = site.requests.length;
    for (const mode of ['js', 'SPA', '', 'render']) {
      const res = await post(key, { url: site.url('/page'), extraction_mode: mode });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.detail.error, 'unsupported_extraction_mode');
      assert.equal(typeof res.body.detail.message, 'string');
    }
    for (const url of ['not a url', '', '/relative/path', 'ftp://127.0.0.1/file', 'javascript:alert(1)', 'file:///etc/passwd', `http://user:secret@127.0.0.1:${site.port}/page`, 'http://']) {
      const res = await post(key, { url });
      assert.equal(res.status, 400, `${url.slice(0, 60)} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'invalid_url');
    }
    // Longer than the URL limit (2,048 characters): refused by the schema.
    const long = await post(key, { url: `http://${'a'.repeat(9000)}.example/` });
    assert.equal(long.status, 422);
    assert.deepEqual(long.body.detail[0].loc, ['body', 'url']);
    assert.equal(site.requests.length, before);
    const usage = await assertNothingCharged(key, '5.00');
    assert.deepEqual(usage.recent.map((r: { kind: string }) => r.kind), ['grant'], 'no reservation was ever made');
  });

  test('402 with a zero balance, and nothing is fetched (the credit is reserved first)', async () => {
    const { key } = await s.account();
    const before = site.requests.length;
    const res = await post(key, { url: site.url('/page?fresh=402') });
    assert.equal(res.status, 402, JSON.stringify(res.body));
    assert.equal(res.body.detail.error, 'insufficient_credits');
    assert.equal(site.requests.length, before);
    assert.equal(site.hits('/page?fresh=402'), 0);
  });

  test('403 for a key without the scope, 401 without a key; nothing fetched or charged', async () => {
    const { accountId } = await s.account({ credits: 5 });
    const before = site.requests.length;
    const readOnly = await s.key(accountId, { readOnly: true });
    const otherScope = await s.key(accountId, { scopes: ['visibility:runs:create', 'runs:read'] });
    for (const key of [readOnly, otherScope]) {
      const res = await post(key, { url: site.url('/page?fresh=403') });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.detail.error, 'missing_scope');
      assert.equal(res.body.detail.required_scope, 'pages:content:serialize');
    }
    const anon = await s.request('POST', PATH, { body: { url: site.url('/page?fresh=403') } });
    assert.equal(anon.statusCode, 401);
    const scoped = await s.key(accountId, { scopes: ['pages:content:serialize', 'runs:read'] });
    assert.equal((await post(scoped, { url: site.url('/page') })).status, 200);
    assert.equal(site.hits('/page?fresh=403'), 0);
    assert.ok(site.requests.length <= before + 1);
    const usage = (await s.request('GET', '/v1/usage', { key: readOnly })).json();
    assert.equal(usage.credits.used_credit_units, '1.00');
  });

  test('PDFs, images, JSON and upstream HTTP errors are 200 with billable false and nothing charged', async () => {
    const { key } = await s.account({ credits: 5 });
    const cases: [string, number, string | null][] = [
      ['/paper.pdf', 200, 'application/pdf'],
      ['/logo.png', 200, 'image/png'],
      ['/feed.json', 200, 'application/json'],
      ['/gone', 404, 'text/html'],
      ['/boom', 503, 'text/html'],
    ];
    for (const [path, status, type] of cases) {
      const res = await post(key, { url: site.url(path), max_chars: 500 });
      assert.equal(res.status, 200, `${path} → ${JSON.stringify(res.body)}`);
      const ser = res.body.serialization;
      assert.equal(ser.http_status, status, path);
      assert.equal(ser.content_type, type, path);
      assert.deepEqual(ser.billing, { billable: false, estimated_credits: '1.00' });
      assert.equal(ser.content_view, '');
      assert.equal(ser.content_view_chars, 0);
      assert.equal(ser.content_view_truncated, false);
      assert.equal(ser.next_offset, null);
      assert.equal(ser.total_chars, 0);
      assert.deepEqual(ser.payload_limits, { raw_extraction_returned: false, max_chars: 500 });
      assert.equal(ser.url, site.url(path));
    }
    // A redirect to a PDF reports where it ended.
    const moved = (await post(key, { url: site.url('/moved-pdf') })).body.serialization;
    assert.equal(moved.billing.billable, false);
    assert.equal(moved.final_url, site.url('/paper.pdf'));
    const usage = await assertNothingCharged(key, '5.00');
    const charges = usage.recent.filter((r: { kind: string }) => r.kind === 'charge');
    assert.equal(charges.length, 6);
    assert.ok(charges.every((r: { status: string }) => r.status === 'released'));
    const activity = (await s.request('GET', '/v1/activity?kind=pages', { key })).json().items;
    assert.ok(activity.every((a: { credits: string; http_status: number }) => a.credits === '0.00' && a.http_status === 200));
  });

  test('a refused connection and a redirect loop are 500 extraction_failed with nothing charged', async () => {
    const { key } = await s.account({ credits: 5 });
    const refused = await post(key, { url: `http://127.0.0.1:${deadPort}/page` });
    assert.equal(refused.status, 500, JSON.stringify(refused.body));
    assert.equal(refused.body.detail.error, 'extraction_failed');
    assert.match(refused.body.detail.request_id, /^req_/);
    assert.ok(!JSON.stringify(refused.body).includes('ECONNREFUSED'), 'no internals in the error');
    assert.ok(!JSON.stringify(refused.body).includes('    at '), 'no stack trace');

    const loop = await post(key, { url: site.url('/loop') });
    assert.equal(loop.status, 500, JSON.stringify(loop.body));
    assert.equal(loop.body.detail.error, 'extraction_failed');
    assert.equal(loop.body.detail.fetch_error, 'too_many_redirects');
    await assertNothingCharged(key, '5.00');
    const activity = (await s.request('GET', '/v1/activity?kind=pages', { key })).json().items;
    assert.deepEqual(activity.map((a: { http_status: number; credits: string }) => [a.http_status, a.credits]), [[500, '0.00'], [500, '0.00']]);
  });

  test('a redirect to a URL that cannot be fetched (another scheme, credentials) is refused with 400 fetch_blocked, not a 500', async () => {
    const { key } = await s.account({ credits: 5 });
    for (const path of ['/to-ftp', '/to-credentials']) {
      const res = await post(key, { url: site.url(path) });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.detail.error, 'fetch_blocked');
      assert.equal(res.body.detail.fetch_error, 'bad_redirect');
    }
    await assertNothingCharged(key, '5.00');
  });

  test('503 credit_storage_unavailable when the ledger cannot reserve, and nothing is fetched', async () => {
    const { key } = await s.account({ credits: 5 });
    const before = site.requests.length;
    const db = s.runtime.core.store.db;
    await sql`alter table ledger_entries rename to ledger_entries_away`.execute(db);
    let res;
    try {
      res = await post(key, { url: site.url('/page?fresh=503') });
    } finally {
      await sql`alter table ledger_entries_away rename to ledger_entries`.execute(db);
    }
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.detail.error, 'credit_storage_unavailable');
    assert.equal(site.requests.length, before);
    await assertNothingCharged(key, '5.00');
  });

  test('an invalid SIGHTLINE_FETCH_ALLOW stops the core from starting, naming the bad entry', () => {
    const base = s.runtime.core;
    for (const [spec, pattern] of [
      ['127.0.0.1:99999', /bad port in "127\.0\.0\.1:99999"/],
      ['10.0.0.0/33', /bad CIDR "10\.0\.0\.0\/33"/],
      ['intranet.example, 127.1:8080', /four decimal parts \("127\.1:8080"\)/],
    ] as const) {
      assert.throws(
        () =>
          createCore({
            store: base.store,
            config: { ...base.config, SIGHTLINE_FETCH_ALLOW: spec },
            drivers: base.drivers,
            ask: () => Promise.reject(new Error('unused')),
            platformConcurrency: Object.fromEntries(PLATFORMS.map((p) => [p, 1])) as Record<PlatformName, number>,
          }),
        (err: Error) => /^Invalid configuration:/.test(err.message) && /SIGHTLINE_FETCH_ALLOW/.test(err.message) && pattern.test(err.message),
      );
    }
  });
});
