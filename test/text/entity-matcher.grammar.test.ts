// Round four of the mention rules (issue #29): Czech cases from Snowball's Czech stemmer, the
// Russian fleeting ё that leaves a soft sign, the Arabic article after the preposition ل, a time
// adverbial that ends an Arabic construct, places named by the grammar (`place_name`), things
// counted by a classifier (`counted_noun`), a caseless function word, and a kanji name on a
// listed noun. Each rejection is weak and names its rule.
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

describe('Czech cases from the Snowball Czech stemmer', () => {
  test('locative, genitive, instrumental and accusative forms are the name', () => {
    assert.deepEqual(decide('Alza', 'cs', 'Notebook jsem koupil na Alze a přišel druhý den.').spans, [{ text: 'Alze', rule: 'inflected', weak: false }]);
    assert.deepEqual(
      decide('Alza', 'cs', 'Reklamace u Alzy proběhla bez problémů.').spans.map((s) => s.text),
      ['Alzy'],
    );
    assert.deepEqual(
      decide('Škoda', 'cs', 'Jezdím Škodou už patnáct let.').spans.map((s) => s.text),
      ['Škodou'],
    );
    assert.deepEqual(
      decide('Seznam', 'cs', 'Zprávy čtu hlavně na Seznamu.').spans.map((s) => s.text),
      ['Seznamu'],
    );
  });
  test('the instrumental -em that the stemmer keeps, and no longer derived words', () => {
    const rohlik = inflectionFor('Rohlík', 'cs')!;
    for (const w of ['rohlíku', 'rohlíkem', 'rohlíky']) assert.ok(rohlik.accepts(w), w);
    const skoda = inflectionFor('Škoda', 'cs')!;
    for (const w of ['škodit', 'škodovka', 'škodlivý']) assert.equal(skoda.accepts(w), false, w);
  });
  test('an everyday word in lower case stays the word; a name with a two-letter stem has no rule', () => {
    assert.deepEqual(decide('Škoda', 'cs', 'To je škoda, že jsi nepřišel.').spans, []);
    assert.equal(inflectionFor('Notino', 'cs'), null);
  });
});

describe('Russian fleeting ё leaves a soft sign', () => {
  test('Огонёк → Огонька, Огоньке', () => {
    assert.deepEqual(
      decide('Огонёк', 'ru', 'Статья вышла в Огоньке в прошлом месяце.').spans.map((s) => s.text),
      ['Огоньке'],
    );
    assert.ok(inflectionFor('Огонёк', 'ru')!.accepts('огонька'));
    assert.equal(inflectionFor('Огонёк', 'ru')!.accepts('огонь'), false);
  });
});

describe('Arabic: the article after the preposition ل loses its alif', () => {
  test('وللمراعي is "and to Almarai"', () => {
    assert.deepEqual(
      decide('المراعي', 'ar', 'وللمراعي مصانع ألبان كبيرة في الخرج.').spans.map((s) => s.rule),
      ['attached'],
    );
  });
  test('a word that only shares the letters is not the name', () => {
    assert.deepEqual(decide('المراعي', 'ar', 'ذهبنا إلى مراعي الجبل.').spans, []);
  });
});

describe('Arabic: a time adverbial is no second term of a construct', () => {
  test('من أمنية الشهر الماضي is "from Umniah last month"; أمنية الحياة stays a construct', () => {
    assert.deepEqual(
      decide('أمنية', 'ar', 'اشتركت بباقة إنترنت من أمنية الشهر الماضي.').spans.map((s) => s.text),
      ['أمنية'],
    );
    assert.deepEqual(
      decide('أمنية', 'ar', 'كانت أمنية الطفولة أن أسافر.').rejected.map((r) => r.rule),
      ['noun_in_construct'],
    );
  });
});

