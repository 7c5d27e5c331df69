// Gemini grounding citations: redirect links (vertexaisearch.cloud.google.com/grounding-api-redirect/…)
// keep `url` as given and get the real domain from the chunk title, or, when redirect lookup is
// on, the real URL from Google's Location header — read without following it, so the cited site
// itself is never contacted. Only loopback is reached: a fetch wrapper maps Google's redirect host
// onto the fake, and refuses everything else that is not the fake.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createDrivers } from '../../src/platforms/registry.ts';
import { probeRequest, startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const fakes: FakeProvider[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

const REDIRECT = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/';
const CHUNKS = [
  { url: `${REDIRECT}AUZIYQFtoken1`, title: 'acme.example' },
  { url: `${REDIRECT}AUZIYQFtoken2`, title: 'www.Globex.example' },
  { url: `${REDIRECT}AUZIYQFtoken1`, title: 'duplicate title' },
  { url: 'https://direct.example/page', title: 'A direct page' },
];

test('redirect links keep url, take the domain from the chunk title, and are de-duplicated by URL', async () => {
  const fake = await startFakeProvider('gemini', [{ answer: { citations: CHUNKS } }]);
  fakes.push(fake);
  const driver = createDrivers({ engine: 'live', env: fake.env }).gemini;
  const answer = await driver.ask(probeRequest('gemini'));
  assert.deepEqual(answer.citations, [
    { title: 'acme.example', url: `${REDIRECT}AUZIYQFtoken1`, domain: 'acme.example', resolved_url: null },
    { title: 'www.Globex.example', url: `${REDIRECT}AUZIYQFtoken2`, domain: 'globex.example', resolved_url: null },
    { title: 'A direct page', url: 'https://direct.example/page', domain: 'direct.example' },
  ]);
  // With a stand-in base URL, redirect lookup is off by default: nothing was looked up.
  assert.equal(fake.redirectLookups.length, 0);
});

test('with GEMINI_RESOLVE_REDIRECTS=1 the real URL comes from the Location header, without following it', async () => {
  const fake = await startFakeProvider('gemini', [
    { answer: { citations: [...CHUNKS, { url: `${REDIRECT}unknownToken`, title: 'Some page title' }] } },
  ]);
  fakes.push(fake);
  fake.redirects.set('AUZIYQFtoken1', 'https://www.acme.example/anvils/heavy');
  fake.redirects.set('AUZIYQFtoken2', 'https://globex.example/products');
  const contacted: string[] = [];
  const loopbackOnly: typeof fetch = (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    contacted.push(url.origin);
    if (url.hostname === 'vertexaisearch.cloud.google.com') {
      return fetch(fake.origin + url.pathname + url.search, init);
    }
    if (url.origin !== fake.origin) throw new Error(`test tried to reach ${url.origin}`);
    return fetch(input, init);
  };
  const driver = createDrivers({ engine: 'live', env: { ...fake.env, GEMINI_RESOLVE_REDIRECTS: '1' }, fetch: loopbackOnly }).gemini;
  const answer = await driver.ask(probeRequest('gemini'));
  assert.deepEqual(
    answer.citations.map((c) => [c.url, c.resolved_url, c.domain]),
    [
      [`${REDIRECT}AUZIYQFtoken1`, 'https://www.acme.example/anvils/heavy', 'acme.example'],
      [`${REDIRECT}AUZIYQFtoken2`, 'https://globex.example/products', 'globex.example'],
      ['https://direct.example/page', undefined, 'direct.example'],
      // Unknown redirect and a title that is not a domain: the real site is unknown, and Google's
      // redirect host is never a cited domain, so it is left out.
    ],
  );
  assert.ok(!answer.citations.some((c) => c.domain === 'vertexaisearch.cloud.google.com'));
  assert.match(JSON.stringify(answer.raw), /unknownToken/, 'raw keeps the dropped chunk');
  // The cited sites were never contacted; only the fake (API + redirect endpoint).
  assert.ok(contacted.every((o) => o === fake.origin || o === 'https://vertexaisearch.cloud.google.com'));
  assert.ok(!contacted.some((o) => o.includes('acme.example') || o.includes('globex.example')));
  assert.ok(fake.redirectLookups.length >= 3);
});

test('without redirect lookup, a redirect whose title is not a domain is not a citation of vertexaisearch.cloud.google.com', async () => {
  const fake = await startFakeProvider('gemini', [
    {
      answer: {
        citations: [
          { url: `${REDIRECT}AUZIYQFtoken1`, title: 'Acme Anvils – the best anvils' },
          { url: `${REDIRECT}AUZIYQFtoken2`, title: 'globex.example' },
        ],
      },
    },
  ]);
  fakes.push(fake);
  const driver = createDrivers({ engine: 'live', env: fake.env }).gemini;
  const req = probeRequest('gemini', { targetUrl: 'https://vertexaisearch.cloud.google.com/' });
  const answer = await driver.ask(req);
  assert.deepEqual(answer.citations.map((c) => [c.url, c.domain]), [[`${REDIRECT}AUZIYQFtoken2`, 'globex.example']]);
  assert.equal(fake.redirectLookups.length, 0);
});
