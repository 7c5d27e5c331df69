// Signals of doubt about mentions the matcher took (issue #29): signs that a reader who knows the
// world might read the brand's letters as something else, a person, a place, a work or a word,
// which the lexical rules cannot tell. They never change a decision: the analysis only marks it
// `ambiguous`, so that a live judge reads it (src/core/visibility/analysis.ts, docs/mentions.md
// "Weak decisions and the judge"). Each reads a published list the matcher already has (the
// frequency lists, the spelling dictionaries, the given names, ICU's word dictionary) or the
// sentence's own words; none holds names of brands, people or places written for this.
import { dictionaryNameOnly, dictionaryWord, everydayWordRank } from './everyday-words.ts';
import { germanNounGender } from './german-nouns.ts';
import { inGivenNames } from './given-names.ts';
import { primaryLanguage } from './morphology.ts';

/**
 * Why the mentions of a brand are in doubt (evidence `doubt`):
 * - `dated`: every sentence naming it carries a year of an earlier century (1000–1999) or a year
 *   in brackets (`Joker (2019)`): it tells history or cites a work, of a person, a place or a
 *   title, more often than it recommends a firm;
 * - `name_run`: every occurrence is part of a person's name: an initial or a given name (not also
 *   an everyday word) before it (`Frank B. Kellogg`, `Jane Jacobs`), or, for a name that is a
 *   given name, a capitalised word no word list holds after it (`Melissa McCarthy`);
 * - `caseless_word`: a name in a script without capitals (Han, kana, Hangul, Thai, Arabic,
 *   Hebrew) that is a word of the language (its frequency list, its spelling dictionary, or one
 *   word of ICU's dictionary: 熊猫, 雪花, ช้าง), taken by its spelling alone;
 * - `name_list`: a one-word name that the answer's language's or the English spelling dictionary
 *   lists only with a capital, as a name of people or places (`Vittel`, `Leibniz`), named once
 *   and bare.
 */
export type MentionDoubt = 'dated' | 'name_run' | 'caseless_word' | 'name_list';

/** A mention as the analysis has it: its original range and the rule that took it. */
export interface DoubtSpan {
  start: number;
  end: number;
  rule?: string;
}

/** Rules that read only the name as written, with nothing around it that makes it a product or a firm. */
const BARE_RULES: ReadonlySet<string> = new Set(['exact', 'capitalised', 'sentence_start', 'inflected']);

/** How far a sentence is read either side of a mention (bounds the work on long answers). */
const SENTENCE_REACH = 300;
const SENTENCE_END = /[.!?。！？\n]/u;
/** A year of an earlier century (not part of a longer number, a price or a decimal), or any year in brackets. */
const DATED = /(?<![\p{N}.,])1\d{3}(?!\p{N}|[.,]\p{N})|\((?:19|20)\d{2}\)/u;

/** Whether the character at i ends a sentence: a full stop, ! or ? before a space or the end; a CJK stop or a line break anywhere. */
function endsSentence(text: string, i: number): boolean {
  const c = text[i]!;
  if (!SENTENCE_END.test(c)) return false;
  if (c !== '.' && c !== '!' && c !== '?') return true;
  return i + 1 >= text.length || /\s/u.test(text[i + 1]!);
}

/** The sentence around [start, end), at most SENTENCE_REACH characters either side. */
export function sentenceAround(text: string, start: number, end: number): string {
  let from = start;
  const low = Math.max(0, start - SENTENCE_REACH);
  while (from > low && !endsSentence(text, from - 1)) from--;
  let to = end;
  const high = Math.min(text.length, end + SENTENCE_REACH);
  while (to < high && !endsSentence(text, to)) to++;
  return text.slice(from, to);
}

/** A word that a list of the language (or of English) holds as a word, not as a name (German: its nouns too). */
function listedWord(word: string, language: string): boolean {
  return (
    everydayWordRank(word, language) !== null ||
    (primaryLanguage(language) === 'de' && germanNounGender(word) !== undefined) ||
    everydayWordRank(word, 'en') !== null ||
    dictionaryWord(word, language) ||
    dictionaryWord(word, 'en')
  );
}

