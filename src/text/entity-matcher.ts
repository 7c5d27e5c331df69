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

import { everydayWordRank } from './everyday-words.ts';

export interface FoldedText {
  /** The folded text that matching runs on. */
  folded: string;
  /** offsets[i] = original UTF-16 index of folded[i]; offsets[folded.length] = original length. */
  offsets: number[];
  /** The original text (case checks of camel-case spellings, see nameVariants). */
  text: string;
}

const WHITESPACE = /[\s\u0085]/u;
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
export function foldText(text: string): FoldedText {
  let folded = '';
  const offsets: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (code < 128 && code !== 32 && (code < 9 || code > 13)) {
      // ASCII fast path (not whitespace).
      folded += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i];
      offsets.push(i);
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (WHITESPACE.test(ch)) {
      const start = i;
      let breaks = 0;
      while (i < n) {
        const c = text[i];
        if (c === '\n' || c === '\u2028' || c === '\u2029') breaks++;
        else if (c === '\r') {
          if (text[i + 1] !== '\n') breaks++;
        } else if (!WHITESPACE.test(c)) break;
        i++;
      }
      folded += breaks >= 2 ? '\n' : ' ';
      offsets.push(start);
      continue;
    }
    const f = foldCodePoint(cp);
    for (let k = 0; k < f.length; k++) offsets.push(i);
    folded += f;
    i += ch.length;
  }
  offsets.push(n);
  return { folded, offsets, text };
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
  let cp = folded.codePointAt(end);
  if (cp === UNDERSCORE) {
    let i = end;
    while (i < folded.length && folded.charCodeAt(i) === UNDERSCORE) i++;
    return !blocksBoundary(folded.codePointAt(i));
  }
  if (isNoSpaceScript(cp)) return isWordBoundary(ft, ft.offsets[end]!);
  return !blocksBoundary(cp);
}

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
  for (const chunk of name.replace(DROPPED_MARKS, ' ').normalize('NFKC').trim().split(/[\s\p{Pd}]+/u)) {
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
 * two words with and without spaces ("AT&T" = "AT & T", "H & M" = "H&M"); and the name without
 * a trailing legal form ("Acme Inc." also as "Acme", "Globex GmbH" as "Globex").
 */
export function nameVariants(name: string): NameVariant[] {
  const out = new Map<string, NameVariant>();
  for (const v of spellingVariants(name)) out.set(v.text, v);
  const short = withoutLegalForm(name);
  if (short !== null) {
    for (const v of spellingVariants(short)) {
      const known = out.get(v.text);
      if (!known || (known.capitals && !v.capitals)) out.set(v.text, v);
    }
  }
  return [...out.values()];
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

/** One mention: original UTF-16 range [start, end). */
export interface MentionSpan {
  start: number;
  end: number;
}

export interface EntityMatcher {
  /** Original UTF-16 offsets of every whole-word mention, ascending, non-overlapping. */
  find(text: string): number[];
  /** Same as find, on text already folded (lets one fold serve many matchers). */
  findFolded(text: FoldedText): number[];
  /** The mentions' original ranges, ascending, non-overlapping. */
  findSpans(text: FoldedText): MentionSpan[];
  /** The folded spellings this matcher looks for. */
  readonly variants: readonly string[];
}

export interface MatcherOptions {
  /**
   * The answer's language (BCP 47). When given, a name that is also one of the language's
   * everyday words ("Zoom", "You", "Monday") counts only where the answer writes it as a name:
   * see everydayOccurrence.
   */
  language?: string;
}

const SENTENCE_END = new Set(['.', '!', '?', '…', '。', '！', '？', ';']);
const MARKUP_BEFORE = new Set(['*', '_', '[', '`', '#', '>', '(', '"', "'", '“', '‘', '«', '„', '¿', '¡']);
const EMPHASIS = new Set(['*', '_', '[', '`', '#']);
const BULLETS = new Set(['-', '+', '•', '▪', '◦', '‣', '●']);
const LOOK_AROUND = 16;

function isLower(ch: string): boolean {
  return ch !== ch.toUpperCase() && ch === ch.toLowerCase();
}

/**
 * How an everyday-word name is written at one occurrence (original range [start, end)):
 * 'no' in lower case ("zoom in on the chart", "you can"); 'name' capitalised inside a sentence
 * ("meet on Zoom"), emphasised (`**Zoom**`, `[Zoom](…)`, a heading) or as a list item's label
 * ("- Zoom: video calls"); 'initial' capitalised only because it starts a sentence ("You can…",
 * "Zoom into the chart"), which counts only when the answer also names it elsewhere. Bounded
 * look-arounds (LOOK_AROUND characters), so linear overall.
 */
function everydayOccurrence(text: string, start: number, end: number): 'no' | 'name' | 'initial' {
  if (isLower(text[start]!)) return 'no';
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
  if (!initial) return 'name';
  if (emphasised) return 'name';
  // A list item's label: the name followed by ":" or a dash, or alone on its line.
  let k = end;
  while (k < text.length && k < end + LOOK_AROUND && (text[k] === '*' || text[k] === '_' || text[k] === ']' || text[k] === '`')) k++;
  const after = text.slice(k, k + 3);
  if (k >= text.length || after[0] === '\n' || after[0] === ':' || after[0] === '：' || /^ [–—-] /.test(after) || /^[–—]/.test(after)) return 'name';
  return 'initial';
}

interface Spelling extends NameVariant {
  /**
   * An everyday word of the answer's language (see MatcherOptions.language): 'lower' drops the
   * lower-case occurrences; 'initial' (the most frequent words) also holds back sentence-initial ones.
   */
  everyday: 'lower' | 'initial' | null;
}

/**
 * Words up to this frequency rank are common enough to open sentences as ordinary words ("You
 * can…", "Zoom into…"); rarer ones ("Notion", rank 7727 in English; "Telefónica", 6054 in Spanish)
 * at a sentence start are names.
 */
const INITIAL_RULE_RANK = 5000;

/** Whole-word matcher for a name plus its generated variants and explicit aliases. */
export function createEntityMatcher(name: string, aliases: string[] = [], opts: MatcherOptions = {}): EntityMatcher {
  const byText = new Map<string, NameVariant>();
  for (const v of [name, ...aliases].flatMap(nameVariants)) {
    const known = byText.get(v.text);
    if (!known || (known.capitals && !v.capitals)) byText.set(v.text, v);
  }
  // Everyday-word names: the name (and the name without its legal form) as one word of the language.
  const everyday = new Map<string, 'lower' | 'initial'>();
  if (opts.language !== undefined) {
    for (const n of [name, withoutLegalForm(name)]) {
      const word = n?.trim();
      if (!word || !/^\p{L}+$/u.test(word) || word.toUpperCase() === word.toLowerCase()) continue;
      const rank = everydayWordRank(word, opts.language);
      if (rank !== null) everyday.set(foldName(word), rank <= INITIAL_RULE_RANK ? 'initial' : 'lower');
    }
  }
  // Longest first, so at one start position the longest spelling wins.
  const spellings: Spelling[] = [...byText.values()]
    .sort((a, b) => b.text.length - a.text.length)
    .map((v) => ({ ...v, everyday: v.capitals ? null : (everyday.get(v.text) ?? null) }));
  const variants = spellings.map((v) => v.text);

  function findSpans(ft: FoldedText): MentionSpan[] {
    const { folded, offsets, text } = ft;
    const hits: { start: number; end: number; initial: boolean }[] = [];
    let named = false;
    for (const { text: v, capitals, everyday } of spellings) {
      // indexOf is linear per variant: no regex, so no catastrophic backtracking.
      let from = 0;
      for (;;) {
        const at = folded.indexOf(v, from);
        if (at < 0) break;
        from = at + 1;
        const end = at + v.length;
        if (!leftBoundary(ft, at) || !rightBoundary(ft, end)) continue;
        if (capitals && !capitalized(ft, at, capitals)) continue;
        let initial = false;
        if (everyday) {
          const how = everydayOccurrence(text, offsets[at]!, offsets[end]!);
          if (how === 'no') continue;
          initial = how === 'initial' && everyday === 'initial';
        }
        if (!initial) named = true;
        hits.push({ start: at, end, initial });
      }
    }
    hits.sort((a, b) => a.start - b.start || b.end - a.end);
    const result: MentionSpan[] = [];
    let lastEnd = -1;
    for (const h of hits) {
      if (h.start < lastEnd || (h.initial && !named)) continue;
      lastEnd = h.end;
      result.push({ start: offsets[h.start]!, end: offsets[h.end]! });
    }
    return result;
  }

  const findFolded = (ft: FoldedText) => findSpans(ft).map((h) => h.start);
  return {
    variants,
    findFolded,
    findSpans,
    find: (text: string) => findFolded(foldText(text)),
  };
}
