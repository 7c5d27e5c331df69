// Round seven of the mention rules (issue #29): one test per class of error found on held-out-7,
// on answers written here. Forms no rule produced (a Russian name in -ей, a name of several words
// declined on its first word, a Korean name on a noun only the spelling dictionary lists) are now
// the name; names of other things (an event or constellation, a relation after a possessive, a
// Chinese role before a personal name) and words of another class (an Arabic adjective, a Chinese
// adverb, a noun after an indefinite article in a lower-case answer) are turned down, weakly, each
// with its rule.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from './decide.ts';
import { createRequire } from 'node:module';
import { inflectionFor } from '../../src/text/morphology.ts';

/** dictionary-ko is installed (a dependency awaiting the lead's approval in round seven). */
const koreanDictionary = (() => {
  try {
    createRequire(import.meta.url).resolve('dictionary-ko');
    return true;
  } catch {
    return false;
  }
})();

describe('soft_j_stem: a Russian name in -ей, -ай, -уй declines on the stem without the й', () => {
  test('its cases are the name', () => {
    assert.deepEqual(decide('Окей', 'ru', 'Скидки в Окее бывают по четвергам, а с Океем удобно.').spans, [
      { text: 'Окее', rule: 'inflected', weak: false },
      { text: 'Океем', rule: 'inflected', weak: false },
    ]);
  });
  test('only those endings, and adjectives in -ой, -ий are left to the stemmer', () => {
    const rule = inflectionFor('Окей', 'ru')!;
    for (const w of ['окея', 'окею', 'окее', 'океем']) assert.ok(rule.accepts(w), w);
    for (const w of ['окейный', 'океан']) assert.equal(rule.accepts(w), false, w);
    assert.ok(inflectionFor('Связной', 'ru')!.accepts('связного'));
  });
});

describe('declined_first_word: a Slavic name of several words declines on its first word', () => {
  test('the first word declined and the rest as written, or the last word declined too', () => {
    assert.deepEqual(decide('Глория Джинс', 'ru', 'У Глории Джинс новая коллекция.').spans, [{ text: 'Глории Джинс', rule: 'inflected', weak: false }]);
    assert.deepEqual(
      decide('Детский мир', 'ru', 'Игрушки мы берём в Детском мире.').spans.map((s) => s.text),
      ['Детском мире'],
    );
    assert.deepEqual(
      decide('Żabka Nano', 'pl', 'Kupiłem kawę w Żabce Nano na dworcu.').spans.map((s) => s.text),
      ['Żabce Nano'],
    );
  });
  test('the first word alone is not the name', () => {
    assert.deepEqual(decide('Глория Джинс', 'ru', 'У Глории сегодня день рождения.').spans, []);
  });
});

describe('a German preposition ends the article before it (noun_after_article)', () => {
  test('the article belongs to the noun before the preposition', () => {
    assert.deepEqual(
      decide('Apollo', 'de', 'die neue brille von apollo war günstig.').spans.map((s) => s.text),
      ['apollo'],
    );
  });
  test('an article right before the noun still makes it the noun', () => {
    assert.deepEqual(decide('Puma', 'de', 'Der Puma lebt in den Bergen.').rejected, [{ text: 'Puma', rule: 'noun_after_article', weak: true }]);
  });
});

