// The analysis marks mentions in doubt (src/text/mention-doubt.ts) ambiguous, for a judge, with
// the reason in `evidence.doubt`, and never changes whether the brand is mentioned; rejections
// whose grammar read a sign of another meaning are no longer sent to a judge.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeAnswer } from '../../../src/core/visibility/analysis.ts';

const analyse = (text: string, target: string, language = 'en', competitors: string[] = []) =>
  analyzeAnswer({ text, citations: [], targetEntity: target, targetUrl: 'https://brand.example', competitors, language });

describe('mentions in doubt', () => {
  test('taken by strong rules, still mentioned, marked ambiguous with the reason, the occurrence kept for the judge', () => {
    const cases: [string, string, string, string][] = [
      ['Frank B. Kellogg won the Nobel Peace Prize in 1929.', 'Kellogg', 'en', 'dated'],
      ['Freeman J. Dyson wrote Disturbing the Universe.', 'Dyson', 'en', 'name_run'],
      ['成都的熊猫基地每天游客很多。', '熊猫', 'zh', 'caseless_word'],
      ['We spent three weeks hiking in Patagonia.', 'Patagonia', 'en', 'name_list'],
    ];
    for (const [text, brand, language, doubt] of cases) {
      const a = analyse(text, brand, language);
      assert.equal(a.text_mentioned, true, text);
      assert.equal(a.target_evidence?.ambiguous, true, text);
      assert.equal(a.target_evidence?.doubt, doubt, text);
      const span = a.ambiguous_spans[brand];
      assert.equal(span && text.slice(span.start, span.end), brand, text);
    }
  });

  test('the same brands named for what they sell are not in doubt', () => {
    for (const [text, brand, language] of [
      ['The Dyson V15 Detect shows a live count of the dust it picks up.', 'Dyson', 'en'],
      ["Kellogg's cereals are sold in 180 countries since 2001.", 'Kellogg', 'en'],
      ['京东的物流很快，第二天就到了。', '京东', 'zh'],
      ['Patagonia repairs jackets for free; Patagonia also resells them.', 'Patagonia', 'en'],
    ] as const) {
      const e = analyse(text, brand, language).target_evidence;
      assert.equal(e?.ambiguous, undefined, text);
      assert.equal(e?.doubt, undefined, text);
    }
  });

  test('a competitor in doubt is marked the same way', () => {
    const a = analyse('Globex is the CRM we use. Satyendra Nath Bose worked out the statistics in 1924.', 'Globex', 'en', ['Bose']);
    assert.deepEqual(a.competitors, ['Bose']);
    assert.deepEqual(a.competitor_evidence.Bose, { rule: 'exact', text: 'Bose', ambiguous: true, doubt: 'dated' });
    assert.equal(a.target_evidence?.ambiguous, undefined);
  });
});

describe('rejections by a sign of another meaning', () => {
  test('turned down, and not sent to a judge; a rejection by case and place still is', () => {
    const tosca = analyse('Tosca is an opera by Puccini.', 'Tosca');
    assert.equal(tosca.text_mentioned, false);
    assert.deepEqual(tosca.target_evidence, { rule: 'other_name', text: 'Tosca' });
    assert.equal(tosca.ambiguous_spans.Tosca, undefined);
    assert.deepEqual(analyse('Liverpool es una ciudad del norte de Inglaterra.', 'Liverpool', 'es').target_evidence, { rule: 'place_name', text: 'Liverpool' });
    // A German noun after its article ("die Allianz" is the insurer as often as an alliance): still asked.
    assert.deepEqual(analyse('Der Puma lebt in den Bergen.', 'Puma', 'de').target_evidence, { rule: 'noun_after_article', text: 'Puma', ambiguous: true });
  });
});
