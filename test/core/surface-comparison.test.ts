// The API vs consumer comparison on hand-built probe rows: Jaccard overlaps of brands and cited
// domains per prompt (averaged), mention rates with Wilson intervals on each side, prompts where
// the two disagree, results without an AI answer counted as naming nobody, and pairs only where a
// run asked both platforms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareSurfaces, jaccard, type ComparisonProbe } from '../../src/core/visibility/surface-comparison.ts';
import { wilsonInterval } from '../../src/lib/stats.ts';

const row = (
  platform: string,
  prompt: string,
  mentioned: boolean,
  competitors: string[],
  domains: string[],
  extra: Partial<ComparisonProbe> = {},
): ComparisonProbe => ({
  platform,
  prompt,
  status: 'succeeded',
  brand_mentioned: mentioned ? 1 : 0,
  competitors: JSON.stringify(competitors),
  citations: JSON.stringify(domains.map((d) => ({ url: `https://${d}/`, domain: d, title: null }))),
  ai_answer_present: platform === 'openai' || platform === 'gemini' ? null : 1,
  ...extra,
});

test('jaccard: overlap over union; null when both sides are empty', () => {
  assert.equal(jaccard(new Set(['a', 'b']), new Set(['b', 'c'])), 1 / 3);
  assert.equal(jaccard(new Set(['a']), new Set(['a'])), 1);
  assert.equal(jaccard(new Set(['a']), new Set()), 0);
  assert.equal(jaccard(new Set(), new Set()), null);
});

test('openai ↔ chatgpt_app on three prompts: overlaps, rates with intervals, disagreements', () => {
  const probes: ComparisonProbe[] = [
    // p1: both name Acme and Globex; domains {acme, g2} vs {acme} → brands 1, domains 1/2
    row('openai', 'p1', true, ['Globex'], ['acme.example', 'g2.example']),
    row('chatgpt_app', 'p1', true, ['Globex'], ['acme.example']),
    // p2: API names Acme + Initech, the app only Globex → brands {Acme, Initech} vs {Globex} = 0; domains both empty (skipped)
    row('openai', 'p2', true, ['Initech'], []),
    row('chatgpt_app', 'p2', false, ['Globex'], []),
    // p3: the app showed no AI answer: names nobody; API names nobody either → brands skipped; domains {wiki} vs {} = 0
    row('openai', 'p3', false, [], ['wikipedia.org']),
    row('chatgpt_app', 'p3', false, [], [], { ai_answer_present: 0 }),
    // An errored probe and another platform's probe are left out.
    row('chatgpt_app', 'p1', true, [], [], { status: 'errored' }),
    row('claude', 'p1', true, [], []),
  ];
  const [pair, ...rest] = compareSurfaces(probes, 'Acme');
  assert.equal(rest.length, 0, 'only the pair whose both sides were asked');
  assert.equal(pair!.api_platform, 'openai');
  assert.equal(pair!.consumer_platform, 'chatgpt_app');
  assert.equal(pair!.prompts_compared, 3);
  assert.equal(pair!.brand_jaccard, 0.5); // mean(1, 0)
  assert.equal(pair!.cited_domain_jaccard, 0.25); // mean(1/2, 0)
  assert.deepEqual(pair!.api, { probes: 3, mention_rate: 0.6667, mention_rate_ci: wilsonInterval(2, 3) });
  assert.deepEqual(pair!.consumer, { probes: 3, mention_rate: 0.3333, mention_rate_ci: wilsonInterval(1, 3), ai_answer_rate: 0.6667 });
  assert.deepEqual(pair!.disagreements, [
    { prompt: 'p2', api_mentioned: true, consumer_mentioned: false, consumer_ai_answer_present: true, brands_only_api: ['Acme', 'Initech'], brands_only_consumer: ['Globex'] },
  ]);
});

test('gemini against both Google surfaces; repeats pool per prompt; a prompt asked on one side only is not compared', () => {
  const probes: ComparisonProbe[] = [
    row('gemini', 'q1', true, [], ['acme.example'], {}),
    row('gemini', 'q1', false, [], ['acme.example'], {}),
    row('google_ai_overview', 'q1', false, [], [], { ai_answer_present: 0 }),
    row('google_ai_mode', 'q1', true, [], ['acme.example']),
    row('gemini', 'q2', false, ['Globex'], []),
  ];
  const pairs = compareSurfaces(probes, 'Acme');
  assert.deepEqual(
    pairs.map((p) => p.consumer_platform),
    ['google_ai_overview', 'google_ai_mode'],
  );
  const [aio, mode] = pairs;
  assert.equal(aio!.prompts_compared, 1);
  assert.equal(aio!.api.probes, 2);
  assert.equal(aio!.api.mention_rate, 0.5);
  assert.equal(aio!.consumer.ai_answer_rate, 0);
  assert.equal(aio!.brand_jaccard, 0); // {Acme} vs {}
  assert.equal(aio!.disagreements.length, 1);
  assert.equal(aio!.disagreements[0]!.consumer_ai_answer_present, false);
  assert.equal(mode!.brand_jaccard, 1);
  assert.equal(mode!.cited_domain_jaccard, 1);
  assert.deepEqual(mode!.disagreements, []);
});

test('no pair asked: no comparison', () => {
  assert.deepEqual(compareSurfaces([row('openai', 'x', true, [], []), row('google_ai_mode', 'x', true, [], [])], 'Acme'), []);
});
