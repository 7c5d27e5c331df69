// Round nine of the mention rules: one test per class of error found on held-out-9, on answers
// written here (brands, people and places of our own, none from any table). Names of people (a
// title, an honorific, initials, a person noun in apposition, a given name before an unknown
// surname; not two given names joined by "and", as brands are compared), places (a verb of lying or flowing, a place noun before
// the name, classifying sentences of more languages, a US state or a territorial unit after it),
// venues and events (a dam, a cup, a harbour after the name), a fairy tale, Chinese readings of a
// common word, a phrase written with a lower-case word, are turned down, weakly, each with its
// rule; a CJK name with a Latin model after it, and Ukrainian and Polish declined forms, are read.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { decide } from './decide.ts';

/** The name is turned down, weakly, by `rule`, and not mentioned. */
function rejectedBy(name: string, language: string, text: string, rule: string) {
  const d = decide(name, language, text);
  assert.deepEqual(d.spans, [], `${name} in ${text}: expected no mention`);
  assert.deepEqual(
    d.rejected.map((r) => [r.rule, r.weak]),
    [[rule, true]],
    `${name} in ${text}`,
  );
}

/** The name is mentioned once (by any rule). */
function mentioned(name: string, language: string, text: string) {
  const d = decide(name, language, text);
  assert.equal(d.spans.length, 1, `${name} in ${text}: ${JSON.stringify(d)}`);
}

describe('person_cue: the words around the name say a person bears it', () => {
  test('a title or form of address before it', () => {
    rejectedBy('Ashby', 'en', 'Doctor Ashby examined the patient before lunch.', 'person_cue');
    rejectedBy('Kerrow', 'en', 'We wrote to Dr. Kerrow about the results.', 'person_cue');
    rejectedBy('Zdunek', 'pl', 'Wczoraj przyszedł pan Zdunek z sąsiedztwa.', 'person_cue');
    rejectedBy('Беляк', 'ru', 'Вчера доктор Беляк осмотрел пациента.', 'person_cue');
    mentioned('Ashby', 'en', 'Ashby makes sturdy garden tools.');
    mentioned('Zdunek', 'pl', 'Kupiłem rower w sklepie Zdunek.');
  });
  test('an honorific after it', () => {
    rejectedBy('ほしの', 'ja', 'ほしのさんに資料を送りました。', 'person_cue');
    rejectedBy('다온', 'ko', '다온 씨는 회의에 늦었다.', 'person_cue');
    rejectedBy('明远', 'zh', '明远先生昨天来过。', 'person_cue');
    rejectedBy('Demirsoy', 'tr', 'Toplantıya Demirsoy Bey de geldi.', 'person_cue');
    mentioned('ほしの', 'ja', 'ほしのの新商品が発売されました。');
  });
  test('initials before it, or an initial and a surname after it; not U.S.', () => {
    rejectedBy('Farrow', 'en', 'The foreword is by J.K. Farrow, who taught there.', 'person_cue');
    // One letter opening a line is a list's enumerator.
    mentioned('Farrow', 'en', 'Two shops:\nA. Farrow sells garden tools.\nB. Acme sells paint.');
    rejectedBy('Corwin', 'en', 'Corwin J. Pike signed the treaty.', 'person_cue');
    mentioned('Farrow', 'en', 'Prices rose in the U.S. Farrow sells garden tools there.');
    // A single initial after a word that is no given name ends a sentence.
    mentioned('Farrow', 'en', 'Keep a spare as plan B. Farrow sells garden tools.');
    mentioned('Farrow', 'en', 'Citrus is rich in vitamin C. Farrow sells juicers too.');
    rejectedBy('Farrow', 'en', 'The essay is by Helen B. Farrow, who taught there.', 'person_cue');
  });
  test('a person noun in apposition', () => {
    rejectedBy('Rovira', 'es', 'Rovira, mi vecina, trabaja en Vigo.', 'person_cue');
    rejectedBy('سلمى', 'ar', 'سلمى صديقتي من الرياض وهي طبيبة.', 'person_cue');
    mentioned('Rovira', 'es', 'Rovira, una marca de Girona, vende embutidos.');
  });
  test('English: the possessive and a kin noun after it; not a sister brand', () => {
    rejectedBy('Kestrel', 'en', 'Kestrel’s sister lives in York and teaches chemistry.', 'person_cue');
    mentioned('Kestrel', 'en', 'Kestrel’s sister brand sells cheaper boots.');
  });
  test('not two given names joined by "and": brands that are given names are compared so', () => {
    mentioned('Hilton', 'en', 'For loyalty points, Hilton and Hyatt both beat the independents.');
    mentioned('Hyatt', 'en', 'For loyalty points, Hilton and Hyatt both beat the independents.');
    mentioned('Lincoln', 'en', 'Ford and Lincoln share most of their platforms.');
    mentioned('Rema', 'nb', 'Rema og Kiwi har lave priser.');
  });
});