describe('place_name: the grammar names a place with the name', () => {
  test('a classifying sentence, with or without an article before the subject', () => {
    assert.deepEqual(decide('Liverpool', 'es', 'Liverpool es una ciudad portuaria del noroeste de Inglaterra.').rejected, [
      { text: 'Liverpool', rule: 'place_name', weak: true },
    ]);
    assert.deepEqual(
      decide('Saturn', 'de', 'Der Saturn ist der Planet mit den auffälligsten Ringen.').rejected.map((r) => r.rule),
      ['place_name'],
    );
    assert.deepEqual(
      decide('Columbia', 'en', 'Columbia is the capital of South Carolina.').rejected.map((r) => r.rule),
      ['place_name'],
    );
  });
  test('a sentence that classifies it as something else, or the name inside a sentence, is the name', () => {
    assert.equal(decide('Liverpool', 'es', 'Liverpool es una tienda de ropa.').spans.length, 1);
    assert.equal(decide('Saturn', 'de', 'Den Fernseher habe ich bei Saturn gekauft.').spans.length, 1);
    assert.equal(decide('Patagonia', 'en', 'Patagonia is a company that repairs jackets.').spans.length, 1);
    assert.equal(decide('Chase', 'en', "Chase is the country's largest bank.").spans.length, 1);
    assert.equal(decide('Chase', 'en', 'Chase is a state-chartered bank.').spans.length, 1);
  });
  test('an Arabic place noun before it, a Japanese place or era head after it', () => {
    assert.deepEqual(
      decide('الدانوب', 'ar', 'يمر نهر الدانوب بعدة عواصم أوروبية.').rejected.map((r) => r.rule),
      ['place_name'],
    );
    assert.deepEqual(
      decide('日立', 'ja', '日立市の海岸で釣りをしました。').rejected.map((r) => r.rule),
      ['place_name'],
    );
    assert.deepEqual(
      decide('大和', 'ja', '大和時代の古墳を見学しました。').rejected.map((r) => r.rule),
      ['place_name'],
    );
  });
  test('a head that is only the first kanji of a longer noun is not one (楽天|市場 is the store)', () => {
    assert.deepEqual(
      decide('楽天', 'ja', '楽天市場で買い物をするのが便利です。').spans.map((s) => s.text),
      ['楽天'],
    );
  });
});

describe('counted_noun: a name counted by a classifier is the thing counted', () => {
  test('Japanese counters for animals and 群れ', () => {
    assert.deepEqual(decide('ペリカン', 'ja', '池にペリカンが二羽いました。').rejected, [{ text: 'ペリカン', rule: 'counted_noun', weak: true }]);
    assert.deepEqual(
      decide('ゼブラ', 'ja', 'サバンナでゼブラの群れを見ました。').rejected.map((r) => r.rule),
      ['counted_noun'],
    );
    assert.equal(decide('ゼブラ', 'ja', 'ゼブラのボールペンは書きやすい。').spans.length, 1);
  });
  test('Korean 마리 and Chinese numeral + classifier; the classifiers of firms and vehicles count the brand', () => {
    assert.deepEqual(
      decide('진돗개', 'ko', '진돗개 두 마리를 키워요.').rejected.map((r) => r.rule),
      ['counted_noun'],
    );
    assert.deepEqual(
      decide('红旗', 'zh', '广场上飘着一面红旗。').rejected.map((r) => r.rule),
      ['counted_noun'],
    );
    assert.equal(decide('红旗', 'zh', '他买了一辆红旗。').spans.length, 1);
    assert.equal(decide('小米', 'zh', '我买了一个小米手机。').spans.length, 1);
  });
});

describe('a function word in a script without capitals is the word', () => {
  test('하나 "one" counting apples; a list item labelled with it stays the name', () => {
    assert.deepEqual(
      decide('하나', 'ko', '사과 하나만 더 주세요.').rejected.map((r) => r.rule),
      ['everyday_word_rejected'],
    );
    assert.equal(decide('하나', 'ko', '추천 은행:\n- 하나: 환전 수수료가 낮아요').spans.length, 1);
  });
});

describe('a kanji name written on to a listed noun', () => {
  test('朝日|新聞 is the name before its product noun, weakly', () => {
    assert.deepEqual(decide('朝日', 'ja', '朝日新聞の社説を毎朝読んでいます。').spans, [{ text: '朝日', rule: 'attached', weak: true }]);
  });
});

describe('counted_noun: an Arabic quantifier before the name', () => {
  test('عدة اتصالات is "several calls"; the company after a preposition is the name', () => {
    assert.deepEqual(
      decide('اتصالات', 'ar', 'أجريت عدة اتصالات مع الشركة دون رد.').rejected.map((r) => r.rule),
      ['counted_noun'],
    );
    assert.equal(decide('اتصالات', 'ar', 'اشتركت في باقة من اتصالات.').spans.length, 1);
  });
});

