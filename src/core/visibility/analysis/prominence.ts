// Prominence of a brand in one answer, deterministic: where it is first named (as a share of the
// answer's length) and the GEO study's position-adjusted word count (Aggarwal et al., "GEO:
// Generative Engine Optimization", KDD 2024) of the sentences that name it.
// The one thing to know: pawc here is a share, 0..1. Each sentence s at 0-based position pos(s)
// of the answer's |S| sentences weighs |s|·e^(−pos(s)/|S|), |s| being its word count; a brand's
// pawc is the weight of the sentences naming it divided by the weight of all sentences. Sentences
// and words come from Intl.Segmenter where a script without spaces occurs (CJK, Thai), elsewhere
// from terminal punctuation and letter runs; a line break also ends a sentence, so each list item
// is one. Linear in the answer length.
import type { MentionSpan } from '../../../text/entity-matcher.ts';
import { addStepTime, stepClock } from './step-times.ts';
import { round4 } from '../../../lib/stats.ts';

export interface SentenceWeights {
  /** Original UTF-16 start of each sentence, ascending. */
  starts: number[];
  /** |s|·e^(−pos(s)/|S|) of each sentence. */
  weights: number[];
  total: number;
}

let sentenceSegmenter: Intl.Segmenter | undefined;
const HAS_LETTER = /\p{L}/u;
let wordSegmenter: Intl.Segmenter | undefined;

const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const SPACED_WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;

/**
 * Words of a sentence: Intl.Segmenter's word-like segments where a script without spaces occurs,
 * else runs of letters and digits (the same count for spaced scripts, several times faster).
 */
function wordCount(sentence: string): number {
  if (NO_SPACE_SCRIPT.test(sentence)) {
    wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    let words = 0;
    for (const w of wordSegmenter.segment(sentence)) if (w.isWordLike) words++;
    return words;
  }
  const ascii = asciiWordCount(sentence);
  if (ascii !== null) return ascii;
  let words = 0;
  SPACED_WORD.lastIndex = 0;
  while (SPACED_WORD.exec(sentence)) words++;
  return words;
}

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAsciiAlnum = (c: number) => isAsciiLetter(c) || (c >= 48 && c <= 57);

/**
 * SPACED_WORD's count for an ASCII sentence, by a loop over its characters (the Unicode-class
 * regex cost most of the answer's prominence); null when the sentence has another character.
 * In ASCII a word is a run of letters and digits, continued by an apostrophe and letters.
 */
function asciiWordCount(sentence: string): number | null {
  let words = 0;
  let i = 0;
  const n = sentence.length;
  while (i < n) {
    const c = sentence.charCodeAt(i);
    if (c >= 128) return null;
    if (!isAsciiAlnum(c)) {
      i++;
      continue;
    }
    words++;
    while (i < n && isAsciiAlnum(sentence.charCodeAt(i))) i++;
    while (i + 1 < n && sentence.charCodeAt(i) === 39 && isAsciiLetter(sentence.charCodeAt(i + 1))) {
      i++;
      while (i < n && isAsciiLetter(sentence.charCodeAt(i))) i++;
    }
  }
  return words;
}

/** A sentence end in a spaced script: terminal punctuation, closing quotes, then space. */
const SPACED_SENTENCE_END = /[.!?…]+["'”’»)\]]*\s+/gu;

/**
 * The sentences of one line: Intl.Segmenter's where a script without spaces occurs (its
 * sentence marks and rules); elsewhere a split after terminal punctuation followed by a space,
 * which is what ICU does on such text too, several times faster on the probe path.
 */
function sentencesOf(line: string): { segment: string; index: number }[] {
  if (NO_SPACE_SCRIPT.test(line)) {
    sentenceSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'sentence' });
    return [...sentenceSegmenter.segment(line)];
  }
  const out: { segment: string; index: number }[] = [];
  let from = 0;
  SPACED_SENTENCE_END.lastIndex = 0;
  for (let m; (m = SPACED_SENTENCE_END.exec(line)); ) {
    const end = m.index + m[0].length;
    out.push({ segment: line.slice(from, end), index: from });
    from = end;
  }
  if (from < line.length) out.push({ segment: line.slice(from), index: from });
  return out;
}

/** Sentences of the answer with their position-adjusted word counts. */
/**
 * The last answer's weights: the brand entries and the sandbox judge read the same answer one
 * after the other, so the second call costs nothing.
 */
let lastWeights: { text: string; weights: SentenceWeights } | undefined;

export function sentenceWeights(text: string): SentenceWeights {
  if (lastWeights?.text === text) return lastWeights.weights;
  const t0 = stepClock();
  const weights = computeSentenceWeights(text);
  lastWeights = { text, weights };
  addStepTime('prominence', t0);
  return weights;
}

function computeSentenceWeights(text: string): SentenceWeights {
  const pieces: { start: number; words: number }[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    // A line break ends a sentence too: list items, headings and table rows have no full stop.
    let carry: { start: number; words: number } | null = null;
    for (const { segment, index } of sentencesOf(line)) {
      const words = wordCount(segment);
      const piece: { start: number; words: number } = carry ? { start: carry.start, words: carry.words + words } : { start: lineStart + index, words };
      // A piece without a letter ("1. " before a list item's text) joins the next.
      if (!HAS_LETTER.test(segment)) carry = piece;
      else {
        carry = null;
        if (piece.words > 0) pieces.push(piece);
      }
    }
    if (carry && carry.words > 0) pieces.push(carry);
    lineStart += line.length + 1;
  }
  const n = pieces.length;
  const weights = pieces.map((p, pos) => p.words * Math.exp(-pos / n));
  return { starts: pieces.map((p) => p.start), weights, total: weights.reduce((a, b) => a + b, 0) };
}

/** Index of the sentence holding `offset` (the last sentence starting at or before it). */
function sentenceAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}


/** The brand's position-adjusted word count share, 0..1 (0 when it is not named in the text). */
export function pawc(sentences: SentenceWeights, spans: readonly MentionSpan[]): number {
  if (!spans.length || sentences.total <= 0) return 0;
  const naming = new Set<number>();
  for (const s of spans) {
    const i = sentenceAt(sentences.starts, s.start);
    if (i >= 0) naming.add(i);
  }
  let sum = 0;
  for (const i of naming) sum += sentences.weights[i]!;
  return round4(Math.min(1, sum / sentences.total));
}

/** mention_position ÷ answer length, 0..1; null when not named in the text. */
export function firstMentionShare(position: number | null, textLength: number): number | null {
  if (position === null || textLength <= 0) return null;
  return round4(position / textLength);
}
