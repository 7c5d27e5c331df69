import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { extractPage } from '../src/core/pages/extract/index.ts';
import { measureSignals } from '../src/core/content/index.ts';
const D = '/work/shared/datasets/wcxb-dev/';
const gt = gunzipSync(readFileSync(D + 'ground-truth.jsonl.gz')).toString().trim().split('\n').map((l) => JSON.parse(l));
const step = Number(process.argv[2] ?? 5);
const conf: Record<string, Record<string, number>> = {};
let ok = 0, n = 0;
for (let i = 0; i < gt.length; i += step) {
  const g = gt[i];
  const html = gunzipSync(readFileSync(`${D}html/${g.id}.html.gz`)).toString();
  const doc = extractPage(html, g.url);
  const s = measureSignals(doc, { now: new Date('2026-01-01') });
  const want = g.page_type === 'documentation' ? 'documentation' : g.page_type;
  conf[want] ??= {};
  conf[want][s.page_type] = (conf[want][s.page_type] ?? 0) + 1;
  n++; if (s.page_type === want) ok++;
}
console.log(`accuracy ${(100 * ok / n).toFixed(1)}% of ${n}`);
for (const [k, v] of Object.entries(conf)) console.log(k.padEnd(14), JSON.stringify(v));
