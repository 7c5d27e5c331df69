// A method a path does not have is 405 method_not_allowed with Allow, in the API's error shape,
// on /v1, /console/api and /mcp; a path that no route has stays 404 not_found.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('405 method_not_allowed', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startTestServer({}, { worker: false });
    ({ key } = await s.account({ credits: 1 }));
  });
  after(async () => s.close());

  test('DELETE /v1/usage: 405 with Allow, in the error shape, with or without a key', async () => {
    for (const k of [key, undefined]) {
      const res = await s.request('DELETE', '/v1/usage', { key: k });
      assert.equal(res.statusCode, 405, res.body);
      assert.equal(res.headers.allow, 'GET, HEAD');
      assert.equal(res.json().detail.error, 'method_not_allowed');
      assert.match(res.json().detail.message, /DELETE is not allowed on \/v1\/usage/);
      assert.ok(res.headers['x-request-id']);
    }
  });

  test('a path with a parameter, a query string, the console API and /mcp', async () => {
    const put = await s.request('PUT', '/v1/visibility/runs/vis_123?x=1', { key });
    assert.equal(put.statusCode, 405);
    assert.equal(put.headers.allow, 'GET, HEAD');
    const post = await s.request('POST', '/v1/usage', { key, body: {} });
    assert.equal(post.statusCode, 405);
    const signIn = await s.request('GET', '/console/api/sign-in');
    assert.equal(signIn.statusCode, 405);
    assert.equal(signIn.headers.allow, 'POST');
    const mcp = await s.request('GET', '/mcp');
    assert.equal(mcp.statusCode, 405);
    assert.equal(mcp.headers.allow, 'POST');
    assert.equal(mcp.json().detail.error, 'method_not_allowed');
  });

  test('unknown paths stay 404; the console page still answers any path under /console', async () => {
    for (const [method, url] of [['GET', '/v1/nope'], ['DELETE', '/v1/usage/extra'], ['POST', '/console/api/nope'], ['GET', '/nowhere']] as const) {
      const res = await s.request(method, url, { key });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
      assert.equal(res.json().detail.error, 'not_found');
      assert.equal(res.headers.allow, undefined);
    }
    assert.equal((await s.request('GET', '/console/keys')).statusCode, 200);
  });

  test('the OpenAPI document says so', async () => {
    const doc = (await s.request('GET', '/openapi.json')).json();
    assert.match(doc.info.description, /405 `method_not_allowed` with an `Allow` header/);
  });
});
