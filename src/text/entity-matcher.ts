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
}

const WHITESPACE = /[\s\u0085]/u;
/** Removed while folding: combining marks and invisible formatting (soft hyphen, zero-width space, ...). */
const STRIP = /[\p{Mn}\p{Me}\p{Cf}]/gu;
const APOSTROPHES = /[\u2018\u2019\u201B\u02BC\u2032\uFF07]/gu;
const DASHES = /\p{Pd}/gu;

const foldCache = new Map<number, string>();

/** Folds one code point (not whitespace): NFKD, strip marks, full-ish case fold, unify apostrophes and dashes. */
function foldCodePoint(cp: number): string {
  const cached = foldCache.get(cp);
  if (cached !== undefined) return cached;
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
  return { folded, offsets };
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

/**
 * Spelling variants of one name, folded: the name itself; for names of two to five parts
 * (split at spaces, hyphens and lower→upper case changes) the spaced, hyphenated and joined
 * forms ("Demand IQ" = "Demand-IQ" = "DemandIQ"); a trailing "!" dropped ("Yahoo!" → "Yahoo").
 */
export function nameVariants(name: string): string[] {
  const out = new Set<string>();
  const base = foldName(name);
  if (!base) return [];
  out.add(base);
  const parts: string[] = [];
  for (const chunk of name.normalize('NFKC').trim().split(/[\s\p{Pd}]+/u)) {
    if (!chunk) continue;
    const camel = chunk.split(CAMEL_SPLIT);
    // "iPhone" would split into a one-letter part; keep such chunks whole.
    if (camel.length > 1 && camel.every((p) => p.length >= 2)) parts.push(...camel);
    else parts.push(chunk);
  }
  const folded = parts.map(foldName).filter(Boolean);
  if (folded.length >= 2 && folded.length <= 5) {
    out.add(folded.join(' '));
    out.add(folded.join('-'));
    out.add(folded.join(''));
  }
  for (const v of [...out]) {
    if (v.endsWith('!') && v.length > 2) out.add(v.replace(/!+$/, ''));
  }
  return [...out].filter((v) => HAS_WORD_CHAR.test(v));
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
  const variants = [...new Set([name, ...aliases].flatMap(nameVariants))];
  // Longest first, so at one start position the longest spelling wins.
  variants.sort((a, b) => b.length - a.length);

  function findFolded(ft: FoldedText): number[] {
    const { folded, offsets } = ft;
    const hits: { start: number; end: number }[] = [];
    for (const v of variants) {
      // indexOf is linear per variant: no regex, so no catastrophic backtracking.
      let from = 0;
      for (;;) {
        const at = folded.indexOf(v, from);
        if (at < 0) break;
        from = at + 1;
        const end = at + v.length;
        if (blocksBoundary(codePointBefore(folded, at))) continue;
        if (blocksBoundary(folded.codePointAt(end))) continue;
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