const WORD_BEFORE = /(?:^|[\s(«„“"])(\p{Lu}[\p{L}'’-]*|\p{Lu}\.)[ \u00a0]+$/u;
const WORD_AFTER = /^[ \u00a0]+(\p{Lu}\p{Ll}[\p{L}'’-]*)(?![\p{L}\p{N}])/u;

/** Whether one occurrence is part of a person's name (see `name_run`). */
function inNameRun(text: string, span: DoubtSpan, language: string, givenName: boolean): boolean {
  const before = WORD_BEFORE.exec(text.slice(Math.max(0, span.start - 40), span.start))?.[1];
  if (before !== undefined && (/^\p{Lu}\.$/u.test(before) || (inGivenNames(before) && !listedWord(before, language)))) return true;
  if (!givenName) return false;
  const after = WORD_AFTER.exec(text.slice(span.end, span.end + 40))?.[1];
  return after !== undefined && !listedWord(after, language);
}

const CASELESS_SCRIPT = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Arabic}\p{Script=Hebrew}\u30fc\u30fb]+$/u;
const SEGMENTED_SCRIPT = /^[\p{Script=Han}\p{Script=Thai}]+$/u;
const segmenters = new Map<string, Intl.Segmenter>();

/**
 * Whether a name written in a script without capitals is a word of its language: in the frequency
 * list or the spelling dictionary, or, for Han and Thai, one word of ICU's dictionary (the word
 * segmenter keeps it whole: 熊猫, 雪花, ช้าง; it splits 京|东, 华|为).
 */
export function caselessWord(name: string, language: string): boolean {
  const word = name.trim();
  if (!CASELESS_SCRIPT.test(word)) return false;
  if (everydayWordRank(word, language, { anyCase: true }) !== null || dictionaryWord(word, language)) return true;
  if (!SEGMENTED_SCRIPT.test(word) || [...word].length < 2) return false;
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    if (segmenters.size >= 64) segmenters.clear();
    segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    segmenters.set(language, segmenter);
  }
  let n = 0;
  for (const _ of segmenter.segment(word)) if (++n > 1) return false;
  return true;
}

/** Whether a one-word name is, in the language's or the English spelling dictionary, only a name (of people or places). */
export function listedAsName(name: string, language: string): boolean {
  const word = name.trim();
  return /^\p{L}+$/u.test(word) && (dictionaryNameOnly(word, language) || dictionaryNameOnly(word, 'en'));
}

/**
 * What names a firm's product right after the name: a model (`Dyson V15`, `Bose QC45`: letters
 * and digits, or a word in capitals), a possessive (`Kellogg's`) or a compound (`Dyson-made`).
 */
const PRODUCT_AFTER = /^(?:[ \u00a0-]+(?:[\p{L}-]*\p{N}|\p{Lu}{2,}(?!\p{Ll}))|['’]s?(?!\p{L})|-\p{L})/u;

/**
 * The doubt about the mentions the matcher took for one brand (all of them, ascending), or null
 * when none of the signals holds. `name` is the brand's name as given, `language` the answer's.
 */
export function mentionDoubt(name: string, text: string, spans: readonly DoubtSpan[], language: string): MentionDoubt | null {
  if (spans.length === 0) return null;
  // Each signal is tried on the whole answer first, cheaply, then on every occurrence.
  if (DATED.test(text) && spans.every((s) => DATED.test(sentenceAround(text, s.start, s.end)))) return 'dated';
  if (spans.every((s) => text[s.start - 1] === ' ' || text[s.end] === ' ')) {
    const givenName = inGivenNames(name.trim());
    if (spans.every((s) => inNameRun(text, s, language, givenName))) return 'name_run';
  }
  if (spans.every((s) => s.rule === 'exact' || s.rule === 'attached') && lexiconOf(name, language).caselessWord) return 'caseless_word';
  if (spans.length === 1 && BARE_RULES.has(spans[0]!.rule ?? 'exact') && !PRODUCT_AFTER.test(text.slice(spans[0]!.end, spans[0]!.end + 24)) && lexiconOf(name, language).listedAsName)
    return 'name_list';
  return null;
}

/** What the word lists say of a brand's name in a language: a run asks the same names of every answer. */
const lexicons = new Map<string, { caselessWord: boolean; listedAsName: boolean }>();
function lexiconOf(name: string, language: string): { caselessWord: boolean; listedAsName: boolean } {
  const key = `${language}\u0000${name}`;
  let known = lexicons.get(key);
  if (!known) {
    if (lexicons.size >= 4096) lexicons.clear();
    known = { caselessWord: caselessWord(name, language), listedAsName: listedAsName(name, language) };
    lexicons.set(key, known);
  }
  return known;
}
