// A capitalised everyday word opening a sentence, read by what follows it: an English imperative
// (its object or particle next: "Ramp up your training") is the verb; a subject (a copula or modal
// next: "Wise is the cheapest…") is the name. And a several-word name written as an ordinary
// lower-case phrase in an answer that capitalises is the phrase.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createEntityMatcher, foldText } from '../../src/text/entity-matcher.ts';

function decide(name: string, language: string, text: string) {
  const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
  return {
    spans: d.spans.map((s) => ({ text: text.slice(s.start, s.end), rule: s.rule, weak: s.weak === true })),
    rejected: d.rejected.map((s) => ({ text: text.slice(s.start, s.end), rule: s.rule, weak: s.weak === true })),
  };
}

describe('verb_at_sentence_start in English: an imperative opening a sentence', () => {
  test('a determiner, object pronoun or particle after the word makes it the verb, weakly', () => {
    for (const [name, text] of [
      ['Ramp', 'Ramp up your training slowly to avoid injury.'],
      ['Bolt', 'Bolt the frame to the wall studs.'],
      ['Acme', 'Acme it yourself if you can.'],
    ] as const) {
      const d = decide(name, 'en', text);
      assert.deepEqual(d.spans, [], text);
      assert.deepEqual(d.rejected, [{ text: name, rule: 'verb_at_sentence_start', weak: true }], text);
    }
  });
  test('the answer naming it elsewhere keeps the sentence start a mention', () => {
    const d = decide('Bolt', 'en', 'Bolt the frame first. Then book a Bolt ride home.');
    assert.deepEqual(
      d.spans.map((s) => s.rule),
      ['sentence_start', 'capitalised'],
    );
  });
  test('a verb after the word, inside a sentence, or another language: not this rule', () => {
    assert.equal(decide('Ramp', 'en', 'Ramp offers corporate cards.').spans.length, 1);
    assert.equal(decide('Ramp', 'en', 'We moved to Ramp the week after.').spans.length, 1);
    assert.equal(decide('Ramp', 'de', 'Ramp the frame.').rejected.length, 0);
  });
});

describe('a modal or a verb of doing after a sentence-initial everyday word makes it the subject: the name', () => {
  test('English and Spanish, weakly', () => {
    assert.deepEqual(decide('Delta', 'en', 'Delta lets you change most tickets.').spans, [{ text: 'Delta', rule: 'sentence_start', weak: true }]);
    assert.deepEqual(decide('Corona', 'es', 'Corona tiene una cerveza sin alcohol.').spans, [{ text: 'Corona', rule: 'sentence_start', weak: true }]);
  });
  test('not after a copula (a sentence that classifies the word), nor for the most frequent words', () => {
    assert.deepEqual(decide('Orange', 'en', 'Orange is a warm colour.').spans, []);
    assert.deepEqual(decide('You', 'en', 'You can compare the plans on each site.').spans, []);
  });
  test('not when the answer uses the word as a word', () => {
    assert.deepEqual(decide('Delta', 'en', 'Delta can flood in spring. The river forms a delta.').spans, []);
  });
  test('without a verb after it, a frequent word opening a sentence stays held back', () => {
    assert.deepEqual(decide('Delta', 'en', 'Delta flights are cheap.').spans, []);
  });
});

describe('a several-word name written as a lower-case phrase', () => {
  test('is the phrase in an answer that capitalises, and the name when capitalised', () => {
    assert.deepEqual(decide('Mulino Bianco', 'it', 'Sul fiume c’è un vecchio mulino bianco.').spans, []);
    assert.equal(decide('Mulino Bianco', 'it', 'A colazione mangio i biscotti del Mulino Bianco.').spans.length, 1);
  });
  test('an all-lower-case answer still names it', () => {
    assert.equal(decide('Mulino Bianco', 'it', 'compro sempre i biscotti del mulino bianco').spans.length, 1);
  });
});

describe('a Japanese kanji name written straight on to more kanji', () => {
  test('is taken weakly (楽天市場 the store): a judge reads it; an era head makes it the era (place_name)', () => {
    assert.deepEqual(decide('明治', 'ja', '明治時代に鉄道が広がりました。').spans, []);
    assert.deepEqual(decide('楽天', 'ja', '楽天市場で買い物をしました。').spans, [{ text: '楽天', rule: 'exact', weak: true }]);
  });
  test('followed by a particle or kana it is the name, not weak', () => {
    assert.deepEqual(decide('明治', 'ja', '明治のチョコレートが好きです。').spans, [{ text: '明治', rule: 'exact', weak: false }]);
  });
});
