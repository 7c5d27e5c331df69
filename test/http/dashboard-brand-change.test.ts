// The dashboard's brand and competitor change per window: each window is compared with the window
// before only when both asked the same (the same definition_id); otherwise `change` and
// `previous_mention_rate` are null and `not_comparable_reason` says why: no window before, the
// window before asked something else, or one of the two mixes definitions. Through the real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { round4 } from '../../src/lib/stats.ts';
import { pdfText } from '../helpers/pdf-text.ts';

type Rate = { name?: string; mention_rate: number | null; previous_mention_rate: number | null; change: number | null };
type Window = { definition_id: string | null; not_comparable_reason: string | null; brand: Rate; competitors: Rate[] };

describe('project dashboard: the brand change between comparable windows', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('two windows of different definitions are not compared, two of the same are', async () => {
    const { key } = await s.account({ credits: 500 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://anvils.example/',
        brand: { name: 'Acme Anvils' },
        competitors: [{ name: 'Globex' }],
        platforms: ['deepseek', 'openai'],
        repeats: 1,
        prompts: [{ prompt: 'best anvils [[sandbox:mention]]' }],
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const runProject = async () => {
      const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
      for (const r of run.runs) await s.waitForRun(key, r.run_id, 60_000);
      return run.runs[0].run_id as string;
    };
    const first = await runProject();
    // A prompt added: the next runs ask something else than the first.
    const added = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'anvil makers [[sandbox:mention]]' }] } });
    assert.equal(added.statusCode, 200, added.body);
    const second = await runProject();
    const third = await runProject();

    const db = s.runtime.core.store.db;
    const ids = [first, second, third];
    const rolled = async () => (await db.selectFrom('dashboard_rollup_runs').select('run_id').where('run_id', 'in', ids).execute()).length;
    for (let waited = 0; (await rolled()) < ids.length && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    // Every answer named the brand; take it back from one of the third run's four: 4/4 then 3/4.
    const probes = await db.selectFrom('visibility_probes').select(['id', 'status', 'brand_mentioned']).where('run_id', '=', third).orderBy('seq').execute();
    assert.equal(probes.length, 4);
    assert.ok(probes.every((x) => x.status === 'succeeded' && x.brand_mentioned === 1));
    await db.updateTable('visibility_probes').set({ brand_mentioned: 0, citation_mentioned: 0 }).where('id', '=', probes[0].id).execute();
    await db.deleteFrom('dashboard_rollups').where('run_id', '=', third).execute();
    await db.deleteFrom('dashboard_rollup_runs').where('run_id', '=', third).execute();
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await db.updateTable('visibility_runs').set({ created_at: ago(16) }).where('id', '=', first).execute();
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', '=', second).execute();

    const read = async () => {
      const res = await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30`, { key });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { series: Window[] };
    };
    const d = await read();
    assert.equal(d.series.length, 3);
    assert.deepEqual(
      d.series.map((w) => w.not_comparable_reason),
      ['no_previous_window', 'definition_changed', null],
    );
    assert.notEqual(d.series[0].definition_id, d.series[1].definition_id);
    assert.equal(d.series[1].definition_id, d.series[2].definition_id);
    for (const w of d.series.slice(0, 2)) {
      for (const r of [w.brand, ...w.competitors]) assert.deepEqual([r.previous_mention_rate, r.change], [null, null], 'no move claimed');
    }
    const [, before, latest] = d.series;
    assert.equal(before.brand.mention_rate, 1);
    assert.equal(latest.brand.mention_rate, 0.75);
    assert.equal(latest.brand.previous_mention_rate, 1);
    assert.equal(latest.brand.change, -0.25);
    assert.deepEqual(latest.competitors.map((c) => c.name), ['Globex']);
    const globex = latest.competitors[0];
    assert.equal(globex.previous_mention_rate, before.competitors[0].mention_rate);
    assert.equal(globex.change, round4(globex.mention_rate! - globex.previous_mention_rate!));

    // The shared report shows the same change beside each rate, on the page and in the PDF.
    const link = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: { window: '7d', days: 30 } })).json();
    const page = async () => (await s.request('GET', `/share/${link.token}`)).body;
    const compared = await page();
    assert.match(compared, /<th class="num">Change<\/th>/);
    assert.match(compared, /<tr class="brand[^"]*">.*?<td class="num" data-change>−25 pts<\/td>/);
    assert.doesNotMatch(compared, /No change is shown/);
    const pdf = pdfText((await s.request('GET', `/share/${link.token}/report.pdf`)).rawPayload);
    if (pdf !== null) assert.match(pdf, /Acme Anvils \(brand\) · thin 75% −25 pts/);

    // The first run moved into the second's window: that window mixes definitions, so the latest
    // one is not compared with it.
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', '=', first).execute();
    const mixed = await read();
    assert.deepEqual(
      mixed.series.map((w) => [w.definition_id === null, w.not_comparable_reason]),
      [
        [true, 'no_previous_window'],
        [false, 'definition_mixed'],
      ],
    );
    assert.equal(mixed.series[1].brand.change, null);
    assert.equal(mixed.series[1].brand.previous_mention_rate, null);
    // The shared report claims no move either, and says why.
    const notCompared = await page();
    assert.match(notCompared, /<tr class="brand[^"]*">.*?<td class="num" data-change>not comparable<\/td>/);
    assert.match(notCompared, /No change is shown: runs in this period or the one before asked different things\./);
  });
  test('a prompt compares with the window before only where it was asked the same; each platform on its own', async () => {
    const { key } = await s.account({ credits: 500 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://kettles.example/',
        brand: { name: 'Acme Kettles' },
        platforms: ['deepseek'],
        repeats: 1,
        prompts: [{ prompt: 'best kettles [[sandbox:mention]]' }, { prompt: 'quiet kettles [[sandbox:mention]]' }],
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const runProject = async () => {
      const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
      for (const r of run.runs) await s.waitForRun(key, r.run_id, 60_000);
      return run.runs[0].run_id as string;
    };
    const db = s.runtime.core.store.db;
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    type Cell = { platform: string; previous_mention_rate: number | null; change: number | null };
    type Row = { prompt: string; previous_mention_rate: number | null; change: number | null; not_comparable_reason: string | null; platforms: Cell[] };
    const matrix = async () => {
      const res = await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30`, { key });
      assert.equal(res.statusCode, 200, res.body);
      return new Map((res.json().matrix as Row[]).map((m) => [m.prompt.split(' ')[0], m]));
    };

    const first = await runProject();
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', '=', first).execute();
    // The same again: every prompt and cell compared (all named both times: ±0).
    const second = await runProject();
    let m = await matrix();
    for (const row of m.values()) {
      assert.deepEqual([row.not_comparable_reason, row.previous_mention_rate, row.change], [null, 1, 0]);
      assert.deepEqual(row.platforms.map((c) => [c.platform, c.change]), [['deepseek', 0]]);
    }

    // A platform added: the pooled rate of each prompt now mixes in another platform, so it is
    // not compared; the deepseek cell, asked the same, still is; the new platform's is not.
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', '=', second).execute();
    const patched = await s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { platforms: ['deepseek', 'openai'] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const third = await runProject();
    m = await matrix();
    for (const row of m.values()) {
      assert.deepEqual([row.not_comparable_reason, row.previous_mention_rate, row.change], ['definition_changed', null, null]);
      const cells = new Map(row.platforms.map((c) => [c.platform, c]));
      assert.deepEqual([cells.get('deepseek')!.previous_mention_rate, cells.get('deepseek')!.change], [1, 0]);
      assert.deepEqual([cells.get('openai')!.previous_mention_rate, cells.get('openai')!.change], [null, null]);
    }
    // The window's brand change says the same (the definition changed).
    const d = (await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30`, { key })).json();
    assert.equal(d.series.at(-1).not_comparable_reason, 'definition_changed');

    // A prompt added: the window's brand change is not compared (it asks more), but the prompts
    // asked as before still are, and the new one has no window before.
    await db.updateTable('visibility_runs').set({ created_at: ago(16) }).where('id', 'in', [first, second]).execute();
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', '=', third).execute();
    const added = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'cheap kettles [[sandbox:mention]]' }] } });
    assert.equal(added.statusCode, 200, added.body);
    await runProject();
    m = await matrix();
    assert.deepEqual(
      [...m].map(([k, row]) => [k, row.not_comparable_reason, row.change]),
      [
        ['best', null, 0],
        ['quiet', null, 0],
        ['cheap', 'no_previous_window', null],
      ],
    );
    const after = (await s.request('GET', `/v1/projects/${p.id}/dashboard?window=7d&days=30`, { key })).json();
    assert.equal(after.series.at(-1).not_comparable_reason, 'definition_changed');
  });
});
