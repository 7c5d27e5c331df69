// The fixture suite: 26 pages on 8 fixture sites, each annotated in manifest.json with every
// defect it has. Asserts each expected defect is detected and yields the recommendation keyed by
// the same signal, prints detection recall and precision over the whole suite, and checks that
// a strong page outscores a weak page on the same topic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { auditSite, scoreContent, type ContentScore, type AuditResult } from '../../../src/core/content/index.ts';
import { FIXTURES, fixtureLoader } from './fixture-loader.ts';

interface Case { url: string; page_type: string; language?: string; page: string[]; audit: string[] }
const manifest = JSON.parse(readFileSync(FIXTURES + 'manifest.json', 'utf8')) as {
  now: string;
  cases: Case[];
  pairs: { topic: string; strong: string; weak: string }[];
};
const now = new Date(manifest.now);

const results = new Map<string, { score: ContentScore; audit: AuditResult }>();
async function run(c: Case) {
  let r = results.get(c.url);
  if (!r) {
    const loader = fixtureLoader();
    r = { score: await scoreContent({ url: c.url, language: c.language }, loader, { now }), audit: await auditSite(c.url, loader) };
    results.set(c.url, r);
  }
  return r;
}

test('the suite has at least 25 annotated pages', () => {
  assert.ok(manifest.cases.length >= 25, `only ${manifest.cases.length} cases`);
});

for (const c of manifest.cases) {
  test(`fixture ${c.url}: expected defects are detected with matching recommendations`, async () => {
    const { score, audit } = await run(c);
    assert.equal(score.page_type, c.page_type, `page type (${score.signals.page_type_reason})`);
    for (const d of c.page) {
      const rec = score.recommendations.find((r) => r.signal === d);
      assert.ok(rec, `page defect ${d} not detected; got ${score.recommendations.map((r) => r.signal).join(', ')}`);
      assert.ok(rec.recommendation.length > 40 && !/improve (the )?content/i.test(rec.recommendation), `recommendation for ${d} is not concrete`);
    }
    for (const d of c.audit) {
      const rec = audit.recommendations.find((r) => r.signal === d);
      assert.ok(rec, `audit defect ${d} not detected; got ${audit.recommendations.map((r) => r.signal).join(', ')}`);
    }
  });
}

test('detection recall and precision over the whole suite', async () => {
  let expected = 0;
  let truePositives = 0;
  let detected = 0;
  const falsePositives: string[] = [];
  for (const c of manifest.cases) {
    const { score, audit } = await run(c);
    const found = [
      ...new Set(score.recommendations.map((r) => r.signal).filter((s) => s !== 'trend_gap')),
    ].map((s) => `page:${s}`);
    found.push(...new Set(audit.recommendations.map((r) => `audit:${r.signal}`)));
    const want = new Set([...c.page.map((s) => `page:${s}`), ...c.audit.map((s) => `audit:${s}`)]);
    expected += want.size;
    detected += found.length;
    for (const f of found) {
      if (want.has(f)) truePositives++;
      else falsePositives.push(`${c.url} ${f}`);
    }
  }
  const recall = truePositives / expected;
  const precision = truePositives / detected;
  console.log(
    `content fixture suite: ${manifest.cases.length} pages, ${expected} expected defects, ${detected} detected, ` +
      `recall ${(recall * 100).toFixed(1)}%, precision ${(precision * 100).toFixed(1)}%`,
  );
  if (falsePositives.length) console.log(`false positives:\n  ${falsePositives.join('\n  ')}`);
  assert.equal(recall, 1);
  assert.ok(precision >= 0.9, `precision ${precision}`);
});

for (const p of manifest.pairs) {
  test(`a strong page outscores a weak page on "${p.topic}"`, async () => {
    const strong = await run(manifest.cases.find((c) => c.url === p.strong)!);
    const weak = await run(manifest.cases.find((c) => c.url === p.weak)!);
    assert.ok(strong.score.overall_score > weak.score.overall_score + 15, `${strong.score.overall_score} vs ${weak.score.overall_score}`);
    assert.ok(strong.score.content_depth.score > weak.score.content_depth.score);
    assert.ok(strong.score.recommendations.length < weak.score.recommendations.length);
  });
}

test('recommendations are ranked by expected impact and top_recommendations are the first three', async () => {
  const { score } = await run(manifest.cases.find((c) => c.url.endsWith('/project-management-tips'))!);
  const impacts = score.recommendations.map((r) => r.expected_impact);
  assert.deepEqual(impacts, [...impacts].sort((a, b) => b - a));
  assert.deepEqual(score.top_recommendations, score.recommendations.slice(0, 3).map((r) => r.recommendation));
  const meta = score.recommendations.find((r) => r.signal === 'missing_meta_description')!;
  assert.match(meta.recommendation, /140–160 characters/);
});
