// Learned weights for the page-type rule votes (issue 29, page types round 2): an experiment, not
// what detectPageType answers. The rules of page-kind.ts fire as before; instead of adding their
// hand-set points, a multinomial logistic regression (softmax with L2) weighs each rule that fired
// and a few structural numbers. The weights are fitted on test/fixtures/page-types/labels.json
// only, by `npm run fit:page-types -- --dataset DIR` (scripts/fit-page-types.ts), and stored in
// catalog/page-type-weights.json. On the fresh held-out set they reach 77.1 %, not better than the
// hand weights' 77.8 % (bench/README.md), so the runtime keeps the hand weights; this module is
// used by the fit script only. It is pure: it only multiplies stored weights.
import type { PageType, PageTypeSignals } from './page-kind.ts';

/** The seven types the model chooses between; home is the site-root rule's alone. */
export const MODEL_TYPES: readonly PageType[] = ['article', 'product', 'collection', 'listing', 'documentation', 'service', 'forum'];

export interface PageTypeWeights {
  /** Feature names, in the order of each row of `weights`. */
  features: string[];
  /** The numeric features' mean and spread on the training pages (of log1p of the number). */
  scale: Record<string, { mean: number; sd: number }>;
  /** One row per MODEL_TYPES entry: a bias then one weight per feature. */
  weights: number[][];
  lambda: number;
  trainedOn: string;
}

/** A page's features: one per rule vote that fired (`vote:<type>:<rule>` = 1) and the structural
 * numbers, as standardized log1p. Unknown vote names are simply not in the weights. */
export function pageTypeFeatures(signals: PageTypeSignals, scale?: PageTypeWeights['scale']): Map<string, number> {
  const x = new Map<string, number>();
  for (const v of signals.votes) x.set(`vote:${v.type}:${v.rule}`, 1);
  for (const [name, value] of Object.entries(signals.numbers)) {
    const lv = Math.log1p(Math.max(0, value));
    const s = scale?.[name];
    x.set(`num:${name}`, s ? (lv - s.mean) / (s.sd || 1) : lv);
  }
  return x;
}

/** Each type's score (logit) and the feature that added most to it. */
export function modelScores(w: PageTypeWeights, x: Map<string, number>): { type: PageType; score: number; top: string | undefined }[] {
  return MODEL_TYPES.map((type, k) => {
    const row = w.weights[k]!;
    let score = row[0]!;
    let top: string | undefined;
    let topGain = 0;
    w.features.forEach((f, j) => {
      const v = x.get(f);
      if (!v) return;
      const gain = row[j + 1]! * v;
      score += gain;
      if (gain > topGain && f.startsWith('vote:')) {
        topGain = gain;
        top = f;
      }
    });
    return { type, score, top };
  });
}
