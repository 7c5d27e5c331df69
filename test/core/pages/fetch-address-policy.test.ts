// The address policy on its own: which addresses are public, how host spellings normalize,
// and how SIGHTLINE_FETCH_ALLOW entries match. No network.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EMPTY_ALLOWLIST,
  isAddressAllowed,
  isPublicAddress,
  parseFetchAllowlist,
} from '../../../src/core/pages/fetch/address-policy.ts';

describe('isPublicAddress', () => {
  it('accepts public unicast IPv4 and IPv6', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e']) {
      assert.equal(isPublicAddress(ip), true, ip);
    }
  });

  it('refuses every non-public IPv4 range', () => {
    const refused = {
      loopback: ['127.0.0.1', '127.255.255.254'],
      private: ['10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1'],
      linkLocal: ['169.254.0.1', '169.254.169.254'],
      cgnat: ['100.64.0.1', '100.127.255.255'],
      thisNetwork: ['0.0.0.0', '0.1.2.3'],
      multicast: ['224.0.0.1', '239.255.255.250'],
      broadcast: ['255.255.255.255'],
      reserved: ['240.0.0.1', '250.1.2.3'],
      ietf: ['192.0.0.8'],
      documentation: ['192.0.2.1', '198.51.100.7', '203.0.113.9'],
      benchmarking: ['198.18.0.1', '198.19.255.255'],
      relay6to4: ['192.88.99.1'],
    };
    for (const [kind, ips] of Object.entries(refused)) {
      for (const ip of ips) assert.equal(isPublicAddress(ip), false, `${kind} ${ip}`);
    }
  });

  it('refuses every non-public IPv6 range', () => {
    const refused = {
      unspecified: ['::'],
      loopback: ['::1', '0:0:0:0:0:0:0:1'],
      linkLocal: ['fe80::1', 'fe80::1%eth0', 'febf::1'],
      uniqueLocal: ['fc00::1', 'fd12:3456::1'],
      siteLocal: ['fec0::1'],
      multicast: ['ff02::1', 'ff05::2'],
      documentation: ['2001:db8::1', '3fff::1'],
      teredo: ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      benchmarking: ['2001:2::1'],
      discard: ['100::1'],
      ipv4Compatible: ['::127.0.0.1', '::10.0.0.1'],
      outside2000: ['4000::1', '5f00::1'],
    };
    for (const [kind, ips] of Object.entries(refused)) {
      for (const ip of ips) assert.equal(isPublicAddress(ip), false, `${kind} ${ip}`);
    }
  });

  it('judges IPv6 forms that embed an IPv4 address by that address', () => {
    // IPv4-mapped: the OS connects to the embedded IPv4 address.
    assert.equal(isPublicAddress('::ffff:127.0.0.1'), false);
    assert.equal(isPublicAddress('::ffff:7f00:1'), false);
    assert.equal(isPublicAddress('::ffff:169.254.169.254'), false);
    assert.equal(isPublicAddress('::ffff:10.1.2.3'), false);
    assert.equal(isPublicAddress('::ffff:8.8.8.8'), true);
    // NAT64 well-known prefix: public only when the embedded IPv4 is; local-use /48 never.
    assert.equal(isPublicAddress('64:ff9b::127.0.0.1'), false);
    assert.equal(isPublicAddress('64:ff9b::a9fe:a9fe'), false);
    assert.equal(isPublicAddress('64:ff9b::8.8.8.8'), true);
    assert.equal(isPublicAddress('64:ff9b:1::8.8.8.8'), false);
    // 6to4 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD.
    assert.equal(isPublicAddress('2002:c0a8:0101::1'), false);
    assert.equal(isPublicAddress('2002:7f00:1::'), false);
    assert.equal(isPublicAddress('2002:0808:0808::1'), true);
    // IPv4-translated (RFC 6145).
    assert.equal(isPublicAddress('::ffff:0:127.0.0.1'), false);
  });

  it('refuses what is not an address at all', () => {
    for (const s of ['', 'localhost', 'example.com', '1.2.3.4.5', '::g', '[::1]']) {
      assert.equal(isPublicAddress(s), false, s);
    }
  });

  it('classifies loopback host spellings after the WHATWG URL parser normalized them', () => {
    const spellings = [
      '127.1',
      '127.0.1',
      '2130706433',
      '0x7f000001',
      '0x7f.0x0.0x0.0x1',
      '0177.0.0.1',
      '017700000001',
      '127.0.0.1.',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '0.0.0.0',
      '0',
      '[::]',
      '169.254.169.254',
      '0xa9fea9fe',
      '2852039166',
    ];
    for (const spelling of spellings) {
      const host = new URL(`http://${spelling}/`).hostname;
      const bare = host.startsWith('[') ? host.slice(1, -1) : host;
      assert.equal(isPublicAddress(bare), false, `${spelling} → ${host}`);
    }
    assert.equal(new URL('http://0x7f000001/').hostname, '127.0.0.1');
    assert.equal(new URL('http://0177.0.0.1/').hostname, '127.0.0.1');
    assert.equal(new URL('http://[::ffff:127.0.0.1]/').hostname, '[::ffff:7f00:1]');
  });
});

