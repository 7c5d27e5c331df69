// POST /v1/visibility/runs/estimate: free, the create body, and equal to what a create made right
// after reserves: full funding, partial funding (prefix in matrix order, repeats innermost) and
// none; the same 400s as the create; the MCP tool answers the same quote.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectMcp } from '../helpers/mcp-client.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const ESTIMATE = '/v1/visibility/runs/estimate';
const CREATE = '/v1/visibility/runs';
// Two prompts × (openai flagship 5.00, perplexity default 2.00) × 2 repeats = 8 probes, 28.00:
// in order 5, 5, 2, 2, 5, 5, 2, 2.
const BODY = {
  url: 'https://acme.example',
  target_entity: 'Acme',
  prompts: ['best anvils [[sandbox:delay=50]]', 'anvil reviews [[sandbox:delay=50]]'],
  platforms: ['openai', 'perplexity'],
  models: { openai: 'gpt-5.1' },
  repeats: 2,
};

describe('visibility run estimate', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  const usage = async (key: string) => (await s.request('GET', '/v1/usage', { key })).json().credits;

  for (const [credits, status, fundable, reserve] of [
    [100, 'queued', 8, '28.00'],
    [13, 'partially_queued', 3, '12.00'],
    [24, 'partially_queued', 6, '24.00'],
  ] as const) {
    test(`with ${credits} credits the estimate (${status}, ${fundable} probes, ${reserve}) is what the create reserves`, async () => {
      const { key } = await s.account({ credits });
      const est = await s.request('POST', ESTIMATE, { key, body: BODY });
      assert.equal(est.statusCode, 200, est.body);
      assert.deepEqual(est.json(), {
        estimated_credits: '28.00',
        probe_count: 8,
        available_credits: `${credits}.00`,
        fundable_probe_count: fundable,
        would_reserve_credits: reserve,
        would_be_status: status,
        prompt_count: 2,
        platform_count: 2,
      });
      // Free: nothing reserved, nothing used, no run.
      assert.deepEqual(await usage(key), { available_credit_units: `${credits}.00`, reserved_credit_units: '0.00', used_credit_units: '0.00', granted_credit_units: `${credits}.00`, active_grant_count: 1 });
      assert.equal((await s.request('GET', CREATE, { key })).json().runs.length, 0);

      const created = (await s.request('POST', CREATE, { key, body: BODY })).json();
      assert.equal(created.status, status);
      assert.equal(created.estimated_credits, '28.00');
      assert.equal(created.reserved_credits, reserve);
      assert.equal(created.probe_count, 8);
      assert.equal(created.queued_probe_count, fundable);
      await s.waitForRun(key, created.run_id);
    });
  }

  test('a balance below the first probe is insufficient, and the create is then 402', async () => {
    const { key } = await s.account({ credits: 4 });
    const est = (await s.request('POST', ESTIMATE, { key, body: BODY })).json();
    assert.equal(est.would_be_status, 'insufficient');
    assert.equal(est.fundable_probe_count, 0);
    assert.equal(est.would_reserve_credits, '0.00');
    const created = await s.request('POST', CREATE, { key, body: BODY });
    assert.equal(created.statusCode, 402);
    assert.equal(created.json().detail.error, 'insufficient_credits');
  });

  test('the estimate refuses what the create refuses, with the same errors', async () => {
    const { key } = await s.account({ credits: 50 });
    for (const body of [
      { ...BODY, url: 'not a url' },
      { ...BODY, models: { openai: 'no-such-model' } },
      { url: BODY.url, target_entity: 'Acme' },
      { ...BODY, repeats: 11 },
    ]) {
      const est = await s.request('POST', ESTIMATE, { key, body });
      const created = await s.request('POST', CREATE, { key, body });
      assert.equal(est.statusCode, created.statusCode, JSON.stringify(body));
      assert.ok(est.statusCode === 400 || est.statusCode === 422);
      assert.deepEqual(est.json().detail, created.json().detail);
    }
    assert.equal((await usage(key)).available_credit_units, '50.00');
  });

  test('a read-only key cannot estimate (the create scope); the MCP tool answers the same quote', async () => {
    const { accountId, key } = await s.account({ credits: 13 });
    const readOnly = await s.key(accountId, { readOnly: true } as never);
    assert.equal((await s.request('POST', ESTIMATE, { key: readOnly, body: BODY })).statusCode, 403);
    const http = (await s.request('POST', ESTIMATE, { key, body: BODY })).json();
    const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const token = await s.key(accountId, { kind: 'mcp' });
    const client = await connectMcp(base, token);
    const r: any = await client.callTool({ name: 'estimate_visibility_run', arguments: BODY });
    assert.deepEqual(JSON.parse(r.content[0].text), http);
    await client.close();
  });
});
