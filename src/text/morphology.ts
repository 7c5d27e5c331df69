// Inflected and attached forms of a brand name, per language: which longer words are the name.
// The one thing to know: every rule here answers one question for one candidate word — "is this
// word the brand, declined or with a particle attached?" — and the matcher asks it only where a
// plain whole-word match failed, so a brand's exact spelling never depends on this module.
//
// - Russian, Ukrainian, Belarusian: Snowball's Russian stemmer (snowball-stemmers): the word and
//   the name share a stem, and the word is the stem plus at most four letters ("Сбербанка",
//   "Ладе"). Ukrainian has no Snowball stemmer; its noun endings overlap Russian's for the cases
//   that matter here ("Приватбанку"), so the Russian one is used.
// - Czech: Snowball's Czech stemmer (the light stemmer of Dolamic and Savoy): the word starts with
//   the name's stem and stems to it, adding at most four letters ("Alze", "Alzy", "Škodou",
//   "Rohlíku", "Seznamu").
// - Polish has no Snowball stemmer: POLISH_ENDINGS below, the noun declension endings of the
//   three genders, with the stem alternations of the dative and locative (k → c, g → dz, r → rz,
//   t → ci, d → dzi, ł → l; "Żabka" → "Żabce", "Toyota" → "Toyocie"), generate the forms, with
//   the fleeting e of masculine -ek, -ec, -eł, -el, -eń stems ("Wedel" → "Wedla", "Żywiec" → "Żywca").
// - German: the genitive -s ("Zalandos", "Lidls"); a name ending in s, x, z or ß takes an
//   apostrophe, which the plain match already reads as a boundary. Swedish, Danish and Norwegian
//   write the same -s on the name ("Klarnas", `scandinavian_genitive`).
// - Russian three-letter names in -а/-я whose stem is two letters ("Юла"): only their own
//   first-declension endings (`short_stem`).
// - Hungarian (round ten): Snowball's Hungarian stemmer: the word starts with the name and stems
//   to it ("Libriben", "Törleyt", "Ikeában").
// - Greek (round ten): the package has no Greek stemmer; GREEK_ENDINGS below, the regular noun
//   declensions, generate the name's forms ("Κωτσόβολο", "Πλαισίου").
// - Turkish: Snowball's Turkish stemmer: the word stems to the name ("Trendyoldan", "Getirle");
//   after an apostrophe ("Getir'den") the plain match already holds.
// - Arabic: proclitics written attached (و ف conjunctions, ب ل ك prepositions; deliberately
//   not the article ال, which makes the name's letters a common noun: "الطلبات" is "the orders"),
//   ARABIC_PROCLITIC, unless the whole attached word is itself an everyday word ("فنون", "arts").
// - Korean: a particle after the name (KOREAN_PARTICLES: case, topic and auxiliary particles).
// - Japanese: a katakana name followed, in the same katakana run, by a generic noun that is one of
//   the language's everyday words (from the frequency list: "メルカリ|アプリ", "ソニー|ストア");
//   a kanji name followed by a derivational suffix (JAPANESE_DERIVATIONAL: 楽天|的 "optimistic")
//   is a different word.
import * as snowball from 'snowball-stemmers';
import { everydayWordRank } from './everyday-words.ts';

export type Language = string;

/** The primary subtag, lower case ("pt-BR" → "pt"). */
export function primaryLanguage(language: string | undefined): string {
  return (language || '').toLowerCase().split(/[-_]/)[0]!;
}

const stemmers = new Map<string, ReturnType<typeof snowball.newStemmer>>();
function stemmer(algorithm: string) {
  let s = stemmers.get(algorithm);
  if (!s) {
    s = snowball.newStemmer(algorithm);
    stemmers.set(algorithm, s);
  }
  return s;
}

const SNOWBALL_BY_LANGUAGE: Record<string, string> = {
  ru: 'russian',
  uk: 'russian',
  be: 'russian',
  tr: 'turkish',
  cs: 'czech',
  fi: 'finnish',
  hu: 'hungarian',
};

/**
 * An inflection rule for one name: `search` is the text to look for (the name's stem, folded by
 * the caller), and `accepts(word)` says whether a whole word starting with it is the name.
 * `word` is the candidate in its original spelling, lower-cased for the language.
 */
