// Projects through the HTTP API and MCP on the sandbox engine: create a brand workspace with
// competitors, two markets and 12 prompts imported in 3 topics (CSV and pasted lines), run it
// twice, read the dashboard (series, matrix with n and thin flags, topics, competitor-only
// prompts), filter by topic, keep a one-off run apart; scopes, validation and another account's 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { grantCredits } from '../../src/core/billing/ledger.ts';

describe('projects', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  const body = {
    name: 'Acme',
    url: 'https://acme-crm.example/',
    brand: { name: 'Acme CRM', aliases: ['Acme'], domains: ['acme-crm.example'] },
    competitors: [{ name: 'HubSpot', domains: ['hubspot.com'] }, { name: 'Pipedrive', aliases: ['Pipe Drive'] }],
    markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'de' }],
    platforms: ['deepseek', 'openai'],
    repeats: 2,
    schedule: { cron: '0 6 * * *', timezone: 'UTC' },
    monthly_credit_budget: '300.00',
  };

  test('a project end to end: create, import 12 prompts in 3 topics, run twice, dashboard, topic filter, one-off run kept apart', async () => {
    const { accountId, key } = await s.account({ credits: 2000 });
    const created = await s.request('POST', '/v1/projects', { key, body: { ...body, prompts: [{ prompt: 'best crm for agencies', topics: ['Agencies'] }] } });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    assert.match(p.id, /^proj_/);
    assert.deepEqual(p.markets, [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }]);
    assert.deepEqual(p.brand, { name: 'Acme CRM', aliases: ['Acme'], domains: ['acme-crm.example'] });
    assert.equal(p.tests.length, 2);
    assert.deepEqual(p.tests.map((t: any) => t.market).sort(), ['de-DE', 'en-US']);
    assert.equal(p.tests[0].monthly_credit_budget, '150.00', 'the budget shared between markets');

    const csv = 'prompt,topics\n"crm for a small agency, cheap [[sandbox:mention]]",agencies\nagency crm with invoicing,agencies;billing\nwhich crm do agencies use [[sandbox:no-mention]],agencies\n';
    const a = (await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: csv, format: 'csv' } })).json();
    assert.deepEqual(a, { project_id: p.id, added: 3, duplicates: 0, prompt_count: 4 });
    const lines = ['crm pricing compared', 'cheapest crm [[sandbox:no-mention]]', 'crm with free tier', 'crm discounts for startups'].join('\n');
    const b = (await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: `${lines}\n\nbest crm for agencies\n`, topics: ['Pricing'] } })).json();
    assert.deepEqual(b, { project_id: p.id, added: 4, duplicates: 1, prompt_count: 8 });
    const c = (await s.request('POST', `/v1/projects/${p.id}/prompts`, {
      key,
      body: { prompts: ['crm integrations with gmail', 'crm api quality', 'crm with zapier', 'crm for developers [[sandbox:mention]]'].map((prompt) => ({ prompt, topics: ['integrations'] })) },
    })).json();
    assert.equal(c.prompt_count, 12);
    const full = (await s.request('GET', `/v1/projects/${p.id}`, { key })).json();
    assert.deepEqual(full.topics.map((t: any) => [t.topic, t.prompts]), [['pricing', 5], ['agencies', 4], ['integrations', 4], ['billing', 1]]);
    assert.equal(full.prompts.find((x: any) => x.prompt === 'best crm for agencies').topics.join(','), 'agencies,pricing');

    // Each market's test asks the 12 prompts on 2 platforms twice.
    const test0 = (await s.request('GET', `/v1/tests/${full.tests[0].test_id}`, { key })).json();
    assert.equal(test0.definition.prompts.length, 12);
    assert.equal(test0.schedule.cron, '0 6 * * *');

    for (let i = 0; i < 2; i++) {
      const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
      assert.equal(run.runs.length, 2);
      for (const r of run.runs) {
        assert.equal(r.probe_count, 48);
        await s.waitForRun(key, r.run_id, 60_000);
      }
    }
    // A one-off run for the same page and brand stays out of the project.
    const oneOff = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: body.url, target_entity: 'Acme CRM', prompts: ['best crm for agencies'], platforms: ['gemini'] } })).json();
    await s.waitForRun(key, oneOff.run_id);
    assert.ok(!full.tests.some((t: any) => t.test_id === oneOff.test_id), 'attached to an ordinary test, not the project');

    const d = (await s.request('GET', `/v1/projects/${p.id}/dashboard`, { key })).json();
    assert.deepEqual(d.thin_evidence, { min_answers: 10, max_half_width: 0.2 });
    // Simulated numbers say so, as each run does.
    assert.deepEqual([d.engine, d.run_count, d.sandbox_run_count], ['sandbox', 4, 4]);
    assert.equal(d.series.length, 1);
    assert.equal(d.series[0].run_ids.length, 4);
    assert.ok(!d.series[0].run_ids.includes(oneOff.run_id));
    assert.equal(d.series[0].brand.n, 4 * 48);
    assert.equal(d.series[0].brand.thin, false);
    assert.deepEqual(d.series[0].competitors.map((x: any) => x.name), ['HubSpot', 'Pipedrive']);
    assert.ok('sentiment' in d.series[0].brand && 'prominence' in d.series[0].brand && 'share_of_voice' in d.series[0].brand);
    assert.equal(d.matrix.length, 12);
    const forced = d.matrix.find((m: any) => m.prompt === 'crm for developers [[sandbox:mention]]');
    assert.equal(forced.mention_rate, 1);
    assert.equal(forced.n, 16, '2 markets × 2 runs × 2 platforms × 2 repeats');
    assert.equal(forced.thin, false, '16 answers, 16 of 16: interval 0.81–1, half-width under 0.2');
    assert.deepEqual(forced.platforms.map((x: any) => [x.platform, x.n, x.thin]), [['deepseek', 8, true], ['openai', 8, true]]);
    assert.ok(forced.cited_urls.length > 0 && forced.cited_urls.every((u: any) => /^https?:\/\//.test(u.url) && u.count >= 1 && u.count <= forced.n));
    const never = d.matrix.find((m: any) => m.prompt === 'cheapest crm [[sandbox:no-mention]]');
    assert.equal(never.mention_rate, 0);
    for (const g of d.competitors_named_brand_absent) {
      const row = d.matrix.find((m: any) => m.prompt === g.prompt);
      assert.equal(row.mention_rate, 0);
      assert.ok(g.competitors.length > 0 && g.competitors.every((x: any) => x.mention_rate > 0));
    }
    assert.deepEqual(d.topics.map((t: any) => t.topic), ['agencies', 'billing', 'integrations', 'pricing']);
    const integrations = d.topics.find((t: any) => t.topic === 'integrations');
    assert.equal(integrations.n, 4 * 16);
    const filtered = (await s.request('GET', `/v1/projects/${p.id}/dashboard?topic=%20Integrations%20`, { key })).json();
    assert.equal(filtered.topic, 'integrations', 'the topic as the project keeps and matches it, as market is');
    assert.equal(filtered.matrix.length, 4);
    assert.equal(filtered.series[0].brand.n, 4 * 16);
    assert.equal(filtered.topics.length, 1);
    const us = (await s.request('GET', `/v1/projects/${p.id}/dashboard?market=en-US`, { key })).json();
    assert.equal(us.series[0].run_ids.length, 2);
    // A market written another way is the same market; one the project does not have, or an
    // unknown topic, is a 400 naming what is allowed, not an empty dashboard.
    for (const m of ['en-us', 'en_US']) {
      const other = (await s.request('GET', `/v1/projects/${p.id}/dashboard?market=${m}`, { key })).json();
      assert.deepEqual([other.market, other.series[0].run_ids], ['en-US', us.series[0].run_ids], m);
    }
    for (const q of ['market=fr-FR', 'topic=nope']) {
      const bad = await s.request('GET', `/v1/projects/${p.id}/dashboard?${q}`, { key });
      assert.equal(bad.statusCode, 400, q);
      assert.equal(bad.json().detail.error, 'invalid_filter', q);
      assert.equal(bad.json().detail.parameter, q.split('=')[0], q);
      assert.ok(bad.json().detail.allowed.length > 0, q);
    }

    // MCP: the same operations as tools.
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['create_project', 'get_project', 'get_project_dashboard', 'import_project_prompts', 'run_project']) assert.ok(tools.includes(name), name);
    const viaMcp = JSON.parse(((await client.callTool({ name: 'get_project_dashboard', arguments: { project_id: p.id, topic: 'pricing' } })) as any).content[0].text);
    assert.equal(viaMcp.matrix.length, 5);
    assert.equal(viaMcp.engine, 'sandbox');
    await client.close();
  });

  test('run now with credits for some markets: those run, the rest are skipped with what they need; none fundable is a 402 that charges nothing', async () => {
    // Each market's run: 3 prompts × (openai 2.00 + deepseek 1.00) = 9.00 credits.
    const project = { url: 'https://acme.example/', brand: { name: 'Acme' }, markets: body.markets, platforms: ['openai', 'deepseek'], prompts: [{ prompt: 'a' }, { prompt: 'b' }, { prompt: 'c' }] };
    const { key } = await s.account({ credits: 10 });
    const p = (await s.request('POST', '/v1/projects', { key, body: project })).json();
    const res = await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} });
    assert.equal(res.statusCode, 200, res.body);
    const answer = res.json();
    assert.deepEqual(answer.runs.map((r: any) => [r.market, r.status, r.reserved_credits]), [['en-US', 'queued', '9.00']]);
    assert.deepEqual(answer.skipped, [{ market: 'de-DE', test_id: answer.skipped[0].test_id, reason: 'insufficient_credits', required_credits: '2.00', available_credits: '1.00' }]);
    const credits = (await s.request('GET', '/v1/usage', { key })).json().credits;
    assert.equal(Number(credits.reserved_credit_units) + Number(credits.used_credit_units), 9);
    // Over MCP the same, valid against the tool's output schema (the SDK client checks it).
    const { accountId } = await s.account({ credits: 10 });
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    await client.listTools();
    const mcpProject: any = (await client.callTool({ name: 'create_project', arguments: project })).structuredContent;
    const partial: any = (await client.callTool({ name: 'run_project', arguments: { project_id: mcpProject.id } })).structuredContent;
    assert.deepEqual([partial.runs.length, partial.skipped.map((m: any) => m.market)], [1, ['de-DE']]);
    await client.close();
    // No market fundable: 402, no run made, nothing charged.
    const poor = await s.account({ credits: 1 });
    const q = (await s.request('POST', '/v1/projects', { key: poor.key, body: project })).json();
    const none = await s.request('POST', `/v1/projects/${q.id}/runs`, { key: poor.key, body: {} });
    assert.equal(none.statusCode, 402);
    assert.deepEqual((await s.request('GET', '/v1/visibility/runs', { key: poor.key })).json().runs, []);
    assert.equal((await s.request('GET', '/v1/usage', { key: poor.key })).json().credits.available_credit_units, '1.00');
  });

  test('run now with an idempotency key: a retry replays every market run, charged once; a skipped market runs on a retry once funded', async () => {
    const project = { url: 'https://acme.example/', brand: { name: 'Acme' }, markets: body.markets, platforms: ['deepseek'], prompts: [{ prompt: 'a' }] };
    const { accountId, key } = await s.account({ credits: 1 });
    const p = (await s.request('POST', '/v1/projects', { key, body: project })).json();
    const first = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: { idempotency_key: 'nightly-1' } })).json();
    assert.deepEqual([first.runs.length, first.skipped.map((m: any) => m.market)], [1, ['de-DE']]);
    await grantCredits(s.runtime.core.store, accountId, 500);
    const retry = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: { idempotency_key: 'nightly-1' } })).json();
    assert.deepEqual(retry.skipped, []);
    assert.equal(retry.runs[0].run_id, first.runs[0].run_id);
    assert.equal(retry.runs[0].idempotent_replay, true);
    const again = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: { idempotency_key: 'nightly-1' } })).json();
    assert.deepEqual(again.runs.map((r: any) => r.run_id), retry.runs.map((r: any) => r.run_id));
    const credits = (await s.request('GET', '/v1/usage', { key })).json().credits;
    assert.equal(Number(credits.reserved_credit_units) + Number(credits.used_credit_units), 2);
    const long = await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: { idempotency_key: 'k'.repeat(121) } });
    assert.equal(long.statusCode, 422);
  });

  test('updates follow into the tests; delete; errors, scopes and another account', async () => {
    const { accountId, key } = await s.account({ credits: 100 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...body, prompts: [{ prompt: 'a' }, { prompt: 'b' }] } })).json();
    const u = (await s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { markets: [{ language: 'fr', country: 'FR' }], repeats: 3 } })).json();
    assert.deepEqual(u.tests.map((t: any) => t.market), ['fr-FR']);
    assert.equal(u.tests[0].monthly_credit_budget, '300.00');
    const t = (await s.request('GET', `/v1/tests/${u.tests[0].test_id}`, { key })).json();
    assert.equal(t.definition.repeats, 3);
    assert.equal(t.definition.language, 'fr');
    // A market's test says whose it is, and is changed or deleted through its project only.
    assert.equal(t.project_id, p.id);
    assert.equal(t.market, 'fr-FR');
    for (const [method, body] of [['PATCH', { monthly_credit_budget: '100.00' }], ['PATCH', { definition: t.definition }], ['DELETE', undefined]] as const) {
      const refused = await s.request(method, `/v1/tests/${u.tests[0].test_id}`, { key, body });
      assert.equal(refused.statusCode, 400, `${method} ${refused.body}`);
      assert.equal(refused.json().detail.project_id, p.id);
      assert.match(refused.json().detail.message, /through the project: PATCH \/v1\/projects\//);
    }
    assert.equal((await s.request('GET', `/v1/tests/${u.tests[0].test_id}`, { key })).json().monthly_credit_budget, '300.00', 'unchanged');
    const gone = (await s.request('GET', `/v1/tests/${p.tests[0].test_id}`, { key }));
    assert.equal(gone.statusCode, 404, 'the removed market test is deleted');
    const promptId = u.prompts ? u.prompts[0].id : (await s.request('GET', `/v1/projects/${p.id}`, { key })).json().prompts[0].id;
    assert.deepEqual((await s.request('DELETE', `/v1/projects/${p.id}/prompts/${promptId}`, { key })).json(), { id: promptId, deleted: true });
    assert.equal((await s.request('GET', `/v1/tests/${u.tests[0].test_id}`, { key })).json().definition.prompts.length, 1);

    const other = await s.account({ credits: 1 });
    for (const [method, path] of [['GET', `/v1/projects/${p.id}`], ['GET', `/v1/projects/${p.id}/dashboard`], ['PATCH', `/v1/projects/${p.id}`], ['DELETE', `/v1/projects/${p.id}`], ['POST', `/v1/projects/${p.id}/runs`]] as const) {
      const res = await s.request(method, path, { key: other.key, body: method === 'PATCH' ? { repeats: 2 } : method === 'POST' ? {} : undefined });
      assert.equal(res.statusCode, 404, `${method} ${path}`);
    }
    assert.equal((await s.request('GET', '/v1/projects', { key: other.key })).json().projects.length, 0);
    const readOnly = await s.key(accountId, { scopes: ['tests:read', 'runs:read'] });
    assert.equal((await s.request('GET', `/v1/projects/${p.id}`, { key: readOnly })).statusCode, 200);
    const refused = await s.request('POST', '/v1/projects', { key: readOnly, body });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().detail.required_scope, 'visibility:runs:create');
    const typo = await s.request('POST', '/v1/projects', { key, body: { ...body, competitor: 'x' } });
    assert.equal(typo.statusCode, 422);
    assert.equal((await s.request('POST', '/v1/projects', { key, body: { ...body, url: 'nope' } })).json().detail.error, 'invalid_url');
    assert.equal((await s.request('POST', '/v1/projects', { key, body: { ...body, schedule: { cron: 'bad' } } })).json().detail.error, 'invalid_schedule');
    assert.equal((await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: 'x,y\n1,2', format: 'csv' } })).json().detail.error, 'invalid_request');
    assert.deepEqual((await s.request('DELETE', `/v1/projects/${p.id}`, { key })).json(), { id: p.id, deleted: true });
    assert.equal((await s.request('GET', `/v1/projects/${p.id}`, { key })).statusCode, 404);
    assert.equal((await s.request('GET', `/v1/tests/${u.tests[0].test_id}`, { key })).statusCode, 404);
  });

  test('run now on a project without prompts says to add prompts to the project, not to patch its test; nothing is charged', async () => {
    const { key } = await s.account({ credits: 20 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { name: 'Empty', url: 'https://empty.example/', brand: { name: 'Emptyco' }, platforms: ['deepseek'] } })).json();
    for (const path of [`/v1/projects/${p.id}/runs`, `/v1/tests/${p.tests[0].test_id}/runs`]) {
      const refused = await s.request('POST', path, { key, body: {} });
      assert.equal(refused.statusCode, 400, path);
      const detail = refused.json().detail;
      assert.equal(detail.error, 'invalid_request');
      assert.equal(detail.project_id, p.id);
      assert.equal(detail.test_id, p.tests[0].test_id);
      assert.match(detail.message, new RegExp(`^Project ${p.id} has no prompts yet, so there is nothing to ask: add some first \\(POST /v1/projects/${p.id}/prompts, `));
      assert.doesNotMatch(detail.message, /PATCH \/v1\/tests/);
    }
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units, '20.00');
    await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'best empty boxes' }] } });
    const ran = await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} });
    assert.equal(ran.statusCode, 200, ran.body);
    assert.equal(ran.json().runs.length, 1);
  });

  test("a market's CSV (the console's link) is named by the project, market and window, not the test id alone", async () => {
    const { key } = await s.account({ credits: 20 });
    const make = async (name: string) =>
      (await s.request('POST', '/v1/projects', { key, body: { name, url: 'https://shoes.example/', brand: { name: 'StrideFit' }, platforms: ['deepseek'], prompts: [{ prompt: 'best running shoes' }] } })).json();
    const p = await make('StrideFit — Client: Stride & Co. (EMEA retainer)');
    const csv = async (testId: string, window: string) => {
      const res = await s.request('GET', `/v1/tests/${testId}/history?window=${window}&format=csv`, { key });
      assert.equal(res.statusCode, 200, res.body);
      return res.headers['content-disposition'];
    };
    assert.equal(await csv(p.tests[0].test_id, '7d'), 'attachment; filename="StrideFit-Client-Stride-Co.-EMEA-retainer-en-US-history-7d.csv"');
    assert.equal(await csv(p.tests[0].test_id, 'run'), 'attachment; filename="StrideFit-Client-Stride-Co.-EMEA-retainer-en-US-history-run.csv"');
    const accented = await make('Śródmieście — 東京');
    assert.equal(await csv(accented.tests[0].test_id, '30d'), 'attachment; filename="Srodmiescie-en-US-history-30d.csv"', 'accents dropped, other scripts left out');
  });

  test('a paste over the 1000-prompt limit is refused before any insert; one that fits goes in batches', async () => {
    const { key } = await s.account({ credits: 10 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...body, platforms: ['deepseek'], repeats: 1, prompts: [{ prompt: 'kept prompt' }] } })).json();
    const { db, dialect } = s.runtime.core.store;
    // Any insert into this project's prompts fails the request (a 500), so a 400 proves none ran.
    const guard = async (on: boolean) => {
      if (dialect === 'sqlite') {
        await sql.raw(on ? `CREATE TRIGGER no_prompt_insert BEFORE INSERT ON project_prompts WHEN NEW.project_id = '${p.id}' BEGIN SELECT RAISE(ABORT, 'inserted'); END` : 'DROP TRIGGER no_prompt_insert').execute(db);
      } else if (on) {
        await sql.raw(`CREATE FUNCTION no_prompt_insert() RETURNS trigger AS $$ BEGIN IF NEW.project_id = '${p.id}' THEN RAISE EXCEPTION 'inserted'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`).execute(db);
        await sql.raw('CREATE TRIGGER no_prompt_insert BEFORE INSERT ON project_prompts FOR EACH ROW EXECUTE FUNCTION no_prompt_insert()').execute(db);
      } else {
        await sql.raw('DROP TRIGGER no_prompt_insert ON project_prompts').execute(db);
        await sql.raw('DROP FUNCTION no_prompt_insert()').execute(db);
      }
    };
    const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `prompt number ${from + i} about crm software for small teams`).join('\n');
    await guard(true);
    try {
      const big = lines(8_500); // ~490 KB
      const started = Date.now();
      const refused = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: big } });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.deepEqual([refused.json().detail.error, refused.json().detail.message], ['invalid_request', 'A project holds at most 1000 prompts.']);
      assert.ok(Date.now() - started < 3000, `refused in ${Date.now() - started} ms`);
      // 999 new (plus the kept one) would be 1000 with the one too many.
      const oneOver = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: `${lines(1000)}\nkept prompt` } });
      assert.equal(oneOver.statusCode, 400, oneOver.body);
    } finally {
      await guard(false);
    }
    // Exactly the limit, repeats inside the paste counted as duplicates: all in, in batches.
    const fits = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: `${lines(999)}\n${lines(10)}\nkept prompt`, topics: ['Bulk'] } });
    assert.equal(fits.statusCode, 200, fits.body);
    assert.deepEqual([fits.json().added, fits.json().duplicates, fits.json().prompt_count], [999, 11, 1000]);
    const full = (await s.request('GET', `/v1/projects/${p.id}`, { key })).json();
    assert.equal(full.prompts.length, 1000);
    assert.deepEqual(full.prompts.find((x: any) => x.prompt === 'kept prompt').topics, ['bulk']);
    const more = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'one more' }] } });
    assert.equal(more.statusCode, 400);
  });

  test('imports at the same instant count each other: the 1000-prompt limit holds, a prompt in both goes in once', async () => {
    const { key } = await s.account({ credits: 10 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...body, platforms: ['deepseek'], repeats: 1, markets: [{ language: 'en', country: 'US' }] } })).json();
    // Four imports of 300 prompts of their own and one they share: three fit (901), the fourth does not.
    const paste = (n: number) => `shared prompt\n${Array.from({ length: 300 }, (_, i) => `import ${n} prompt ${i}`).join('\n')}`;
    const answers = await Promise.all([0, 1, 2, 3].map((n) => s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: paste(n) } })));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 400], answers.map((a) => a.body).join('\n'));
    assert.deepEqual(answers.filter((a) => a.statusCode === 200).map((a) => a.json().prompt_count).sort(), [301, 601, 901]);
    assert.equal((await s.request('GET', `/v1/projects/${p.id}`, { key })).json().prompts.length, 901);
  });
  test('changes at the same instant lose nothing: patches, imports and removals each see the others', async () => {
    const { key } = await s.account({ credits: 10 });
    const one = [{ language: 'en', country: 'US' }];
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...body, platforms: ['deepseek'], repeats: 1, markets: one, prompts: ['a', 'b', 'c'].map((prompt) => ({ prompt })) } })).json();
    const promptA = p.prompts.find((x: any) => x.prompt === 'a').id;
    const two = [...one, { language: 'de', country: 'DE' }];
    // Each patch names other fields (a patch merged into a row read before another committed would
    // write that row back); two add the same market (each would insert its test); the import and
    // the removal change the library every market's definition is built from.
    const answers = await Promise.all([
      s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { name: 'Renamed' } }),
      s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { repeats: 3 } }),
      s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { markets: two } }),
      s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { markets: two, monthly_credit_budget: '200.00' } }),
      s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { text: 'd\ne' } }),
      s.request('DELETE', `/v1/projects/${p.id}/prompts/${promptA}`, { key }),
    ]);
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 200, 200, 200, 200], answers.map((a) => a.body).join('\n'));
    const final = (await s.request('GET', `/v1/projects/${p.id}`, { key })).json();
    assert.deepEqual([final.name, final.repeats, final.monthly_credit_budget], ['Renamed', 3, '200.00']);
    assert.deepEqual(final.prompts.map((x: any) => x.prompt).sort(), ['b', 'c', 'd', 'e']);
    assert.deepEqual(final.tests.map((t: any) => t.market).sort(), ['de-DE', 'en-US'], 'one test per market');
    for (const t of final.tests) {
      const test = (await s.request('GET', `/v1/tests/${t.test_id}`, { key })).json();
      assert.deepEqual([test.definition.prompts.map((x: any) => x.prompt ?? x).sort(), test.definition.repeats], [['b', 'c', 'd', 'e'], 3], t.market);
    }
  });
});

