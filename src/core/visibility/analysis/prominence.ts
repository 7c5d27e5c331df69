// Prominence of a brand in one answer, deterministic: where it is first named (as a share of the
// answer's length) and the GEO study's position-adjusted word count (Aggarwal et al., "GEO:
// Generative Engine Optimization", KDD 2024) of the sentences that name it.
// The one thing to know: pawc here is a share, 0..1. Each sentence s at 0-based position pos(s)
// of the answer's |S| sentences weighs |s|·e^(−pos(s)/|S|), |s| being its word count; a brand's
// pawc is the weight of the sentences naming it divided by the weight of all sentences. Sentences
// and words come from Intl.Segmenter (every language, CJK and Thai included); a line break also
// ends a sentence, so each list item is one. Linear in the answer length.
import type { MentionSpan } from '../../../text/entity-matcher.ts';

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

/** Sentences of the answer with their position-adjusted word counts. */
export function sentenceWeights(text: string): SentenceWeights {
  sentenceSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'sentence' });
  wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
  const pieces: { start: number; words: number }[] = [];
  // Line breaks end sentences too (list items, headings, table rows have no full stop). A piece
  // without a letter ("1. " before a list item's text, which ICU ends as a sentence) joins the next.
  let lineStart = 0;
  for (const line of text.split('\n')) {
    let carry: { start: number; words: number } | null = null;
    for (const { segment, index } of sentenceSegmenter.segment(line)) {
      let words = 0;
      for (const w of wordSegmenter.segment(segment)) if (w.isWordLike) words++;
      const piece: { start: number; words: number } = carry ? { start: carry.start, words: carry.words + words } : { start: lineStart + index, words };
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

const round4 = (x: number) => Math.round(x * 10000) / 10000;

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
