// Per-prompt numbers and history that compares like with like, through the HTTP API and MCP on
// the sandbox engine: `by_prompt` checked against the probes it summarizes (rates and Wilson
// intervals recomputed here from the probe list), the comparable-history rule (one-off runs of
// another definition listed apart, runs elsewhere with the test's definition pooled, include=all,
// a changed definition never compared with the old one), and the CSV history.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { connectMcp } from '../helpers/mcp-client.ts';

/** Wilson score interval at 95%, written out independently of src/core/tracking/stats.ts. */
function wilson(k: number, n: number) {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const r = (x: number) => Math.round(x * 10000) / 10000;
  return { low: k === 0 ? 0 : r(centre - half), high: k === n ? 1 : r(centre + half), level: 0.95, method: 'wilson' };
}
const r4 = (x: number) => Math.round(x * 10000) / 10000;

describe('by_prompt and comparable history', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  test('a run summary has by_prompt in the run prompt order; every rate and interval follows from its probes', async () => {
    const { key } = await s.account({ credits: 200 });
    const prompts = ['zeta: which crm for agencies', 'alpha: always [[sandbox:mention]]', 'mid: never [[sandbox:no-mention]]', 'broken [[sandbox:error]]'];
    const created = (
      await s.request('POST', '/v1/visibility/runs', {
        key,
        body: { url: 'https://byprompt.example/', target_entity: 'Acme CRM', prompts, platforms: ['deepseek', 'openai'], repeats: 3, competitors: ['HubSpot', 'Pipedrive'] },
      })
    ).json();
    await s.waitForRun(key, created.run_id);
    const run = (await s.request('GET', `/v1/visibility/runs/${created.run_id}?include_probes=true`, { key })).json();
    const byPrompt = run.summary.by_prompt;
    assert.deepEqual(byPrompt.map((e: any) => e.prompt), prompts, 'in the order the run asked them');
    for (const e of byPrompt) {
      const mine = run.probes.filter((p: any) => p.prompt === e.prompt);
      const ok = mine.filter((p: any) => p.status === 'succeeded');
      const k = ok.filter((p: any) => p.brand_mentioned).length;
      assert.equal(e.probes, mine.length);
      assert.equal(e.probes, 6);
      assert.equal(e.succeeded, ok.length);
      if (ok.length === 0) {
        assert.equal(e.mention_rate, null);
        assert.equal(e.mention_rate_ci, null);
        assert.equal(e.share_of_voice, null);
      } else {
        assert.equal(e.mention_rate, r4(k / ok.length));
        assert.deepEqual(e.mention_rate_ci, wilson(k, ok.length));
        const voices = k + ok.reduce((a: number, p: any) => a + p.competitors.length, 0);
        assert.equal(e.share_of_voice, voices === 0 ? null : r4(k / voices));
      }
      for (const b of e.by_platform) {
        const onPlatform = mine.filter((p: any) => p.platform === b.platform);
        const okP = onPlatform.filter((p: any) => p.status === 'succeeded');
        assert.equal(b.probes, onPlatform.length);
        assert.equal(b.mention_rate, okP.length ? r4(okP.filter((p: any) => p.brand_mentioned).length / okP.length) : null);
      }
      assert.deepEqual(e.competitors.map((c: any) => c.name), ['HubSpot', 'Pipedrive']);
      for (const c of e.competitors) {
        assert.equal(c.mention_rate, ok.length ? r4(ok.filter((p: any) => p.competitors.includes(c.name)).length / ok.length) : null);
      }
    }
    assert.equal(byPrompt[1].mention_rate, 1);
    assert.deepEqual(byPrompt[1].mention_rate_ci, { low: 0.6097, high: 1, level: 0.95, method: 'wilson' }); // 6 of 6
    assert.equal(byPrompt[2].mention_rate, 0);
    assert.deepEqual(byPrompt[2].mention_rate_ci, { low: 0, high: 0.3903, level: 0.95, method: 'wilson' }); // 0 of 6
    assert.equal(byPrompt[3].succeeded, 0);
    // The list's compact runs carry it too.
    const listed = (await s.request('GET', '/v1/visibility/runs?limit=1', { key })).json().runs[0];
    assert.deepEqual(listed.summary.by_prompt, byPrompt);
  });

  test('history pools the runs the test started and runs elsewhere with its definition; a one-off run of another definition is listed apart', async () => {
    const { accountId, key } = await s.account({ credits: 500 });
    const definition = {
      url: 'https://compare.example/',
      target_entity: 'Compo',
      prompts: ['p1 [[sandbox:mention]]', 'p2 [[sandbox:no-mention]]'],
      platforms: ['deepseek', 'openai'],
      repeats: 2,
      competitors: ['Rival'],
    };
    const t = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition } })).json();
    const runNow = async () => (await s.waitForRun(key, (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json().run_id)).run_id as string;
    const oneOff = async (body: Record<string, unknown>) =>
      (await s.waitForRun(key, (await s.request('POST', '/v1/visibility/runs', { key, body }).then((r) => r.json())).run_id)) as { run_id: string; test_id: string; source: string };
    const first = await runNow();
    // The same definition made elsewhere, prompts and platforms in another order, competitor spelled in capitals: comparable.
    const same = await oneOff({ ...definition, prompts: [...definition.prompts].reverse(), platforms: ['openai', 'deepseek'], competitors: ['RIVAL'] });
    // A 2-probe Gemini run for the same page and brand: attached to the test, but not comparable.
    const other = await oneOff({ url: definition.url, target_entity: 'Compo', prompts: ['p1 [[sandbox:mention]]'], platforms: ['gemini'], repeats: 2 });
    assert.equal(other.test_id, t.id, 'attached to the same saved test');
    // A run that differs only in its competitors, or only in its repeats, is another definition too.
    const otherCompetitors = await oneOff({ ...definition, competitors: ['Rival', 'Newco'] });
    const otherRepeats = await oneOff({ ...definition, repeats: 1 });

    const h = (await s.request('GET', `/v1/tests/${t.id}/history`, { key })).json();
    assert.equal(h.include, 'comparable');
    assert.deepEqual(h.points.map((p: any) => p.run_ids[0]), [first, same.run_id]);
    assert.equal(h.points[0].definition_id, h.points[1].definition_id);
    assert.equal(h.points[0].definition_id, h.definition_id, 'the test definition id');
    assert.deepEqual(
      h.other_runs.map((r: any) => [r.run_id, r.source]),
      [[other.run_id, 'api'], [otherCompetitors.run_id, 'api'], [otherRepeats.run_id, 'api']],
    );
    for (const r of h.other_runs) assert.match(r.created_at, /^\d{4}-\d\d-\d\dT/);
    assert.equal(h.comparison.latest.start, h.points[1].start);
    assert.equal(h.comparison.previous.start, h.points[0].start);
    assert.equal(h.comparison.definition_id, h.definition_id);
    assert.equal(h.comparison.change, 0);
    // by_prompt on history points, rates from the point's own probes.
    assert.deepEqual(h.points[0].by_prompt.map((e: any) => [e.prompt, e.probes, e.succeeded, e.mention_rate]), [
      ['p1 [[sandbox:mention]]', 4, 4, 1],
      ['p2 [[sandbox:no-mention]]', 4, 4, 0],
    ]);
    assert.deepEqual(h.points[0].by_prompt[0].mention_rate_ci, wilson(4, 4));

    // include=all: every attached run is a point; the latest (of another definition) is compared with nothing of another.
    const all = (await s.request('GET', `/v1/tests/${t.id}/history?include=all`, { key })).json();
    assert.equal(all.include, 'all');
    assert.equal(all.points.length, 5);
    assert.deepEqual(all.other_runs, []);
    assert.equal(all.comparison, null, 'the latest point (repeats 1) has no earlier point of its definition');
    const pooled = (await s.request('GET', `/v1/tests/${t.id}/history?include=all&window=7d`, { key })).json();
    assert.equal(pooled.points[0].definition_id, null, 'a window pooling several definitions has none');
    assert.equal(pooled.points[0].probe_count, 8 + 8 + 2 + 8 + 4);
    const comparablePooled = (await s.request('GET', `/v1/tests/${t.id}/history?window=7d`, { key })).json();
    assert.equal(comparablePooled.points[0].probe_count, 16);
    assert.equal(comparablePooled.points[0].definition_id, h.definition_id);
    assert.equal((await s.request('GET', `/v1/tests/${t.id}/history?include=some`, { key })).json().detail.error, 'invalid_filter');

    // The test's definition changes: runs it started before stay in its history, but the new
    // definition's first point is compared with nothing, and its second with the first.
    const patched = await s.request('PATCH', `/v1/tests/${t.id}`, { key, body: { definition: { ...definition, repeats: 3 } } });
    assert.equal(patched.statusCode, 200, patched.body);
    const changed1 = await runNow();
    const h2 = (await s.request('GET', `/v1/tests/${t.id}/history`, { key })).json();
    assert.deepEqual(h2.points.map((p: any) => p.run_ids[0]), [first, changed1], 'the old definition run elsewhere is no longer comparable; the one the test started stays');
    assert.notEqual(h2.points[0].definition_id, h2.points[1].definition_id);
    assert.equal(h2.points[1].definition_id, h2.definition_id);
    assert.equal(h2.comparison, null, 'never compared across definitions');
    assert.ok(h2.other_runs.some((r: any) => r.run_id === same.run_id));
    const changed2 = await runNow();
    const h3 = (await s.request('GET', `/v1/tests/${t.id}/history`, { key })).json();
    assert.deepEqual(h3.points.map((p: any) => p.run_ids[0]), [first, changed1, changed2]);
    assert.equal(h3.comparison.previous.start, h3.points[1].start);
    assert.equal(h3.comparison.latest.start, h3.points[2].start);
    assert.equal(h3.comparison.latest.succeeded, 12);

    // CSV: per-prompt rows and the runs listed apart.
    const csv = await s.request('GET', `/v1/tests/${t.id}/history?format=csv`, { key });
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    assert.equal(rows.filter((r) => r.series === 'all').length, 3);
    const promptRows = rows.filter((r) => r.series === 'prompt:p1 [[sandbox:mention]]');
    assert.deepEqual(promptRows.map((r) => [r.probe_count, r.succeeded, r.mention_rate]), [['4', '4', '1'], ['6', '6', '1'], ['6', '6', '1']]);
    assert.equal(rows.filter((r) => r.series === 'prompt:p2 [[sandbox:no-mention]]|platform:openai').length, 3);
    assert.deepEqual(rows.filter((r) => r.series.startsWith('other_run:')).map((r) => r.run_ids).sort(), h3.other_runs.map((r: any) => r.run_id).sort());
    assert.ok(rows.every((r) => 'definition_id' in r));

    // MCP: the same tool takes include.
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    const viaMcp = JSON.parse(((await client.callTool({ name: 'get_test_history', arguments: { test_id: t.id, include: 'all' } })) as any).content[0].text);
    assert.equal(viaMcp.points.length, 7);
    const viaMcpDefault = JSON.parse(((await client.callTool({ name: 'get_test_history', arguments: { test_id: t.id } })) as any).content[0].text);
    assert.deepEqual(viaMcpDefault.other_runs, h3.other_runs);
    await client.close();
  });

});
