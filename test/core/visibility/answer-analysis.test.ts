// Prominence on hand-computed answers, discovered entities in several languages, the judge's
// output checks, and the run-summary additions from probe rows.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeAnswer } from '../../../src/core/visibility/analysis.ts';
import { analyseProbe, brandEntries, type ProbeAnalysis } from '../../../src/core/visibility/analysis/brands.ts';
import { findNamedEntities } from '../../../src/core/visibility/analysis/entities.ts';
import { firstMentionShare, pawc, sentenceWeights } from '../../../src/core/visibility/analysis/prominence.ts';
import { addAnswerAnalysisSummary, probeAnalysisFields } from '../../../src/core/visibility/analysis/summary.ts';
import { createSandboxJudge, parseJudgeModel, readVerdict } from '../../../src/core/visibility/judge.ts';

const analyse = (text: string, competitors: string[] = [], language = 'en') =>
  analyzeAnswer({ text, citations: [], targetEntity: 'Acme', targetUrl: 'https://acme.com', competitors, language });

describe('prominence', () => {
  test('pawc and first mention share on a three-sentence answer, computed by hand', () => {
    const text = 'Acme is great. Globex is fine too. Try both.';
    // Sentences of 3, 4 and 2 words at positions 0, 1, 2 of |S| = 3:
    // weights 3·e^0 = 3, 4·e^(−1/3) = 2.866125, 2·e^(−2/3) = 1.026834; total 6.892959.
    const s = sentenceWeights(text);
    assert.deepEqual(s.starts, [0, 15, 35]);
    assert.ok(Math.abs(s.total - 6.892959) < 1e-5);
    const a = analyse(text, ['Globex']);
    assert.equal(pawc(s, a.target_spans), 0.4352); // 3 / 6.892959
    assert.equal(pawc(s, a.competitor_spans.Globex!), 0.4158); // 2.866125 / 6.892959
    assert.equal(firstMentionShare(a.mention_position, text.length), 0);
    assert.equal(firstMentionShare(a.competitor_positions.Globex!, text.length), 0.3409); // 15 / 44
    assert.equal(firstMentionShare(null, text.length), null);
    assert.equal(pawc(s, []), 0);
  });

  test('list items are sentences; a brand named twice in one sentence counts that sentence once', () => {
    const text = 'Top picks:\n1. Globex – fast\n2. Acme – simple, and Acme is cheap';
    // Sentences: "Top picks:" (2 words), "1. Globex – fast" (3: 1, Globex, fast), "2. Acme – simple, and Acme is cheap" (7).
    const s = sentenceWeights(text);
    assert.equal(s.starts.length, 3);
    const w = [2, 3 * Math.exp(-1 / 3), 7 * Math.exp(-2 / 3)];
    const total = w[0]! + w[1]! + w[2]!;
    const a = analyse(text, ['Globex']);
    assert.equal(pawc(s, a.target_spans), Math.round((w[2]! / total) * 10000) / 10000);
    assert.equal(pawc(s, a.competitor_spans.Globex!), Math.round((w[1]! / total) * 10000) / 10000);
    const entries = brandEntries(text, 'Acme', ['Globex'], a);
    assert.equal(entries[0]!.list_rank, 2);
    assert.equal(entries[1]!.list_rank, 1);
    assert.equal(entries[0]!.first_mention_share, Math.round((text.indexOf('Acme') / text.length) * 10000) / 10000);
  });

  test('CJK sentences and words come from Intl.Segmenter', () => {
    const text = '我推荐小米手机。华为也不错。';
    const s = sentenceWeights(text);
    assert.equal(s.starts.length, 2);
    const a = analyzeAnswer({ text, citations: [], targetEntity: '华为', targetUrl: 'https://huawei.com', competitors: [], language: 'zh' });
    assert.ok(pawc(s, a.target_spans) > 0 && pawc(s, a.target_spans) < 1);
  });

  test('a brand cited but not named in the text: mentioned, no position, pawc 0', () => {
    const a = analyzeAnswer({ text: 'Several tools exist.', citations: [{ title: null, url: 'https://acme.com/x', domain: 'acme.com' }], targetEntity: 'Acme', targetUrl: 'https://acme.com', competitors: [] });
    const [target] = brandEntries('Several tools exist.', 'Acme', [], a);
    assert.deepEqual(target, { name: 'Acme', role: 'target', mentioned: true, mention_position: null, list_rank: null, first_mention_share: null, pawc: 0, sentiment: null, recommended: null, evidence: { rule: 'citation', text: 'acme.com' } });
  });
});

