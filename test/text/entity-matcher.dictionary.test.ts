// Everyday words the 10,000-word frequency lists miss, from each language's spelling dictionary
// (`dictionary_word`, src/text/everyday-words.ts): such a name is read like a rarer listed word
// (its lower-case uses are the word; at a sentence start it is the name only weakly, so a live judge
// reads it), and the evidence says the dictionary decided (`lexicon: 'dictionary'`). And a
// lower-case occurrence inside an address is no use of the word (`address_not_word`).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createEntityMatcher, foldText } from '../../src/text/entity-matcher.ts';
import { analyzeAnswer } from '../../src/core/visibility/analysis.ts';
import { dictionaryWord, everydayWordRank, hasDictionary } from '../../src/text/everyday-words.ts';

function decide(name: string, language: string, text: string) {
  const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
  const show = (s: { start: number; end: number; rule?: string; weak?: boolean; lexicon?: string }) => ({
    text: text.slice(s.start, s.end),
    rule: s.rule,
    weak: s.weak === true,
    lexicon: s.lexicon ?? null,
  });
  return { spans: d.spans.map(show), rejected: d.rejected.map(show) };
}

describe('dictionaryWord: the spelling dictionary of the language', () => {
  test('holds everyday words the frequency list misses, in each language that has one', () => {
    for (const [word, language] of [
      ['compass', 'en'],
      ['clover', 'en'],
      ['светофор', 'ru'],
      ['сапсан', 'ru'],
      ['mrówka', 'pl'],
      ['piña', 'es'],
      ['sémaphore', 'fr'],
      ['çilek', 'tr'],
    ] as const) {
      assert.equal(everydayWordRank(word, language), null, `${word} is not in the ${language} frequency list`);
      assert.equal(dictionaryWord(word, language), true, `${word} (${language})`);
      assert.equal(dictionaryWord(word[0]!.toUpperCase() + word.slice(1), language), true, 'compared lower-cased');
    }
  });
  test('names the dictionary writes with a capital are not everyday words; nor is an unknown word', () => {
    assert.equal(dictionaryWord('Patagonia', 'en'), false);
    assert.equal(dictionaryWord('Asana', 'en'), false);
    assert.equal(dictionaryWord('zzyzzyva', 'en'), false);
  });
  test('languages without a dictionary here (GPL-only or none) answer false', () => {
    assert.equal(hasDictionary('de'), false);
    assert.equal(hasDictionary('ja'), false);
    assert.equal(dictionaryWord('Kompass', 'de'), false);
    assert.equal(hasDictionary('en-GB'), true);
  });
});

describe('dictionary_word: a name only the dictionary calls an everyday word', () => {
  test('at a sentence start it is the name only weakly, and the evidence names the dictionary', () => {
    for (const [name, language, text] of [
      ['Compass', 'en', 'Compass needles point to magnetic north.'],
      ['Светофор', 'ru', 'Светофор на перекрёстке опять не работает.'],
      ['Mrówka', 'pl', 'Mrówka niosła liść większy od siebie.'],
    ] as const) {
      const d = decide(name, language, text);
      assert.deepEqual(d.spans, [{ text: name, rule: 'sentence_start', weak: true, lexicon: 'dictionary' }], text);
    }
  });
  test('the answer using the word as a word elsewhere turns the sentence start down', () => {
    const d = decide('Compass', 'en', 'Compass needles point north. Take a compass on the hike.');
    assert.deepEqual(d.spans, []);
    assert.deepEqual(
      d.rejected.map((r) => [r.rule, r.lexicon]),
      [
        // The lower-case "compass" is the word by its case alone (no list needed); the sentence
        // start is turned down because the answer uses the word, which the dictionary told.
        ['everyday_word_rejected', 'dictionary'],
        ['everyday_word_rejected', null],
      ],
    );
  });
  test('capitalised inside a sentence, or with a name signal, it is the name, not weakly', () => {
    assert.deepEqual(decide('Compass', 'en', 'We listed the house with Compass last year.').spans, [
      { text: 'Compass', rule: 'capitalised', weak: false, lexicon: 'dictionary' },
    ]);
    assert.deepEqual(decide('Clover', 'en', "Clover's card readers work offline.").spans, [
      { text: 'Clover', rule: 'possessive', weak: false, lexicon: 'dictionary' },
    ]);
  });
  test('a word with a diacritic the name lacks, listed only in the dictionary, is the word', () => {
    const d = decide('Pina', 'es', 'Piña colada es mi cóctel favorito.');
    assert.deepEqual(d.spans, []);
    assert.equal(d.rejected[0]?.rule, 'everyday_word_rejected');
    assert.equal(decide('Pina', 'es', 'Pina abrió otra tienda en Madrid.').spans.length, 1);
  });
  test('a name in neither list is matched as written, with no lexicon', () => {
    assert.deepEqual(decide('Asana', 'en', 'Asana keeps our tasks in one place.').spans, [{ text: 'Asana', rule: 'exact', weak: false, lexicon: null }]);
  });
  test('the probe evidence carries the lexicon', () => {
    const a = analyzeAnswer({
      text: 'Compass needles point to magnetic north.',
      citations: [],
      targetEntity: 'Compass',
      targetUrl: 'https://www.compass.com',
      competitors: [],
      language: 'en',
    });
    assert.deepEqual(a.target_evidence, { rule: 'sentence_start', text: 'Compass', ambiguous: true, lexicon: 'dictionary' });
  });
});

describe('address_not_word: a lower-case occurrence inside an address', () => {
  test('is no use of the word, so a sentence-start name stays the name', () => {
    for (const text of ['Acme (acme.com) is a CRM for freelancers.', 'Acme answers at help@acme.io within a day.', 'Acme docs live at /acme/docs.']) {
      const d = decide('Acme', 'en', text);
      assert.equal(d.spans.length, 1, text);
      assert.equal(d.spans[0]!.text, 'Acme', text);
      assert.deepEqual(d.rejected, [], text);
    }
  });
  test('a lower-case word outside an address still is the word', () => {
    const d = decide('Acme', 'en', 'Acme rises. The acme of his career came late.');
    assert.deepEqual(d.spans, []);
  });
});
