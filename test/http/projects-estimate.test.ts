// POST /v1/projects/estimate through the real server: a run's price equals what the created
// project's run reserves, the schedule's runs are counted per calendar month in its time zone
// (checked against a count done here day by day), the budget's runs follow the server's even split
// per market, the smallest budget that skips nothing is exactly that, it refuses what a create
// refuses, it is free and saves nothing, and MCP answers the same.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { connectMcp } from '../helpers/mcp-client.ts';

/** Days of each calendar month (UTC) from the current one on, with the slots of a daily 06:00 cron. */
function dailySlotsByMonth(now: Date, months: number) {
  const out: { month: string; runs: number }[] = [];
  for (let i = 0; i <= months; i++) {
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth() + i;
    const days = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    let runs = 0;
    for (let d = 1; d <= days; d++) if (Date.UTC(y, m, d, 6) > now.getTime()) runs++;
    const first = new Date(Date.UTC(y, m, 1));
    out.push({ month: `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}`, runs });
  }
  return out;
}

describe('projects estimate', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  const settings = {
    markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }],
    platforms: ['deepseek', 'openai'],
    repeats: 2,
  };

  test("a run's price is what the created project's runs reserve; free and saves nothing", async () => {
    const { key } = await s.account({ credits: 500 });
    const before = (await s.request('GET', '/v1/usage', { key })).json();
    const res = await s.request('POST', '/v1/projects/estimate', { key, body: { ...settings, prompt_count: 3 } });
    assert.equal(res.statusCode, 200, res.body);
    const e = res.json();
    assert.equal(e.object, 'project_estimate');
    assert.equal(e.probes_per_run, 3 * 2 * 2 * 2);
    assert.deepEqual(e.markets.map((m: any) => m.market), ['en-US', 'de-DE']);
    assert.equal(e.schedule, null);
    assert.equal(e.months, null, 'not scheduled: no months');
    assert.equal(e.budget_for_every_run, null);
    const after = (await s.request('GET', '/v1/usage', { key })).json();
    assert.deepEqual(after, before, 'the estimate charges nothing');
    assert.equal((await s.request('GET', '/v1/projects', { key })).json().projects.length, 0, 'and saves nothing');

    // The same settings as a project: one run per market, reserving what the estimate said.
    const created = (await s.request('POST', '/v1/projects', {
      key,
      body: { ...settings, url: 'https://acme.example/', brand: { name: 'Acme' }, prompts: ['a', 'b', 'c'].map((prompt) => ({ prompt })) },
    })).json();
    // The create's own body quotes the same (its prompts counted as the library keeps them).
    const createBody = { ...settings, url: 'https://acme.example/', brand: { name: 'Acme' }, prompts: ['a', ' b ', 'c', 'a'].map((prompt) => ({ prompt })) };
    const fromCreate = (await s.request('POST', '/v1/projects/estimate', { key, body: createBody })).json();
    assert.equal(fromCreate.prompt_count, 3);
    assert.equal(fromCreate.credits_per_run, e.credits_per_run);
    const run = (await s.request('POST', `/v1/projects/${created.id}/runs`, { key, body: {} })).json();
    const reserved = run.runs.map((r: any) => Number(r.estimated_credits ?? r.reserved_credits));
    assert.equal(reserved.length, 2);
    assert.deepEqual(reserved, e.markets.map((m: any) => Number(m.credits_per_run)));
    assert.equal(reserved.reduce((a: number, b: number) => a + b, 0).toFixed(2), e.credits_per_run);
  });

  test('a daily schedule counts the runs of each calendar month; the budget pays for its even share per market', async () => {
    const { key } = await s.account({ credits: 10 });
    const body = { ...settings, prompt_count: 1, schedule: { cron: '0 6 * * *', timezone: 'UTC' }, months: 12 };
    const now = new Date();
    const e = (await s.request('POST', '/v1/projects/estimate', { key, body })).json();
    const expected = dailySlotsByMonth(now, 12);
    // A month boundary may pass between the two clocks; the rest must agree exactly.
    if (e.months[0].month === expected[0].month) {
      assert.deepEqual(e.months.map((m: any) => [m.month, m.scheduled_runs]), expected.map((m) => [m.month, m.runs]));
    }
    const full = e.months.slice(1).map((m: any) => m.scheduled_runs);
    assert.deepEqual(e.runs_per_month, { average: Math.round((full.reduce((a: number, b: number) => a + b, 0) / 12) * 100) / 100, busiest: 31, fewest: Math.min(...full) });
    const perRun = Number(e.credits_per_run);
    assert.equal(e.credits_per_month.busiest, (31 * perRun).toFixed(2));
    assert.equal(e.budget_for_every_run, (31 * perRun).toFixed(2));
    for (const m of e.months) {
      assert.equal(m.runs_within_budget, null, 'no budget');
      assert.equal(m.credits, (m.scheduled_runs * perRun).toFixed(2));
    }

    // The smallest budget that skips nothing skips nothing; one hundredth less skips in the busiest months.
    const exact = (await s.request('POST', '/v1/projects/estimate', { key, body: { ...body, monthly_credit_budget: e.budget_for_every_run } })).json();
    assert.ok(exact.months.every((m: any) => m.runs_within_budget === m.scheduled_runs));
    assert.equal(exact.runs_within_budget_per_month, 31, 'it pays for the busiest month');
    const less = ((Math.round(Number(e.budget_for_every_run) * 100) - 1) / 100).toFixed(2);
    const short = (await s.request('POST', '/v1/projects/estimate', { key, body: { ...body, monthly_credit_budget: less } })).json();
    assert.ok(short.months.slice(1).some((m: any) => m.scheduled_runs === 31 && m.runs_within_budget === 30));
    assert.equal(short.runs_within_budget_per_month, 30);
    assert.ok(short.months.slice(1).every((m: any) => m.runs_within_budget === Math.min(m.scheduled_runs, 30)), 'shorter months run whole');
    assert.deepEqual(short.markets.map((m: any) => m.monthly_credit_budget), [Math.floor((Math.round(Number(less) * 100)) / 2), Math.floor((Math.round(Number(less) * 100)) / 2)].map((h) => (h / 100).toFixed(2)));

    // A budget below one market's run covers none: every scheduled run would be skipped.
    const none = (await s.request('POST', '/v1/projects/estimate', { key, body: { ...body, monthly_credit_budget: '0.01' } })).json();
    assert.equal(none.runs_within_budget_per_month, 0);
    assert.ok(none.months.every((m: any) => m.runs_within_budget === 0 && m.credits === '0.00'));
  });

  test('a weekly schedule in a time zone: months in that zone, 4 or 5 runs each', async () => {
    const { key } = await s.account({ credits: 10 });
    const e = (await s.request('POST', '/v1/projects/estimate', { key, body: { ...settings, prompt_count: 2, schedule: { cron: '30 23 * * 0', timezone: 'Pacific/Auckland' }, months: 24 } })).json();
    assert.equal(e.months.length, 25);
    assert.equal(e.schedule.timezone, 'Pacific/Auckland');
    // Times in whole seconds, as every other time the API answers (the first one is now).
    for (const m of e.months) assert.match(m.from, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    for (const m of e.months.slice(1)) assert.ok(m.scheduled_runs === 4 || m.scheduled_runs === 5, `${m.month}: ${m.scheduled_runs}`);
    // 24 consecutive months hold 104 or 105 Sundays.
    const total = e.months.slice(1).reduce((a: number, m: any) => a + m.scheduled_runs, 0);
    assert.ok(total === 104 || total === 105, String(total));
    // Each month starts at midnight on the 1st in Auckland (11:00 or 12:00 UTC the day before).
    for (const m of e.months.slice(1)) {
      const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(m.from));
      assert.equal(local, `${m.month}-01, 00:00`);
    }
  });

  test('refuses what a create refuses, with the same code', async () => {
    const { key } = await s.account({ credits: 10 });
    const project = { url: 'https://acme.example/', brand: { name: 'Acme' } };
    const cases = [
      { settings: { platforms: ['openai'], repeats: 10, markets: [{ language: 'en', country: 'US' }] }, prompts: 201, status: 400 },
      { settings: { platforms: ['openai'], models: { openai: 'no-such-model-anywhere' } }, prompts: 1 },
      { settings: { platforms: ['openai'], schedule: { cron: 'every day', timezone: 'UTC' } }, prompts: 1 },
      { settings: { platforms: ['openai'], schedule: { cron: '0 6 * * *', timezone: 'Mars/Olympus' } }, prompts: 1 },
      { settings: { platforms: ['openai'], monthly_credit_budget: 'lots' }, prompts: 1 },
    ];
    for (const c of cases) {
      const est = await s.request('POST', '/v1/projects/estimate', { key, body: { ...c.settings, prompt_count: c.prompts } });
      const create = await s.request('POST', '/v1/projects', { key, body: { ...project, ...c.settings, prompts: Array.from({ length: c.prompts }, (_, i) => ({ prompt: `p${i}` })) } });
      assert.ok(est.statusCode >= 400 && est.statusCode < 500, est.body);
      assert.equal(est.statusCode, create.statusCode, `${est.body} vs ${create.body}`);
      assert.equal(est.json().detail.error, create.json().detail.error);
      if (c.status) assert.equal(est.statusCode, c.status);
    }
    for (const bad of [{ platforms: ['openai'], prompt_count: -1 }, { platforms: ['openai'], prompt_count: 1, months: 25 }, { platforms: ['openai'], prompt_count: 1, colour: 'red' }, { prompt_count: 1 }]) {
      const res = await s.request('POST', '/v1/projects/estimate', { key, body: bad });
      assert.ok(res.statusCode === 400 || res.statusCode === 422, `${JSON.stringify(bad)}: ${res.statusCode}`);
      assert.ok(JSON.stringify(res.json().detail).length > 10, res.body);
    }
    // No prompts yet: nothing runs and nothing is charged, the schedule's months are still listed.
    const empty = (await s.request('POST', '/v1/projects/estimate', { key, body: { platforms: ['openai'], prompt_count: 0, schedule: { cron: '0 6 1 * *', timezone: 'UTC' } } })).json();
    assert.equal(empty.credits_per_run, '0.00');
    assert.equal(empty.runs_per_month.busiest, 1);
  });

  test('MCP estimate_project answers what HTTP answers', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const args = { ...settings, prompt_count: 4, schedule: { cron: '0 6 1 * *', timezone: 'UTC' }, monthly_credit_budget: '5.00' };
    const http = (await s.request('POST', '/v1/projects/estimate', { key, body: args })).json();
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    try {
      const viaMcp = JSON.parse(((await client.callTool({ name: 'estimate_project', arguments: args })) as any).content[0].text);
      // The current month's count starts at the moment of asking; the rest is the same.
      assert.deepEqual({ ...viaMcp, months: viaMcp.months.slice(1) }, { ...http, months: http.months.slice(1) });
    } finally {
      await client.close();
    }
  });
});
