import { readFileSync } from 'node:fs';
import { scoreContent, auditSite } from '../src/core/content/index.ts';
import { fixtureLoader, FIXTURES } from '../test/core/content/fixture-loader.ts';
const m = JSON.parse(readFileSync(FIXTURES + 'manifest.json', 'utf8'));
for (const c of m.cases) {
  const l = fixtureLoader();
  const r = await scoreContent({ url: c.url, language: c.language }, l, { now: new Date(m.now) });
  const a = await auditSite(c.url, l);
  console.log(`${c.url} [${c.page_type}→${r.page_type}] ${r.overall_score} ${r.overall_band}\n   recs: ${r.recommendations.filter(x=>x.signal!=='trend_gap').map((x) => x.signal + '+' + x.expected_impact).join(' ')}\n   audit: ${a.recommendations.map((x) => x.signal).join(' ')}\n   old: ${c.page.join(' ')}`);
}