describe('discovered entities', () => {
  test('English: list labels, bold and link texts; headings like "Pros" and the listed brands are left out', () => {
    const text = [
      'Here are good CRM tools:',
      '',
      '1. **Salesforce** – the enterprise standard.',
      '2. **Zoho CRM** – affordable.',
      '   - Pros: cheap',
      '   - Cons: dated UI',
      '3. Pipedrive: simple pipelines.',
      '4. [Monday Sales CRM](https://monday.com) – flexible.',
      '',
      '### 5. Freshsales',
      'Good for startups. **Note:** prices change. **Acme CRM** is also fine.',
    ].join('\n');
    assert.deepEqual(findNamedEntities(text, { language: 'en', exclude: ['Acme', 'Salesforce'] }), ['Zoho CRM', 'Pipedrive', 'Monday Sales CRM', 'Freshsales']);
  });

  test('Chinese, Japanese, German, French and Spanish answers', () => {
    assert.deepEqual(findNamedEntities('推荐：\n1. **飞书** – 协作\n2. 钉钉：办公\n- 企业微信 - 沟通', { language: 'zh', exclude: [] }), ['飞书', '钉钉', '企业微信']);
    assert.deepEqual(findNamedEntities('おすすめ：\n1. **freee** – 会計\n2. マネーフォワード：経理', { language: 'ja', exclude: [] }), ['freee', 'マネーフォワード']);
    assert.deepEqual(findNamedEntities('Empfehlungen:\n- **Lexware Office**: Buchhaltung\n- Preis: günstig\n- sevDesk – Rechnungen', { language: 'de', exclude: [] }), ['Lexware Office', 'sevDesk']);
    assert.deepEqual(findNamedEntities('Options :\n1. **Pennylane** – comptabilité\n2. **Qonto** : banque en ligne\n3. **Prix** : variable', { language: 'fr', exclude: [] }), ['Pennylane', 'Qonto']);
    assert.deepEqual(findNamedEntities('Opciones:\n- **Holded**: facturación\n- **Precio**: bajo\n- Acme: sencillo', { language: 'es', exclude: ['Acme'] }), ['Holded']);
  });

  test('sentences in list items are not names', () => {
    assert.deepEqual(findNamedEntities('- Check the pricing page before you buy\n- compare two or three tools', { language: 'en', exclude: [] }), []);
  });
});

