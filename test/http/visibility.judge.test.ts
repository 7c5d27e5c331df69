// The judge of sentiment and recommendation in live mode, end to end through the HTTP
// API against fake providers: probes answered by one platform, the judge (SIGHTLINE_JUDGE_MODEL)
// by another, through the same drivers. Valid output fills the fields and records the judge's
// model; invalid output and a failing judge leave them null with judge_error; without a judge
// they are null. The judge moves no credits. The same call confirms the mentions the reader's rule
// decided weakly, and a brand that is also a given name named bare: the judge's reading decides
// them and is recorded in the evidence (judged, verdict), and the probe's own columns follow;
// without a judge the lexical decision stands.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider, type FakeStep } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const ANSWER = [
  'Top CRMs for agencies:',
  '',
  '1. **HubSpot** – generous free tier',
  '2. **Acme CRM** – simple pipelines, recommended for small agencies',
  '3. **Freshsales** – built for calling',
  '',
  'Avoid Pipedrive if you need marketing features.',
].join('\n');

// "Ring" opens a sentence and is a frequent English word: the rule alone turns it down, weakly.
// "Mint" opens a sentence and is a rarer word the answer uses nowhere else: taken, weakly.
// "Arlo" is no English word: taken, firmly, and never asked about.
const WEAK_ANSWER = ['Ring doorbells record motion and alert your phone.', '', 'Mint green is the colour of this year’s model.', '', 'Arlo is the main alternative.'].join('\n');
const WEAK_VERDICT = {
  brands: [
    { name: 'Ring', sentiment: 'positive', recommended: true },
    { name: 'Mint', sentiment: 'neutral', recommended: false },
    { name: 'Arlo', sentiment: 'neutral', recommended: false },
  ],
};

// "Ford" is also a given name, named bare (no model, possessive or compound around it): taken,
// ambiguous, and asked about. "Ford Transit" would be firm.
const GIVEN_ANSWER = 'For a first van, ask a fleet manager. When we asked around, Ford was the name everyone gave us.';

// Taken by strong rules, but in doubt: "Kellogg" in a sentence dated 1929 (a person of history
// more often than the cereal maker), "Patagonia" a name the English dictionary lists only as a
// place. Both are asked about; the judge overturns the first and confirms the second.
const DOUBT_ANSWER = 'Frank B. Kellogg won the Nobel Peace Prize in 1929.\n\nFor the hike itself, Patagonia makes the warmest fleece.';

