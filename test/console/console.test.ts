// The web console page is served, and requests it makes are recorded as the console surface.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('web console', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('serves the console page with a strict content security policy', async () => {
    const res = await s.request('GET', '/console');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(res.body, /sightline console/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
    assert.equal((await s.request('GET', '/')).statusCode, 302);
  });

  test('console requests are recorded with access source console and scope idempotency apart from the API', async () => {
    const { key } = await s.account({ credits: 10 });
    const body = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], idempotency_key: 'same' };
    const fromConsole = await s.request('POST', '/v1/visibility/runs', { key, body, headers: { 'x-sightline-surface': 'console' } });
    const fromApi = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.notEqual(fromConsole.json().run_id, fromApi.json().run_id);
    const run = (await s.request('GET', `/v1/visibility/runs/${fromConsole.json().run_id}`, { key })).json();
    assert.equal(run.source, 'console');
    const items = (await s.request('GET', '/v1/activity?kind=visibility', { key })).json().items;
    assert.deepEqual(items.slice(0, 3).map((i: any) => i.source), ['api', 'api', 'console']);
  });
});
