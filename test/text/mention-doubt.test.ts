// Signals of doubt about mentions taken by strong rules (src/text/mention-doubt.ts): each holds on
// the kind of sentence it reads and not on a brand named for what it sells. They mark a decision
// for a judge and never change it (the analysis side: test/core/visibility/mention-doubt.test.ts).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { caselessWord, listedAsName, mentionDoubt, sentenceAround } from '../../src/text/mention-doubt.ts';

/** The doubt about every occurrence of `name` in `text`, each taken by `rule`. */
function doubt(text: string, name: string, language = 'en', rule = 'exact') {
  const spans = [];
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) spans.push({ start: at, end: at + name.length, rule });
  return mentionDoubt(name, text, spans, language);
}

describe('dated', () => {
  test('a sentence with a year of an earlier century, or a year in brackets, is in doubt', () => {
    assert.equal(doubt('Frank B. Kellogg won the Nobel Peace Prize in 1929.', 'Kellogg'), 'dated');
    assert.equal(doubt('Joker (2019) med Joaquin Phoenix er mørkere.', 'Joker', 'nb'), 'dated');
    assert.equal(doubt('Jan III Sobieski pokonał Turków pod Wiedniem w 1683 roku.', 'Sobieski', 'pl'), 'dated');
  });
  test('not a year of this century, a price, a longer number or another sentence', () => {
    assert.equal(doubt('Acme was founded in 2015 and sells CRMs.', 'Acme'), null);
    assert.equal(doubt('Vorwerks Thermomix kostet fast 1.500 Euro.', 'Vorwerk', 'de'), null);
    assert.equal(doubt('Acme ships 12000 parcels a day.', 'Acme'), null);
    assert.equal(doubt('Rome was sacked in 1527. Today Acme delivers there overnight.', 'Acme'), null);
  });
  test('every mention must be dated', () => {
    assert.equal(doubt('Acme opened in 1998. Acme now sells online.', 'Acme'), null);
  });
  test('the sentence is read from the previous sentence end to the next, within bounds', () => {
    const text = 'One. Two Acme three. Four.';
    assert.equal(sentenceAround(text, 9, 13).trim(), 'Two Acme three');
    const long = `${'a '.repeat(1000)}Acme${' b'.repeat(1000)}`;
    assert.ok(sentenceAround(long, 2000, 2004).length <= 604);
  });
});

describe('name_run', () => {
  test("an initial or a given name before it: a person's name", () => {
    assert.equal(doubt('Frank B. Kellogg won the Peace Prize.', 'Kellogg'), 'name_run');
    assert.equal(doubt('Freeman J. Dyson wrote Disturbing the Universe.', 'Dyson'), 'name_run');
    assert.equal(doubt('Ferdinand Porsche entwarf den Käfer.', 'Porsche', 'de'), 'name_run');
  });
  test('a brand that is a given name, with a surname no list holds after it', () => {
    assert.equal(doubt('Melissa McCarthy won an Emmy.', 'Melissa'), 'name_run');
    assert.equal(doubt('Tiffany Haddish hosted the show.', 'Tiffany'), 'name_run');
  });
  test('not a product after it, nor an everyday word before it, nor a brand that is no given name', () => {
    assert.notEqual(doubt('The Dyson Airwrap is the one to buy.', 'Dyson'), 'name_run');
    assert.notEqual(doubt('Con Iliad paghi meno di dieci euro al mese.', 'Iliad', 'it'), 'name_run');
    assert.notEqual(doubt('Tiffany Blue is the colour of the box.', 'Tiffany'), 'name_run');
  });
});

describe('caseless_word', () => {
  test('a word of the language in a script without capitals', () => {
    assert.equal(caselessWord('熊猫', 'zh'), true);
    assert.equal(caselessWord('雪花', 'zh'), true);
    assert.equal(caselessWord('ช้าง', 'th'), true);
    assert.equal(doubt('成都的熊猫基地每天游客很多。', '熊猫', 'zh'), 'caseless_word');
  });
  test('not a name the dictionary splits, nor a name in Latin letters', () => {
    assert.equal(caselessWord('京东', 'zh'), false);
    assert.equal(caselessWord('华为', 'zh'), false);
    assert.equal(caselessWord('Shopee', 'th'), false);
  });
  test('not when a firmer rule took it', () => {
    assert.equal(doubt('**熊猫**：最好的选择。', '熊猫', 'zh', 'emphasis'), null);
  });
});

describe('name_list', () => {
  test('a name the spelling dictionary lists only with a capital, named once and bare', () => {
    assert.equal(listedAsName('Patagonia', 'en'), true);
    assert.equal(doubt('We spent three weeks hiking in Patagonia.', 'Patagonia'), 'name_list');
  });
  test('not an invented name, a word, a name of several words, nor a firmer rule or a second mention', () => {
    assert.equal(listedAsName('Globex', 'en'), false);
    assert.equal(listedAsName('Notion', 'en'), false);
    assert.equal(listedAsName('Tom Ford', 'en'), false);
    assert.equal(doubt('Patagonia jackets: the best for rain.', 'Patagonia', 'en', 'product_word'), null);
    assert.equal(doubt('Patagonia repairs jackets; Patagonia also resells them.', 'Patagonia'), null);
  });
});
