// A competitor added to a project after it has run: its rate on the dashboard rests only on the
// answers of runs that looked for it (the runs before it never asked), in the series, the prompt
// matrix and each platform's cell, and share of voice counts only runs that looked for every
// competitor listed now. Counted against the runs' own probes, through the real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('project dashboard: a competitor added later', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  const probesOf = async (key: string, runId: string) => {
    const run = (await s.request('GET', `/v1/visibility/runs/${runId}?include_probes=true`, { key })).json();
    return run.probes as { prompt: string; platform: string; status: string; brand_mentioned: boolean | null; competitors: string[] }[];
  };

  test('its rate, n and share of voice come from the runs that looked for it', async () => {
    const { key } = await s.account({ credits: 500 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        name: 'Acme',
        url: 'https://acme-crm.example/',
        brand: { name: 'Acme CRM', domains: ['acme-crm.example'] },
        competitors: [{ name: 'HubSpot' }],
        markets: [{ language: 'en', country: 'US' }],
        platforms: ['deepseek', 'openai'],
        repeats: 2,
        prompts: ['best crm for agencies', 'crm pricing compared', 'crm for developers [[sandbox:mention]]'].map((prompt) => ({ prompt })),
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const first = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
    await s.waitForRun(key, first.runs[0].run_id, 60_000);

    const patched = await s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { competitors: [{ name: 'HubSpot' }, { name: 'Salesforce' }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const second = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
    await s.waitForRun(key, second.runs[0].run_id, 60_000);

    const before = (await probesOf(key, first.runs[0].run_id)).filter((x) => x.status === 'succeeded');
    const after = (await probesOf(key, second.runs[0].run_id)).filter((x) => x.status === 'succeeded');
    const named = (list: typeof after, name: string) => list.filter((x) => x.competitors.includes(name)).length;
    const brand = (list: typeof after) => list.filter((x) => x.brand_mentioned).length;
    assert.ok(before.length > 0 && after.length > 0);

    const d = (await s.request('GET', `/v1/projects/${p.id}/dashboard`, { key })).json();
    assert.equal(d.series.length, 1);
    const w = d.series[0];
    assert.equal(w.run_ids.length, 2);
    assert.equal(w.brand.n, before.length + after.length, 'the brand was looked for in both runs');
    const hub = w.competitors.find((c: any) => c.name === 'HubSpot');
    const sf = w.competitors.find((c: any) => c.name === 'Salesforce');
    assert.equal(hub.n, before.length + after.length);
    assert.equal(sf.n, after.length, 'only the run that looked for Salesforce');
    const rate = (m: number, n: number) => Math.round((m / n) * 10_000) / 10_000;
    assert.equal(sf.mention_rate, rate(named(after, 'Salesforce'), after.length));
    assert.equal(hub.mention_rate, rate(named(before, 'HubSpot') + named(after, 'HubSpot'), before.length + after.length));
    // Share of voice: only the run that looked for every competitor listed now.
    const voice = brand(after) + named(after, 'HubSpot') + named(after, 'Salesforce');
    if (voice > 0) {
      assert.equal(w.brand.share_of_voice, rate(brand(after), voice));
      assert.equal(sf.share_of_voice, rate(named(after, 'Salesforce'), voice));
      assert.equal(hub.share_of_voice, rate(named(after, 'HubSpot'), voice));
    }

    // The prompt matrix and each platform's cell.
    for (const row of d.matrix) {
      const mine = after.filter((x) => x.prompt === row.prompt);
      const all = [...before, ...after].filter((x) => x.prompt === row.prompt);
      assert.equal(row.n, all.length, row.prompt);
      const cell = row.competitors.find((c: any) => c.name === 'Salesforce');
      assert.equal(cell.n, mine.length, row.prompt);
      assert.equal(cell.mention_rate, mine.length ? rate(named(mine, 'Salesforce'), mine.length) : null, row.prompt);
      for (const pl of row.platforms) {
        const onPlatform = mine.filter((x) => x.platform === pl.platform);
        const c = pl.competitors.find((x: any) => x.name === 'Salesforce');
        assert.equal(c.mention_rate, onPlatform.length ? rate(named(onPlatform, 'Salesforce'), onPlatform.length) : null, `${row.prompt} on ${pl.platform}`);
      }
    }
  });
});
