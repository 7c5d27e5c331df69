// Nothing a probe job runs holds a worker's event loop for long (docs/operating.md, "Job claiming"): the
// answer analysis is linear in the answer's length, and the answer is cut to ANSWER_MAX_CHARS
// before it is checkpointed, analysed and stored, whatever the platform sends. (When a process
// stalls anyway, its lease runs out and another worker takes the job over, its own late writes
// fenced off: fair-claiming.test.ts and probe-checkpoint.test.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { ANSWER_MAX_CHARS } from '../../src/core/limits.ts';

describe('job time budget: bounded answer analysis', () => {
  let s: TestServer;
  let claude: FakeProvider;
  // Acme CRM at the start, Pipedrive only after three times the cap.
  const head = 'For agencies, Acme CRM is the simplest choice. ';
  const filler = 'Teams compare pipelines, reports and prices before they choose a tool. ';
  const huge = head + filler.repeat(Math.ceil((3 * ANSWER_MAX_CHARS) / filler.length)) + 'Pipedrive is another option.';

  before(async () => {
    claude = await startFakeProvider('claude', () => ({ answer: { text: huge } }));
    s = await startTestServer({ SIGHTLINE_PLATFORM_ENGINE: 'live', SIGHTLINE_PROBE_MAX_ATTEMPTS: '1', ...claude.env });
  });
  after(async () => {
    await s.close();
    await claude.close();
  });

  test('an answer three times the cap is kept, analysed and stored up to the cap', async () => {
    const { key } = await s.account({ credits: 10 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme-crm.example', target_entity: 'Acme CRM', competitors: ['Pipedrive'], prompts: ['best crm for agencies'], platforms: ['claude'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const run = await s.waitForRun(key, res.json().run_id);
    assert.equal(run.status, 'completed');
    const full = (await s.request('GET', `/v1/visibility/runs/${run.run_id}?include_probes=true`, { key })).json();
    const probe = (await s.request('GET', `/v1/visibility/runs/${run.run_id}/probes/${full.probes[0].probe_id}`, { key })).json();
    assert.equal(probe.status, 'succeeded');
    assert.ok(huge.length > 3 * ANSWER_MAX_CHARS);
    assert.equal(probe.answer.length, ANSWER_MAX_CHARS);
    assert.ok(huge.startsWith(probe.answer));
    assert.equal(probe.brand_mentioned, true);
    assert.equal(probe.brands.find((b: any) => b.name === 'Pipedrive').mentioned, false, 'what lies past the cap is not analysed');
  });
});
