// The cap on concurrent outbound page fetches per process (src/core/pages/fetch-gate.ts): with
// one fetch at a time and one waiting, a third concurrent serialization of distinct pages is
// refused at once with 503 fetch_capacity and Retry-After, nothing charged; the others succeed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const page = (n: number) => `<html><head><title>Page ${n}</title></head><body><main><p>Ordinary words on page ${n}, enough of them to make a content view.</p></main></body></html>`;

describe('outbound fetch capacity', () => {
  let site: FixtureServer;
  let s: TestServer;
  before(async () => {
    site = await startFixtureServer(
      Object.fromEntries([1, 2, 3].map((n) => [`/p${n}`, { headers: { 'content-type': 'text/html' }, body: page(n), delayMs: 300 }])),
    );
    s = await startTestServer(
      { SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}`, SIGHTLINE_FETCH_CONCURRENCY: '1', SIGHTLINE_FETCH_QUEUE: '1' },
      { worker: false },
    );
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  test('past the concurrency and the queue, a fetch is 503 fetch_capacity and charges nothing', async () => {
    const { key } = await s.account({ credits: 10 });
    const responses = await Promise.all(
      [1, 2, 3].map((n) => s.request('POST', '/v1/pages/content/serialize', { key, body: { url: site.url(`/p${n}`) } })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [200, 200, 503]);
    const refused = responses.find((r) => r.statusCode === 503)!;
    assert.equal(refused.json().detail.error, 'fetch_capacity');
    assert.equal(refused.headers['retry-after'], '2');
    assert.equal(site.requests.length, 2, 'the refused request fetched nothing');
    const usage = (await s.request('GET', '/v1/usage', { key })).json().credits;
    assert.equal(usage.used_credit_units, '2.00');
    assert.equal(usage.reserved_credit_units, '0.00');
  });
});
