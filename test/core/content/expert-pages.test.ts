// Pages an expert would sign (test/fixtures/content/sites/expert.test: named and linked sources,
// sourced figures, an attributed quotation, a direct answer first, an FAQ, author and publisher,
// recent declared dates, JSON-LD; in English, German and French) score 80 or more; a page
// declared in 2019 is not made fresh by the recent dates its text and structured data mention;
// a buying guide's trends and prompts name its subject and no fragment. The per-case labels of
// these pages are in manifest.json (fixtures.test.ts); this file asserts the reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverTrends, suggestPrompts } from '../../../src/core/content/index.ts';
import { scoreDocument } from '../../../src/core/content/score.ts';
import { extractPage } from '../../../src/core/pages/extract/index.ts';
import { fixtureLoader } from './fixture-loader.ts';
import { evaluate, nonsense, scoreTexts } from './label-eval.ts';

const E = 'https://expert.test';
const EXCELLENT: [string, string?][] = [
  [`${E}/guides/heat-pump-running-costs`],
  [`${E}/health/daily-water-intake`],
  [`${E}/de/ratgeber/photovoltaik-kosten`, 'de'],
  [`${E}/fr/guides/teletravail-productivite`, 'fr'],
  [`${E}/reviews/best-robot-vacuum`],
];

for (const [url, lang] of EXCELLENT) {
  test(`an excellent page scores 80 or more, with its evidence seen (${url})`, async () => {
    const { score } = await evaluate(url, lang);
    assert.ok(score.overall_score >= 80, `${score.overall_score}: ${JSON.stringify(score.score_breakdown.filter((p) => p.points < p.max))}`);
    const point = (signal: string) => score.score_breakdown.find((p) => p.signal === signal)!;
    for (const signal of ['answer_first', 'named_sources', 'attributed_quotations', 'author', 'organization', 'declared_date', 'schema', 'questions_answered']) {
      assert.equal(point(signal).points, point(signal).max, `${signal}: ${point(signal).evidence}`);
    }
    assert.ok(point('sourced_statistics').points >= point('sourced_statistics').max / 2, point('sourced_statistics').evidence);
  });
}

test('sources opening a sentence, figures a named speaker gives and the publisher’s own tests are sourced', async () => {
  const fr = (await evaluate(`${E}/fr/guides/teletravail-productivite`, 'fr')).score.signals.evidence;
  assert.ok(fr.attributed_claims >= 1, 'Selon l’Insee… names a source');
  const de = (await evaluate(`${E}/de/ratgeber/photovoltaik-kosten`, 'de')).score.signals.evidence;
  assert.ok(!de.unsourced_figures.some((f) => f.includes('Quaschning')), 'a figure in an attributed quotation has its source');
  const robot = (await evaluate(`${E}/reviews/best-robot-vacuum`)).score.signals.evidence;
  assert.ok(!robot.unsourced_figures.some((f) => f.startsWith('We ran every robot')), JSON.stringify(robot.unsourced_figures));
});

test('an author and publisher given by @id in a JSON-LD @graph are read', async () => {
  const { score } = await evaluate(`${E}/guides/heat-pump-running-costs`);
  assert.equal(score.signals.citability.author, 'Owen Price');
  assert.equal(score.signals.citability.author_checkable, true);
  assert.equal(score.signals.citability.organization, 'Greenhome Advice');
});

