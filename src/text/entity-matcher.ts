// Text folding and whole-word entity matching for answer analysis.
// The one thing to know: matching runs on a *folded* copy of the text (NFKD, combining marks
// stripped, case folded, whitespace runs collapsed), and `offsets` maps every folded UTF-16
// index back to the original UTF-16 index, so reported positions always point into the
// original answer.
//
// Word boundaries are checked on the folded text with Unicode properties, not Intl.Segmenter,
// wherever words are separated by spaces: UAX #29 keeps "Acme's" and "Acme.com" as one segment,
// which would hide possessives, and it is several times slower for 10 KB answers. A neighbouring
// letter, digit or mark blocks a match ("Go" never in "Google"); an underscore blocks it only when
// a word character lies beyond the underscores ("my_acme_tool"), so `_Acme_` and `__Acme__`
// (Markdown emphasis) are mentions. Next to a letter of a script written without spaces (Han,
// kana, Thai, Lao, Khmer, Myanmar) or with particles glued to words (Hangul: "Acme는") the
// boundary is Intl.Segmenter's word
// boundary (ICU's dictionaries), computed once per answer and only when such a neighbour occurs:
// a name matches when it starts and ends on word boundaries, whether it is one word or several
// segments that touch ("华|为"), never inside a longer word ("中山路") or across one ("北京|大学").
// Every step is linear in the answer length: indexOf per spelling, one segmentation, bounded
// look-arounds.

import { dictionaryNameOnly, dictionaryWord, everydayWordRank, hasDictionary } from './everyday-words.ts';
import { type GermanGender, germanCompoundGender, germanNounGender } from './german-nouns.ts';
import { inGivenNames } from './given-names.ts';
import {
  ARABIC_PROCLITIC,
  greekPlain,
  inflectionFor,
  isJapaneseGenericNoun,
  JAPANESE_DERIVATIONAL,
  KOREAN_PARTICLES,
  lowerFor,
  primaryLanguage,
  type Inflection,
} from './morphology.ts';

export interface FoldedText {
  /** The folded text that matching runs on. */
  folded: string;
  /** offsets[i] = original UTF-16 index of folded[i]; offsets[folded.length] = original length. */
  offsets: Int32Array;
  /** The original text (case checks of camel-case spellings, see nameVariants). */
  text: string;
}

/** Whitespace by code unit (JavaScript's \s plus NEL, U+0085): no regular expression per character. */
function isWhitespaceCode(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
/** Removed while folding: combining marks and invisible formatting (soft hyphen, zero-width space, ...). */
const STRIP = /[\p{Mn}\p{Me}\p{Cf}]/gu;
const APOSTROPHES = /[\u2018\u2019\u201B\u02BC\u2032\uFF07]/gu;
const DASHES = /\p{Pd}/gu;

const foldCache = new Map<number, string>();

/**
 * Trade and service marks and superscript or subscript characters (footnote marks, "Acme™",
 * "Acme¹"): dropped while folding. NFKD would turn ™ into the letters "tm" glued to the name, and
 * a superscript digit into a digit, and either would hide the brand's word boundary.
 */
function isDroppedMark(cp: number): boolean {
  return cp === 0x2122 || cp === 0x2120 || cp === 0xb9 || cp === 0xb2 || cp === 0xb3 || (cp >= 0x2070 && cp <= 0x209f);
}

const DROPPED_MARKS = /[\u2122\u2120\u00b9\u00b2\u00b3\u2070-\u209f]/gu;

/** Folds one code point (not whitespace): NFKD, strip marks, full-ish case fold, unify apostrophes and dashes. */
function foldCodePoint(cp: number): string {
  const cached = foldCache.get(cp);
  if (cached !== undefined) return cached;
  if (isDroppedMark(cp)) return '';
  let s = String.fromCodePoint(cp).normalize('NFKD').replace(STRIP, '');
  // toUpperCase().toLowerCase() approximates Unicode full case folding (ß → ss, ſ → s, ς → σ)
  // which JavaScript does not expose directly.
  s = s.toUpperCase().toLowerCase().normalize('NFKD').replace(STRIP, '');
  s = s.replace(APOSTROPHES, "'").replace(DASHES, '-');
  if (foldCache.size < 50_000) foldCache.set(cp, s);
  return s;
}

/**
 * Folds text for matching. Whitespace runs become one space, or one "\n" when they hold a
 * paragraph break (two or more line breaks), so multi-word names match across a single space
 * or newline but never across paragraphs.
 */
/**
 * The last few folds, newest first: the target, each competitor, the judge and the entity finder
 * read the same answer in turn, with short strings (a list item, a name) folded in between. Short
 * and long texts are kept apart, so the names the entity finder folds (a dozen an answer) do not
 * push the answer out before the judge reads it again.
 */
const recentFolds: FoldedText[] = [];
const recentShortFolds: FoldedText[] = [];
const RECENT_FOLDS = 4;
const SHORT_FOLD = 128;

export function foldText(text: string): FoldedText {
  const recent = text.length < SHORT_FOLD ? recentShortFolds : recentFolds;
  for (const f of recent) if (f.text === text) return f;
  const f = foldTextUncached(text);
  recent.unshift(f);
  if (recent.length > RECENT_FOLDS) recent.pop();
  return f;
}

function isAsciiWordish(code: number): boolean {
  return code < 128 && code > 32;
}

function foldTextUncached(text: string): FoldedText {
  let folded = '';
  const n = text.length;
  // Folding rarely grows text (ß → ss, ﬁ → fi); the array doubles when it does.
  let offsets = new Int32Array(n + 16);
  let len = 0;
  const room = (more: number) => {
    if (len + more <= offsets.length) return;
    const grown = new Int32Array(Math.max(offsets.length * 2, len + more + 16));
    grown.set(offsets);
    offsets = grown;
  };
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (isAsciiWordish(code) || (code === 32 && isAsciiWordish(text.charCodeAt(i + 1)))) {
      // ASCII fast path: a run of printable ASCII with single spaces folds to its lower case.
      let j = i + 1;
      for (;;) {
        const c = text.charCodeAt(j);
        if (isAsciiWordish(c) || (c === 32 && isAsciiWordish(text.charCodeAt(j + 1)) && text.charCodeAt(j - 1) !== 32)) j++;
        else break;
      }
      if (code === 32 && i > 0 && isWhitespaceCode(text.charCodeAt(i - 1))) {
        // A space right after other whitespace belongs to that run: fold it the slow way.
      } else {
        folded += text.slice(i, j).toLowerCase();
        room(j - i);
        for (let k = i; k < j; k++) offsets[len++] = k;
        i = j;
        continue;
      }
    }
    if (code < 128 && code !== 32 && (code < 9 || code > 13)) {
      folded += text[i];
      room(1);
      offsets[len++] = i;
      i++;
      continue;
    }
    if (isWhitespaceCode(code)) {
      const start = i;
      let breaks = 0;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === 10 || c === 0x2028 || c === 0x2029) breaks++;
        else if (c === 13) {
          if (text.charCodeAt(i + 1) !== 10) breaks++;
        } else if (!isWhitespaceCode(c)) break;
        i++;
      }
      folded += breaks >= 2 ? '\n' : ' ';
      room(1);
      offsets[len++] = start;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = cp > 0xffff ? String.fromCodePoint(cp) : text[i]!;
    const f = foldCodePoint(cp);
    room(f.length);
    for (let k = 0; k < f.length; k++) offsets[len++] = i;
    folded += f;
    i += ch.length;
  }
  room(1);
  offsets[len++] = n;
  return { folded, offsets: offsets.subarray(0, len), text };
}

/** Folds a name or alias the same way as text, trimmed. */
export function foldName(name: string): string {
  return foldText(name.trim()).folded.trim();
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Hangul}]/u;

function isNoSpaceScript(cp: number | undefined): boolean {
  return cp !== undefined && cp >= 0x0e00 && NO_SPACE_SCRIPT.test(String.fromCodePoint(cp));
}

function blocksBoundary(cp: number | undefined): boolean {
  if (cp === undefined) return false;
  if (cp < 128) {
    return (cp >= 48 && cp <= 57) || (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || cp === 95;
  }
  const ch = String.fromCodePoint(cp);
  return WORD_CHAR.test(ch) && !NO_SPACE_SCRIPT.test(ch);
}

function codePointBefore(s: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = s.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = s.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return s.codePointAt(index - 2);
  }
  return low;
}

let wordSegmenter: Intl.Segmenter | undefined;

/** How far around a position the segmenter looks: ICU's dictionary break needs a few words of context. */
const SEGMENT_CONTEXT = 48;
const SEGMENT_STOP = /[\s\p{P}]/u;

/**
 * Whether the original index is a word boundary by Intl.Segmenter. Only a window around the index
 * is segmented, from the nearest space or punctuation up to SEGMENT_CONTEXT characters before it
 * (a clean start for ICU) to SEGMENT_CONTEXT after it, so each check costs O(SEGMENT_CONTEXT)
 * and an answer's checks stay linear in its length.
 */
function isWordBoundary(ft: FoldedText, index: number): boolean {
  const { text } = ft;
  let from = Math.max(0, index - SEGMENT_CONTEXT);
  for (let i = index - 1; i > from; i--) {
    if (SEGMENT_STOP.test(text[i]!)) {
      from = i + 1;
      break;
    }
  }
  const to = Math.min(text.length, index + SEGMENT_CONTEXT);
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const { index: at } of wordSegmenter.segment(text.slice(from, to))) {
    if (from + at === index) return true;
    if (from + at > index) return false;
  }
  return index === to;
}

const UNDERSCORE = 95;

/** Whether a match may start at folded index `at`: nothing of a word touches it on the left. */
function leftBoundary(ft: FoldedText, at: number): boolean {
  const { folded } = ft;
  let cp = codePointBefore(folded, at);
  if (cp === UNDERSCORE) {
    // Underscore emphasis ("_Acme_", "__Acme__"): look past the underscores.
    let i = at;
    while (i > 0 && folded.charCodeAt(i - 1) === UNDERSCORE) i--;
    cp = codePointBefore(folded, i);
    return !blocksBoundary(cp);
  }
  if (isNoSpaceScript(cp)) return isWordBoundary(ft, ft.offsets[at]!);
  return !blocksBoundary(cp);
}

/** Whether a match may end at folded index `end` (exclusive). */
function rightBoundary(ft: FoldedText, end: number): boolean {
  const { folded } = ft;
  const cp = folded.codePointAt(end);
  if (cp === UNDERSCORE) {
    let i = end;
    while (i < folded.length && folded.charCodeAt(i) === UNDERSCORE) i++;
    return !blocksBoundary(folded.codePointAt(i));
  }
  if (isNoSpaceScript(cp)) return isWordBoundary(ft, ft.offsets[end]!);
  // Round eleven: a name in katakana runs on into a model number, which a katakana or Latin word
  // goes on from (セイコー5スポーツ, ソニーα7 is no digit); a counter after the number (トンボ2匹)
  // is kanji and counts the everyday thing.
  if (cp !== undefined && cp >= 48 && cp <= 57 && end > 0 && KATAKANA_END.test(folded[end - 1]!)) return KATAKANA_MODEL.test(folded.slice(end, end + 8));
  return !blocksBoundary(cp);
}

const KATAKANA_END = /[\p{Script=Katakana}ー]/u;
const KATAKANA_MODEL = /^[0-9]+(?:[\p{Script=Katakana}]|[A-Za-z])/u;

const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;
const CAMEL_SPLIT = /(?<=\p{Ll})(?=\p{Lu})/u;

/** One folded spelling of a name. */
export interface NameVariant {
  text: string;
  /**
   * Folded offsets of the parts that must start with a capital letter in the original text:
   * set for spellings split at a camel-case change ("LinkedIn" as "Linked In"), which are
   * otherwise everyday words ("accounts are linked in the dashboard").
   */
  capitals?: number[];
}

/** The parts of a name at spaces and dashes, and each of those at lower→upper case changes. */
function nameParts(name: string): { plain: string[]; camel: string[] } {
  const plain: string[] = [];
  const camel: string[] = [];
  for (const chunk of name
    .replace(DROPPED_MARKS, ' ')
    .normalize('NFKC')
    .trim()
    .split(/[\s\p{Pd}]+/u)) {
    if (!chunk) continue;
    plain.push(chunk);
    const split = chunk.split(CAMEL_SPLIT);
    // "iPhone" would split into a one-letter part; keep such chunks whole.
    if (split.length > 1 && split.every((p) => p.length >= 2)) camel.push(...split);
    else camel.push(chunk);
  }
  return { plain: plain.map(foldName).filter(Boolean), camel: camel.map(foldName).filter(Boolean) };
}

/**
 * Spelling variants of one name, folded: the name itself; for names of two to five parts
 * (split at spaces and hyphens) the spaced, hyphenated and joined forms ("Demand IQ" =
 * "Demand-IQ" = "DemandIQ"); for parts split at camel-case changes the spaced and hyphenated
 * forms too, but only where each part starts with a capital ("DemandIQ" = "Demand IQ", while
 * "LinkedIn" is not "linked in"); a trailing "!" dropped ("Yahoo!" → "Yahoo"); a symbol joining
 * two words with and without spaces ("AT&T" = "AT & T", "H & M" = "H&M"); the name without
 * a trailing legal form ("Acme Inc." also as "Acme", "Globex GmbH" as "Globex"); and an
 * abbreviation in it with and without its period ("Dr Pepper" = "Dr. Pepper", "St. Ives").
 */
export function nameVariants(name: string): NameVariant[] {
  const out = new Map<string, NameVariant>();
  const more = (alt: string | null) => {
    if (alt === null) return;
    for (const v of spellingVariants(alt)) {
      const known = out.get(v.text);
      if (!known || (known.capitals && !v.capitals)) out.set(v.text, v);
    }
  };
  for (const v of spellingVariants(name)) out.set(v.text, v);
  const short = withoutLegalForm(name);
  more(short);
  more(abbreviationVariant(name));
  if (short !== null) more(abbreviationVariant(short));
  return [...out.values()];
}

/** An abbreviated title or place word inside a name, with or without its period ("Dr. Pepper"). */
const ABBREVIATION = /(?<![\p{L}\p{N}])(Dr|St|Mr|Mrs|Ms|Mt|Ft|Jr|Sr|Ste|Mme|Mlle)(\.?)(?=\s)/gu;

/** "Dr Pepper" also as "Dr. Pepper", "St. Ives" also as "St Ives": people write the period either way. */
function abbreviationVariant(name: string): string | null {
  const alt = name.replace(ABBREVIATION, (_, word: string, dot: string) => (dot ? word : `${word}.`));
  return alt === name ? null : alt;
}

/**
 * Legal forms that may trail a company name. Only a trailing one is dropped, and only when a
 * name of at least two characters remains ("Acme Inc." → "Acme", never "Inc." → "").
 */
const LEGAL_FORM =
  /[\s,]+(?:inc\.?|incorporated|corp\.?|corporation|co\.?|company|llc|l\.l\.c\.|llp|ltd\.?|limited|plc|gmbh(?:\s*&\s*co\.?\s*kg)?|ag|kg|ug|se|sa|s\.a\.|sas|s\.a\.s\.|sarl|s\.à\s?r\.l\.|srl|s\.r\.l\.|s\.l\.|spa|s\.p\.a\.|bv|b\.v\.|nv|n\.v\.|ab|as|a\/s|asa|oy|oyj|kk|k\.k\.|pty\.?\s+ltd\.?|pte\.?\s+ltd\.?|s\.?\s?de\s+r\.?l\.?(?:\s+de\s+c\.?v\.?)?|s\.?a\.?\s+de\s+c\.?v\.?|株式会社|有限会社|有限公司|股份有限公司|集团)$/iu;
const LEGAL_PREFIX = /^(?:株式会社|有限会社)\s*/u;

/** The name without its trailing (or Japanese leading) legal form, or null when it has none. */
export function withoutLegalForm(name: string): string | null {
  const trimmed = name.trim();
  const short = trimmed.replace(LEGAL_FORM, '').replace(LEGAL_PREFIX, '').trim();
  if (short === trimmed || short.length < 2 || !HAS_WORD_CHAR.test(short)) return null;
  return short;
}

/** A symbol between two word characters, with or without spaces around it ("AT&T", "AT & T"). */
const JOINING_SYMBOL = /(?<=[\p{L}\p{N}]) ?([&+]) ?(?=[\p{L}\p{N}])/gu;
const HAS_JOINING_SYMBOL = /[\p{L}\p{N}] ?[&+] ?[\p{L}\p{N}]/u;

function spellingVariants(name: string): NameVariant[] {
  const out = new Map<string, NameVariant>();
  const add = (v: NameVariant) => {
    const known = out.get(v.text);
    // The same spelling from a case-free source needs no capitals.
    if (!known || (known.capitals && !v.capitals)) out.set(v.text, v);
  };
  const base = foldName(name);
  if (!base) return [];
  add({ text: base });
  const { plain, camel } = nameParts(name);
  if (plain.length >= 2 && plain.length <= 5) {
    for (const sep of [' ', '-', '']) add({ text: plain.join(sep) });
  }
  if (camel.length > plain.length && camel.length <= 5) {
    for (const sep of [' ', '-']) {
      const capitals: number[] = [];
      let at = 0;
      for (const part of camel) {
        capitals.push(at);
        at += part.length + sep.length;
      }
      add({ text: camel.join(sep), capitals });
    }
    add({ text: camel.join('') });
  }
  for (const v of [...out.values()]) {
    if (v.text.endsWith('!') && v.text.length > 2) add({ text: v.text.replace(/!+$/, ''), ...(v.capitals ? { capitals: v.capitals } : {}) });
  }
  for (const v of [...out.values()]) {
    // Spacing changes would move the capital checks' offsets: only case-free spellings vary.
    if (v.capitals || !HAS_JOINING_SYMBOL.test(v.text)) continue;
    add({ text: v.text.replace(JOINING_SYMBOL, '$1') });
    add({ text: v.text.replace(JOINING_SYMBOL, ' $1 ') });
  }
  return [...out.values()].filter((v) => HAS_WORD_CHAR.test(v.text));
}

/** Whether the original text has a capital letter where each listed part of a match starts. */
function capitalized(ft: FoldedText, at: number, capitals: readonly number[]): boolean {
  for (const k of capitals) {
    const ch = String.fromCodePoint(ft.text.codePointAt(ft.offsets[at + k]!)!);
    if (ch === ch.toLowerCase()) return false;
  }
  return true;
}

/**
 * Which rule decided one occurrence (the probe's `brands[].evidence.rule`):
 * - `exact`: a whole-word spelling of the name, a variant or an alias;
 * - `inflected`: a declined form (Russian and Polish cases, German genitive -s, Turkish suffixes);
 * - `attached`: a particle or clitic written on the name (Arabic و ب ل ف ك, a Korean particle, a
 *   Japanese generic noun in the same katakana run);
 * - for a name that is also an everyday word, how the answer writes it as a name: `capitalised`
 *   (inside a sentence), `capitals`, `possessive`, `hyphenated`, `product_word` (followed by a
 *   product's name or a product noun), `list_label`, `emphasis`, `sentence_start` (at a sentence
 *   start, confirmed by another mention or because the answer never uses the word otherwise),
 *   `lower_case_answer` (the answer is written without capitals and the name reads as one);
 * - `everyday_word_rejected`: the occurrence is the everyday word, not the name (only recorded
 *   for rejections);
 * - `noun_after_article`: in German, where every noun is capitalised, a name that is a German noun
 *   after an article or determiner of the noun's gender ("Der Puma lebt…", "ein heller Stern"),
 *   with no name signal after it: the noun, not the name (only recorded for rejections; weak, so a
 *   judge may overturn it: "die Allianz" is the insurer as often as an alliance);
 * - `noun_in_construct`: in Arabic, a name that is an everyday noun followed by a definite noun
 *   (`طلبات الاسترجاع` "return requests", `سلة المهملات` "waste basket"): the first term of a
 *   genitive construct (iḍāfa), which is a common noun, not the name (only recorded for
 *   rejections; weak);
 * - `verb_at_sentence_start`: in Arabic, which puts the verb first, a name that is an imperfect
 *   verb form (`نمشي` "we walk": the same stem with another person prefix, `يمشي`, is an everyday
 *   word) opening a sentence; in English, a word opening a sentence with its object or a
 *   phrasal-verb particle after it, an imperative ("Ramp up your training") (only recorded for
 *   rejections; weak);
 * - `place_name`: the grammar names a place (or an era or institution named after one) with the
 *   name's letters: a sentence that classifies it as a place ("Liverpool es una ciudad", "Der
 *   Saturn ist der Planet"), a place noun before it (Arabic `نهر الدانوب` "the Danube river"), a
 *   Japanese head noun after it (`日立市`, `大和時代`) (only recorded for rejections; weak);
 * - `counted_noun`: the name counted with a classifier for animals (`ペリカンが二羽`, `の群れ`,
 *   `두 마리`), in Chinese after a numeral and classifier (`一面红旗`), in Arabic after a
 *   quantifier (`عدة اتصالات` "several calls"), is the thing counted;
 *   one of the language's most frequent words in a script without capitals (`하나` "one") is the
 *   word unless the answer labels a list item with it (`everyday_word_rejected`) (only recorded
 *   for rejections; weak);
 * - `other_name`: the grammar names something other than a firm with the name's letters: a
 *   classifying sentence whose head noun is a person, a work, an animal or a storm ("Melinda è la
 *   mia collega", "Elektra es una ópera"), such a noun before it ("the director X", "a colleague
 *   called X"), or a work and "by" before it ("un film de X": its author) (only recorded for
 *   rejections; weak);
 * - `adjective_after_noun`, `adverbial`: the name's word is another part of speech there, an
 *   Arabic adjective after its definite noun or a Chinese adverb before 地 (see wordClassReading;
 *   only recorded for rejections; weak);
 * - `person_name`: a given name followed by a surname, a word of no dictionary ("Lech Wałęsa"),
 *   names a person (see surnameAfter; only recorded for rejections; weak);
 * - `classified_as_firm`: an everyday-word name opening a sentence that classes it as a firm or a
 *   product ("Apple is a technology company", "Corona es una cerveza"): the name (see
 *   firmClassified);
 * - `person_cue` (round nine): a title, an honorific, initials, a person noun in apposition or a
 *   given name joined by "and" say a person bears the name (see personCue; weak rejections);
 * - `possessed_noun`, `number_expression` (round nine): Chinese, a pronoun and 的 before an
 *   everyday word, a numeral run going on after it (see chineseWordReading; weak rejections).
 */