describe('other_name, round seven: events, constellations, possessive heads, Chinese roles', () => {
  test('an event or constellation and "of" before the name', () => {
    assert.deepEqual(decide('Waterloo', 'en', 'Napoleon lost the Battle of Waterloo in 1815.').rejected, [
      { text: 'Waterloo', rule: 'other_name', weak: true },
    ]);
    assert.equal(decide('Lepanto', 'pt', 'A Batalha de Lepanto foi travada em 1571.').rejected[0]?.rule, 'other_name');
    assert.equal(decide('Cassiopeia', 'en', 'On clear nights the constellation Cassiopeia is easy to find.').rejected[0]?.rule, 'other_name');
    assert.equal(decide('Lyra', 'cs', 'Souhvězdí Lyra má jasnou hvězdu Vegu.').rejected[0]?.rule, 'other_name');
  });
  test('a role noun and "of" keep the name: the firm has a CEO; a revolution is no event', () => {
    assert.equal(decide('Tesla', 'es', 'La revolución de Tesla en el transporte.').spans.length, 1);
    assert.deepEqual(
      decide('Waterloo', 'en', 'The CEO of Waterloo said prices will fall.').spans.map((s) => s.text),
      ['Waterloo'],
    );
  });
  test('a relation noun after a possessive is the head, whatever follows', () => {
    assert.equal(decide('Hugo', 'fr', 'Hugo est mon cousin depuis toujours.').rejected[0]?.rule, 'other_name');
    assert.equal(decide('Bruno', 'es', 'Bruno es mi vecino desde hace años.').rejected[0]?.rule, 'other_name');
    assert.deepEqual(
      decide('Lumo', 'en', 'Lumo is a film streaming service.').spans.map((s) => s.text),
      ['Lumo'],
    );
  });
  test('a sentence that classes the name as an animal, a plant or a fruit', () => {
    assert.equal(decide('Falcon', 'en', 'Falcon is the fastest bird on the planet.').rejected[0]?.rule, 'other_name');
    assert.equal(decide('Kestrel', 'en', 'Kestrel is a small predator of open fields.').rejected[0]?.rule, 'other_name');
    // Romance languages: the first noun after the article is the head, adjectives follow it.
    assert.equal(decide('Mango', 'es', 'Mango es una fruta tropical muy dulce.').rejected[0]?.rule, 'other_name');
  });
  test('a class noun that is not the head, or "a kind of", keeps the name', () => {
    assert.deepEqual(
      decide('Falcon', 'en', 'Falcon is a bird app for birdwatchers.').spans.map((s) => s.text),
      ['Falcon'],
    );
    assert.deepEqual(
      decide('Mango', 'es', 'Mango es una especie de tienda de moda.').spans.map((s) => s.text),
      ['Mango'],
    );
  });
  test('a Chinese role noun written before a personal name', () => {
    assert.equal(decide('小米', 'zh', '我的同学小米今天没来上课。').rejected[0]?.rule, 'other_name');
    assert.deepEqual(
      decide('小米', 'zh', '我买了一部小米手机。').spans.map((s) => s.text),
      ['小米'],
    );
  });
});

describe('adjective_after_noun, adverbial, a dated construct: the word is another part of speech', () => {
  test('Arabic: a definite name after a definite noun is its adjective; after an indefinite one, the brand', () => {
    assert.deepEqual(decide('الصافي', 'ar', 'الجو الصافي جميل اليوم.').rejected, [{ text: 'الصافي', rule: 'adjective_after_noun', weak: true }]);
    assert.deepEqual(
      decide('الصافي', 'ar', 'اشتريت مياه الصافي من السوق.').spans.map((s) => s.text),
      ['الصافي'],
    );
  });
  test('Arabic: a noun before a year and its number is the first term of a construct', () => {
    assert.equal(decide('ربيع', 'ar', 'زرنا المغرب في ربيع سنة 2018.').rejected[0]?.rule, 'noun_in_construct');
  });
  test('Arabic: a noun with a possessive suffix is the second term of a construct', () => {
    assert.equal(decide('أمل', 'ar', 'أمل حياتي أن أسافر.').rejected[0]?.rule, 'noun_in_construct');
  });
  test('Arabic: an everyday word after a definite noun is its predicate; after an indefinite one, a name', () => {
    assert.deepEqual(decide('جاهز', 'ar', 'الطعام جاهز الآن.').rejected, [{ text: 'جاهز', rule: 'adjective_after_noun', weak: true }]);
    assert.deepEqual(
      decide('جاهز', 'ar', 'طلبت من تطبيق جاهز وجبة.').spans.map((s) => s.text),
      ['جاهز'],
    );
    // After a superlative the name is the predicate: "the best app is Talabat".
    assert.equal(decide('طلبات', 'ar', 'التطبيق الأفضل طلبات.').spans.length, 1);
  });
  test('Chinese: a name before 地 and a verb is an adverb, unless 地 starts a listed word', () => {
    assert.deepEqual(decide('呼呼', 'zh', '北风呼呼地吹了一整夜。').rejected, [{ text: '呼呼', rule: 'adverbial', weak: true }]);
    assert.deepEqual(
      decide('呼呼', 'zh', '呼呼地区的门店很多。').spans.map((s) => s.text),
      ['呼呼'],
    );
  });
});

describe('person_name: a given name before a surname that is no word of the language', () => {
  test('the two name a person', () => {
    assert.deepEqual(decide('Alan', 'en', 'Alan Turing broke the Enigma code.').rejected, [{ text: 'Alan', rule: 'person_name', weak: true }]);
  });
  test('a word after it is a product or a firm, and keeps the brand', () => {
    assert.deepEqual(
      decide('Alan', 'en', 'Alan Partners is a consultancy.').spans.map((s) => s.rule),
      ['product_word'],
    );
    assert.deepEqual(
      decide('Lech', 'pl', 'Lech Premium to piwo z Poznania.').spans.map((s) => s.text),
      ['Lech'],
    );
    assert.equal(decide('Mercedes', 'en', 'The Mercedes-Benz dealer sells the Mercedes Sprinter.').spans.length, 2);
    // A model's name no dictionary lists is no surname.
    assert.equal(decide('Toyota', 'en', 'The Toyota Yaris is a small hybrid.').spans.length, 1);
  });
});

