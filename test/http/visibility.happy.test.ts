// AI Visibility runs end to end through the HTTP API on the sandbox engine: model catalog,
// matrix and explicit creation, keyword resolution, polling to completion, summaries, lists,
// saved tests and reports by URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('visibility runs (happy paths)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('the models listing prices every model and names the roles', async () => {
    const { key } = await s.account();
    const body = (await s.request('GET', '/v1/visibility/models', { key })).json();
    assert.deepEqual(Object.keys(body.platforms).sort(), [
      'chatgpt_app', 'claude', 'copilot', 'deepseek', 'gemini', 'google_ai_mode', 'google_ai_overview', 'grok', 'openai', 'perplexity',
    ]);
    for (const [platform, models] of Object.entries(body.platforms) as [string, any[]][]) {
      const def = models.filter((m) => m.default);
      assert.equal(def.length, 1, `${platform} has one default`);
      const price = Number(def[0].credits_per_probe);
      assert.ok(price >= 1 && price <= 6, `${platform} default costs 1..6`);
      assert.equal(def[0].id, body.roles[platform].default);
      for (const m of models) {
        assert.match(m.credits_per_probe, /^\d+\.\d{2}$/);
        assert.equal(m.engine, 'sandbox');
        assert.equal(m.available, true);
      }
    }
  });

  test('matrix mode: prompt-major probes, concrete models, completion, summary', async () => {
    const { key } = await s.account({ credits: 100 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: {
        url: 'https://www.acme-crm.example/pricing',
        target_entity: 'Acme CRM',
        prompts: ['best crm for small agencies', 'alternatives to salesforce [[sandbox:mention]]'],
        platforms: ['openai', 'claude', 'deepseek'],
        models: { claude: 'LATEST' },
        competitors: ['HubSpot', 'Pipedrive'],
        country: 'de',
      },
    });
    assert.equal(res.statusCode, 200);
    const created = res.json();
    assert.match(created.run_id, /^vis_/);
    assert.equal(created.status, 'queued');
    assert.equal(created.probe_count, 6);
    assert.equal(created.queued_probe_count, 6);
    assert.equal(created.skipped_probe_count, 0);
    assert.equal(created.skipped_reason, null);
    assert.equal(created.prompt_count, 2);
    assert.equal(created.platform_count, 3);
    // openai default 2.00 + claude latest (opus) 8.00 + deepseek default 1.00 = 11.00 per prompt
    assert.equal(created.estimated_credits, '22.00');
    assert.equal(created.reserved_credits, '22.00');
    assert.ok(created.action_decision_id);

    const run = await s.waitForRun(key, created.run_id);
    assert.equal(run.status, 'completed');
    assert.equal(run.engine, 'sandbox');
    assert.equal(run.country, 'DE');
    assert.deepEqual(run.probe_counts, { queued: 0, running: 0, succeeded: 6, errored: 0, cancelled: 0, skipped: 0 });
    assert.equal(run.billing.settled_credits, '22.00');
    assert.equal(run.billing.status, 'settled');
    assert.ok(run.completed_at && run.started_at);
    assert.equal(run.summary.overall_score, run.summary.mention_rate);
    assert.ok(run.summary.brand_mentions >= 3, 'the forced-mention prompt mentions the brand on every platform');
    assert.ok(['Invisible', 'Low', 'Moderate', 'Good', 'Strong'].includes(run.summary.visibility_band));
    assert.equal(run.summary.by_platform.length, 3);
    assert.deepEqual(run.summary.competitors.map((c: any) => c.name), ['HubSpot', 'Pipedrive']);
    assert.ok(!('probes' in run), 'compact by default');
    // A list holds the same compact run, its summary included (competitors, cited domains, per platform).
    const listed = (await s.request('GET', '/v1/visibility/runs?limit=5', { key })).json().runs.find((r: any) => r.run_id === created.run_id);
    assert.deepEqual(listed.summary, run.summary);

    const full = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_probes=true`, { key })).json();
    assert.deepEqual(
      full.probes.map((p: any) => [p.prompt.slice(0, 4), p.platform]),
      [['best', 'openai'], ['best', 'claude'], ['best', 'deepseek'], ['alte', 'openai'], ['alte', 'claude'], ['alte', 'deepseek']],
    );
    assert.equal(full.probes[1].model, 'claude-opus-4-1');
    assert.equal(full.probes[0].model, 'gpt-5-mini');
    assert.ok(full.probes.every((p: any) => p.status === 'succeeded' && p.engine === 'sandbox' && p.answer === undefined));
    assert.ok(full.probes[3].brand_mentioned);
    assert.equal(full.probes[1].credits.settled, '8.00');

    const results = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_results=true`, { key })).json();
    assert.ok(results.probes.every((p: any) => typeof p.answer === 'string' && p.answer.includes('sandbox')));

    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '22.00');
    assert.equal(usage.credits.available_credit_units, '78.00');
    assert.equal(usage.recent[0].run_id, created.run_id);
  });

  test('matrix mode asks every (prompt, platform) pair of the request, repeats included: probe_count = prompt_count × platform_count', async () => {
    const { key } = await s.account({ credits: 100 });
    const body = (prompts: string[], platforms: string[]) => ({ url: 'https://acme.example', target_entity: 'Acme', prompts, platforms });
    const twicePrompt = (await s.request('POST', '/v1/visibility/runs', { key, body: body(['best crm', 'best crm'], ['openai']) })).json();
    assert.deepEqual([twicePrompt.prompt_count, twicePrompt.platform_count, twicePrompt.probe_count], [2, 1, 2]);
    const twicePlatform = (await s.request('POST', '/v1/visibility/runs', { key, body: body(['best crm'], ['openai', 'openai']) })).json();
    assert.deepEqual([twicePlatform.prompt_count, twicePlatform.platform_count, twicePlatform.probe_count], [1, 2, 2]);
    assert.equal(twicePlatform.estimated_credits, '4.00');
  });

  test('competitors that differ only in case or spacing are one competitor, first spelling kept', async () => {
    const { key } = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], competitors: ['Globex', ' globex', 'GLOBEX ', 'Initech'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const run = await s.waitForRun(key, res.json().run_id);
    assert.deepEqual(run.competitors, ['Globex', 'Initech']);
    assert.deepEqual(run.summary.competitors.map((c: { name: string }) => c.name), ['Globex', 'Initech']);
  });

  test('explicit probes inherit language, country and target entity; keywords resolve per probe', async () => {
    const { key } = await s.account({ credits: 100 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: {
        url: 'https://acme.example',
        target_entity: 'Acme',
        language: 'de',
        country: 'AT',
        probes: [
          { prompt: 'beste crm software', platform: 'gemini' },
          { prompt: 'best crm', platform: 'openai', model: 'Prior', language: 'en', country: 'GB', target_entity: 'Acme Corp' },
          { prompt: 'crm comparison', platform: 'perplexity', model: 'sonar-pro' },
        ],
      },
    });
    assert.equal(res.statusCode, 200);
    const created = res.json();
    assert.equal(created.prompt_count, 3);
    assert.equal(created.platform_count, 3);
    assert.equal(created.estimated_credits, '9.00'); // gemini 2.00 + gpt-4.1 3.00 + sonar-pro 4.00
    await s.waitForRun(key, created.run_id);
    const run = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_probes=1`, { key })).json();
    const [a, b, c] = run.probes;
    assert.deepEqual([a.language, a.country, a.target_entity, a.model], ['de', 'AT', 'Acme', 'gemini-2.5-flash']);
    assert.deepEqual([b.language, b.country, b.target_entity, b.model], ['en', 'GB', 'Acme Corp', 'gpt-4.1']);
    assert.equal(c.model, 'sonar-pro');
  });

  test('lists are newest first with cursors, clamped limits and a status filter', async () => {
    const { key } = await s.account({ credits: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await s.request('POST', '/v1/visibility/runs', {
        key,
        body: { url: `https://site${i}.example`, target_entity: 'Acme', prompts: [`q${i}`], platforms: ['deepseek'] },
      });
      ids.push(r.json().run_id);
    }
    const p1 = (await s.request('GET', '/v1/visibility/runs?limit=2', { key })).json();
    assert.equal(p1.object, 'list');
    assert.deepEqual(p1.runs.map((r: any) => r.run_id), [ids[4], ids[3]]);
    assert.equal(p1.has_more, true);
    assert.equal(p1.next_starting_after, ids[3]);
    const p2 = (await s.request('GET', `/v1/visibility/runs?limit=2&starting_after=${p1.next_starting_after}`, { key })).json();
    assert.deepEqual(p2.runs.map((r: any) => r.run_id), [ids[2], ids[1]]);
    const p3 = (await s.request('GET', `/v1/visibility/runs?limit=2&starting_after=${p2.next_starting_after}`, { key })).json();
    assert.deepEqual(p3.runs.map((r: any) => r.run_id), [ids[0]]);
    assert.equal(p3.has_more, false);
    assert.equal(p3.next_starting_after, null);
    const clamped = (await s.request('GET', '/v1/visibility/runs?limit=0', { key })).json();
    assert.equal(clamped.runs.length, 1);
    for (const id of ids) await s.waitForRun(key, id);
    const completed = (await s.request('GET', '/v1/visibility/runs?status=completed&limit=100', { key })).json();
    assert.equal(completed.runs.length, 5);
    const failed = (await s.request('GET', '/v1/visibility/runs?status=failed', { key })).json();
    assert.equal(failed.runs.length, 0);
    const bad = await s.request('GET', '/v1/visibility/runs?starting_after=vis_doesnotexist', { key });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().detail.error, 'invalid_cursor');
    // An empty cursor matches no run either: it is not the same as no cursor.
    const empty = await s.request('GET', '/v1/visibility/runs?starting_after=', { key });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().detail.error, 'invalid_cursor');
  });

  test('runs attach to saved tests by normalized URL and target; reports by URL show scores and bands', async () => {
    const { key } = await s.account({ credits: 100 });
    const mk = (url: string, target: string) =>
      s.request('POST', '/v1/visibility/runs', { key, body: { url, target_entity: target, prompts: ['best crm'], platforms: ['deepseek'] } });
    const r1 = (await mk('https://Acme.example/pricing/', 'Acme')).json();
    const r2 = (await mk('https://acme.example:443/pricing#plans', 'acme')).json();
    const r3 = (await mk('https://acme.example/pricing', 'Other Brand')).json();
    for (const r of [r1, r2, r3]) await s.waitForRun(key, r.run_id);
    const tests = (await s.request('GET', '/v1/tests', { key })).json().tests;
    assert.equal(tests.length, 2);
    const acme = tests.find((t: any) => t.target_entity === 'Acme');
    assert.equal(acme.run_count, 2);
    assert.equal(acme.test_type, 'ai_citations');
    const one = (await s.request('GET', `/v1/tests/${acme.id}`, { key })).json();
    assert.deepEqual(one.runs.map((r: any) => r.run_id), [r2.run_id, r1.run_id]);
    const report = (await s.request('GET', '/v1/reports/by-url?url=https://ACME.example/pricing&limit=1', { key })).json();
    assert.equal(report.match_count, 2);
    assert.equal(report.days, 90);
    for (const m of report.matches) {
      assert.equal(m.runs.length, 1);
      assert.ok('overall_score' in m.runs[0].summary && 'visibility_band' in m.runs[0].summary);
    }
    const filtered = (await s.request('GET', '/v1/reports/by-url?url=https://acme.example/pricing&test_type=content_intelligence', { key })).json();
    assert.equal(filtered.match_count, 0);
    assert.equal((await s.request('GET', '/v1/reports/by-url?url=notaurl', { key })).statusCode, 400);
    assert.equal((await s.request('GET', '/v1/tests/test_nope', { key })).statusCode, 404);
  });
});
