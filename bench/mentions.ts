// Precision and recall of the mention matcher on the labelled answers of issue #18
// (test/fixtures/mentions/labelled.ts): per rule, per language, and overall, with every wrong
// answer listed. Also times the analysis on a long answer, to show it stays linear.
//
//   npm run bench:mentions
import { performance } from 'node:perf_hooks';
import { analyzeAnswer } from '../src/core/visibility/analysis.ts';
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

// Linear in the answer length: the time per KB stays flat as answers grow.
console.log('\nAnalysis time per answer (target + 5 competitors, mixed scripts, links, everyday words)');
const unit =
  'Acmeology aside, **Acme** (acme.com) beats Globex; see https://acme.com/x and sales@acme.com. _Zoom_ or zoom in. 我推荐小米手机。AT & T, H&M. ';
for (const kb of [1, 10, 100]) {
  const text = unit.repeat(Math.ceil((kb * 1024) / unit.length));
  const input = { text, citations: [], targetEntity: 'Acme', targetUrl: 'https://acme.com', competitors: ['Globex', 'Zoom', '小米', 'AT&T', 'H&M'], language: 'en' };
  analyzeAnswer(input);
  const runs = kb >= 100 ? 5 : 50;
  const t = performance.now();
  for (let i = 0; i < runs; i++) analyzeAnswer(input);
  const ms = (performance.now() - t) / runs;
  console.log(`  ${String(kb).padStart(4)} KB: ${ms.toFixed(2)} ms (${(ms / kb).toFixed(3)} ms/KB)`);
}
if (all.precision < 1 || all.recall < 1) process.exitCode = 1;
