// Tracked tests through MCP (a real MCP client over Streamable HTTP): create with a schedule,
// update, run now, history and export, with the scope rules of the run kind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('MCP tracking tools', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  async function connect(token: string) {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }
  const parse = (r: any) => JSON.parse(r.content[0].text);

  test('an agent tracks a brand: create, pause, run now, read history, export', async () => {
    const { accountId, key } = await s.account({ credits: 50 });
    const client = await connect(await s.key(accountId, { kind: 'mcp' }));
    const definition = { url: 'https://anvils.example/', target_entity: 'Anvilco', prompts: ['best anvils'], platforms: ['deepseek'], repeats: 3 };
    const t = parse(await client.callTool({ name: 'create_tracked_test', arguments: { test_type: 'ai_citations', definition, schedule: { cron: '0 9 * * 1-5', timezone: 'America/New_York' } } }));
    assert.match(t.id, /^test_/);
    assert.deepEqual(t.schedule, { cron: '0 9 * * 1-5', timezone: 'America/New_York' });
    const paused = parse(await client.callTool({ name: 'update_tracked_test', arguments: { test_id: t.id, paused: true } }));
    assert.equal(paused.paused, true);
    const run = parse(await client.callTool({ name: 'run_tracked_test', arguments: { test_id: t.id } }));
    assert.equal(run.test_id, t.id);
    assert.equal(run.probe_count, 3);
    await s.waitForRun(key, run.run_id);
    const history = parse(await client.callTool({ name: 'get_test_history', arguments: { test_id: t.id, window: '7d' } }));
    assert.equal(history.points.length, 1);
    assert.equal(history.points[0].probe_count, 3);
    assert.equal(history.points[0].mention_rate_ci.method, 'wilson');
    // A point pooled from sandbox runs says so, as each run does.
    assert.equal(history.points[0].engine, 'sandbox');
    const exported = parse(await client.callTool({ name: 'export_visibility_run', arguments: { run_id: run.run_id } }));
    assert.equal(exported.rows.length, 3);
    assert.deepEqual(exported.rows.map((r: any) => r.repeat), [1, 2, 3]);
    assert.equal(exported.truncated, false);
    const bad = await client.callTool({ name: 'create_tracked_test', arguments: { test_type: 'ai_citations', definition: { ...definition, competitor: 'x' } } });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(parse(bad)), /extra_forbidden/);
    const deleted = parse(await client.callTool({ name: 'delete_tracked_test', arguments: { test_id: t.id } }));
    assert.deepEqual(deleted, { id: t.id, deleted: true });
    await client.close();
  });

  test('export and history offer only arguments that change the answer; a bad format is refused as over HTTP', async () => {
    const { accountId, key } = await s.account({ credits: 20 });
    const client = await connect(await s.key(accountId, { kind: 'mcp' }));
    const tools = new Map((await client.listTools()).tools.map((x) => [x.name, x]));
    const args = (name: string) => Object.keys(tools.get(name)!.inputSchema.properties ?? {});
    // The answers are JSON: a CSV byte order mark, or history's CSV format, would change nothing.
    assert.ok(!args('export_visibility_run').includes('bom'));
    assert.ok(args('export_visibility_run').includes('format'));
    assert.ok(!args('get_test_history').includes('format') && !args('get_test_history').includes('bom'));
    const definition = { url: 'https://anvils.example/', target_entity: 'Anvilco', prompts: ['best anvils'], platforms: ['deepseek'] };
    const t = parse(await client.callTool({ name: 'create_tracked_test', arguments: { test_type: 'ai_citations', definition } }));
    const run = parse(await client.callTool({ name: 'run_tracked_test', arguments: { test_id: t.id } }));
    await s.waitForRun(key, run.run_id);

    const jsonl = parse(await client.callTool({ name: 'export_visibility_run', arguments: { run_id: run.run_id, format: 'jsonl' } }));
    assert.equal(jsonl.export_path, `/v1/visibility/runs/${run.run_id}/export?format=jsonl`);
    assert.equal(jsonl.rows.length, 1);
    // HTTP answers 400 invalid_filter for format=xml; the tool did answer, with an export_path that fails.
    const http = await s.app.inject({ method: 'GET', url: `/v1/visibility/runs/${run.run_id}/export?format=xml`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(http.statusCode, 400);
    const xml = await client.callTool({ name: 'export_visibility_run', arguments: { run_id: run.run_id, format: 'xml' } });
    assert.equal(xml.isError, true);
    assert.deepEqual(parse(xml), http.json().detail);
    for (const [name, extra] of [['export_visibility_run', { bom: true }], ['get_test_history', { format: 'csv' }]] as const) {
      const id = name === 'get_test_history' ? { test_id: t.id } : { run_id: run.run_id };
      const r = await client.callTool({ name, arguments: { ...id, ...extra } });
      assert.equal(r.isError, true, name);
      assert.equal(parse(r).detail[0].type, 'extra_forbidden', name);
    }
    // The HTTP routes keep both.
    const csv = await s.app.inject({ method: 'GET', url: `/v1/tests/${t.id}/history?format=csv&bom=true`, headers: { authorization: `Bearer ${key}` } });
    assert.equal(csv.statusCode, 200);
    assert.match(csv.headers['content-type'] as string, /text\/csv/);
    await client.close();
  });

  test('a token with only read scopes sees no tracked-test writes and is refused them', async () => {
    const { accountId } = await s.account({ credits: 10 });
    const client = await connect(await s.key(accountId, { kind: 'mcp', scopes: ['tests:read', 'runs:read'] }));
    const names = (await client.listTools()).tools.map((x) => x.name);
    assert.ok(names.includes('get_test_history') && names.includes('export_visibility_run'));
    assert.ok(!names.includes('create_tracked_test') && !names.includes('run_tracked_test'));
    const refused = await client.callTool({ name: 'create_tracked_test', arguments: { test_type: 'ai_citations', definition: { url: 'https://a.example/', target_entity: 'A', prompts: ['x'], platforms: ['deepseek'] } } });
    assert.equal(refused.isError, true);
    assert.match(JSON.stringify(parse(refused)), /missing_scope/);
    await client.close();
  });
});
