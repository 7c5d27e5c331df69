// The sample planner through HTTP and MCP: its arithmetic against hand-computed Wilson widths and
// a hand-computed two-proportion sample size, then a tracked test's plan from the rates seen so
// far (50% where none), the credits per run and per month on its schedule, and its errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { normalQuantile, trialsForChange, trialsForHalfWidth, wilsonHalfWidth } from '../../src/core/tracking/sample-plan.ts';

const Z = 1.959963984540054;

describe('sample planner', () => {
  test('Wilson half-widths and the smallest n for ±10 points, checked by hand', () => {
    // p = 0.5, n = 92: (1.96 / (1 + 3.8415/92)) · √(0.25/92 + 3.8415/(4·92²)) = 1.8814 · 0.053206 = 0.10010
    assert.ok(Math.abs(wilsonHalfWidth(0.5, 92, Z) - 0.1001) < 0.0001);
    // n = 93: 1.8822 · 0.052908 = 0.09959, the first n at or under 0.10.
    assert.ok(Math.abs(wilsonHalfWidth(0.5, 93, Z) - 0.0996) < 0.0001);
    assert.equal(trialsForHalfWidth(0.5, 0.1, Z), 93);
    // p = 0.2, ±0.10: n = 60 gives 1.959964/1.064025 · √(0.16/60 + 3.8415/14400) = 1.842028 · 0.054161 = 0.09977; n = 59 gives 0.10058.
    assert.ok(Math.abs(wilsonHalfWidth(0.2, 60, Z) - 0.09977) < 0.00002);
    assert.ok(Math.abs(wilsonHalfWidth(0.2, 59, Z) - 0.10058) < 0.00002);
    assert.equal(trialsForHalfWidth(0.2, 0.1, Z), 60);
    // The half-width of a 2-probe run at 50%: ±0.41, the 9–91% interval (1.959964/2.920782 · √(0.125 + 0.240096) = 0.671042 · 0.604232).
    assert.ok(Math.abs(wilsonHalfWidth(0.5, 2, Z) - 0.4055) < 0.0001);
  });

  test('two-proportion sample size: a 15-point drop from 50% at 95% and 80% power, by hand', () => {
    assert.ok(Math.abs(normalQuantile(0.975) - 1.959964) < 1e-5);
    assert.ok(Math.abs(normalQuantile(0.8) - 0.841621) < 1e-5);
    // p1 = 0.50, p2 = 0.35, p̄ = 0.425: [1.959964·√(2·0.425·0.575) + 0.841621·√(0.25 + 0.2275)]² / 0.15²
    //  = [1.959964·0.699107 + 0.841621·0.691014]² / 0.0225 = [1.370224 + 0.581573]² / 0.0225 = 169.31 → 170
    assert.equal(trialsForChange(0.5, 0.35, 0.95, 0.8), 170);
    // p1 = 0.80, p2 = 0.70 (10 points), p̄ = 0.75: [1.959964·√0.375 + 0.841621·√(0.16 + 0.21)]² / 0.01
    //  = [1.200234 + 0.511933]² / 0.01 = 293.15 → 294
    assert.equal(trialsForChange(0.8, 0.7, 0.95, 0.8), 294);
    assert.equal(trialsForChange(0.5, 0.5, 0.95, 0.8), null);
  });

  describe('over the API', () => {
    let s: TestServer;
    let base: string;
    before(async () => {
      s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
      base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => s.close());

    test('a tracked test: 50% where nothing ran, the rates seen after runs, credits a month on its daily schedule', async () => {
      const { accountId, key } = await s.account({ credits: 500 });
      const definition = { url: 'https://plan.example/', target_entity: 'Plano', prompts: ['always [[sandbox:mention]]', 'never [[sandbox:no-mention]]'], platforms: ['deepseek', 'openai'], repeats: 2 };
      const t = (
        await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition, schedule: { cron: '0 6 * * *', timezone: 'UTC' }, monthly_credit_budget: '100.00' } })
      ).json();
      const fresh = (await s.request('GET', `/v1/tests/${t.id}/sample-plan?half_width=0.1`, { key })).json();
      assert.equal(fresh.test_id, t.id);
      assert.deepEqual(fresh.goal, { type: 'half_width', half_width: 0.1, confidence: 0.95 });
      assert.equal(fresh.cells.length, 4);
      for (const c of fresh.cells) {
        assert.equal(c.rate_seen, null);
        assert.equal(c.rate_assumed, 0.5);
        assert.equal(c.probes_needed_per_period, 93);
        assert.equal(c.repeats_per_run, 93);
        assert.equal(c.current_repeats, 2);
        assert.equal(c.current_half_width, 0.4055);
      }
      assert.equal(fresh.repeats_needed, 93);
      assert.equal(fresh.repeats_recommended, 10);
      assert.equal(fresh.feasible, false);
      assert.equal(fresh.runs_per_month, 30);
      // deepseek 1.00 + openai 2.00 per probe, 2 prompts: 6.00 per repeat; 2 repeats now, 10 planned.
      assert.deepEqual(fresh.current, { credits_per_run: '12.00', credits_per_month: '360.00' });
      assert.deepEqual(fresh.planned, { credits_per_run: '60.00', credits_per_month: '1800.00' });
      assert.equal(fresh.within_budget, false);
      // Pooling a 30-day window of daily runs: 93 probes over 30 runs is 4 repeats per run.
      const pooled = (await s.request('GET', `/v1/tests/${t.id}/sample-plan?half_width=0.1&window=30d`, { key })).json();
      assert.equal(pooled.runs_per_period, 30);
      assert.equal(pooled.repeats_needed, 4);
      assert.equal(pooled.feasible, true);
      assert.deepEqual(pooled.planned, { credits_per_run: '24.00', credits_per_month: '720.00' });
      // The overall rate (all four cells pooled): 93 probes over 4 cells → 24 repeats per run.
      const overall = (await s.request('GET', `/v1/tests/${t.id}/sample-plan?half_width=0.1&level=overall`, { key })).json();
      assert.equal(overall.overall.probes_needed_per_period, 93);
      assert.equal(overall.repeats_needed, 24);

      // After two runs: 100% and 0% cells. From 1.0 a drop to 0.85; from 0.0 a drop would leave
      // 0..1 and is planned as a rise to 0.15 (the same size of change).
      for (let i = 0; i < 2; i++) await s.waitForRun(key, (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json().run_id);
      const seen = (await s.request('GET', `/v1/tests/${t.id}/sample-plan?change=0.15`, { key })).json();
      assert.equal(seen.rates_from.runs, 2);
      const always = seen.cells.find((c: any) => c.prompt.startsWith('always') && c.platform === 'deepseek');
      const never = seen.cells.find((c: any) => c.prompt.startsWith('never') && c.platform === 'openai');
      assert.equal(always.succeeded_so_far, 4);
      assert.equal(always.rate_seen, 1);
      assert.equal(never.rate_seen, 0);
      assert.equal(always.probes_needed_per_period, trialsForChange(1, 0.85, 0.95, 0.8));
      assert.equal(never.probes_needed_per_period, trialsForChange(0, 0.15, 0.95, 0.8));
      assert.equal(seen.overall.rate_seen, 0.5);
      assert.equal(seen.overall.probes_needed_per_period, 170);
      assert.deepEqual(seen.goal, { type: 'change', change: 0.15, direction: 'drop', confidence: 0.95, power: 0.8 });

      // MCP: the same operation as a tool.
      const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
      const viaMcp = JSON.parse(((await client.callTool({ name: 'plan_test_sample', arguments: { test_id: t.id, change: 0.15, window: '30d' } })) as any).content[0].text);
      assert.equal(viaMcp.runs_per_period, 30);
      assert.equal(viaMcp.overall.probes_needed_per_period, 170);
      await client.close();
    });

    test('errors: no goal or two goals 400, out of bounds 422, an implicit test 400, another account 404', async () => {
      const { key } = await s.account({ credits: 50 });
      const other = await s.account({ credits: 1 });
      const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://implicit.example/', target_entity: 'Imp', prompts: ['a'], platforms: ['deepseek'] } })).json();
      await s.waitForRun(key, run.run_id);
      const implicit = (await s.request('GET', '/v1/tests', { key })).json().tests[0];
      const t = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition: { url: 'https://e.example/', target_entity: 'E', prompts: ['a'], platforms: ['deepseek'] } } })).json();
      const get = (path: string, k = key) => s.request('GET', path, { key: k });
      assert.equal((await get(`/v1/tests/${t.id}/sample-plan`)).json().detail.error, 'invalid_request');
      assert.equal((await get(`/v1/tests/${t.id}/sample-plan?half_width=0.1&change=0.1`)).json().detail.error, 'invalid_request');
      const bound = await get(`/v1/tests/${t.id}/sample-plan?half_width=0.9`);
      assert.equal(bound.statusCode, 422);
      assert.deepEqual(bound.json().detail[0].loc, ['query', 'half_width']);
      assert.equal((await get(`/v1/tests/${t.id}/sample-plan?change=0.1&direction=sideways`)).json().detail.error, 'invalid_filter');
      assert.equal((await get(`/v1/tests/${implicit.id}/sample-plan?half_width=0.1`)).statusCode, 400);
      assert.equal((await get(`/v1/tests/${t.id}/sample-plan?half_width=0.1`, other.key)).statusCode, 404);
      const ok = (await get(`/v1/tests/${t.id}/sample-plan?half_width=0.1`)).json();
      assert.equal(ok.runs_per_month, null, 'no schedule: no monthly cost');
      assert.equal(ok.current.credits_per_month, null);
    });
  });
});