describe('person_name and given_name_before, wider', () => {
  test('a brand that is a given name before a surname the English dictionary lists (no Italian one here)', () => {
    rejectedBy('Gordon', 'it', 'Gordon Whitman ha aperto un ristorante a Roma.', 'person_name');
    // A word after it, or a made-up model no dictionary knows, keeps the brand.
    mentioned('Gordon', 'it', 'Gordon Classic è una birra scozzese.');
    mentioned('Gordon', 'it', 'Gordon Vexlo è una birra scozzese.');
  });
  test('a given name the subtitle list holds, which the English dictionary lists only as a name', () => {
    rejectedBy('Brekke', 'nb', 'Thomas Brekke vant løpet i fjor.', 'given_name_before');
  });
});

describe('place_name: verbs of place, place nouns, classifying sentences, regions', () => {
  test('a verb of lying or flowing after the name opening its sentence', () => {
    rejectedBy('Thornby', 'en', 'Thornby lies on the north bank of the river.', 'place_name');
    rejectedBy('Kobylnica', 'pl', 'Kobylnica leży nad Słupią, niedaleko morza.', 'place_name');
    rejectedBy('Vesla', 'nb', 'Vesla renner ut i havet ved Ålesund.', 'place_name');
    mentioned('Thornby', 'en', 'Thornby lists its prices online.');
    mentioned('Kobylnica', 'pl', 'Kobylnica sprzedaje meble na raty.');
    // Where a shop is: "lies" with no phrase of geography.
    mentioned('Dagsmark', 'de', 'Der Dagsmark liegt am Stadtrand, direkt neben dem Baumarkt.');
    mentioned('Dagsmark', 'nb', 'Dagsmark ligger ved E6 like utenfor byen.');
  });
  test('a place noun right before the name', () => {
    rejectedBy('Arvo', 'en', 'We paddled down the river Arvo last summer.', 'place_name');
    mentioned('Arvo', 'en', 'We paddled with Arvo gear last summer.');
  });
  test('classifying sentences in Finnish, the Nordic languages, Ukrainian; capitalised adjectives', () => {
    rejectedBy('Korvala', 'fi', 'Korvala on pieni kylä Lapissa.', 'place_name');
    rejectedBy('Stavnes', 'nb', 'Stavnes er en liten bygd i Valdres.', 'place_name');
    rejectedBy('Norrvik', 'sv', 'Norrvik är en tätort i Uppland.', 'place_name');
    rejectedBy('Дубрівка', 'uk', 'Дубрівка — це село на Поділлі.', 'place_name');
    rejectedBy('Morvaig', 'en', 'Morvaig is the largest Scottish island.', 'place_name');
    mentioned('Korvala', 'fi', 'Korvala on suomalainen yritys.');
    mentioned('Norrvik', 'sv', 'Norrvik är ett svenskt företag.');
    mentioned('Morvaig', 'en', 'Morvaig is the largest Scottish distillery.');
  });
  test('Turkish: a place noun with the copula suffix ends the sentence', () => {
    rejectedBy('Yeşilkent', 'tr', 'Yeşilkent, Avcılar ilçesine bağlı bir mahalledir.', 'place_name');
    mentioned('Yeşilkent', 'tr', 'Yeşilkent bir ayakkabı markasıdır.');
  });
  test('a US state or a territorial unit after the name', () => {
    rejectedBy('Orrin', 'en', 'Orrin, Nebraska has one diner and a grain elevator.', 'place_name');
    rejectedBy('Озёрский', 'ru', 'Озёрский район граничит с областью.', 'place_name');
    mentioned('Orrin', 'en', 'Orrin, Washington Post and others reported it.');
    mentioned('Озёрский', 'ru', 'Озёрский хлеб продаётся везде.');
  });
});

