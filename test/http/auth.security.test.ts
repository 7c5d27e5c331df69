// Authentication and authorization through the real server: every 401/403 path, revoked keys,
// suspended accounts, MCP tokens, and one account never seeing another's data.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { revokeKey, setAccountStatus, hashKey } from '../../src/core/accounts/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('authentication and scopes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('missing, malformed and unknown keys get 401 unauthorized', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic abc' }, { authorization: 'Bearer svc_api_live_short' }, { authorization: `Bearer svc_api_live_${'x'.repeat(40)}` }]) {
      const res = await s.request('GET', '/v1/usage', { headers });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().detail.error, 'unauthorized');
      assert.ok(res.headers['x-request-id']);
    }
  });

  test('an MCP token is refused by the HTTP API with mcp_token_not_allowed', async () => {
    const { accountId } = await s.account();
    const token = await s.key(accountId, { kind: 'mcp' });
    assert.ok(token.startsWith('svc_mcp_live_'));
    const res = await s.request('GET', '/v1/usage', { key: token });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().detail.error, 'mcp_token_not_allowed');
  });

  test('keys are stored hashed, never raw', async () => {
    const { key } = await s.account();
    const rows = await s.runtime.core.store.db.selectFrom('api_keys').selectAll().execute();
    assert.ok(rows.every((r) => !JSON.stringify(r).includes(key)));
    assert.ok(rows.some((r) => r.key_hash === hashKey(key)));
    assert.ok(key.length >= 'svc_api_live_'.length + 32);
  });

  test('a revoked key gets 401', async () => {
    const { accountId } = await s.account();
    const key = await s.key(accountId);
    assert.equal((await s.request('GET', '/v1/usage', { key })).statusCode, 200);
    const row = await s.runtime.core.store.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashKey(key)).executeTakeFirstOrThrow();
    await revokeKey(s.runtime.core.store.db, row.id);
    const res = await s.request('GET', '/v1/usage', { key });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().detail.error, 'unauthorized');
  });

  test('a suspended account gets 403 account_suspended, and works again when unsuspended', async () => {
    const { accountId, key } = await s.account();
    await setAccountStatus(s.runtime.core.store.db, accountId, 'suspended');
    const res = await s.request('GET', '/v1/usage', { key });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().detail.error, 'account_suspended');
    await setAccountStatus(s.runtime.core.store.db, accountId, 'active');
    assert.equal((await s.request('GET', '/v1/usage', { key })).statusCode, 200);
  });

  test('a read-only key reads but gets 403 missing_scope with required_scope on actions', async () => {
    const { accountId } = await s.account({ credits: 10 });
    const key = await s.key(accountId, { readOnly: true });
    assert.equal((await s.request('GET', '/v1/usage', { key })).statusCode, 200);
    assert.equal((await s.request('GET', '/v1/tests', { key })).statusCode, 200);
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] },
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json().detail.error, 'missing_scope');
    assert.equal(res.json().detail.required_scope, 'visibility:runs:create');
  });

  test('a custom-scoped key keeps exactly its scopes', async () => {
    const { accountId } = await s.account();
    const key = await s.key(accountId, { scopes: ['tests:read'] });
    assert.equal((await s.request('GET', '/v1/tests', { key })).statusCode, 200);
    const res = await s.request('GET', '/v1/usage', { key });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().detail.required_scope, 'runs:read');
  });

  test("one account never reads another account's run: 404", async () => {
    const a = await s.account({ credits: 50 });
    const b = await s.account({ credits: 50 });
    const created = await s.request('POST', '/v1/visibility/runs', {
      key: a.key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] },
    });
    assert.equal(created.statusCode, 200);
    const runId = created.json().run_id;
    const res = await s.request('GET', `/v1/visibility/runs/${runId}`, { key: b.key });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().detail.error, 'not_found');
    assert.equal((await s.request('POST', `/v1/visibility/runs/${runId}/cancel`, { key: b.key })).statusCode, 404);
    const list = await s.request('GET', '/v1/visibility/runs', { key: b.key });
    assert.equal(list.json().runs.length, 0);
    const cursor = await s.request('GET', `/v1/visibility/runs?starting_after=${runId}`, { key: b.key });
    assert.equal(cursor.statusCode, 400);
    assert.equal(cursor.json().detail.error, 'invalid_cursor');
    const tests = await s.request('GET', '/v1/tests', { key: b.key });
    assert.equal(tests.json().tests.length, 0);
  });
  test('one keep-alive connection that switches keys is answered for each key in turn (the digest kept per connection)', async () => {
    const a = await s.account({ credits: 3 });
    const b = await s.account({ credits: 7 });
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = s.app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (key: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/v1/usage', agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('socket', (socket) => sockets.add(socket));
        req.on('error', reject);
      });
    try {
      for (let i = 0; i < 3; i++) {
        assert.equal((await get(a.key)).body.credits.available_credit_units, '3.00');
        assert.equal((await get(b.key)).body.credits.available_credit_units, '7.00');
      }
      const forged = `${a.key.slice(0, -1)}${a.key.endsWith('x') ? 'y' : 'x'}`;
      assert.equal((await get(forged)).status, 401, 'a token one character off the previous one');
      assert.equal((await get(a.key)).status, 200);
      const row = await s.runtime.core.store.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashKey(a.key)).executeTakeFirstOrThrow();
      await revokeKey(s.runtime.core.store.db, row.id);
      assert.equal((await get(a.key)).status, 401, 'revoked while its connection stays open');
      assert.equal((await get(b.key)).status, 200);
      assert.equal(sockets.size, 1, 'every request went over the one connection');
    } finally {
      agent.destroy();
    }
  });
});
