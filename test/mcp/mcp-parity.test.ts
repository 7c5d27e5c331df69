// The MCP surface against the HTTP API it mirrors, through the real server on a loopback port:
// the tool catalog covers every route of every scope; arguments are the routes' own (clamped
// limits, trend objects, aliases, extraction_mode); failures carry the HTTP status, the HTTP
// error information and the HTTP request's id; the activity log records every request.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SCOPES } from '../../src/core/accounts/scopes.ts';
import { MCP_TOOLS } from '../../src/mcp/tools.ts';
import { MCP_BODY_LIMIT } from '../../src/mcp/server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from '../http/content-sites.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';

const ROUTES_DIR = fileURLToPath(new URL('../../src/operations/', import.meta.url));

/** Every route file's spec (the default export of each endpoint file), found on disk. */
async function httpRoutes(): Promise<{ method: string; url: string; scope: string | null; action: string }[]> {
  const files = readdirSync(ROUTES_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const specs = [];
  for (const f of files) {
    const spec = (await import(pathToFileURL(join(ROUTES_DIR, f)).href)).default;
    if (spec && typeof spec === 'object' && typeof spec.url === 'string' && typeof spec.action === 'string') specs.push(spec);
  }
  return specs;
}

describe('MCP parity with the HTTP API', () => {
  let s: TestServer;
  let base: string;
  let site: FixtureServer;
  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port},127.0.0.1:9` });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  async function connect(token: string) {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }
  /** One raw JSON-RPC POST (the server is stateless: no handshake needed), with its headers. */
  async function rpc(token: string, method: string, params?: unknown) {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return { status: res.status, requestId: res.headers.get('x-request-id'), body: (await res.json()) as any };
  }
  const call = async (token: string, name: string, args: unknown) => {
    const r = await rpc(token, 'tools/call', { name, arguments: args });
    return { ...r, isError: r.body.result.isError === true, result: JSON.parse(r.body.result.content[0].text) };
  };
  const activity = async (key: string) => (await s.request('GET', '/v1/activity?limit=100', { key })).json().items.filter((i: any) => i.source === 'mcp');

  test('every HTTP route of every scope has an MCP tool with its scope and action, listed to a token of that scope', async () => {
    const routes = await httpRoutes();
    assert.ok(routes.length >= 17, `found ${routes.length} routes`);
    const { accountId } = await s.account();
    for (const scope of SCOPES) {
      const client = await connect(await s.key(accountId, { kind: 'mcp', scopes: [scope] }));
      const listed = new Set((await client.listTools()).tools.map((t) => t.name));
      const ofScope = routes.filter((r) => r.scope === scope);
      assert.ok(ofScope.length > 0, scope);
      for (const route of ofScope) {
        const tool = MCP_TOOLS.find((t) => t.route.method === route.method && t.route.url === route.url);
        assert.ok(tool, `no MCP tool for ${route.method} ${route.url} (${scope})`);
        assert.equal(tool.scope, route.scope);
        assert.equal(tool.action, route.action);
        assert.ok(listed.has(tool.name), `${tool.name} not listed to a ${scope} token`);
      }
      for (const name of listed) {
        const t = MCP_TOOLS.find((x) => x.name === name)!;
        // A tool whose scope depends on its arguments (a tracked test's run kind) is listed to every scope that can use it.
        assert.ok(t.scope === scope || (t.scope === null && t.listedFor?.includes(scope)), `${name} listed to a ${scope} token`);
      }
      await client.close();
    }
    for (const name of ['list_tests', 'get_test', 'get_reports_by_url', 'list_activity', 'list_content_intelligence_runs']) {
      assert.ok(MCP_TOOLS.some((t) => t.name === name), name);
    }
  });

  test('a tool outside the token scopes is refused with missing_scope (403 in the activity log)', async () => {
    const { accountId, key } = await s.account();
    const token = await s.key(accountId, { kind: 'mcp', scopes: ['runs:read'] });
    const r = await call(token, 'serialize_page', { url: 'https://acme.example' });
    assert.equal(r.isError, true);
    assert.equal(r.result.error, 'missing_scope');
    assert.equal(r.result.required_scope, 'pages:content:serialize');
    // What to do next, for an agent: the scopes it has, and that only another token helps.
    assert.deepEqual(r.result.granted_scopes, ['runs:read']);
    assert.equal(
      r.result.message,
      "This endpoint requires the scope pages:content:serialize; this MCP token has runs:read. Retrying will not help: use an MCP token with pages:content:serialize (the account's owner makes one on the console's API keys page).",
    );
    const row = (await activity(key)).find((i: any) => i.action === 'pages.content.serialize');
    assert.equal(row.http_status, 403);
    // A token with the tool's scope, lacking what its arguments need: every missing scope named.
    const hooks = await s.key(accountId, { kind: 'mcp', scopes: ['webhooks:write', 'runs:read'] });
    const sub = await call(hooks, 'create_webhook', { url: 'https://hooks.example/x', events: ['run.completed', 'crawler.blocked', 'tracked_test.skipped'] });
    assert.equal(sub.result.error, 'missing_scope');
    assert.deepEqual(sub.result.missing_scopes, ['sites:read', 'tests:read']);
    assert.match(sub.result.message, /lacks sites:read \(crawler\.blocked\) and tests:read \(tracked_test\.skipped\)/);
  });

  test('failed calls record their real status; 5xx and unexpected errors carry the HTTP request id', async () => {
    const { accountId, key } = await s.account({ credits: 1 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const paid = await call(token, 'create_visibility_run', { url: 'https://acme.example', target_entity: 'Acme', prompts: ['x'], platforms: ['claude'] });
    assert.equal(paid.result.error, 'insufficient_credits');
    assert.equal(paid.result.request_id, undefined, 'a 4xx carries no request_id, as over HTTP');
    const missing = await call(token, 'get_visibility_run', { run_id: 'vis_nope' });
    assert.equal(missing.result.error, 'not_found');
    const failed = await call(token, 'serialize_page', { url: 'http://127.0.0.1:9/x' });
    assert.equal(failed.result.error, 'extraction_failed');
    assert.match(failed.requestId ?? '', /^req_/);
    assert.equal(failed.result.request_id, failed.requestId, 'the 500 names the x-request-id of its HTTP request');

    const content = s.runtime.core.content;
    const original = content.scoreContent;
    content.scoreContent = async () => {
      throw new Error('boom');
    };
    let crashed;
    try {
      crashed = await call(token, 'score_content', { url: 'https://acme.example', trends: ['pricing'] });
    } finally {
      content.scoreContent = original;
    }
    assert.deepEqual(crashed.result, { error: 'internal_error', message: 'Unexpected server error.', request_id: crashed.requestId });

    const rows = await activity(key);
    const row = (requestId: string | null) => rows.find((i: any) => i.request_id === requestId);
    assert.deepEqual([row(paid.requestId).http_status, row(paid.requestId).status, row(paid.requestId).action], [402, 'error', 'visibility.runs.create']);
    assert.equal(row(missing.requestId).http_status, 404);
    assert.equal(row(failed.requestId).http_status, 500);
    assert.equal(row(crashed.requestId).http_status, 500);
  });

  test('arguments at the schema limits fit in one call: 1 MiB of log lines, 2,000 prompts of 500 non-Latin characters', async () => {
    const { accountId } = await s.account({ credits: 10 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const tools = (await rpc(token, 'tools/list')).body.result.tools;
    const max = tools.find((t: any) => t.name === 'upload_site_logs').inputSchema.properties.lines.maxLength;
    assert.equal(max, 1024 * 1024);
    const site = (await call(token, 'create_site', { domain: 'acme.example' })).result;
    // Quotes are escaped in JSON, "é" is 2 bytes of UTF-8: 1 MiB of such lines is about 1.1 MiB of JSON.
    const line = '203.0.113.9 - - [29/Nov/2026:03:48:26 +0000] "GET /café HTTP/1.1" 200 5 "https://chatgpt.com/" "Mozilla/5.0 (Macintosh) Safari/605"\n';
    const lines = line.repeat(Math.ceil(max / line.length)).slice(0, max);
    const uploaded = await call(token, 'upload_site_logs', { site_id: site.id, lines });
    assert.equal(uploaded.status, 200);
    assert.equal(uploaded.isError, false, JSON.stringify(uploaded.result));
    assert.equal(uploaded.result.lines, Math.ceil(max / line.length));
    const over = await call(token, 'upload_site_logs', { site_id: site.id, lines: `${lines}x` });
    assert.equal(over.result.error, 'validation_error');
    assert.equal(over.result.detail[0].type, 'too_big');
    const prompts = Array.from({ length: 2000 }, (_, i) => `${i} ${'日本の最高のプロジェクト管理ツールは'.repeat(30)}`.slice(0, 500));
    const quote = await call(token, 'estimate_visibility_run', { url: 'https://acme.example', target_entity: 'Acme', prompts, platforms: ['deepseek'] });
    assert.equal(quote.isError, false, JSON.stringify(quote.result));
    assert.equal(quote.result.probe_count, 2000);
    // A body past the limit is still refused before it is read whole, saying the limit.
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_usage', arguments: { pad: 'x'.repeat(MCP_BODY_LIMIT) } } }),
    });
    assert.equal(res.status, 413);
    // The limit is the largest route's (score_content's draft HTML) plus room for the envelope.
    assert.equal(MCP_BODY_LIMIT, 12 * 1024 * 1024);
    assert.deepEqual(((await res.json()) as any).detail, { error: 'payload_too_large', message: 'The request body is larger than 12 MiB.' });
  });

  test('argument problems are validation errors with the HTTP 422 information; limits are clamped like HTTP', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const trends = Array.from({ length: 51 }, (_, i) => `t${i}`);
    const http = (await s.request('POST', '/v1/content-intelligence/content/score', { key, body: { url: 'https://acme.example', trends } })).json();
    for (const name of ['score_content', 'create_content_intelligence_run']) {
      const r = await call(token, name, { url: 'https://acme.example', trends });
      assert.equal(r.isError, true);
      assert.equal(r.result.error, 'validation_error', name);
      assert.deepEqual(r.result.detail, [{ loc: ['arguments', 'trends'], msg: http.detail[0].msg, type: http.detail[0].type }]);
    }
    const tooLong = await call(token, 'suggest_prompts', { url: 'https://acme.example', brand_name: 'x'.repeat(301) });
    assert.equal(tooLong.result.error, 'validation_error');
    assert.deepEqual(tooLong.result.detail[0].loc, ['arguments', 'brand_name']);
    const maxChars = await call(token, 'serialize_page', { url: 'https://acme.example', max_chars: 25001 });
    assert.deepEqual(maxChars.result.detail[0].loc, ['arguments', 'max_chars']);
    const rows = await activity(key);
    assert.equal(rows.find((i: any) => i.request_id === tooLong.requestId).http_status, 422);

    // Out-of-range limits are clamped, never errors.
    for (const [name, args] of [
      ['list_visibility_runs', { limit: 500 }],
      ['list_content_intelligence_runs', { limit: 0 }],
      ['get_usage', { recent_limit: 0 }],
      ['list_activity', { limit: 1000 }],
      ['list_tests', { limit: 999 }],
      ['get_reports_by_url', { url: 'https://acme.example', limit: 99, days: 99999 }],
    ] as const) {
      const r = await call(token, name, args);
      assert.equal(r.isError, false, `${name}: ${JSON.stringify(r.result)}`);
    }
    const limited = await call(token, 'list_activity', { limit: 1 });
    assert.equal(limited.result.items.length, 1);
    const badFilter = await call(token, 'list_tests', { test_type: 'nope' });
    assert.equal(badFilter.result.error, 'invalid_filter');
    assert.equal((await activity(key)).find((i: any) => i.request_id === badFilter.requestId).http_status, 400);
  });

  test('no tool takes bom, which shapes only the bytes of an HTTP CSV file (tools answer JSON): a call with it is refused', async () => {
    const { accountId } = await s.account({ credits: 10 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const tools = (await rpc(token, 'tools/list')).body.result.tools as { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    for (const name of ['export_visibility_run', 'get_test_history']) assert.ok(tools.some((t) => t.name === name), name);
    assert.deepEqual(tools.filter((t) => 'bom' in (t.inputSchema.properties ?? {})).map((t) => t.name), []);
    const r = await call(token, 'export_visibility_run', { run_id: 'vis_missing', bom: true });
    assert.equal(r.isError, true);
    assert.deepEqual([r.result.error, r.result.detail[0].loc, r.result.detail[0].type], ['validation_error', ['arguments', 'bom'], 'extra_forbidden']);
  });

  test('discover_trends output feeds score_content; suggest_prompts takes target_entity; extraction_mode reaches the core', async () => {
    const { accountId } = await s.account({ credits: 20 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const page = site.url('/blog/project-management-guide');
    const discovered = await call(token, 'discover_trends', { url: page, max_trends: 3 });
    assert.equal(discovered.isError, false, JSON.stringify(discovered.result));
    const trends = discovered.result.trends;
    assert.ok(trends.length > 0 && typeof trends[0] === 'object');
    const scored = await call(token, 'score_content', { url: page, trends });
    assert.equal(scored.isError, false, JSON.stringify(scored.result));
    assert.equal(scored.result.trend_source, 'supplied');
    assert.deepEqual(scored.result.trend_coverage.map((c: any) => c.trend), trends.map((t: any) => t.name));

    const suggested = await call(token, 'suggest_prompts', { url: page, target_entity: 'Zed Brand', count: 3 });
    assert.equal(suggested.isError, false, JSON.stringify(suggested.result));
    assert.equal(suggested.result.brand, 'Zed Brand');

    const mode = await call(token, 'score_content', { url: page, extraction_mode: 'bogus', trends: ['x'] });
    assert.equal(mode.result.error, 'unsupported_extraction_mode');
  });

  test('every authenticated POST /mcp is recorded under the id in its x-request-id header', async () => {
    const { accountId, key } = await s.account();
    const token = await s.key(accountId, { kind: 'mcp' });
    const client = await connect(token);
    await client.listTools();
    await client.close();
    const listed = await rpc(token, 'tools/list');
    assert.equal(listed.status, 200);
    assert.match(listed.requestId ?? '', /^req_/);
    const rows = await activity(key);
    const actions = rows.map((i: any) => i.action);
    for (const a of ['mcp.initialize', 'mcp.notifications_initialized', 'mcp.tools_list']) assert.ok(actions.includes(a), a);
    const row = rows.find((i: any) => i.request_id === listed.requestId);
    assert.deepEqual([row.action, row.http_status, row.status, row.method, row.path], ['mcp.tools_list', 200, 'ok', 'MCP', '/mcp']);
    assert.equal(rows.find((i: any) => i.action === 'mcp.notifications_initialized').http_status, 202);
    // Protocol rows are not data reads.
    const reads = (await s.request('GET', '/v1/activity?limit=100&kind=reads', { key })).json().items;
    assert.ok(!reads.some((i: any) => i.action.startsWith('mcp.')));
  });
});

describe('MCP tokens share the per-key rate limit', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_RATE_LIMIT_PER_MINUTE: '3' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  const post = (token: string, id: number) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_usage', arguments: {} } }),
    });

  test('RateLimit-* on every response, then 429 rate_limited with Retry-After; last use of the token recorded', async () => {
    const { accountId, key } = await s.account();
    const token = await s.key(accountId, { kind: 'mcp' });
    for (let i = 1; i <= 3; i++) {
      const res = await post(token, i);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-limit'), '3');
      assert.equal(res.headers.get('ratelimit-remaining'), String(3 - i));
      assert.ok(res.headers.get('ratelimit-reset'));
      assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
      await res.json();
    }
    const refused = await post(token, 4);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    const body = await refused.json();
    assert.equal(body.detail.error, 'rate_limited');
    assert.equal(body.detail.retry_after_seconds, Number(refused.headers.get('retry-after')));

    // The HTTP API key of the same account has its own allowance; the refusal is in the log.
    const items = (await s.request('GET', '/v1/activity', { key })).json().items;
    const row = items.find((i: any) => i.request_id === refused.headers.get('x-request-id'));
    assert.deepEqual([row.action, row.http_status, row.status], ['usage.read', 429, 'error']);
    const keyRow = await s.runtime.core.store.db.selectFrom('api_keys').select('last_used_at').where('account_id', '=', accountId).where('kind', '=', 'mcp').executeTakeFirstOrThrow();
    assert.ok(keyRow.last_used_at, 'touchKey recorded the token use');
  });
});

describe('MCP batches: one rate-limit point per message, at most 20, calls one at a time', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_RATE_LIMIT_PER_MINUTE: '30' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_usage', arguments: {} } });
  const post = (token: string, body: unknown) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
  const batchOf = (n: number, from = 0) => Array.from({ length: n }, (_, i) => call(from + i + 1));

  test('a batch is charged per message, all or none; over 20 is refused; tools run one after another', async () => {
    const { accountId } = await s.account();
    const token = await s.key(accountId, { kind: 'mcp' });
    // Count how many tool runs overlap (the server runs in this process).
    const tool = MCP_TOOLS.find((t) => t.name === 'get_usage')!;
    const original = tool.run;
    let running = 0;
    let most = 0;
    tool.run = (async (...args: Parameters<typeof original>) => {
      running++;
      most = Math.max(most, running);
      try {
        await new Promise((r) => setTimeout(r, 5));
        return await original(...args);
      } finally {
        running--;
      }
    }) as typeof original;
    try {
      const first = await post(token, batchOf(20));
      assert.equal(first.status, 200);
      const answers = await first.json();
      assert.equal(answers.length, 20);
      assert.ok(answers.every((a: any) => a.result && !a.result.isError));
      assert.equal(first.headers.get('ratelimit-remaining'), '10', '20 messages took 20 of 30 points');
      assert.equal(most, 1, 'the batch ran its calls one at a time');

      const tooBig = await post(token, batchOf(21));
      assert.equal(tooBig.status, 400);
      const refusedBody = await tooBig.json();
      assert.equal(refusedBody.error.code, -32600);
      assert.match(refusedBody.error.message, /at most 20 messages/);
      assert.equal(tooBig.headers.get('ratelimit-remaining'), '9', 'an oversized batch costs one point');

      // 10 messages with 9 left: refused whole, in the API's 429 shape, and nothing taken.
      const over = await post(token, batchOf(10));
      assert.equal(over.status, 429);
      assert.equal(over.headers.get('ratelimit-remaining'), '9');
      assert.ok(Number(over.headers.get('retry-after')) > 0);
      const overBody = await over.json();
      assert.equal(overBody.detail.error, 'rate_limited');
      assert.match(overBody.detail.message, /batch of 10 messages counts as 10 requests; 9 of the rate limit of 30/);
      assert.equal(overBody.detail.retry_after_seconds, Number(over.headers.get('retry-after')));

      const fits = await post(token, batchOf(9));
      assert.equal(fits.status, 200);
      assert.equal((await fits.json()).length, 9);
      assert.equal(fits.headers.get('ratelimit-remaining'), '0');
      const single = await post(token, call(99));
      assert.equal(single.status, 429);
      await single.json();
    } finally {
      tool.run = original;
    }
  });
});