describe('Korean words after the name: a place of geography, a noun of time', () => {
  test('a geographic noun as a word of its own makes a place (place_name)', () => {
    assert.deepEqual(decide('한라', 'ko', '한라 산에 올라갔어요.').rejected, [{ text: '한라', rule: 'place_name', weak: true }]);
    assert.deepEqual(
      decide('한라', 'ko', '한라 제품을 샀어요.').spans.map((s) => s.text),
      ['한라'],
    );
  });
  test('a word of the dictionary is no head and particle: 강의 is a lecture', { skip: !koreanDictionary }, () => {
    assert.deepEqual(
      decide('한라', 'ko', '한라 강의를 들었어요.').spans.map((s) => s.text),
      ['한라'],
    );
  });
  test('an everyday word before a noun of time is a determiner (adverbial)', () => {
    assert.deepEqual(decide('다음', 'ko', '다음 달에 이사해요.').rejected, [{ text: '다음', rule: 'adverbial', weak: true }]);
    assert.equal(decide('매일', 'ko', '매일 저녁 운동해요.').rejected[0]?.rule, 'adverbial');
    assert.deepEqual(
      decide('다음', 'ko', '다음 카페에 글을 올렸어요.').spans.map((s) => s.text),
      ['다음'],
    );
  });
});

describe('noun_after_article in a lower-case answer: an indefinite article makes the common noun', () => {
  test('after "a", "een" the everyday word is the noun', () => {
    assert.deepEqual(decide('Lynx', 'en', 'i spotted a lynx in the woods last winter.').rejected, [{ text: 'lynx', rule: 'noun_after_article', weak: true }]);
  });
  test("before another noun the article is the product's: the brand", () => {
    assert.deepEqual(
      decide('Lynx', 'en', 'i bought a lynx deodorant yesterday.').spans.map((s) => s.rule),
      ['lower_case_answer'],
    );
    // "page" is among the 50 most frequent English words of the list: only closed classes end the phrase.
    assert.equal(decide('Notion', 'en', 'i keep a notion page for everything.').spans.length, 1);
  });
  test('without an article the lower-case answer still names it, weakly', () => {
    assert.deepEqual(decide('Lynx', 'en', 'i use lynx and old spice, both fine.').spans, [{ text: 'lynx', rule: 'lower_case_answer', weak: true }]);
  });
});

describe('korean_compound with the spelling dictionary (dictionary-ko)', { skip: !koreanDictionary }, () => {
  test('a name on a noun only the dictionary lists is the name, weakly', () => {
    assert.deepEqual(decide('롯데', 'ko', '롯데제과를 다녀왔어요.').spans, [{ text: '롯데', rule: 'attached', weak: true }]);
  });
  test('a firm noun after the name is the firm, also where the dictionary lists the compound', () => {
    assert.deepEqual(decide('삼성', 'ko', '삼성전자 갤럭시가 좋아요.').spans, [{ text: '삼성', rule: 'attached', weak: true }]);
  });
  test("a name that is a word, in the dictionary's own compound of it, is that word", () => {
    assert.deepEqual(decide('팔도', 'ko', '팔도강산을 여행했다.').spans, []);
  });
});

describe('classified_as_firm: a sentence that classes an everyday word as a firm names the brand', () => {
  test('a firm or product noun after the copula and article', () => {
    assert.deepEqual(decide('Shell', 'en', 'Shell is an oil company.').spans, [{ text: 'Shell', rule: 'classified_as_firm', weak: false }]);
    assert.equal(decide('Delta', 'en', 'Delta is an American airline.').spans[0]?.rule, 'classified_as_firm');
    assert.equal(decide('Orange', 'fr', 'Orange est un opérateur de télécommunications.').spans[0]?.rule, 'classified_as_firm');
    // A compound's head is its last part in Swedish, German and Dutch.
    assert.equal(decide('Tre', 'sv', 'Tre är en mobiloperatör.').spans[0]?.rule, 'classified_as_firm');
  });
  test('English ranks it among firms: "one of the", "the world\'s"', () => {
    assert.equal(decide('Target', 'en', 'Target is one of the largest retailers in the US.').spans[0]?.rule, 'classified_as_firm');
    assert.equal(decide('Shell', 'en', 'Shell is the world’s biggest oil company.').spans[0]?.rule, 'classified_as_firm');
    assert.equal(decide('Orange', 'en', 'Orange is one of the warm colours.').spans.length, 0);
  });
  test('a class of things, or "a brand new", is no firm', () => {
    assert.equal(decide('Orange', 'en', 'Orange is a warm colour.').spans.length, 0);
    assert.equal(decide('Apple', 'en', 'Apple is a fruit.').spans.length, 0);
    assert.equal(decide('Delta', 'en', 'Delta is a brand new variant of the virus.').spans.length, 0);
  });
});

