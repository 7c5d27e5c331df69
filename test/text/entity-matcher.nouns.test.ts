// Names that are nouns of the answer's language, read the way the grammar marks a common noun:
// in German (every noun capitalised) an article of the noun's gender before it; in Arabic, the
// first term of a genitive construct. Each rejection is weak and names its rule.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createEntityMatcher, foldText } from '../../src/text/entity-matcher.ts';
import { germanNounGender } from '../../src/text/german-nouns.ts';

function decide(name: string, language: string, text: string) {
  const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
  return {
    texts: d.spans.map((s) => text.slice(s.start, s.end)),
    rejected: d.rejected.map((s) => ({ text: text.slice(s.start, s.end), rule: s.rule, weak: s.weak === true })),
  };
}

describe('German nouns from the lexicon', () => {
  test('the gender of a common noun; names and unknown words are not nouns', () => {
    assert.equal(germanNounGender('Puma'), 'M');
    assert.equal(germanNounGender('Allianz'), 'F');
    assert.equal(germanNounGender('Fahrrad'), 'N');
    assert.equal(germanNounGender('Zalando'), undefined);
    assert.equal(germanNounGender('puma'), undefined, 'German nouns are capitalised in the lexicon');
  });
});

describe('noun_after_article: a German noun after an article of its gender is the noun', () => {
  test('definite and indefinite articles, with adjectives between', () => {
    assert.deepEqual(decide('Puma', 'de', 'Der Puma schläft tagsüber.').rejected, [{ text: 'Puma', rule: 'noun_after_article', weak: true }]);
    assert.deepEqual(decide('Puma', 'de', 'Im Zoo sahen wir einen jungen Puma.').texts, []);
    assert.deepEqual(
      decide('Adler', 'de', 'Über dem Tal kreiste ein großer, alter Adler.').texts,
      ['Adler'],
      'a comma ends the adjective run: no article reached',
    );
    assert.deepEqual(decide('Adler', 'de', 'Über dem Tal kreiste ein großer alter Adler.').texts, []);
  });

  test('contractions of a preposition and the article count as the article', () => {
    assert.deepEqual(decide('Kranich', 'de', 'Das Nest gehört zum Kranich.').texts, []);
  });

  test('an article of another gender is the company, not the noun', () => {
    // "die Puma" is "die Firma Puma": a masculine noun after a feminine article.
    assert.deepEqual(decide('Puma', 'de', 'Die Puma hat ihren Umsatz gesteigert.').texts, ['Puma']);
  });

  test('a bare noun, a name signal after it, or capitals: the name', () => {
    assert.deepEqual(decide('Puma', 'de', 'Ich kaufe meine Laufschuhe bei Puma.').texts, ['Puma']);
    assert.deepEqual(decide('Puma', 'de', 'Der Puma-Store in Berlin hat lange offen.').texts, ['Puma']);
    assert.deepEqual(decide('Puma', 'de', 'Der Puma Suede ist ein Klassiker.').texts, ['Puma']);
    assert.deepEqual(decide('Puma', 'de', 'Die Schuhe von PUMA und Adidas.').texts, ['PUMA']);
  });

  test('only in German, and only for names that are German nouns', () => {
    assert.deepEqual(decide('Zalando', 'de', 'Der Zalando Versand ist schnell. Das Zalando ist groß.').texts, ['Zalando', 'Zalando']);
    assert.deepEqual(decide('Puma', 'en', 'Der Puma is a German phrase.').texts, ['Puma']);
  });
});

describe('noun_in_construct: an Arabic everyday-noun name followed by a definite noun', () => {
  test('the first term of a genitive construct is the common noun', () => {
    // سلة المشتريات "shopping basket"; سلة "basket" is a listed word.
    assert.deepEqual(decide('سلة', 'ar', 'أضف المنتج إلى سلة المشتريات.').rejected, [{ text: 'سلة', rule: 'noun_in_construct', weak: true }]);
  });

  test('a sound feminine plural of a listed noun is a noun too (طلبات from طلب)', () => {
    assert.deepEqual(decide('طلبات', 'ar', 'تأخرت طلبات التوظيف هذا الشهر.').texts, []);
    assert.deepEqual(decide('طلبات', 'ar', 'طلبات توصل الطعام بسرعة.').texts, ['طلبات'], 'no definite noun after it: the name');
  });

  test('a name that is no everyday noun keeps a definite word after it (أمازون الإمارات)', () => {
    assert.deepEqual(decide('أمازون', 'ar', 'اشتريت من أمازون الإمارات.').texts, ['أمازون']);
  });
});

describe('verb_at_sentence_start: an Arabic name that is an imperfect verb, opening a sentence', () => {
  test('نلعب "we play" (يلعب is listed) opening a sentence is the verb; inside one, the name', () => {
    assert.deepEqual(decide('نلعب', 'ar', 'نلعب الكرة كل جمعة.').rejected, [{ text: 'نلعب', rule: 'verb_at_sentence_start', weak: true }]);
    assert.deepEqual(decide('نلعب', 'ar', 'حجزت الملعب عبر تطبيق نلعب.').texts, ['نلعب']);
    assert.deepEqual(decide('نلعب', 'ar', 'هل جربت التطبيق؟ نلعب الكرة الليلة.').texts, [], 'the Arabic question mark ends a sentence');
  });

  test('a name whose other person forms are not words, or of three letters, is not a verb', () => {
    assert.deepEqual(decide('نسافر', 'ar', 'نسافر تطبيق لحجز الرحلات.').texts, ['نسافر']);
    assert.deepEqual(decide('نون', 'ar', 'نون تبيع الإلكترونيات.').texts, ['نون']);
  });
});

describe('German possessive determiners decline like "ein"', () => {
  test('unser Fuchs, meinen Falken: the noun; a possessive of the wrong gender: the name', () => {
    assert.deepEqual(decide('Fuchs', 'de', 'Unser Fuchs kommt jede Nacht in den Garten.').texts, []);
    assert.deepEqual(decide('Fuchs', 'de', 'Ihre Fuchs Schmierstoffe sind gut.').texts, ['Fuchs'], 'a capitalised word after it is a product name');
    assert.deepEqual(decide('Fuchs', 'de', 'Wir kaufen unsere Öle bei Fuchs.').texts, ['Fuchs']);
  });
});
