// Every create rule that refuses a request, with the exact error values, and the proof that
// nothing was reserved; partial funding; 402.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const base = { url: 'https://acme.example', target_entity: 'Acme' };

describe('visibility run creation errors', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startTestServer();
    key = (await s.account({ credits: 50 })).key;
  });
  after(async () => s.close());

  async function expectError(body: unknown, status: number, error?: string) {
    const res = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.equal(res.statusCode, status, JSON.stringify(res.json()));
    if (error) assert.equal(res.json().detail.error, error);
    return res.json();
  }

  test('semantic errors are 400 with exact detail.error values', async () => {
    const m = { ...base, prompts: ['best crm'], platforms: ['openai', 'claude'] };
    await expectError({ ...m, url: 'not a url' }, 400, 'invalid_url');
    await expectError({ ...m, url: 'ftp://acme.example' }, 400, 'invalid_url');
    await expectError({ ...m, target_entity: '   ' }, 400, 'invalid_target_entity');
    await expectError({ ...base }, 400, 'invalid_probe_mode');
    await expectError({ ...m, probes: [{ prompt: 'x', platform: 'openai' }] }, 400, 'invalid_probe_mode');
    await expectError({ ...base, prompts: ['x'] }, 400, 'invalid_probe_mode');
    await expectError({ ...m, models: { openai: 'gpt-99' } }, 400, 'unsupported_model');
    await expectError({ ...m, models: { gemini: 'default' } }, 400, 'model_platform_not_requested');
    await expectError({ ...m, models: { openai: 'latest', ChatGPT: 'prior' } }, 400, 'duplicate_model_platform');
    await expectError({ ...m, models: { openai: '' } }, 400, 'model_required');
    await expectError({ ...base, probes: [{ prompt: 'x', platform: 'openai' }], models: { openai: 'latest' } }, 400, 'models_map_requires_prompt_platform_matrix');
    await expectError({ ...base, probes: [{ prompt: 'x', platform: 'openai', model: 'sonar' }] }, 400, 'unsupported_model');
    await expectError({ ...base, probes: [{ prompt: 'x', platform: 'openai', target_entity: ' ' }] }, 400, 'invalid_target_entity');
  });

  test('declared bounds are 422 with the field location', async () => {
    const m = { ...base, prompts: ['best crm'], platforms: ['openai'] };
    const long = await expectError({ ...m, prompts: ['x'.repeat(501)] }, 422);
    assert.deepEqual(long.detail[0].loc, ['body', 'prompts', 0]);
    await expectError({ ...base, probes: [{ prompt: 'x'.repeat(501), platform: 'openai' }] }, 422);
    const comp = await expectError({ ...m, competitors: Array.from({ length: 11 }, (_, i) => `c${i}`) }, 422);
    assert.deepEqual(comp.detail[0].loc, ['body', 'competitors']);
    await expectError({ ...m, idempotency_key: 'k'.repeat(161) }, 422);
    const plat = await expectError({ ...m, platforms: ['bing'] }, 422);
    assert.deepEqual(plat.detail[0].loc.slice(0, 2), ['body', 'platforms']);
    await expectError({ ...base, probes: [{ prompt: 'x', platform: 'myspace' }] }, 422);
    await expectError({ ...m, url: 42 }, 422);
    await expectError({ prompts: ['x'], platforms: ['openai'], target_entity: 'A' }, 422);
  });

  test('nothing was reserved or created by any refused request', async () => {
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '50.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal((await s.request('GET', '/v1/visibility/runs', { key })).json().runs.length, 0);
    assert.equal((await s.request('GET', '/v1/tests', { key })).json().tests.length, 0);
  });

  test('402 when no probe can be funded: nothing reserved, no run, no saved test', async () => {
    const poor = await s.account({ credits: 1.5 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key: poor.key,
      body: { ...base, prompts: ['best crm'], platforms: ['openai', 'deepseek'] },
    });
    assert.equal(res.statusCode, 402);
    const detail = res.json().detail;
    assert.equal(detail.error, 'insufficient_credits');
    assert.equal(detail.required_credits, '2.00');
    assert.equal(detail.available_credits, '1.50');
    const usage = (await s.request('GET', '/v1/usage', { key: poor.key })).json();
    assert.equal(usage.credits.available_credit_units, '1.50');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal((await s.request('GET', '/v1/visibility/runs', { key: poor.key })).json().runs.length, 0);
    assert.equal((await s.request('GET', '/v1/tests', { key: poor.key })).json().tests.length, 0);
  });

  test('partial funding stops at the first probe that does not fit, although a later cheaper one would', async () => {
    const acct = await s.account({ credits: 5 });
    // openai 2.00 fits (3.00 left), claude 4.00 does not: stop; deepseek 1.00 would fit but is skipped.
    const res = await s.request('POST', '/v1/visibility/runs', {
      key: acct.key,
      body: { ...base, prompts: ['best crm'], platforms: ['openai', 'claude', 'deepseek'] },
    });
    assert.equal(res.statusCode, 200);
    const created = res.json();
    assert.equal(created.status, 'partially_queued');
    assert.equal(created.probe_count, 3);
    assert.equal(created.queued_probe_count, 1);
    assert.equal(created.skipped_probe_count, 2);
    assert.equal(created.skipped_reason, 'insufficient_credits');
    assert.equal(created.estimated_credits, '7.00');
    assert.equal(created.reserved_credits, '2.00');
    const run = await s.waitForRun(acct.key, created.run_id);
    assert.equal(run.status, 'partially_completed');
    assert.deepEqual(run.probe_counts, { queued: 0, running: 0, succeeded: 1, errored: 0, cancelled: 0, skipped: 2 });
    const full = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_probes=true`, { key: acct.key })).json();
    assert.deepEqual(full.probes.map((p: any) => p.status), ['succeeded', 'skipped', 'skipped']);
    assert.equal(full.probes[2].error.code, 'insufficient_credits');
    assert.equal(full.probes[2].credits.reserved, '0.00');
    const usage = (await s.request('GET', '/v1/usage', { key: acct.key })).json();
    assert.equal(usage.credits.available_credit_units, '3.00');
  });

  test('a probe that fails without an answer releases its credits; a run with no success is failed', async () => {
    const acct = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key: acct.key,
      body: { ...base, prompts: ['[[sandbox:error]] best crm'], platforms: ['openai', 'deepseek'] },
    });
    const run = await s.waitForRun(acct.key, res.json().run_id);
    assert.equal(run.status, 'failed');
    assert.equal(run.probe_counts.errored, 2);
    assert.equal(run.billing.released_credits, '3.00');
    assert.equal(run.billing.status, 'released');
    assert.equal(run.summary.mention_rate, null);
    assert.equal(run.summary.visibility_band, null);
    const full = (await s.request('GET', `/v1/visibility/runs/${run.run_id}?include_probes=true`, { key: acct.key })).json();
    assert.equal(full.probes[0].error.code, 'sandbox_error');
    assert.equal(full.probes[0].credits.released, '2.00');
    const usage = (await s.request('GET', '/v1/usage', { key: acct.key })).json();
    assert.equal(usage.credits.available_credit_units, '10.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
  });

  test('unknown run ids are 404 for read and cancel', async () => {
    assert.equal((await s.request('GET', '/v1/visibility/runs/vis_0000', { key })).statusCode, 404);
    assert.equal((await s.request('POST', '/v1/visibility/runs/vis_0000/cancel', { key })).statusCode, 404);
  });
});
