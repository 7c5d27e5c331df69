// The MCP surface through a real MCP client over Streamable HTTP on a loopback port: tokens,
// scopes, tools that reach the same core as the HTTP API, and idempotency scoped per surface.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('MCP server', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer();
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  async function connect(token: string) {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    await client.connect(transport);
    return client;
  }
  const parse = (r: any) => JSON.parse(r.content[0].text);

  test('an MCP token lists the tools and runs a visibility run end to end', async () => {
    const { accountId, key } = await s.account({ credits: 20 });
    const token = await s.key(accountId, { kind: 'mcp' });
    const client = await connect(token);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['create_visibility_run', 'get_visibility_run', 'list_visibility_models', 'get_usage', 'serialize_page', 'suggest_prompts', 'score_content', 'discover_trends', 'create_content_intelligence_run', 'get_content_intelligence_run']) assert.ok(tools.includes(name), name);
    const created = parse(
      await client.callTool({
        name: 'create_visibility_run',
        arguments: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], idempotency_key: 'k1' },
      }),
    );
    assert.match(created.run_id, /^vis_/);
    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'completed');
    assert.equal(run.source, 'mcp');
    const read = parse(await client.callTool({ name: 'get_visibility_run', arguments: { run_id: created.run_id } }));
    assert.equal(read.status, 'completed');
    // The answer analysis reaches MCP as it reaches the HTTP read.
    assert.ok('sentiment' in read.summary && 'prominence' in read.summary && Array.isArray(read.summary.discovered_entities));
    const detailed = parse(await client.callTool({ name: 'get_visibility_run', arguments: { run_id: created.run_id, include_probes: true } }));
    assert.equal(detailed.probes[0].brands[0].role, 'target');
    assert.equal(detailed.probes[0].judge.engine, 'sandbox');
    // The same idempotency key over the HTTP API is a different access source: a new run.
    const http = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], idempotency_key: 'k1' },
    });
    assert.notEqual(http.json().run_id, created.run_id);
    const replay = parse(
      await client.callTool({
        name: 'create_visibility_run',
        arguments: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], idempotency_key: 'k1' },
      }),
    );
    assert.equal(replay.run_id, created.run_id);
    const activity = (await s.request('GET', '/v1/activity', { key })).json().items;
    assert.ok(activity.some((i: any) => i.source === 'mcp' && i.action === 'visibility.runs.create'));
    await client.close();
  });

  test('tool errors come back as structured tool errors; nothing is charged', async () => {
    const { accountId } = await s.account({ credits: 1 });
    const client = await connect(await s.key(accountId, { kind: 'mcp' }));
    const res: any = await client.callTool({
      name: 'create_visibility_run',
      arguments: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['x'], platforms: ['claude'] },
    });
    assert.equal(res.isError, true);
    assert.equal(parse(res).error, 'insufficient_credits');
    const usage = parse(await client.callTool({ name: 'get_usage', arguments: {} }));
    assert.equal(usage.credits.available_credit_units, '1.00');
    await client.close();
  });

  test('API keys and missing tokens are refused; a read-only token sees only read tools', async () => {
    const { accountId, key } = await s.account();
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
    assert.equal((await fetch(`${base}/mcp`, { method: 'POST' })).status, 401);
    const ro = await connect(await s.key(accountId, { kind: 'mcp', readOnly: true }));
    const names = (await ro.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('get_usage'));
    assert.ok(!names.includes('create_visibility_run'));
    await ro.close();
  });
});