export type MentionRule =
  | 'exact'
  | 'inflected'
  | 'attached'
  | 'capitalised'
  | 'capitals'
  | 'possessive'
  | 'hyphenated'
  | 'product_word'
  | 'list_label'
  | 'emphasis'
  | 'sentence_start'
  | 'lower_case_answer'
  | 'everyday_word_rejected'
  | 'noun_after_article'
  | 'noun_in_construct'
  | 'verb_at_sentence_start'
  | 'place_name'
  | 'counted_noun'
  | 'other_name'
  | 'adjective_after_noun'
  | 'adverbial'
  | 'person_name'
  | 'classified_as_firm'
  | 'given_name_before'
  | 'named_place_or_venue'
  | 'myth_or_legend'
  | 'person_cue'
  | 'possessed_noun'
  | 'number_expression';

/** One mention: original UTF-16 range [start, end). */
export interface MentionSpan {
  start: number;
  end: number;
  /** The rule that made it a mention (see MentionRule); absent on spans built elsewhere. */
  rule?: MentionRule;
  /**
   * Set when a weak rule decided it: one that reads the word's spelling and place but not the
   * sentence's meaning, where a reader could decide the other way (an everyday-word name at a
   * sentence start or in a lower-case answer, in a script without capitals, or with a particle
   * attached). A judge may confirm or overturn such a decision (see analysis/brands.ts).
   */
  weak?: boolean;
  /**
   * Set to `dictionary` when the name is an everyday word only by the language's spelling
   * dictionary (the frequency list misses it: "Compass", "Светофор") and that decided how this
   * occurrence was read (src/text/everyday-words.ts, `dictionaryWord`).
   */
  lexicon?: 'dictionary';
}

/** Every occurrence a matcher looked at: the mentions, and the candidates it turned down. */
export interface MentionDecisions {
  spans: MentionSpan[];
  /** Candidates rejected as everyday words (original ranges), ascending; `weak` as on spans. */
  rejected: MentionSpan[];
}

export interface EntityMatcher {
  /** Original UTF-16 offsets of every whole-word mention, ascending, non-overlapping. */
  find(text: string): number[];
  /** Same as find, on text already folded (lets one fold serve many matchers). */
  findFolded(text: FoldedText): number[];
  /** The mentions' original ranges, ascending, non-overlapping, each with its rule. */
  findSpans(text: FoldedText): MentionSpan[];
  /** The mentions and the rejected candidates, with the rule of each. */
  decide(text: FoldedText): MentionDecisions;
  /** The folded spellings this matcher looks for. */
  readonly variants: readonly string[];
}

export interface MatcherOptions {
  /**
   * The answer's language (BCP 47). When given, a name that is also one of the language's
   * everyday words ("Zoom", "You", "Monday") counts only where the answer writes it as a name
   * (see classifyEveryday), and the language's inflected and attached forms of the name count
   * (src/text/morphology.ts).
   */
  language?: string;
}

const SENTENCE_END = new Set(['.', '!', '?', '…', '。', '！', '？', ';', '؟', '؛']);
const MARKUP_BEFORE = new Set(['*', '_', '[', '`', '#', '>', '(', '"', "'", '“', '‘', '«', '„', '¿', '¡']);
const EMPHASIS = new Set(['*', '_', '[', '`', '#']);
const BULLETS = new Set(['-', '+', '•', '▪', '◦', '‣', '●']);
const APOSTROPHE_AFTER = new Set(["'", '’', '‘', 'ʼ', '′', '＇']);
const LOOK_AROUND = 16;
/**
 * Nouns that name a product after a brand ("Signal app", "Zoom account"): the brand followed by
 * one of them, or by a capitalised word ("Apple Music", "Zoom Rooms"), names the brand.
 */
const PRODUCT_NOUNS = new Set([
  'app',
  'apps',
  'api',
  'cloud',
  'pay',
  'store',
  'account',
  'accounts',
  'subscription',
  'plugin',
  'extension',
  'desktop',
  'client',
]);

function isLower(ch: string): boolean {
  // ASCII first: no case-mapped strings for the common letters.
  const c = ch.charCodeAt(0);
  if (c < 128 && ch.length === 1) return c >= 97 && c <= 122;
  return ch !== ch.toUpperCase() && ch === ch.toLowerCase();
}

function isUpper(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128 && ch.length === 1) return c >= 65 && c <= 90;
  return ch !== ch.toLowerCase() && ch === ch.toUpperCase();
}

/** Whether a span is written in capitals (two letters at least, every cased letter upper). */
function inCapitals(s: string): boolean {
  let letters = 0;
  for (const ch of s) {
    if (isLower(ch)) return false;
    if (isUpper(ch)) letters++;
  }
  return letters >= 2;
}

/** Whether the word after `end` (past one space) is written in capitals too ("AMAZON and EBAY" is not a shouted line). */
function neighbourInCapitals(text: string, start: number, end: number): boolean {
  const after = /^[\s,;:]+(\p{L}+)/u.exec(text.slice(end, end + 24));
  const before = /(\p{L}+)[\s,;:]+$/u.exec(text.slice(Math.max(0, start - 24), start));
  const caps = (w: string | undefined) => w !== undefined && w.length >= 2 && inCapitals(w) && !/^(?:AND|OR|VS|ET|UND|Y|E|O)$/u.test(w);
  return caps(after?.[1]) && caps(before?.[1]);
}

/** A line in title case ("The Best Orange Juice Brands"): most of its words start with a capital. */
function titleCaseLine(text: string, start: number): boolean {
  let from = start;
  while (from > 0 && text[from - 1] !== '\n' && start - from < 200) from--;
  let to = start;
  while (to < text.length && text[to] !== '\n' && to - start < 200) to++;
  const words = text.slice(from, to).match(/\p{L}+/gu) ?? [];
  if (words.length < 4) return false;
  const capital = words.filter((w) => isUpper(w[0]!)).length;
  return capital / words.length >= 0.75;
}

/** Where an occurrence stands: at the start of a sentence or list item, and whether it is emphasised. */
function position(text: string, start: number): { initial: boolean; emphasised: boolean } {
  let emphasised = false;
  let initial = false;
  let i = start - 1;
  const stop = Math.max(-1, start - 1 - LOOK_AROUND);
  for (; i > stop; i--) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || MARKUP_BEFORE.has(c)) {
      if (EMPHASIS.has(c)) emphasised = true;
      continue;
    }
    break;
  }
  if (i <= -1 || text[i] === '\n') initial = true;
  else if (SENTENCE_END.has(text[i]!)) {
    // "1. Zoom" and "2) Zoom" are list items, not sentence ends; both start a line's text.
    initial = true;
  } else if (text[i] === ')' || BULLETS.has(text[i]!)) {
    let j = i - 1;
    while (j >= 0 && /\d/.test(text[j]!)) j--;
    initial = j < 0 || text[j] === '\n' || text[j] === ' ' || text[j] === '\t';
  }
  return { initial, emphasised };
}

/** A list item's label: the name followed by ":" or a dash, or alone on its line. */
function isListLabel(text: string, end: number): boolean {
  let k = end;
  while (k < text.length && k < end + LOOK_AROUND && (text[k] === '*' || text[k] === '_' || text[k] === ']' || text[k] === '`')) k++;
  const after = text.slice(k, k + 3);
  return k >= text.length || after[0] === '\n' || after[0] === ':' || after[0] === '：' || /^ [–—-] /.test(after) || /^[–—]/.test(after);
}

/**
 * The signs, at one occurrence, that an everyday word is written as a name, whatever its case:
 * a possessive ("Zoom's", "Expensys'"), a hyphenated compound ("Notion-based", "ACME-powered"), a
 * product word after it ("Apple Music", "Signal app").
 */
function nameSignal(text: string, start: number, end: number): MentionRule | null {
  const next = text[end];
  if (next !== undefined && APOSTROPHE_AFTER.has(next)) {
    const after = text[end + 1];
    if (after === 's' || after === undefined || !/\p{L}/u.test(after)) return 'possessive';
    // Turkish writes an apostrophe between a proper noun and its suffixes ("Getir'den").
    return 'inflected';
  }
  if (next === '-' && /\p{L}/u.test(text[end + 1] ?? '') && !isLower(text[start]!)) return 'hyphenated';
  const word = /^ (\p{L}[\p{L}\p{N}]*)/u.exec(text.slice(end, end + 32))?.[1];
  if (word !== undefined) {
    if (PRODUCT_NOUNS.has(word)) return 'product_word';
    if (isUpper(word[0]!) && !isLower(text[start]!) && word !== 'I') return 'product_word';
  }
  return null;
}

/** In a lower-case answer, a name joined to another by "and", "or", "vs" or a comma reads as one of a list of names. */
function coordinated(text: string, start: number, end: number): boolean {
  return (
    /^(?:,| and | or | vs\.? | y | et | und | e | o )/u.test(text.slice(end, end + 6)) ||
    /(?:,| and | or | vs\.? | y | et | und | e | o )$/u.test(text.slice(Math.max(0, start - 6), start))
  );
}

/**
 * German articles and determiners by the genders they can go with in the singular (any case),
 * with the contractions of a preposition and the article (im = in dem, zur = zu der).
 */
const GERMAN_DETERMINERS: Record<string, readonly GermanGender[]> = (() => {
  const out: Record<string, GermanGender[]> = {};
  const add = (genders: GermanGender[], words: string) => {
    for (const w of words.split(' ')) out[w] = [...new Set([...(out[w] ?? []), ...genders])];
  };
  add(['M'], 'der den dem des ein einen einem eines kein keinen keinem keines dieser diesen diesem dieses jeder jeden jedem jedes im am vom zum beim');
  add(['F'], 'die der eine einer keine keiner diese dieser jede jeder zur');
  add(['N'], 'das dem des ein einem eines kein keinem keines dieses diesem jedes im am vom zum beim ins ans');
  // Possessive determiners decline like "ein": mein, meinen, meinem, meines, meine, meiner.
  for (const stem of ['mein', 'dein', 'sein', 'ihr', 'unser', 'euer']) {
    const e = stem === 'euer' ? 'eur' : stem;
    add(['M', 'N'], `${stem} ${e}em ${e}es`);
    add(['M'], `${e}en`);
    add(['F'], `${e}e ${e}er`);
  }
  return out;
})();

/** German prepositions (closed class): none stands between an article and its noun. */
const GERMAN_PREPOSITIONS = new Set(
  'bei mit von zu aus nach seit für über unter auf an in durch gegen ohne um vor hinter neben zwischen bis ab wegen trotz statt während laut per pro via'.split(
    ' ',
  ),
);

/** The (up to) three words right before a position, each followed by spaces only. */
const WORDS_BEFORE = /(?:\p{L}+[ \t]+){1,3}$/u;

/**
 * Whether a German noun written where a name could be is the noun: an article or determiner of the
 * noun's gender stands before it, with at most two lower-case words (adjectives) between ("Der
 * Puma lebt…", "ein heller Stern", "in den Spiegel"). A bare noun ("von Puma", "bei Netto") and a
 * noun followed by a name signal (checked by the caller) are read as the name.
 */
function germanNounAfterArticle(text: string, start: number, gender: GermanGender | null): boolean {
  const words = WORDS_BEFORE.exec(text.slice(Math.max(0, start - 48), start))?.[0]
    .trim()
    .split(/[ \t]+/u);
  if (!words) return false;
  for (let k = words.length - 1; k >= 0; k--) {
    const genders = GERMAN_DETERMINERS[words[k]!.toLowerCase()];
    if (genders !== undefined) return gender === null || genders.includes(gender);
    // A preposition opens a phrase of its own: the article before it belongs to another noun
    // ("meine brille bei apollo": "meine" goes with "brille", and "bei apollo" is bare).
    if (!isLower(words[k]![0]!) || GERMAN_PREPOSITIONS.has(words[k]!)) return false;
  }
  return false;
}

/**
 * Words that follow an English verb opening a sentence as an imperative: a determiner or
 * possessive starting its object, an object pronoun, or a particle of a phrasal verb ("Ramp up
 * your training", "Bolt the frame", "Ring the bell"). A name opening a sentence is followed by
 * its verb instead ("Delta lets you…"). Closed-class words only, so the set is the grammar's, not
 * a list of brands.
 */
const ENGLISH_IMPERATIVE_NEXT = new Set([
  'the',
  'a',
  'an',
  'your',
  'my',
  'our',
  'their',
  'his',
  'her',
  'its',
  'yourself',
  'yourselves',
  'it',
  'them',
  'him',
  'me',
  'us',
  'up',
  'down',
  'out',
  'off',
  'away',
  'back',
  'into',
  'onto',
  'what',
]);

/**
 * A modal or a verb of doing or having right after a sentence's first word makes that word the
 * subject. A bare singular common noun is no subject in English (it needs an article: "The delta
 * lets…"), nor in the Romance languages, Dutch or German, so a capitalised everyday word followed
 * by one of these is read as a name ("Delta lets you change…", "Zoom has…"), weakly. Not a copula:
 * a sentence that classifies the word is where words are defined ("Orange is a warm colour",
 * "Mercury is the smallest planet").
 */
const SUBJECT_VERBS: Record<string, ReadonlySet<string>> = {
  en: new Set(['has', 'had', 'does', 'did', 'can', 'will', 'would', 'should', 'could', 'may', 'might', 'must', 'lets', 'offers']),
  es: new Set(['tiene', 'ofrece', 'cobra', 'permite', 'puede']),
  pt: new Set(['tem', 'oferece', 'cobra', 'permite', 'pode']),
  fr: new Set(['a', 'propose', 'offre', 'permet', 'peut']),
  it: new Set(['ha', 'offre', 'permette', 'può']),
  nl: new Set(['heeft', 'biedt', 'kan']),
  de: new Set(['hat', 'bietet', 'kann']),
  sv: new Set(['har', 'erbjuder', 'kan', 'låter']),
  da: new Set(['har', 'tilbyder', 'kan']),
  no: new Set(['har', 'tilbyr', 'kan']),
};

