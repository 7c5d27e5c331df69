// Authentication and scopes of the five Content Intelligence endpoints: 401 without or with a bad
// key (and for MCP tokens), 403 for a key lacking the endpoint's scope and for a suspended
// account, and in every refused case no fetch, no reservation and no run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setAccountStatus } from '../../src/core/accounts/accounts.ts';
import type { Scope } from '../../src/core/accounts/scopes.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

/**
 * The fixture site's request count once no request has arrived for half a second: runs queued by
 * an earlier test may still be fetching in the worker, and their requests are not this test's.
 */
async function quietRequestCount(site: FixtureServer): Promise<number> {
  for (let n = -1; ; ) {
    if (n === site.requests.length) return n;
    n = site.requests.length;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('Content Intelligence endpoints (security)', () => {
  let site: FixtureServer;
  let s: TestServer;
  let GUIDE: string;

  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    GUIDE = site.url('/blog/project-management-guide');
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  const endpoints = (runId: string): { method: string; path: string; scope: Scope; body?: unknown }[] => [
    { method: 'POST', path: '/v1/content-intelligence/trends/discover', scope: 'content_intelligence:trends:discover', body: { url: GUIDE } },
    { method: 'POST', path: '/v1/content-intelligence/content/score', scope: 'content_intelligence:content:score', body: { url: GUIDE } },
    { method: 'POST', path: '/v1/content-intelligence/runs', scope: 'content_intelligence:runs:create', body: { url: GUIDE } },
    { method: 'GET', path: '/v1/content-intelligence/runs', scope: 'runs:read' },
    { method: 'GET', path: `/v1/content-intelligence/runs/${runId}?include_result=true`, scope: 'runs:read' },
  ];

  test('401 without a key, with a malformed or unknown key, and with an MCP token; nothing fetched or reserved', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const mcp = await s.key(accountId, { kind: 'mcp' });
    const before = await quietRequestCount(site);
    for (const ep of endpoints('ci_anything')) {
      const anon = await s.request(ep.method, ep.path, { body: ep.body });
      assert.equal(anon.statusCode, 401, `${ep.path} ${anon.body}`);
      assert.equal(anon.json().detail.error, 'unauthorized');
      for (const bad of ['svc_api_live_' + 'x'.repeat(40), 'not-a-key']) {
        const res = await s.request(ep.method, ep.path, { key: bad, body: ep.body });
        assert.equal(res.statusCode, 401, `${ep.path} ${res.body}`);
      }
      const res = await s.request(ep.method, ep.path, { key: mcp, body: ep.body });
      assert.equal(res.statusCode, 401, `${ep.path} ${res.body}`);
      assert.equal(res.json().detail.error, 'mcp_token_not_allowed');
    }
    assert.equal(site.requests.length, before);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '10.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
  });

  test('403 missing_scope for a key without the endpoint scope (read-only and narrow keys); the right scope alone is enough', async () => {
    const { accountId, key: full } = await s.account({ credits: 20 });
    const run = (await s.request('POST', '/v1/content-intelligence/runs', { key: full, body: { url: GUIDE } })).json();
    await s.waitForRun(full, run.run_id);
    const readOnly = await s.key(accountId, { readOnly: true });
    const serializeOnly = await s.key(accountId, { scopes: ['pages:content:serialize'] });
    const before = await quietRequestCount(site);
    const runsBefore = (await s.request('GET', '/v1/content-intelligence/runs', { key: full })).json().runs.length;
    const usedBefore = (await s.request('GET', '/v1/usage', { key: full })).json().credits.used_credit_units;
    for (const ep of endpoints(run.run_id)) {
      const keys = ep.scope === 'runs:read' ? [serializeOnly] : [readOnly, serializeOnly];
      for (const key of keys) {
        const res = await s.request(ep.method, ep.path, { key, body: ep.body });
        assert.equal(res.statusCode, 403, `${ep.path} ${res.body}`);
        assert.equal(res.json().detail.error, 'missing_scope');
        assert.equal(res.json().detail.required_scope, ep.scope);
      }
    }
    assert.equal(site.requests.length, before, 'nothing fetched for refused requests');
    assert.equal((await s.request('GET', '/v1/content-intelligence/runs', { key: full })).json().runs.length, runsBefore);
    assert.equal((await s.request('GET', '/v1/usage', { key: full })).json().credits.used_credit_units, usedBefore);
    for (const ep of endpoints(run.run_id)) {
      const only = await s.key(accountId, { scopes: [ep.scope] });
      const res = await s.request(ep.method, ep.path, { key: only, body: ep.body });
      assert.equal(res.statusCode, 200, `${ep.path} with only ${ep.scope}: ${res.body}`);
    }
  });

  test('403 account_suspended for every endpoint; nothing fetched or reserved', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    await setAccountStatus(s.runtime.core.store.db, accountId, 'suspended');
    const before = await quietRequestCount(site);
    for (const ep of endpoints('ci_anything')) {
      const res = await s.request(ep.method, ep.path, { key, body: ep.body });
      assert.equal(res.statusCode, 403, `${ep.path} ${res.body}`);
      assert.equal(res.json().detail.error, 'account_suspended');
    }
    assert.equal(site.requests.length, before);
    await setAccountStatus(s.runtime.core.store.db, accountId, 'active');
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '10.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
  });
});
