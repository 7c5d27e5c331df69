// The labelled fixture suite (manifest.json, 52 pages on 14 fixture sites in four languages):
// every expert label holds (page type, band, must / must-not recommendations, audit and crawler
// findings); good twins score at least 20 above their stuffed, stale or blocked twins; edits of
// punctuation and whitespace move the score by at most 2; no template nonsense in the
// recommendations. `npm run bench:content` prints the same evaluation as numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disagreements, evaluate, manifest, nonsense, scoreTexts } from './label-eval.ts';

test('the labelled set has at least 40 pages in at least three languages', () => {
  assert.ok(manifest.cases.length >= 40, `only ${manifest.cases.length} cases`);
  const langs = new Set(manifest.cases.map((c) => c.language ?? 'en'));
  assert.ok(langs.size >= 3, [...langs].join(','));
});

for (const c of manifest.cases) {
  test(`labels hold for ${c.url}`, async () => {
    const r = await evaluate(c.url, c.language);
    assert.deepEqual(disagreements(c, r), []);
  });
}

for (const t of manifest.twins) {
  test(`good twin outscores its ${t.kind} twin by at least 20 (${t.bad})`, async () => {
    const good = await evaluate(t.good);
    const bad = await evaluate(t.bad);
    assert.ok(good.score.overall_score >= bad.score.overall_score + 20, `${good.score.overall_score} vs ${bad.score.overall_score}`);
  });
}

for (const s of manifest.stability) {
  test(`punctuation and whitespace edits move the score by at most 2 (${s.edited})`, async () => {
    const a = await evaluate(s.base);
    const b = await evaluate(s.edited);
    assert.ok(Math.abs(a.score.overall_score - b.score.overall_score) <= 2, `${a.score.overall_score} vs ${b.score.overall_score}`);
  });
}

for (const p of manifest.pairs) {
  test(`a strong page outscores a weak page on "${p.topic}"`, async () => {
    const strong = await evaluate(p.strong);
    const weak = await evaluate(p.weak);
    assert.ok(strong.score.overall_score > weak.score.overall_score + 15, `${strong.score.overall_score} vs ${weak.score.overall_score}`);
    assert.ok(strong.score.recommendations.length < weak.score.recommendations.length);
  });
}

test('no template nonsense in any recommendation', async () => {
  const found: string[] = [];
  for (const c of manifest.cases) found.push(...nonsense(scoreTexts((await evaluate(c.url, c.language)).score).filter((t) => t.kind === 'recommendation')));
  assert.deepEqual(found, []);
});

test('recommendations are ranked by expected impact and top_recommendations are the first three', async () => {
  const { score } = await evaluate('https://acme-pm.test/blog/project-management-tips');
  const impacts = score.recommendations.map((r) => r.expected_impact);
  assert.deepEqual(impacts, [...impacts].sort((a, b) => b - a));
  assert.deepEqual(score.top_recommendations, score.recommendations.slice(0, 3).map((r) => r.recommendation));
  const meta = score.recommendations.find((r) => r.signal === 'meta_description')!;
  assert.match(meta.recommendation, /140–160 characters/);
});