describe('judge output', () => {
  const input = { answer: 'Acme is the best pick; avoid Globex. Also consider Initech and Umbrella Corp.', brands: ['Acme', 'Globex'] };

  test('valid output, also inside a code fence; invented other brands are dropped', () => {
    const reply = '```json\n' + JSON.stringify({
      brands: [
        { name: 'acme', sentiment: 'positive', recommended: true },
        { name: 'Globex', sentiment: 'negative', recommended: false },
      ],
      other_brands: ['Initech', 'Umbrella Corp', 'Hooli'],
    }) + '\n```';
    const v = readVerdict(reply, input);
    assert.ok(v.ok);
    assert.deepEqual(v.brands.get('Acme'), { sentiment: 'positive', recommended: true });
    assert.deepEqual(v.brands.get('Globex'), { sentiment: 'negative', recommended: false });
    assert.deepEqual(v.entities, ['Initech', 'Umbrella Corp']);
  });

  test('invalid output: not JSON, a bad enum, an extra field, a missing brand', () => {
    for (const reply of [
      'Acme is positive.',
      JSON.stringify({ brands: [{ name: 'Acme', sentiment: 'great', recommended: true }, { name: 'Globex', sentiment: 'neutral', recommended: false }] }),
      JSON.stringify({ brands: [{ name: 'Acme', sentiment: 'positive', recommended: true, score: 9 }, { name: 'Globex', sentiment: 'neutral', recommended: false }] }),
      JSON.stringify({ brands: [{ name: 'Acme', sentiment: 'positive', recommended: true }] }),
    ]) {
      const v = readVerdict(reply, input);
      assert.equal(v.ok, false, reply);
      if (!v.ok) assert.equal(v.error.code, 'judge_invalid_output');
    }
  });

  test('confirmations: only of the brands asked about; one asked about may lack a sentiment; one unanswered is left out', () => {
    const asked = { ...input, brands: ['Acme', 'Globex'], confirm: [{ name: 'Globex', excerpt: 'avoid ⟦Globex⟧.' }] };
    const reply = JSON.stringify({
      brands: [{ name: 'Acme', sentiment: 'positive', recommended: true }],
      mentions: [
        { name: 'globex', names_brand: false },
        { name: 'Acme', names_brand: false },
      ],
    });
    const v = readVerdict(reply, asked);
    assert.ok(v.ok);
    assert.deepEqual([...v.brands.keys()], ['Acme']);
    assert.deepEqual([...v.mentions!], [['Globex', false]], 'Acme was not asked about');
    const silent = readVerdict(JSON.stringify({ brands: [{ name: 'Acme', sentiment: 'positive', recommended: true }] }), asked);
    assert.ok(silent.ok);
    assert.equal(silent.mentions!.size, 0);
    const unasked = readVerdict(reply, input);
    assert.equal(unasked.ok, false, 'without confirmations every listed brand needs its verdict');
  });

  test('SIGHTLINE_JUDGE_MODEL is platform:model', () => {
    assert.deepEqual(parseJudgeModel('openai:gpt-4o-mini'), { platform: 'openai', model: 'gpt-4o-mini' });
    assert.deepEqual(parseJudgeModel('claude:claude-haiku-4-5'), { platform: 'claude', model: 'claude-haiku-4-5' });
    assert.throws(() => parseJudgeModel('gpt-4o-mini'), /platform:model/);
    assert.throws(() => parseJudgeModel('bard:x'), /platform:model/);
  });

  test('without a judge every sentiment and recommendation is null; the sandbox judge is labelled and deterministic', async () => {
    const text = 'Acme is simple. Globex is big.';
    const a = analyse(text, ['Globex', 'Initech']);
    const base = { prompt: 'best crm', text, language: 'en', target: 'Acme', competitors: ['Globex', 'Initech'], analysis: a, signal: new AbortController().signal };
    const none = await analyseProbe({ ...base, judge: null });
    assert.equal(none.judge, null);
    for (const b of none.brands) assert.deepEqual([b.sentiment, b.recommended], [null, null]);
    const sandbox = await analyseProbe({ ...base, judge: createSandboxJudge() });
    assert.deepEqual(sandbox.judge, { platform: 'sandbox', model: 'sandbox-judge', engine: 'sandbox' });
    assert.ok(sandbox.brands[0]!.sentiment !== null && sandbox.brands[1]!.sentiment !== null);
    // A brand the answer does not name: no sentiment, not recommended.
    assert.deepEqual([sandbox.brands[2]!.sentiment, sandbox.brands[2]!.recommended], [null, false]);
    assert.deepEqual(await analyseProbe({ ...base, judge: createSandboxJudge() }), sandbox);
  });

  test('the sandbox judge agrees with what the answer says about each brand', async () => {
    const answer = 'Here are good options:\n1. Acme, recommended for its intuitive interface.\n2. Globex lacks integrations and is expensive.\n3. Initech.\nHowever, Umbrella is slow.';
    const verdict = await createSandboxJudge().judge({ prompt: 'best crm', answer, language: 'en', brands: ['Acme', 'Globex', 'Initech', 'Umbrella'], signal: new AbortController().signal });
    assert.ok(verdict.ok);
    assert.deepEqual(Object.fromEntries(verdict.brands), {
      Acme: { sentiment: 'positive', recommended: true },
      Globex: { sentiment: 'negative', recommended: false },
      Initech: { sentiment: 'neutral', recommended: false },
      Umbrella: { sentiment: 'negative', recommended: false },
    });
    const de = await createSandboxJudge().judge({ prompt: 'bestes crm', answer: 'Acme wird häufig empfohlen. Globex ist allerdings teuer.', language: 'de', brands: ['Acme', 'Globex'], signal: new AbortController().signal });
    assert.ok(de.ok);
    assert.deepEqual([de.brands.get('Acme')?.sentiment, de.brands.get('Globex')?.sentiment], ['positive', 'negative']);
  });
});

