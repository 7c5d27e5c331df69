// The learned layer of the page-type rule: a multinomial logistic regression over the evidence of
// ./page-type-evidence.ts (the hand-written rules' votes and the page's voice, calls to action,
// layout, text, address, headings, title and prices). Its weights are in
// catalog/page-type-model.json, fitted by `npm run fit:page-types` on the labelled WCXB pages of
// test/fixtures/page-types (leave-one-set-out accuracy printed there and in bench/HISTORY.md).
// The fit reads the rules' votes: a change to a rule in ./page-kind.ts is followed by a refit.
//
// It is explainable: each answer's reason names the evidence that moved it most, as the
// difference of the two types' weighted, standardized numbers.
import { readFileSync } from 'node:fs';
import type { PageType } from './page-kind.ts';

export interface PageTypeModel {
  /** What the weights were fitted on and how (the label files, pages, λ, gradient steps). */
  fitted: { labels: string[]; pages: number; lambda: number; steps: number };
  types: PageType[];
  features: string[];
  mean: number[];
  sd: number[];
  /** weights[t][k]: the weight of feature k for types[t]. */
  weights: number[][];
  bias: number[];
}

let bundled: PageTypeModel | undefined;
/** The bundled model (catalog/page-type-model.json), read once. */
export function pageTypeModel(): PageTypeModel {
  bundled ??= JSON.parse(readFileSync(new URL('../../../catalog/page-type-model.json', import.meta.url), 'utf8')) as PageTypeModel;
  return bundled;
}

/** The model's standardized inputs for one page's evidence (features it was not fitted on count 0). */
function standardized(evidence: Record<string, number>, m: PageTypeModel): number[] {
  return m.features.map((k, i) => ((evidence[k] ?? 0) - m.mean[i]!) / m.sd[i]!);
}

/** Each type's probability. */
export function typeProbabilities(evidence: Record<string, number>, m: PageTypeModel = pageTypeModel()): Record<PageType, number> {
  const z = standardized(evidence, m);
  const logits = m.weights.map((w, t) => w.reduce((a, wk, k) => a + wk * z[k]!, m.bias[t]!));
  const top = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return Object.fromEntries(m.types.map((t, i) => [t, e[i]! / sum])) as Record<PageType, number>;
}

/** Votes the layer never overrides: the two facts of the address the rules treat as decisive, a
 * site's root (home) and a search (results are a listing whatever they show). */
const DECISIVE = new Set(['site root URL', 'search URL', 'JSON-LD SearchResultsPage']);

/** The learned answer: the most probable of the types some rule voted for and article (the
 * default), the rules' own answer when none is more probable. The layer weighs the rules' evidence
 * against each other; it does not find a type no rule saw, and it leaves a decisive vote's answer
 * (DECISIVE) alone. */
export function learnedChoice(p: Record<PageType, number>, ruleType: PageType, votes: { type: PageType; rule: string }[]): PageType {
  if (votes.some((v) => DECISIVE.has(v.rule) && v.type === ruleType)) return ruleType;
  const voted = votes.map((v) => v.type);
  const candidates = new Set<PageType>(['article', ...voted]);
  let type = ruleType;
  for (const t of candidates) if (t !== 'home' && p[t] > p[type]) type = t;
  return type;
}

/** The evidence that moved the answer from `other` to `type` most: name and contribution, largest first. */
export function strongestEvidence(
  evidence: Record<string, number>,
  type: PageType,
  other: PageType,
  n = 3,
  m: PageTypeModel = pageTypeModel(),
): { feature: string; by: number }[] {
  const z = standardized(evidence, m);
  const a = m.weights[m.types.indexOf(type)]!;
  const b = m.weights[m.types.indexOf(other)]!;
  return m.features
    .map((feature, k) => ({ feature, by: (a[k]! - b[k]!) * z[k]! }))
    .filter((x) => x.by > 0)
    .sort((x, y) => y.by - x.by)
    .slice(0, n);
}

/** Fits the model: softmax regression, L2 (λ) on the weights, full-batch Adam from zero, so the
 * same pages give the same weights. `rows` are evidence records, `labels` their types. */
export function fitPageTypeModel(
  rows: Record<string, number>[],
  labels: PageType[],
  lambda: number,
  types: PageType[],
  steps = 1500,
): Omit<PageTypeModel, 'fitted'> {
  const features = [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();
  const n = rows.length;
  const d = features.length;
  const K = types.length;
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  const Z = new Float64Array(n * d); // row-major, standardized
  rows.forEach((r, i) => features.forEach((k, j) => (Z[i * d + j] = r[k] ?? 0)));
  for (let j = 0; j < d; j++) {
    let a = 0;
    for (let i = 0; i < n; i++) a += Z[i * d + j]!;
    mean[j] = a / n;
    let v = 0;
    for (let i = 0; i < n; i++) v += (Z[i * d + j]! - mean[j]!) ** 2;
    sd[j] = Math.sqrt(v / n) + 1e-6;
    for (let i = 0; i < n; i++) Z[i * d + j] = (Z[i * d + j]! - mean[j]!) / sd[j]!;
  }
  const y = labels.map((l) => types.indexOf(l));
  // Parameters: K rows of d weights, then K biases; Adam's moments alike.
  const P = new Float64Array(K * d + K);
  const M = new Float64Array(P.length);
  const V = new Float64Array(P.length);
  const G = new Float64Array(P.length);
  const logits = new Float64Array(K);
  const rate = 0.05;
  for (let step = 1; step <= steps; step++) {
    G.fill(0);
    for (let i = 0; i < n; i++) {
      const off = i * d;
      let top = -Infinity;
      for (let t = 0; t < K; t++) {
        let a = P[K * d + t]!;
        const w = t * d;
        for (let j = 0; j < d; j++) a += P[w + j]! * Z[off + j]!;
        logits[t] = a;
        if (a > top) top = a;
      }
      let sum = 0;
      for (let t = 0; t < K; t++) sum += logits[t] = Math.exp(logits[t]! - top);
      for (let t = 0; t < K; t++) {
        const g = (logits[t]! / sum - (y[i] === t ? 1 : 0)) / n;
        G[K * d + t]! += g;
        const w = t * d;
        for (let j = 0; j < d; j++) G[w + j]! += g * Z[off + j]!;
      }
    }
    const c1 = 1 - 0.9 ** step;
    const c2 = 1 - 0.999 ** step;
    for (let p = 0; p < P.length; p++) {
      const g = G[p]! + (p < K * d ? lambda * P[p]! : 0);
      M[p] = 0.9 * M[p]! + 0.1 * g;
      V[p] = 0.999 * V[p]! + 0.001 * g * g;
      P[p]! -= (rate * (M[p]! / c1)) / (Math.sqrt(V[p]! / c2) + 1e-8);
    }
  }
  return {
    types,
    features,
    mean: [...mean],
    sd: [...sd],
    weights: types.map((_, t) => [...P.subarray(t * d, (t + 1) * d)]),
    bias: [...P.subarray(K * d)],
  };
}
