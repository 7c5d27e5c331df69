// Shingle-based precision, recall and F1 of extracted article bodies, computed the way the
// Zyte (Scrapinghub) article-extraction-benchmark scores its 181 news pages: its evaluate.py at
// https://github.com/scrapinghub/article-extraction-benchmark (read at commit 11b407d).
//
// - Tokens are the runs of word characters (Python's `\w+` with re.UNICODE: letters, digits and
//   the underscore); case is kept.
// - Shingles are the 4-grams of consecutive tokens, counted as a multiset; a text of fewer than
//   four tokens is one shorter shingle, an empty text has none.
// - Per page: tp = Σ min(true, predicted) per shingle, fp and fn the excesses; the three are
//   divided by their sum so that a long page weighs no more than a short one.
// - Over pages: precision is the mean of per-page precisions over the pages with tp + fp > 0,
//   recall the mean over pages with tp + fn > 0 (a page where fp = fn = 0 scores 1 on both),
//   and F1 the harmonic mean of those two means (not a mean of per-page F1s).
// The benchmark also prints bootstrap confidence intervals; they are left out here.

const NGRAM = 4;
const TOKEN = /[\p{L}\p{N}_]+/gu;

function shingles(text: string): Map<string, number> {
  const tokens = text.match(TOKEN) ?? [];
  const out = new Map<string, number>();
  const last = Math.max(1, tokens.length - NGRAM + 1);
  for (let i = 0; i < last; i++) {
    const gram = tokens.slice(i, i + NGRAM);
    if (!gram.length) continue;
    // U+0001 cannot be inside a token, so joined shingles stay distinct.
    const key = gram.join('\u0001');
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** One page's tp, fp and fn, normalized to sum to 1 (all 0 when both texts are empty). */
export function shingleMatch(truth: string, predicted: string): [number, number, number] {
  const t = shingles(truth);
  const p = shingles(predicted);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [key, tc] of t) {
    const pc = p.get(key) ?? 0;
    tp += Math.min(tc, pc);
    fn += Math.max(0, tc - pc);
  }
  for (const [key, pc] of p) fp += Math.max(0, pc - (t.get(key) ?? 0));
  const sum = tp + fp + fn;
  return sum > 0 ? [tp / sum, fp / sum, fn / sum] : [0, 0, 0];
}

export interface ShingleScore {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall and F1 over pages, as the benchmark aggregates them. */
export function shingleScore(pages: [number, number, number][]): ShingleScore {
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const precision = mean(pages.filter(([tp, fp]) => tp + fp > 0).map(([tp, fp, fn]) => (fp === 0 && fn === 0 ? 1 : tp / (tp + fp))));
  const recall = mean(pages.filter(([tp, , fn]) => tp + fn > 0).map(([tp, fp, fn]) => (fp === 0 && fn === 0 ? 1 : tp / (tp + fn))));
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { pages: pages.length, precision, recall, f1 };
}
