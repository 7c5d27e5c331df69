// Reports by URL and a saved test's runs as docs/api.md documents them: each compact visibility
// run carries overall_score and visibility_band at its top level (besides its summary), and the
// OpenAPI document says so.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('reports by URL: top-level scores and bands', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('visibility runs in reports and in a test carry overall_score and visibility_band at the top level', async () => {
    const { key } = await s.account({ credits: 50 });
    const mk = (prompts: string[]) =>
      s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example/pricing', target_entity: 'Acme', prompts, platforms: ['deepseek'] } });
    const strong = (await mk(['anvils [[sandbox:mention]]', 'hammers [[sandbox:mention]]'])).json();
    const half = (await mk(['anvils [[sandbox:mention]]', 'hammers [[sandbox:no-mention]]'])).json();
    const invisible = (await mk(['anvils [[sandbox:no-mention]]'])).json();
    for (const r of [strong, half, invisible]) await s.waitForRun(key, r.run_id);

    const report = (await s.request('GET', '/v1/reports/by-url?url=https://acme.example/pricing/', { key })).json();
    assert.equal(report.match_count, 1);
    const runs = report.matches[0].runs;
    const expected = [
      [invisible.run_id, 0, 'Invisible'],
      [half.run_id, 0.5, 'Good'],
      [strong.run_id, 1, 'Strong'],
    ];
    assert.deepEqual(runs.map((r: any) => [r.run_id, r.overall_score, r.visibility_band]), expected);
    for (const r of runs) {
      assert.equal(r.overall_score, r.summary.overall_score);
      assert.equal(r.visibility_band, r.summary.visibility_band);
    }
    const t = (await s.request('GET', `/v1/tests/${report.matches[0].test.id}`, { key })).json();
    assert.deepEqual(t.runs.map((r: any) => [r.run_id, r.overall_score, r.visibility_band]), expected);

    const doc = (await s.request('GET', '/openapi.json')).json();
    const schema = JSON.stringify(doc.paths['/v1/reports/by-url'].get.responses['200']);
    for (const field of ['overall_score', 'visibility_band', 'overall_band']) assert.ok(schema.includes(field), field);
  });
});