describe('named_place_or_venue: a dam, cup, harbour, spa or hall after the name', () => {
  test('the head after the name, capitalised', () => {
    rejectedBy('Calder', 'en', 'The Calder Dam was finished in 1960.', 'named_place_or_venue');
    rejectedBy('Marlow', 'en', 'He watched the Marlow Cup final on Sunday.', 'named_place_or_venue');
    rejectedBy('Lysaker', 'nb', 'Vi gikk en tur langs Lysaker Havn i går.', 'named_place_or_venue');
    rejectedBy('Roccella', 'it', 'Roccella Terme è un paese sul mare.', 'named_place_or_venue');
    rejectedBy('ミヤコ', 'ja', 'ミヤコホールでコンサートを聴きました。', 'place_name');
    mentioned('Calder', 'en', 'Calder Pumps are quiet and cheap.');
    mentioned('ミヤコ', 'ja', 'ミヤコの新しいイヤホンを買いました。');
  });
  test('a brand whose word is such a head, after a capitalised name', () => {
    rejectedBy('Marathon', 'en', 'The Dunmore Marathon starts at nine.', 'named_place_or_venue');
    mentioned('Marathon', 'en', 'I bought Marathon snacks for the trip.');
  });
});

describe('myth_or_legend and other_name, wider', () => {
  test('inflected words of mythology, and a fairy tale', () => {
    rejectedBy('Wolana', 'pl', 'W mitologii słowiańskiej Wolana była boginią wiosny.', 'myth_or_legend');
    rejectedBy('Rotfink', 'de', 'Im Märchen trifft Rotfink den listigen Fuchs.', 'myth_or_legend');
    mentioned('Rotfink', 'de', 'Rotfink verkauft Vogelfutter im Netz.');
  });
  test('Danish and Norwegian person and myth nouns before the name', () => {
    rejectedBy('Tyrla', 'nb', 'I sagaen blir gudinnen Tyrla sendt bort.', 'other_name');
    rejectedBy('Hemming', 'da', 'Vi spiste middag med naboen Hemming i går.', 'other_name');
  });
  test('Korean: a work or role noun as its own word before the name', () => {
    rejectedBy('다온', 'ko', '영화 다온은 2001년에 개봉했다.', 'other_name');
    mentioned('다온', 'ko', '다온에서 주문한 가방이 도착했다.');
  });
});

describe('Chinese: the grammar around a common word', () => {
  test('a copula and a classifier before it (counted_noun)', () => {
    rejectedBy('能手', 'zh', '她干活是个能手，什么都会。', 'counted_noun');
    mentioned('能手', 'zh', '能手推出了新款扫地机。');
  });
  test('a pronoun and 的 before an everyday word (possessed_noun)', () => {
    rejectedBy('梦想', 'zh', '我的梦想是开一家书店。', 'possessed_noun');
    mentioned('梦想', 'zh', '梦想手机的价格很合理。');
  });
  test('a numeral in the name and one after it (number_expression)', () => {
    rejectedBy('二加', 'zh', '二加五等于七，这道题很简单。', 'number_expression');
    // A word opening with a numeral character is no number: 一直 "always".
    mentioned('三星', 'zh', '三星一直在研发折叠屏。');
    mentioned('二加', 'zh', '二加推出了新款耳机。');
  });
  test('a model in Latin letters or digits right after the name is the brand', () => {
    assert.deepEqual(decide('星驰', 'zh', '星驰X5的续航很长。').spans, [{ text: '星驰', rule: 'attached', weak: false }]);
    // An everyday word before a model is the brand too, weakly.
    assert.deepEqual(decide('梦想', 'zh', '梦想S3的屏幕很大。').spans, [{ text: '梦想', rule: 'attached', weak: true }]);
  });
});