describe('the judge in live mode', () => {
  let judged: TestServer;
  let unjudged: TestServer;
  let claude: FakeProvider;
  let openai: FakeProvider;
  let mode: 'valid' | 'invalid' | 'fail' | 'confirm' | 'silent' | 'given' | 'doubt' = 'valid';

  before(async () => {
    claude = await startFakeProvider('claude', () => ({
      answer: { text: mode === 'doubt' ? DOUBT_ANSWER : mode === 'given' ? GIVEN_ANSWER : mode === 'confirm' || mode === 'silent' ? WEAK_ANSWER : ANSWER, citations: [{ url: 'https://reviews.example/crm', title: 'CRM reviews' }] },
    }));
    openai = await startFakeProvider('openai', (req): FakeStep => {
      assert.match(JSON.stringify(req.body), /careful analyst/);
      if (mode === 'fail') return { status: 400, error: 'model not allowed' };
      if (mode === 'doubt') {
        const verdict = {
          brands: [
            { name: 'Kellogg', sentiment: 'neutral', recommended: false },
            { name: 'Patagonia', sentiment: 'positive', recommended: true },
          ],
          mentions: [
            { name: 'Kellogg', names_brand: false },
            { name: 'Patagonia', names_brand: true },
          ],
        };
        return { answer: { text: JSON.stringify(verdict), model: 'gpt-judge-2026-01-01' } };
      }
      if (mode === 'given') {
        const verdict = { brands: [{ name: 'Ford', sentiment: 'neutral', recommended: false }], mentions: [{ name: 'Ford', names_brand: false }] };
        return { answer: { text: JSON.stringify(verdict), model: 'gpt-judge-2026-01-01' } };
      }
      if (mode === 'confirm' || mode === 'silent') {
        const mentions = [
          { name: 'Ring', names_brand: true },
          { name: 'Mint', names_brand: false },
        ];
        return { answer: { text: JSON.stringify({ ...WEAK_VERDICT, ...(mode === 'confirm' ? { mentions } : {}) }), model: 'gpt-judge-2026-01-01' } };
      }
      const text =
        mode === 'invalid'
          ? '{"brands": [{"name": "Acme CRM", "sentiment": "glowing", "recommended": true}]}'
          : JSON.stringify({
              brands: [
                { name: 'Acme CRM', sentiment: 'positive', recommended: true },
                { name: 'HubSpot', sentiment: 'positive', recommended: false },
                { name: 'Pipedrive', sentiment: 'negative', recommended: false },
              ],
              other_brands: ['Freshsales', 'Salesforce'],
            });
      return { answer: { text, model: 'gpt-judge-2026-01-01' } };
    });
    const env = { SIGHTLINE_PLATFORM_ENGINE: 'live', SIGHTLINE_PROBE_MAX_ATTEMPTS: '1', ...claude.env, ...openai.env };
    judged = await startTestServer({ ...env, SIGHTLINE_JUDGE_MODEL: 'openai:gpt-judge' });
    unjudged = await startTestServer(env);
  });
  after(async () => {
    await judged.close();
    await unjudged.close();
    await Promise.all([claude.close(), openai.close()]);
  });

  const CRM_RUN = { url: 'https://acme-crm.example', target_entity: 'Acme CRM', competitors: ['HubSpot', 'Pipedrive', 'Zoho'], prompts: ['best crm for agencies'], platforms: ['claude'] };
  const VAN_RUN = { url: 'https://ford.example', target_entity: 'Ford', prompts: ['best first van'], platforms: ['claude'], language: 'en' };
  const DOUBT_RUN = { url: 'https://kellogg.example', target_entity: 'Kellogg', competitors: ['Patagonia'], prompts: ['best breakfast before a hike'], platforms: ['claude'], language: 'en' };
  const DOORBELL_RUN = { url: 'https://ring.com', target_entity: 'Ring', competitors: ['Mint', 'Arlo'], prompts: ['best video doorbell'], platforms: ['claude'], language: 'en' };

  async function run(s: TestServer, body: object = CRM_RUN) {
    const { key } = await s.account({ credits: 50 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body,
    });
    assert.equal(res.statusCode, 200, res.body);
    const done = await s.waitForRun(key, res.json().run_id);
    return (await s.request('GET', `/v1/visibility/runs/${done.run_id}?include_probes=true`, { key })).json();
  }

  test('valid output: sentiment and recommendation per brand, the judge recorded, its other brands discovered, no credits for it', async () => {
    mode = 'valid';
    const before = openai.requests.length;
    const r = await run(judged);
    assert.equal(openai.requests.length, before + 1);
    assert.equal(openai.requests.at(-1)!.body.model, 'gpt-judge');
    const p = r.probes[0];
    assert.deepEqual(p.judge, { platform: 'openai', model: 'gpt-judge-2026-01-01', engine: 'live' });
    assert.equal(p.judge_error, null);
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    assert.deepEqual([byName['Acme CRM'].sentiment, byName['Acme CRM'].recommended, byName['Acme CRM'].list_rank], ['positive', true, 2]);
    assert.deepEqual([byName.HubSpot.sentiment, byName.HubSpot.recommended, byName.HubSpot.list_rank], ['positive', false, 1]);
    assert.deepEqual([byName.Pipedrive.sentiment, byName.Pipedrive.recommended], ['negative', false]);
    assert.deepEqual([byName.Zoho.mentioned, byName.Zoho.sentiment, byName.Zoho.recommended], [false, null, false]);
    // Each entry says which rule decided it and what it read (null: nothing resembled the name).
    assert.deepEqual(byName['Acme CRM'].evidence, { rule: 'exact', text: 'Acme CRM' });
    assert.equal(byName.Zoho.evidence, null);
    assert.deepEqual(r.summary.sentiment, { positive: 1, neutral: 0, negative: 0, unknown: 0 });
    assert.equal(r.summary.competitors.find((c: { name: string }) => c.name === 'Pipedrive').sentiment.negative, 1);
    // "Salesforce" is not in the answer: a judge's invention is dropped.
    assert.deepEqual(r.summary.discovered_entities, [{ name: 'Freshsales', mentions: 1, platforms: ['claude'] }]);
    assert.equal(r.billing.settled_credits, '4.00', 'only the claude probe is billed');
  });

  test('invalid output: fields null, judge_error set, the probe still succeeds', async () => {
    mode = 'invalid';
    const r = await run(judged);
    const p = r.probes[0];
    assert.equal(p.status, 'succeeded');
    assert.equal(p.judge_error.code, 'judge_invalid_output');
    assert.deepEqual(p.judge, { platform: 'openai', model: 'gpt-judge-2026-01-01', engine: 'live' });
    for (const b of p.brands) assert.deepEqual([b.sentiment, b.recommended], [null, null]);
    assert.deepEqual(r.summary.sentiment, { positive: 0, neutral: 0, negative: 0, unknown: 1 });
    assert.equal(r.billing.settled_credits, '4.00');
  });

  test('a failing judge: fields null, judge_error carries the provider failure', async () => {
    mode = 'fail';
    const r = await run(judged);
    const p = r.probes[0];
    assert.equal(p.status, 'succeeded');
    assert.match(p.judge_error.code, /^judge_provider_/);
    for (const b of p.brands) assert.deepEqual([b.sentiment, b.recommended], [null, null]);
    // The deterministic parts stay.
    assert.ok(p.brands[0].pawc > 0);
    assert.deepEqual(r.summary.discovered_entities, [{ name: 'Freshsales', mentions: 1, platforms: ['claude'] }]);
  });

  test('without a judge model: no judge, every sentiment and recommendation null', async () => {
    const before = openai.requests.length;
    const r = await run(unjudged);
    assert.equal(openai.requests.length, before);
    const p = r.probes[0];
    assert.equal(p.judge, null);
    assert.equal(p.judge_error, null);
    for (const b of p.brands) assert.deepEqual([b.sentiment, b.recommended], [null, null]);
    assert.ok(p.brands[0].first_mention_share > 0);
  });

  test('one call carries both weak decisions; the verdicts decide and are recorded', async () => {
    mode = 'confirm';
    const before = openai.requests.length;
    const r = await run(judged, DOORBELL_RUN);
    assert.equal(openai.requests.length, before + 1, 'one judge call for the answer');
    const sent = JSON.stringify(openai.requests.at(-1)!.body);
    assert.match(sent, /To confirm/);
    assert.ok(sent.includes('⟦Ring⟧ doorbells record motion'), 'the excerpt marks the occurrence');
    assert.ok(sent.includes('⟦Mint⟧ green'));
    assert.ok(!sent.includes('⟦Arlo⟧'), 'a firm decision is not asked about');
    const p = r.probes[0];
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    // The target, turned down by the rule, is named in the judge's reading.
    assert.deepEqual(byName.Ring.evidence, { rule: 'everyday_word_rejected', text: 'Ring', ambiguous: true, judged: true, verdict: 'mentioned' });
    assert.deepEqual([byName.Ring.mentioned, byName.Ring.mention_position, byName.Ring.sentiment, byName.Ring.recommended], [true, 0, 'positive', true]);
    assert.ok(byName.Ring.pawc > 0);
    assert.equal(p.brand_mentioned, true);
    assert.equal(p.mention_position, 0);
    assert.equal(r.summary.mention_rate, 1);
    // The competitor the rule took is the colour in the judge's reading.
    assert.deepEqual(byName.Mint.evidence, { rule: 'sentence_start', text: 'Mint', ambiguous: true, judged: true, verdict: 'not_mentioned' });
    assert.deepEqual(
      [byName.Mint.mentioned, byName.Mint.mention_position, byName.Mint.sentiment, byName.Mint.recommended, byName.Mint.pawc],
      [false, null, null, false, 0],
    );
    assert.deepEqual(p.competitors, ['Arlo']);
    // A firm decision is left alone and carries no mark.
    assert.deepEqual(byName.Arlo.evidence, { rule: 'exact', text: 'Arlo' });
  });

  test('a judge that does not answer the confirmations leaves the lexical decisions unmarked', async () => {
    mode = 'silent';
    const p = (await run(judged, DOORBELL_RUN)).probes[0];
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    assert.equal(p.judge_error, null);
    assert.deepEqual(byName.Ring.evidence, { rule: 'everyday_word_rejected', text: 'Ring', ambiguous: true });
    assert.equal(byName.Ring.mentioned, false);
    assert.equal(p.brand_mentioned, false);
    assert.deepEqual([byName.Mint.mentioned, byName.Mint.sentiment], [true, 'neutral']);
  });

  test('a brand that is also a given name, named bare, is asked about; the judge reads a person', async () => {
    mode = 'given';
    const before = openai.requests.length;
    const p = (await run(judged, VAN_RUN)).probes[0];
    assert.equal(openai.requests.length, before + 1);
    const sent = JSON.stringify(openai.requests.at(-1)!.body);
    assert.ok(sent.includes('⟦Ford⟧ was the name everyone gave us'), sent);
    assert.match(sent, /names of people, places or works/);
    const ford = p.brands.find((b: { name: string }) => b.name === 'Ford');
    assert.deepEqual(ford.evidence, { rule: 'capitalised', text: 'Ford', ambiguous: true, lexicon: 'given_name', judged: true, verdict: 'not_mentioned' });
    assert.deepEqual([ford.mentioned, p.brand_mentioned, p.mention_position], [false, false, null]);
    // Without a judge the mention stands, marked for a reader.
    const q = (await run(unjudged, VAN_RUN)).probes[0];
    const unjudgedFord = q.brands.find((b: { name: string }) => b.name === 'Ford');
    assert.deepEqual(unjudgedFord.evidence, { rule: 'capitalised', text: 'Ford', ambiguous: true, lexicon: 'given_name' });
    assert.equal(q.brand_mentioned, true);
  });

  test('mentions in doubt (a dated sentence, a name the dictionary lists) are asked about; the judge overturns one, confirms the other', async () => {
    mode = 'doubt';
    const before = openai.requests.length;
    const p = (await run(judged, DOUBT_RUN)).probes[0];
    assert.equal(openai.requests.length, before + 1);
    const sent = JSON.stringify(openai.requests.at(-1)!.body);
    assert.ok(sent.includes('Frank B. ⟦Kellogg⟧ won the Nobel Peace Prize in 1929'), sent);
    assert.ok(sent.includes('⟦Patagonia⟧ makes the warmest fleece'), sent);
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    assert.deepEqual(byName.Kellogg.evidence, { rule: 'exact', text: 'Kellogg', ambiguous: true, doubt: 'dated', judged: true, verdict: 'not_mentioned' });
    assert.deepEqual(byName.Patagonia.evidence, { rule: 'exact', text: 'Patagonia', ambiguous: true, doubt: 'name_list', judged: true, verdict: 'mentioned' });
    assert.deepEqual([byName.Kellogg.mentioned, p.brand_mentioned, p.mention_position], [false, false, null]);
    assert.equal(byName.Patagonia.mentioned, true);
    assert.deepEqual(p.competitors, ['Patagonia']);
    // Without a judge both mentions stand, marked with their doubt.
    const q = (await run(unjudged, DOUBT_RUN)).probes[0];
    const unjudgedKellogg = q.brands.find((b: { name: string }) => b.name === 'Kellogg');
    assert.deepEqual(unjudgedKellogg.evidence, { rule: 'exact', text: 'Kellogg', ambiguous: true, doubt: 'dated' });
    assert.equal(q.brand_mentioned, true);
  });

  test('without a judge: the weak lexical decisions stand, ambiguous and never judged', async () => {
    mode = 'confirm';
    const before = openai.requests.length;
    const r = await run(unjudged, DOORBELL_RUN);
    assert.equal(openai.requests.length, before);
    const p = r.probes[0];
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    assert.deepEqual(byName.Ring.evidence, { rule: 'everyday_word_rejected', text: 'Ring', ambiguous: true });
    assert.deepEqual(byName.Mint.evidence, { rule: 'sentence_start', text: 'Mint', ambiguous: true });
    assert.equal(p.brand_mentioned, false);
    assert.deepEqual(p.competitors, ['Mint', 'Arlo']);
  });
});

