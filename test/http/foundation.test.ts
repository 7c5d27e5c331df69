// The service foundation through the real server: error shapes, limits, usage, activity,
// rate limits, OpenAPI, health, and the credit ledger under concurrency.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runPaidAction } from '../../src/core/billing/actions.ts';
import { getBalance, ledgerBalance, totalsAndLedger } from '../../src/core/billing/ledger.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const TWO_PLACES = /^-?\d+\.\d{2}$/;

describe('foundation', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('health and readiness need no key', async () => {
    assert.deepEqual((await s.request('GET', '/healthz')).json(), { status: 'ok' });
    const ready = await s.request('GET', '/readyz');
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().status, 'ready');
  });

  test('unknown routes are 404 in the error shape, with a request id', async () => {
    const res = await s.request('GET', '/v1/nope');
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().detail.error, 'not_found');
    assert.match(String(res.headers['x-request-id']), /^req_/);
  });

  test('usage shows the balance with two decimals and the ledger newest first', async () => {
    const { key } = await s.account({ credits: 12.5 });
    const res = await s.request('GET', '/v1/usage', { key });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.credits.available_credit_units, '12.50');
    assert.equal(body.credits.reserved_credit_units, '0.00');
    assert.equal(body.credits.used_credit_units, '0.00');
    assert.equal(body.credits.active_grant_count, 1);
    assert.equal(body.recent.length, 1);
    assert.equal(body.recent[0].status, 'granted');
    for (const v of Object.values(body.credits).filter((v) => typeof v === 'string')) assert.match(v as string, TWO_PLACES);
  });

  test('list limits clamp silently and a non-numeric limit is 422 with loc', async () => {
    const { key } = await s.account();
    for (const q of ['recent_limit=0', 'recent_limit=1000', 'recent_limit=-5', 'recent_limit=1e20', 'recent_limit=-1e20']) {
      assert.equal((await s.request('GET', `/v1/usage?${q}`, { key })).statusCode, 200);
    }
    const empty = (await s.request('GET', '/v1/usage', { key })).json();
    assert.deepEqual(empty.recent, [], 'an account without ledger rows has an empty ledger');
    assert.equal(empty.credits.available_credit_units, '0.00');
    assert.equal(empty.credits.active_grant_count, 0);
    const bad = await s.request('GET', '/v1/usage?recent_limit=abc', { key });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc, ['query', 'recent_limit']);
    const act = await s.request('GET', '/v1/activity?limit=abc', { key });
    assert.equal(act.statusCode, 422);
    assert.equal((await s.request('GET', '/v1/activity?limit=500', { key })).statusCode, 200);
    assert.equal((await s.request('GET', '/v1/activity?limit=2.5', { key })).statusCode, 422, 'not a whole number');
  });

  test('malformed JSON is 422, a missing required field is 422 with its loc, oversized bodies are 413', async () => {
    const { key } = await s.account({ credits: 5 });
    const malformed = await s.request('POST', '/v1/visibility/runs', {
      key,
      headers: { 'content-type': 'application/json' },
      body: '{"url": ',
    });
    assert.equal(malformed.statusCode, 422);
    assert.deepEqual(malformed.json().detail[0].loc, ['body']);
    const missing = await s.request('POST', '/v1/visibility/runs', { key, body: { target_entity: 'Acme', prompts: ['x'], platforms: ['openai'] } });
    assert.equal(missing.statusCode, 422);
    assert.deepEqual(missing.json().detail[0].loc, ['body', 'url']);
    const big = await s.request('POST', '/v1/visibility/runs', {
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://a.example', target_entity: 'A', prompts: ['x'.repeat(1024 * 1024)], platforms: ['openai'] }),
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().detail.error, 'payload_too_large');
    const usage = await s.request('GET', '/v1/usage', { key });
    assert.equal(usage.json().credits.available_credit_units, '5.00', 'rejected requests spend nothing');
  });

  test('activity records every authenticated request with action, status, credits and key prefix', async () => {
    const { key } = await s.account({ credits: 5 });
    await s.request('GET', '/v1/usage', { key });
    await s.request('GET', '/v1/visibility/runs/vis_missing', { key });
    await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['deepseek'] },
    });
    const res = await s.request('GET', '/v1/activity', { key });
    const items = res.json().items;
    assert.equal(items[0].action, 'visibility.runs.create');
    assert.equal(items[0].credits, '1.00');
    assert.equal(items[0].http_status, 200);
    assert.equal(items[1].action, 'visibility.runs.read');
    assert.equal(items[1].http_status, 404);
    assert.equal(items[1].status, 'error');
    assert.equal(items[2].action, 'usage.read');
    assert.ok(key.startsWith(items[2].key_prefix));
    assert.match(items[2].request_id, /^req_/);
    // Enough requests at once to be written in multi-row chunks as well as single rows.
    await Promise.all(Array.from({ length: 120 }, () => s.request('GET', '/v1/usage?recent_limit=1', { key })));
    const many = (await s.request('GET', '/v1/activity?limit=100', { key })).json().items;
    assert.equal(many.length, 100);
    assert.ok(many.every((i: { action: string; request_id: string }) => i.action && i.request_id.startsWith('req_')));
    assert.equal(new Set(many.map((i: { id: string }) => i.id)).size, 100);
    const vis = (await s.request('GET', '/v1/activity?kind=visibility', { key })).json().items;
    assert.ok(vis.every((i: { action: string }) => i.action.startsWith('visibility.')));
    const reads = (await s.request('GET', '/v1/activity?kind=reads', { key })).json().items;
    assert.ok(reads.length >= 2 && reads.every((i: { action: string }) => !i.action.endsWith('.create')));
    // actions: the complement of reads.
    const actions = (await s.request('GET', '/v1/activity?kind=actions&limit=100', { key })).json().items;
    assert.ok(actions.length >= 1 && actions.some((i: { action: string }) => i.action.endsWith('.create')));
    assert.ok(actions.every((i: { action: string }) => !/\.(read|list)$/.test(i.action)), JSON.stringify(actions.map((i: { action: string }) => i.action)));
  });

  test('OpenAPI 3.1 document lists every route with its error statuses; /docs renders', async () => {
    const doc = (await s.request('GET', '/openapi.json')).json();
    assert.equal(doc.openapi, '3.1.0');
    const create = doc.paths['/v1/visibility/runs'].post;
    for (const status of ['200', '400', '401', '402', '403', '413', '422', '429']) assert.ok(create.responses[status], `create documents ${status}`);
    for (const p of ['/v1/usage', '/v1/activity', '/v1/tests', '/v1/tests/{test_id}', '/v1/reports/by-url', '/v1/visibility/models', '/v1/visibility/runs/{run_id}', '/v1/visibility/runs/{run_id}/cancel']) {
      assert.ok(doc.paths[p], `documents ${p}`);
    }
    // Every route documents the statuses it can answer beyond its own: 500 always, 422 where it
    // reads a query, 413/415/422 where it takes a body; /readyz its 503.
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { in: string }[] }>>)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.responses['500'], `${method} ${path} documents 500`);
        if (method === 'post') for (const st of ['413', '415', '422']) assert.ok(op.responses[st], `${method} ${path} documents ${st}`);
        if (op.parameters?.some((p) => p.in === 'query')) assert.ok(op.responses['422'], `${method} ${path} documents 422`);
      }
    }
    assert.ok(doc.paths['/readyz'].get.responses['503'], '/readyz documents 503');
    const docs = await s.request('GET', '/docs/');
    assert.ok([200, 302].includes(docs.statusCode));
  });

  test('50 concurrent paid actions against a balance that fits 15: exactly 15 charged, never negative', async () => {
    const { accountId } = await s.account({ credits: 15 });
    const store = s.runtime.core.store;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        runPaidAction(store, { accountId, source: 'api', requestId: `req_c${i}`, credits: 0 }, 'test.action', 100, async () => {
          await new Promise((r) => setTimeout(r, 5));
          return { result: i, billable: true };
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'insufficient_credits').length;
    assert.equal(ok, 15);
    assert.equal(refused, 35);
    const balance = await getBalance(store.db, accountId);
    assert.deepEqual(balance, await ledgerBalance(store.db, accountId), 'the running totals equal the sums over the ledger rows');
    assert.equal(balance.available, 0);
    assert.equal(balance.settled, 1500);
    assert.equal(balance.reserved, 0);
  });

  test('50 concurrent run creations over HTTP never overspend', async () => {
    const { key, accountId } = await s.account({ credits: 31 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        s.request('POST', '/v1/visibility/runs', {
          key,
          body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['[[sandbox:delay=50]] best crm'], platforms: ['openai'] },
        }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    const paymentRequired = responses.filter((r) => r.statusCode === 402);
    assert.equal(ok.length, 15, 'openai default costs 2.00: 15 fit in 31.00');
    assert.equal(paymentRequired.length, 35);
    assert.equal(paymentRequired[0].json().detail.error, 'insufficient_credits');
    assert.equal(paymentRequired[0].json().detail.available_credits, '1.00');
    // The worker settles these runs meanwhile: totals and rows are read in one statement.
    const { totals: balance, ledger } = await totalsAndLedger(s.runtime.core.store.db, accountId);
    assert.deepEqual(balance, ledger, 'the running totals equal the sums over the ledger rows');
    assert.ok(balance.available >= 0);
    assert.equal(balance.available + balance.reserved + balance.settled, balance.granted);
    assert.equal(balance.reserved + balance.settled, 3000);
  });
});

describe('rate limits', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_RATE_LIMIT_PER_MINUTE: '3' });
  });
  after(async () => s.close());

  test('the fourth request in a minute gets 429 with Retry-After and RateLimit headers; other keys are unaffected', async () => {
    const { key, accountId } = await s.account();
    for (let i = 0; i < 3; i++) {
      const ok = await s.request('GET', '/v1/usage', { key });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.headers['ratelimit-limit'], '3');
      assert.equal(ok.headers['ratelimit-remaining'], String(2 - i));
    }
    const limited = await s.request('GET', '/v1/usage', { key });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().detail.error, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    const other = await s.key(accountId);
    assert.equal((await s.request('GET', '/v1/usage', { key: other })).statusCode, 200);
  });
});