export interface Inflection {
  /** The shortest prefix every form shares, original spelling, lower case. */
  stem: string;
  accepts(word: string): boolean;
}

/** Lower-cases for the language (Turkish dotted and dotless i). */
export function lowerFor(language: string, s: string): string {
  return primaryLanguage(language) === 'tr' || primaryLanguage(language) === 'az' ? s.toLocaleLowerCase('tr') : s.toLowerCase();
}

/**
 * Polish noun endings by the name's final letters: [what the name ends with, what replaces it in
 * each form]. The first matching row wins. Sources: the regular declension paradigms of Polish
 * feminine -a nouns (with the dative/locative alternations), masculine hard-stem nouns and
 * neuter -o nouns.
 */
const POLISH_ENDINGS: [RegExp, string[]][] = [
  // feminine -ka, -ga, -cha: Żabka → Żabki, Żabce, Żabkę, Żabką, Żabko; plural Żabek, Żabkom, Żabkami, Żabkach
  [/([sc])ka$/, ['$1ka', '$1ki', '$1ce', '$1kę', '$1ką', '$1ko', '$1kiej', '$1kom', '$1kami', '$1kach']],
  [/ka$/, ['ka', 'ki', 'ce', 'kę', 'ką', 'ko', 'kom', 'kami', 'kach']],
  [/ga$/, ['ga', 'gi', 'dze', 'gę', 'gą', 'go', 'gom', 'gami', 'gach']],
  [/cha$/, ['cha', 'chy', 'sze', 'chę', 'chą', 'cho']],
  // feminine -ia / -ja: Nokia → Nokii, Nokię, Nokią
  [/ia$/, ['ia', 'ii', 'ię', 'ią', 'io']],
  // round nine: after a vowel the j of -ja is not written before the -i of the genitive, dative
  // and locative (Ziaja → Ziai, like nadzieja → nadziei, Maja → Mai)
  [/([aeouy])ja$/, ['$1ja', '$1i', '$1ję', '$1ją', '$1jo']],
  [/ja$/, ['ja', 'ji', 'ję', 'ją', 'jo']],
  // round eleven: feminine adjectives used as names (Wyborowa, Żołądkowa, Krakowska, Śląska) take
  // the adjective's -ej in the genitive, dative and locative (Wyborowej) besides the noun's forms
  [/owa$/, ['owa', 'owy', 'owie', 'owę', 'ową', 'owo', 'owej']],
  // feminine -ra, -ta, -da, -ła, -na, -sa, -za, -wa, -ma, -pa, -ba, -fa, -la
  [/ra$/, ['ra', 'ry', 'rze', 'rę', 'rą', 'ro', 'rom', 'rami', 'rach']],
  [/ta$/, ['ta', 'ty', 'cie', 'tę', 'tą', 'to', 'tom', 'tami', 'tach']],
  [/da$/, ['da', 'dy', 'dzie', 'dę', 'dą', 'do', 'dom', 'dami', 'dach']],
  [/ła$/, ['ła', 'ły', 'le', 'łę', 'łą', 'ło']],
  [/([nswmpbfz])a$/, ['$1a', '$1y', '$1ie', '$1ę', '$1ą', '$1o', '$1om', '$1ami', '$1ach']],
  [/la$/, ['la', 'li', 'lę', 'lą', 'lo']],
  // neuter -o: Allegro → Allegra, Allegru, Allegrem, Allegrze (many foreign neuters stay undeclined)
  [/ro$/, ['ro', 'ra', 'ru', 'rem', 'rze']],
  [/to$/, ['to', 'ta', 'tu', 'tem', 'cie']],
  [/ko$/, ['ko', 'ka', 'ku', 'kiem']],
  [/o$/, ['o', 'a', 'u', 'em', 'ie']],
  // masculine consonant stems: Orlen → Orlenu, Orlena, Orlenowi, Orlenem, Orlenie; Lidl → Lidla, Lidlu, Lidlem
  [/k$/, ['k', 'ka', 'ku', 'kowi', 'kiem', 'ki', 'ków']],
  [/g$/, ['g', 'ga', 'gu', 'gowi', 'giem', 'gi', 'gów']],
  [/ch$/, ['ch', 'cha', 'chu', 'chowi', 'chem', 'chy', 'chów']],
  [/r$/, ['r', 'ra', 'ru', 'rowi', 'rem', 'rze', 'ry', 'rów']],
  [/t$/, ['t', 'ta', 'tu', 'towi', 'tem', 'cie', 'ty', 'tów']],
  [/d$/, ['d', 'da', 'du', 'dowi', 'dem', 'dzie', 'dy', 'dów']],
  [/ł$/, ['ł', 'ła', 'łu', 'łowi', 'łem', 'le', 'ły', 'łów']],
  [/l$/, ['l', 'la', 'lu', 'lowi', 'lem', 'le', 'li', 'lów']],
  [/(nn|ss)$/, ['$1', '$1a', '$1u', '$1owi', '$1em', '$1ie', '$1y', '$1ów']],
  [/([nswmpbfz])$/, ['$1', '$1a', '$1u', '$1owi', '$1em', '$1ie', '$1y', '$1ów']],
  [/([cjx])$/, ['$1', '$1a', '$1u', '$1owi', '$1em', '$1e', '$1y', '$1ów']],
  // soft consonants written with an accent at the end of a word and with i before a vowel (round
  // eight): Kubuś → Kubusia, Kubusiowi, Kubusiem, Kubusiu; Poznań → Poznania
  [/ś$/, ['ś', 'sia', 'siu', 'siowi', 'siem', 'sie', 'siów']],
  [/ć$/, ['ć', 'cia', 'ciu', 'ciowi', 'ciem', 'cie', 'ciów']],
  [/ź$/, ['ź', 'zia', 'ziu', 'ziowi', 'ziem', 'zie', 'ziów']],
  [/ń$/, ['ń', 'nia', 'niu', 'niowi', 'niem', 'nie', 'niów']],
  // foreign masculine names in -ay, -ey, -oy (said -ej, -oj) decline like soft stems: Sinsay → Sinsaya, Sinsayu
  [/([aeo]y)$/, ['$1', '$1a', '$1u', '$1owi', '$1em', '$1e', '$1ów']],
];

