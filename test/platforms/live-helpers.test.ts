// The live drivers' shared helpers: citation normalisation (domains, de-duplication, Gemini
// title domains), raw capping to valid JSON, key scrubbing, the market instruction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainFromTitle, domainOf, isGroundingRedirect, normalizeCitations } from '../../src/platforms/live/citations.ts';
import { capRaw } from '../../src/platforms/live/raw.ts';
import { scrubText, scrubValue } from '../../src/platforms/live/secrets.ts';
import { marketInstruction } from '../../src/platforms/live/market.ts';

test('domainOf: lowercase host without www., null for non-web URLs', () => {
  assert.equal(domainOf('https://WWW.Example.COM/path?q=1'), 'example.com');
  assert.equal(domainOf('http://sub.example.co.uk:8080/'), 'sub.example.co.uk');
  assert.equal(domainOf('https://www2.example.com/'), 'www2.example.com');
  assert.equal(domainOf('file:///etc/passwd'), null);
  assert.equal(domainOf('not a url'), null);
});

test('domainFromTitle accepts hostnames only', () => {
  assert.equal(domainFromTitle('Wikipedia.org'), 'wikipedia.org');
  assert.equal(domainFromTitle('www.acme.example'), 'acme.example');
  assert.equal(domainFromTitle('Acme Anvils – Home'), null);
  assert.equal(domainFromTitle(null), null);
});

test('isGroundingRedirect matches only Google grounding redirect links', () => {
  assert.equal(isGroundingRedirect('https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC'), true);
  assert.equal(isGroundingRedirect('https://vertexaisearch.cloud.google.com/other'), false);
  assert.equal(isGroundingRedirect('https://evil.example/grounding-api-redirect/x'), false);
});

test('normalizeCitations: de-duplicated by URL, first title kept (a later one fills a missing title), non-web dropped', () => {
  const out = normalizeCitations([
    { url: 'https://a.example/x', title: null },
    { url: 'https://a.example/x', title: 'Later' },
    { url: 'https://a.example/x', title: 'Even later' },
    { url: 'https://www.B.example/', title: 'B' },
    { url: 'ftp://c.example/file', title: 'C' },
    { url: '  ', title: 'empty' },
  ]);
  assert.deepEqual(out, [
    { title: 'Later', url: 'https://a.example/x', domain: 'a.example' },
    { title: 'B', url: 'https://www.B.example/', domain: 'b.example' },
  ]);
});

test('capRaw: small values unchanged; large values pruned to valid JSON within the budget', () => {
  const small = { a: 1, b: ['x'] };
  assert.equal(capRaw(small, 1000), small);
  const big = {
    id: 'resp_1',
    output: Array.from({ length: 500 }, (_, i) => ({ type: 'message', text: `${'é😀'.repeat(200)} ${i}` })),
  };
  for (const budget of [200, 1000, 10_000, 50_000]) {
    const capped = capRaw(big, budget);
    const json = JSON.stringify(capped);
    assert.ok(Buffer.byteLength(json) <= budget, `${budget}: ${Buffer.byteLength(json)}`);
    assert.doesNotThrow(() => JSON.parse(json));
    assert.equal((capped as { truncated: boolean }).truncated, true);
  }
  assert.equal(capRaw(undefined, 10), null);
});

test('scrubbing replaces keys in text and deeply in values, including URL-encoded forms', () => {
  const key = 'sk-proj-abc/def+ghi=';
  assert.equal(scrubText(`bad key ${key}!`, [key]), 'bad key [REDACTED]!');
  const v = scrubValue({ url: `https://x/?key=${encodeURIComponent(key)}`, list: [key, 1, null], [key]: true }, [key, undefined]);
  assert.ok(!JSON.stringify(v).includes(key));
  assert.ok(!JSON.stringify(v).includes(encodeURIComponent(key)));
  assert.equal(scrubText('short ab', ['ab']), 'short ab', 'very short secrets are ignored');
});

test('marketInstruction names the language, and the country only when asked to', () => {
  assert.equal(marketInstruction('de', 'DE', { includeCountry: false }), 'Answer in German (de).');
  assert.match(marketInstruction('fr', 'ca', { includeCountry: true }), /French \(fr\).*Canada \(CA\)/);
  assert.match(marketInstruction('xx-invalid-!!', 'ZZ', { includeCountry: true }), /Answer in/);
});

test('normalizeCitations: one entry per page; tracking parameters and text fragments dropped, www/no-www the same', () => {
  const out = normalizeCitations([
    { url: 'https://www.acme.com/anvils?utm_source=openai', title: 'Acme' },
    { url: 'https://acme.com/anvils', title: 'Acme (2)' },
    { url: 'https://www.acme.com/anvils#:~:text=best%20anvils', title: 'Acme (3)' },
    { url: 'http://ACME.com/anvils/?gclid=x', title: 'Acme (4)' },
    { url: 'https://acme.com/anvils?model=2&utm_medium=ai', title: 'Model 2' },
    { url: 'https://acme.com/anvils?model=2', title: 'Model 2 again' },
    { url: 'https://acme.com/forges#history', title: 'Forges' },
  ]);
  assert.deepEqual(
    out.map((c) => [c.url, c.title, c.domain]),
    [
      ['https://www.acme.com/anvils', 'Acme', 'acme.com'],
      ['https://acme.com/anvils?model=2', 'Model 2', 'acme.com'],
      ['https://acme.com/forges#history', 'Forges', 'acme.com'],
    ],
  );
});