describe('inflected: adjectival and vowel-stem declension', () => {
  test('Ukrainian feminine adjectives and possessives decline as adjectives', () => {
    assert.deepEqual(decide('Полтавська', 'uk', 'Візьміть пляшку «Полтавської» в дорогу.').spans, [{ text: 'Полтавської', rule: 'inflected', weak: false }]);
    assert.deepEqual(decide('Наша Хата', 'uk', 'Ми замовили меблі в «Нашій Хаті».').spans, [{ text: 'Нашій Хаті', rule: 'inflected', weak: false }]);
  });
  test('Polish -ja after a vowel drops its j before -i', () => {
    assert.deepEqual(decide('Kreja', 'pl', 'Kosmetyki Krei są tanie.').spans, [{ text: 'Krei', rule: 'inflected', weak: false }]);
  });
});

describe('a name of capitalised words with one written in lower case is the phrase', () => {
  test('mixed case', () => {
    rejectedBy('Silver Birch', 'en', 'The Silver birch in our garden lost its leaves.', 'everyday_word_rejected');
    mentioned('Silver Birch', 'en', 'Silver Birch sells scented candles online.');
  });
});

// Brand-positive sentences of the kind AI assistants write, which round nine turned down (all were
// mentions before it): each must be a mention again. Written for these tests after a reviewer's
// sentences of the same kinds; each group names the rule it narrows.
describe('real answers round nine must not turn down', () => {
  const allMentioned = (cases: readonly (readonly [string, string, string])[]) => {
    for (const [name, language, text] of cases) mentioned(name, language, text);
  };
  test('person_cue: initials opening a firm’s name, abbreviations, Lady, kin nouns of firms, business Japanese', () => {
    allMentioned([
      ['Heinz', 'en', 'H.J. Heinz Company was founded in Pittsburgh in 1869.'],
      ['Smucker', 'en', 'The J.M. Smucker Company owns Jif, so the two taste alike.'],
      ['Morgan', 'en', 'J.P. Morgan offers a wide range of investment accounts.'],
      ['Marriott', 'en', 'The J.W. Marriott in Austin has a rooftop pool and a good gym.'],
      ['Hunt', 'en', 'J.B. Hunt is one of the largest trucking firms in North America.'],
      ['Bean', 'en', 'L.L. Bean offers free returns on its duck boots.'],
      ['Kellogg', 'en', 'W.K. Kellogg Co sells cereal in more than 180 countries.'],
      ['Penney', 'en', 'For cheap suits, J.C. Penney Company still runs frequent sales.'],
      ['Nike', 'en', 'P.S. Nike restocks its running shoes every Friday.'],
      ['Zara', 'en', 'N.B. Zara changes its return window during sales.'],
      ['Carrefour', 'en', 'In the U.A.E. Carrefour runs most of the hypermarkets.'],
      ['Dior', 'en', 'The Lady Dior bag is still the house’s best seller.'],
      ['Dior', 'en', 'Celebrities keep carrying the Lady Dior in new colours.'],
      ['Nike', 'en', 'Nike’s kids shoes run half a size small.'],
      ['Amazon', 'en', 'Amazon’s kids tablets come with a two-year warranty.'],
      ['Lego', 'en', 'Lego’s children sets are labelled by age.'],
      ['Zara', 'en', 'Zara’s sister chains include Bershka and Pull&Bear.'],
      ['H&M', 'en', 'H&M’s sister stores COS and Arket sell pricier basics.'],
      ['Gap', 'en', 'Gap’s sister brands Old Navy and Banana Republic share a loyalty program.'],
      ['Marriott', 'en', 'Marriott’s sister hotels in the same city often share a gym.'],
      ['トヨタ', 'ja', 'トヨタさんとの取引は十年以上続いています。'],
      ['ユニクロ', 'ja', 'ユニクロ様から新しい注文をいただきました。'],
      ['ソフトバンク', 'ja', 'ソフトバンク様向けの提案書を作成しました。'],
      ['パナソニック', 'ja', 'パナソニックさんの新しい冷蔵庫は省エネ性能が高いです。'],
    ]);
    // Still people: initials after "by" or a title, a kin noun with no firm's noun after it.
    rejectedBy('Farrow', 'en', 'The novel was written by J.K. Farrow in 1997.', 'person_cue');
    rejectedBy('Farrow', 'en', 'We met Professor J. Farrow at the fair.', 'person_cue');
    rejectedBy('Kestrel', 'en', 'Kestrel’s brother works in Leeds.', 'person_cue');
  });
  test('person_name: a determiner before, or a word or number after, makes a given name and a dictionary name a model', () => {
    allMentioned([
      ['Ford', 'en', 'I rented the Ford Taurus for a week and it was comfortable.'],
      ['Ford', 'de', 'Der Ford Taurus war in den USA ein Bestseller.'],
      ['Ford', 'en', 'Ford Everest 2024 models have a new infotainment system.'],
      ['Ford', 'en', 'The Ford Capri was a classic coupe of the seventies.'],
      ['Mercedes', 'de', 'Der Mercedes Benz ist teurer als der BMW.'],
      ['Mercedes', 'fr', 'La Mercedes Benz Classe A est une compacte.'],
      ['Mercedes', 'es', 'El Mercedes Benz Clase C es muy cómodo.'],
      ['Ford', 'en', 'The Ford Ranger Raptor is the fastest pickup in its class.'],
    ]);
    // Still a person: no determiner, nothing after the surname.
    rejectedBy('Gordon', 'it', 'Ieri Gordon Whitman ha aperto un ristorante.', 'person_name');
  });
  test('named_place_or_venue: a cup or trophy after a brand that is no given name is its sponsored event', () => {
    allMentioned([
      ['Heineken', 'en', 'Heineken Cup finals drew record crowds in the 2000s.'],
      ['Carabao', 'en', 'Arsenal lost in the Carabao Cup semi-final.'],
      ['Kirin', 'en', 'Japan won the Kirin Cup again this year.'],
      ['Rolex', 'en', 'The Rolex Trophy is sailed off Sydney every December.'],
      ['Orlen', 'pl', 'Orlen Puchar Polski to najważniejszy turniej pucharowy w kraju.'],
      ['Coca-Cola', 'es', 'La Copa Coca-Cola reúne a miles de escolares.'],
      ['キリン', 'ja', 'キリン杯で日本代表が優勝した。'],
    ]);
    // A given name before it is the person the trophy is named after ("Rogers Cup" too, weakly).
    rejectedBy('Stanley', 'en', 'The Stanley Cup final went to a seventh game.', 'named_place_or_venue');
  });
  test('place_name: quarter, capitalised nouns, fronted phrases of place, where a shop lies', () => {
    allMentioned([
      ['Tesla', 'en', 'Tesla was down this quarter after weaker deliveries.'],
      ['Nvidia', 'en', 'Nvidia is a quarter of the index’s gains this year.'],
      ['Clorox', 'en', 'Clorox is a Bay Area company that also owns Brita and Burt’s Bees.'],
      ['Gymshark', 'en', 'Gymshark is a British brand, not a City firm.'],
      ['Tesco', 'en', 'In our village Tesco is the only supermarket open on Sundays.'],
      ['Mercadona', 'es', 'En mi pueblo Mercadona abre a las nueve.'],
      ['Barilla', 'it', 'Nel nostro paese Barilla è la pasta più venduta.'],
      ['Carrefour', 'it', 'In paese Carrefour apre anche la domenica.'],
      ['Biedronka', 'pl', 'W mojej wsi Biedronka jest jedynym dyskontem.'],
      ['Aldi', 'de', 'In unserem Dorf Aldi hat gerade neu eröffnet.'],
      ['Lidl', 'nl', 'In ons dorp Lidl is de goedkoopste supermarkt.'],
      ['Lidl', 'de', 'Lidl liegt zwischen Aldi und Rewe im Preisvergleich.'],
      ['Jumbo', 'nl', 'Jumbo ligt tussen Albert Heijn en Lidl qua prijs.'],
      ['Coop', 'sv', 'Coop ligger mellan ICA och Lidl i pris.'],
      ['Rema', 'nb', 'Rema ligger mellom Kiwi og Meny i pris.'],
      ['Netto', 'da', 'Netto ligger mellem Lidl og Rema i pris.'],
      ['Lidl', 'pl', 'Lidl leży między Biedronką a Auchan pod względem cen.'],
      ['Costco', 'en', 'Costco lies between Sam’s Club and BJ’s on price.'],
      ['Albert', 'cs', 'Albert leží mezi Lidlem a Tescem, co se cen týče.'],
      ['Пятёрочка', 'ru', 'Пятёрочка расположена между Магнитом и Лентой по ценам.'],
      ['Costco', 'en', 'Costco lies north of the city, near the ring road.'],
      ['Aldi', 'de', 'Aldi liegt nördlich der Innenstadt an der B27.'],
      ['IKEA', 'sv', 'Ikea ligger norr om stan, vid E4.'],
      ['Jumbo', 'nl', 'Jumbo ligt ten noorden van het station.'],
      ['Bilka', 'da', 'Bilka ligger syd for byen ved motorvejen.'],
      ['Obs', 'nb', 'Obs ligger nord for sentrum.'],
    ]);
  });
  test('place_name: verbs of flowing that are verbs of business; a state’s possessive; compounds', () => {
    allMentioned([
      ['Nokia', 'fi', 'Nokia laskee puhelintensa hintoja ensi kuussa.'],
      ['Lidl', 'fi', 'Lidl laskee hintojaan taas ensi viikolla.'],
      ['Finnair', 'fi', 'Finnair laskee lippujen hintoja syksyllä.'],
      ['Lipton', 'tr', 'Lipton çayı Türkiye’de çok satılıyor.'],
      ['Eataly', 'it', 'Eataly nasce dal desiderio di portare il cibo italiano nel mondo.'],
      ['Barilla', 'it', 'Barilla nasce dalle mani di un fornaio di Parma.'],
      ['Cabify', 'es', 'Cabify desemboca en una guerra de precios con Uber.'],
      ['Nike', 'en', 'Nike, Oregon’s biggest company, employs thousands in Beaverton.'],
      ['Boeing', 'en', 'Boeing, Washington’s largest private employer, builds jets in Everett.'],
      ['Mekonomen', 'sv', 'Mekonomen är en bilverkstad med många filialer.'],
      ['Biltema', 'sv', 'Biltema är en verkstad och butik för bilägare.'],
      ['パナソニック', 'ja', 'パナソニックホールディングスが決算を発表した。'],
      ['セブン', 'ja', 'セブンホールディングスの株価が上がった。'],
    ]);
    // Still places: a river into a body of water or a name in the illative.
    rejectedBy('Vantaa', 'fi', 'Vantaa laskee Helsingissä mereen.', 'place_name');
    rejectedBy('Vuoksi', 'fi', 'Vuoksi laskee Laatokkaan.', 'place_name');
    rejectedBy('Tajo', 'es', 'El Tajo desemboca en el océano Atlántico.', 'place_name');
    rejectedBy('Arvo', 'en', 'In summer we paddled down the river Arvo.', 'place_name');
  });
  test('myth_or_legend: a fairy tale in another clause; Korean other_name after a demonstrative', () => {
    allMentioned([
      ['Disney', 'en', 'In the fairy tale the mermaid dies, but Disney changed the ending.'],
      ['Disney', 'de', 'Im Märchen stirbt die Meerjungfrau, aber Disney hat das Ende geändert.'],
      ['Disney', 'en', 'Kids know the version Disney made, though the mermaid dies in the fairy tale.'],
      ['멜론', 'ko', '그 노래 멜론에서 들었어요.'],
      ['멜론', 'ko', '이 노래 멜론 차트 1위예요.'],
    ]);
    rejectedBy('Rotfink', 'de', 'Im Märchen vom Fuchs trifft Rotfink den Wolf.', 'myth_or_legend');
  });
  test('Chinese: a demonstrative or 有 and a classifier, and a model in numerals, are the brand', () => {
    allMentioned([
      ['三星', 'zh', '这个三星的电池很耐用。'],
      ['华为', 'zh', '我有个华为，用了五年。'],
      ['大疆', 'zh', '这个大疆无人机很好用。'],
      ['小米', 'zh', '那个小米充电宝我用了三年。'],
      ['一加', 'zh', '一加十二的屏幕很好。'],
      ['一加', 'zh', '一加十三的拍照很好。'],
    ]);
  });
});