function polishForms(lower: string): string[] | null {
  for (const [ending, forms] of POLISH_ENDINGS) {
    const m = ending.exec(lower);
    if (!m) continue;
    const base = lower.slice(0, m.index);
    const own = forms.map((f) => base + f.replace('$1', m[1] ?? ''));
    const fleeting = polishFleetingForms(lower);
    return fleeting ? [...own, ...fleeting] : own;
  }
  return polishFleetingForms(lower);
}

/**
 * A masculine name whose last syllable has a fleeting e (consonant, e, then k, c, ł, l or ń) loses
 * the e in every form but the nominative and accusative: "Wedel" → "Wedla", "Wedlem"; "Pudelek" →
 * "Pudelka", "Pudelku"; "Żywiec" → "Żywca" (an i that only softens the consonant before the e goes
 * with it); "ogień" → "ognia" (ń is written ni before a vowel). Not every such noun drops its e
 * ("Wawel" → "Wawelu"), so these forms are added to the regular ones, never put in their place.
 * Source: the Polish "e ruchome" alternation of masculine nouns in -ek, -ec, -eł, -el, -eń.
 */
const POLISH_FLEETING_E = /([bcćdfghjklłmnńprsśtwzźż])(i?)e([kcłlń])$/u;

function polishFleetingForms(lower: string): string[] | null {
  const m = POLISH_FLEETING_E.exec(lower);
  if (!m || m.index < 1) return null;
  const head = lower.slice(0, m.index) + m[1];
  const last = m[3]!;
  if (last === 'ń') return ['ia', 'iu', 'iem', 'iowi', 'ie', 'i', 'iów'].map((e) => `${head}n${e}`);
  const tails: Record<string, string[]> = {
    k: ['ka', 'ku', 'kowi', 'kiem', 'ki', 'ków', 'kach', 'kami', 'kom'],
    c: ['ca', 'cu', 'cowi', 'cem', 'ce', 'ców', 'cach', 'cami', 'com'],
    // Not the plural -le: "wedle" is the preposition "according to".
    ł: ['ła', 'łu', 'łowi', 'łem', 'ły', 'łów'],
    l: ['la', 'lu', 'lowi', 'lem', 'li', 'lów'],
  };
  return tails[last]!.map((e) => head + e);
}

function stripMarks(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '');
}

