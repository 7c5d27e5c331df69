// The request id behind a reverse proxy: a trusted proxy's X-Request-Id (1 to 128 safe
// characters) becomes the request's id, in the answer's X-Request-Id, a 5xx error body, the
// activity log and the log lines; any other value, or the header from a peer that is not a
// trusted proxy, gets a fresh req_… id and is never repeated.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/server/app.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { inFlightRequests } from '../../src/web/errors.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';
import { adoptableRequestId, proxyMatcher } from '../../src/web/request-id.ts';
import { createAccount, createKey } from '../../src/core/accounts/accounts.ts';
import { freshDatabaseUrl, startTestServer, type TestServer } from '../helpers/harness.ts';

const FRESH = /^req_[0-9A-Za-z]+$/;
const SAFE = 'nginx-7f3a9c.Ab_01:trace@edge/1+x=y';

/** One GET over a real socket with raw header values (fetch would refuse some of them). */
function rawGet(port: number, path: string, headers: Record<string, string | string[]>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('X-Request-Id from a trusted proxy', () => {
  let s: TestServer;
  let port: number;
  let key: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_TRUST_PROXY: '127.0.0.1' }, { worker: false });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    port = (s.app.server.address() as AddressInfo).port;
    key = (await s.account()).key;
  });
  after(async () => s.close());

  test('a safe id is the request id: in the answer header and the activity log', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': SAFE } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), SAFE);
    const longest = 'a'.repeat(128);
    assert.equal((await rawGet(port, '/healthz', { 'x-request-id': longest })).headers['x-request-id'], longest);
    // A 404 (router-level) answers it too.
    const missing = await rawGet(port, '/v1/nope', { 'x-request-id': 'edge-404' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['x-request-id'], 'edge-404');
    const items = (await s.request('GET', '/v1/activity', { key })).json().items as { action: string; request_id: string }[];
    assert.ok(items.some((i) => i.action === 'usage.read' && i.request_id === SAFE), JSON.stringify(items));
  });

  test('absent, empty, too long or unsafe: a fresh req_ id, and the value is never repeated', async () => {
    const refused: (string | string[])[] = [
      '',
      'a'.repeat(129),
      'has space',
      'tab\there',
      'quote"d',
      'semi;colon',
      'comma,separated',
      '<script>',
      'caf\u00e9',
      ['first', 'second'], // two headers: node joins them with ", "
    ];
    const none = await rawGet(port, '/healthz', {});
    assert.match(String(none.headers['x-request-id']), FRESH);
    for (const value of refused) {
      const res = await rawGet(port, '/healthz', { 'x-request-id': value });
      assert.equal(res.status, 200, JSON.stringify(value));
      assert.match(String(res.headers['x-request-id']), FRESH, JSON.stringify(value));
    }
  });

  test('control characters and CRLF are refused, and no header is injected into the answer', async () => {
    // Node's HTTP parser refuses a raw control character in a header (400 before any route), and a
    // CRLF on the wire ends the header; the values themselves are tried through the in-process request.
    for (const value of ['a\u0000b', 'a\u0001b', 'a\u007fb', 'abc\r\nx-injected: 1', 'abc\nx-injected: 1', 'abc\rdef']) {
      const res = await s.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': value } });
      assert.equal(res.statusCode, 200, JSON.stringify(value));
      assert.match(String(res.headers['x-request-id']), FRESH, JSON.stringify(value));
      assert.equal(res.headers['x-injected'], undefined);
    }
    // On a real socket a CRLF ends the value: what is left ("abc") is a safe id of its own.
    const socket = await new Promise<string>((resolve, reject) => {
      import('node:net').then(({ connect }) => {
        const c = connect(port, '127.0.0.1', () => c.end('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: abc\r\nX-Injected: 1\r\nConnection: close\r\n\r\n'));
        let data = '';
        c.setEncoding('utf8');
        c.on('data', (d) => (data += d));
        c.on('end', () => resolve(data));
        c.on('error', reject);
      }, reject);
    });
    assert.match(socket, /^HTTP\/1\.1 200/);
    assert.match(socket, /\r\nx-request-id: abc\r\n/i);
    assert.doesNotMatch(socket, /x-injected/i);
  });

  test('a 5xx error body names the adopted id', async () => {
    // Shutting down: every new request is answered 503 shutting_down (the last test of this server).
    inFlightRequests(s.app)!.refuseNew();
    const res = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': SAFE } });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('x-request-id'), SAFE);
    const body = (await res.json()) as { detail: { error: string; request_id: string } };
    assert.equal(body.detail.error, 'shutting_down');
    assert.equal(body.detail.request_id, SAFE);
    const fresh = (await (await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { 'x-request-id': 'bad value' } })).json()) as { detail: { request_id: string } };
    assert.match(fresh.detail.request_id, FRESH);
  });
});

