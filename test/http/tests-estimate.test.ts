// POST /v1/tests/estimate through the real server: one run's price equals what a tracked test
// created from the same body settles when run (sandbox; a visibility definition with a chosen
// model, repeats and a repeated prompt, and a Content Intelligence definition of each depth, its
// page served by a loopback fixture site), the month figures are the project estimate's, it is
// free and saves nothing, it refuses what the create refuses with the same status and code, and
// MCP's estimate_test answers what HTTP answers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { serveFixtureSite } from './content-sites.ts';

describe('tests estimate', () => {
  let acme: FixtureServer;
  let s: TestServer;
  let base: string;
  let GUIDE: string;
  before(async () => {
    acme = await serveFixtureSite('acme-pm.test');
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${acme.port}` });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
    GUIDE = acme.url('/blog/project-management-guide');
  });
  after(async () => {
    await s.close();
    await acme.close();
  });

  const visibility = {
    url: 'https://acme.example/pricing',
    target_entity: 'Acme',
    // The test asks a prompt once however often it is given: the quote counts it once too.
    prompts: ['best crm', 'cheap crm', ' best   crm '],
    platforms: ['openai', 'deepseek'],
    models: { openai: 'latest' },
    repeats: 2,
    competitors: ['Globex'],
  };

  /** Estimates, creates the same test, runs it now and answers the estimate and the settled run. */
  async function quoteAndRun(key: string, body: Record<string, unknown>) {
    const res = await s.request('POST', '/v1/tests/estimate', { key, body });
    assert.equal(res.statusCode, 200, res.body);
    const created = await s.request('POST', '/v1/tests', { key, body });
    assert.equal(created.statusCode, 200, created.body);
    const started = await s.request('POST', `/v1/tests/${created.json().id}/runs`, { key, body: {} });
    assert.equal(started.statusCode, 200, started.body);
    const run = await s.waitForRun(key, started.json().run_id, 90_000);
    assert.equal(run.status, 'completed', JSON.stringify(run));
    return { estimate: res.json(), run, testId: created.json().id as string };
  }

  test('a visibility test: the quote is what its run settles; free and saves nothing', async () => {
    const { key } = await s.account({ credits: 500 });
    const usageBefore = (await s.request('GET', '/v1/usage', { key })).json();
    const quote = (await s.request('POST', '/v1/tests/estimate', { key, body: { test_type: 'ai_citations', definition: visibility } })).json();
    assert.deepEqual((await s.request('GET', '/v1/usage', { key })).json(), usageBefore, 'the estimate charges nothing');
    assert.equal((await s.request('GET', '/v1/tests', { key })).json().tests.length, 0, 'and saves nothing');
    assert.equal(quote.object, 'test_estimate');
    assert.equal(quote.test_type, 'ai_citations');
    assert.equal(quote.url, 'https://acme.example/pricing');
    assert.equal(quote.target_entity, 'Acme');
    assert.equal(quote.probes_per_run, 2 * 2 * 2);
    assert.equal(quote.schedule, null);
    assert.equal(quote.months, null);
    assert.equal(quote.runs_per_month, null);

    const { estimate, run } = await quoteAndRun(key, { test_type: 'ai_citations', definition: visibility, schedule: { cron: '0 6 * * 1', timezone: 'Europe/Berlin' }, monthly_credit_budget: '100' });
    assert.equal(estimate.credits_per_run, quote.credits_per_run, 'the schedule and budget do not change a run');
    assert.equal(run.probe_count, estimate.probes_per_run);
    assert.equal(run.billing.estimated_credits, estimate.credits_per_run);
    assert.equal(run.billing.settled_credits, estimate.credits_per_run, 'a run settles what the estimate said');
    // Not the listing's default price: the chosen model prices the openai probes.
    const models = (await s.request('GET', '/v1/visibility/models', { key })).json();
    const defaultPrice = (p: string) => Number(models.platforms[p].find((m: any) => m.default).credits_per_probe);
    const atDefaults = 2 * 2 * (defaultPrice('openai') + defaultPrice('deepseek'));
    assert.notEqual(Number(estimate.credits_per_run), atDefaults, 'the test exercises a non-default model');
  });

  test('Content Intelligence tests of either depth: the quote is what the run settles', async () => {
    const { key } = await s.account({ credits: 100 });
    for (const depth of ['score', 'full']) {
      // A test per page: the second depth tracks another page of the site.
      const url = depth === 'score' ? GUIDE : acme.url('/');
      const { estimate, run } = await quoteAndRun(key, { test_type: 'content_intelligence', definition: { url, analysis_depth: depth } });
      assert.equal(estimate.test_type, 'content_intelligence');
      assert.equal(estimate.probes_per_run, null);
      assert.equal(estimate.target_entity, null);
      assert.equal(estimate.credits_per_run, depth === 'full' ? '6.00' : '3.00');
      assert.equal(run.billing.settled_credits, estimate.credits_per_run, depth);
    }
  });

  test("the month figures are the project estimate's: daily runs, the budget's runs, the budget for every run", async () => {
    const { key } = await s.account({ credits: 10 });
    const schedule = { cron: '0 6 * * *', timezone: 'UTC' };
    const definition = { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['a', 'b'], platforms: ['openai', 'deepseek'] };
    const e = (await s.request('POST', '/v1/tests/estimate', { key, body: { test_type: 'ai_citations', definition, schedule, months: 6 } })).json();
    assert.equal(e.months.length, 7);
    assert.equal(e.runs_per_month.busiest, 31);
    const perRun = Number(e.credits_per_run);
    assert.equal(e.budget_for_every_run, (31 * perRun).toFixed(2));
    assert.equal(e.credits_per_month.busiest, (31 * perRun).toFixed(2));
    assert.equal(e.runs_within_budget_per_month, null, 'no budget');
    const budget = (3.5 * perRun).toFixed(2);
    const capped = (await s.request('POST', '/v1/tests/estimate', { key, body: { test_type: 'ai_citations', definition, schedule, months: 6, monthly_credit_budget: budget } })).json();
    assert.equal(capped.monthly_credit_budget, budget);
    assert.equal(capped.runs_within_budget_per_month, 3);
    assert.ok(capped.months.every((m: any) => m.runs_within_budget === Math.min(3, m.scheduled_runs) && m.credits === (m.runs_within_budget * perRun).toFixed(2)));
    // A project of one market with the same prompts, platforms, schedule and budget says the same.
    const project = (await s.request('POST', '/v1/projects/estimate', {
      key,
      body: { prompt_count: 2, platforms: definition.platforms, schedule, months: 6, monthly_credit_budget: budget, markets: [{ language: 'en', country: 'US' }] },
    })).json();
    for (const k of ['credits_per_run', 'runs_per_month', 'credits_per_month', 'runs_within_budget_per_month', 'budget_for_every_run', 'monthly_credit_budget', 'schedule']) {
      assert.deepEqual(capped[k], project[k], k);
    }
    assert.deepEqual(capped.months.slice(1), project.months.slice(1));
    // Paused or named, the body is the create's and the quote the same.
    const named = (await s.request('POST', '/v1/tests/estimate', { key, body: { test_type: 'ai_citations', name: 'Acme', paused: true, definition, schedule, months: 6, monthly_credit_budget: budget } })).json();
    assert.deepEqual(named.months.slice(1), capped.months.slice(1));
  });

  test('refuses what the create refuses, with the same status and code', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const definition = { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['a'], platforms: ['openai'] };
    const cases: { name: string; body: Record<string, unknown>; key?: string; status: number; code?: string }[] = [
      { name: 'unknown model', body: { test_type: 'ai_citations', definition: { ...definition, models: { openai: 'no-such-model-anywhere' } } }, status: 400 },
      { name: 'unknown platform', body: { test_type: 'ai_citations', definition: { ...definition, platforms: ['altavista'] } }, status: 422 },
      { name: 'too many probes', body: { test_type: 'ai_citations', definition: { ...definition, prompts: Array.from({ length: 201 }, (_, i) => `p${i}`), repeats: 10 } }, status: 400 },
      { name: 'no prompts', body: { test_type: 'ai_citations', definition: { ...definition, prompts: undefined } }, status: 400, code: 'invalid_probe_mode' },
      { name: 'a visibility url', body: { test_type: 'ai_citations', definition: { ...definition, url: 'ftp://x' } }, status: 400, code: 'invalid_url' },
      { name: 'a content url', body: { test_type: 'content_intelligence', definition: { url: 'acme.example' } }, status: 400, code: 'invalid_url' },
      { name: 'a bad cron', body: { test_type: 'ai_citations', definition, schedule: { cron: 'every day' } }, status: 400, code: 'invalid_schedule' },
      { name: 'a bad time zone', body: { test_type: 'ai_citations', definition, schedule: { cron: '0 6 * * *', timezone: 'Mars/Olympus' } }, status: 400, code: 'invalid_schedule' },
      { name: 'a bad budget', body: { test_type: 'ai_citations', definition, monthly_credit_budget: '1.234' }, status: 400 },
      { name: 'a typo in the definition', body: { test_type: 'ai_citations', definition: { ...definition, competitor: 'Globex' } }, status: 422 },
      { name: 'an unknown kind', body: { test_type: 'ai_mentions', definition }, status: 422 },
      { name: 'a read-only key', body: { test_type: 'ai_citations', definition }, key: await s.key(accountId, { readOnly: true } as never), status: 403 },
      {
        name: 'a content-only key, visibility test',
        body: { test_type: 'ai_citations', definition },
        key: await s.key(accountId, { scopes: ['content_intelligence:runs:create', 'tests:read'] } as never),
        status: 403,
      },
    ];
    for (const c of cases) {
      const est = await s.request('POST', '/v1/tests/estimate', { key: c.key ?? key, body: c.body });
      const create = await s.request('POST', '/v1/tests', { key: c.key ?? key, body: c.body });
      assert.equal(est.statusCode, c.status, `${c.name}: ${est.body}`);
      assert.equal(est.statusCode, create.statusCode, `${c.name}: ${est.body} vs ${create.body}`);
      const [e, cr] = [est.json().detail, create.json().detail];
      if (Array.isArray(cr)) assert.deepEqual(e.map((d: any) => d.loc), cr.map((d: any) => d.loc), c.name);
      else assert.equal(e.error, cr.error, c.name);
      if (c.code) assert.equal(e.error, c.code, c.name);
    }
    const months = await s.request('POST', '/v1/tests/estimate', { key, body: { test_type: 'ai_citations', definition, months: 25 } });
    assert.equal(months.statusCode, 422);
    assert.equal((await s.request('GET', '/v1/tests', { key })).json().tests.length, 0, 'nothing refused was saved by the estimate');
  });

  test('MCP estimate_test answers what HTTP answers', async () => {
    const { accountId, key } = await s.account({ credits: 10 });
    const args = { test_type: 'ai_citations', definition: visibility, schedule: { cron: '0 6 1 * *', timezone: 'UTC' }, monthly_credit_budget: '5.00' };
    const http = (await s.request('POST', '/v1/tests/estimate', { key, body: args })).json();
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    try {
      const tool = (await client.listTools()).tools.find((t: any) => t.name === 'estimate_test');
      assert.equal(tool?.annotations?.readOnlyHint, true);
      const viaMcp = JSON.parse(((await client.callTool({ name: 'estimate_test', arguments: args })) as any).content[0].text);
      // The current month's count starts at the moment of asking; the rest is the same.
      assert.deepEqual({ ...viaMcp, months: viaMcp.months.slice(1) }, { ...http, months: http.months.slice(1) });
    } finally {
      await client.close();
    }
  });
});