function commonPrefix(words: string[]): string {
  let p = words[0] ?? '';
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** A final syllable with a fleeting vowel: consonant, о/е/ё, consonant (not й) at the end. */
const RUSSIAN_FLEETING = /([бвгджзклмнпрстфхцчшщ])[оеё]([бвгджзклмнпрстфхцчшщ])$/u;

/** Czech consonants softened before the dative and locative -e, and the hard ones they come from. */
const CZECH_SOFTENED = /(c|z|ř|š)$/u;
const CZECH_HARD: Record<string, string[]> = { c: ['k'], z: ['h', 'g'], ř: ['r'], š: ['ch'] };

/** Russian first-declension endings (nominative to prepositional, with the instrumental's -ою). */
const RUSSIAN_FIRST_HARD = ['а', 'ы', 'е', 'у', 'ой', 'ою'];
const RUSSIAN_FIRST_SOFT = ['я', 'и', 'е', 'ю', 'ей', 'ею'];

/** A Russian noun name in a vowel and й: a second-declension soft stem ("Окей", "Музей", "Китай"). */
const RUSSIAN_SOFT_J = /[аеуюя]й$/u;
/** The case endings written in place of its й (singular, then plural). */
const RUSSIAN_SOFT_J_ENDINGS = ['я', 'ю', 'ем', 'е', 'и', 'ев', 'ям', 'ями', 'ях'];

/** Swedish, Danish and Norwegian (Bokmål, Nynorsk): the genitive -s written on the name. */
const SCANDINAVIAN = new Set(['sv', 'da', 'no', 'nb', 'nn']);

/** Russian, Czech and Turkish endings are short: a longer tail is another word built on the name. */
const MAX_TAIL: Record<string, number> = { russian: 4, czech: 4, turkish: 7, finnish: 7, hungarian: 7 };

/**
 * Greek noun endings by the name's last letters (round ten): [what the name ends with, its forms'
 * endings], accents and diaeresis left out (the caller compares words without them, so a stress
 * that moves, "Κωτσόβολος" → "Κωτσοβόλου", changes nothing), final ς written σ. Source: the
 * regular declensions of Modern Greek nouns: masculine -ος, -ης, -ας, feminine -α, -η, neuter -ο,
 * -ι, -μα (nominative, genitive, accusative, vocative). Singular only: a firm is named in the
 * singular, and the plural of a capitalised noun is most often a people's ("οι Γερμανοί", the
 * Germans, beside the retailer Γερμανός). The snowball-stemmers
 * package this project ships (0.6.0) has no Greek stemmer, so the paradigms are written out here,
 * as for Polish. Names in other letters (-ου surnames, foreign names) do not decline.
 */
const GREEK_ENDINGS: [RegExp, string[]][] = [
  // Κωτσόβολος: -ος, -ου, -ο, -ε
  [/οσ$/u, ['οσ', 'ου', 'ο', 'ε']],
  // Σκλαβενίτης, Μασούτας: -ης, -η; -ας, -α
  [/ησ$/u, ['ησ', 'η']],
  [/ασ$/u, ['ασ', 'α']],
  // neuter -μα (Κτήμα): -ματος; feminine -α (Μινέρβα): -ας
  [/μα$/u, ['μα', 'ματοσ', 'μασ']],
  [/α$/u, ['α', 'ασ']],
  // feminine -η (Ζωή): -ης
  [/η$/u, ['η', 'ησ']],
  // neuter -ο (Πλαίσιο): -ου; neuter -ι (Ζαγόρι): -ιου
  [/ο$/u, ['ο', 'ου']],
  [/ι$/u, ['ι', 'ιου']],
];

/** A Greek word as GREEK_ENDINGS writes it: lower case, no accents or diaeresis, final ς as σ. */
export function greekPlain(word: string): string {
  return stripMarks(word.toLowerCase()).replace(/ς/gu, 'σ');
}

/**
 * Ukrainian noun endings (round eight), which the Russian stemmer does not read: the locative and
 * dative -і, -ові and the instrumental -ою, -ом, with the first declension's k → ц, г → з, х → с
 * before -і ("на Розетці", "в Епіцентрі", "у Фокстроті"). Source: the regular paradigms of
 * Ukrainian feminine -а/-я nouns, masculine hard consonant stems and neuter -о nouns.
 */
const UKRAINIAN_ENDINGS: [RegExp, string[]][] = [
  // round nine: a feminine adjective (hard stem, -ська/-цька/-зька, and the possessives наша,
  // ваша) declines as an adjective: -ої, -ій, -у, -ою ("Моршинська" → "Моршинської", "Наша
  // Ряба" → "Нашої Ряби"). Source: the Ukrainian hard adjectival declension (нова, нової, новій).
  [/(ськ|цьк|зьк|наш|ваш)а$/u, ['$1а', '$1ої', '$1ій', '$1у', '$1ою']],
  [/ка$/u, ['ки', 'ці', 'ку', 'кою', 'ко']],
  [/га$/u, ['ги', 'зі', 'гу', 'гою']],
  [/ха$/u, ['хи', 'сі', 'ху', 'хою']],
  [/а$/u, ['и', 'і', 'у', 'ою']],
  [/я$/u, ['ї', 'і', 'ю', 'ею', 'єю']],
  [/о$/u, ['а', 'у', 'ом', 'і', 'ові']],
  [/([бвгґджзклмнпрстфхцчшщ])$/u, ['$1а', '$1у', '$1ові', '$1ом', '$1і', '$1и', '$1ів']],
];

function ukrainianForms(lower: string): Set<string> {
  for (const [ending, forms] of UKRAINIAN_ENDINGS) {
    const m = ending.exec(lower);
    if (!m) continue;
    const base = lower.slice(0, m.index);
    return new Set(forms.map((f) => base + f.replace('$1', m[1] ?? '')));
  }
  return new Set();
}

/**
 * Czech masculine names whose last syllable has a fleeting e (round eight): consonant, e, then l,
 * k, c, n or r ("Kozel" → "Kozla", "Kozlem"; "Budvar" keeps its a). The stemmer reads neither.
 * Source: the Czech "pohyblivé e" of hard and soft masculine nouns (pes → psa, den → dne).
 */
const CZECH_FLEETING_E = /([bcčdďfghjklmnňprřsštťvzž])e([lkcnr])$/u;
const CZECH_FLEETING_ENDINGS = ['a', 'u', 'ovi', 'em', 'e', 'y', 'ů', 'ům', 'ech', 'i'];

/**
 * Turkish case and number suffixes written on a name without an apostrophe (round eight), by
 * vowel harmony, for the words the stemmer cuts too far ("efesin" → "ef"): genitive, accusative,
 * dative, locative, ablative, instrumental, plural and third-person possessive.
 */
function turkishForms(lower: string): Set<string> {
  const vowels = lower.match(/[aeıioöuü]/gu);
  if (!vowels) return new Set();
  const v = vowels[vowels.length - 1]!;
  const I = v === 'a' || v === 'ı' ? 'ı' : v === 'e' || v === 'i' ? 'i' : v === 'o' || v === 'u' ? 'u' : 'ü';
  const A = 'aıou'.includes(v) ? 'a' : 'e';
  const vowelEnd = /[aeıioöuü]$/u.test(lower);
  const D = /[çfhkpsşt]$/u.test(lower) ? 't' : 'd';
  const tails = vowelEnd
    ? [`n${I}n`, `y${I}`, `y${A}`, `${D}${A}`, `${D}${A}n`, `yl${A}`, `l${A}r`, `s${I}`, `l${A}r${I}`]
    : [`${I}n`, I, A, `${D}${A}`, `${D}${A}n`, `l${A}`, `l${A}r`, `l${A}r${I}`];
  return new Set(tails.map((t) => lower + t));
}

/**
 * The inflection rule of a one-word name in a language, or null when the language has none here
 * or the name is too short to inflect safely (a stem under three letters matches too much).
 */
export function inflectionFor(name: string, language: string): Inflection | null {
  const lang = primaryLanguage(language);
  const lower = lowerFor(lang, name.trim());
  if (!/^\p{L}+$/u.test(lower) || [...lower].length < 3) return null;
  const algorithm = SNOWBALL_BY_LANGUAGE[lang];
  if (algorithm === 'russian') {
    if (!/\p{Script=Cyrillic}/u.test(lower)) return null;
    const s = stemmer(algorithm);
    const own = s.stem(lower);
    // `ukrainian_endings`: the Ukrainian forms the Russian stemmer does not relate ("розетці").
    const ukrainian = lang === 'uk' ? ukrainianForms(lower) : null;
    if (RUSSIAN_SOFT_J.test(lower) && [...own].length < [...lower].length - 1) {
      // `soft_j_stem`: a masculine noun name in -ей, -ай, -уй ("Окей", "Китай") declines on the
      // stem without the й (окея, окею, океем, в Окее). The stemmer takes -ей for an ending and
      // leaves too short a stem ("окей" → "ок"), so the forms are the name's own. Not -ой, -ый,
      // -ий: those are mostly adjectives ("Связной", "Детский"), which the stemmer reads.
      const base = lower.slice(0, -1);
      const forms = new Set(RUSSIAN_SOFT_J_ENDINGS.map((e) => base + e));
      return { stem: base, accepts: (word) => forms.has(word) };
    }
    if ([...own].length < 3) {
      // `short_stem`: a three-letter feminine name in -а or -я ("Юла") stems to two letters, too
      // short for the stemmer's test ("юлия" also stems to "юл"): only the name's own case
      // endings (first declension) are its forms ("на Юле", "с Юлой", "Юлу").
      const short = /^(\p{L}{2})([ая])$/u.exec(lower);
      if (!short) return null;
      const forms = new Set((short[2] === 'а' ? RUSSIAN_FIRST_HARD : RUSSIAN_FIRST_SOFT).map((e) => short[1] + e));
      return { stem: short[1]!, accepts: (word) => forms.has(word) };
    }
    const maxTail = MAX_TAIL[algorithm]!;
    // A fleeting vowel: the о, е or ё of a final syllable drops when the name declines
    // ("Перекрёсток" → "Перекрёстка", "Огонёк" → "Огонька"), so its forms stem to the name without it.
    const fleeting = RUSSIAN_FLEETING.exec(lower);
    // After a consonant a dropped ё leaves a soft sign where it stood ("Огонёк" → "Огонька",
    // "лёд" → "льда"); a dropped о or е leaves nothing ("Перекрёсток" → "Перекрёстка").
    let dropped = fleeting
      ? [
          lower.slice(0, fleeting.index + 1) + fleeting[2],
          ...(/[ёе]/u.test(lower[fleeting.index + 1]!) ? [`${lower.slice(0, fleeting.index + 1)}ь${fleeting[2]}`] : []),
        ]
      : [];
    if (dropped.length > 0 && [...commonPrefix([own, ...dropped])].length < 4) dropped = []; // "Озон", "Сбер": too short to tell
    const stem = commonPrefix([own, ...dropped, ...(ukrainian ?? [])]);
    // The stemmer may take a name's own last letters for an ending ("газпром" → "газпр", as if
    // instrumental) while its declined forms stem to the whole name ("газпрома" → "газпром").
    return {
      stem,
      accepts: (word) => {
        if (word.length - lower.length > maxTail || !word.startsWith(stem)) return false;
        if (ukrainian?.has(word)) return true;
        const w = s.stem(word);
        return w === own || w === lower || dropped.includes(w);
      },
    };
  }
  if (algorithm === 'czech') {
    const s = stemmer(algorithm);
    const own = s.stem(lower);
    if ([...own].length < 3) return null; // "Notino" → "no": too short to tell
    const maxTail = MAX_TAIL[algorithm]!;
    // The Czech stemmer (Dolamic's light stemmer in Snowball) leaves the e of the instrumental -em
    // on hard masculine stems ("rohlíkem" → "rohlíke"): a stem one e longer than the name's is it.
    // A stem ending in a consonant that softens before -e (k, h, g, r, ch) is searched without it.
    const hardEnd = /(?:ch|[khgr])$/u.exec(own);
    let search = hardEnd && [...own].length - hardEnd[0].length >= 3 ? own.slice(0, hardEnd.index) : own;
    // `czech_fleeting_e`: "Kozel" → "Kozla" (see CZECH_FLEETING_E).
    const fleetingE = CZECH_FLEETING_E.exec(lower);
    const fleetingForms = new Set<string>();
    if (fleetingE && fleetingE.index >= 1) {
      const head = lower.slice(0, fleetingE.index) + fleetingE[1] + fleetingE[2];
      for (const e of CZECH_FLEETING_ENDINGS) fleetingForms.add(head + e);
      const shared = commonPrefix([search, head]);
      if ([...shared].length >= 3) search = shared;
      else fleetingForms.clear();
    }
    return {
      stem: search,
      accepts: (word) => {
        if (word.length - lower.length > maxTail || !word.startsWith(search)) return false;
        if (fleetingForms.has(word)) return true;
        const w = s.stem(word);
        if (w === own || w === lower || (word.endsWith('em') && (w === `${own}e` || w === `${lower}e`))) return true;
        // The dative and locative -e soften the stem's last consonant (Hruška → Hrušce, Praha →
        // Praze, Sazka → Sazce), which the stemmer keeps: undo it and compare.
        const m = CZECH_SOFTENED.exec(w);
        return m !== null && /[eě]$/u.test(word) && CZECH_HARD[m[1]!]!.some((hard) => w.slice(0, m.index) + hard === own);
      },
    };
  }
  if (algorithm === 'turkish') {
    const s = stemmer(algorithm);
    const own = s.stem(lower);
    const maxTail = MAX_TAIL[algorithm]!;
    // A short name may stem shorter than itself ("getir" → "ge"); the declined word stems to the name.
    // A name ending in a buffer-like vowel stems one letter shorter ("yemeksepeti" → "yemeksepet"),
    // as its declined forms do.
    const ownCounts = own.length >= lower.length - 1;
    const suffixed = turkishForms(lower);
    return {
      stem: lower.length > own.length && ownCounts ? own : lower,
      accepts: (word) =>
        word.length - lower.length <= maxTail && word !== lower && (s.stem(word) === lower || (ownCounts && s.stem(word) === own) || suffixed.has(word)),
    };
  }
  if (algorithm === 'finnish') {
    // Finnish (round eight): Snowball's Finnish stemmer; the case endings are written on the name
    // ("Prismasta", "Alkossa", "Elisan", "Fiskarsin"). As for Turkish, a name the stemmer cuts by
    // more than a letter ("nokia" → "nok") is matched by the words that stem to the whole name.
    // The declined forms may also stem to the name less its last letters, where the stemmer reads
    // the name's own end as an ending or its consonant gradation (tokmanni → tokman, verkkokauppa →
    // verkkokaup): up to three letters less, four letters left at least.
    const s = stemmer(algorithm);
    const own = s.stem(lower);
    const maxTail = MAX_TAIL[algorithm]!;
    const ownCounts = own.length >= lower.length - 1;
    const stem = lower.slice(0, Math.max(3, Math.min(ownCounts ? own.length : lower.length, lower.length - 3)));
    // Round eleven: a name in a vowel and -s declines on -kse- (Oras → Oraksen, Oraksella; like
    // vastaus → vastauksen), which the stemmer does not relate to the name.
    const kse = /[aeiouyäö]s$/u.test(lower) && lower.length >= 4 ? `${lower.slice(0, -1)}kse` : null;
    return {
      stem,
      accepts: (word) => {
        if (word.length - lower.length > maxTail || word === lower || !word.startsWith(stem)) return false;
        if (kse !== null && word.startsWith(kse) && FINNISH_KSE_ENDINGS.has(word.slice(kse.length))) return true;
        const w = s.stem(word);
        return w === lower || (ownCounts && w === own) || (w.length >= 4 && w.length >= lower.length - 3 && lower.startsWith(w));
      },
    };
  }
  if (algorithm === 'hungarian') {
    // Hungarian (round ten): Snowball's Hungarian stemmer; the case endings are written on the name
    // ("Libriben", "Törleyt", "Rudit"), a final a or e lengthened before them ("Ikeában"), which
    // the stemmer reads. As for Finnish, a name the stemmer cuts by more than a letter ("telekom"
    // → "tel") is matched only by words that stem to the whole name.
    const s = stemmer(algorithm);
    const own = s.stem(lower);
    const maxTail = MAX_TAIL[algorithm]!;
    const ownCounts = own.length >= lower.length - 1;
    const plain = stripMarks(lower);
    const lengthened = lower.replace(/a$/u, 'á').replace(/e$/u, 'é');
    return {
      stem: lower,
      accepts: (word) => {
        if (word.length - lower.length > maxTail || word === lower || !stripMarks(word).startsWith(plain)) return false;
        // The adjective "of X" ("Dunai hajózás", "Szegedi paprika", "Magyar Nemzeti Bank") is
        // another word, which the stemmer cuts like a case ending.
        if (stripMarks(word).slice(plain.length) === 'i') return false;
        const w = s.stem(word);
        return w === lower || w === lengthened || (ownCounts && w === own);
      },
    };
  }
  if (lang === 'el') {
    // Greek (round ten): the name's own case forms (GREEK_ENDINGS), nothing longer.
    const plain = greekPlain(lower);
    if (!/^\p{Script=Greek}+$/u.test(plain)) return null;
    for (const [ending, endings] of GREEK_ENDINGS) {
      const m = ending.exec(plain);
      if (!m) continue;
      const base = plain.slice(0, m.index);
      if ([...base].length < 3) return null;
      const forms = new Set(endings.map((e) => base + e));
      return { stem: base, accepts: (word) => forms.has(greekPlain(word)) };
    }
    return null;
  }
  if (lang === 'pl') {
    const forms = polishForms(lower);
    if (!forms) return null;
    const set = new Set([...forms, ...forms.map(stripMarks)]);
    const stem = commonPrefix([lower, ...forms]);
    if ([...stem].length < 3) return null;
    return { stem, accepts: (word) => set.has(word) || set.has(stripMarks(word)) };
  }
  if (lang === 'ro') {
    // Romanian (round eleven): a feminine name in -a or -ă takes -ei in the genitive and dative
    // (Dacia → Daciei, Catena → Catenei); a name in a consonant the definite -ul, -ului (Borsecul,
    // Borsecului). Only these forms, nothing longer.
    const forms = new Set<string>();
    if (/[aă]$/u.test(lower)) forms.add(`${lower.slice(0, -1)}ei`);
    else if (/[bcdfghjklmnprstvz]$/u.test(lower)) for (const e of ['ul', 'ului']) forms.add(lower + e);
    if (forms.size === 0) return null;
    return { stem: lower.slice(0, -1), accepts: (word) => forms.has(word) };
  }
  if (lang === 'de' || lang === 'nl' || SCANDINAVIAN.has(lang)) {
    // German and Dutch write the genitive (and Dutch the possessive) -s on the name ("Blokkers");
    // `scandinavian_genitive`: Swedish, Danish and Norwegian write the genitive -s on the name
    // without an apostrophe ("Klarnas app", "Legos klodser", "Finns annonser"). A name ending in
    // s, x or z takes nothing or an apostrophe, which the plain match already reads.
    if (/[sxzß]$/u.test(lower)) return null;
    return { stem: lower, accepts: (word) => word === lower + 's' };
  }
  return null;
}

/** The case endings after the -kse- of a Finnish name in -s (Oraksen, Oraksella, Oraksesta, Oraksia). */
const FINNISH_KSE_ENDINGS = new Set(['n', 'lle', 'lla', 'lta', 'ssa', 'sta', 'en', 'na', 'ksi', 'ine', 'ia', 'iin', 'issa', 'ista', 'illa', 'ille', 'ilta']);

/** Arabic proclitics written attached to the next word: conjunction, preposition, article. */
export const ARABIC_PROCLITIC = /^(?:[وف][بلك]?|[بلك])$/u;

/** Korean particles that follow a noun (case, topic, auxiliary), and their common chains. */
export const KOREAN_PARTICLES = new Set([
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '에',
  '에서',
  '에게',
  '께',
  '한테',
  '와',
  '과',
  '랑',
  '이랑',
  '하고',
  '도',
  '만',
  '로',
  '으로',
  '처럼',
  '보다',
  '까지',
  '부터',
  '마저',
  '조차',
  '이나',
  '나',
  '이라',
  '라',
  '이란',
  '란',
  '이며',
  '며',
  '에도',
  '에서도',
  '에서는',
  '에는',
  '으로는',
  '로는',
  '과는',
  '와는',
  '에게는',
  '만의',
  '이다',
  '입니다',
  '이에요',
  '예요',
  '였다',
  '이었다',
  '보다는',
  '처럼',
  '께서',
  '에서의',
  '으로도',
  '로도',
]);

/** Suffixes that derive a new Japanese word from a kanji noun (楽天的 "optimistic", 楽天家 "optimist"). */
export const JAPANESE_DERIVATIONAL = new Set(['的', '家', '性', '化', '観', '主義', '論']);

/** Whether `run` (a katakana continuation after a katakana name) is a generic noun of Japanese. */
export function isJapaneseGenericNoun(run: string): boolean {
  return [...run].length >= 2 && everydayWordRank(run, 'ja', { anyCase: true }) !== null;
}
