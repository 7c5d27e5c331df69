// Fits the page-type model's weights (src/core/pages/page-kind-model.ts) on our labels and writes
// catalog/page-type-weights.json. Protocol: train only on test/fixtures/page-types/labels.json;
// the L2 strength is chosen by 5-fold cross-validation on those pages (fold = position mod 5);
// the fresh held-out set (labels-held-out-2.json) is never read here unless --fresh is given, and
// then only to measure the already-written weights.
//
//   npm run fit:page-types -- --dataset DIR           # CV table, fit, write the weights
//   npm run fit:page-types -- --dataset DIR --fresh   # measure the written weights on the fresh set
//
// Softmax regression by full-batch gradient descent (about 40 lines below): the npm packages
// looked at were one-vs-rest (ml-logistic-regression) or pull in a tensor runtime; a dense
// 7 x ~100 problem on 311 pages needs neither.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decode, FRESH_LABELS_FILE, readLabels, type LabelledPage } from '../bench/lib/wcxb-types.ts';
import { extractPage } from '../src/core/pages/extract/index.ts';
import { pageTypeSignals, type PageTypeSignals } from '../src/core/pages/page-kind.ts';
import { MODEL_TYPES, modelScores, pageTypeFeatures, type PageTypeWeights } from '../src/core/pages/page-kind-model.ts';

const argv = process.argv.slice(2);
const at = argv.indexOf('--dataset');
const DATASET = at >= 0 ? argv[at + 1]! : join(import.meta.dirname, '../../shared/datasets/wcxb-dev');
const OUT = join(import.meta.dirname, '../catalog/page-type-weights.json');
const LAMBDAS = [0.00003, 0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1];

const signalsOf = (l: LabelledPage): PageTypeSignals =>
  pageTypeSignals(extractPage(decode(gunzipSync(readFileSync(join(DATASET, 'html', `${l.id}.html.gz`)))), l.url || `https://wcxb.example/${l.id}`));
const isRoot = (s: PageTypeSignals) => s.votes.some((v) => v.rule === 'site root URL');

interface Example {
  x: Map<string, number>;
  y: number;
}

/** Softmax regression, L2 on the weights (not the bias), full-batch gradient descent. */
function fit(data: Example[], features: string[], lambda: number, iters = 3000, rate = 0.5): number[][] {
  const K = MODEL_TYPES.length;
  const D = features.length + 1;
  const W = Array.from({ length: K }, () => new Array<number>(D).fill(0));
  // Sparse rows: [column, value] pairs, column 0 the bias.
  const rows = data.map((e) => [[0, 1] as const, ...features.map((f, j) => [j + 1, e.x.get(f) ?? 0] as const).filter(([, v]) => v !== 0)]);
  for (let it = 0; it < iters; it++) {
    const G = Array.from({ length: K }, () => new Array<number>(D).fill(0));
    rows.forEach((r, i) => {
      const z = W.map((w) => r.reduce((a, [j, v]) => a + w[j]! * v, 0));
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let k = 0; k < K; k++) {
        const d = e[k]! / sum - (k === data[i]!.y ? 1 : 0);
        for (const [j, v] of r) G[k]![j]! += d * v;
      }
    });
    for (let k = 0; k < K; k++) for (let j = 0; j < D; j++) W[k]![j]! -= rate * (G[k]![j]! / rows.length + (j ? lambda * W[k]![j]! : 0));
  }
  return W;
}

const predict = (w: PageTypeWeights, x: Map<string, number>) => modelScores(w, x).reduce((a, b) => (b.score > a.score ? b : a)).type;

function scaleOf(sigs: PageTypeSignals[]): PageTypeWeights['scale'] {
  const out: PageTypeWeights['scale'] = {};
  for (const name of Object.keys(sigs[0]!.numbers)) {
    const v = sigs.map((s) => Math.log1p(Math.max(0, s.numbers[name]!)));
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    out[name] = { mean, sd: Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length) };
  }
  return out;
}

function train(sigs: PageTypeSignals[], labels: string[], lambda: number): PageTypeWeights {
  const scale = scaleOf(sigs);
  const xs = sigs.map((s) => pageTypeFeatures(s, scale));
  const features = [...new Set(xs.flatMap((x) => [...x.keys()]))].sort();
  const data = xs.map((x, i) => ({ x, y: MODEL_TYPES.indexOf(labels[i] as never) }));
  return { features, scale, weights: fit(data, features, lambda), lambda, trainedOn: 'test/fixtures/page-types/labels.json' };
}

/** The model's answer, with the site-root rule decisive (as at runtime). */
const answer = (w: PageTypeWeights, s: PageTypeSignals) => (isRoot(s) ? 'home' : predict(w, pageTypeFeatures(s, w.scale)));

if (argv.includes('--fresh')) {
  const w = JSON.parse(readFileSync(OUT, 'utf8')) as PageTypeWeights;
  const fresh = readLabels(FRESH_LABELS_FILE);
  let right = 0;
  for (const l of fresh) if (answer(w, signalsOf(l)) === l.label) right++;
  console.log(
    `fresh held-out (labels-held-out-2.json), weights as written (lambda ${w.lambda}): ${((100 * right) / fresh.length).toFixed(1)}% (${right} of ${fresh.length})`,
  );
} else {
  const labels = readLabels();
  const sigs = labels.map(signalsOf);
  // Site-root pages are the home rule's: the model is neither trained nor judged on them.
  const keep = labels.map((_, i) => i).filter((i) => !isRoot(sigs[i]!) && MODEL_TYPES.includes(labels[i]!.label as never));
  const skipped = labels.length - keep.length;
  console.log(`${labels.length} labels; ${keep.length} for the model (${skipped} site-root or home pages left to the home rule)`);
  let bestLambda = LAMBDAS[0]!;
  let bestAcc = -1;
  for (const lambda of LAMBDAS) {
    let right = 0;
    for (let fold = 0; fold < 5; fold++) {
      const tr = keep.filter((_, n) => n % 5 !== fold);
      const te = keep.filter((_, n) => n % 5 === fold);
      const w = train(
        tr.map((i) => sigs[i]!),
        tr.map((i) => labels[i]!.label),
        lambda,
      );
      for (const i of te) if (predict(w, pageTypeFeatures(sigs[i]!, w.scale)) === labels[i]!.label) right++;
    }
    const acc = right / keep.length;
    console.log(`lambda ${lambda}: 5-fold CV ${(100 * acc).toFixed(1)}% (${right} of ${keep.length})`);
    if (acc > bestAcc) {
      bestAcc = acc;
      bestLambda = lambda;
    }
  }
  const w = train(
    keep.map((i) => sigs[i]!),
    keep.map((i) => labels[i]!.label),
    bestLambda,
  );
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  w.weights = w.weights.map((r) => r.map(round));
  for (const s of Object.values(w.scale)) [s.mean, s.sd] = [round(s.mean), round(s.sd)];
  writeFileSync(OUT, `${JSON.stringify(w, null, 1)}\n`);
  let right = 0;
  labels.forEach((l, i) => {
    if (answer(w, sigs[i]!) === l.label) right++;
  });
  console.log(
    `chosen lambda ${bestLambda}; on all ${labels.length} training labels (home rule included): ${((100 * right) / labels.length).toFixed(1)}% (${right}); wrote ${OUT}`,
  );
}
