// The reader's rule for mentions, one finding per test: inflected and attached forms are the
// name; an everyday word spelled like the brand is not; the brand is still named in a lower-case
// answer, at a sentence start with a sign, in capitals, with a possessive, in a hyphenated compound
// and before a product word; each decision carries the rule that made it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createEntityMatcher, foldText, type MentionRule } from '../../src/text/entity-matcher.ts';
import { inflectionFor } from '../../src/text/morphology.ts';
import { analyzeAnswer } from '../../src/core/visibility/analysis.ts';
import { brandEntries } from '../../src/core/visibility/analysis/brands.ts';

/** The rules of the mentions a matcher finds in `text`, and of the candidates it rejects. */
function decide(name: string, language: string, text: string): { rules: MentionRule[]; texts: string[]; rejected: string[] } {
  const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
  return { rules: d.spans.map((s) => s.rule!), texts: d.spans.map((s) => text.slice(s.start, s.end)), rejected: d.rejected.map((s) => text.slice(s.start, s.end)) };
}

describe('inflected forms are the name', () => {
  test('Russian cases through the Snowball stemmer, including a name the stemmer cuts short', () => {
    assert.deepEqual(decide('Сбербанк', 'ru', 'Клиенты Сбербанка и Сбербанком довольны.').texts, ['Сбербанка', 'Сбербанком']);
    assert.deepEqual(decide('Газпром', 'ru', 'Акции Газпрома упали.').rules, ['inflected']);
    assert.deepEqual(decide('Лада', 'ru', 'Запчасти для Лады. Ладно.').texts, ['Лады']);
    assert.deepEqual(decide('Сбер', 'ru', 'Сбережения растут.').texts, []);
  });

  test('Polish cases with stem alternations come from the suffix table', () => {
    assert.deepEqual(decide('Żabka', 'pl', 'W Żabce i w Żabkach.').texts, ['Żabce', 'Żabkach']);
    assert.deepEqual(decide('Toyota', 'pl', 'W Toyocie i Toyotą.').texts, ['Toyocie', 'Toyotą']);
    assert.deepEqual(decide('Orlen', 'pl', 'Na Orlenie, akcje Orlenu.').rules, ['inflected', 'inflected']);
    assert.deepEqual(decide('Allegro', 'pl', 'Allegretto to tempo.').texts, []);
    assert.equal(inflectionFor('Go', 'pl'), null, 'names under three letters do not inflect');
  });

  test('German genitive -s; Turkish suffixes attached or after an apostrophe', () => {
    assert.deepEqual(decide('Zalando', 'de', 'Zalandos Rückgabe ist einfach.').rules, ['inflected']);
    assert.deepEqual(decide('Otto', 'de', 'Ottomanen ist ein altes Wort.').texts, []);
    assert.deepEqual(decide('Trendyol', 'tr', 'Trendyoldan aldım.').rules, ['inflected']);
    assert.deepEqual(decide('Getir', 'tr', "Getir'den sipariş verdim.").texts, ['Getir']);
    assert.deepEqual(decide('Getir', 'tr', 'Bunu getirmek zorunda değilsin.').texts, []);
  });

  test('without a language nothing inflects (the lexical rule)', () => {
    assert.deepEqual(createEntityMatcher('Сбербанк').find('Клиенты Сбербанка.'), []);
  });
});

describe('attached forms are the name', () => {
  test('Arabic conjunctions and prepositions, not the article, not an everyday word', () => {
    assert.deepEqual(decide('طلبات', 'ar', 'جربت كريم وطلبات.').rules, ['attached']);
    assert.deepEqual(decide('طلبات', 'ar', 'الطلبات الكبيرة تحتاج وقتا.').texts, []);
    assert.deepEqual(decide('كريم', 'ar', 'تكريم الطلاب كان رائعا.').texts, []);
  });

  test('a Korean name with a particle; not a longer word', () => {
    assert.deepEqual(decide('삼성', 'ko', '삼성은 1위입니다. 삼성에서 나왔습니다.').rules, ['attached', 'attached']);
    assert.deepEqual(decide('현대', 'ko', '현대인은 바쁩니다.').texts, []);
  });

  test('a Japanese katakana name with a generic noun in the same run; a word containing the name is not it', () => {
    assert.deepEqual(decide('ヤフオク', 'ja', 'ヤフオクアプリで入札できます。').rules, ['attached']);
    assert.deepEqual(decide('ライン', 'ja', 'オンラインで予約できます。').texts, []);
    assert.deepEqual(decide('楽天', 'ja', '楽天的に考える。').rejected, ['楽天']);
    assert.deepEqual(decide('東京', 'ja', '東京タワーに行きました。').texts, [], 'a kanji name does not take the katakana rule');
  });
});