describe('X-Request-Id from anyone else', () => {
  test('without SIGHTLINE_TRUST_PROXY, or from a peer that is not a trusted proxy, the header is ignored', async () => {
    for (const env of [{}, { SIGHTLINE_TRUST_PROXY: '10.0.0.0/8, fd00::/8' }] as Record<string, string>[]) {
      const s = await startTestServer(env, { worker: false });
      try {
        await s.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (s.app.server.address() as AddressInfo).port;
        const res = await rawGet(port, '/healthz', { 'x-request-id': SAFE });
        assert.match(String(res.headers['x-request-id']), FRESH, JSON.stringify(env));
      } finally {
        await s.close();
      }
    }
  });

  test('the log lines carry the adopted id', async () => {
    const db = await freshDatabaseUrl();
    const config = loadConfig({ SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_TRUST_PROXY: 'loopback', DATABASE_URL: db.url });
    const runtime = await openRuntime(config);
    const rateLimiter = await createKeyRateLimiter({ perMinute: config.SIGHTLINE_RATE_LIMIT_PER_MINUTE, handle: runtime.handle });
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    // The app's logger as the server builds it, written to this stream.
    const logger = { level: 'info', stream };
    const app = await buildApp({ core: runtime.core, rateLimiter, logger });
    try {
      const account = await createAccount(runtime.core.store.db, 'log-lines@example.com');
      const k = await createKey(runtime.core.store.db, account.id);
      const res = await app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${k.api_key}`, 'x-request-id': SAFE } });
      assert.equal(res.statusCode, 200);
      const line = lines.find((l) => l.msg === 'request' && l.route === '/v1/usage');
      assert.ok(line, JSON.stringify(lines));
      assert.equal(line.req_id, SAFE);
      assert.equal(line.reqId, SAFE);
    } finally {
      await app.close();
      await rateLimiter.close();
      await runtime.close();
      await db.drop();
    }
  });

  test('what is adoptable, and which peers are proxies', () => {
    assert.equal(adoptableRequestId(SAFE), SAFE);
    for (const bad of [undefined, '', 'x'.repeat(129), 'a b', 'a\r\nb', ['a', 'b']]) assert.equal(adoptableRequestId(bad), undefined, JSON.stringify(bad));
    const named = proxyMatcher(['loopback', 'uniquelocal', 'linklocal']);
    for (const ok of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', 'fd00::1', '169.254.1.1', 'fe80::1']) assert.ok(named(ok), ok);
    for (const no of ['8.8.8.8', '172.32.0.1', '2001:db8::1', '::ffff:8.8.8.8', undefined, 'not-an-address']) assert.ok(!named(no), String(no));
    const listed = proxyMatcher(['203.0.113.7', '198.51.100.0/24', '2001:db8::/32']);
    assert.ok(listed('203.0.113.7'));
    assert.ok(listed('::ffff:203.0.113.7'));
    assert.ok(!listed('203.0.113.8'));
    assert.ok(listed('198.51.100.200'));
    assert.ok(listed('2001:db8::5'));
    assert.ok(!listed('2001:db9::5'));
  });
});