describe('English: a sentence-initial word followed by a verb in -s and its object is the subject', () => {
  test('Discover matches all the cash back: the name, weakly; Mercury is the smallest planet: a place', () => {
    assert.deepEqual(decide('Discover', 'en', 'Discover matches all the cash back you earn in your first year.').spans, [
      { text: 'Discover', rule: 'sentence_start', weak: true },
    ]);
    assert.deepEqual(
      decide('Mercury', 'en', 'Mercury is the smallest planet in the solar system.').rejected.map((r) => r.rule),
      ['place_name'],
    );
  });
  test('an imperative or a plural noun after it is no verb of a subject', () => {
    assert.equal(decide('Discover', 'en', 'Discover new music by following a few playlists.').spans.length, 0);
    assert.equal(decide('Ring', 'en', 'Ring doorbells the same way every time.').spans.length, 0);
  });
});

describe('German compounds take the gender of their head (noun_after_article)', () => {
  test('eine Flaschenpost (Post, feminine), der Fressnapf (Napf; fressen), das Bauhaus (Haus)', () => {
    assert.deepEqual(
      decide('Flaschenpost', 'de', 'Am Strand haben wir eine Flaschenpost gefunden.').rejected.map((r) => r.rule),
      ['noun_after_article'],
    );
    assert.deepEqual(
      decide('Fressnapf', 'de', 'Der Fressnapf des Hundes ist leer.').rejected.map((r) => r.rule),
      ['noun_after_article'],
    );
    assert.deepEqual(
      decide('Bauhaus', 'de', 'Das Bauhaus in Dessau gehört zum Weltkulturerbe.').rejected.map((r) => r.rule),
      ['noun_after_article'],
    );
  });
  test('bare, or a name that only ends in a noun’s letters: the name', () => {
    assert.equal(decide('Fressnapf', 'de', 'Bei Fressnapf gibt es das Futter günstiger.').spans.length, 1);
    assert.equal(decide('Flaschenpost', 'de', 'Die Getränke kamen mit Flaschenpost.').spans.length, 1);
    assert.equal(decide('Saturn', 'de', 'Den Fernseher habe ich im Saturn gekauft.').spans.length, 1);
  });
});

describe('more case forms', () => {
  test('Dutch possessive -s, Polish names in -ay, the Czech softened stem before -e', () => {
    assert.deepEqual(
      decide('Blokker', 'nl', 'Blokkers eigen merk is goed.').spans.map((s) => s.rule),
      ['inflected'],
    );
    assert.deepEqual(
      decide('Sinsay', 'pl', 'W Sinsayu kupiłam sukienkę.').spans.map((s) => s.text),
      ['Sinsayu'],
    );
    assert.deepEqual(
      decide('Hruška', 'cs', 'Rohlíky jsem koupil v Hrušce na rohu.').spans.map((s) => s.text),
      ['Hrušce'],
    );
    assert.deepEqual(
      decide('Sazka', 'cs', 'Los jsem si koupil u Sazky.').spans.map((s) => s.text),
      ['Sazky'],
    );
    assert.equal(inflectionFor('Hruška', 'cs')!.accepts('hrušeň'), false);
  });
  test('a Polish classifying sentence with "to" and the nominative', () => {
    assert.deepEqual(
      decide('Pudliszki', 'pl', 'Pudliszki to wieś w Wielkopolsce.').rejected.map((r) => r.rule),
      ['place_name'],
    );
    assert.equal(decide('Pudliszki', 'pl', 'Pudliszki to marka keczupu.').spans.length, 1);
  });
});

describe('Swedish subject verbs', () => {
  test('a frequent everyday word opening a sentence before "har" or "erbjuder" is its subject', () => {
    assert.equal(decide('Telia', 'sv', 'Telia erbjuder bäst täckning.').spans.length, 1);
    assert.deepEqual(
      decide('Vinter', 'sv', 'Vinter har kommit tidigt i år.').spans.map((s) => s.rule),
      ['sentence_start'],
    );
  });
});

describe('Chinese: a coverb the segmenter joins to the name', () => {
  test('在京东 is "at JD"; 在京东部 ("in eastern Beijing") is not the name', () => {
    assert.deepEqual(
      decide('京东', 'zh', '我在京东买了一部手机，第二天就到了。').spans.map((s) => s.text),
      ['京东'],
    );
    assert.equal(decide('京东', 'zh', '他住在京东部的郊区。').spans.length, 0);
  });
});
