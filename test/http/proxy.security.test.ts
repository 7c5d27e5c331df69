// Behind a TLS reverse proxy: SIGHTLINE_PUBLIC_URL=https://… makes every cookie Secure with the
// `__Host-` prefix and sends HSTS; SIGHTLINE_TRUST_PROXY names the proxies whose X-Forwarded-*
// are believed, so the per-address limits see the real client (and no one else can claim an
// address or https by sending the header). Both are validated at start with clear messages.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.ts';
import { issueSetupToken } from '../../src/core/accounts/users.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const setCookies = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie'] ?? []].flat() as string[];

/** The pre-session CSRF cookie and token, as the page gets them. */
async function preSession(s: TestServer, headers: Record<string, string> = {}) {
  const res = await s.app.inject({ method: 'GET', url: '/console/api/session', headers });
  const cookie = setCookies(res)[0]!;
  return { res, cookie, pair: { cookie: cookie.split(';')[0]!, 'x-csrf-token': res.json().csrf_token as string } };
}

describe('SIGHTLINE_PUBLIC_URL and SIGHTLINE_TRUST_PROXY', () => {
  test('both are validated with messages that say what is expected', () => {
    const bad = (env: Record<string, string>, pattern: RegExp) => assert.throws(() => loadConfig(env), pattern);
    bad({ SIGHTLINE_PUBLIC_URL: 'https://console.example/sightline' }, /SIGHTLINE_PUBLIC_URL: must be the console's public origin/);
    bad({ SIGHTLINE_PUBLIC_URL: 'console.example' }, /SIGHTLINE_PUBLIC_URL/);
    bad({ SIGHTLINE_PUBLIC_URL: 'https://user:pw@console.example' }, /SIGHTLINE_PUBLIC_URL/);
    bad({ SIGHTLINE_TRUST_PROXY: '10.0.0.0/8,10.1.2.3.4' }, /SIGHTLINE_TRUST_PROXY: each entry must be an IP address, a CIDR .*"10\.1\.2\.3\.4"/);
    bad({ SIGHTLINE_TRUST_PROXY: '192.168.0.0/33' }, /SIGHTLINE_TRUST_PROXY/);
    bad({ SIGHTLINE_TRUST_PROXY: '*' }, /SIGHTLINE_TRUST_PROXY/);
    const ok = loadConfig({ SIGHTLINE_PUBLIC_URL: 'https://console.example/', SIGHTLINE_TRUST_PROXY: ' 10.0.0.0/8, ::1 ,loopback,fd00::/8' });
    assert.equal(ok.SIGHTLINE_PUBLIC_URL, 'https://console.example');
    assert.deepEqual(ok.SIGHTLINE_TRUST_PROXY, ['10.0.0.0/8', '::1', 'loopback', 'fd00::/8']);
    assert.deepEqual(loadConfig({}).SIGHTLINE_TRUST_PROXY, []);
  });

  test('https public origin: __Host- cookies, Secure, HSTS; the session works with the prefixed cookie only', async () => {
    const s = await startTestServer({ SIGHTLINE_PUBLIC_URL: 'https://console.example' }, { worker: false });
    try {
      // Over a real socket, as a proxy in front of it would connect.
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (s.app.server.address() as AddressInfo).port;
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.headers.get('strict-transport-security'), 'max-age=31536000');

      const { res, cookie, pair } = await preSession(s);
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000');
      assert.match(cookie, /^__Host-sightline_csrf=/);
      assert.match(cookie, /; Path=\//);
      assert.match(cookie, /; Secure/);
      assert.doesNotMatch(cookie, /Domain=/i);

      // Behind a proxy the owner set-up always takes the set-up link (no request is "local").
      const setupToken = await issueSetupToken(s.runtime.core.store.db);
      const setup = await s.app.inject({ method: 'POST', url: '/console/api/setup', headers: pair, payload: { email: 'owner@example.com', password: 'a long enough passphrase 42', setup_token: setupToken } });
      assert.equal(setup.statusCode, 200, setup.body);
      const session = setCookies(setup).find((c) => c.startsWith('__Host-sightline_session='))!;
      assert.ok(session, String(setup.headers['set-cookie']));
      assert.match(session, /; Secure/);
      const value = session.split(';')[0]!.split('=')[1]!;
      assert.equal((await s.app.inject({ method: 'GET', url: '/v1/usage', headers: { cookie: `__Host-sightline_session=${value}` } })).statusCode, 200);
      // The unprefixed name is not read: a cookie set by a sibling host or over http cannot stand in for it.
      assert.equal((await s.app.inject({ method: 'GET', url: '/v1/usage', headers: { cookie: `sightline_session=${value}` } })).statusCode, 401);
    } finally {
      await s.close();
    }
  });

  test('no public origin and no trusted proxy: X-Forwarded-Proto is ignored (no Secure, no HSTS); with a trusted proxy it is believed', async () => {
    const plain = await startTestServer({}, { worker: false });
    try {
      const { res, cookie } = await preSession(plain, { 'x-forwarded-proto': 'https' });
      assert.equal(res.headers['strict-transport-security'], undefined);
      assert.match(cookie, /^sightline_csrf=/);
      assert.doesNotMatch(cookie, /Secure/);
    } finally {
      await plain.close();
    }
    const proxied = await startTestServer({ SIGHTLINE_TRUST_PROXY: '127.0.0.1' }, { worker: false });
    try {
      assert.match((await preSession(proxied, { 'x-forwarded-proto': 'https' })).cookie, /; Secure/);
      assert.doesNotMatch((await preSession(proxied, { 'x-forwarded-proto': 'http' })).cookie, /Secure/);
    } finally {
      await proxied.close();
    }
  });

  test('per-address sign-in limit: behind a trusted proxy each client has its own; an untrusted peer cannot pick an address', async () => {
    const signIn = (s: TestServer, remoteAddress: string, forwardedFor?: string) =>
      s.app.inject({
        method: 'POST',
        url: '/console/api/sign-in',
        remoteAddress,
        headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
        payload: { email: 'x@example.com', password: 'nope' },
      });
    const proxied = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '2', SIGHTLINE_TRUST_PROXY: '10.0.0.0/8' }, { worker: false });
    try {
      for (let i = 0; i < 2; i++) assert.notEqual((await signIn(proxied, '10.1.1.1', '203.0.113.7')).statusCode, 429);
      assert.equal((await signIn(proxied, '10.1.1.1', '203.0.113.7')).statusCode, 429);
      // Another client through the same proxy is not limited.
      assert.notEqual((await signIn(proxied, '10.1.1.1', '203.0.113.8')).statusCode, 429);
      // A client that is not a trusted proxy cannot claim an address: its own is limited.
      for (let i = 0; i < 2; i++) assert.notEqual((await signIn(proxied, '198.51.100.9', `203.0.113.${100 + i}`)).statusCode, 429);
      assert.equal((await signIn(proxied, '198.51.100.9', '203.0.113.200')).statusCode, 429);
    } finally {
      await proxied.close();
    }
    const direct = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '2' }, { worker: false });
    try {
      // Without SIGHTLINE_TRUST_PROXY the header means nothing: the proxy's address is every client's.
      for (let i = 0; i < 2; i++) assert.notEqual((await signIn(direct, '10.1.1.1', `203.0.113.${i}`)).statusCode, 429);
      assert.equal((await signIn(direct, '10.1.1.1', '203.0.113.50')).statusCode, 429);
    } finally {
      await direct.close();
    }
  });
});
