import { scoreContent } from '../src/core/content/index.ts';
import { fixtureLoader } from '../test/core/content/fixture-loader.ts';
const url = process.argv[2]!;
const r = await scoreContent({ url }, fixtureLoader(), { now: new Date('2025-06-01T00:00:00Z') });
console.log(r.page_type, r.signals.page_type_reason, r.overall_score, JSON.stringify(r.components));
for (const p of r.score_breakdown) console.log(`  ${p.signal.padEnd(22)} ${String(p.points).padStart(6)}/${p.max}  ${p.evidence}`);
for (const x of r.recommendations) console.log(`  REC ${x.signal} +${x.expected_impact}: ${x.recommendation.slice(0, 150)}`);
console.log(JSON.stringify(r.signals.evidence, null, 0).slice(0, 1500));
