// The dashboard's prompt matrix: `change` is the move between the two windows computed from the
// counts (k/n) as history's comparison computes it, rounded once, not the difference of two
// rates already rounded to 4 decimals (1/3 → 2/3 is 0.3333, not 0.6667 − 0.3333 = 0.3334). And
// a market asked as "de_de" is answered as the project keeps it (de-DE). Through the real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { round4 } from '../../src/lib/stats.ts';

describe('project dashboard: change from counts, market as the project keeps it', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('1/3 then 2/3 is a change of 0.3333; market=de_de answers de-DE', async () => {
    const { key } = await s.account({ credits: 500 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://acme-crm.example/',
        brand: { name: 'Acme CRM', domains: ['acme-crm.example'] },
        competitors: [{ name: 'HubSpot' }],
        markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }],
        platforms: ['deepseek', 'openai', 'gemini'],
        repeats: 1,
        prompts: [{ prompt: 'crm for developers [[sandbox:mention]]' }],
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const runProject = async () => {
      const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
      for (const r of run.runs) await s.waitForRun(key, r.run_id, 60_000);
      return run.runs as { run_id: string; market: string | null }[];
    };
    const first = await runProject();
    const second = await runProject();
    const db = s.runtime.core.store.db;
    const ids = [...first, ...second].map((r) => r.run_id);
    const rolled = async () => (await db.selectFrom('dashboard_rollup_runs').select('run_id').where('run_id', 'in', ids).execute()).length;
    for (let waited = 0; (await rolled()) < ids.length && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    // Every answer named the brand; take it back from some so the de-DE prompt is 1/3 then 2/3.
    const de = (runs: typeof first) => runs.find((r) => r.market === 'de-DE')!.run_id;
    const unmention = async (runId: string, count: number) => {
      const probes = await db.selectFrom('visibility_probes').select(['id', 'status', 'brand_mentioned']).where('run_id', '=', runId).orderBy('seq').execute();
      assert.equal(probes.length, 3);
      assert.ok(probes.every((x) => x.status === 'succeeded' && x.brand_mentioned === 1));
      const ids = probes.slice(0, count).map((x) => x.id);
      await db.updateTable('visibility_probes').set({ brand_mentioned: 0, citation_mentioned: 0 }).where('id', 'in', ids).execute();
    };
    await unmention(de(first), 2);
    await unmention(de(second), 1);
    // The tallies are read again from the probes; the first runs go to the window before.
    await db.deleteFrom('dashboard_rollups').where('run_id', 'in', ids).execute();
    await db.deleteFrom('dashboard_rollup_runs').where('run_id', 'in', ids).execute();
    const ago = new Date(Date.now() - 9 * 86_400_000).toISOString();
    await db.updateTable('visibility_runs').set({ created_at: ago }).where('id', 'in', first.map((r) => r.run_id)).execute();

    const res = await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30&market=de_de`, { key });
    assert.equal(res.statusCode, 200, res.body);
    const d = res.json();
    assert.equal(d.market, 'de-DE', 'the market as the project keeps it, not as asked');
    assert.ok(d.previous_period, 'two windows');
    const m = d.matrix[0];
    assert.equal(m.previous_mention_rate, 0.3333);
    assert.equal(m.mention_rate, 0.6667);
    assert.equal(round4(m.mention_rate - m.previous_mention_rate), 0.3334, 'the difference of the rounded rates');
    assert.equal(m.change, 0.3333, 'from the counts: 2/3 − 1/3, rounded once');

    const all = (await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30`, { key })).json();
    assert.equal(all.market, null);
    const en = (await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30&market=EN_us`, { key })).json();
    assert.equal(en.market, 'en-US');
  });
});