describe('an everyday word spelled like the brand is not a mention', () => {
  test('a lower-case animal, colour or noun in an answer that capitalises', () => {
    assert.deepEqual(decide('Jaguar', 'en', 'The jaguar is the largest cat.').rejected, ['jaguar']);
    assert.deepEqual(decide('Puma', 'en', 'A puma was spotted.').texts, []);
    assert.deepEqual(decide('Orange', 'fr', 'Une veste orange.').texts, []);
  });

  test('a sentence-initial everyday word the answer also uses as a word; a frequent verb at a sentence start', () => {
    assert.deepEqual(decide('Jaguar', 'en', 'Jaguar populations shrink; the jaguar needs room.').texts, []);
    assert.deepEqual(decide('Orange', 'en', 'Orange is a warm colour.').texts, []);
    assert.deepEqual(decide('Zoom', 'en', 'Zoom into the chart.').texts, []);
  });

  test('a German preposition that folds to the brand is not the brand', () => {
    assert.deepEqual(decide('Uber', 'de', 'Über 40 Prozent buchen per App.').rejected, ['Über']);
    assert.deepEqual(decide('Uber', 'de', 'Uber ist teurer als ein Taxi.').rules, ['exact']);
  });
});

describe('the brand is a mention when written as a name', () => {
  const cases: [string, string, MentionRule][] = [
    ['Zoom', 'for video calls, zoom and google meet are the usual picks.', 'lower_case_answer'],
    ['Notion', 'i would go with notion for a small team wiki.', 'lower_case_answer'],
    ['Zoom', "Zoom's breakout rooms are easy.", 'possessive'],
    ['Expensys', "Expensys' mobile app scans receipts.", 'exact'],
    ['Zoom', 'ZOOM remains the most used video tool.', 'capitals'],
    ['Notion', 'Notion-based wikis are easy to keep.', 'hyphenated'],
    ['Apple', 'Apple Music has lossless audio.', 'product_word'],
    ['Signal', 'Signal app messages are encrypted.', 'product_word'],
    ['Orange', 'In France, Orange has the best coverage.', 'capitalised'],
    ['Zoom', 'Zoom is popular. Many schools use Zoom.', 'sentence_start'],
  ];
  for (const [name, text, rule] of cases) {
    test(`${name}: ${text}`, () => {
      assert.equal(decide(name, 'en', text).rules[0], rule);
    });
  }
});

describe('evidence on the probe brand entries', () => {
  test('each brand entry says which rule decided it and what it read', () => {
    const text = 'В Сбербанке ставки выше, а ВТБ проще.';
    const a = analyzeAnswer({ text, citations: [], targetEntity: 'Сбербанк', targetUrl: 'https://sberbank.ru', competitors: ['ВТБ', 'Тинькофф'], language: 'ru' });
    const entries = brandEntries(text, 'Сбербанк', ['ВТБ', 'Тинькофф'], a);
    assert.deepEqual(entries.map((e) => e.evidence), [{ rule: 'inflected', text: 'Сбербанке' }, { rule: 'exact', text: 'ВТБ' }, null]);
  });

  test('a rejected everyday word and a citation-only mention are recorded too', () => {
    const rejected = analyzeAnswer({ text: 'A jaguar rested by the river.', citations: [], targetEntity: 'Jaguar', targetUrl: 'https://jaguar.com', competitors: [], language: 'en' });
    assert.equal(rejected.brand_mentioned, false);
    assert.deepEqual(rejected.target_evidence, { rule: 'everyday_word_rejected', text: 'jaguar' });
    const cited = analyzeAnswer({ text: 'Several tools exist.', citations: [{ title: null, url: 'https://jaguar.com/x', domain: 'jaguar.com' }], targetEntity: 'Jaguar', targetUrl: 'https://jaguar.com', competitors: [], language: 'en' });
    assert.deepEqual(cited.target_evidence, { rule: 'citation', text: 'jaguar.com' });
  });
});

describe('folding, after the fast paths', () => {
  test('no-break space and NEL are spaces, CRLF CRLF is a paragraph, ASCII runs keep their offsets', () => {
    const text = 'See DEMAND\u00a0IQ, Demand\r\n\r\nIQ, demand\u0085IQ and  Demand   IQ.';
    const hits = createEntityMatcher('Demand IQ').find(text);
    assert.deepEqual(hits, [text.indexOf('DEMAND'), text.indexOf('demand'), text.lastIndexOf('Demand')]);
    const ft = foldText(text);
    assert.equal(ft.folded.length + 1, ft.offsets.length);
    assert.equal(ft.offsets[ft.folded.length], text.length);
  });
});