describe('project sample plan', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('each market planned from 50% before any run; the project total a month', async () => {
    const { key } = await s.account({ credits: 10 });
    const p = (
      await s.request('POST', '/v1/projects', {
        key,
        body: { url: 'https://plan.example/', brand: { name: 'Plano' }, markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }], platforms: ['deepseek'], schedule: { cron: '0 6 * * *', timezone: 'UTC' }, prompts: [{ prompt: 'a' }, { prompt: 'b' }] },
      })
    ).json();
    const plan = (await s.request('GET', `/v1/projects/${p.id}/sample-plan?half_width=0.1&window=30d`, { key })).json();
    assert.equal(plan.markets.length, 2);
    for (const m of plan.markets) {
      assert.equal(m.runs_per_period, 30);
      assert.equal(m.repeats_needed, 4, '93 answers over 30 daily runs');
      assert.equal(m.planned.credits_per_run, '8.00', '2 prompts × deepseek 1.00 × 4 repeats');
    }
    assert.equal(plan.repeats_needed, 4);
    assert.equal(plan.feasible, true);
    assert.equal(plan.current_credits_per_month, '120.00', '2 markets × 30 runs × 2.00');
    assert.equal(plan.planned_credits_per_month, '480.00');
    assert.equal((await s.request('GET', `/v1/projects/${p.id}/sample-plan`, { key })).json().detail.error, 'invalid_request');
  });
});
