// Every free-text input has a documented maximum (src/core/limits.ts, docs/api.md, "Input limits"),
// checked by the schema: one character over is a 422 naming the field, at the limit is accepted,
// and nothing is charged for a refused request. The MCP tools share the route schemas.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { INPUT_LIMITS } from '../../src/core/limits.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const L = INPUT_LIMITS;
const base = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] };
const longUrl = (n: number) => 'https://acme.example/' + 'p'.repeat(n - 'https://acme.example/'.length);

describe('input limits', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startTestServer({}, { worker: false });
    ({ key } = await s.account({ credits: 50 }));
  });
  after(async () => s.close());

  const post = (url: string, body: unknown) => s.request('POST', url, { key, body });
  const locOf = (res: { statusCode: number; body: string; json(): any }) => {
    assert.equal(res.statusCode, 422, res.body);
    return res.json().detail[0].loc;
  };

  test('visibility run fields: one over the limit is 422, at the limit is accepted', async () => {
    const over: [Record<string, unknown>, (string | number)[]][] = [
      [{ ...base, target_entity: 'a'.repeat(L.name + 1) }, ['body', 'target_entity']],
      [{ ...base, competitors: ['a'.repeat(L.name + 1)] }, ['body', 'competitors', 0]],
      [{ ...base, url: longUrl(L.url + 1) }, ['body', 'url']],
      [{ ...base, idempotency_key: 'k'.repeat(L.idempotencyKey + 1) }, ['body', 'idempotency_key']],
      [{ url: base.url, target_entity: 'Acme', probes: [{ prompt: 'q', platform: 'openai', target_entity: 'a'.repeat(L.name + 1) }] }, ['body', 'probes', 0, 'target_entity']],
      [{ ...base, models: { ['m'.repeat(L.model + 1)]: 'default' } }, ['body', 'models']],
    ];
    for (const [body, loc] of over) assert.deepEqual(locOf(await post('/v1/visibility/runs', body)).slice(0, loc.length), loc);
    const atLimit = await post('/v1/visibility/runs', {
      ...base,
      target_entity: 'a'.repeat(L.name),
      competitors: ['b'.repeat(L.name)],
      url: longUrl(L.url),
      idempotency_key: 'k'.repeat(L.idempotencyKey),
    });
    assert.equal(atLimit.statusCode, 200, atLimit.body);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.reserved_credit_units, atLimit.json().reserved_credits, 'only the accepted run reserved anything');
  });

  test('URLs, names and ids of the other endpoints', async () => {
    const before = (await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units;
    assert.deepEqual(locOf(await post('/v1/pages/content/serialize', { url: longUrl(L.url + 1) })), ['body', 'url']);
    assert.deepEqual(locOf(await post('/v1/content-intelligence/runs', { url: longUrl(L.url + 1) })), ['body', 'url']);
    assert.deepEqual(locOf(await post('/v1/content-intelligence/content/score', { url: base.url, industry: 'i'.repeat(L.name + 1) })), ['body', 'industry']);
    assert.deepEqual(locOf(await post('/v1/content-intelligence/content/score', { url: base.url, trends: ['t'.repeat(L.name + 1)] })).slice(0, 3), ['body', 'trends', 0]);
    assert.deepEqual(locOf(await post('/v1/visibility/prompts/suggest', { url: base.url, brand_name: 'b'.repeat(L.name + 1) })), ['body', 'brand_name']);
    assert.deepEqual(locOf(await s.request('GET', `/v1/visibility/runs/vis_${'x'.repeat(L.id)}`, { key })), ['path', 'run_id']);
    assert.deepEqual(locOf(await s.request('GET', `/v1/visibility/runs?starting_after=${'x'.repeat(L.id + 1)}`, { key })), ['query', 'starting_after']);
    assert.deepEqual(locOf(await s.request('GET', `/v1/reports/by-url?url=${encodeURIComponent(longUrl(L.url + 1))}`, { key })), ['query', 'url']);
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units, before);
  });
});