describe('parseFetchAllowlist', () => {
  it('is empty for an empty or missing spec, and then allows nothing', () => {
    for (const spec of ['', '  ', ' , ,', undefined, null]) {
      const list = parseFetchAllowlist(spec);
      assert.equal(list.entries.length, 0);
      assert.equal(list.allows('127.0.0.1', 80, '127.0.0.1'), false);
    }
    assert.equal(EMPTY_ALLOWLIST.allows('localhost', 80, '127.0.0.1'), false);
  });

  it('parses hosts, host:port pairs, IP addresses and CIDRs of both families', () => {
    const list = parseFetchAllowlist(
      ' intranet.Example. , wiki.local:8443, 127.0.0.1:8080, [::1]:9000, ::1, 10.0.0.0/8, fd00::/8, [fe80::]/10 ',
    );
    assert.deepEqual(list.entries, [
      { kind: 'host', host: 'intranet.example', port: null },
      { kind: 'host', host: 'wiki.local', port: 8443 },
      { kind: 'ip', ip: '127.0.0.1', port: 8080 },
      { kind: 'ip', ip: '::1', port: 9000 },
      { kind: 'ip', ip: '::1', port: null },
      { kind: 'cidr', cidr: '10.0.0.0/8' },
      { kind: 'cidr', cidr: 'fd00::/8' },
      { kind: 'cidr', cidr: 'fe80::/10' },
    ]);
  });

  it('matches host entries by name (and port), whatever the name resolves to', () => {
    const list = parseFetchAllowlist('intranet.example,wiki.local:8443');
    assert.equal(list.allows('INTRANET.example.', 80, '10.1.1.1'), true);
    assert.equal(list.allows('intranet.example', 443, '192.168.1.1'), true);
    assert.equal(list.allows('other.example', 80, '10.1.1.1'), false);
    assert.equal(list.allows('wiki.local', 8443, '10.2.2.2'), true);
    assert.equal(list.allows('wiki.local', 443, '10.2.2.2'), false);
  });

  it('matches IP and CIDR entries by the address connected to, IPv4-mapped folded', () => {
    const list = parseFetchAllowlist('127.0.0.1:8080,10.0.0.0/8,fd00::/8,::1');
    assert.equal(list.allows('anything', 8080, '127.0.0.1'), true);
    assert.equal(list.allows('anything', 8081, '127.0.0.1'), false);
    assert.equal(list.allows('anything', 8080, '::ffff:127.0.0.1'), true);
    assert.equal(list.allows('x', 1, '10.200.3.4'), true);
    assert.equal(list.allows('x', 1, '::ffff:10.200.3.4'), true);
    assert.equal(list.allows('x', 1, '11.0.0.1'), false);
    assert.equal(list.allows('x', 1, 'fd12::1'), true);
    assert.equal(list.allows('x', 1, 'fc00::1'), false);
    assert.equal(list.allows('x', 1, '::1'), true);
    assert.equal(list.allows('x', 1, '127.0.0.2'), false);
  });

  it('throws on malformed entries instead of silently allowing nothing or too much', () => {
    for (const bad of ['127.1', '2130706433', 'a b', 'exa_mple..com', '10.0.0.0/33', 'fd00::/129', 'host:0', 'host:99999', 'host:x', '[::1]:x']) {
      assert.throws(() => parseFetchAllowlist(bad), /SIGHTLINE_FETCH_ALLOW/, bad);
    }
  });

  it('isAddressAllowed: public always, non-public only when allowlisted', () => {
    const list = parseFetchAllowlist('127.0.0.1');
    assert.equal(isAddressAllowed('example.com', 443, '8.8.8.8', EMPTY_ALLOWLIST), true);
    assert.equal(isAddressAllowed('localhost', 80, '127.0.0.1', EMPTY_ALLOWLIST), false);
    assert.equal(isAddressAllowed('localhost', 80, '127.0.0.1', list), true);
    assert.equal(isAddressAllowed('localhost', 80, '::1', list), false);
  });
});
