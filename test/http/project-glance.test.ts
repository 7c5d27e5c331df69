// GET /v1/projects gives each project its latest figures (`glance`): the dashboard's own latest
// window (mention rate, interval, n, engine) and the change from the last earlier week that asked
// the same, with its significance, read for the whole list in a fixed number of queries however
// many projects it holds. Through the real server on the sandbox engine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { projectGlances } from '../../src/core/projects/dashboard.ts';
import type { Store } from '../../src/db/store.ts';
import { compareProportions } from '../../src/lib/stats.ts';
import { FORMATTERS } from '../../src/cli/formatters.ts';

describe('projects list: latest figures per project', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('each project carries its dashboard latest window and a significant change; one list, a fixed number of queries', async () => {
    const { key } = await s.account({ credits: 2000 });
    const db = s.runtime.core.store.db;
    const create = async (name: string, markets: { language: string; country: string }[]) => {
      const res = await s.request('POST', '/v1/projects', {
        key,
        body: { name, url: `https://${name}.example/`, brand: { name }, markets, platforms: ['openai', 'gemini', 'deepseek'], repeats: 3, prompts: [{ prompt: `best ${name} [[sandbox:mention]]` }] },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const runProject = async (id: string) => {
      const run = (await s.request('POST', `/v1/projects/${id}/runs`, { key, body: {} })).json();
      for (const r of run.runs) await s.waitForRun(key, r.run_id, 60_000);
      return (run.runs as { run_id: string }[]).map((r) => r.run_id);
    };
    const twoMarkets = await create('globex', [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }]);
    const rising = await create('initech', [{ language: 'en', country: 'US' }]);
    const idle = await create('umbrella', [{ language: 'en', country: 'US' }]);
    const earlierTwo = await runProject(twoMarkets.id);
    const [firstRising] = await runProject(rising.id);
    const earlier = [...earlierTwo, firstRising];
    await runProject(twoMarkets.id);
    await runProject(rising.id);
    await runProject(rising.id);
    // The rising brand was named in none of its 9 answers a week and more ago, in all 18 now.
    await db.updateTable('visibility_probes').set({ brand_mentioned: 0, citation_mentioned: 0 }).where('run_id', '=', firstRising).execute();
    await db.deleteFrom('dashboard_rollups').execute();
    await db.deleteFrom('dashboard_rollup_runs').execute();
    const ago = new Date(Date.now() - 9 * 86_400_000).toISOString();
    await db.updateTable('visibility_runs').set({ created_at: ago }).where('id', 'in', earlier).execute();

    const res = await s.request('GET', '/v1/projects', { key });
    assert.equal(res.statusCode, 200, res.body);
    const byId = new Map((res.json().projects as any[]).map((p) => [p.id, p]));
    for (const p of [twoMarkets, rising]) {
      const g = byId.get(p.id).glance;
      const d = (await s.request('GET', `/v1/projects/${p.id}/dashboard`, { key })).json();
      const last = d.series.at(-1);
      // Windows end at the time of the read: the two reads are moments apart.
      for (const edge of ['start', 'end']) assert.ok(Math.abs(Date.parse(g.latest_period[edge]) - Date.parse(d.latest_period[edge])) < 60_000, 'the dashboard latest window');
      assert.equal(g.mention_rate, last.brand.mention_rate);
      assert.deepEqual(g.mention_rate_ci, last.brand.mention_rate_ci);
      assert.equal(g.n, last.brand.n);
      assert.equal(g.thin, last.brand.thin);
      assert.equal(g.engine, 'sandbox');
      assert.equal(g.complete, true);
      assert.ok(g.last_run_at, 'when it last ran');
    }
    const up = byId.get(rising.id).glance;
    // Two runs this week (18 answers, all named), one the week before (9, none named).
    assert.equal(up.n, 18);
    assert.equal(up.mention_rate, 1);
    assert.equal(up.previous_mention_rate, 0);
    const z = compareProportions(0, 9, 18, 18)!;
    assert.equal(up.change, z.change);
    assert.equal(up.change_significant, true);
    assert.equal(up.p_value, z.p_value);
    assert.ok(up.previous_period);
    // The CLI's list line says the same.
    const listed = FORMATTERS['projects list']!.human(res.json());
    const line = (typeof listed === 'string' ? listed : listed.rows).split('\n').find((l) => l.startsWith(rising.id))!;
    assert.match(line, /; latest week 100% \(\d+%–100%\), n=18, sandbox; \+100 pts significant$/);
    // Every answer of both markets named the brand, in both weeks: no move, within the noise.
    const flat = byId.get(twoMarkets.id).glance;
    assert.equal(flat.change, 0);
    assert.equal(flat.change_significant, false);
    // Its dashboard's windows pool two markets, each asking one thing: one id for that set, the
    // same in both weeks, neither market's own.
    const both = (await s.request('GET', `/v1/projects/${twoMarkets.id}/dashboard`, { key })).json();
    const ids = both.series.map((x: { definition_id: string | null }) => x.definition_id);
    assert.equal(ids.length, 2);
    assert.match(ids[0], /^def_[0-9a-f]{16}$/);
    assert.equal(ids[1], ids[0]);
    const en = (await s.request('GET', `/v1/projects/${twoMarkets.id}/dashboard?market=en-US`, { key })).json();
    assert.notEqual(en.series[0].definition_id, ids[0]);
    const none = byId.get(idle.id).glance;
    assert.equal(none.latest_period, null);
    assert.equal(none.mention_rate, null);
    assert.equal(none.change, null);
    assert.equal(none.last_run_at, null);

    // The list's figures cost the same number of queries for one project as for three.
    const queries = async (ids: string[]) => {
      let count = 0;
      const counter: KyselyPlugin = { transformQuery: (a) => (count++, a.node), transformResult: async (a) => a.result };
      const store = { ...s.runtime.core.store, db: db.withPlugin(counter) } as Store;
      await projectGlances(store, ids, s.runtime.core.catalog);
      return count;
    };
    const one = await queries([rising.id]);
    assert.equal(await queries([rising.id, twoMarkets.id, idle.id]), one);
    assert.ok(one <= 4, `${one} queries`);
  });
});
