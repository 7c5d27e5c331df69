// The "is this client on this machine" check behind the owner set-up without a set-up link
// (src/web/local-client.ts): tested with addresses, so no traffic ever leaves loopback.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { behindProxy, isLocalClient, isLoopbackAddress } from '../../src/web/local-client.ts';

describe('isLoopbackAddress', () => {
  test('127.0.0.0/8, ::1 and IPv4-mapped loopback are loopback', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '127.255.255.254', '::1', '::ffff:127.0.0.1', '::FFFF:127.9.9.9', '0:0:0:0:0:0:0:1']) assert.equal(isLoopbackAddress(a), true, a);
  });
  test('public, private, link-local, unspecified and malformed addresses are not', () => {
    for (const a of ['203.0.113.7', '10.0.0.1', '192.168.1.2', '169.254.1.1', '0.0.0.0', '::', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1', 'localhost', '', '127.0.0.1.5', undefined]) {
      assert.equal(isLoopbackAddress(a), false, String(a));
    }
  });
});

describe('isLocalClient', () => {
  const direct = (socketAddress: string | undefined, headers: Record<string, string> = {}) => isLocalClient({ socketAddress, headers: { host: '127.0.0.1:8080', ...headers } });

  test('the page must be asked for by a loopback name: a rebound name (DNS rebinding) is not local', () => {
    for (const host of ['localhost:8080', 'localhost', '127.0.0.1', '[::1]:8080', 'app.localhost:3000', 'LOCALHOST:1']) assert.equal(direct('127.0.0.1', { host }), true, host);
    for (const host of ['rebind.attacker.example', 'rebind.attacker.example:8080', '192.168.1.2:8080', 'localhost.attacker.example', '']) {
      assert.equal(direct('127.0.0.1', { host }), false, host);
    }
    assert.equal(isLocalClient({ socketAddress: '127.0.0.1', headers: {} }), false, 'no Host at all');
    assert.equal(direct('127.0.0.1', { origin: 'http://localhost:8080' }), true);
    assert.equal(direct('127.0.0.1', { origin: 'null' }), true);
    assert.equal(direct('127.0.0.1', { origin: 'http://rebind.attacker.example:8080' }), false);
  });

  test('a loopback peer that sends any relay header relays someone else', () => {
    for (const h of ['via', 'x-forwarded-host', 'x-forwarded-proto', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip']) {
      assert.equal(direct('127.0.0.1', { [h]: '1.1 proxy' }), false, h);
    }
  });

  test('a loopback peer with no forwarding header is local', () => {
    assert.equal(direct('127.0.0.1'), true);
    assert.equal(direct('::1'), true);
    assert.equal(direct('::ffff:127.0.0.1'), true);
  });

  test('a peer on another machine is never local, whatever it claims', () => {
    assert.equal(direct('203.0.113.7'), false);
    assert.equal(direct('10.0.0.5', { 'x-forwarded-for': '127.0.0.1' }), false);
    assert.equal(direct('192.168.1.9', { 'x-forwarded-for': '127.0.0.1' }), false);
    assert.equal(direct(undefined), false);
  });

  test('a loopback peer that forwards for someone (a proxy on this machine) is not local', () => {
    assert.equal(direct('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' }), false);
    // Untrusted forwarding says nothing, not even "loopback".
    assert.equal(direct('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), false);
    assert.equal(direct('127.0.0.1', { forwarded: 'for=203.0.113.7' }), false);
    assert.equal(direct('127.0.0.1', { 'x-real-ip': '203.0.113.7' }), false);
    assert.equal(direct('::1', { 'x-real-ip': '127.0.0.1' }), false);
  });

  test('forwarded for a loopback client is still forwarded: not local', () => {
    assert.equal(direct('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), false);
    assert.equal(direct('::1', { 'x-forwarded-for': '::1' }), false);
  });

  test("nginx's default proxy_pass http://127.0.0.1:8080 (HTTP/1.0, Host 127.0.0.1:8080, no forwarding header) is not local", () => {
    const nginx = { host: '127.0.0.1:8080', connection: 'close' };
    assert.equal(isLocalClient({ socketAddress: '127.0.0.1', headers: nginx, localPort: 8080, httpVersion: '1.0' }), false);
    // The same request from a browser or curl on this machine speaks HTTP/1.1.
    assert.equal(isLocalClient({ socketAddress: '127.0.0.1', headers: { host: '127.0.0.1:8080' }, localPort: 8080, httpVersion: '1.1' }), true);
    assert.equal(isLocalClient({ socketAddress: '127.0.0.1', headers: { host: 'localhost:8080' }, localPort: 8080, httpVersion: '2.0' }), false);
  });

  test('the Host must name the port the connection came in on: a proxy elsewhere passing the Host on is not local', () => {
    const on = (host: string, localPort: number) => isLocalClient({ socketAddress: '127.0.0.1', headers: { host }, localPort, httpVersion: '1.1' });
    assert.equal(on('localhost:8080', 8080), true);
    assert.equal(on('[::1]:8080', 8080), true);
    assert.equal(on('localhost', 80), true);
    assert.equal(on('localhost', 8080), false, 'a proxy on port 80 passing Host: localhost');
    assert.equal(on('localhost:443', 8080), false);
    assert.equal(on('127.0.0.1:9090', 8080), false);
  });
});

describe('behindProxy', () => {
  test('SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY set: the operator runs a proxy, nothing is local', () => {
    assert.equal(behindProxy({ SIGHTLINE_TRUST_PROXY: [] }), false);
    assert.equal(behindProxy({ SIGHTLINE_PUBLIC_URL: 'https://console.example', SIGHTLINE_TRUST_PROXY: [] }), true);
    assert.equal(behindProxy({ SIGHTLINE_TRUST_PROXY: ['127.0.0.1'] }), true);
  });
});
