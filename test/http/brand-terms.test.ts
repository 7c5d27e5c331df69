// Brand aliases and domains through the HTTP API in live mode against a fake OpenAI: an alias
// counts as the brand, the brand's other domains as its citations and as `owned`, a competitor's
// alias and domains as that competitor's; the run reads back its terms; a definition with terms
// is another definition; projects pass their brand's and competitors' terms to their runs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const ANSWER = 'For agencies, Acme is a solid pick, and many teams still run SFDC. Pricing is on the Acme site.';

describe('brand aliases and domains', () => {
  let s: TestServer;
  let openai: FakeProvider;
  before(async () => {
    openai = await startFakeProvider('openai', () => ({
      answer: {
        text: ANSWER,
        citations: [
          { url: 'https://acme.io/pricing', title: 'Acme pricing' },
          { url: 'https://sfdc-cloud.example/crm', title: 'SFDC' },
          { url: 'https://www.reddit.com/r/crm/comments/1', title: 'r/crm' },
        ],
      },
    }));
    s = await startTestServer({ SIGHTLINE_PLATFORM_ENGINE: 'live', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', ...openai.env });
  });
  after(async () => {
    await s.close();
    await openai.close();
  });

  const plain = { url: 'https://acme-crm.example/', target_entity: 'Acme CRM', prompts: ['best crm for agencies'], platforms: ['openai'] };
  const terms = {
    target_aliases: ['Acme', 'acme'],
    target_domains: ['https://www.Acme.io/', 'acme.io'],
    competitors: ['HubSpot', { name: 'Salesforce', aliases: ['SFDC'], domains: ['sfdc-cloud.example'] }],
  };

  async function run(key: string, body: Record<string, unknown>) {
    const created = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.equal(created.statusCode, 200, created.body);
    await s.waitForRun(key, created.json().run_id);
    return (await s.request('GET', `/v1/visibility/runs/${created.json().run_id}?include_probes=true`, { key })).json();
  }

  test('without terms the alias, the other domain and the competitor alias count for nothing', async () => {
    const { key } = await s.account({ credits: 20 });
    const r = await run(key, { ...plain, competitors: ['HubSpot', 'Salesforce'] });
    assert.equal(r.brand_terms, null);
    const p = r.probes[0];
    assert.equal(p.brand_mentioned, false);
    assert.equal(p.citation_mentioned, false);
    assert.deepEqual(p.competitors, []);
    const classes = Object.fromEntries(r.summary.citation_sources.citation_share_by_class.map((c: { class: string; citations: number }) => [c.class, c.citations]));
    assert.equal(classes.owned ?? 0, 0);
    assert.equal(classes.competitor ?? 0, 0);
  });

  test('with terms: mentioned by alias, cited on its other domain, the competitor found by alias and its domain classed as its own', async () => {
    const { key } = await s.account({ credits: 20 });
    const r = await run(key, { ...plain, ...terms });
    assert.deepEqual(r.competitors, ['HubSpot', 'Salesforce']);
    assert.deepEqual(r.brand_terms, {
      target_aliases: ['Acme'],
      target_domains: ['acme.io'],
      competitors: [{ name: 'Salesforce', aliases: ['SFDC'], domains: ['sfdc-cloud.example'] }],
    });
    const p = r.probes[0];
    assert.equal(p.brand_mentioned, true);
    assert.equal(p.text_mentioned, true);
    assert.equal(p.citation_mentioned, true);
    assert.equal(p.mention_position, ANSWER.indexOf('Acme'));
    assert.deepEqual(p.competitors, ['Salesforce']);
    const target = p.brands.find((b: { role: string }) => b.role === 'target');
    assert.deepEqual(target.evidence, { rule: 'exact', text: 'Acme' });
    const classes = Object.fromEntries(r.summary.citation_sources.citation_share_by_class.map((c: { class: string; citations: number }) => [c.class, c.citations]));
    assert.equal(classes.owned, 1);
    assert.equal(classes.competitor, 1);
    assert.equal(classes.community, 1);
    // The export classes each citation URL in order, the competitor's by name.
    const exported = (await s.request('GET', `/v1/visibility/runs/${r.run_id}/export?format=jsonl`, { key })).body.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(exported[0].citation_classes, ['owned', 'competitor:Salesforce', 'community']);
    // A listed run equals its read, terms included.
    const listed = (await s.request('GET', '/v1/visibility/runs', { key })).json().runs[0];
    assert.deepEqual(listed.brand_terms, r.brand_terms);
  });

  test('bad terms are refused before anything is reserved', async () => {
    const { key } = await s.account({ credits: 20 });
    const bad = await s.request('POST', '/v1/visibility/runs', { key, body: { ...plain, target_domains: ['not a domain'] } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().detail.error, 'invalid_request');
    const many = await s.request('POST', '/v1/visibility/runs', { key, body: { ...plain, target_aliases: Array.from({ length: 11 }, (_, i) => `A${i}`) } });
    assert.equal(many.statusCode, 422);
    const extra = await s.request('POST', '/v1/visibility/runs', { key, body: { ...plain, competitors: [{ name: 'X', website: 'x.example' }] } });
    assert.equal(extra.statusCode, 422);
    assert.deepEqual(extra.json().detail[0], { loc: ['body', 'competitors', 0, 'website'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units, '20.00');
  });

  test('a tracked test with terms compares only runs with the same terms; a project passes its brand terms on', async () => {
    const { key } = await s.account({ credits: 200 });
    const created = await s.request('POST', '/v1/tests', { key, body: { name: 'acme', test_type: 'ai_citations', definition: { ...plain, ...terms } } });
    assert.equal(created.statusCode, 200, created.body);
    const testId = created.json().id;
    const started = (await s.request('POST', `/v1/tests/${testId}/runs`, { key, body: {} })).json();
    await s.waitForRun(key, started.run_id);
    // The same prompts without terms, attached to the test by URL and brand: another definition.
    const oneOff = await run(key, plain);
    assert.equal(oneOff.test_id, testId);
    const history = (await s.request('GET', `/v1/tests/${testId}/history?window=run`, { key })).json();
    assert.deepEqual(history.points.flatMap((p: { run_ids: string[] }) => p.run_ids), [started.run_id]);
    assert.deepEqual(history.other_runs.map((o: { run_id: string }) => o.run_id), [oneOff.run_id]);

    const project = (
      await s.request('POST', '/v1/projects', {
        key,
        body: {
          name: 'Acme',
          url: 'https://acme-crm.example/',
          brand: { name: 'Acme CRM', aliases: ['Acme'], domains: ['acme.io'] },
          competitors: [{ name: 'Salesforce', aliases: ['SFDC'], domains: ['sfdc-cloud.example'] }, { name: 'HubSpot' }],
          markets: [{ language: 'en', country: 'US' }],
          platforms: ['openai'],
          prompts: [{ prompt: 'best crm for agencies' }],
        },
      })
    ).json();
    const runs = (await s.request('POST', `/v1/projects/${project.id}/runs`, { key, body: {} })).json().runs;
    await s.waitForRun(key, runs[0].run_id);
    const r = (await s.request('GET', `/v1/visibility/runs/${runs[0].run_id}?include_probes=true`, { key })).json();
    assert.deepEqual(r.brand_terms.target_aliases, ['Acme']);
    assert.equal(r.probes[0].brand_mentioned, true);
    assert.deepEqual(r.probes[0].competitors, ['Salesforce']);
  });
});
