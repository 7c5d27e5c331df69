// The URL primitives every feature area shares: one host rule (lowercased, `www.` dropped) for
// content signals, evidence and citation sources, and the http(s) parsing and normalization.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hostAndPath, hostOf, normalizeUrl, parseHttpUrl } from '../../src/lib/url.ts';

test('hostOf lowercases the host, drops one leading www. and gives "" for what is not a URL', () => {
  assert.equal(hostOf('https://WWW.Example.COM/a?b=1#c'), 'example.com');
  assert.equal(hostOf('http://www.www.example.com/'), 'www.example.com');
  assert.equal(hostOf('https://docs.example.com:8443/x'), 'docs.example.com');
  assert.equal(hostOf('https://wwwexample.com/'), 'wwwexample.com');
  assert.equal(hostOf('/relative/path'), '');
  assert.equal(hostOf('not a url'), '');
  assert.equal(hostOf(''), '');
  // Any scheme parses; one without a host gives the empty host, as before.
  assert.equal(hostOf('mailto:someone@example.com'), '');
  assert.equal(hostOf('ftp://Files.Example.org/x'), 'files.example.org');
});

test('hostAndPath gives the same host with the path and query, or null', () => {
  assert.deepEqual(hostAndPath('https://www.NYTimes.com/wirecutter/reviews/?q=1#top'), { host: 'nytimes.com', path: '/wirecutter/reviews/?q=1' });
  assert.deepEqual(hostAndPath('https://example.com'), { host: 'example.com', path: '/' });
  assert.equal(hostAndPath('example.com/page'), null);
  assert.equal(hostAndPath(''), null);
  for (const u of ['https://A.b.C/x', 'http://www.q.io/?', 'nope', 'https://[::1]:80/p']) assert.equal(hostOf(u), hostAndPath(u)?.host ?? '');
});

test('parseHttpUrl takes absolute http(s) URLs only; normalizeUrl spells one page one way', () => {
  assert.equal(parseHttpUrl('ftp://example.com/'), null);
  assert.equal(parseHttpUrl('  '), null);
  assert.equal(parseHttpUrl(`https://example.com/${'a'.repeat(2048)}`), null);
  assert.equal(parseHttpUrl(' https://example.com/x ')?.href, 'https://example.com/x');
  assert.equal(normalizeUrl('HTTPS://Example.com:443/Path/#frag'), 'https://example.com/Path');
  assert.equal(normalizeUrl('https://example.com/'), 'https://example.com');
  assert.equal(normalizeUrl('https://example.com/a?x=1'), 'https://example.com/a?x=1');
  assert.equal(normalizeUrl(' not a url '), 'not a url');
});
