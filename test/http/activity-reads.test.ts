// The activity filter `actions` (the console's default, "Actions (no reads)") leaves out every
// read, not only those named `….read`/`….list`: a project's dashboard, a test's history, the
// alert settings, a free quote, over HTTP and as MCP tool calls alike; `reads` keeps them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readActions } from '../../src/operations/define.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('activity kinds: reads and actions', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer();
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await s.close();
  });

  test('every GET route and the read-only quote are read actions; no write is', () => {
    const reads = new Set(readActions());
    for (const op of OPERATIONS) {
      const isRead = op.method === 'GET' || Boolean(op.tool && 'readOnly' in op.tool && op.tool.readOnly);
      assert.equal(reads.has(op.action), isRead, `${op.method} ${op.url} (${op.action})`);
    }
  });

  test('dashboard, history, settings and a quote are reads over HTTP and MCP; a project created is an action', async () => {
    const { accountId, key } = await s.account({ credits: 100 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: { url: 'https://acme.example/', brand: { name: 'Acme' }, competitors: [{ name: 'Globex' }], platforms: ['openai'] },
    });
    assert.equal(created.statusCode, 200, created.body);
    const project = created.json();
    const testId = project.tests[0].test_id;
    for (const path of [`/v1/projects/${project.id}/dashboard`, `/v1/tests/${testId}/history`, '/v1/notification-settings']) {
      const res = await s.request('GET', path, { key });
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    }
    const quote = await s.request('POST', '/v1/visibility/runs/estimate', { key, body: { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['openai'] } });
    assert.equal(quote.statusCode, 200, quote.body);
    // The same dashboard as an MCP tool call: recorded with method MCP, still a read.
    const token = await s.key(accountId, { kind: 'mcp' });
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_project_dashboard', arguments: { project_id: project.id } } }),
    });
    assert.equal(res.status, 200);
    assert.notEqual(((await res.json()) as { result?: { isError?: boolean } }).result?.isError, true);

    const rows = async (kind: string) =>
      (await s.request('GET', `/v1/activity?limit=100&kind=${kind}`, { key })).json().items as { action: string; method: string }[];
    const actions = await rows('actions');
    const reads = await rows('reads');
    const readNames = ['projects.dashboard', 'tests.history', 'notifications.settings.get', 'visibility.runs.estimate'];
    for (const a of readNames) {
      assert.ok(!actions.some((r) => r.action === a), `${a} is not an action: ${actions.map((r) => r.action).join(', ')}`);
      assert.ok(reads.some((r) => r.action === a), `${a} is a read`);
    }
    assert.ok(reads.some((r) => r.action === 'projects.dashboard' && r.method === 'MCP'), 'the MCP dashboard call is a read');
    assert.ok(actions.some((r) => r.action === 'projects.create'), 'creating a project is an action');
    assert.ok(!reads.some((r) => r.action === 'projects.create'));
  });
});
