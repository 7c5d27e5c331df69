// The caps on concurrent outbound page fetches (src/core/pages/fetch-gate.ts). Per process: with
// one fetch at a time and one waiting, a third concurrent serialization of distinct pages is
// refused at once with 503 fetch_capacity and Retry-After, nothing charged; the others succeed.
// Per account: an account runs at most its cap of fetches at once; more wait, up to a quarter of
// the queue, and past that it is refused (503 fetch_capacity) while another account's fetch goes
// straight through; its places come back however its fetches end (answer, error, abort).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { createFetchGate } from '../../src/core/pages/fetch-gate.ts';

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

describe('outbound fetch capacity per account', () => {
  let site: FixtureServer;
  let s: TestServer;
  before(async () => {
    site = await startFixtureServer({
      // Slow enough that an account's first two fetches are still running when its third arrives.
      ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((n) => [`/p${n}`, { headers: { 'content-type': 'text/html' }, body: page(n), delayMs: 800 }])),
      '/broken': { status: 500, headers: { 'content-type': 'text/html' }, body: 'down' },
    });
    s = await startTestServer(
      { SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}`, SIGHTLINE_FETCH_CONCURRENCY: '8', SIGHTLINE_FETCH_QUEUE: '8', SIGHTLINE_FETCH_ACCOUNT_CONCURRENCY: '2' },
      { worker: false },
    );
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  const serialize = (key: string, url: string) => s.request('POST', '/v1/pages/content/serialize', { key, body: { url } });

  test("an account runs its cap, waits for the next places, is refused past them; another account's fetch goes straight through", async () => {
    // Caps: 2 running per account, 8 waiting in all, so 2 waiting per account (a quarter).
    const a = await s.account({ credits: 10 });
    const b = await s.account({ credits: 10 });
    const before = site.requests.length;
    const started = Date.now();
    const as = [1, 2, 3, 4, 5].map((n) => serialize(a.key, site.url(`/p${n}`)));
    const b1 = await serialize(b.key, site.url('/p7'));
    const bMs = Date.now() - started;
    const answers = await Promise.all(as);
    assert.equal(b1.statusCode, 200, 'the other account is not held back');
    assert.ok(bMs < 1600, `the other account did not wait behind the first account's fetches (${bMs} ms)`);
    assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 200, 200, 200, 503]);
    const refused = answers.find((r) => r.statusCode === 503)!;
    assert.equal(refused.json().detail.error, 'fetch_capacity');
    assert.equal(refused.headers['retry-after'], '2');
    assert.equal(site.requests.length - before, 5, 'the refused request fetched nothing');
    const usage = (await s.request('GET', '/v1/usage', { key: a.key })).json().credits;
    assert.equal(usage.used_credit_units, '4.00');
    assert.equal(usage.reserved_credit_units, '0.00');
  });

  test('places come back after answers and errors: the account fetches up to its cap again', async () => {
    const a = await s.account({ credits: 10 });
    // Two that fail in the fetch: a target the address policy refuses, and an HTTP 500.
    const refusedTarget = await serialize(a.key, `http://127.0.0.1:${site.port + 1}/x`);
    assert.equal(refusedTarget.statusCode, 400);
    assert.equal(refusedTarget.json().detail.error, 'fetch_blocked');
    const broken = await serialize(a.key, site.url('/broken'));
    assert.equal(broken.statusCode, 200);
    assert.equal(broken.json().serialization.http_status, 500);
    assert.equal(broken.json().serialization.billing.billable, false);
    // Two answered, then two at once again: both within the cap.
    assert.deepEqual((await Promise.all([serialize(a.key, site.url('/p5')), serialize(a.key, site.url('/p6'))])).map((r) => r.statusCode), [200, 200]);
    assert.deepEqual((await Promise.all([serialize(a.key, site.url('/p1?again')), serialize(a.key, site.url('/p2?again'))])).map((r) => r.statusCode), [200, 200]);
  });

  test("an aborted fetch gives its account's place back; an account past its running cap waits, past its waiting cap is refused (the gate)", async () => {
    const gate = createFetchGate({ concurrency: 4, queue: 4, perAccount: 1 });
    const abort = new AbortController();
    const aborted = gate.run(
      () => new Promise((_, reject) => abort.signal.addEventListener('abort', () => reject(abort.signal.reason))),
      'acct_a',
    );
    assert.equal(gate.held('acct_a'), 1);
    const second = gate.run(async () => 'second', 'acct_a'); // waits: acct_a runs its one
    assert.equal(gate.waiting, 1);
    await assert.rejects(gate.run(async () => 'third', 'acct_a'), (err: any) => err.code === 'fetch_capacity');
    assert.equal(await gate.run(async () => 'other account', 'acct_b'), 'other account');
    abort.abort(new DOMException('aborted', 'AbortError'));
    await assert.rejects(aborted, (err: any) => err.name === 'AbortError');
    assert.equal(await second, 'second', 'the waiting fetch ran once the place came back');
    assert.equal(gate.held('acct_a'), 0);
    assert.equal(gate.active, 0);
    assert.equal(gate.waiting, 0);
    assert.equal(await gate.run(async () => 'again', 'acct_a'), 'again');
  });
});