describe('a judge that never answers, in a job with a time budget', () => {
  let s: TestServer;
  let claude: FakeProvider;
  let openai: FakeProvider;
  before(async () => {
    claude = await startFakeProvider('claude', () => ({ answer: { text: ANSWER, citations: [{ url: 'https://reviews.example/crm', title: 'CRM reviews' }] } }));
    openai = await startFakeProvider('openai', () => ({ hang: true }));
    // The judge's attempts alone (4 × 60 s) would outlast the job's budget of 4 s.
    s = await startTestServer({
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      SIGHTLINE_PROBE_TIMEOUT_MS: '60000',
      SIGHTLINE_JOB_TIMEOUT_MS: '4000',
      SIGHTLINE_JUDGE_MODEL: 'openai:gpt-judge',
      ...claude.env,
      ...openai.env,
    });
  });
  after(async () => {
    await s.close();
    await Promise.all([claude.close(), openai.close()]);
  });

  test('the answer is kept and charged with the lexical decision; judge_timeout, not job_timeout', async () => {
    const { key } = await s.account({ credits: 50 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme-crm.example', target_entity: 'Acme CRM', competitors: ['HubSpot'], prompts: ['best crm for agencies'], platforms: ['claude'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const done = await s.waitForRun(key, res.json().run_id);
    const r = (await s.request('GET', `/v1/visibility/runs/${done.run_id}?include_probes=true`, { key })).json();
    const p = r.probes[0];
    assert.equal(r.status, 'completed', JSON.stringify(p.error));
    assert.equal(p.status, 'succeeded');
    assert.equal(p.error, null);
    assert.equal(p.judge_error.code, 'judge_timeout');
    assert.equal(p.brand_mentioned, true);
    for (const b of p.brands) assert.deepEqual([b.sentiment, b.recommended], [null, null]);
    assert.equal(r.billing.settled_credits, r.billing.reserved_credits);
    assert.ok(openai.requests.length >= 1, 'the judge was asked');
  });
});