test('freshness comes from the page’s declared dates, never from dates it mentions', async () => {
  // Declared 2019 (JSON-LD, meta, <time pubdate>); the text names events of 2025 and the JSON-LD
  // describes an Event published in 2025.
  const { score } = await evaluate(`${E}/archive/remote-work-statistics`);
  assert.equal(score.signals.freshness.newest, '2019-04-02');
  assert.equal(score.signals.freshness.consistent, true);
  assert.ok(score.signals.freshness.visible_dates.includes('2025-05-02'));
  assert.equal(score.content_freshness.score, 0, JSON.stringify(score.content_freshness));
  const date = score.score_breakdown.find((p) => p.signal === 'declared_date')!;
  assert.equal(date.points, 0, date.evidence);
  // The same page without its Event node, and without any dates in its text, scores the same.
  const html = `<!doctype html><html lang="en"><head><title>Remote work statistics</title>
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Remote work statistics","datePublished":"2019-03-12","dateModified":"2019-04-02"}</script></head>
    <body><main><h1>Remote work statistics</h1><p>About 5% of full-time employees in the United States worked mainly from home in 2018, according to the U.S. Census Bureau.</p>
    <p>The next summit takes place on <time datetime="2025-04-14">April 14, 2025</time>, and its organisers announced on May 2, 2025 that a report will follow.</p></main></body></html>`;
  const now = new Date('2025-06-01T00:00:00Z');
  const withDates = scoreDocument(extractPage(html, 'https://blog.example/stats'), { now, trends: ['remote work'] });
  const without = scoreDocument(extractPage(html.replace(/<p>The next summit[\s\S]*?<\/p>/, ''), 'https://blog.example/stats'), { now, trends: ['remote work'] });
  assert.equal(withDates.signals.freshness.newest, '2019-04-02');
  assert.equal(withDates.content_freshness.score, without.content_freshness.score);
});

test('a buying guide’s trends name its subject, and no trend, question or prompt is a fragment', async () => {
  const url = `${E}/reviews/best-robot-vacuum`;
  const trends = await discoverTrends({ url }, fixtureLoader());
  const names = trends.trends.map((t) => t.name);
  assert.equal(names[0], 'robot vacuum', names.join(' | '));
  assert.ok(!names.includes('robot'), 'the subject replaces a shorter form of itself');
  assert.ok(!names.some((n) => /actually|cleans/.test(n)), names.join(' | '));
  const prompts = await suggestPrompts({ url, count: 10 }, fixtureLoader());
  assert.ok(prompts.prompts.some((p) => p.includes('robot vacuum')), prompts.prompts.join(' | '));
  const { score } = await evaluate(url);
  const texts = [
    ...scoreTexts(score),
    ...trends.trends.flatMap((t) => [{ kind: 'trend' as const, text: t.name, lang: 'en' }, ...t.questions.map((q) => ({ kind: 'question' as const, text: q, lang: 'en' }))]),
    ...prompts.prompts.map((p) => ({ kind: 'prompt' as const, text: p, lang: 'en' })),
  ];
  assert.deepEqual(nonsense(texts), []);
});

test('every excellent page’s subject is among its trends, and German and French trends are not fragments', async () => {
  const subjects: Record<string, string> = {
    [`${E}/guides/heat-pump-running-costs`]: 'heat pump',
    [`${E}/de/ratgeber/photovoltaik-kosten`]: 'Photovoltaikanlage',
    [`${E}/fr/guides/teletravail-productivite`]: 'télétravail',
  };
  for (const [url, subject] of Object.entries(subjects)) {
    const lang = url.includes('/de/') ? 'de' : url.includes('/fr/') ? 'fr' : 'en';
    const t = await discoverTrends({ url }, fixtureLoader());
    const names = t.trends.map((x) => x.name);
    assert.ok(names.includes(subject), `${url}: ${names.join(' | ')}`);
    assert.deepEqual(nonsense(t.trends.flatMap((x) => [{ kind: 'trend' as const, text: x.name, lang }, ...x.questions.map((q) => ({ kind: 'question' as const, text: q, lang }))])), []);
    // Names of people and bodies are not topics.
    assert.ok(!names.some((n) => /nicholas bloom|energy saving trust/i.test(n)), names.join(' | '));
  }
});

test('the nonsense rules catch fragments and questions about nothing', () => {
  const found = nonsense([
    { kind: 'prompt', text: 'What is general?', lang: 'en' },
    { kind: 'trend', text: 'surveys say', lang: 'en' },
    { kind: 'trend', text: 'Anlage rechnet', lang: 'de' },
    { kind: 'trend', text: 'trois jours', lang: 'fr' },
    { kind: 'question', text: 'What should I know about actually cleans?', lang: 'en' },
    { kind: 'question', text: 'Wovon hängt: Was sollte ich wissen?', lang: 'de' },
  ]);
  assert.equal(found.length, 6, found.join('\n'));
  assert.deepEqual(nonsense([{ kind: 'trend', text: 'robot vacuum', lang: 'en' }, { kind: 'trend', text: 'Batteriespeicher', lang: 'de' }, { kind: 'prompt', text: 'What is a heat pump?', lang: 'en' }]), []);
});
