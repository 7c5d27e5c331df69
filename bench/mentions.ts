// Precision and recall of the mention matcher on the labelled answers of issue #18
// (test/fixtures/mentions/labelled.ts): per rule, per language, and overall, with every wrong
// answer listed. Also times the analysis on a long answer, to show it stays linear.
//
//   npm run bench:mentions
import { performance } from 'node:perf_hooks';
import { analyzeAnswer } from '../src/core/visibility/analysis.ts';
import { analyseProbe } from '../src/core/visibility/analysis/brands.ts';
import { LABELLED_ANSWERS, type LabelledAnswer } from '../test/fixtures/mentions/labelled.ts';
import { score } from '../test/fixtures/mentions/score.ts';

const fmt = (n: number) => n.toFixed(2);

function line(label: string, answers: LabelledAnswer[]) {
  const s = score(answers);
  console.log(
    `${label.padEnd(16)} ${String(s.total).padStart(4)}  tp ${String(s.tp).padStart(3)}  fp ${String(s.fp).padStart(2)}  fn ${String(s.fn).padStart(2)}  tn ${String(s.tn).padStart(3)}  precision ${fmt(s.precision)}  recall ${fmt(s.recall)}  citation errors ${s.citationWrong}/${s.citationChecked}`,
  );
  return s;
}

console.log(`Labelled answers: ${LABELLED_ANSWERS.length} in ${new Set(LABELLED_ANSWERS.map((a) => a.lang)).size} languages\n`);
console.log('By rule');
for (const rule of [...new Set(LABELLED_ANSWERS.map((a) => a.rule))]) line(rule, LABELLED_ANSWERS.filter((a) => a.rule === rule));
console.log('\nBy language');
for (const lang of [...new Set(LABELLED_ANSWERS.map((a) => a.lang))].sort()) line(lang, LABELLED_ANSWERS.filter((a) => a.lang === lang));
console.log('');
const all = line('ALL', LABELLED_ANSWERS);
for (const w of all.wrong) {
  console.log(`  wrong: [${w.answer.lang}] ${w.answer.brand} ${JSON.stringify(w.answer.text)} labelled ${w.answer.mentioned}/${w.answer.citation ?? '-'} got ${w.mentioned}/${w.citation}`);
}

// Linear in the answer length: the time per KB stays flat as answers grow. Each size is warmed
// up first, then timed over several runs; "full" adds the per-probe analysis (prominence, list
// ranks, discovered entities; no judge) to the mention analysis.
console.log('\nAnalysis time per answer (target + 5 competitors; mixed scripts, links, everyday words, lists)');
const unit =
  '1. **Acme** (acme.com) beats Globex; see https://acme.com/x and sales@acme.com. _Zoom_ or zoom in.\n2. 我推荐小米手机。AT & T, H&M. Acmeology aside.\n';
for (const kb of [1, 10, 100]) {
  const text = unit.repeat(Math.ceil((kb * 1024) / unit.length));
  const competitors = ['Globex', 'Zoom', '小米', 'AT&T', 'H&M'];
  const input = { text, citations: [], targetEntity: 'Acme', targetUrl: 'https://acme.com', competitors, language: 'en' };
  const full = async () =>
    analyseProbe({ prompt: 'p', text, language: 'en', target: 'Acme', competitors, analysis: analyzeAnswer(input), judge: null, signal: new AbortController().signal });
  const runs = kb >= 100 ? 10 : kb >= 10 ? 100 : 1000;
  for (let i = 0; i < Math.min(runs, 20); i++) await full();
  let t = performance.now();
  for (let i = 0; i < runs; i++) analyzeAnswer(input);
  const mentions = (performance.now() - t) / runs;
  t = performance.now();
  for (let i = 0; i < runs; i++) await full();
  const all = (performance.now() - t) / runs;
  console.log(`  ${String(kb).padStart(4)} KB: mentions ${mentions.toFixed(2)} ms (${(mentions / kb).toFixed(3)} ms/KB), full ${all.toFixed(2)} ms (${(all / kb).toFixed(3)} ms/KB)`);
}
if (all.precision < 1 || all.recall < 1) process.exitCode = 1;