/** The lower-case word right after an occurrence, after spaces only, or null. */
function nextWord(text: string, end: number): string | null {
  return /^[ \t]+(\p{Ll}+)(?![\p{L}'’-])/u.exec(text.slice(end, end + 24))?.[1] ?? null;
}

/**
 * Nouns that class a place, by language: after a copula and an article they make the sentence's
 * subject a place ("Liverpool es una ciudad portuaria", "Der Saturn ist der Planet…", "Columbia
 * is the capital of…"). Closed classes of the grammar of naming (city, river, planet…), not names.
 */
const PLACE_NOUNS: Record<string, ReadonlySet<string>> = {
  en: new Set([
    'city',
    'town',
    'capital',
    'village',
    'river',
    'lake',
    'mountain',
    'island',
    'country',
    'region',
    'province',
    'state',
    'planet',
    'port',
    'peninsula',
    'desert',
    'county',
    'district',
    'suburb',
    'borough',
    'municipality',
    // round nine: settlements, quarters and landforms
    'hamlet',
    'neighbourhood',
    'neighborhood',
    'parish',
    'canton',
    'hill',
    'fell',
    'volcano',
    'glacier',
    'waterfall',
    'forest',
    'bay',
    'fjord',
  ]),
  es: new Set([
    'ciudad',
    'capital',
    'pueblo',
    'río',
    'lago',
    'montaña',
    'isla',
    'país',
    'región',
    'provincia',
    'planeta',
    'puerto',
    'península',
    'desierto',
    'municipio',
    'barrio',
    'aldea',
    'comarca',
    'volcán',
    'cerro',
    'bahía',
    'valle',
  ]),
  fr: new Set([
    'ville',
    'capitale',
    'village',
    'fleuve',
    'rivière',
    'lac',
    'montagne',
    'île',
    'pays',
    'région',
    'province',
    'planète',
    'port',
    'péninsule',
    'désert',
    'commune',
    'quartier',
    'hameau',
    'canton',
    'volcan',
    'baie',
    'vallée',
  ]),
  de: new Set([
    'stadt',
    'hauptstadt',
    'dorf',
    'fluss',
    'see',
    'berg',
    'insel',
    'land',
    'region',
    'provinz',
    'planet',
    'hafen',
    'halbinsel',
    'wüste',
    'gemeinde',
    'stadtteil',
    'ortsteil',
    'landkreis',
    'kanton',
    'vulkan',
    'tal',
    'bucht',
  ]),
  it: new Set([
    'città',
    'capitale',
    'paese',
    'fiume',
    'lago',
    'montagna',
    'isola',
    'regione',
    'provincia',
    'pianeta',
    'porto',
    'penisola',
    'deserto',
    'comune',
    'quartiere',
    'frazione',
    'borgo',
    'vulcano',
    'valle',
    'baia',
  ]),
  pt: new Set([
    'cidade',
    'capital',
    'vila',
    'rio',
    'lago',
    'montanha',
    'ilha',
    'país',
    'região',
    'província',
    'planeta',
    'porto',
    'península',
    'deserto',
    'município',
    'bairro',
    'freguesia',
    'aldeia',
    'vulcão',
    'baía',
    'vale',
  ]),
  nl: new Set([
    'stad',
    'hoofdstad',
    'dorp',
    'rivier',
    'meer',
    'berg',
    'eiland',
    'land',
    'regio',
    'provincie',
    'planeet',
    'haven',
    'gemeente',
    'wijk',
    'stadsdeel',
    'gehucht',
    'buurtschap',
    'vulkaan',
    'baai',
  ]),
  // after "jest" the noun is in the instrumental, after "to" in the nominative
  pl: new Set([
    'miasto',
    'miastem',
    'stolica',
    'stolicą',
    'wieś',
    'wsią',
    'rzeka',
    'rzeką',
    'jezioro',
    'jeziorem',
    'góra',
    'górą',
    'wyspa',
    'wyspą',
    'kraj',
    'krajem',
    'region',
    'regionem',
    'planeta',
    'planetą',
    'port',
    'portem',
    'zamek',
    'zamkiem',
    'wzgórze',
    'wzgórzem',
    'gmina',
    'gminą',
    'osada',
    'osadą',
    'dzielnica',
    'dzielnicą',
    'dolina',
    'doliną',
    'zatoka',
    'zatoką',
  ]),
  ru: new Set([
    'город',
    'городом',
    'столица',
    'столицей',
    'река',
    'рекой',
    'озеро',
    'гора',
    'остров',
    'страна',
    'регион',
    'планета',
    'планетой',
    'порт',
    'град',
    'деревня',
    'село',
    'посёлок',
    'поселок',
    'район',
    'вулкан',
    'залив',
    'долина',
  ]),
  cs: new Set([
    'město',
    'městem',
    'hlavní',
    'řeka',
    'řekou',
    'hora',
    'horou',
    'ostrov',
    'země',
    'zemí',
    'region',
    'planeta',
    'planetou',
    'hrad',
    'hradem',
    'obec',
    'obcí',
    'vesnice',
    'vesnicí',
    'čtvrť',
    'sopka',
    'údolí',
  ]),
  // round nine: the Nordic languages, Finnish, Ukrainian and Turkish, from the same classes
  // (settlement, district, river, lake, mountain, island) in each language's ordinary words
  sv: new Set([
    'stad',
    'huvudstad',
    'by',
    'tätort',
    'ort',
    'flod',
    'älv',
    'å',
    'sjö',
    'berg',
    'fjäll',
    'ö',
    'landskap',
    'kommun',
    'socken',
    'region',
    'län',
    'stadsdel',
  ]),
  da: new Set(['by', 'hovedstad', 'landsby', 'flod', 'å', 'sø', 'bjerg', 'ø', 'kommune', 'sogn', 'bydel', 'egn', 'region', 'halvø', 'fjord']),
  nb: new Set([
    'by',
    'hovedstad',
    'bygd',
    'tettsted',
    'elv',
    'elva',
    'innsjø',
    'fjell',
    'øy',
    'kommune',
    'fylke',
    'bydel',
    'region',
    'halvøy',
    'fjord',
    'tind',
  ]),
  fi: new Set([
    'kaupunki',
    'pääkaupunki',
    'kylä',
    'taajama',
    'joki',
    'järvi',
    'vuori',
    'tunturi',
    'saari',
    'kunta',
    'maakunta',
    'kaupunginosa',
    'seutu',
    'niemi',
    'lahti',
  ]),
  uk: new Set(['місто', 'містом', 'столиця', 'село', 'селище', 'річка', 'озеро', 'гора', 'острів', 'громада', 'район', 'область', 'регіон', 'долина']),
};

/** The copula of a classifying sentence ("X is a…"), then an article and the next three words (adjectives and the noun). */
const CLASSIFYING: Record<string, RegExp> = {
  en: /^[ \t]+(?:is|was)[ \t]+(?:(?:a|an|the)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  es: /^[ \t]+(?:es|era)[ \t]+(?:(?:una?|la|el)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  fr: /^[ \t]+(?:est|était)[ \t]+(?:(?:une?|la|le|l')[ \t]*)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  de: /^[ \t]+(?:ist|war)[ \t]+(?:(?:eine?|der|die|das)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{L}+)(?![\p{L}'’-])/u,
  it: /^[ \t]+(?:è|era)[ \t]+(?:(?:una?|la|il|lo|l')[ \t]*)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  pt: /^[ \t]+(?:é|era)[ \t]+(?:(?:uma?|a|o)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  nl: /^[ \t]+(?:is|was)[ \t]+(?:(?:een|de|het)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  pl: /^[ \t]+(?:jest|był|była|było|to)[ \t]+((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  ru: /^[ \t]+(?:[—–-][ \t]+(?:это[ \t]+)?|это[ \t]+)((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  cs: /^[ \t]+(?:je|byl|byla|bylo)[ \t]+((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  // round nine: the Nordic copulas with their indefinite articles, Finnish "on", Ukrainian dash or "це"
  da: /^[ \t]+(?:er|var)[ \t]+(?:(?:en|et)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  nb: /^[ \t]+(?:er|var)[ \t]+(?:(?:en|ei|et)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  fi: /^[ \t]+(?:on|oli)[ \t]+((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
  uk: /^[ \t]+(?:[—–-][ \t]+(?:це[ \t]+)?|це[ \t]+)((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
};

const caselessClassifyingByLanguage = new Map<string, RegExp | undefined>();
/** CLASSIFYING (or FIRM_CLASSIFYING) of a language, blind to case: `\p{Ll}` then matches capitals too. */
function caselessClassifying(language: string): RegExp | undefined {
  if (!caselessClassifyingByLanguage.has(language)) {
    const re = CLASSIFYING[language] ?? FIRM_CLASSIFYING[language];
    caselessClassifyingByLanguage.set(language, re === undefined ? undefined : new RegExp(re.source, 'iu'));
  }
  return caselessClassifyingByLanguage.get(language);
}

/** Arabic nouns that name a place with the word after them (نهر الدانوب "the Danube river", مدينة …). */
const ARABIC_PLACE_BEFORE = /(?:^|[\s،,])(?:نهر|مدينة|جبل|جبال|بحر|بحيرة|جزيرة|ولاية|محافظة|منطقة|قرية|عاصمة|كوكب|صحراء|وادي)[ \t]+$/u;

/**
 * Japanese head nouns that make a proper noun of a place, era, event or institution out of the
 * name before them (日立市 "Hitachi city", 大和時代 "the Yamato period", 日清戦争, 明治大学).
 */
const JAPANESE_PLACE_HEAD =
  /^(?:市|町|村|県|区|郡|駅|時代|戦争|大学|神社|天皇|朝|王朝|球場|競技場|スタジアム|アリーナ|ホール|ダム|劇場)(?!\p{Script=Han}|\p{Script=Katakana}|ー)/u;
/**
 * Round eight: Chinese heads that make a place, an institution or a dynasty of the name before
 * them (茅台镇 "Maotai town", X大学, X体育场), and Korean ones written on to it (교촌마을 "Gyochon
 * village", X대학교, X경기장); a firm's name takes them only as a sponsor's venue.
 */
const CHINESE_PLACE_HEAD = /^(?:镇|县|乡|省|古镇|大学|体育场|王朝)/u;
const KOREAN_ATTACHED_PLACE_HEAD = /^(?:마을|대학교|경기장|해수욕장|국립공원|왕조)/u;

/**
 * Korean nouns of geography written as a word of their own after a name, which make it the name of
 * a place (남양 군도 "the South Sea islands", 한라 산), and nouns of time after a frequent word,
 * which make it a determiner or adverb (다음 주 "next week", 매일 아침 "every morning").
 */
const KOREAN_PLACE_HEADS = new Set(['군도', '제도', '섬', '산', '산맥', '강', '호수', '반도', '해협', '평야', '고원']);
const KOREAN_TIME_NOUNS = new Set(['주', '달', '해', '날', '아침', '점심', '저녁', '밤', '주말', '시간', '번', '주일', '학기', '분기']);

/** The Korean word after `end` (past one space) is one of `heads`, alone or with a particle. */
function koreanHeadAfter(text: string, end: number, heads: ReadonlySet<string>): boolean {
  if (text[end] !== ' ') return false;
  const word = runAfter(text, end + 1, HANGUL, 8);
  if (heads.has(word)) return true;
  // A word of the spelling dictionary is not a head and a particle: 강의 is "a lecture", not 강 +
  // 의. (Not the frequency list, which holds nouns with their particles: 산에, 주에.)
  if (dictionaryWord(word, 'ko')) return false;
  for (let k = word.length - 1; k >= 1; k--) if (heads.has(word.slice(0, k)) && KOREAN_PARTICLES.has(word.slice(k))) return true;
  return false;
}

/**
 * Round eight: Slavic towns are told apart by a river or a region after their name: "nad" and a
 * river (`Warka nad Pilicą`, `Brandýs nad Labem`, `Ростов-на-Дону` is hyphenated) or a capitalised
 * regional adjective (`Sokołów Podlaski`, `w Sokołowie Podlaskim`, `Ostrów Wielkopolski`, `Nový
 * Bor`, `Ústí nad Orlicí`, `Переславль-Залесский`); a shop's branch is given with "na" or "w" and a
 * district (`Żabka na Mokotowie`), which this does not read.
 */
const SLAVIC_TOWN_QUALIFIER: Record<string, RegExp> = {
  pl: /^[ \t]+(?:nad[ \t]+\p{Lu}|\p{Lu}\p{Ll}*(?:sk|ck)(?:i|a|ie|im|iej|ą|iego|iemu)(?![\p{L}]))/u,
  cs: /^[ \t]+(?:nad[ \t]+\p{Lu}|\p{Lu}\p{Ll}*(?:sk|ck)(?:ý|á|é|ém|ého|ou)(?![\p{L}]))/u,
  ru: /^[ \t]+(?:над[ \t]+\p{Lu}|\p{Lu}\p{Ll}*(?:ск|цк)(?:ий|ая|ое|ом|ой|ого|ом)(?![\p{L}]))/u,
  uk: /^[ \t]+(?:над[ \t]+\p{Lu}|\p{Lu}\p{Ll}*(?:ськ|цьк)(?:ий|а|е|ому|ій|ого)(?![\p{L}]))/u,
};

/** Languages that write noun compounds in one word: a place noun may end a longer one. */
const PLACE_COMPOUNDING = new Set(['de', 'nl', 'sv', 'da', 'no', 'nb', 'fi', 'ru', 'cs', 'pl']);

/**
 * A place noun of the language, or (round eight) in a compounding language a word ending in one of
 * five letters or more, or a listed one of four: `deelgemeente` (gemeente), `Hansestadt` (stadt),
 * `наукоград` (град).
 */
function isPlaceNoun(word: string, language: string): boolean {
  const nouns = PLACE_NOUNS[language];
  if (nouns === undefined) return false;
  if (nouns.has(word)) return true;
  if (!PLACE_COMPOUNDING.has(language)) return false;
  // Swedish `verkstad` ("workshop", a garage: `bilverkstad`) ends in `stad` and is no town.
  if (language === 'sv' && word.endsWith('verkstad')) return false;
  for (let k = 1; k <= word.length - 4; k++) {
    const head = word.slice(k);
    if (nouns.has(head) && (head.length >= 5 || SHORT_PLACE_HEADS.has(head))) return true;
  }
  return false;
}

/**
 * Place nouns of four letters that end compounds as places (`наукоград`, `Vyšehrad`, `Nürnberg`,
 * `deelgemeente` is longer); not `порт`, `port`, `село`, which end `спорт`, `sport`, `весело`.
 */
const SHORT_PLACE_HEADS = new Set(['град', 'hrad', 'berg', 'dorp', 'stad', 'land', 'meer', 'obec', 'dorf']);

/**
 * Whether the grammar around a name makes it a place (see `place_name`): a classifying sentence
 * opening with it, an Arabic place noun before it, a Japanese place or era head after it.
 */
function placeReading(text: string, start: number, end: number, language: string): boolean {
  if (language === 'ja') {
    // 杯 "cup" after a name in katakana is a firm's sponsored cup (キリン杯); after kanji a place's
    // or a person's (天皇杯, 高松宮杯).
    return (
      JAPANESE_PLACE_HEAD.test(text.slice(end, end + 6)) ||
      (text[end] === '杯' && !/^[\p{Script=Katakana}ー・]+$/u.test(text.slice(start, end)) && !/\p{Script=Han}/u.test(text[end + 1] ?? ''))
    );
  }
  if (language === 'zh') return CHINESE_PLACE_HEAD.test(text.slice(end, end + 3));
  if (language === 'ar') return ARABIC_PLACE_BEFORE.test(text.slice(Math.max(0, start - 16), start));
  if (language === 'ko') return koreanHeadAfter(text, end, KOREAN_PLACE_HEADS) || KOREAN_ATTACHED_PLACE_HEAD.test(text.slice(end, end + 4));
  if (SLAVIC_TOWN_QUALIFIER[language]?.test(text.slice(end, end + 32))) return true;
  if (placeNounBefore(text, start, language) || locativeVerbAfter(text, start, end, language) || regionAfter(text, end, language)) return true;
  if (language === 'tr') return turkishPlacePredicate(text, start, end);
  const classifying = caselessClassifying(language);
  if (classifying === undefined) return false;
  // Case-blind (round nine): a capitalised adjective or genitive may stand before the noun ("the
  // largest German state", "Suomen korkein tunturi", "the highest Welsh peak"). The place noun
  // itself is written in lower case, save in German, which capitalises its nouns: a capitalised
  // one is a name's word ("Clorox is a Bay Area company").
  const words = classifying.exec(text.slice(end, end + 64))?.[1];
  const placeNoun = (w: string) => (language === 'de' ? isPlaceNoun(w.toLowerCase(), language) : isLower(w[0] ?? '') && isPlaceNoun(w, language));
  if (words === undefined || !words.split(/[ \t]+/u).some(placeNoun)) return false;
  // The subject opens the sentence, alone or after a definite article ("Der Saturn ist…").
  const article = SENTENCE_ARTICLE.exec(text.slice(Math.max(0, start - 5), start));
  return position(text, article ? start - article[0].length : start).initial;
}

/**
 * Nouns for things other than firms that carry proper names: people by their role or relation to
 * the writer (a colleague, the director), works (an opera, a film, a novel), animals and storms
 * people name; and (round seven) the classes a common noun spelled like a brand belongs to: an
 * animal, a bird, a plant, a fruit, a colour ("Сапсан — самая быстрая птица", "Puma is a big
 * predator"). A name classified by one ("Melinda è la mia collega", "Elektra es una ópera") or
 * introduced by one ("the director X", "a colleague called X", "die Oper X") names that thing
 * (`other_name`). Deliberately without app, platform, service, shop, player, series: nouns a
 * brand is introduced by.
 */
const OTHER_NOUNS: Record<string, readonly string[]> = {
  en: 'colleague friend sister brother wife husband daughter son mother father aunt uncle cousin neighbour neighbor teacher girlfriend boyfriend grandmother grandfather director actor actress singer writer novelist author painter composer poet footballer philosopher opera film movie novel song album painting poem symphony ballet musical character heroine hero goddess god dog cat horse puppy kitten hurricane storm typhoon constellation animal bird fish insect mammal reptile predator plant tree flower shrub fruit vegetable berry mushroom colour color gemstone mineral'.split(
    ' ',
  ),
  es: 'colega compañera compañero amiga amigo hermana hermano esposa esposo hija hijo madre padre tía tío prima primo vecina vecino profesora profesor novia novio abuela abuelo director directora cineasta actor actriz cantante escritora escritor autora autor pintora pintor compositor poeta futbolista ópera película novela canción álbum cuadro poema obra sinfonía personaje diosa dios perro perra gato gata caballo huracán tormenta constelación animal ave pájaro pez insecto mamífero reptil depredador planta árbol flor arbusto fruta verdura hortaliza baya seta color piedra mineral'.split(
    ' ',
  ),
  fr: 'collègue amie ami sœur frère femme mari fille fils mère père tante oncle cousine cousin voisine voisin professeure professeur copine copain grand-mère grand-père réalisateur réalisatrice cinéaste metteur acteur actrice chanteuse chanteur écrivaine écrivain romancier romancière auteure autrice auteur peintre compositeur poète footballeur opéra film roman chanson album tableau poème pièce symphonie ballet personnage héroïne héros déesse dieu chienne chien chatte chat cheval jument ouragan tempête constellation animal oiseau poisson insecte mammifère reptile prédateur plante arbre fleur arbuste fruit légume baie champignon couleur pierre minéral'.split(
    ' ',
  ),
  de: 'kollegin kollege freundin freund schwester bruder frau mann tochter sohn mutter vater tante onkel cousine cousin nachbarin nachbar lehrerin lehrer oma opa regisseurin regisseur schauspielerin schauspieler sängerin sänger schriftstellerin schriftsteller autorin autor malerin maler komponistin komponist dichterin dichter fußballer oper film roman lied song album gemälde gedicht theaterstück sinfonie symphonie ballett musical figur heldin held göttin gott hündin hund katze kater pferd hurrikan sturm orkan sturmtief sternbild tier vogel fisch insekt säugetier reptil raubtier pflanze baum blume strauch frucht obst gemüse beere pilz farbe edelstein mineral'.split(
    ' ',
  ),
  it: 'collega amica amico sorella fratello moglie marito figlia figlio madre padre zia zio cugina cugino vicina vicino professoressa professore maestra maestro fidanzata fidanzato nonna nonno regista attrice attore cantante scrittrice scrittore autrice autore pittrice pittore compositore poeta poetessa calciatore opera film romanzo canzone album dipinto quadro poesia sinfonia balletto personaggio eroina eroe dea dio cagnolina cagnolino cane gatta gatto cavallo uragano tempesta costellazione animale uccello pesce insetto mammifero rettile predatore pianta albero fiore arbusto frutto verdura bacca fungo colore pietra minerale'.split(
    ' ',
  ),
  pt: 'colega amiga amigo irmã irmão esposa esposo mulher marido filha filho mãe pai tia tio prima primo vizinha vizinho professora professor namorada namorado avó avô diretor diretora cineasta ator atriz cantora cantor escritora escritor autora autor pintora pintor compositor poeta jogador ópera filme romance canção música álbum quadro pintura poema sinfonia balé personagem deusa deus cadela cachorro cão gata gato cavalo furacão tempestade constelação animal ave pássaro peixe inseto mamífero réptil predador planta árvore flor arbusto fruta legume verdura baga cogumelo cor pedra mineral'.split(
    ' ',
  ),
  nl: 'collega vriendin vriend zus zuster broer vrouw man dochter zoon moeder vader tante oom nicht neef buurvrouw buurman lerares leraar oma opa regisseur acteur actrice zangeres zanger schrijfster schrijver auteur schilder componist dichter voetballer opera film roman lied album schilderij gedicht toneelstuk symfonie ballet musical personage godin god hond kat poes paard orkaan storm sterrenbeeld dier vogel vis insect zoogdier reptiel roofdier plant boom bloem struik vrucht fruit groente bes paddenstoel kleur edelsteen mineraal'.split(
    ' ',
  ),
  pl: 'koleżanka kolega przyjaciółka przyjaciel siostra brat żona mąż córka syn matka mama ojciec tata ciocia wujek kuzynka kuzyn sąsiadka sąsiad nauczycielka nauczyciel babcia dziadek reżyser reżyserka aktor aktorka piosenkarka piosenkarz pisarka pisarz autorka autor malarz kompozytor poeta poetka piłkarz opera film powieść piosenka album obraz wiersz symfonia balet postać bohaterka bohater bogini boginią boga bogiem bóg pies suczka kot kotka koń huragan gwiazdozbiór konstelacja zwierzę zwierzęciem ptak ptakiem ryba rybą owad owadem ssak ssakiem gad drapieżnik drapieżnikiem roślina rośliną drzewo drzewem kwiat kwiatem krzew owoc owocem warzywo warzywem grzyb kolor kamień minerał'.split(
    ' ',
  ),
  ru: 'коллега подруга друг сестра брат жена муж дочь сын мать мама отец папа тётя тетя дядя соседка сосед учительница учитель бабушка дедушка режиссёр режиссер актёр актер актриса певица певец писательница писатель автор художник композитор поэт поэтесса футболист опера оперой фильм фильмом роман романом песня песней альбом картина картиной стихотворение симфония балет балетом персонаж героиня герой богиня богиней богини бог бога богом собака пёс пес кошка кот лошадь конь ураган созвездие созвездием животное животным птица птицей рыба рыбой насекомое млекопитающее рептилия хищник хищником растение растением дерево деревом цветок цветком кустарник фрукт овощ ягода гриб цвет камень минерал'.split(
    ' ',
  ),
  cs: 'kolegyně kolega kamarádka kamarád přítelkyně přítel sestra bratr manželka manžel dcera syn matka maminka otec táta teta strýc sousedka soused učitelka učitel babička dědeček režisér režisérka herec herečka zpěvačka zpěvák spisovatelka spisovatel autorka autor malíř skladatel básník fotbalista opera operou film filmem román románem píseň písní album obraz obrazem báseň symfonie balet postava postavou hrdinka hrdina bohyně bohyní bohyni bůh boha bohem pes fenka kočka kocour kůň hurikán souhvězdí souhvězdím zvíře zvířetem pták ptákem ryba rybou hmyz savec savcem plaz dravec dravcem rostlina rostlinou strom stromem květina květinou keř ovoce zelenina bobule houba barva kámen minerál'.split(
    ' ',
  ),
  // round nine: Danish and Norwegian (Bokmål), the same classes, with the suffixed definite forms a
  // noun takes before a name ("gudinnen Freia", "naboen Ola")
  da: 'kollega ven veninde søster bror kone mand datter søn mor far tante onkel fætter kusine nabo naboen lærer instruktør skuespiller sanger sangerinde forfatter maler komponist digter fodboldspiller opera operaen film filmen roman romanen sang album maleri digt skikkelse heltinde gudinde gudinden gud guden hund hunden kat katten hest hesten orkan stjernebillede fugl fisk insekt pattedyr rovdyr plante træ blomst frugt grøntsag bær svamp farve ædelsten'.split(
    ' ',
  ),
  nb: 'kollega venn venninne søster bror kone mann datter sønn mor far tante onkel fetter kusine nabo naboen lærer regissør skuespiller sanger sangerinne forfatter maler komponist dikter fotballspiller opera operaen film filmen roman romanen sang album maleri dikt skikkelse heltinne gudinne gudinnen gud guden hund hunden katt katten hest hesten orkan stjernebilde fugl fisk insekt pattedyr rovdyr plante blomst frukt grønnsak bær sopp farge edelstein'.split(
    ' ',
  ),
  sv: 'kollega kompis vän väninna syster bror fru hustru dotter son mamma mor pappa far moster faster morbror farbror kusin granne lärare lärarinna flickvän pojkvän mormor farmor morfar farfar regissör skådespelare skådespelerska sångerska sångare författare författarinna målare konstnär tonsättare kompositör poet fotbollsspelare opera operan film filmen roman romanen låt låten sång album albumet målning målningen dikt dikten pjäs pjäsen symfoni balett gestalt figur hjältinna hjälte gudinna gud hund hunden katt katten häst hästen orkan orkanen storm stormen stjärnbild stjärnbilden djur djuret fågel fågeln fisk fisken insekt däggdjur reptil rovdjur växt växten träd trädet blomma blomman buske frukt grönsak bär svamp färg ädelsten mineral'.split(
    ' ',
  ),
};

/**
 * Possessive determiners: a listed noun right after one is the head of a classifying sentence
 * whatever follows it ("Alan est mon voisin depuis dix ans", "Melinda is my colleague now").
 */
const POSSESSIVES = new Set(
  'my your his her our their mon ma ton ta son sa notre votre leur mi tu su nuestro nuestra mio mia tuo tua suo sua nostro nostra meu minha teu seu nosso nossa mein meine dein deine sein seine ihr ihre unser unsere mijn jouw zijn haar onze hun mój moja moje twój twoja мой моя наш наша můj moje náš naše min mitt mina din ditt vår'.split(
    ' ',
  ),
);

/**
 * Nouns of events and sky objects named after a place or a person with "of" ("the Battle of X",
 * "O Grito do Ipiranga", "la batalla de X", "Souhvězdí X" takes no "of"): such a noun and "of"
 * before a name make it that event's or thing's name, not a firm's (`other_name`).
 */
const EVENT_NOUNS = new Set(
  'régime regime régimen battle war siege treaty constellation tragedy disaster massacre tragedia disastro strage tragédie catastrophe massacre tragédia desastre masakra tragedie katastrofa трагедия катастрофа batalla guerra sitio tratado grito constelación batalha cerco constelação bataille guerre siège traité battaglia assedio trattato costellazione schlacht krieg belagerung vertrag slag oorlog beleg verdrag bitwa wojna oblężenie traktat bitva válka битва война осада slaget kriget'.split(
    ' ',
  ),
);
/** "Of" between an event noun and its name (with the Romance contractions of the article). */
const EVENT_OF = new Set([
  'of',
  'de',
  'del',
  'do',
  'da',
  'dos',
  'das',
  'di',
  'della',
  'dello',
  'du',
  'des',
  'd’',
  "d'",
  'von',
  'van',
  'pod',
  'u',
  'при',
  'vid',
]);

/**
 * Chinese nouns of a person's role written straight before a personal name (体操运动员李宁, 歌手X,
 * 导演X): the name is that person's. Not 选手 "player" and 冠军 "champion", which answers also say
 * of brands (国产选手小米, 销量冠军X).
 */
const KOREAN_OTHER_BEFORE = new Set(
  '영화 애니메이션 만화 소설 동화 드라마 노래 오페라 뮤지컬 그림 감독 배우 가수 작가 화가 시인 친구 동생 언니 오빠 누나 주인공 캐릭터 영화제 시상식 공모전'.split(
    ' ',
  ),
);
const CHINESE_ROLE_BEFORE = /(?:运动员|演员|歌手|导演|作家|诗人|画家|教练|主持人|总统|主席|老师|同学|朋友|队长)$/u;

/** Naming words between the noun and the name: "a colleague called X", "un amico di nome X". */
const CALLED: Record<string, readonly string[]> = {
  en: ['called', 'named', 'by the name of'],
  es: ['llamado', 'llamada', 'de nombre'],
  fr: ['appelé', 'appelée', 'nommé', 'nommée', 'prénommé', 'prénommée', 'du nom de'],
  de: ['namens', 'genannt', 'mit dem namen'],
  it: ['chiamato', 'chiamata', 'di nome', 'che si chiama'],
  pt: ['chamado', 'chamada', 'de nome'],
  nl: ['genaamd', 'die heet', 'met de naam'],
  pl: ['o imieniu', 'imieniem', 'zwany', 'zwana'],
  ru: ['по имени', 'по кличке', 'под названием'],
  cs: ['jménem', 'zvaný', 'zvaná', 's názvem'],
  sv: ['som heter', 'vid namn', 'kallad'],
};

/** Words after the classifying noun that keep it the head ("una ópera de…", "la mia collega di…"). */
const HEAD_FOLLOWERS = new Set([
  'of',
  'by',
  'from',
  'in',
  'at',
  'who',
  'whom',
  'de',
  'del',
  'di',
  'da',
  'do',
  'du',
  'des',
  'que',
  'che',
  'qui',
  'von',
  'aus',
  'van',
  'uit',
  'die',
  'der',
  'z',
  'ze',
  'od',
  'av',
  'från',
  'som',
  'i',
  'w',
  'в',
  'из',
  'от',
  'которая',
  'который',
  // prepositions of place and company after the head ("výrazné souhvězdí na nebeském rovníku")
  'on',
  'with',
  'for',
  'na',
  'sur',
  'en',
  'auf',
  'op',
  'su',
  'em',
  'no',
  'con',
  'com',
  'avec',
  'mit',
  'met',
  'med',
  'на',
  'с',
  'v',
  've',
  's',
  'se',
]);

/**
 * Works made by one person, and the word for "by" after them: "le premier long métrage de X",
 * "a novel by X", "un film di X" name X as the work's author (`other_name`).
 */
const AUTHORED_WORKS =
  'film movie novel opera symphony painting poem métrage roman opéra symphonie tableau poème película novela ópera sinfonía cuadro filme romance sinfonia pintura romanzo dipinto Oper Sinfonie Gemälde Gedicht schilderij gedicht symfonie dikt målning symfoni powieść obraz wiersz symfonia'.split(
    ' ',
  );
const AUTHORED = new Set(AUTHORED_WORKS);
/** The word for "by" after a work (the elided d' is read as its own word). */
const AUTHORED_BY = new Set(['by', 'de', "d'", 'd’', 'di', 'da', 'do', 'von', 'van', 'av', 'door']);

const otherNounSets = new Map<string, ReadonlySet<string>>();

function otherNouns(language: string): ReadonlySet<string> | undefined {
  if (language === 'no' || language === 'nn') language = 'nb';
  const list = OTHER_NOUNS[language];
  if (list === undefined) return undefined;
  let set = otherNounSets.get(language);
  if (set === undefined) {
    set = new Set(list);
    otherNounSets.set(language, set);
  }
  return set;
}

const calledSplit = new Map<string, readonly (readonly string[])[]>();
function calledWords(language: string): readonly (readonly string[])[] {
  let split = calledSplit.get(language);
  if (split === undefined) {
    split = (CALLED[language] ?? []).map((c) => c.split(' '));
    calledSplit.set(language, split);
  }
  return split;
}

const WORD_LETTER = /[\p{L}-]/u;

/** The words right before `start` as written (at most `max`), nearest last; stops at anything but letters, hyphens, an elided apostrophe and spaces. */
let lastWordText: string | null = null;
let lastWordStart = -1;
let lastWord: string | undefined;
/** The word right before `start` (wordsBefore with max 1), remembered for the next rule reading the same occurrence. */
function wordBefore(text: string, start: number): string | undefined {
  if (text !== lastWordText || start !== lastWordStart) {
    lastWord = wordsBefore(text, start, 1)[0];
    lastWordText = text;
    lastWordStart = start;
  }
  return lastWord;
}

function wordsBefore(text: string, start: number, max: number): string[] {
  const words: string[] = [];
  let i = start;
  while (words.length < max) {
    let j = i;
    while (j > 0 && (text[j - 1] === ' ' || text[j - 1] === '\t')) j--;
    if (j === i && i !== start) break;
    let k = j;
    // An elided article or preposition ends in its apostrophe with no space (d'X, l'X).
    if (k > 0 && (text[k - 1] === "'" || text[k - 1] === '’') && j === start) k--;
    while (k > 0 && WORD_LETTER.test(text[k - 1]!)) k--;
    if (k === j) break;
    words.unshift(text.slice(k, j));
    i = k;
  }
  return words;
}

/**
 * Whether the grammar around a name makes it the name of something other than a firm (see
 * `other_name`): a classifying sentence opening with it whose head noun is a person, a work, an
 * animal or a storm, such a noun right before it, or a work and "by" before it (its author).
 */
function otherNameReading(text: string, start: number, end: number, language: string): boolean {
  if (language === 'zh') return CHINESE_ROLE_BEFORE.test(text.slice(Math.max(0, start - 4), start));
  if (language === 'ko') {
    // Round nine: a Korean noun of a work, a person's role or an event as its own word before the
    // name (애니메이션 X "the animated film X", 친구 X, 영화제 대상 "the festival's grand prize").
    // Not after a demonstrative (그 노래 멜론에서 "that song, on Melon"): the noun is the object talked
    // of, the name a new phrase.
    const prev = text[start - 1] === ' ' ? wordsBefore(text, start, 2) : [];
    const noun = prev[prev.length - 1];
    return noun !== undefined && KOREAN_OTHER_BEFORE.has(noun) && !(prev.length === 2 && KOREAN_DEMONSTRATIVES.has(prev[0]!));
  }
  const nouns = otherNouns(language);
  if (nouns === undefined) return false;
  // The word right before it first; more only when it can end a naming phrase or be "by".
  const nearest = wordBefore(text, start);
  if (nearest !== undefined) {
    const last = nearest.toLowerCase();
    // Such a noun right before it, or with a naming word between ("a colleague called X").
    if (nouns.has(last)) return true;
    const called = calledWords(language);
    const naming = called.some((c) => c[c.length - 1] === last);
    if (EVENT_OF.has(last)) {
      // An event or sky object and "of" before it: "the Battle of X", "O Grito do X".
      const two = wordsBefore(text, start, 2);
      if (two.length === 2 && EVENT_NOUNS.has(two[0]!.toLowerCase())) return true;
    }
    if (naming || AUTHORED_BY.has(nearest)) {
      const asWritten = wordsBefore(text, start, 5);
      const before = asWritten.map((w) => w.toLowerCase());
      if (naming) {
        for (const c of called) {
          const n = c.length;
          if (before.length > n && c.every((w, i) => before[before.length - n + i] === w) && nouns.has(before[before.length - n - 1]!)) return true;
        }
      }
      // A work and "by" before it, as written: its author.
      if (AUTHORED_BY.has(nearest) && asWritten.length >= 2 && AUTHORED.has(asWritten[asWritten.length - 2]!)) return true;
    }
  }
  const article = SENTENCE_ARTICLE.exec(text.slice(Math.max(0, start - 5), start));
  if (!position(text, article ? start - article[0].length : start).initial) return false;
  const classifying = CLASSIFYING[language];
  if (classifying === undefined) return false;
  const words = classifying
    .exec(text.slice(end, end + 64))?.[1]
    ?.toLowerCase()
    .split(/[ \t]+/u);
  if (words === undefined) return false;
  // Romance languages put adjectives after the noun and build no noun-noun compounds: the first
  // word after the article is the head ("Mango es una fruta tropical").
  const headFirst = ROMANCE.has(language);
  return words.some(
    (w, i) =>
      nouns.has(w) && (i === words.length - 1 || HEAD_FOLLOWERS.has(words[i + 1]!) || (i > 0 && POSSESSIVES.has(words[i - 1]!)) || (i === 0 && headFirst)),
  );
}

const ROMANCE = new Set(['es', 'fr', 'it', 'pt']);

/** A definite article right before a word (the sentence's subject: "Der Saturn", "El Liverpool"). */
const SENTENCE_ARTICLE = /(?:^|(?<=[^\p{L}]))(?:The|Der|Die|Das|El|La|Le|L'|Il|Lo|O|A|De|Het)[ \t]+$|L'$/u;

const NUMERAL = '[0-9０-９一二两三四五六七八九十百千几何数]';
/** Japanese counters for animals (匹 small animals and fish, 羽 birds, 頭 large animals) and 群れ "herd". */
const JAPANESE_ANIMAL_AFTER = new RegExp(`^(?:(?:が|を|は|も)?${NUMERAL}+(?:匹|羽|頭)|の群れ)`, 'u');
const JAPANESE_ANIMAL_BEFORE = new RegExp(`${NUMERAL}+(?:匹|羽|頭)の$`, 'u');
/** Korean counter for animals: 두 마리, 세 마리. */
const KOREAN_ANIMAL_AFTER = /^[^\s]{0,3}[ \t]*(?:[0-9]+|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|몇|여러)[ \t]*마리/u;
/**
 * Chinese: a numeral and a classifier before a noun count it (一面红旗 "a red flag", 两只熊猫),
 * except the classifiers of firms, vehicles, machines and models (一家, 一辆, 一台, 一款, 一部),
 * which count the brand's things.
 */
const CHINESE_COUNTED_BEFORE = new RegExp(`${NUMERAL}+[个只头匹条面张把本杯碗片棵朵根块位名群]$`, 'u');

/** Chinese one-character prepositions and coverbs that stand before a noun (在 at, 从 from, 用 with, 到 to…). */
const CHINESE_COVERBS = new Set([...'在从用到去和跟给把被对向于']);

/** Arabic quantifiers that take an indefinite plural after them: عدة اتصالات "several calls", بضع, عشرات. */
const ARABIC_QUANTIFIER_BEFORE = /(?:^|[\s،,])(?:عدة|بضع|بضعة|عشرات|مئات|آلاف)[ \t]+$/u;

/** Whether a name is counted as a thing by a classifier or quantifier (see `counted_noun`). */
function countedReading(text: string, start: number, end: number, language: string): boolean {
  if (language === 'ja') return JAPANESE_ANIMAL_AFTER.test(text.slice(end, end + 6)) || JAPANESE_ANIMAL_BEFORE.test(text.slice(Math.max(0, start - 6), start));
  if (language === 'ko') return KOREAN_ANIMAL_AFTER.test(text.slice(end, end + 12));
  if (language === 'zh') {
    // A listed noun after the name is what is counted (一个小米手机: a Xiaomi phone), not the name.
    const after = text.slice(end, end + 2);
    if (after.length === 2 && HAN.test(after[0]!) && everydayWordRank(after, 'zh') !== null) return false;
    return CHINESE_COUNTED_BEFORE.test(text.slice(Math.max(0, start - 4), start));
  }
  if (language === 'ar') return ARABIC_QUANTIFIER_BEFORE.test(text.slice(Math.max(0, start - 10), start));
  return false;
}

/**
 * English: the next word is a present-tense verb of the third person (a listed word plus -s or
 * -es) or a verb in the past tense (plus -ed or -d) with its object after it, opened by a determiner or quantifier ("Discover matches all the
 * cash back…", "Chase charges no fee"): the word before it is its subject. A plural noun is not
 * followed by a determiner ("Ring doorbells record…", "Compass needles point…").
 */
const ENGLISH_VERB_OBJECT =
  /^[ \t]+(\p{Ll}+?)(e?s|ed)[ \t]+(?:the|a|an|all|your|its|their|his|her|our|every|each|some|any|no|this|these|those|up|you|them|it)[ \t]/u;

function englishVerbWithObject(text: string, end: number): boolean {
  const m = ENGLISH_VERB_OBJECT.exec(text.slice(end, end + 40));
  if (!m || m[1]!.length < 2 || (m[2] !== 'ed' && m[1]!.endsWith('s'))) return false;
  const listed = (w: string) => everydayWordRank(w, 'en') !== null;
  if (m[2] === 'ed') {
    // The past tense too ("Delta cancelled all flights", "Apple launched the…"): launch+ed,
    // announce+d, stop+ped.
    const base = m[1]!;
    return listed(base) || listed(`${base}e`) || (/(.)\1$/u.test(base) && listed(base.slice(0, -1)));
  }
  return listed(m[1]!) || (m[2] === 'es' && listed(`${m[1]}e`));
}

type Everyday = 'lower' | 'initial';

/**
 * How an everyday-word name is written at one occurrence (original range [start, end)): 'no' is
 * the everyday word ("zoom in on the chart", "you can"); a MentionRule is the name; 'initial'
 * is capitalised only because it starts a sentence or a title-case line ("You can…", "Zoom into
 * the chart"), which counts only when the answer names it elsewhere, or, for rarer words, never
 * uses the word otherwise. Bounded look-arounds (LOOK_AROUND characters), so linear overall.
 */
function classifyEveryday(ft: FoldedText, start: number, end: number, everyday: Everyday): MentionRule | 'no' | 'initial' {
  const { text } = ft;
  const span = text.slice(start, end);
  const first = span[0]!;
  if (isLower(first)) {
    if (!lowerCaseAnswer(ft)) return 'no';
    const signal = nameSignal(text, start, end);
    if (signal) return signal;
    if (isListLabel(text, end) && position(text, start).initial) return 'list_label';
    if (everyday === 'lower' || coordinated(text, start, end)) return 'lower_case_answer';
    return 'initial';
  }
  if (inCapitals(span) && !neighbourInCapitals(text, start, end)) return 'capitals';
  const signal = nameSignal(text, start, end);
  if (signal) return signal;
  const { initial, emphasised } = position(text, start);
  if (emphasised) return 'emphasis';
  if (initial && isListLabel(text, end)) return 'list_label';
  if (initial || titleCaseLine(text, start)) return 'initial';
  return 'capitalised';
}

/** Whether [start, end) sits inside an address: a dot and a label, an @ or a slash joined to it. */
function inAddress(text: string, start: number, end: number): boolean {
  const after = text.slice(end, end + 2);
  const before = text[start - 1] ?? '';
  return (
    /^[.@][\p{L}\p{N}]/u.test(after) || after[0] === '/' || before === '@' || before === '/' || (before === '.' && /[\p{L}\p{N}]/u.test(text[start - 2] ?? ''))
  );
}

/** Whether the answer uses no capital letter at all (cached on the folded text). */
function lowerCaseAnswer(ft: FoldedText): boolean {
  const cache = ft as FoldedText & { lowerCase?: boolean };
  cache.lowerCase ??= ft.text === ft.text.toLowerCase();
  return cache.lowerCase;
}

interface Spelling extends NameVariant {
  /**
   * An everyday word of the answer's language (see MatcherOptions.language): 'lower' drops the
   * lower-case occurrences; 'initial' (the most frequent words) also holds back sentence-initial ones.
   */
  everyday: Everyday | null;
  /**
   * Set on the spelling of an Arabic name with the article (المراعي) without its alif: after the
   * preposition ل the article's alif is not written (لل: وللمراعي "and to Almarai").
   */
  lamElided?: boolean;
  /** Set when the spelling dictionary, not the frequency list, made the name an everyday word. */
  lexicon?: 'dictionary';
  /** Set on a stem spelling: which whole words starting with it are the name (src/text/morphology.ts). */
  inflection?: Inflection;
  /** The name's own folded spelling of a stem spelling (that word is the exact match's). */
  whole?: string;
  /**
   * Set on a `declined_last_word` spelling read as a genitive (German, Dutch, Scandinavian -s): the
   * possessed word must follow ("Albert Heijns huismerk"); before a comma or stop the -s is a
   * plural or another name ("Holiday Parks.", "Bart Smits, de trainer").
   */
  possessive?: boolean;
  /**
   * `declined_first_word`: the rest of a name of several words after a declined first word
   * (" джинс" of "Глория Джинс": "в Глории Джинс"), folded with its leading space, and the rest's
   * own inflection when it is one word that declines too ("Детский мир" → "в Детском мире").
   */
  rest?: { text: string; inflection: Inflection | null };
  /**
   * `contracted_article` (round eight): the spelling of a name opening with a definite article
   * without it (" Bon Marché" of "Le Bon Marché"), matched only right after a preposition
   * contracted with that article (`au Bon Marché`, `del Corte Inglés`): the words allowed before.
   */
  contractedAfter?: ReadonlySet<string>;
}

/**
 * The prepositions written in one word with a definite article, by language and article (round
 * eight): a name opening with the article loses it there ("Le Bon Marché" → "au Bon Marché",
 * "El Corte Inglés" → "del Corte Inglés", "Il Sole 24 Ore" → "sul Sole 24 Ore", "O Boticário" →
 * "no Boticário"). From the grammars of French, Spanish, Italian and Portuguese.
 */
const CONTRACTED_ARTICLES: Record<string, Record<string, readonly string[]>> = {
  fr: { le: ['au', 'du'], les: ['aux', 'des'] },
  es: { el: ['al', 'del'] },
  it: {
    il: ['al', 'del', 'nel', 'sul', 'dal', 'col'],
    lo: ['allo', 'dello', 'nello', 'sullo', 'dallo'],
    la: ['alla', 'della', 'nella', 'sulla', 'dalla'],
    i: ['ai', 'dei', 'nei', 'sui', 'dai'],
  },
  pt: { o: ['ao', 'do', 'no', 'pelo'], a: ['à', 'da', 'na', 'pela'], os: ['aos', 'dos', 'nos', 'pelos'], as: ['às', 'das', 'nas', 'pelas'] },
};

/**
 * Words up to this frequency rank are common enough to open sentences as ordinary words ("You
 * can…", "Zoom into…"); rarer ones ("Notion", rank 7727 in English; "Telefónica", 6054 in Spanish)
 * at a sentence start are names unless the answer also uses the word as a word.
 */
const INITIAL_RULE_RANK = 5000;

/** The most frequent words of a subtitle list are closed-class words (English: "you" 15, "go" 123). */
const FUNCTION_WORD_RANK = 200;

/**
 * Matchers by name, aliases and language, the oldest evicted first: a matcher is pure, and every
 * probe of a run builds the same ones (the target, each competitor), which cost more than
 * matching a typical answer.
 */
const matchers = new Map<string, EntityMatcher>();
const MATCHER_CACHE_SIZE = 1024;

/** Whole-word matcher for a name plus its generated variants and explicit aliases. */
export function createEntityMatcher(name: string, aliases: string[] = [], opts: MatcherOptions = {}): EntityMatcher {
  const key = JSON.stringify([name, aliases, opts.language ?? null]);
  const known = matchers.get(key);
  if (known) return known;
  const matcher = buildEntityMatcher(name, aliases, opts);
  matchers.set(key, matcher);
  if (matchers.size > MATCHER_CACHE_SIZE) matchers.delete(matchers.keys().next().value!);
  return matcher;
}

const ARABIC_LETTER = /\p{Script=Arabic}/u;
/** The Hebrew letters (alef to tav, final forms included), not its points or punctuation. */
const HEBREW_LETTER = /[\u05D0-\u05EA]/u;
/**
 * The Hebrew prefixes written on a word, in their order (round ten): the conjunction ו, the
 * relative ש or כש, one preposition of ב כ ל מ; at least one. The article ה is left out (see
 * hebrewPrefixed). Source: the prefix letters of Hebrew grammar, "מ ש ה ו כ ל ב".
 */
const HEBREW_PREFIXES = /^(?=.)ו?(?:ש|כש)?[בכלמ]?$/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /\p{Script=Han}/u;
/** Katakana and the prolonged sound mark (ー is Script=Common). */
const KATAKANA_RUN = /^[\u30A0-\u30FF\u31F0-\u31FF\uFF66-\uFF9F]+/u;

/** The original text right after `end` in one script: a Korean particle or a katakana noun candidate. */
function runAfter(text: string, end: number, script: RegExp, max: number): string {
  let k = end;
  while (k < text.length && k - end < max && script.test(text[k]!)) k++;
  return text.slice(end, k);
}

function buildEntityMatcher(name: string, aliases: string[], opts: MatcherOptions): EntityMatcher {
  const byText = new Map<string, NameVariant>();
  for (const v of [name, ...aliases].flatMap(nameVariants)) {
    const known = byText.get(v.text);
    if (!known || (known.capitals && !v.capitals)) byText.set(v.text, v);
  }
  const language = opts.language !== undefined ? primaryLanguage(opts.language) : undefined;
  // Everyday-word names: the name (and the name without its legal form) as one word of the language.
  const everyday = new Map<string, Everyday>();
  // The everyday-word names only the spelling dictionary holds (see dictionaryWord).
  const fromDictionary = new Set<string>();
  const stems: Spelling[] = [];
  const brandLower = new Set<string>();
  if (language !== undefined) {
    for (const n of [name, withoutLegalForm(name), ...aliases]) {
      const word = n?.trim();
      if (!word || !/^\p{L}+$/u.test(word)) continue;
      brandLower.add(lowerFor(language, word));
      const inflection = inflectionFor(word, language);
      if (inflection) {
        const text = foldName(inflection.stem);
        if (text) stems.push({ text, everyday: null, inflection, whole: foldName(word) });
      }
      if (n === name || n === withoutLegalForm(name)) {
        if (word.toUpperCase() === word.toLowerCase()) continue;
        const rank = everydayWordRank(word, opts.language!);
        if (rank !== null) everyday.set(foldName(word), rank <= INITIAL_RULE_RANK ? 'initial' : 'lower');
        else if (!NAMES_IN_DICTIONARY.has(language) && dictionaryWord(word, language)) {
          // `dictionary_word`: a word the frequency list misses but the spelling dictionary holds
          // ("compass", "светофор", "mrówka") is a rare everyday word: its lower-case uses are the
          // word, and at a sentence start it is the name only weakly (a judge reads it).
          everyday.set(foldName(word), 'lower');
          fromDictionary.add(foldName(word));
        }
      }
    }
  }
  // Longest first, so at one start position the longest spelling wins.
  const spellings: Spelling[] = [...byText.values()]
    .sort((a, b) => b.text.length - a.text.length)
    .map((v) => {
      const kind = v.capitals ? null : (everyday.get(v.text) ?? null);
      return { ...v, everyday: kind, ...(kind && fromDictionary.has(v.text) ? { lexicon: 'dictionary' as const } : {}) };
    });
  const variants = spellings.map((v) => v.text);
  for (const s of stems) s.everyday = s.whole !== undefined ? (everyday.get(s.whole) ?? null) : null;
  // An Arabic name with the article: after the preposition ل (alone or after و or ف) it is written
  // without the article's alif (ل + المراعي → للمراعي).
  // `declined_first_word`: in the Slavic languages a name of two or three words declines on its
  // first word (and a declinable last word), while a foreign tail stays as written ("в Глории
  // Джинс", "w Żabce Nano", "v Kauflandu Praha" read alike).
  if (language !== undefined && DECLINES_FIRST_WORD.has(language)) {
    const words = (withoutLegalForm(name) ?? name).trim().split(/[ \t]+/u);
    if (words.length >= 2 && words.length <= 3 && words.every((w) => /^\p{L}+$/u.test(w))) {
      const inflection = inflectionFor(words[0]!, language);
      const restText = foldName(words.slice(1).join(' '));
      if (inflection && restText) {
        const last = words.length === 2 ? inflectionFor(words[1]!, language) : null;
        stems.push({
          text: foldName(inflection.stem),
          everyday: null,
          inflection,
          whole: foldName(words[0]!),
          rest: { text: ` ${restText}`, inflection: last },
        });
      }
    }
  }
  // `hyphenated_last_word` (round eight): a hyphenated name declines on its last part in the
  // Slavic languages and Finnish ("Альфа-Банк" → "в Альфа-Банке", "Coca-Cola" → "Coca-Coli").
  if (language !== undefined && (DECLINES_FIRST_WORD.has(language) || language === 'fi')) {
    const hyphenated = /^(\p{L}+-)(\p{L}+)$/u.exec((withoutLegalForm(name) ?? name).trim());
    const last = hyphenated ? inflectionFor(hyphenated[2]!, language) : null;
    if (hyphenated && last) {
      const head = lowerFor(language, hyphenated[1]!);
      const text = foldName(hyphenated[1]! + last.stem);
      if (text)
        stems.push({
          text,
          everyday: null,
          inflection: { stem: head + last.stem, accepts: (word) => word.startsWith(head) && last.accepts(word.slice(head.length)) },
          whole: foldName(hyphenated[0]),
        });
    }
  }
  // `declined_last_word` (round ten): Hungarian writes its case endings on the last word of a name
  // of several words ("Túró Rudi" → "Túró Rudit", "Túró Rudival"), and German, Dutch, Swedish,
  // Danish and Norwegian write the genitive -s there ("Novo Nordisks aktie", "Albert Heijns
  // huismerk"), as on a name of one word; the words before it stay as written. In the Slavic
  // languages a name of two words whose first word does not decline (a foreign or short word,
  // which `declined_first_word` cannot start from) declines on its last ("Fio banka" → "ve Fio
  // bance", "Fio bankou").
  const lastWords = (withoutLegalForm(name) ?? name).trim().split(/[ \t]+/u);
  const slavicFixedFirst =
    language !== undefined && DECLINES_FIRST_WORD.has(language) && lastWords.length === 2 && inflectionFor(lastWords[0]!, language) === null;
  if (language !== undefined && (slavicFixedFirst || language === 'hu' || language === 'de' || language === 'nl' || SCANDINAVIAN_GENITIVE.has(language))) {
    const words = lastWords;
    const last = words.length >= 2 && words.length <= 3 && words.every((w) => /^\p{L}+$/u.test(w)) ? inflectionFor(words.at(-1)!, language) : null;
    if (last) {
      const head = `${words.slice(0, -1).join(' ')} `;
      const headPlain = lowerFor(language, head).normalize('NFKD').replace(/\p{M}/gu, '');
      const text = foldName(head + last.stem);
      if (text)
        stems.push({
          text,
          everyday: null,
          ...(language === 'hu' || slavicFixedFirst ? {} : { possessive: true }),
          inflection: {
            stem: lowerFor(language, head) + last.stem,
            accepts: (word) => {
              const spaced = word.replace(/\s+/gu, ' ');
              const rest = spaced.slice(head.length);
              return (
                rest !== '' && !rest.includes(' ') && spaced.slice(0, head.length).normalize('NFKD').replace(/\p{M}/gu, '') === headPlain && last.accepts(rest)
              );
            },
          },
          whole: foldName((withoutLegalForm(name) ?? name).trim()),
        });
    }
  }
  // `contracted_article` (see CONTRACTED_ARTICLES).
  if (language !== undefined && CONTRACTED_ARTICLES[language] !== undefined) {
    const opening = /^(\p{L}+)[ \t]+(\p{L}.*)$/u.exec(name.trim());
    const after = opening ? CONTRACTED_ARTICLES[language]![opening[1]!.toLowerCase()] : undefined;
    const text = opening && after ? foldName(opening[2]!) : '';
    if (after && text) stems.push({ text, everyday: null, contractedAfter: new Set(after) });
  }
  const definiteArabic = language === 'ar' ? /^ال\p{L}{2,}$/u.exec(name.trim()) : null;
  if (definiteArabic) stems.push({ text: foldName(name.trim().slice(1)), everyday: null, lamElided: true });
  const all = [...spellings, ...stems];
  // A one-word name written with an initial capital ("Puma", not "eBay" or "monday.com").
  const capitalName = language !== undefined && /^\p{Lu}\p{L}*$/u.test((withoutLegalForm(name) ?? name).trim());
  // A name of several words, each written with an initial capital ("Mulino Bianco", "Whole Foods"):
  // written all in lower case in an answer that capitalises, it is the ordinary phrase.
  // Round eight (`lower_case_phrase`): a name of several words whose first word alone is
  // capitalised, as Russian and Polish write them ("Домик в деревне", "Детский мир"), written all
  // in lower case inside a sentence is the phrase too ("снимаем домик в деревне").
  const firstCapitalPhrase =
    language !== undefined && /^\p{Lu}\p{Ll}+(?:[ ]\p{Ll}+)+$/u.test((withoutLegalForm(name) ?? name).trim()) && DECLINES_FIRST_WORD.has(language);
  const capitalPhrase =
    firstCapitalPhrase ||
    (language !== undefined &&
      /^\p{Lu}\p{L}*(?:[ -]\p{L}+)*[ -]\p{Lu}\p{L}*$/u.test((withoutLegalForm(name) ?? name).trim()) &&
      (withoutLegalForm(name) ?? name)
        .trim()
        .split(/[ -]/)
        .filter((w) => [...w].length > 3)
        .every((w) => isUpper(w[0]!)));
  // Round nine (`lower_case_phrase`, mixed): the words of a name in capitalised words that keep
  // their capital (four letters or more, after the first word): one written in lower case makes
  // the phrase ("A Canada goose", "The north face of the Eiger", "La casera nos ha subido…").
  const phraseWords = (withoutLegalForm(name) ?? name).trim().split(/[ -]/u);
  const phraseCapitals = capitalPhrase && !firstCapitalPhrase ? phraseWords.flatMap((w, i) => (i > 0 && [...w].length > 3 ? [i] : [])) : [];
  // The name is itself a word of the language: its attached forms are only weakly the name.
  const bareName = (withoutLegalForm(name) ?? name).trim();
  const nameIsEveryday =
    language !== undefined &&
    /^\p{L}+$/u.test(bareName) &&
    (everydayWordRank(bareName, language, { anyCase: true }) !== null || (!NAMES_IN_DICTIONARY.has(language) && dictionaryWord(bareName, language)));
  // A German name that is a German noun: capitals are no sign of a name in German (see germanNounAfterArticle).
  const germanNoun =
    language === 'de' && capitalName
      ? (germanNounGender(bareName) ?? germanCompoundGender(bareName, (infinitive) => everydayWordRank(infinitive, 'de') !== null))
      : undefined;
  // One of the language's 200 most frequent words: pronouns, determiners, auxiliaries ("You can…"),
  // which open sentences as subjects themselves, so a verb after them says nothing of a name.
  const functionWord = language !== undefined && (everydayWordRank(bareName, language) ?? Number.POSITIVE_INFINITY) <= FUNCTION_WORD_RANK;
  // One of those in a script without capitals (하나 "one", 이것): nothing in the spelling can make it a name.
  const caselessFunctionWord = functionWord && bareName.toLowerCase() === bareName.toUpperCase();
  // A Japanese name written in kanji only (明治, 日清, 楽天).
  const hanName = language === 'ja' && /^\p{Script=Han}+$/u.test(bareName);
  // A capitalised one-word name the spelling dictionary lists only as a name ("Lech", "Alan"):
  // a given name or a place, which a surname after it makes a person's (see surnameAfter).
  const givenName = capitalName && dictionaryNameOnly(bareName, language!);
  // Round nine: a capitalised one-word name that is a given name (the Moby list: "Tine", "Mercedes",
  // "Stanley"), which "and" and another given name make a person's (see personCue).
  const brandIsGivenName = capitalName && inGivenNames(bareName);
  // Round nine: the name's word is itself a venue or event head ("Marathon", "Cup"; see venueHeadName).
  const nameIsVenueHead = VENUE_HEADS_AFTER.has(bareName.toLowerCase()) || EVENT_HEADS.has(bareName.toLowerCase());
  // An Arabic name with the article (الصافي, الأهلي): after a definite noun it may be its adjective.
  const definiteName = language === 'ar' && /^ال\p{L}{2,}$/u.test(bareName);
  // A short Arabic name (three letters or fewer) is often the tail of a longer word.
  const shortArabic = language === 'ar' && [...bareName].length <= 3;

  /** A letter with a diacritic the name lacks, making an everyday word ("Über" is not "Uber"). */
  function diacriticWord(text: string, start: number, end: number): boolean {
    if (language === undefined) return false;
    const span = text.slice(start, end);
    const marks = span.normalize('NFD').replace(/[^\p{M}]/gu, '').length;
    if (marks === 0) return false;
    const lower = lowerFor(language, span.normalize('NFC'));
    if (brandLower.has(lower)) return false;
    for (const b of brandLower) if (b.normalize('NFD').replace(/[^\p{M}]/gu, '').length >= marks) return false;
    return everydayWordRank(lower, language) !== null || dictionaryWord(lower, language);
  }

  /**
   * Whether the whole word around an attached name is itself an everyday word ("فنون" is "arts",
   * not "ف" + "نون"). In Arabic the frequency list holds many nouns only in their definite form
   * ("الفنون"), so a word whose definite form is listed is a noun too.
   */
  function wordIsEveryday(word: string): boolean {
    if (language === undefined) return false;
    if (everydayWordRank(word, language, { anyCase: true }) !== null) return true;
    return language === 'ar' && !word.startsWith('ال') && everydayWordRank(`ال${word}`, language) !== null;
  }

  // An Arabic name that is an everyday noun (listed itself, in its definite form, or as the
  // singular of a sound feminine plural: طلبات "requests" from طلب, سيارات from سيارة): see inConstruct.
  const arabicNoun =
    language === 'ar' &&
    /^\p{L}+$/u.test(bareName) &&
    (wordIsEveryday(bareName) ||
      (bareName.endsWith('ات') && [...bareName].length >= 5 && (wordIsEveryday(bareName.slice(0, -2)) || wordIsEveryday(`${bareName.slice(0, -2)}ة`))));

  // An Arabic name that is an imperfect verb form: a person prefix (أ ت ي ن) and a stem of three
  // letters or more, where the stem with another person prefix is an everyday word (نمشي / يمشي).
  const arabicVerb =
    language === 'ar' &&
    /^[أتين]\p{L}{3,}$/u.test(bareName) &&
    ['ي', 'ت', 'ن', 'أ'].some((p) => p !== bareName[0] && everydayWordRank(p + bareName.slice(1), 'ar') !== null);

  /**
   * Whether an Arabic everyday-noun name is the first term of a genitive construct: the next word
   * is definite (starts with the article ال, after an optional attached و or ف, which belong to the
   * next clause instead and so end the construct).
   */
  function inConstruct(text: string, stop: number): boolean {
    const after = text.slice(stop, stop + 40);
    // A definite noun with a time adjective after it (الشهر الماضي "last month") is an adverbial
    // of time, not the construct's second term: "من أمنية الشهر الماضي" is "from Umniah last month".
    // A year or month with its number is a second term too: "ربيع عام 2019" is "the spring of 2019".
    if (ARABIC_DATED.test(after)) return true;
    if (/^[ \t]+ال\p{L}/u.test(after)) return !ARABIC_TIME_ADVERBIAL.test(after);
    // A noun with a possessive suffix is definite too: "أمنية حياتي" is "the wish of my life".
    const suffixed = ARABIC_POSSESSED.exec(after);
    if (suffixed === null) return false;
    const stem = suffixed[1]!;
    return wordIsEveryday(stem) || (stem.endsWith('ت') && wordIsEveryday(`${stem.slice(0, -1)}ة`));
  }

  /** An occurrence whose right edge touches more of the word: an attached particle or noun, or null. */
  function attachedRight(ft: FoldedText, at: number, end: number): MentionRule | null {
    const { text, offsets } = ft;
    const o = offsets[end]!;
    const next = text[o] ?? '';
    if (HANGUL.test(next)) {
      const run = runAfter(text, o, HANGUL, 8);
      if (KOREAN_PARTICLES.has(run)) return 'attached';
      return koreanCompound(text.slice(offsets[at]!, o), run, HANGUL.test(text[o + run.length] ?? '')) ? 'attached' : null;
    }
    if (hanName && HAN.test(next) && HAN.test(text[o - 1] ?? '')) {
      // A kanji name written on to a listed noun of two kanji or more (朝日|新聞, 楽天|市場) is
      // the name before its product noun, weakly (the spelling cannot tell it from a compound).
      const run = runAfter(text, o, HAN, 4);
      for (let k = run.length; k >= 2; k--) if (everydayWordRank(run.slice(0, k), language!, { anyCase: true }) !== null) return 'attached';
      return null;
    }
    if (KATAKANA_RUN.test(next) && KATAKANA_RUN.test(text[o - 1] ?? '')) {
      const run = KATAKANA_RUN.exec(text.slice(o, o + 12))![0];
      // The whole run is one word of the language ("オンライン"): the name is only its spelling.
      if (wordIsEveryday(text.slice(offsets[at]!, o) + run)) return null;
      // A katakana name that is no everyday word starts a compound with whatever katakana follows
      // ("ソニーストア", "キリンビール"); one that is a word ("シャープ", "sharp") only with a whole
      // known noun ("イオン|モール", not "シャープ|ペンシル").
      if (nameIsEveryday) return isJapaneseGenericNoun(run) ? 'attached' : null;
      for (let k = run.length; k >= 2; k--) if (isJapaneseGenericNoun(run.slice(0, k))) return 'attached';
      if (run.length >= 2 && o - offsets[at]! >= 3) return 'attached';
    }
    return null;
  }

  /**
   * `korean_compound`: a Korean name written on to a generic noun of two syllables or more, with
   * or without a particle after it (매일|우유를, 다음|카페에), is the name before its product
   * noun, like a katakana name and its noun in one run. Not when the noun repeats the name
   * (매일매일) or the whole word is itself a listed word; weak when the name is an everyday word
   * (the caller), since 다음|주말 is "next weekend".
   */
  function koreanCompound(nameText: string, run: string, runGoesOn: boolean): boolean {
    // Always weak (the caller): Korean writes its own compounds together too (오리온|자리 is "the
    // constellation Orion").
    if (runGoesOn || language !== 'ko') return false;
    for (let k = run.length; k >= 2; k--) {
      const noun = run.slice(0, k);
      const rest = run.slice(k);
      if (rest !== '' && !KOREAN_PARTICLES.has(rest)) continue;
      // A compound the spelling dictionary lists is a word of its own (팔도|강산, "the whole
      // country"), unless its noun is a firm's (삼성|전자, 롯데|제과: the dictionary lists big firms).
      if (noun === nameText || wordIsEveryday(nameText + noun) || (dictionaryWord(nameText + noun, 'ko') && !KOREAN_FIRM_NOUNS.has(noun))) return false;
      // The frequency list, or the spelling dictionary for the nouns it misses (오뚜기|카레를, 남양|유업).
      if (everydayWordRank(noun, 'ko', { anyCase: true }) !== null || dictionaryWord(noun, 'ko')) return true;
    }
    return false;
  }

  /** The katakana run of a match goes on after its end ("シャープ|ペン"). */
  function katakanaContinues(ft: FoldedText, end: number): boolean {
    const { text, offsets } = ft;
    const o = offsets[end]!;
    return o > 0 && o < text.length && KATAKANA_RUN.test(text[o]!) && KATAKANA_RUN.test(text[o - 1]!) && text[o] !== '・';
  }

  /** A katakana name preceded by katakana is the tail of another word ("マイナスイオン" is "negative ion"). */
  function katakanaTail(ft: FoldedText, at: number): boolean {
    const { text, offsets } = ft;
    const o = offsets[at]!;
    return o > 0 && KATAKANA_RUN.test(text[o]!) && KATAKANA_RUN.test(text[o - 1]!) && text[o - 1] !== '・';
  }

  /** An occurrence whose left edge touches more of the word: Arabic proclitics, or null. */
  function attachedLeft(ft: FoldedText, at: number, end: number): boolean {
    const { folded, text, offsets } = ft;
    if (!ARABIC_LETTER.test(folded[at] ?? '')) return false;
    let s = at;
    while (s > 0 && at - s < 3 && ARABIC_LETTER.test(folded[s - 1]!)) s--;
    if (s > 0 && ARABIC_LETTER.test(folded[s - 1]!)) return false;
    if (!leftBoundary(ft, s) || !ARABIC_PROCLITIC.test(folded.slice(s, at))) return false;
    return !wordIsEveryday(text.slice(offsets[s]!, offsets[end]!));
  }

  /**
   * `hebrew_prefix` (round ten): a Hebrew name with the closed class of prefixes written on it
   * (HEBREW_PREFIXES: ו "and", ש/כש "that/when", ב כ ל מ "in, as, to, from", in that order:
   * בשופרסל, ודלק, שבסלקום), read like the Arabic proclitics. Not the article ה, alone or after
   * another prefix (הדלק, מהדלק: "the fuel"): a firm's name takes no article, so the letters are
   * a common noun there. Not when the whole word is itself a listed word. A name that is itself a
   * listed word, or of three letters or fewer (the length of a Hebrew root, so most often another
   * noun: ב + אסם is "in the barn", the preposition swallowing the article), only as the last
   * item of a list, after "and" (פז, סונול ודלק), the coordination that makes the words names.
   * Returns whether the occurrence is attached, and whether weakly.
   */
  function hebrewPrefixed(ft: FoldedText, at: number, end: number): 'attached' | 'weak' | null {
    const { folded, text, offsets } = ft;
    if (!HEBREW_LETTER.test(folded[at] ?? '')) return null;
    let s = at;
    while (s > 0 && at - s < 4 && HEBREW_LETTER.test(folded[s - 1]!)) s--;
    if (s > 0 && HEBREW_LETTER.test(folded[s - 1]!)) return null;
    const prefix = folded.slice(s, at);
    if (!leftBoundary(ft, s) || !HEBREW_PREFIXES.test(prefix)) return null;
    // The prefixed word is read up to the name's first space: מאושר of "אושר עד" is "happy".
    const word = text.slice(offsets[s]!, offsets[end]!);
    if (wordIsEveryday(word) || wordIsEveryday(word.split(/[ \t]/u)[0]!)) return null;
    if (nameIsEveryday || [...bareName].length <= 3) {
      const before = text.slice(Math.max(0, offsets[s]! - 40), offsets[s]!);
      return prefix === 'ו' && /,[ \t]*[^\s,]+[ \t]+$/u.test(before) ? 'weak' : null;
    }
    // Weakly: with no Hebrew word list here, prefix + name may spell an everyday word the lists
    // miss (בדיסקונט "at a discount", ובארומה "and with aroma", בגולן "in the Golan"); a judge
    // confirms it where one is configured.
    return 'weak';
  }

  /**
   * Where the rest of a name of several words ends after its declined first word (folded index),
   * or -1: the rest as written, or its one word declined too; when the first word was not
   * declined, only a declined rest is new (the exact spelling matched the rest as written).
   */
  function restOfName(ft: FoldedText, from: number, rest: { text: string; inflection: Inflection | null }, firstIsWhole: boolean): number {
    const { folded, text, offsets } = ft;
    if (!firstIsWhole && folded.startsWith(rest.text, from) && rightBoundary(ft, from + rest.text.length)) return from + rest.text.length;
    if (rest.inflection === null || folded[from] !== ' ') return -1;
    const stem = foldName(rest.inflection.stem);
    if (!folded.startsWith(stem, from + 1)) return -1;
    const stop = wordEnd(ft, from + 1 + stem.length);
    if (!rightBoundary(ft, stop) || folded.slice(from, stop) === rest.text) return -1;
    return rest.inflection.accepts(lowerFor(language!, text.slice(offsets[from + 1]!, offsets[stop]!))) ? stop : -1;
  }

  /** The end (folded) of the word that starts a stem match, when it runs past the stem. */
  function wordEnd(ft: FoldedText, end: number): number {
    const { folded } = ft;
    let k = end;
    while (k < folded.length && k - end < 12) {
      const cp = folded.codePointAt(k)!;
      if (!blocksBoundary(cp) || cp === UNDERSCORE) break;
      k += cp > 0xffff ? 2 : 1;
    }
    return k;
  }

  function decide(ft: FoldedText): MentionDecisions {
    const { folded, offsets, text } = ft;
    const hits: {
      start: number;
      end: number;
      rule: MentionRule | 'initial';
      everyday: Everyday | null;
      weak: boolean;
      /** At a sentence start and read as a verb (imperative) or as a subject (a verb follows). */
      reading?: 'verb' | 'subject';
      lexicon?: 'dictionary';
    }[] = [];
    const rejected: MentionSpan[] = [];
    let named = false;
    let usedAsWord = false;
    for (const spelling of all) {
      const { text: v, capitals, inflection } = spelling;
      // indexOf is linear per variant: no regex, so no catastrophic backtracking.
      let from = 0;
      for (;;) {
        const at = folded.indexOf(v, from);
        if (at < 0) break;
        from = at + 1;
        let end = at + v.length;
        let rule: MentionRule = 'exact';
        let weak = false;
        if (spelling.contractedAfter) {
          if (!leftBoundary(ft, at) || !rightBoundary(ft, end)) continue;
          const before = wordsBefore(text, offsets[at]!, 1)[0];
          if (before === undefined || !spelling.contractedAfter.has(before.toLowerCase())) continue;
          rule = 'inflected';
        } else if (spelling.lamElided) {
          // The preposition ل (after an optional و or ف) on a word starting the name's article.
          const lam = folded[at - 1] === 'ل' ? (folded[at - 2] === 'و' || folded[at - 2] === 'ف' ? at - 2 : at - 1) : -1;
          if (lam < 0 || !leftBoundary(ft, lam) || !rightBoundary(ft, end)) continue;
          rule = 'attached';
        } else if (inflection) {
          if (!leftBoundary(ft, at)) continue;
          const stop = wordEnd(ft, end);
          if (stop === end && v === spelling.whole) continue;
          if (!rightBoundary(ft, stop)) continue;
          const firstIsWhole = folded.slice(at, stop) === spelling.whole;
          if (firstIsWhole && spelling.rest === undefined) continue; // the exact spelling's match
          if (!firstIsWhole && !inflection.accepts(lowerFor(language!, text.slice(offsets[at]!, offsets[stop]!)))) continue;
          if (spelling.possessive && !/^[ \t]+\p{L}/u.test(text.slice(offsets[stop] ?? text.length, (offsets[stop] ?? text.length) + 2))) continue;
          if (language === 'el' && greekFeminineForm(bareName, text.slice(offsets[at]!, offsets[stop]!), wordsBefore(text, offsets[at]!, 1)[0])) continue;
          end = stop;
          if (spelling.rest !== undefined) {
            const restEnd = restOfName(ft, stop, spelling.rest, firstIsWhole);
            if (restEnd < 0) continue;
            end = restEnd;
          }
          rule = 'inflected';
        } else {
          let left = leftBoundary(ft, at);
          if (!left && language !== undefined && attachedLeft(ft, at, end)) {
            left = true;
            rule = 'attached';
            weak = nameIsEveryday || shortArabic;
          }
          if (!left && language === 'he') {
            const prefixed = hebrewPrefixed(ft, at, end);
            if (prefixed !== null) {
              left = true;
              rule = 'attached';
              weak = prefixed === 'weak' || nameIsEveryday;
            }
          }
          // Chinese: the segmenter may join a one-character preposition or coverb to the name's first
          // character (在京|东 for 在|京东, "at JD"); a reader splits after the coverb.
          if (!left && language === 'zh' && CHINESE_COVERBS.has(folded[at - 1] ?? '') && leftBoundary(ft, at - 1)) left = true;
          if (!left || (language !== undefined && katakanaTail(ft, at))) continue;
          // Inside a katakana run the segmenter's split is not the word's: the run decides (attachedRight).
          if (!rightBoundary(ft, end) || (language !== undefined && katakanaContinues(ft, end))) {
            // Round nine (`product_model`): a name in a script without spaces followed straight by a
            // model in Latin letters or digits (理想L7, 一加12, 大疆Mini) is the brand and its model.
            const model = language !== undefined && modelAfter(text, offsets[end]!);
            const attached = model ? 'attached' : language !== undefined ? attachedRight(ft, at, end) : null;
            if (!attached) continue;
            rule = 'attached';
            weak ||= model
              ? nameIsEveryday
              : nameIsEveryday || hanName || (language === 'ko' && !KOREAN_PARTICLES.has(runAfter(text, offsets[end]!, HANGUL, 8)));
          }
          if (capitals && !capitalized(ft, at, capitals)) continue;
        }
        const start = offsets[at]!;
        const stop = offsets[end]!;
        if (language !== undefined) {
          if (
            (rule !== 'inflected' && diacriticWord(text, start, stop)) ||
            (language === 'ja' && JAPANESE_DERIVATIONAL_AFTER.test(text.slice(stop, stop + 2)))
          ) {
            rejected.push({ start, end: stop, rule: 'everyday_word_rejected' });
            continue;
          }
          if (language === 'en' && text[stop] !== undefined && APOSTROPHE_AFTER.has(text[stop]!) && possessedKin(text, stop)) {
            // Round nine (`person_cue`): "X's sister", "X's husband": a person's kin.
            usedAsWord = true;
            rejected.push({ start, end: stop, rule: 'person_cue', weak: true });
            continue;
          }
          if (!inCapitals(text.slice(start, stop)) && nameSignal(text, start, stop) !== 'possessive') {
            const grammar = placeReading(text, start, stop, language)
              ? 'place_name'
              : otherNameReading(text, start, stop, language)
                ? 'other_name'
                : (givenName || brandIsGivenName) && rule === 'exact' && surnameAfter(text, start, stop, language, brandIsGivenName)
                  ? 'person_name'
                  : givenNameBefore(text, start, stop, language)
                    ? 'given_name_before'
                    : personCue(text, start, stop, language)
                      ? 'person_cue'
                      : venueReading(text, start, stop, language, nameIsVenueHead, brandIsGivenName)
                        ? 'named_place_or_venue'
                        : mythContext(text, start, stop, language)
                          ? 'myth_or_legend'
                          : countedReading(text, start, stop, language)
                            ? 'counted_noun'
                            : caselessFunctionWord && !isListLabel(text, stop)
                              ? 'everyday_word_rejected'
                              : (wordClassReading(text, start, stop, language, definiteName || (arabicNoun && rule === 'exact'), nameIsEveryday) ??
                                chineseWordReading(text, start, stop, language, nameIsEveryday));
            if (grammar !== null) {
              usedAsWord = true;
              rejected.push({ start, end: stop, rule: grammar, weak: true });
              continue;
            }
          }
        }
        let decided: MentionRule | 'initial' = rule;
        // `address_not_word`: a lower-case occurrence inside an address (acme.com, hi@acme.io,
        // /acme/) is neither prose nor the everyday word: it says nothing of how the answer uses
        // the word (the analysis reads addresses as citations, src/text/links.ts).
        if (isLower(text[start]!) && inAddress(text, start, stop)) continue;
        if ((capitalName || capitalPhrase) && isLower(text[start]!) && !lowerCaseAnswer(ft)) {
          // A capitalised name written in lower case in an answer that capitalises: the everyday
          // word ("a puma", "cut them some slack", "на магните"), not the name.
          usedAsWord = true;
          rejected.push({ start, end: stop, rule: 'everyday_word_rejected' });
          continue;
        }
        if (phraseCapitals.length > 0 && rule === 'exact' && !lowerCaseAnswer(ft)) {
          const parts = text.slice(start, stop).split(/[\s-]+/u);
          if (parts.length === phraseWords.length && phraseCapitals.some((i) => isLower(parts[i]![0]!))) {
            usedAsWord = true;
            rejected.push({ start, end: stop, rule: 'everyday_word_rejected', weak: true });
            continue;
          }
        }
        if (arabicVerb && rule === 'exact' && position(text, start).initial) {
          usedAsWord = true;
          rejected.push({ start, end: stop, rule: 'verb_at_sentence_start', weak: true });
          continue;
        }
        if (arabicNoun && (rule === 'exact' || rule === 'attached') && inConstruct(text, stop)) {
          usedAsWord = true;
          rejected.push({ start, end: stop, rule: 'noun_in_construct', weak: true });
          continue;
        }
        if (
          germanNoun !== undefined &&
          rule === 'exact' &&
          !inCapitals(text.slice(start, stop)) &&
          nameSignal(text, start, stop) === null &&
          germanNounAfterArticle(text, start, germanNoun)
        ) {
          usedAsWord = true;
          rejected.push({ start, end: stop, rule: 'noun_after_article', weak: true });
          continue;
        }
        let reading: 'verb' | 'subject' | undefined;
        // Which word list made the name an everyday word, recorded where that decided.
        const lexicon = spelling.lexicon ? { lexicon: spelling.lexicon } : {};
        if (
          capitalName &&
          rule === 'exact' &&
          (language === 'en' || (spelling.everyday === 'initial' && SUBJECT_VERBS[language!] !== undefined)) &&
          !isLower(text[start]!) &&
          !inCapitals(text.slice(start, stop)) &&
          nameSignal(text, start, stop) === null
        ) {
          const at0 = position(text, start);
          const next = at0.initial && !at0.emphasised ? nextWord(text, stop) : null;
          if (next !== null && language === 'en' && ENGLISH_IMPERATIVE_NEXT.has(next)) reading = 'verb';
          else if (
            next !== null &&
            spelling.everyday === 'initial' &&
            !functionWord &&
            (SUBJECT_VERBS[language!]?.has(next) || (language === 'en' && englishVerbWithObject(text, stop)))
          )
            reading = 'subject';
        }
        if (reading === 'verb') {
          // Decided once the whole answer is read: the verb unless the answer names it elsewhere.
          hits.push({ start: at, end, rule: 'initial', everyday: spelling.everyday, weak: true, reading, ...lexicon });
          continue;
        }
        if (rule === 'exact' && spelling.everyday && isUpper(text[start]!) && firmClassified(text, start, stop, language!)) {
          // `classified_as_firm`: a sentence that classes the word as a firm, a brand or a product
          // ("Apple is a technology company", "Corona es una cerveza mexicana") names it.
          named = true;
          hits.push({ start: at, end, rule: 'classified_as_firm', everyday: spelling.everyday, weak: false, ...lexicon });
          continue;
        }
        if (rule === 'exact' && nameIsEveryday && !isLower(text[start]!) && !isUpper(text[start]!)) {
          // A script without capitals gives no sign either way: the spelling decides, weakly.
          weak = true;
        } else if (rule === 'exact' && spelling.everyday) {
          if (
            isLower(text[start]!) &&
            lowerCaseAnswer(ft) &&
            INDEFINITE_ARTICLES[language!]?.has(wordBefore(text, start) ?? '') &&
            endsNounPhrase(text, stop, language!)
          ) {
            // In an answer written in lower case, an everyday word after an indefinite article is
            // the common noun ("een bever bij de rivier", "a jaguar"): a brand takes no article.
            // Not before another noun, where the article is the product's ("a zoom call", "a
            // notion page" name the brand).
            usedAsWord = true;
            rejected.push({ start, end: stop, rule: 'noun_after_article', weak: true, ...lexicon });
            continue;
          }
          const how = classifyEveryday(ft, start, stop, spelling.everyday);
          if (how === 'no') {
            usedAsWord = true;
            rejected.push({ start, end: stop, rule: 'everyday_word_rejected', ...lexicon });
            continue;
          }
          decided = how === 'initial' ? 'initial' : rule === 'exact' ? how : rule;
          if (how === 'lower_case_answer') weak = true;
        }
        // A kanji name written straight on to more kanji may be the first part of a longer word
        // (明治時代 "the Meiji era", 日清戦争) or the name before a product noun (楽天市場): the
        // spelling cannot tell, and neither the frequency list nor a dictionary analyzer holds the
        // compounds, so the decision is weak and a judge reads it.
        if (hanName && rule === 'exact' && HAN.test(text[stop] ?? '')) weak = true;
        if (decided !== 'initial' && !weak) named = true;
        hits.push({ start: at, end, rule: decided, everyday: spelling.everyday, weak, ...(reading ? { reading } : {}), ...lexicon });
      }
    }
    hits.sort((a, b) => a.start - b.start || b.end - a.end);
    const lex = (h: { lexicon?: 'dictionary' }) => (h.lexicon ? { lexicon: h.lexicon } : {});
    const spans: MentionSpan[] = [];
    let lastEnd = -1;
    for (const h of hits) {
      if (h.start < lastEnd) continue;
      let rule = h.rule;
      if (rule === 'initial') {
        // A sentence-initial everyday word is the name when the answer names it elsewhere, or,
        // for a rarer word, when the answer never uses it as the word.
        if (named) rule = 'sentence_start';
        else if (h.reading === 'verb') {
          // An English word opening a sentence with its object or particle after it is the verb
          // ("Ramp up your training"), unless the answer names it elsewhere.
          rejected.push({ start: offsets[h.start]!, end: offsets[h.end]!, rule: 'verb_at_sentence_start', weak: true, ...lex(h) });
          continue;
        } else if ((h.everyday === 'lower' || h.reading === 'subject') && !usedAsWord) {
          rule = 'sentence_start';
          h.weak = true;
        } else {
          rejected.push({ start: offsets[h.start]!, end: offsets[h.end]!, rule: 'everyday_word_rejected', weak: true, ...lex(h) });
          continue;
        }
      }
      lastEnd = h.end;
      spans.push({ start: offsets[h.start]!, end: offsets[h.end]!, rule, ...(h.weak ? { weak: true } : {}), ...lex(h) });
    }
    rejected.sort((a, b) => a.start - b.start);
    return { spans, rejected };
  }

  const findSpans = (ft: FoldedText) => decide(ft).spans;
  const findFolded = (ft: FoldedText) => findSpans(ft).map((h) => h.start);
  return {
    variants,
    findFolded,
    findSpans,
    decide,
    find: (text: string) => findFolded(foldText(text)),
  };
}

/** A year, month or day noun and its number: the second term of a construct of time (ربيع عام 2019). */
const ARABIC_DATED = /^[ \t]+(?:عام|سنة|شهر|يوم)[ \t]+[0-9٠-٩]/u;

/** A noun of three letters or more with a possessive suffix (my, your, his, her, our, their), alone. */
const ARABIC_POSSESSED = /^[ \t]+(\p{Script=Arabic}{3,}?)(?:ي|ك|ه|ها|نا|هم|كم|هن)(?![\p{L}])/u;

/** A definite Arabic word (the article and two letters or more) right before a position. */
const ARABIC_DEFINITE_BEFORE = /(?:^|[\s،,])ال\p{Script=Arabic}{2,}[ \t]+$/u;
/** A definite elative (الأفضل, الأسرع, الأكبر: the article, alif with hamza and three letters) right before. */
const ARABIC_ELATIVE_BEFORE = /(?:^|[\s،,])الأ\p{Script=Arabic}{2}[ىاي]?\p{Script=Arabic}?[ \t]+$/u;

/** A definite noun followed by a time adjective (الشهر الماضي, العام المقبل): an adverbial of time. */
const ARABIC_TIME_ADVERBIAL = /^[ \t]+ال\p{L}+[ \t]+ال(?:ماضي|ماضية|قادم|قادمة|مقبل|مقبلة|حالي|حالية|جاري|جارية|فائت|فائتة)(?!\p{L})/u;

/**
 * Whether the word's class around a name makes it another part of speech than a noun naming a
 * firm (weak rejections):
 * - `adjective_after_noun` (Arabic): a definite name right after a definite noun agrees with it as
 *   its adjective (الماء الصافي "the clear water"); a brand after a noun is the second term of a
 *   construct, whose first term has no article (حليب المراعي "Almarai milk"). A name that is an
 *   everyday word, without the article, after a definite noun is its predicate (العشاء جاهز
 *   "dinner is ready");
 * - `adverbial` (Korean): an everyday-word name before a noun of time is its determiner or an
 *   adverb (다음 주 "next week", 매일 아침 "every morning"); 다음 카페 is still the portal's;
 * - `adverbial` (Chinese): a name followed by the adverbial marker 地 and a verb describes how
 *   something is done (旺旺地叫 "barks woof-woof"), unless 地 starts a listed word (地区, 地方).
 */
function wordClassReading(text: string, start: number, end: number, language: string, adjectival: boolean, everydayName: boolean): MentionRule | null {
  if (language === 'ar') {
    const before = text.slice(Math.max(0, start - 24), start);
    // Not after a definite elative (الأفضل "the best", الأسرع): "الشبكة الأسرع زين" is "the fastest
    // network is Zain", the name as the predicate of a superlative.
    return adjectival && ARABIC_DEFINITE_BEFORE.test(before) && !ARABIC_ELATIVE_BEFORE.test(before) ? 'adjective_after_noun' : null;
  }
  if (language === 'ko') return everydayName && koreanHeadAfter(text, end, KOREAN_TIME_NOUNS) ? 'adverbial' : null;
  if (language === 'zh' && text[end] === '地' && HAN.test(text[end + 1] ?? '') && everydayWordRank(text.slice(end, end + 2), 'zh') === null) return 'adverbial';
  return null;
}

/** Indefinite articles (singular), by language: no brand name takes one. */
const INDEFINITE_ARTICLES: Record<string, ReadonlySet<string>> = {
  en: new Set(['a', 'an']),
  nl: new Set(['een']),
  de: new Set(['ein', 'eine', 'einen', 'einem', 'einer', 'eines']),
  fr: new Set(['un', 'une']),
  es: new Set(['un', 'una']),
  it: new Set(['un', 'una', 'uno']),
  pt: new Set(['um', 'uma']),
  sv: new Set(['en', 'ett']),
  da: new Set(['en', 'et']),
  no: new Set(['en', 'ei', 'et']),
};

/**
 * `person_name`: a name that is a given name (see `givenName`), written with its capital and
 * followed by a capitalised word that is no word of the language in lower case (not in the
 * frequency list, not in the spelling dictionary) but a name the dictionary lists: a surname, so
 * the two name a person ("Lech Wałęsa był prezydentem"). A product's name after a brand is mostly
 * a word ("Lech Premium", "Apple Music") or a name of no dictionary ("Toyota Yaris"), which keep
 * the brand (`product_word`).
 */
/**
 * Nouns of venues, buildings, streets and landscape features that carry a proper name (round
 * eight), per language: such a noun right after the name, capitalised (`Allianz Arena`, `Colgate
 * University`, `Thalia Theater`), or right before it, alone or with "of" (`la basilica di X`, `the
 * University of X`, `Stade X`), makes the name that place's (`named_place_or_venue`). Not park,
 * store, hall or museum, which a firm's own places are called (`Apple Park`, `Porsche Museum`).
 */
const VENUE_NOUNS: Record<string, string> = {
  en: 'university college theatre theater stadium arena cathedral basilica abbey castle palace street avenue square bridge airport valley river lake mountains island islands bay county',
  de: 'universität hochschule theater stadion arena kathedrale dom kirche basilika schloss burg palast straße strasse allee platz brücke flughafen bahnhof tal insel',
  fr: 'université théâtre stade arena aréna cathédrale basilique église abbaye château palais rue avenue boulevard pont aéroport gare vallée île',
  es: 'universidad teatro estadio arena catedral basílica iglesia abadía castillo palacio calle avenida plaza puente aeropuerto valle isla',
  it: 'università teatro stadio arena cattedrale basilica chiesa abbazia castello palazzo piazza ponte aeroporto valle isola duomo',
  pt: 'universidade teatro estádio arena catedral basílica igreja abadia castelo palácio rua avenida praça ponte aeroporto vale ilha',
  nl: 'universiteit hogeschool theater schouwburg stadion arena kathedraal basiliek kerk abdij kasteel paleis straat laan plein brug luchthaven vallei eiland',
  pl: 'uniwersytet politechnika teatr stadion arena katedra bazylika kościół opactwo zamek pałac ulica aleja plac most lotnisko dolina wyspa',
  cs: 'univerzita divadlo stadion aréna katedrála bazilika kostel klášter hrad zámek palác ulice třída náměstí most letiště údolí ostrov',
  ru: 'университет театр стадион арена собор базилика церковь монастырь замок дворец улица проспект площадь мост аэропорт долина остров',
  sv: 'universitet högskola teater stadion arena katedral domkyrka kyrka kloster slott palats gata gatan torg bro flygplats dal',
  tr: 'üniversitesi tiyatrosu stadyumu stadı arena katedrali bazilikası kilisesi sarayı caddesi sokağı meydanı köprüsü havalimanı vadisi adası',
  fi: 'yliopisto teatteri stadion areena katedraali kirkko linna palatsi katu tori silta lentoasema laakso saari',
};
/** "Ancient" in the languages here, in its agreeing forms (not "old": `the old Nokia`). */
const ANCIENT = new Set(
  'ancient antique antiques antiguo antigua antico antica antiga antigo antike antiken antiker antikes starożytny starożytna starożytnej starożytnym starożytnego starověký starověká starověké starověkém starověkého древний древняя древнем древней древнего древнюю antik antika antieke'.split(
    ' ',
  ),
);
const venueSets = new Map<string, ReadonlySet<string>>();

const VENUE_AFTER = /^[ \t](\p{Lu}\p{Ll}+)(?![\p{L}'’-])/u;
/**
 * Round nine: heads that make a named place or event of the capitalised name before them, read
 * after the name only (`Hoover Dam`, `Stanley Cup`, `Tuborg Havn`, `San Pellegrino Terme`, `Boston
 * Marathon`): a dam, a harbour, a hall, a spa, a canyon or falls; a cup, trophy or marathon. In the
 * languages here, capitalised as part of the name. A brand's word that is itself one of these heads
 * after a capitalised word is the head (`venueHeadName`).
 */
const VENUE_HEADS_AFTER = new Set(
  'dam hall harbour harbor canyon falls gorge reservoir talsperre halle hafen therme thermen havn hamn hal terme thermes termas'.split(' '),
);
/**
 * Heads of events (a cup, a trophy, a marathon): read when the brand's word is the head (`the
 * Boston Marathon`, `venueHeadName`), and after a brand that is a given name of the Moby list, as
 * people lend trophies their names (`Stanley Cup`, `Davis Cup`, `Walker Cup`). After another
 * brand they name its sponsored event, a mention of it (`Heineken Cup`, `Carabao Cup`, `Rolex
 * Trophy`, `Orlen Puchar Polski`).
 */
const EVENT_HEADS = new Set('cup trophy marathon pokal coupe copa taça taca coppa beker puchar pohár кубок'.split(' '));
const TURKISH_ANTIK_AFTER = /^[ \t]antik(?![\p{L}])/u;

function venueReading(text: string, start: number, end: number, language: string, nameIsVenueHead: boolean, givenName: boolean): boolean {
  const list = VENUE_NOUNS[language] ?? '';
  let venues = venueSets.get(language);
  if (venues === undefined) {
    venues = new Set(list.split(' ').filter(Boolean));
    venueSets.set(language, venues);
  }
  if (nameIsVenueHead && venueHeadName(text, start, language)) return true;
  // Right after, capitalised, with one space between ("Allianz Arena"; not "Allianz, Arena").
  const space = text[end];
  if (space === ' ' || space === '\t') {
    if (isUpper(text[end + 1] ?? '')) {
      const after = VENUE_AFTER.exec(text.slice(end, end + 24))?.[1]?.toLowerCase();
      if (after !== undefined && (venues.has(after) || VENUE_HEADS_AFTER.has(after) || (givenName && EVENT_HEADS.has(after)))) return true;
    }
    // Turkish "antik" after it: a place of antiquity (`Efes antik kenti`).
    if (language === 'tr' && TURKISH_ANTIK_AFTER.test(text.slice(end, end + 8))) return true;
  }
  const c = text[start - 1];
  if (c !== ' ' && c !== '\t' && c !== "'" && c !== '’') return false;
  const nearest = wordBefore(text, start)?.toLowerCase();
  if (nearest === undefined) return false;
  // "Ancient" before the name: a place of antiquity (`la antigua Iberia`, `ancient Sparta`).
  if (ANCIENT.has(nearest) || venues.has(nearest)) return true;
  if (!EVENT_OF.has(nearest)) return false;
  const before = wordsBefore(text, start, 2);
  return before.length === 2 && venues.has(before[0]!.toLowerCase());
}

/**
 * Words of myth, legend and religion (round eight): a name in the same sentence as one is a god, a
 * hero or a figure of legend (`Dans la mythologie grecque, Hermès est…`, `Według legendy Krakus…`,
 * `No hinduísmo, Brahma é…`), weakly (`myth_or_legend`). Whole words only, and "legend" only in the
 * phrases that tell one (`according to legend`): `a legend among climbers`, `Apex Legends` and "a
 * myth that…" say nothing.
 */
const MYTH_WORDS = new RegExp(
  [
    // mythology (any case: German capitalises its nouns, a sentence its first word)
    '(?<![\\p{L}])(?:[Mm]ytholog(?:y|ie|ies)|[Mm]itolog(?:ía|ia|ie|ii|ią|iji)|[Mm]ytologi(?:e|i|í|n|en|aa|assa)?|мифологи(?:я|и|ей)|міфологі(?:я|ї|єю)|[Mm]itoloji(?:de|si|sinde)?)(?![\\p{L}])',
    // legend only in the phrases that tell one ("according to legend"): "a legend" alone is praise
    '(?<![\\p{L}])(?:according to (?:the )?legend|legend has it|selon la légende|según la leyenda|secondo la leggenda|segundo a lenda|diz a lenda|według legendy|по легенде|podle (?:pověsti|legendy)|der Legende nach|laut (?:der )?Legende|volgens de legende|enligt (?:legenden|sägnen)|efsaneye göre)(?![\\p{L}])',
    // religions whose gods carry names brands take
    '(?<![\\p{L}])(?:[Hh]induism(?:us)?|[Hh]indouisme|[Hh]induismo|[Hh]induísmo|[Hh]induizm|индуизм[ае]?)(?![\\p{L}])',
  ].join('|'),
  'iu',
);

/** Korean demonstratives before a noun: 그 "that", 이 "this", 저 "that over there". */
const KOREAN_DEMONSTRATIVES = new Set(['그', '이', '저']);

/** Fragments one of MYTH_WORDS must contain: a cheap first test, no look-behind at every position. */
const MYTH_HINT =
  /ytholog|itolog|ytologi|ифолог|іфолог|itoloji|egend|égende|eyenda|eggenda|lenda|егенд|ověst|ägne|fsane|ndui|nduí|ndoui|ндуизм|airy ?tale|ärchen|e conte|n conte|l cuento|a fiaba|de fadas|sprookje|baśni|сказк|pohádc|eventyr|i saga|sadussa|masalda/u;

/**
 * Round nine: a fairy tale, in the phrases that place a figure in one ("im Märchen", "in the fairy
 * tale"), read only in the name's clause before it (no comma between): "In the fairy tale the
 * mermaid dies, but Disney changed the ending" names the studio.
 */
const FAIRY_TALE =
  /(?<![\p{L}])(?:in (?:the )?fairy ?tales?|(?<!wie )im Märchen|in (?:dem|einem) Märchen|dans (?:le|un) conte|en el cuento|nella fiaba|no conto de fadas|in het sprookje|w baśni|в сказке|v pohádce|i eventyret|i sagan|i sagaen|sadussa|masalda)(?![\p{L}])/iu;

let mythText: string | null = null;
let mythAnywhere = false;

function mythContext(text: string, start: number, end: number, _language: string): boolean {
  // One scan of the whole answer first (kept for the next brand of the same answer): most have none.
  if (text !== mythText) {
    mythText = text;
    mythAnywhere = MYTH_HINT.test(text) && (MYTH_WORDS.test(text) || FAIRY_TALE.test(text));
  }
  if (!mythAnywhere) return false;
  let a = start;
  while (a > 0 && start - a < 200 && !SENTENCE_END.has(text[a - 1]!) && text[a - 1] !== '\n') a--;
  let b = end;
  while (b < text.length && b - end < 200 && !SENTENCE_END.has(text[b]!) && text[b] !== '\n') b++;
  if (MYTH_WORDS.test(text.slice(a, start)) || MYTH_WORDS.test(text.slice(end, b))) return true;
  let c = start;
  while (c > a && text[c - 1] !== ',' && text[c - 1] !== '،' && text[c - 1] !== '、' && text[c - 1] !== '，') c--;
  return FAIRY_TALE.test(text.slice(c, start));
}


/**
 * `given_name_before` (round eight, a weak rejection): a capitalised given name right before the
 * name (GIVEN_NAMES, folded of its accents, four letters or more: `Nikola Tesla`, `Harrison Ford`,
 * `Tomáš Baťa`, `Nanni Moretti`) makes it a surname, a person's. Not a given name that is also a
 * word of the language in lower case (`Will`, `Dawn`, `Rose`), nor one of three letters (`Der`,
 * `Van` are in the list); nor when a name signal follows (`Walt Disney World`, `Tom Ford's`).
 */
function givenNameBefore(text: string, start: number, end: number, language: string): boolean {
  const space = text[start - 1];
  if ((space !== ' ' && space !== '\t') || !isLower(text[start - 2] ?? '') || !isUpper(text[start]!) || inCapitals(text.slice(start, end))) return false;
  const prev = wordBefore(text, start);
  // Four letters at least: the list's short names are often function words elsewhere ("Der", "Van");
  // (round nine) three when the English dictionary lists it only as a name ("Mel", not "Van").
  if (prev === undefined || !/^\p{Lu}\p{Ll}{2,}$/u.test(prev) || (prev.length === 3 && !dictionaryNameOnly(prev, 'en'))) return false;
  if (!inGivenNames(prev)) return false;
  // The spelling dictionary, where the language has one, tells a word from a name (the frequency
  // lists, from subtitles, are lower-cased and hold names: "harrison"); the list otherwise.
  // A name signal after it keeps the firm: `Walt Disney World`, `Walt Disney Company`, `Tom Ford's`.
  if (nameSignal(text, start, end) !== null) return false;
  // Round nine: without a spelling dictionary, a name the English one lists only with a capital is
  // a name though the subtitle list holds it ("Michael Jordan" in Norwegian; see isWordOfLanguage).
  return !isWordOfLanguage(prev, language);
}

/**
 * Articles and demonstratives of the languages here: one right before a given name and a capitalised
 * word makes them a thing's name (`the Ford Taurus`, `der Mercedes Benz`, `el Mercedes Benz Clase
 * C`), not a person's, who takes none.
 */
const DETERMINERS_BEFORE_NAME = new Set(
  'the a an this that these those der die das den dem des ein eine einen einem einer le la les un une el los las una il lo gli uno o os as um uma het een ett et ei det ten ta to tego tej'.split(
    ' ',
  ),
);
/** After the word read as a surname: a capitalised word or a model number goes on with a product's name (`Ford Everest 2024`, `Mercedes Benz Classe A`). */
const PRODUCT_NAME_GOES_ON = /^[ \t]+(?:\p{Lu}|\p{N})/u;

function surnameAfter(text: string, start: number, end: number, language: string, moby = false): boolean {
  if (!isUpper(text[start]!) || inCapitals(text.slice(start, end))) return false;
  const next = /^ (\p{Lu}\p{Ll}+)(?![\p{L}\p{N}'’-])/u.exec(text.slice(end, end + 32))?.[1];
  if (next === undefined) return false;
  const lower = next.toLowerCase();
  if (moby) {
    // Narrowed after round nine: a determiner before the name, or a capitalised word or a number
    // after the second word, makes the two a product's name (`the Ford Taurus`, `Ford Everest 2024`).
    const determiner = text[start - 1] === ' ' || text[start - 1] === '\t' ? wordBefore(text, start)?.toLowerCase() : undefined;
    if (
      (determiner !== undefined && DETERMINERS_BEFORE_NAME.has(determiner)) ||
      PRODUCT_NAME_GOES_ON.test(text.slice(end + next.length + 1, end + next.length + 9))
    )
      return false;
    // Round nine: a brand whose word is a given name of the Moby list ("Stanley", "Tiffany",
    // "Bernard"), in a language whose dictionary does not list it (or that has none), followed
    // by a capitalised word that is no word of the language nor of English (a model is mostly
    // a word: "Stanley Quencher", "Mercedes Sprinter") but a name the language's dictionary or
    // the English one lists only with a capital: a surname ("Bernard Shaw"). A made-up model
    // name no dictionary knows keeps the brand ("Ford Kuga", "Dacia Sandero").
    if (everydayWordRank(lower, language, { anyCase: true }) !== null || dictionaryWord(lower, language) || dictionaryWord(lower, 'en')) return false;
    return dictionaryNameOnly(next, language) || dictionaryNameOnly(next, 'en');
  }
  // The surname is a name the dictionary knows too (Wałęsa, Turing): a model's made-up name
  // (Toyota Yaris, Nokia Lumia) is none, and brands are capital-only entries as often as people.
  return everydayWordRank(lower, language, { anyCase: true }) === null && !dictionaryWord(lower, language) && dictionaryNameOnly(next, language);
}

/**
 * Whether the noun phrase ends after `end`: punctuation or the end of the text, or a preposition
 * or conjunction ("a lynx in…", "een bever bij…"), not a noun the phrase goes on with ("a notion
 * page"). Closed classes per language (the frequency lists rank nouns among them: "page" is 38th).
 */
function endsNounPhrase(text: string, end: number, language: string): boolean {
  const next = /^[ \t]*(\p{L}+)/u.exec(text.slice(end, end + 24))?.[1];
  return next === undefined || (PHRASE_ENDERS[language]?.has(next) ?? false);
}

/** Prepositions and conjunctions that end a noun phrase before them, by language. */
const PHRASE_ENDERS: Record<string, ReadonlySet<string>> = {
  en: new Set('in at on by near from with and or but to of for under over across into through behind'.split(' ')),
  nl: new Set('bij in op aan met en of van naar onder over door achter'.split(' ')),
  de: new Set('in im an am auf bei mit und oder von vor unter über hinter'.split(' ')),
  fr: new Set('dans à au sur avec et ou de près sous derrière'.split(' ')),
  es: new Set('en a con y o de cerca sobre bajo detrás'.split(' ')),
  it: new Set('in a con e o di da su vicino sotto dietro'.split(' ')),
  pt: new Set('em no na com e ou de perto sobre sob atrás'.split(' ')),
  sv: new Set('i på vid med och eller av från under bakom'.split(' ')),
  da: new Set('i på ved med og eller af fra under bag'.split(' ')),
  no: new Set('i på ved med og eller av fra under bak'.split(' ')),
};

/**
 * Nouns that class a firm or its product, by language: after a copula and an article they make the
 * sentence's subject a brand (`classified_as_firm`). The converse of OTHER_NOUNS and PLACE_NOUNS.
 */
const FIRM_NOUNS: Record<string, ReadonlySet<string>> = {
  en: new Set(
    'company brand firm business retailer manufacturer maker carmaker automaker airline carrier bank insurer operator provider platform app service startup chain supermarket store shop marketplace beer network broker'.split(
      ' ',
    ),
  ),
  es: new Set(
    'empresa marca compañía firma minorista fabricante aerolínea banco aseguradora operador operadora proveedor plataforma aplicación app servicio startup cadena supermercado tienda cerveza red'.split(
      ' ',
    ),
  ),
  fr: new Set(
    'entreprise marque société firme enseigne distributeur fabricant constructeur compagnie banque assureur opérateur fournisseur plateforme application appli service startup chaîne supermarché magasin boutique bière réseau'.split(
      ' ',
    ),
  ),
  de: new Set(
    'unternehmen marke firma konzern händler einzelhändler hersteller autohersteller fluggesellschaft airline bank versicherer anbieter plattform app dienst startup kette supermarkt discounter bier mobilfunkanbieter'.split(
      ' ',
    ),
  ),
  it: new Set(
    'azienda marca società impresa rivenditore produttore compagnia banca assicurazione operatore fornitore piattaforma app applicazione servizio startup catena supermercato negozio birra rete'.split(
      ' ',
    ),
  ),
  pt: new Set(
    'empresa marca companhia firma varejista fabricante montadora banco seguradora operadora provedor plataforma aplicativo app serviço startup rede supermercado loja cerveja'.split(
      ' ',
    ),
  ),
  nl: new Set(
    'bedrijf merk onderneming keten winkelketen retailer fabrikant autofabrikant luchtvaartmaatschappij bank verzekeraar aanbieder provider platform app dienst startup supermarkt winkel webwinkel bier'.split(
      ' ',
    ),
  ),
  pl: new Set(
    'firma firmą marka marką przedsiębiorstwo przedsiębiorstwem sieć siecią producent producentem bank bankiem operator operatorem platforma platformą aplikacja aplikacją sklep sklepem dostawca dostawcą piwo'.split(
      ' ',
    ),
  ),
  ru: new Set(
    'компания компанией бренд марка фирма сеть производитель банк оператор платформа приложение сервис магазин ритейлер авиакомпания пиво'.split(' '),
  ),
  sv: new Set('företag varumärke märke bolag kedja butik tillverkare bank operatör leverantör plattform app tjänst öl'.split(' ')),
  cs: new Set(
    'firma firmou značka značkou společnost společností řetězec řetězcem výrobce výrobcem banka bankou operátor operátorem platforma platformou aplikace obchod obchodem pivo'.split(
      ' ',
    ),
  ),
};

/** English: a copula, then "one of the" or "the world's" (or a country's) and up to four words. */
const ENGLISH_RANKED = /^[ \t]+(?:is|was)[ \t]+(?:one[ \t]+of[ \t]+the|(?:the|an?)[ \t]+\p{L}+['’]s)[ \t]+((?:\p{L}+[ \t]+){0,3}\p{L}+)/u;

/** Languages that write compound nouns as one word, whose head is their last part. */
const COMPOUNDING = new Set(['de', 'nl', 'sv', 'da', 'no']);

/** Classifying sentences of the languages CLASSIFYING lacks (read for firms only). */
const FIRM_CLASSIFYING: Record<string, RegExp> = {
  sv: /^[ \t]+(?:är|var)[ \t]+(?:(?:en|ett)[ \t]+)?((?:\p{Ll}+[ \t]+){0,2}\p{Ll}+)(?![\p{L}'’-])/u,
};

/**
 * `classified_as_firm`: a classifying sentence opening with the name (alone or after a definite
 * article) whose words after the copula and article name a firm or its product ("Delta is an
 * American airline", "Orange est un opérateur", "Окей — сеть гипермаркетов"); "a brand new…" is
 * no brand.
 */
function firmClassified(text: string, start: number, end: number, language: string): boolean {
  const nouns = FIRM_NOUNS[language];
  const classifying = CLASSIFYING[language] ?? FIRM_CLASSIFYING[language];
  if (nouns === undefined || classifying === undefined) return false;
  // Lower-cased: English capitalises the adjectives of nationality ("an American airline").
  const after = text.slice(end, end + 64).toLowerCase();
  // English also ranks the name among firms: "is one of the largest retailers", "is the world's
  // biggest brewer" (a plural, or a possessive between the article and the noun).
  const ranked = language === 'en' ? ENGLISH_RANKED.exec(after)?.[1] : undefined;
  if (ranked !== undefined && ranked.split(/[ \t]+/u).some((w) => nouns.has(w) || nouns.has(w.replace(/(?:ies)$/u, 'y').replace(/(?<!ie)s$/u, '')))) {
    const article = SENTENCE_ARTICLE.exec(text.slice(Math.max(0, start - 5), start));
    return position(text, article ? start - article[0].length : start).initial;
  }
  const words = classifying.exec(after)?.[1]?.split(/[ \t]+/u);
  if (words === undefined) return false;
  // German, Dutch and Swedish write compounds as one word: the firm noun is its head, at the end
  // ("Mobilfunkanbieter", "mobiloperatör").
  const compounds = COMPOUNDING.has(language);
  const firm = (w: string) => nouns.has(w) || (compounds && [...nouns].some((n) => n.length >= 4 && w.length > n.length + 2 && w.endsWith(n)));
  if (!words.some((w, i) => firm(w) && !(w === 'brand' && words[i + 1] === 'new'))) return false;
  const article = SENTENCE_ARTICLE.exec(text.slice(Math.max(0, start - 5), start));
  return position(text, article ? start - article[0].length : start).initial;
}

/**
 * Languages whose spelling dictionary lists proper nouns with nothing to set them apart (Hangul has
 * no capitals: 삼성, 네이버 and 현대 "modern" alike): a name there is no everyday word; the
 * dictionary serves for the nouns written on to a name (`korean_compound`).
 */
const NAMES_IN_DICTIONARY = new Set(['ko']);

/** Korean nouns of a firm's kind that follow its name in one word (삼성전자, 롯데제과, 남양유업). */
const KOREAN_FIRM_NOUNS = new Set(
  '전자 자동차 제과 유업 식품 생명 화재 증권 카드 건설 중공업 전기 통신 물산 그룹 은행 제약 화학 항공 해운 상사 백화점 마트 쇼핑 보험 에너지 제철 철강 정유 모비스 닷컴'.split(
    ' ',
  ),
);

/**
 * Greek: the -α/-η form of a masculine name in -ας/-ης (Νίκας → του Νίκα) after a feminine article
 * (η, της, την, μια) is a woman's name (η Νίκα), not the name declined.
 */
function greekFeminineForm(name: string, word: string, before: string | undefined): boolean {
  if (before === undefined || !GREEK_FEMININE_ARTICLES.has(before.toLowerCase())) return false;
  const n = greekPlain(name);
  return (n.endsWith('ασ') || n.endsWith('ησ')) && greekPlain(word) === n.slice(0, -1);
}
const GREEK_FEMININE_ARTICLES = new Set(['η', 'της', 'την', 'μια', 'μιας']);

/** Swedish, Danish and Norwegian: the genitive -s on a name's last word (`declined_last_word`). */
const SCANDINAVIAN_GENITIVE = new Set(['sv', 'da', 'no', 'nb', 'nn']);

/** Languages whose names of several words decline on the first word (`declined_first_word`). */
const DECLINES_FIRST_WORD = new Set(['ru', 'uk', 'be', 'pl', 'cs']);

const JAPANESE_DERIVATIONAL_AFTER = new RegExp(`^(?:${[...JAPANESE_DERIVATIONAL].join('|')})`, 'u');

/**
 * Round nine, `person_cue` (a weak rejection): the words around the name say a person bears it.
 * Closed classes of the grammar of personal names, per language, hand-written from the languages'
 * forms of address (no brand in them):
 * - a title or form of address right before it (`doctor`, `Dr.`, `Herr`, `pan`, `доктор`, `King`);
 * - an honorific written after it (Japanese `さん`, `様`, `先生`, `氏`; Korean `씨`, `님`; Chinese
 *   `先生`, `女士`, `小姐`; Turkish `Bey`, `Hanım`);
 * - initials before it (`H.C. Ørsted`, `Frank B. Kellogg`), or an initial and a capitalised word
 *   after it (`Hunter S. Thompson`): a person's full name; not the country and era abbreviations
 *   (`U.S.`, `A.D.`);
 * - a person or kinship noun in apposition after it (`Mercedes, mi vecina,`; Arabic `ندى صديقتي`,
 *   a kinship noun with a possessive suffix).
 * Not two given names joined by "and" (`Tine og Ola`): brands that are given names are compared so
 * ("Hilton and Hyatt", "Ford and Lincoln", "Nike and Jordan").
 */
const TITLES: Record<string, string> = {
  en: 'doctor professor mister missus sir lord captain colonel sergeant senator president king queen prince princess emperor empress pope uncle aunt',
  de: 'herr herrn frau fräulein doktor professor könig königin kaiser kaiserin prinz prinzessin fürst fürstin graf gräfin papst',
  fr: 'monsieur madame mademoiselle docteur professeur maître roi reine empereur impératrice prince princesse pape',
  es: 'señor señora señorita don doña doctor doctora profesor profesora rey reina emperador emperatriz príncipe princesa',
  it: 'signor signore signora signorina dottor dottore dottoressa professor professore professoressa re regina imperatore imperatrice principe principessa',
  pt: 'senhor senhora dona doutor doutora professor professora rei rainha imperador imperatriz príncipe princesa',
  nl: 'meneer mevrouw juffrouw dokter professor koning koningin keizer keizerin prins prinses paus',
  pl: 'pan pana panu panem pani panią doktor doktora doktorem profesor profesora król królowa cesarz książę księżniczka papież',
  cs: 'pan pana panu panem paní slečna doktor doktora doktorem profesor profesora král královna císař kníže princ princezna papež',
  ru: 'господин госпожа доктор доктора доктором профессор профессора король королева царь царица император императрица князь княгиня',
  uk: 'пан пана пані доктор доктора професор король королева цар цариця імператор князь княгиня',
  sv: 'herr fru fröken doktor professor kung drottning kejsare prins prinsessa påve',
  da: 'hr herr fru frøken doktor professor kong dronning kejser prins prinsesse pave',
  nb: 'herr fru frøken doktor professor kong dronning keiser prins prinsesse pave',
  fi: 'herra rouva neiti tohtori professori kuningas kuningatar keisari prinssi prinsessa paavi',
};
const titleSets = new Map<string, ReadonlySet<string>>();
function titles(language: string): ReadonlySet<string> | undefined {
  const lang = language === 'no' || language === 'nn' ? 'nb' : language;
  const list = TITLES[lang];
  if (list === undefined) return undefined;
  let set = titleSets.get(lang);
  if (set === undefined) {
    set = new Set(list.split(' '));
    titleSets.set(lang, set);
  }
  return set;
}
/** Abbreviated titles with their dot (Dr., Mr., Mme., Prof., Hr., dr., inż.). */
const TITLE_ABBREVIATION_BEFORE =
  /(?:^|[^\p{L}.])(?:Dr|Mr|Mrs|Ms|Mx|Prof|Hr|Fr|Mme|Mlle|Sr|Sra|Srta|Dra|Dott|Sig|Sig\.ra|dr|prof|inż|mgr|Ing|Mgr|Bc|PhDr|MUDr|JUDr|Ph\.D)\.[ \t]*$/u;
/** One to three initials before the name ("H.C. ", "Frank B. ", "J. R. R. "). */
const INITIALS_BEFORE = /(?:^|[^\p{L}.])((?:\p{Lu}\.[ \t]?){1,3})[ \t]*$/u;
/** Abbreviations of countries and eras written as initials: not a person's. */
const NOT_INITIALS = new Set(['U.S.', 'U.K.', 'E.U.', 'U.N.', 'D.C.', 'A.D.', 'B.C.', 'U.S.A.', 'L.A.', 'N.Y.', 'U.A.E.', 'N.B.', 'P.S.', 'E.G.', 'I.E.']);
/**
 * Words after which initials and a surname are a person's ("by J.K. Farrow"): an author's "by".
 * Elsewhere initials open firms' names as often (`J.P. Morgan`, `L.L. Bean`, `H.J. Heinz Company`).
 */
const INITIALS_AFTER_WORDS = new Set(['by', 'von', 'par', 'por', 'di', 'przez', 'av', 'af', 'van', 'door']);
/** A capitalised word or a firm's legal or business noun after the name ends a firm's name (`J.M. Smucker Company`). */
const FIRM_NAME_GOES_ON = /^[ \t]+(?:\p{Lu}|&)|^,?[ \t]+(?:Co|Corp|Inc|Ltd|LLC|plc|company|co)(?![\p{L}])/u;
/** An initial and a capitalised word after the name: a given name, a middle initial, a surname. */
const INITIAL_AFTER = /^[ \t]\p{Lu}\.[ \t]+\p{Lu}\p{Ll}/u;
const HONORIFIC_AFTER: Record<string, RegExp> = {
  ja: /^(?:さん|さま|様|先生|くん|君|ちゃん|氏|殿)/u,
  ko: /^[ \t]?(?:씨|님|선생님|교수님|박사님)(?![가-힣])|^[ \t]?(?:씨|님)(?:가|는|를|에게|의|도|와|과|께서)/u,
  // Not 老师, 教授, 医生, 师傅 after a name: "学而思老师", "顺丰师傅" are a school's teacher and a
  // courier's driver, the institution's name.
  zh: /^(?:先生|女士|小姐)/u,
  tr: /^[ \t](?:Bey|Hanım|Hoca|Efendi)(?![\p{L}])/u,
};
/** Kinship and companion nouns with an Arabic possessive suffix after the name (ندى صديقتي "Nada, my friend"). */
const ARABIC_APPOSITION_AFTER = /^[ \t]+(?:صديقت|صديق|أخت|أخ|زوجت|زوج|جارت|جار|ابنت|ابن|زميلت|زميل|خالت|عمت|أم|أب|جد|جدت)(?:ي|ك|ه|ها|نا)(?![\p{L}])/u;

/** Whether a given name (from the Moby list) is written here as a name, not a word of the language. */
function givenNameWord(word: string, language: string): boolean {
  if (!/^\p{Lu}\p{Ll}{2,}$/u.test(word)) return false;
  if (!inGivenNames(word)) return false;
  return !isWordOfLanguage(word, language);
}

/**
 * Whether a capitalised given name is also a lower-case word of the language: the spelling
 * dictionary where there is one; else the frequency list, unless the English dictionary lists the
 * word only with a capital (the subtitle lists, lower-cased, hold names: Norwegian "michael").
 */
function isWordOfLanguage(word: string, language: string): boolean {
  const lower = word.toLowerCase();
  if (hasDictionary(language)) return dictionaryWord(lower, language);
  return everydayWordRank(lower, language) !== null && !dictionaryNameOnly(word, 'en');
}

function personCue(text: string, start: number, end: number, language: string): boolean {
  const honorific = HONORIFIC_AFTER[language];
  if (honorific !== undefined && honorific.test(text.slice(end, end + 8))) {
    // Business Japanese calls a firm by さん or 様 (トヨタさんとの取引, ユニクロ様から): not after a
    // name in katakana alone, how firms' names are written.
    return !(language === 'ja' && /^[\p{Script=Katakana}ー・]+$/u.test(text.slice(start, end)) && /^(?:さん|さま|様)/u.test(text.slice(end, end + 2)));
  }
  if (language === 'ar') return ARABIC_APPOSITION_AFTER.test(text.slice(end, end + 16));
  // (The caller has checked that the name is not written in capitals.)
  if (!isUpper(text[start] ?? '')) return false;
  let j = start - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
  if (text[j] === '.') {
    // An abbreviated title or initials before it ("Dr. ", "H.C. ").
    const before = text.slice(Math.max(0, start - 24), start);
    if (TITLE_ABBREVIATION_BEFORE.test(before)) return true;
    const initials = INITIALS_BEFORE.exec(before);
    if (initials !== null && !NOT_INITIALS.has(initials[1]!.replace(/[ \t]/gu, ''))) {
      const at = start - before.length + initials.index + initials[0].indexOf(initials[1]!);
      // Initials are a person's after an author's "by", a given name ("Frank B. Kellogg") or a
      // title; opening a sentence they open firms' names as often (`J.P. Morgan offers…`, `L.L.
      // Bean`), and a single one opening a line is a list's enumerator ("A. Acme", "B. Globex"),
      // after another word the end of a sentence ("use Plan B. Acme sells…"). Not when a
      // capitalised word or a firm's noun follows the name (`H.J. Heinz Company`, `W.K. Kellogg Co`).
      const prev = wordBefore(text, at) ?? '';
      if (
        (INITIALS_AFTER_WORDS.has(prev) || givenNameWord(prev, language) || (titles(language)?.has(prev.toLowerCase()) ?? false)) &&
        !FIRM_NAME_GOES_ON.test(text.slice(end, end + 12))
      )
        return true;
    }
  }
  if (text[end] === ' ' && text[end + 2] === '.' && INITIAL_AFTER.test(text.slice(end, end + 8))) return true;
  if (j < start - 1 && isLower(text[j] ?? '')) {
    const nearest = wordBefore(text, start);
    if (nearest !== undefined && titles(language)?.has(nearest.toLowerCase())) return true;
  }
  // A person or kinship noun in apposition: ", mi vecina,", ", my colleague from…".
  if (text[end] === ',') {
    const m = /^,[ \t]+((?:\p{Ll}+[ \t]+){0,2})(\p{Ll}+)(?=[ \t]*[,.;:!?)]|[ \t]+(\p{Ll}+))/u.exec(text.slice(end, end + 48));
    if (m !== null && otherNouns(language)?.has(m[2]!) && (m[3] === undefined || HEAD_FOLLOWERS.has(m[3]))) {
      const lead = m[1]!
        .trim()
        .split(/[ \t]+/u)
        .filter(Boolean);
      // Only determiners, possessives or adjectives before the noun: no verb ("Apple, which has a…").
      if (lead.every((w) => !otherNouns(language)!.has(w))) return true;
    }
  }
  return false;
}

/**
 * Round nine (`place_name`, weak): nouns of geography written right before a name as its
 * apposition ("the river Jordan", "elven Jordan", "Val Gardena", "rzeka Wda", "село X"): the name
 * is the place's. Per language, the ordinary words for river, lake, mountain, valley, village and
 * island, with the Nordic definite forms (the noun before the name takes the suffixed article).
 */
const PLACE_BEFORE: Record<string, string> = {
  en: 'river lake village hamlet',
  de: 'fluss see berg dorf insel',
  fr: 'fleuve rivière lac mont village val',
  es: 'río lago monte pueblo aldea',
  it: 'fiume lago monte borgo val',
  pt: 'rio lago monte aldeia',
  nl: 'rivier meer dorp',
  pl: 'rzeka rzeki rzece rzeką jezioro jeziora góra góry wieś wsi',
  cs: 'řeka řeky řece jezero hora vesnice obec',
  ru: 'река реки реке рекой озеро озера гора горы деревня деревни село села',
  uk: 'річка річки озеро гора село села',
  sv: 'floden älven ån sjön berget byn ön',
  da: 'floden åen søen bjerget byen landsbyen øen',
  nb: 'elven elva sjøen fjellet bygda landsbyen øya',
  fi: 'joki järvi',
};
const placeBeforeSets = new Map<string, ReadonlySet<string>>();
function placeNounBefore(text: string, start: number, language: string): boolean {
  const lang = language === 'no' || language === 'nn' ? 'nb' : language;
  const list = PLACE_BEFORE[lang];
  if (list === undefined || (text[start - 1] !== ' ' && text[start - 1] !== '\t') || !isUpper(text[start] ?? '')) return false;
  let set = placeBeforeSets.get(lang);
  if (set === undefined) {
    set = new Set(list.split(' '));
    placeBeforeSets.set(lang, set);
  }
  const nearest = wordBefore(text, start);
  if (nearest === undefined || !set.has(nearest.toLowerCase())) return false;
  // A place noun in a phrase fronted before the subject is where the sentence happens, not the
  // name's apposition: "In our village Tesco is…", "En mi pueblo Mercadona…", "W mojej wsi X…".
  return !frontedPlacePhrase(text, start, lang);
}

/** Prepositions that open a sentence's fronted phrase of place ("In our village", "W mojej wsi"). */
const FRONTING_PREPOSITIONS: Record<string, ReadonlySet<string>> = {
  en: new Set(['in', 'at', 'near', 'around', 'outside', 'from']),
  de: new Set(['in', 'im', 'bei', 'nahe']),
  fr: new Set(['dans', 'à', 'au', 'en', 'près']),
  es: new Set(['en', 'cerca']),
  it: new Set(['in', 'nel', 'nella', 'a', 'al', 'vicino']),
  pt: new Set(['em', 'no', 'na', 'perto']),
  nl: new Set(['in', 'bij']),
  pl: new Set(['w', 'we', 'na', 'koło', 'przy', 'pod']),
  cs: new Set(['v', 've', 'na', 'u']),
  ru: new Set(['в', 'во', 'на', 'у']),
  uk: new Set(['в', 'у', 'на', 'біля']),
  sv: new Set(['i', 'på', 'vid']),
  da: new Set(['i', 'på', 'ved']),
  nb: new Set(['i', 'på', 'ved']),
};
/** The words from the sentence's start to `start` are a preposition, at most two words and the place noun. */
function frontedPlacePhrase(text: string, start: number, language: string): boolean {
  const prepositions = FRONTING_PREPOSITIONS[language];
  if (prepositions === undefined) return false;
  let a = start;
  while (a > 0 && start - a < 64 && !SENTENCE_END.has(text[a - 1]!) && text[a - 1] !== '\n') a--;
  const words = text
    .slice(a, start)
    .trim()
    .split(/[ \t]+/u);
  if (words.length < 2 || words.length > 4 || !position(text, a + text.slice(a).search(/\S/u)).initial) return false;
  return prepositions.has(words[0]!.replace(/^[^\p{L}]+/u, '').toLowerCase());
}

/**
 * Round nine (`place_name`, weak): a name opening its sentence followed by a verb of flowing
 * (`renner ut i`, `mündet`, `впадает`), or of lying with a phrase of geography: on a river or coast,
 * at the foot or mouth, in a valley, between, north of (`X lies on the north bank`, `X leży nad
 * Narwią`): a place or a river. Not "lies in", "liegt am", "ligger ved", "leży w" alone, said of
 * shops too ("IKEA ligger ved E6", "Aldi liegt am Stadtrand"), nor "liegt vorne" (a ranking).
 */
const LOCATIVE_AFTER: Record<string, RegExp> = {
  en: /^[ \t]+(?:lies[ \t]+(?:(?:on|along)[ \t]+the[ \t]+(?:\p{Ll}+[ \t]+)?(?:bank|banks|coast|shore|river|border)|at[ \t]+the[ \t]+(?:foot|mouth|confluence)|in[ \t]+the[ \t]+(?:valley|foothills|delta))|flows[ \t]+(?:into|through|from|north|south|east|west))(?![\p{L}])/u,
  de: /^[ \t]+(?:liegt[ \t]+(?:am[ \t]+(?:Fuße?|Ufer)|an[ \t]+der[ \t]+Mündung)|fließt[ \t]|mündet[ \t]|entspringt[ \t])/u,
  fr: /^[ \t]+(?:se[ \t]+jette[ \t]+dans|prend[ \t]+sa[ \t]+source|coule[ \t]+(?:vers|dans|à))(?![\p{L}])/u,
  es: /^[ \t]+(?:desemboca[ \t]+en[ \t]+(?:(?:el|la)[ \t]+)?(?:mar|océano|río|golfo|bahía|lago|embalse|estuario|ría|delta|\p{Lu})|nace[ \t]+en[ \t]+(?:la|el)[ \t]+(?:sierra|montaña|cordillera))(?![\p{L}])/u,
  it: /^[ \t]+(?:sfocia|nasce[ \t]+sul|sorge[ \t]+(?:su|sul|sulla|sulle|lungo|ai[ \t]+piedi))(?![\p{L}])/u,
  pt: /^[ \t]+(?:deságua|desagua|nasce[ \t]+na[ \t]+serra)(?![\p{L}])/u,
  nl: /^[ \t]+(?:ligt[ \t]+(?:aan[ \t]+de[ \t]+(?:voet|monding|oever))|mondt[ \t]+uit|stroomt[ \t])(?![\p{L}])/u,
  pl: /^[ \t]+(?:leży|położona[ \t]+jest|położony[ \t]+jest|położone[ \t]+jest)[ \t]+(?:nad|u[ \t]+(?:podnóża|ujścia|stóp)|w[ \t]+dolinie)(?![\p{L}])|^[ \t]+(?:wpada|uchodzi)[ \t]+do(?![\p{L}])/u,
  cs: /^[ \t]+(?:leží)[ \t]+(?:nad|na[ \t]+(?:řece|soutoku|břehu|úpatí)|u[ \t]+(?:soutoku|úpatí)|v[ \t]+údolí)(?![\p{L}])|^[ \t]+(?:se[ \t]+vlévá|pramení)(?![\p{L}])/u,
  ru: /^[ \t]+(?:впадает|течёт|течет|протекает|берёт[ \t]+начало|берет[ \t]+начало)(?![\p{L}])|^[ \t]+(?:расположен[аоы]?|лежит)[ \t]+(?:на[ \t]+берегу|у[ \t]+подножия|в[ \t]+долине|на[ \t]+реке)(?![\p{L}])/u,
  uk: /^[ \t]+(?:впадає|тече|протікає|бере[ \t]+початок)(?![\p{L}])|^[ \t]+(?:розташован[аеий]|лежить)[ \t]+(?:на[ \t]+березі|біля[ \t]+підніжжя|в[ \t]+долині|на[ \t]+річці)(?![\p{L}])/u,
  sv: /^[ \t]+(?:ligger[ \t]+vid[ \t]+(?:foten|mynningen)|rinner[ \t]+(?:ut|genom)|mynnar)(?![\p{L}])/u,
  da: /^[ \t]+(?:ligger[ \t]+ved[ \t]+(?:foden|udmundingen)|løber[ \t]+(?:ud|gennem)|udmunder)(?![\p{L}])/u,
  nb: /^[ \t]+(?:ligger[ \t]+ved[ \t]+(?:foten|munningen|utløpet)|renner[ \t]+(?:ut|gjennom)|munner[ \t]+ut)(?![\p{L}])/u,
  // Finnish `laskee` is also "lowers" (Nokia laskee hintojaan): a river flows into a name or a
  // body of water in the illative within three words (`laskee Helsingissä mereen`).
  fi: /^[ \t]+(?:laskee|virtaa)(?:[ \t]+\p{L}+){0,2}?[ \t]+(?:\p{Lu}\p{L}*(?:aa|ee|ii|oo|uu|yy|ää|öö|h[aeiouyäö]|se|si)n|\p{Ll}*(?:mereen|järveen|jokeen|lahteen|veteen|salmeen))(?![\p{L}])/u,
  tr: /^[ \t]+(?:nehri|ırmağı)[ \t]/u,
};
function locativeVerbAfter(text: string, start: number, end: number, language: string): boolean {
  if (text[end] !== ' ' || !isLower(text[end + 1] ?? '')) return false;
  const re = LOCATIVE_AFTER[language === 'no' || language === 'nn' ? 'nb' : language];
  if (re === undefined || !re.test(text.slice(end, end + 40))) return false;
  const article = SENTENCE_ARTICLE.exec(text.slice(Math.max(0, start - 5), start));
  return position(text, article ? start - article[0].length : start).initial;
}

/**
 * Round nine (`place_name`, weak), Turkish: a sentence opening with the name and ending in a place
 * noun with the copula suffix -DIr ("X, … bir mahalledir", "X bir köydür", "X'in ilçesidir"):
 * Turkish puts the predicate last, so the classifying noun ends the sentence.
 */
const TURKISH_PLACE_PREDICATE =
  /(?:^|[^\p{L}])(?:mahalle|köy|ilçe|şehir|kent|kasaba|belde|semt|bölge|nehir|ırmak|dağ|göl|ada|yarımada|körfez|vadi|yayla|il)(?:s?[iıuü])?[dt][iıuü]r[ \t]*$/u;
function turkishPlacePredicate(text: string, start: number, end: number): boolean {
  if (!position(text, start).initial) return false;
  let b = end;
  while (b < text.length && b - end < 200 && !SENTENCE_END.has(text[b]!) && text[b] !== '\n') b++;
  return TURKISH_PLACE_PREDICATE.test(text.slice(end, b).toLowerCase());
}

/**
 * The brand's word is itself a head of VENUE_HEADS_AFTER and follows a capitalised name that is
 * no word of the language (`the Boston Marathon`, `the Ryder Cup`): the head of that place's or
 * event's name. Not after a capitalised word of the language (`Buy Marathon bars`).
 */
function venueHeadName(text: string, start: number, language: string): boolean {
  if (text[start - 1] !== ' ' && text[start - 1] !== '\t') return false;
  const prev = wordBefore(text, start);
  return prev !== undefined && /^\p{Lu}\p{Ll}+$/u.test(prev) && !isWordOfLanguage(prev, language);
}

/** A model designation in Latin letters or digits written straight after the name (理想L7, 大疆Mini 4). */
function modelAfter(text: string, o: number): boolean {
  const next = text.charCodeAt(o);
  const last = text.codePointAt(o - 1);
  if (!((next >= 48 && next <= 57) || (next >= 65 && next <= 90) || (next >= 97 && next <= 122))) return false;
  return isNoSpaceScript(last);
}

/** Chinese personal pronouns and 的 before a noun: "his …", "my …". */
const CHINESE_POSSESSOR_BEFORE = /(?:我|你|您|他|她|它|我们|你们|他们|她们|自己|大家)的$/u;
/**
 * A copula and a classifier before a noun ("是个快手", "is a quick hand"): a noun classified. Not a
 * demonstrative or 有 and a classifier (这个三星, 我有个华为), said of a brand's product as often.
 */
const CHINESE_CLASSIFIED_BEFORE = /(?:是|当|做)[个种位名]$/u;
const HAN_NUMERALS = new Set([...'一二两三四五六七八九十百千万零']);
const NUMBER_GOES_ON = /^[一二两三四五六七八九十百千万零]+(?:等于|加|减|乘|除)/u;

/**
 * Round nine, Chinese words spelled like a brand, read by the grammar around them (weak):
 * - `counted_noun`: a copula and a classifier before it (`是个能手`, "is a capable hand"), the
 *   classifier without its numeral; not when a listed noun follows, which is what is counted
 *   (`是个快手用户`). Any name, not only one of the frequency list, which lacks 能手;
 * - `possessed_noun`: a personal pronoun and 的 before an everyday-word name (`他的理想是…`, "his
 *   ideal is…"), with no listed noun or model after it (`我的小米手机`, `我的理想L7`);
 * - `number_expression`: a name holding a numeral character followed by a run of numerals and an
 *   operator or 等于 (`二加五等于七`): arithmetic; a model after it is no sum (`一加十二`, OnePlus 12).
 */
function chineseWordReading(text: string, start: number, end: number, language: string, everydayName: boolean): MentionRule | null {
  if (language !== 'zh') return null;
  const after = text.slice(end, end + 2);
  const nounAfter = after.length === 2 && HAN.test(after[0]!) && everydayWordRank(after, 'zh') !== null;
  const before = text.slice(Math.max(0, start - 4), start);
  if (!nounAfter && CHINESE_CLASSIFIED_BEFORE.test(before)) return 'counted_noun';
  if (everydayName && !nounAfter && CHINESE_POSSESSOR_BEFORE.test(before)) return 'possessed_noun';
  // A numeral, then "equals", an operator or another numeral: arithmetic (一加一等于二), not a
  // word that opens with a numeral character (三星一直…, "Samsung has always…").
  if (NUMBER_GOES_ON.test(text.slice(end, end + 12)) && [...text.slice(start, end)].some((c) => HAN_NUMERALS.has(c))) return 'number_expression';
  return null;
}

/**
 * Round nine (`place_name`, weak): what follows a town's name to place it. English: a comma and a
 * US state ("Hershey, Pennsylvania"; the fifty states as listed by the US Census Bureau). Russian
 * and Ukrainian: a territorial unit after an adjectival name ("Моршинська громада", "Одинцовский
 * район"), from the administrative nouns of each country.
 */
const US_STATES = new Set(
  'Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah Vermont Virginia Washington Wisconsin Wyoming'.split(
    ' ',
  ),
);
const US_TWO_WORD_STATE =
  /^, (?:New (?:Hampshire|Jersey|Mexico|York)|North (?:Carolina|Dakota)|South (?:Carolina|Dakota)|Rhode Island|West Virginia)(?![\p{L}-])(?![ \t]\p{Lu})/u;
const TERRITORY_AFTER: Record<string, RegExp> = {
  ru: /^[ \t]+(?:район|района|районе|область|области|округ|округа|волость|сельсовет|уезд)(?![\p{L}])/u,
  uk: /^[ \t]+(?:громада|громади|громаді|район|району|області|область|округ|сільрада|волость)(?![\p{L}])/u,
};
function regionAfter(text: string, end: number, language: string): boolean {
  if (language === 'en') {
    if (text[end] !== ',' || text[end + 1] !== ' ' || !isUpper(text[end + 2] ?? '')) return false;
    // Not a name going on ("Delta, Washington Post and…": another brand of a list).
    const word = /^, (\p{Lu}\p{Ll}+)(?![\p{L}'’-])(?![ \t]\p{Lu})/u.exec(text.slice(end, end + 24))?.[1];
    return (word !== undefined && US_STATES.has(word)) || US_TWO_WORD_STATE.test(text.slice(end, end + 24));
  }
  const re = TERRITORY_AFTER[language];
  return re !== undefined && text[end] === ' ' && re.test(text.slice(end, end + 16));
}

/**
 * Round nine (`person_cue`), English: the possessive and a kinship or companion noun after the
 * name ("X's sister lives in…", "X's wife"): a person's kin. Not when a firm's noun follows the
 * kin noun ("X's sister brand", "X's parent company").
 */
const ENGLISH_KIN_AFTER =
  /^['’]s[ \t]+(?:sister|brother|wife|husband|mother|father|mum|mom|dad|son|daughter|aunt|uncle|cousin|grandmother|grandfather|grandson|granddaughter|girlfriend|boyfriend|fiancée|fiancé|widow|nephew|niece)(?![\p{L}'’-])([ \t]+\p{Ll}+)?/u;
/** Nouns of commerce after a kin noun that make it a firm's relation ("sister chains", "sister hotels"). */
const KIN_FIRM_NOUN =
  /^(?:site|label|publication|magazine|channel|hotel|product|line|title|paper|station|model|car|chain|outlet|banner|restaurant|resort|propert(?:y|ie)|concept|format|division|subsidiar(?:y|ie)|fragrance|collection|range|venue|school|newspaper|show|team|airline|compan(?:y|ie)|busines)(?:e?s)?$/u;
function possessedKin(text: string, stop: number): boolean {
  const m = ENGLISH_KIN_AFTER.exec(text.slice(stop, stop + 40));
  if (m === null) return false;
  const next = m[1]?.trim();
  if (next === undefined) return true;
  const singular = next.replace(/(?:es|s)$/u, '');
  return !(FIRM_NOUNS.en!.has(next) || FIRM_NOUNS.en!.has(singular) || FIRM_NOUNS.en!.has(next.replace(/s$/u, '')) || KIN_FIRM_NOUN.test(next));
}