describe('run summary additions', () => {
  const entry = (name: string, role: 'target' | 'competitor', mentioned: boolean, extra: Partial<ProbeAnalysis['brands'][number]> = {}) => ({
    name, role, mentioned, mention_position: mentioned ? 0 : null, list_rank: null, first_mention_share: mentioned ? 0 : null, pawc: 0, sentiment: null, recommended: null, ...extra,
  });
  const row = (platform: string, brands: ProbeAnalysis['brands'], entities: string[] = [], status = 'succeeded') => ({
    platform, status, analysis: JSON.stringify({ brands, judge: null, judge_error: null, entities } satisfies ProbeAnalysis),
  });

  test('sentiment shares and prominence means over mentioning probes, per competitor and per platform; entities counted per probe', () => {
    const probes = [
      row('openai', [entry('Acme', 'target', true, { sentiment: 'positive', first_mention_share: 0.1, pawc: 0.4 }), entry('Globex', 'competitor', true, { sentiment: 'negative', first_mention_share: 0.5, pawc: 0.2 })], ['Initech', 'Hooli', 'initech']),
      row('openai', [entry('Acme', 'target', true, { sentiment: 'neutral', first_mention_share: 0.3, pawc: 0.2 }), entry('Globex', 'competitor', false)], ['Hooli']),
      row('claude', [entry('Acme', 'target', true, { first_mention_share: null, pawc: 0 }), entry('Globex', 'competitor', false)], ['Initech']),
      row('claude', [entry('Acme', 'target', false), entry('Globex', 'competitor', false)], ['Initech']),
      { platform: 'claude', status: 'errored', analysis: null },
      { platform: 'gemini', status: 'succeeded', analysis: null },
    ];
    const summary: Record<string, unknown> = {
      competitors: [{ name: 'Globex', mentions: 1 }],
      by_platform: [{ platform: 'openai' }, { platform: 'claude' }, { platform: 'gemini' }],
    };
    addAnswerAnalysisSummary(summary, probes, ['Globex']);
    assert.deepEqual(summary.sentiment, { positive: 0.3333, neutral: 0.3333, negative: 0, unknown: 0.3333 });
    assert.deepEqual(summary.prominence, { first_mention_share: 0.2, pawc: 0.2 });
    assert.deepEqual(summary.competitors, [
      { name: 'Globex', mentions: 1, sentiment: { positive: 0, neutral: 0, negative: 1, unknown: 0 }, prominence: { first_mention_share: 0.5, pawc: 0.2 } },
    ]);
    assert.deepEqual(summary.by_platform, [
      { platform: 'openai', sentiment: { positive: 0.5, neutral: 0.5, negative: 0, unknown: 0 }, prominence: { first_mention_share: 0.2, pawc: 0.3 } },
      { platform: 'claude', sentiment: { positive: 0, neutral: 0, negative: 0, unknown: 1 }, prominence: { first_mention_share: null, pawc: 0 } },
      { platform: 'gemini', sentiment: null, prominence: { first_mention_share: null, pawc: null } },
    ]);
    assert.deepEqual(summary.discovered_entities, [
      { name: 'Initech', mentions: 3, platforms: ['claude', 'openai'] },
      { name: 'Hooli', mentions: 2, platforms: ['openai'] },
    ]);
  });

  test('probe fields: brands only on succeeded probes with an analysis', () => {
    assert.deepEqual(probeAnalysisFields({ status: 'errored', analysis: null }), { brands: null, judge: null, judge_error: null });
    assert.deepEqual(probeAnalysisFields({ status: 'succeeded', analysis: null }), { brands: null, judge: null, judge_error: null });
  });
});

describe('a brand that is also a given name', () => {
  const evidence = (text: string, competitor: string) => analyse(text, [competitor]).competitor_evidence[competitor];
  test('named bare it is taken and marked ambiguous, for a judge; any firmer reading is not marked', () => {
    assert.deepEqual(evidence('For vans, Ford is the usual choice in Europe.', 'Ford'), { rule: 'capitalised', text: 'Ford', ambiguous: true, lexicon: 'given_name' });
    assert.deepEqual(analyse('For vans, Ford is the usual choice in Europe.', ['Ford']).competitors, ['Ford'], 'still mentioned without a judge');
    // A model, a possessive or a compound says the brand: firm, unmarked.
    assert.equal(evidence('The Ford Transit is the usual choice.', 'Ford')?.ambiguous, undefined);
    assert.equal(evidence('Most fleets run the Mercedes-Benz Sprinter.', 'Mercedes')?.ambiguous, undefined);
    assert.equal(evidence("Ford's vans hold their value.", 'Ford')?.ambiguous, undefined);
    // One bare mention beside a firm one: the firm one decides.
    assert.equal(evidence('Ford builds vans; the Ford Transit leads.', 'Ford')?.ambiguous, undefined);
    // No given name, or a name of two words: not marked.
    assert.equal(evidence('For vans, Globex is the usual choice.', 'Globex')?.ambiguous, undefined);
    assert.equal(evidence('For suits, Tom Ford is the usual choice.', 'Tom Ford')?.ambiguous, undefined);
  });
});
