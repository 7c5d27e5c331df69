import { scoreContent } from '../src/core/content/index.ts';
import { fixtureLoader } from '../test/core/content/fixture-loader.ts';
for (const url of process.argv.slice(2)) {
const r = await scoreContent({ url }, fixtureLoader(), { now: new Date('2025-06-01T00:00:00Z') });
console.log(url, r.page_type, r.signals.page_type_reason, r.overall_score, JSON.stringify(r.crawl_access));
for (const p of r.score_breakdown) if (p.points < p.max || p.points < 0) console.log(`  ${p.signal.padEnd(22)} ${String(p.points).padStart(6)}/${p.max}  ${p.evidence.slice(0,140)}`);
console.log('  REC', r.recommendations.map((x) => `${x.signal}+${x.expected_impact}`).join(' '));
}