describe('katakana runs, Arabic definite forms and fleeting vowels', () => {
  test('a katakana name preceded by katakana is the tail of another word', () => {
    assert.deepEqual(decide('イオン', 'ja', 'マイナスイオンの効果は不明です。').texts, []);
    assert.deepEqual(decide('イオン', 'ja', '駅前のイオンで買いました。').texts, ['イオン']);
  });

  test('a katakana name that is no everyday word compounds with any katakana after it', () => {
    assert.deepEqual(decide('ローソン', 'ja', 'ローソンチケットで申し込みました。').texts, ['ローソン']);
    assert.deepEqual(decide('ユニクロ', 'ja', 'ユニクロオンラインストアで注文。').rules, ['attached']);
  });

  test('a katakana everyday-word name compounds only with a whole listed noun', () => {
    // "シャープ" is "sharp"; "シャープネス" ("sharpness") is not the brand.
    assert.deepEqual(decide('シャープ', 'ja', '画像のシャープネスを上げる。').texts, []);
    const d = createEntityMatcher('イオン', [], { language: 'ja' }).decide(foldText('イオンモールに行きました。'));
    assert.deepEqual(d.spans.map((s) => [s.rule, s.weak]), [['attached', true]]);
  });

  test('an Arabic word whose definite form is listed is a word, not particle + name', () => {
    // "فنون" ("arts"): "الفنون" is in the frequency list, so it is not "ف" + "نون".
    assert.deepEqual(decide('نون', 'ar', 'معرض فنون حديثة في المدينة.').texts, []);
    assert.deepEqual(decide('نون', 'ar', 'تسوقت من نون وأمازون.').texts, ['نون']);
  });

  test('Russian names with a fleeting vowel match the forms that drop it', () => {
    assert.deepEqual(decide('Перекрёсток', 'ru', 'Скидки Перекрёстка и акции в Перекрёстке.').rules, ['inflected', 'inflected']);
    assert.deepEqual(decide('Озон', 'ru', 'Доставка Озоном.').texts, ['Озоном'], 'a short shared beginning keeps the plain stem');
  });
});

describe('weak decisions are marked for a judge', () => {
  const weak = (name: string, language: string, text: string) => {
    const d = createEntityMatcher(name, [], { language }).decide(foldText(text));
    return { spans: d.spans.map((s) => [text.slice(s.start, s.end), s.rule, s.weak ?? false]), rejected: d.rejected.map((s) => [text.slice(s.start, s.end), s.weak ?? false]) };
  };

  test('a frequent everyday word opening a sentence is turned down weakly; inside a lower-case word, firmly', () => {
    assert.deepEqual(weak('Ring', 'en', 'Ring cameras are easy to install.').rejected, [['Ring', true]]);
    assert.deepEqual(weak('Ring', 'en', 'Put the ring on the shelf. It shines.').rejected, [['ring', false]]);
  });

  test('a rarer everyday word opening a sentence, and a lower-case answer, are taken weakly', () => {
    assert.deepEqual(weak('Mint', 'en', 'Mint offers cheap plans.').spans, [['Mint', 'sentence_start', true]]);
    assert.deepEqual(weak('Notion', 'en', 'i use notion for my notes.').spans, [['notion', 'lower_case_answer', true]]);
  });

  test('a firm sign is not weak; a second firm mention confirms a sentence start', () => {
    assert.deepEqual(weak('Mint', 'en', "Mint's plans are cheap.").spans, [['Mint', 'possessive', false]]);
    assert.deepEqual(weak('Ring', 'en', 'Ring cameras are cheap. We liked Ring best.').spans, [
      ['Ring', 'sentence_start', false],
      ['Ring', 'capitalised', false],
    ]);
  });

  test('an everyday word in a script without capitals, and its attached forms, are weak', () => {
    assert.deepEqual(weak('سلة', 'ar', 'فتحت متجرا على سلة.').spans, [['سلة', 'exact', true]]);
    assert.deepEqual(weak('سلة', 'ar', 'بدأت البيع بسلة منذ شهر.').spans, [['سلة', 'attached', true]]);
  });

  test('the evidence of a brand decided only weakly says ambiguous; a firm one does not', () => {
    const base = { citations: [], targetUrl: 'https://ring.com', competitors: ['Arlo'], language: 'en' };
    const a = analyzeAnswer({ ...base, text: 'Ring cameras record motion. Arlo is cheaper.', targetEntity: 'Ring' });
    assert.deepEqual(a.target_evidence, { rule: 'everyday_word_rejected', text: 'Ring', ambiguous: true });
    assert.deepEqual(Object.keys(a.ambiguous_spans), ['Ring']);
    assert.deepEqual(a.competitor_evidence.Arlo, { rule: 'exact', text: 'Arlo' });
  });
});
