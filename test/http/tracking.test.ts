// Tracking through the HTTP API on the sandbox engine: repeats (funding order, partial funding,
// billing, varied answers), intervals and share of voice on runs, tracked tests (create, update,
// pause, delete, run now, errors), history (per run and pooled windows, CSV) and run exports
// (CSV parsed back by a CSV library, JSON Lines).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const URL_ = 'https://www.acme-crm.example/pricing';

describe('tracking over HTTP', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('repeats: probes in prompt, platform, repeat order, funded in that order; skipped ones cost nothing', async () => {
    const { key } = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: URL_, target_entity: 'Acme CRM', prompts: ['best crm', 'cheap crm'], platforms: ['openai', 'deepseek'], repeats: 3 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json();
    // openai 2.00 and deepseek 1.00 per probe: 2+2+2+1+1+1 = 9 funds the first prompt; 11 > 10 stops.
    assert.equal(created.probe_count, 12);
    assert.equal(created.status, 'partially_queued');
    assert.equal(created.estimated_credits, '18.00');
    assert.equal(created.reserved_credits, '9.00');
    assert.equal(created.queued_probe_count, 6);
    assert.equal(created.prompt_count, 2);
    assert.equal(created.platform_count, 2);
    const run = await s.waitForRun(key, created.run_id);
    const full = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_probes=true`, { key })).json();
    assert.deepEqual(
      full.probes.map((p: any) => [p.prompt, p.platform, p.repeat, p.status === 'skipped' ? 'skipped' : 'ran']),
      [
        ['best crm', 'openai', 1, 'ran'], ['best crm', 'openai', 2, 'ran'], ['best crm', 'openai', 3, 'ran'],
        ['best crm', 'deepseek', 1, 'ran'], ['best crm', 'deepseek', 2, 'ran'], ['best crm', 'deepseek', 3, 'ran'],
        ['cheap crm', 'openai', 1, 'skipped'], ['cheap crm', 'openai', 2, 'skipped'], ['cheap crm', 'openai', 3, 'skipped'],
        ['cheap crm', 'deepseek', 1, 'skipped'], ['cheap crm', 'deepseek', 2, 'skipped'], ['cheap crm', 'deepseek', 3, 'skipped'],
      ],
    );
    assert.equal(run.billing.settled_credits, '9.00');
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '1.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    // The summary's rate rests on the six succeeded probes, with its interval.
    assert.equal(run.summary.completed_probe_count, 6);
    assert.equal(run.summary.mention_rate_ci.method, 'wilson');
    assert.ok(run.summary.mention_rate_ci.low <= run.summary.mention_rate && run.summary.mention_rate <= run.summary.mention_rate_ci.high);
  });

  test('an explicit probe may carry its own repeats; repeats out of 1..10 are 422', async () => {
    const { key } = await s.account({ credits: 100 });
    const ok = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: URL_, target_entity: 'Acme CRM', repeats: 2, probes: [{ prompt: 'a', platform: 'deepseek', repeats: 4 }, { prompt: 'b', platform: 'deepseek' }] },
    });
    assert.equal(ok.json().probe_count, 6);
    for (const repeats of [0, 11, 2.5, '3']) {
      const bad = await s.request('POST', '/v1/visibility/runs', { key, body: { url: URL_, target_entity: 'Acme', prompts: ['a'], platforms: ['openai'], repeats } });
      assert.equal(bad.statusCode, 422, `repeats ${repeats}`);
      assert.deepEqual(bad.json().detail[0].loc, ['body', 'repeats']);
    }
  });

  test('the sandbox varies its answers across repeats, deterministically; the first repeat answers as a run without repeats', async () => {
    const { key } = await s.account({ credits: 100 });
    const body = { url: URL_, target_entity: 'Acme CRM', prompts: ['which crm should a small agency pick'], platforms: ['deepseek'], competitors: ['HubSpot', 'Pipedrive'] };
    const ten = await s.waitForRun(key, (await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, repeats: 10 } })).json().run_id);
    const again = await s.waitForRun(key, (await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, repeats: 10 } })).json().run_id);
    const single = await s.waitForRun(key, (await s.request('POST', '/v1/visibility/runs', { key, body })).json().run_id);
    const answers = async (id: string) => (await s.request('GET', `/v1/visibility/runs/${id}?include_results=true`, { key })).json().probes;
    const a = await answers(ten.run_id);
    const b = await answers(again.run_id);
    const one = await answers(single.run_id);
    assert.ok(new Set(a.map((p: any) => p.answer)).size >= 5, 'repeats give different answers');
    assert.deepEqual(a.map((p: any) => p.answer), b.map((p: any) => p.answer), 'deterministic');
    assert.equal(a[0].answer, one[0].answer);
    for (const p of a) assert.match(p.answer, /sandbox answer/);
    assert.ok(new Set(a.map((p: any) => p.brand_mentioned)).size === 2, 'the mention itself varies across repeats');
    // Share of voice fields are coherent with the counts.
    const sm = ten.summary;
    const total = sm.brand_mentions + sm.competitors.reduce((x: number, c: any) => x + c.mentions, 0);
    assert.equal(sm.share_of_voice, total === 0 ? null : Math.round((sm.brand_mentions / total) * 1e4) / 1e4);
    for (const c of sm.competitors) {
      assert.equal(c.mention_rate, Math.round((c.mentions / sm.completed_probe_count) * 1e4) / 1e4);
      assert.equal(c.mention_rate_ci.method, 'wilson');
    }
    assert.equal(sm.by_platform[0].mention_rate_ci.level, 0.95);
    assert.ok('share_of_voice' in sm.by_platform[0]);
  });

  test('a tracked test adopts the earlier runs of its page and brand into its history, but its budget counts only the runs it starts', async () => {
    const { key } = await s.account({ credits: 100 });
    const definition = { url: 'https://adopt.example/', target_entity: 'Adopt', prompts: ['best anvils', 'cheap anvils'], platforms: ['openai', 'claude'] };
    const earlier = (await s.request('POST', '/v1/visibility/runs', { key, body: definition })).json();
    await s.waitForRun(key, earlier.run_id);
    const t = (
      await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition: { ...definition, prompts: ['best anvils'], platforms: ['openai'] }, schedule: { cron: '0 6 * * 1', timezone: 'UTC' }, monthly_credit_budget: '5.00' } })
    ).json();
    assert.equal(t.run_count, 1, 'the earlier run is in its history');
    const earlierRun = (await s.request('GET', `/v1/visibility/runs/${earlier.run_id}`, { key })).json();
    assert.equal(t.last_run_at, earlierRun.created_at, 'it last ran when the adopted run did, not when it was saved');
    assert.equal(t.credits_used_this_month, '0.00', 'but not in its budget');
    const now = (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json();
    await s.waitForRun(key, now.run_id);
    const read = (await s.request('GET', `/v1/tests/${t.id}`, { key })).json();
    assert.equal(read.run_count, 2);
    assert.equal(read.credits_used_this_month, now.estimated_credits ?? read.credits_used_this_month);
    assert.ok(Number(read.credits_used_this_month) > 0 && Number(read.credits_used_this_month) < Number(earlier.estimated_credits), JSON.stringify(read));
  });

  test('history marks a point whose run is still going, and compares only finished points', async () => {
    const { key } = await s.account({ credits: 100 });
    const definition = { url: 'https://progress.example/', target_entity: 'Progress', prompts: ['slow anvils [[sandbox:delay=1500]]'], platforms: ['openai'], repeats: 2 };
    const t = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition } })).json();
    const first = (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json();
    await s.waitForRun(key, first.run_id);
    const second = (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json();
    const during = (await s.request('GET', `/v1/tests/${t.id}/history?window=run`, { key })).json();
    assert.deepEqual(during.points.map((p: any) => [p.run_ids[0], p.complete]), [[first.run_id, true], [second.run_id, false]]);
    assert.equal(during.comparison, null, 'one finished point: nothing to compare yet');
    await s.waitForRun(key, second.run_id);
    const afterwards = (await s.request('GET', `/v1/tests/${t.id}/history?window=run`, { key })).json();
    assert.deepEqual(afterwards.points.map((p: any) => p.complete), [true, true]);
    assert.ok(afterwards.comparison && afterwards.comparison.latest.start === afterwards.points[1].start);
  });

  test('a saved test asks each prompt once: the same line twice is kept once, on create and update', async () => {
    const { key } = await s.account({ credits: 100 });
    const definition = { url: 'https://twice.example/', target_entity: 'Twice', prompts: ['best decaf', ' best  decaf ', 'decaf beans', 'best decaf'], platforms: ['deepseek', 'openai'] };
    const t = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition } })).json();
    assert.deepEqual(t.definition.prompts, ['best decaf', 'decaf beans']);
    const run = await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} });
    assert.equal(run.statusCode, 200, run.body);
    assert.equal(run.json().probe_count, 4, '2 prompts × 2 platforms, not 4 × 2');
    const u = (await s.request('PATCH', `/v1/tests/${t.id}`, { key, body: { definition: { ...definition, prompts: ['x', 'x', 'y'] } } })).json();
    assert.deepEqual(u.definition.prompts, ['x', 'y']);
  });

  test('tracked tests: create with a schedule, read, update, pause, run now, delete (runs stay readable)', async () => {
    const { key } = await s.account({ credits: 100 });
    const definition = { url: 'https://globex.example/', target_entity: 'Globex', prompts: ['best widgets'], platforms: ['deepseek'], repeats: 2, competitors: ['Initech'] };
    const res = await s.request('POST', '/v1/tests', {
      key,
      body: { test_type: 'ai_citations', name: 'Globex weekly', definition, schedule: { cron: '0 6 * * 1', timezone: 'Europe/Berlin' }, monthly_credit_budget: '200.00' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const t = res.json();
    assert.match(t.id, /^test_/);
    assert.equal(t.name, 'Globex weekly');
    assert.equal(t.url, 'https://globex.example/');
    assert.equal(t.target_entity, 'Globex');
    assert.deepEqual(t.definition, definition);
    assert.deepEqual(t.schedule, { cron: '0 6 * * 1', timezone: 'Europe/Berlin' });
    assert.equal(t.paused, false);
    assert.equal(t.monthly_credit_budget, '200.00');
    assert.equal(t.credits_used_this_month, '0.00');
    assert.equal(t.last_skip, null);
    // Mondays 06:00 in Berlin are 05:00 or 04:00 UTC.
    assert.match(t.next_run_at, /T0[45]:00:00Z$/);
    assert.equal(new Date(t.next_run_at).getUTCDay(), 1);

    const paused = (await s.request('PATCH', `/v1/tests/${t.id}`, { key, body: { paused: true, monthly_credit_budget: null } })).json();
    assert.equal(paused.paused, true);
    assert.equal(paused.next_run_at, null);
    assert.equal(paused.monthly_credit_budget, null);
    const resumed = (await s.request('PATCH', `/v1/tests/${t.id}`, { key, body: { paused: false, schedule: { cron: '30 7 * * *' } } })).json();
    assert.deepEqual(resumed.schedule, { cron: '30 7 * * *', timezone: 'UTC' });
    assert.match(resumed.next_run_at, /T07:30:00Z$/);

    const now = await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: { idempotency_key: 'now-1' } });
    assert.equal(now.statusCode, 200, now.body);
    assert.equal(now.json().test_id, t.id);
    assert.equal(now.json().probe_count, 2);
    const replay = (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: { idempotency_key: 'now-1' } })).json();
    assert.equal(replay.run_id, now.json().run_id);
    assert.equal(replay.idempotent_replay, true);
    await s.waitForRun(key, now.json().run_id);
    const read = (await s.request('GET', `/v1/tests/${t.id}`, { key })).json();
    assert.equal(read.run_count, 1);
    assert.equal(read.runs[0].run_id, now.json().run_id);
    assert.equal(read.credits_used_this_month, '2.00');
    // The list reads each test's month (tests in other time zones too) the same as one test's read.
    const other = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', name: 'Tokyo', definition: { ...definition, target_entity: 'OtherBrand' }, schedule: { cron: '0 9 * * 1', timezone: 'Asia/Tokyo' } } })).json();
    const listed = (await s.request('GET', '/v1/tests', { key })).json().tests as Array<{ id: string; credits_used_this_month: string }>;
    assert.equal(listed.find((x) => x.id === t.id)?.credits_used_this_month, '2.00');
    assert.equal(listed.find((x) => x.id === other.id)?.credits_used_this_month, '0.00');
    assert.equal((await s.request('DELETE', `/v1/tests/${other.id}`, { key })).statusCode, 200);
    // A run created the ordinary way for the same URL and brand joins the same test.
    const plain = (await s.request('POST', '/v1/visibility/runs', { key, body: { ...definition, repeats: 1 } })).json();
    await s.waitForRun(key, plain.run_id);
    const joined = (await s.request('GET', `/v1/tests/${t.id}`, { key })).json();
    assert.equal(joined.run_count, 2);
    assert.equal(joined.credits_used_this_month, '2.00', 'a one-off run of the same page joins the history, not the budget');

    const del = await s.request('DELETE', `/v1/tests/${t.id}`, { key });
    assert.deepEqual(del.json(), { id: t.id, deleted: true });
    assert.equal((await s.request('GET', `/v1/tests/${t.id}`, { key })).statusCode, 404);
    assert.equal((await s.request('DELETE', `/v1/tests/${t.id}`, { key })).statusCode, 404);
    assert.ok(!(await s.request('GET', '/v1/tests', { key })).json().tests.some((x: any) => x.id === t.id));
    assert.equal((await s.request('GET', `/v1/visibility/runs/${now.json().run_id}`, { key })).statusCode, 200);
    // A new run of the same URL and brand starts a new test.
    const fresh = (await s.request('POST', '/v1/visibility/runs', { key, body: definition })).json();
    const tests = (await s.request('GET', '/v1/tests', { key })).json().tests;
    assert.equal(tests.length, 1);
    assert.notEqual(tests[0].id, t.id);
    await s.waitForRun(key, fresh.run_id);
  });

  test('tracked test errors: bad schedule 400, definition errors under body.definition, scopes, unknown test 404', async () => {
    const { accountId, key } = await s.account({ credits: 100 });
    const definition = { url: URL_, target_entity: 'Acme', prompts: ['x'], platforms: ['openai'] };
    const post = (body: unknown, k = key) => s.request('POST', '/v1/tests', { key: k, body });
    for (const schedule of [{ cron: '61 * * * *' }, { cron: '* * *' }, { cron: '*/5 * * * * *' }, { cron: '0 6 * * 1', timezone: 'Mars/Olympus' }]) {
      const r = await post({ test_type: 'ai_citations', definition, schedule });
      assert.equal(r.statusCode, 400, JSON.stringify(schedule));
      assert.equal(r.json().detail.error, 'invalid_schedule');
    }
    const missing = await post({ test_type: 'ai_citations', definition: { url: URL_, prompts: ['x'], platforms: ['openai'] } });
    assert.equal(missing.statusCode, 422);
    assert.deepEqual(missing.json().detail[0].loc, ['body', 'definition', 'target_entity']);
    const typo = await post({ test_type: 'ai_citations', definition: { ...definition, competitor: 'Globex' } });
    assert.equal(typo.statusCode, 422);
    assert.deepEqual(typo.json().detail[0], { loc: ['body', 'definition', 'competitor'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
    const badPrompt = await post({ test_type: 'ai_citations', definition: { ...definition, prompts: ['x'.repeat(501)] } });
    assert.deepEqual(badPrompt.json().detail[0].loc, ['body', 'definition', 'prompts', 0]);
    assert.equal((await post({ test_type: 'ai_citations', definition: { ...definition, url: 'ftp://x' } })).json().detail.error, 'invalid_url');
    assert.equal((await post({ test_type: 'ai_citations', definition: { ...definition, prompts: undefined } })).json().detail.error, 'invalid_probe_mode');
    assert.equal((await post({ test_type: 'ai_citations', definition, monthly_credit_budget: '1.234' })).statusCode, 400);
    const readOnly = await s.key(accountId, { readOnly: true } as never);
    const denied = await post({ test_type: 'ai_citations', definition }, readOnly);
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().detail.required_scope, 'visibility:runs:create');
    const ciOnly = await s.key(accountId, { scopes: ['content_intelligence:runs:create', 'tests:read'] } as never);
    assert.equal((await post({ test_type: 'ai_citations', definition }, ciOnly)).statusCode, 403);
    assert.equal((await post({ test_type: 'content_intelligence', definition: { url: URL_, analysis_depth: 'full' } }, ciOnly)).statusCode, 200);
    assert.equal((await s.request('PATCH', '/v1/tests/test_nope', { key, body: { paused: true } })).statusCode, 404);
    assert.equal((await s.request('POST', '/v1/tests/test_nope/runs', { key })).statusCode, 404);
    // An implicit test has no definition until one is set: running it says so.
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://implicit.example/', target_entity: 'Imp', prompts: ['x'], platforms: ['deepseek'] } })).json();
    const implicit = (await s.request('GET', '/v1/tests', { key })).json().tests.find((t: any) => t.url === 'https://implicit.example/');
    assert.equal(implicit.definition, null);
    assert.equal(implicit.schedule, null);
    assert.equal((await s.request('POST', `/v1/tests/${implicit.id}/runs`, { key, body: {} })).statusCode, 400);
    // Nor can it be scheduled (every slot would be skipped) until it gets a definition with it.
    const scheduled = await s.request('PATCH', `/v1/tests/${implicit.id}`, { key, body: { schedule: { cron: '0 7 * * 1', timezone: 'Europe/Berlin' } } });
    assert.equal(scheduled.statusCode, 400, scheduled.body);
    assert.match(scheduled.json().detail.message, /no run definition yet.*sightline tests update ID --definition/);
    assert.equal((await s.request('GET', `/v1/tests/${implicit.id}`, { key })).json().schedule, null);
    const given = await s.request('PATCH', `/v1/tests/${implicit.id}`, {
      key,
      body: { definition: { url: 'https://implicit.example/', target_entity: 'Imp', prompts: ['x'], platforms: ['deepseek'] }, schedule: { cron: '0 7 * * 1' } },
    });
    assert.equal(given.statusCode, 200, given.body);
    assert.equal((await s.request('PATCH', `/v1/tests/${implicit.id}`, { key, body: { schedule: null } })).statusCode, 200);
    // Another account cannot see or touch it.
    const other = await s.account({ credits: 10 });
    assert.equal((await s.request('PATCH', `/v1/tests/${implicit.id}`, { key: other.key, body: { paused: true } })).statusCode, 404);
    assert.equal((await s.request('GET', `/v1/tests/${implicit.id}/history`, { key: other.key })).statusCode, 404);
    assert.equal((await s.request('GET', `/v1/visibility/runs/${run.run_id}/export`, { key: other.key })).statusCode, 404);
    await s.waitForRun(key, run.run_id);
  });

  test('history: one point per run, pooled 7d windows, the latest change with its test, CSV', async () => {
    const { key } = await s.account({ credits: 200 });
    const definition = { url: 'https://hist.example/', target_entity: 'Histo', prompts: ['p1 [[sandbox:mention]]', 'p2 [[sandbox:no-mention]]'], platforms: ['deepseek', 'openai'], repeats: 2, competitors: ['Rival'] };
    const t = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition } })).json();
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const r = (await s.request('POST', `/v1/tests/${t.id}/runs`, { key })).json();
      runs.push(await s.waitForRun(key, r.run_id));
    }
    const h = (await s.request('GET', `/v1/tests/${t.id}/history`, { key })).json();
    assert.equal(h.test_id, t.id);
    assert.equal(h.window, 'run');
    assert.equal(h.points.length, 3);
    assert.deepEqual(h.points.map((p: any) => p.run_ids[0]), runs.map((r) => r.run_id));
    for (const p of h.points) {
      assert.equal(p.probe_count, 8);
      assert.equal(p.succeeded, 8);
      assert.equal(p.mention_rate, 0.5); // forced in p1, forced out in p2
      assert.deepEqual(p.mention_rate_ci, { low: 0.2152, high: 0.7848, level: 0.95, method: 'wilson' });
      assert.equal(p.by_platform.length, 2);
      assert.equal(p.competitors[0].name, 'Rival');
    }
    assert.equal(h.comparison.change, 0);
    assert.equal(h.comparison.change_significant, false);
    const pooled = (await s.request('GET', `/v1/tests/${t.id}/history?window=7d&days=30`, { key })).json();
    assert.equal(pooled.points.length, 1);
    assert.equal(pooled.points[0].probe_count, 24);
    assert.deepEqual(pooled.points[0].run_ids.sort(), runs.map((r) => r.run_id).sort());
    assert.ok(pooled.points[0].mention_rate_ci.high - pooled.points[0].mention_rate_ci.low < h.points[0].mention_rate_ci.high - h.points[0].mention_rate_ci.low);
    assert.equal(pooled.comparison, null);
    assert.equal((await s.request('GET', `/v1/tests/${t.id}/history?window=1y`, { key })).json().detail.error, 'invalid_filter');
    const csv = await s.request('GET', `/v1/tests/${t.id}/history?format=csv`, { key });
    assert.match(csv.headers['content-type'] as string, /^text\/csv/);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    assert.equal(rows.filter((r) => r.series === 'all').length, 3);
    assert.equal(rows.filter((r) => r.series === 'platform:deepseek').length, 3);
    assert.equal(rows.filter((r) => r.series === 'competitor:Rival').length, 3);
    assert.equal(rows[0].mention_rate_ci_low, '0.2152');
    // Simulated rates say so in the file too, as the JSON point's engine does.
    assert.deepEqual([...new Set(rows.filter((r) => r.series !== 'skipped').map((r) => r.engine))], ['sandbox']);
    // RFC 4180: every record ends with CRLF; no byte order mark unless asked (bom=true, for Excel).
    assert.notEqual(csv.body.charCodeAt(0), 0xfeff);
    assert.ok(csv.body.startsWith('start,end,series,') && csv.body.endsWith('\r\n'), 'header first, CRLF last');
    assert.equal(csv.body.split('\r\n').length, rows.length + 2, 'a header, the rows and nothing after the last CRLF');
    const bom = await s.request('GET', `/v1/tests/${t.id}/history?format=csv&bom=true`, { key });
    assert.equal(bom.body.charCodeAt(0), 0xfeff);
    assert.ok(bom.body.slice(1) === csv.body, 'the same CSV after the mark');
  });

  test('exports: CSV per RFC 4180 survives quotes, commas, newlines and non-Latin text; JSON Lines; one row per probe', async () => {
    const { key } = await s.account({ credits: 100 });
    const prompt = 'Quel est le "meilleur" CRM, vraiment?\nИ какой дешевле? 最好的CRM是哪个';
    const created = (await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: URL_, target_entity: 'Acme CRM', prompts: [prompt, 'plain [[sandbox:error]]'], platforms: ['deepseek', 'openai'], repeats: 2, competitors: ['Globex, Inc.'] },
    })).json();
    await s.waitForRun(key, created.run_id);
    const tricky = 'He said "use Acme CRM", then, after a pause,\r\nadded: 東京の会社です — ça coûte 5 €;\nend';
    await s.runtime.core.store.db.updateTable('visibility_probes').set({ answer: tricky }).where('run_id', '=', created.run_id).where('seq', '=', 0).execute();
    const res = await s.request('GET', `/v1/visibility/runs/${created.run_id}/export?format=csv`, { key });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 8);
    assert.deepEqual(Object.keys(rows[0]), [
      'run_id', 'probe_id', 'prompt', 'platform', 'model', 'engine', 'language', 'country', 'repeat', 'status',
      'brand_mentioned', 'citation_mentioned', 'mention_position', 'list_rank', 'competitors', 'cited_domains', 'citation_urls', 'answer',
      'first_mention_share', 'pawc', 'sentiment', 'recommended', 'citation_classes',
    ]);
    // One class per citation URL, in the same order.
    for (const r of rows) assert.equal(r.citation_classes.split('; ').filter(Boolean).length, r.citation_urls.split('; ').filter(Boolean).length);
    // The sandbox simulates a labelled verdict; the target's prominence is there where it was mentioned.
    const mentioned = rows.find((r) => r.brand_mentioned === 'true');
    if (mentioned) assert.notEqual(mentioned.pawc, '');
    assert.equal(rows[0].answer, tricky);
    assert.equal(rows[0].prompt, prompt);
    assert.deepEqual(rows.map((r) => r.repeat), ['1', '2', '1', '2', '1', '2', '1', '2']);
    assert.deepEqual(rows.slice(4).map((r) => r.status), ['errored', 'errored', 'errored', 'errored']);
    assert.equal(rows[4].answer, '');
    // RFC 4180: records end with CRLF and a field holding a line break is quoted, so a reader
    // that splits records only on CRLF reads the same rows; no byte order mark unless bom=true.
    assert.notEqual(res.body.charCodeAt(0), 0xfeff);
    assert.ok(res.body.startsWith('run_id,probe_id,') && res.body.endsWith('\r\n'), 'header first, CRLF last');
    assert.deepEqual(parse(res.body, { columns: true, record_delimiter: '\r\n' }), rows);
    const bom = await s.request('GET', `/v1/visibility/runs/${created.run_id}/export?format=csv&bom=true`, { key });
    assert.equal(bom.body.charCodeAt(0), 0xfeff);
    assert.ok(bom.body.slice(1) === res.body, 'the same CSV after the mark');
    const jsonl = await s.request('GET', `/v1/visibility/runs/${created.run_id}/export?format=jsonl`, { key });
    const lines = jsonl.body.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 8);
    assert.equal(lines[0].answer, tricky);
    assert.ok(Array.isArray(lines[0].competitors) && Array.isArray(lines[0].citation_urls));
    assert.equal(lines[0].citation_classes.length, lines[0].citation_urls.length);
    assert.ok(Array.isArray(lines[0].brands));
    assert.equal(lines[0].brands[0].role, 'target');
    assert.equal(lines[4].brands, null); // errored: no analysis
    assert.equal(typeof lines[0].brand_mentioned, 'boolean');
    // Answer analysis rides along in JSON Lines: the target first, then the competitor.
    assert.deepEqual(lines[0].brands.map((b: { name: string; role: string }) => [b.name, b.role]), [['Acme CRM', 'target'], ['Globex, Inc.', 'competitor']]);
    assert.equal(lines[0].judge.engine, 'sandbox');
    assert.equal(lines[4].brands, null, 'an errored probe has no analysis');
    assert.equal((await s.request('GET', `/v1/visibility/runs/${created.run_id}/export?format=xlsx`, { key })).statusCode, 400);
    assert.equal((await s.request('GET', `/v1/visibility/runs/vis_nope/export`, { key })).statusCode, 404);
  });
});
