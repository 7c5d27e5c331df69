// NUL characters (U+0000) are refused at the edge with a 422 naming the field, on both databases:
// Postgres text cannot hold them (an insert failed with a 500), SQLite would store them silently.
// Body, query, path parameters and MCP tool arguments; nothing is charged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const base = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] };

describe('NUL bytes', () => {
  let s: TestServer;
  let key: string;
  let accountId: string;
  before(async () => {
    s = await startTestServer({}, { worker: false });
    ({ key, accountId } = await s.account({ credits: 50 }));
  });
  after(async () => s.close());

  const available = async () => (await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units;

  test('in any body field, nested too, and in object keys: 422 with the loc', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ ...base, target_entity: 'Ac\u0000me' }, ['body', 'target_entity']],
      [{ ...base, language: 'en\u0000' }, ['body', 'language']],
      [{ ...base, country: '\u0000' }, ['body', 'country']],
      [{ ...base, idempotency_key: 'k\u0000' }, ['body', 'idempotency_key']],
      [{ ...base, competitors: ['ok', 'Glo\u0000bex'] }, ['body', 'competitors', 1]],
      [{ ...base, models: { 'open\u0000ai': 'default' } }, ['body', 'models', 'open\u0000ai']],
    ];
    for (const [body, loc] of cases) {
      const res = await s.request('POST', '/v1/visibility/runs', { key, body });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().detail[0].loc, loc);
      assert.equal(res.json().detail[0].type, 'string_nul_byte');
    }
    const ci = await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'https://acme.example/\u0000' } });
    assert.equal(ci.statusCode, 422);
    assert.equal(await available(), '50.00');
  });

  test('in a path parameter and in query parameters: 422', async () => {
    const path = await s.request('GET', '/v1/visibility/runs/vis_%00', { key });
    assert.equal(path.statusCode, 422, path.body);
    assert.deepEqual(path.json().detail[0].loc, ['path', 'run_id']);
    const cursor = await s.request('GET', '/v1/visibility/runs?starting_after=%00', { key });
    assert.equal(cursor.statusCode, 422);
    assert.deepEqual(cursor.json().detail[0].loc, ['query', 'starting_after']);
    const byUrl = await s.request('GET', '/v1/reports/by-url?url=https://a.example/%00', { key });
    assert.equal(byUrl.statusCode, 422);
    // The requests were recorded (their paths are stored percent-encoded), and reads still work.
    const activity = await s.request('GET', '/v1/activity?limit=5', { key });
    assert.equal(activity.statusCode, 200);
    assert.ok(activity.json().items.some((i: { http_status: number }) => i.http_status === 422));
  });

  test('in MCP tool arguments: a 422-like tool error, nothing charged', async () => {
    const token = await s.key(accountId, { kind: 'mcp' });
    const res = await s.request('POST', '/mcp', {
      key: token,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_visibility_run', arguments: { ...base, target_entity: 'Ac\u0000me' } },
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const result = res.json().result;
    assert.equal(result.isError, true);
    const body = JSON.parse(result.content[0].text);
    assert.equal(body.error, 'validation_error');
    assert.deepEqual(body.detail[0].loc, ['arguments', 'target_entity']);
    assert.equal(await available(), '50.00');
  });
});
