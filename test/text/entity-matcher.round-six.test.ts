// Round six of the mention rules (issue #29): the Scandinavian genitive -s, the cases of a
// three-letter Russian name whose stem is two letters, a Korean name written on to a generic
// noun, and `other_name`: the grammar names a person, a work, an animal or a storm with the
// name's letters. Each rejection is weak and names its rule.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createEntityMatcher, foldText } from '../../src/text/entity-matcher.ts';
import { inflectionFor } from '../../src/text/morphology.ts';

function decide(name: string, language: string, text: string) {
  const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
  return {
    spans: d.spans.map((s) => ({ text: text.slice(s.start, s.end), rule: s.rule, weak: s.weak === true })),
    rejected: d.rejected.map((s) => ({ text: text.slice(s.start, s.end), rule: s.rule, weak: s.weak === true })),
  };
}

describe('scandinavian_genitive: Swedish, Danish and Norwegian write the genitive -s on the name', () => {
  test('the genitive is the name', () => {
    assert.deepEqual(decide('Spotify', 'sv', 'Spotifys nya funktion sorterar listor automatiskt.').spans, [
      { text: 'Spotifys', rule: 'inflected', weak: false },
    ]);
    assert.deepEqual(
      decide('Netto', 'da', 'Nettos tilbudsavis kommer hver søndag.').spans.map((s) => s.text),
      ['Nettos'],
    );
    assert.deepEqual(
      decide('Vipps', 'nb', 'Vipps er enklest.').spans.map((s) => s.text),
      ['Vipps'],
    );
  });
  test('only -s: no other ending, and a name in s takes none', () => {
    const rule = inflectionFor('Volvo', 'sv')!;
    assert.ok(rule.accepts('volvos'));
    assert.equal(rule.accepts('volvon'), false);
    assert.equal(inflectionFor('Axfood', 'sv')?.accepts('axfoodsen'), false);
    assert.equal(inflectionFor('Mars', 'sv'), null);
  });
});

describe('short_stem: a three-letter Russian name in -а/-я declines by its own endings', () => {
  test('the first-declension cases are the name', () => {
    assert.deepEqual(
      decide('Ива', 'ru', 'Я заказал это на Иве, а не на рынке.').spans.map((s) => s.text),
      ['Иве'],
    );
    assert.deepEqual(
      decide('Ива', 'ru', 'С Ивой удобно работать.').spans.map((s) => s.text),
      ['Ивой'],
    );
  });
  test('longer words with the same two letters are not', () => {
    const rule = inflectionFor('Юла', 'ru')!;
    for (const w of ['юле', 'юлу', 'юлой', 'юлы']) assert.ok(rule.accepts(w), w);
    for (const w of ['юлия', 'юлианский', 'юлить']) assert.equal(rule.accepts(w), false, w);
    assert.equal(inflectionFor('Ок', 'ru'), null);
  });
});

describe('korean_compound: a Korean name written on to a generic noun is the name, weakly', () => {
  test('name + listed noun, with or without a particle', () => {
    assert.deepEqual(decide('삼양', 'ko', '어제 삼양라면을 끓여 먹었어요.').spans, [{ text: '삼양', rule: 'attached', weak: true }]);
    assert.deepEqual(
      decide('삼양', 'ko', '삼양라면 맛있어요.').spans.map((s) => s.rule),
      ['attached'],
    );
  });
  test('not a repeated name, not an unlisted tail, and a particle alone stays strong', () => {
    assert.deepEqual(decide('매일', 'ko', '매일매일 운동해요.').spans, []);
    assert.deepEqual(decide('삼양', 'ko', '삼양쿠쿠쿠에 가요.').spans, []);
    assert.deepEqual(decide('삼양', 'ko', '삼양에서 새 제품이 나왔어요.').spans, [{ text: '삼양', rule: 'attached', weak: false }]);
  });
});

describe('other_name: the grammar names a person, a work, an animal or a storm', () => {
  test('a classifying sentence whose head noun is a person or a work', () => {
    assert.deepEqual(decide('Nivea', 'it', 'Nivea è la mia vicina di casa a Torino.').rejected, [{ text: 'Nivea', rule: 'other_name', weak: true }]);
    assert.deepEqual(
      decide('Tosca', 'en', 'Tosca is an opera by Puccini.').rejected.map((s) => s.rule),
      ['other_name'],
    );
    assert.deepEqual(
      decide('Carmen', 'fr', 'Carmen est un opéra de Bizet.').rejected.map((s) => s.rule),
      ['other_name'],
    );
  });
  test('such a noun, or a naming word, right before the name', () => {
    assert.deepEqual(
      decide('Lumo', 'en', 'I asked my colleague Lumo for the report.').rejected.map((s) => s.rule),
      ['other_name'],
    );
    assert.deepEqual(
      decide('Lumo', 'en', 'We adopted a kitten named Lumo last year.').rejected.map((s) => s.rule),
      ['other_name'],
    );
    assert.deepEqual(
      decide('Vega', 'de', 'Die Regisseurin Vega hat den Preis gewonnen.').rejected.map((s) => s.rule),
      ['other_name'],
    );
    assert.deepEqual(
      decide('Vega', 'es', 'Mi amiga llamada Vega vive en Sevilla.').rejected.map((s) => s.rule),
      ['other_name'],
    );
  });
  test('a work and "by" before the name: its author', () => {
    assert.deepEqual(
      decide('Rohmer', 'fr', 'Le dernier film de Rohmer est sorti en 2007.').rejected.map((s) => s.rule),
      ['other_name'],
    );
    assert.deepEqual(
      decide('Rohmer', 'en', 'It is a novel by Rohmer about two sisters.').rejected.map((s) => s.rule),
      ['other_name'],
    );
  });
  test('a firm stays the firm: its own nouns, a compound noun, and a noun not right before it', () => {
    assert.deepEqual(
      decide('Lumo', 'en', 'Lumo is an app for sleep sounds.').spans.map((s) => s.rule),
      ['exact'],
    );
    assert.deepEqual(
      decide('Lumo', 'en', 'Lumo is a film streaming service.').spans.map((s) => s.rule),
      ['exact'],
    );
    assert.deepEqual(
      decide('Lumo', 'en', 'My colleague uses Lumo every day.').spans.map((s) => s.rule),
      ['exact'],
    );
    assert.deepEqual(
      decide('Lumo', 'en', 'As a writer, Lumo helps me focus.').spans.map((s) => s.rule),
      ['exact'],
    );
    assert.deepEqual(
      decide('Lumo', 'en', 'The film app Lumo is free.').spans.map((s) => s.rule),
      ['exact'],
    );
  });
});