describe('sentence_start: an English past tense with its object makes the word its subject', () => {
  test('the verb in -ed or -d and a determiner after it', () => {
    assert.deepEqual(decide('Delta', 'en', 'Delta cancelled all flights on Monday.').spans, [{ text: 'Delta', rule: 'sentence_start', weak: true }]);
    assert.equal(decide('Zoom', 'en', 'Zoom announced a new plan.').spans.length, 1);
  });
  test('a noun after the word is no verb', () => {
    assert.equal(decide('Orange', 'en', 'Orange juice contains vitamin C.').spans.length, 0);
  });
});

describe('brand-positive sentences: the round-seven rules turn none of them down', () => {
  // Written to check the new rejections against ordinary answers about brands (recommendations,
  // shops, inflected and attached forms in 16 languages); each was a mention before the round too.
  const answers: [string, string, string][] = [
    ['Apple', 'en', 'Apple makes the best laptops for students.'],
    ['Apple', 'en', 'For students, Apple and Dell are good choices.'],
    ['Notion', 'en', 'Notion is great for wikis.'],
    ['Target', 'en', 'You can buy it at Target or Walmart.'],
    ['Shell', 'en', 'Fill up at Shell stations for loyalty points.'],
    ['Orange', 'fr', 'Orange propose la meilleure couverture en France.'],
    ['Free', 'fr', 'Free Mobile et Orange sont les moins chers.'],
    ['Mango', 'es', 'Para ropa barata, Mango y Zara son buenas opciones.'],
    ['Corona', 'es', 'La cerveza Corona se sirve con limón.'],
    ['Puma', 'de', 'Puma bietet gute Laufschuhe an.'],
    ['Netto', 'de', 'Bei Netto ist Butter günstiger als bei Lidl.'],
    ['Lidl', 'pl', 'W Lidlu są promocje na kawę.'],
    ['Biedronka', 'pl', 'Biedronka ma najniższe ceny.'],
    ['Żabka', 'pl', 'Kupiłem hot doga w Żabce.'],
    ['Сбербанк', 'ru', 'Вклад в Сбербанке даёт 8% годовых.'],
    ['Магнит', 'ru', 'В Магните скидки по средам.'],
    ['Окей', 'ru', 'Лента и Окей — крупные сети гипермаркетов.'],
    ['Alza', 'cs', 'Alza má nejrychlejší doručení.'],
    ['Albert', 'cs', 'V Albertu mají dobré pečivo.'],
    ['Jula', 'sv', 'Jula har billiga verktyg.'],
    ['Blokker', 'nl', 'Blokkers aanbiedingen zijn goed.'],
    ['Bol', 'nl', 'Bestel het bij Bol, dat is snel.'],
    ['Natura', 'pt', 'A Natura é uma marca brasileira de cosméticos.'],
    ['Magalu', 'pt', 'Comprei na Magalu com frete grátis.'],
    ['Esselunga', 'it', 'Esselunga ha i prezzi migliori a Milano.'],
    ['Trendyol', 'tr', 'Trendyoldan aldım.'],
    ['طلبات', 'ar', 'أفضل تطبيق للتوصيل هو طلبات.'],
    ['زين', 'ar', 'شبكة زين هي الأسرع في الكويت.'],
    ['المراعي', 'ar', 'حليب المراعي متوفر في كل مكان.'],
    ['楽天', 'ja', '楽天市場で買いました。'],
    ['メルカリ', 'ja', 'メルカリで売るのが簡単です。'],
    ['小米', 'zh', '我推荐小米手机，性价比高。'],
    ['京东', 'zh', '在京东买东西很快。'],
    ['쿠팡', 'ko', '쿠팡에서 주문하면 다음 날 와요.'],
    ['삼성', 'ko', '삼성전자 갤럭시가 좋아요.'],
    ['다음', 'ko', '다음 메일을 써요.'],
    ['Amber', 'en', 'Amber is a great choice for home energy tariffs.'],
    ['Lynx', 'en', 'Lynx is the best-selling deodorant.'],
    ['Delta', 'en', 'I flew with Delta and United last year.'],
    ['Mercury', 'en', 'Mercury offers business banking.'],
  ];
  for (const [name, language, text] of answers) {
    test(`${name} (${language})`, () => {
      assert.ok(decide(name, language, text).spans.length > 0, text);
    });
  }
});
