// Confirmation of weak mention decisions by the live judge, end to end through the HTTP API
// against fake providers in their wire format: the answer's one judge call carries the brands
// whose mention the reader's rule decided weakly, each with its excerpt; the judge's reading
// decides them and is recorded in the evidence (judged, verdict), and the probe's own columns
// and the run summary follow it. Without a judge the lexical decision stands, marked ambiguous
// and never judged; a judge that does not answer a confirmation leaves it as it was.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeProvider, type FakeProvider, type FakeStep } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

// "Ring" opens a sentence and is a frequent English word: the rule alone turns it down, weakly.
// "Mint" opens a sentence and is a rarer word the answer uses nowhere else: taken, weakly.
// "Arlo" is no English word: taken, firmly, and never asked about.
const ANSWER = [
  'Ring doorbells record motion and alert your phone.',
  '',
  'Mint green is the colour of this year’s model.',
  '',
  'Arlo is the main alternative.',
].join('\n');

describe('the live judge confirms weak mention decisions', () => {
  let judged: TestServer;
  let unjudged: TestServer;
  let claude: FakeProvider;
  let openai: FakeProvider;
  let mode: 'confirm' | 'silent' = 'confirm';

  before(async () => {
    claude = await startFakeProvider('claude', () => ({ answer: { text: ANSWER, citations: [] } }));
    openai = await startFakeProvider('openai', (): FakeStep => {
      const text = JSON.stringify({
        brands: [
          { name: 'Ring', sentiment: 'positive', recommended: true },
          { name: 'Mint', sentiment: 'neutral', recommended: false },
          { name: 'Arlo', sentiment: 'neutral', recommended: false },
        ],
        ...(mode === 'confirm'
          ? {
              mentions: [
                { name: 'Ring', names_brand: true },
                { name: 'Mint', names_brand: false },
              ],
            }
          : {}),
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

  async function run(s: TestServer) {
    const { key } = await s.account({ credits: 50 });
    const res = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: {
        url: 'https://ring.com',
        target_entity: 'Ring',
        competitors: ['Mint', 'Arlo'],
        prompts: ['best video doorbell'],
        platforms: ['claude'],
        language: 'en',
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const done = await s.waitForRun(key, res.json().run_id);
    return (await s.request('GET', `/v1/visibility/runs/${done.run_id}?include_probes=true`, { key })).json();
  }

  test('one call carries both weak decisions; the verdicts decide and are recorded', async () => {
    mode = 'confirm';
    const before = openai.requests.length;
    const r = await run(judged);
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
    const p = (await run(judged)).probes[0];
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    assert.equal(p.judge_error, null);
    assert.deepEqual(byName.Ring.evidence, { rule: 'everyday_word_rejected', text: 'Ring', ambiguous: true });
    assert.equal(byName.Ring.mentioned, false);
    assert.equal(p.brand_mentioned, false);
    assert.deepEqual([byName.Mint.mentioned, byName.Mint.sentiment], [true, 'neutral']);
  });

  test('without a judge: the lexical decisions stand, ambiguous and never judged', async () => {
    const before = openai.requests.length;
    const r = await run(unjudged);
    assert.equal(openai.requests.length, before);
    const p = r.probes[0];
    const byName = Object.fromEntries(p.brands.map((b: { name: string }) => [b.name, b]));
    assert.deepEqual(byName.Ring.evidence, { rule: 'everyday_word_rejected', text: 'Ring', ambiguous: true });
    assert.deepEqual(byName.Mint.evidence, { rule: 'sentence_start', text: 'Mint', ambiguous: true });
    assert.equal(p.brand_mentioned, false);
    assert.deepEqual(p.competitors, ['Mint', 'Arlo']);
  });
});
