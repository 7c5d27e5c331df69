// Text folding and whole-word entity matching for answer analysis.
// The one thing to know: matching runs on a *folded* copy of the text (NFKD, combining marks
// stripped, case folded, whitespace runs collapsed), and `offsets` maps every folded UTF-16
// index back to the original UTF-16 index, so reported positions always point into the
// original answer.
//
// Word boundaries are checked on the folded text with Unicode properties instead of
// Intl.Segmenter: UAX #29 keeps "Acme's" and "Acme.com" as one segment, which would hide
// possessives, and it is several times slower for 10 KB answers. A neighbouring letter, digit,
// mark or underscore blocks a match ("Go" never in "Google"), except letters of scripts written
// without spaces (Han, kana, Thai, ...), where a brand next to an ideograph is still a word.

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
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

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
 * "LinkedIn" is not "linked in"); a trailing "!" dropped ("Yahoo!" → "Yahoo").
 */
export function nameVariants(name: string): NameVariant[] {
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

export interface EntityMatcher {
  /** Original UTF-16 offsets of every whole-word mention, ascending, non-overlapping. */
  find(text: string): number[];
  /** Same as find, on text already folded (lets one fold serve many matchers). */
  findFolded(text: FoldedText): number[];
  /** The folded spellings this matcher looks for. */
  readonly variants: readonly string[];
}

/** Whole-word matcher for a name plus its generated variants and explicit aliases. */
export function createEntityMatcher(name: string, aliases: string[] = []): EntityMatcher {
  const byText = new Map<string, NameVariant>();
  for (const v of [name, ...aliases].flatMap(nameVariants)) {
    const known = byText.get(v.text);
    if (!known || (known.capitals && !v.capitals)) byText.set(v.text, v);
  }
  // Longest first, so at one start position the longest spelling wins.
  const spellings = [...byText.values()].sort((a, b) => b.text.length - a.text.length);
  const variants = spellings.map((v) => v.text);

  function findFolded(ft: FoldedText): number[] {
    const { folded, offsets } = ft;
    const hits: { start: number; end: number }[] = [];
    for (const { text: v, capitals } of spellings) {
      // indexOf is linear per variant: no regex, so no catastrophic backtracking.
      let from = 0;
      for (;;) {
        const at = folded.indexOf(v, from);
        if (at < 0) break;
        from = at + 1;
        const end = at + v.length;
        if (blocksBoundary(codePointBefore(folded, at))) continue;
        if (blocksBoundary(folded.codePointAt(end))) continue;
        if (capitals && !capitalized(ft, at, capitals)) continue;
        hits.push({ start: at, end });
      }
    }
    hits.sort((a, b) => a.start - b.start || b.end - a.end);
    const result: number[] = [];
    let lastEnd = -1;
    for (const h of hits) {
      if (h.start < lastEnd) continue;
      lastEnd = h.end;
      result.push(offsets[h.start]);
    }
    return result;
  }

  return {
    variants,
    findFolded,
    find: (text: string) => findFolded(foldText(text)),
  };
}
