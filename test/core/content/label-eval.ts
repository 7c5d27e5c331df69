// The labelled evaluation of Content Intelligence over the fixture sites (manifest.json): each
// case's expected page type, band, must / must-not recommendations, audit findings and crawler
// findings; the good-vs-bad twin spreads; punctuation/whitespace stability; and rules that catch
// template nonsense in any text the engine writes. Used by test/core/content/fixtures.test.ts
// (every label must hold) and by `npm run bench:content` (which prints the agreement).
import { readFileSync } from 'node:fs';
import { auditSite, scoreContent, type AuditResult, type ContentScore } from '../../../src/core/content/index.ts';
import { nonsense, type CheckedText } from '../../../src/core/content/nonsense.ts';
import { FIXTURES, fixtureLoader } from './fixture-loader.ts';

export { nonsense };

export interface LabelCase {
  url: string;
  page_type: string;
  language?: string;
  band?: string[];
  must: string[];
  must_not: string[];
  audit_must: string[];
  audit_must_not?: string[];
  crawl?: { blocked_search?: string[]; blocked_training_includes?: string[] };
}

export interface Manifest {
  now: string;
  cases: LabelCase[];
  twins: { kind: string; good: string; bad: string }[];
  stability: { base: string; edited: string }[];
  pairs: { topic: string; strong: string; weak: string }[];
}

export const manifest = JSON.parse(readFileSync(FIXTURES + 'manifest.json', 'utf8')) as Manifest;

export interface Evaluated {
  score: ContentScore;
  audit: AuditResult;
}

const cache = new Map<string, Promise<Evaluated>>();
export function evaluate(url: string, language?: string): Promise<Evaluated> {
  let p = cache.get(url);
  if (!p) {
    p = (async () => {
      const loader = fixtureLoader();
      const now = new Date(manifest.now);
      return { score: await scoreContent({ url, language }, loader, { now }), audit: await auditSite(url, loader) };
    })();
    cache.set(url, p);
  }
  return p;
}

/** Every label of one case that does not hold, as readable strings (empty = agrees). */
export function disagreements(c: LabelCase, r: Evaluated): string[] {
  const out: string[] = [];
  // A recommendation that makes one change for several signals names each of them.
  const recs = new Set(r.score.recommendations.flatMap((x) => x.signals ?? [x.signal]));
  const audit = new Set(r.audit.recommendations.map((x) => x.signal));
  if (r.score.page_type !== c.page_type) out.push(`page_type ${r.score.page_type} (${r.score.signals.page_type_reason}), expected ${c.page_type}`);
  if (c.band && !c.band.includes(r.score.overall_band)) out.push(`band ${r.score.overall_band} (${r.score.overall_score}), expected ${c.band.join('/')}`);
  for (const s of c.must) if (!recs.has(s)) out.push(`missing recommendation ${s}`);
  for (const s of c.must_not) if (recs.has(s)) out.push(`unwanted recommendation ${s}`);
  for (const s of c.audit_must) if (!audit.has(s)) out.push(`missing audit finding ${s}`);
  for (const s of c.audit_must_not ?? []) if (audit.has(s)) out.push(`unwanted audit finding ${s}`);
  const crawl = r.score.crawl_access;
  if (c.crawl?.blocked_search && crawl) {
    const got = [...crawl.blocked_search].sort().join(',');
    const want = [...c.crawl.blocked_search].sort().join(',');
    if (got !== want) out.push(`blocked search crawlers [${got}], expected [${want}]`);
  }
  for (const a of c.crawl?.blocked_training_includes ?? []) if (!crawl?.blocked_training.includes(a)) out.push(`training crawler ${a} not reported blocked`);
  return out;
}

/** The texts of one score the nonsense rules look at. */
export function scoreTexts(r: ContentScore): CheckedText[] {
  return [
    ...r.recommendations.map((x) => ({ kind: 'recommendation' as const, text: `${x.title}: ${x.recommendation}` })),
    ...r.trend_coverage.map((x) => ({ kind: 'trend' as const, text: x.trend, lang: r.signals.language })),
    ...r.trend_coverage.map((x) => ({ kind: 'trend action' as const, text: x.action })),
  ];
}
