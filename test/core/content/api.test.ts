// Shape, determinism and behaviour of each exported action, through the fixture SiteLoader:
// scoreContent (discovered and supplied trends), scoreDocument (pure), discoverTrends,
// auditSite and suggestPrompts (languages, brand rules, de-duplication, count bounds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AI_CRAWLERS,
  auditSite,
  bandOf,
  discoverTrends,
  scoreContent,
  scoreDocument,
  suggestPrompts,
  validateLlmsTxt,
  visibleDates,
  measureReadability,
} from '../../../src/core/content/index.ts';
import type { PageDocument } from '../../../src/core/pages/document.ts';
import { fixtureLoader } from './fixture-loader.ts';

const now = new Date('2025-06-01T00:00:00Z');
const GUIDE = 'https://acme-pm.test/blog/project-management-guide';
const isScore = (n: unknown) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 100;
const BANDS = ['Poor', 'Fair', 'Good', 'Strong'];

test('bands follow the documented thresholds', () => {
  assert.deepEqual([0, 39, 40, 59, 60, 79, 80, 100].map(bandOf), ['Poor', 'Poor', 'Fair', 'Fair', 'Good', 'Good', 'Strong', 'Strong']);
});

test('scoreContent returns exactly the API fields plus signals, components and generator', async () => {
  const r = await scoreContent({ url: GUIDE }, fixtureLoader(), { now });
  assert.deepEqual(Object.keys(r).sort(), [
    'components', 'content_depth', 'content_freshness', 'freshness_band', 'freshness_score', 'generator', 'overall', 'overall_band',
    'overall_score', 'page_type', 'recommendations', 'score_breakdown', 'signals', 'sufficiency_band', 'sufficiency_score', 'title', 'top_recommendations',
    'trend_coverage', 'trend_source', 'url',
  ].concat('crawl_access', 'source').sort());
  assert.equal(r.source, 'fetched');
  assert.equal(r.generator, 'offline');
  assert.equal(r.trend_source, 'discovered');
  for (const n of [r.overall_score, r.sufficiency_score, r.freshness_score, r.overall.score, r.content_depth.score, r.content_freshness.score]) assert.ok(isScore(n));
  for (const b of [r.overall_band, r.sufficiency_band, r.freshness_band]) assert.ok(BANDS.includes(b));
  assert.equal(r.overall_band, bandOf(r.overall_score));
  assert.equal(r.sufficiency_score, r.content_depth.score);
  assert.equal(r.freshness_score, r.content_freshness.score);
  assert.ok(r.overall.summary.length > 20);
  assert.ok(r.trend_coverage.length > 0);
  for (const t of r.trend_coverage) {
    assert.deepEqual(Object.keys(t).sort(), ['action', 'coverage', 'gap', 'trend']);
    assert.ok(isScore(t.coverage));
  }
  for (const rec of r.recommendations) {
    assert.deepEqual(Object.keys(rec).sort(), ['component', 'expected_impact', 'priority', 'recommendation', 'signal', 'signals', 'title']);
    assert.ok(['high', 'medium', 'low'].includes(rec.priority));
  }
  assert.ok(r.overall_score >= 80, `guide scores ${r.overall_score}`);
});

test('scoreContent is deterministic', async () => {
  const a = await scoreContent({ url: 'https://acme-pm.test/blog/project-management-tips' }, fixtureLoader(), { now });
  const b = await scoreContent({ url: 'https://acme-pm.test/blog/project-management-tips' }, fixtureLoader(), { now });
  assert.deepEqual(a, b);
});

test('supplied trends are used as given and skip discovery (no related pages loaded)', async () => {
  const loader = fixtureLoader();
  const r = await scoreContent(
    { url: GUIDE, trends: ['project management software pricing', { name: 'AI scheduling assistants', relevance: 90 }, 'gantt charts'] },
    loader,
    { now },
  );
  assert.equal(r.trend_source, 'supplied');
  assert.deepEqual(loader.requested, [GUIDE, 'https://acme-pm.test/robots.txt'], 'the page and its robots.txt (crawl access), no related pages');
  assert.deepEqual(r.trend_coverage.map((t) => t.trend), ['project management software pricing', 'AI scheduling assistants', 'gantt charts']);
  const ai = r.trend_coverage[1]!;
  assert.equal(ai.coverage, 0);
  assert.match(ai.action, /H2 section "AI scheduling assistants"/);
  assert.ok(r.trend_coverage[0]!.coverage > 50, 'pricing is covered by the guide');
  assert.ok(r.recommendations.some((x) => x.signal === 'trend_gap' && x.title.includes('AI scheduling assistants')));
});

test('scoreDocument is pure and needs no I/O', () => {
  const doc: PageDocument = {
    url: 'https://example.test/blog/x',
    title: 'Espresso grinders explained',
    description: null,
    language: 'en',
    canonicalUrl: null,
    metaRobots: null,
    openGraph: {},
    jsonLd: [],
    jsonLdErrors: 0,
    dates: { published: '2020-01-01', modified: null, found: [] },
    headings: [{ level: 1, text: 'Espresso grinders explained' }],
    blocks: [
      { kind: 'heading', level: 1, text: 'Espresso grinders explained' },
      { kind: 'paragraph', text: 'An espresso grinder is a burr grinder that can grind coffee fine and consistently enough for espresso, with small steps between settings. Good ones cost from $250.' },
    ],
    links: { main: [], all: [] },
    bodyText: 'An espresso grinder is a burr grinder that can grind coffee fine and consistently enough for espresso, with small steps between settings. Good ones cost from $250.',
    wordCount: 28,
  };
  const a = scoreDocument(doc, { now, trends: ['espresso grinder'] });
  const b = scoreDocument(doc, { now, trends: ['espresso grinder'] });
  assert.deepEqual(a, b);
  const signals = a.recommendations.map((r) => r.signal);
  for (const s of ['declared_date', 'meta_description', 'schema', 'author', 'questions_answered', 'canonical']) assert.ok(signals.includes(s), s);
  assert.ok(!signals.includes('unsourced_figures'), 'a price is not a claim that needs a source');
  assert.equal(a.crawl_access, null, 'no crawl facts without a loader');
  assert.equal(a.signals.citability.answer_first, true);
  assert.equal(a.trend_source, 'supplied');
});

test('freshness reads JSON-LD, visible dates and the Last-Modified header', async () => {
  const r = await scoreContent({ url: 'https://acme-pm.test/blog/team-communication' }, fixtureLoader(), { now });
  assert.equal(r.signals.freshness.newest_source, 'http');
  assert.equal(r.signals.freshness.http_last_modified, '2021-11-09');
  assert.ok(r.freshness_score < 40);
  assert.deepEqual(visibleDates('Updated March 4, 2019. Aktualisiert am 12. Mai 2025, 3 de marzo de 2024, le 15 avril 2025, 2023-07-01, 05.06.2022'), [
    '2019-03-04', '2022-06-05', '2023-07-01', '2024-03-03', '2025-04-15', '2025-05-12',
  ]);
});

test('readability uses per-language formulas', () => {
  const en = measureReadability('The cat sat on the mat. It was a sunny day.', 'en');
  const de = measureReadability('Die Katze sitzt auf der Matte. Es ist ein sonniger Tag.', 'de');
  const fr = measureReadability('Le chat est sur le tapis. Il fait beau.', 'fr');
  const es = measureReadability('El gato está en la alfombra. Hace sol.', 'es');
  assert.equal(en.formula, 'flesch_reading_ease');
  assert.equal(de.formula, 'flesch_amstad_de');
  assert.equal(fr.formula, 'flesch_kandel_moles_fr');
  assert.equal(es.formula, 'fernandez_huerta_es');
  for (const r of [en, de, fr, es]) assert.ok(r.ease > 60, `${r.formula} ${r.ease}`);
  assert.ok(en.grade !== null && en.gunningFog !== null);
});

test('discoverTrends: ranked trends with gaps, actions and questions; sources are the pages used', async () => {
  const loader = fixtureLoader();
  const r = await discoverTrends({ url: 'https://acme-pm.test/', maxTrends: 5 }, loader);
  assert.deepEqual(Object.keys(r).sort(), ['generator', 'industry', 'sources', 'trends', 'url']);
  assert.equal(r.generator, 'offline');
  assert.ok(r.trends.length > 0 && r.trends.length <= 5);
  assert.ok(r.sources.length >= 2 && r.sources.length <= 4, 'the page plus up to 3 same-site pages');
  assert.equal(r.sources[0]!.url, 'https://acme-pm.test/');
  const rel = r.trends.map((t) => t.relevance);
  assert.deepEqual(rel, [...rel].sort((a, b) => b - a));
  for (const t of r.trends) {
    assert.ok(isScore(t.relevance));
    assert.ok(t.gap && t.action && t.questions.length >= 1);
    assert.equal(t.questions.length, t.question_intents.length);
  }
  assert.match(r.industry, /project management/);
  assert.ok(r.trends.some((t) => /project management/.test(t.name)));
  const again = await discoverTrends({ url: 'https://acme-pm.test/', maxTrends: 5 }, fixtureLoader());
  assert.deepEqual(r, again);
  const given = await discoverTrends({ url: 'https://acme-pm.test/', industry: 'SaaS' }, fixtureLoader());
  assert.equal(given.industry, 'SaaS');
});

test('discoverTrends phrases questions in the page language', async () => {
  const r = await discoverTrends({ url: 'https://beispiel.test/ratgeber/buchhaltungssoftware' }, fixtureLoader());
  assert.ok(r.trends.some((t) => /buchhaltungssoftware/i.test(t.name)), r.trends.map((t) => t.name).join(', '));
  assert.ok(r.trends.every((t) => t.questions.every((q) => !/\b(What|How|Which|best)\b/.test(q))), 'no English in German questions');
  assert.ok(r.trends[0]!.questions.some((q) => /^Buchhaltungssoftware: Was ist das/.test(q)), r.trends[0]!.questions.join(' | '));
});

test('auditSite: AI crawler rules with the matching robots.txt line', async () => {
  const r = await auditSite('https://blocked-shop.test/products/trail-running-shoe', fixtureLoader());
  const by = Object.fromEntries(r.crawlers.map((c) => [c.agent, c]));
  assert.equal(by.GPTBot!.allowed, false);
  assert.equal(by.GPTBot!.rule, 'Disallow: /');
  assert.equal(by.GPTBot!.line, 3);
  assert.equal(by.PerplexityBot!.allowed, false);
  assert.equal(by.PerplexityBot!.rule, 'Disallow: /products/');
  assert.equal(by['OAI-SearchBot']!.allowed, true);
  assert.equal(by['OAI-SearchBot']!.rule, 'Allow: /');
  assert.equal(r.crawlers.length, AI_CRAWLERS.length);
  assert.equal(r.checks.find((c) => c.id === 'ai_crawler:PerplexityBot')!.status, 'fail');
  assert.equal(r.checks.find((c) => c.id === 'ai_crawler:ClaudeBot')!.status, 'pass', 'blocking a training crawler is the owner\'s choice');
  for (const c of r.checks) assert.ok(['pass', 'warn', 'fail'].includes(c.status) && c.detail.length > 0);
  assert.ok(isScore(r.score) && r.score < 80);
  // PerplexityBot is only blocked under /products/
  const blog = await auditSite('https://blocked-shop.test/blog/how-to-choose-trail-running-shoes', fixtureLoader());
  assert.equal(blog.crawlers.find((c) => c.agent === 'PerplexityBot')!.allowed, true);
});

test('auditSite: llms.txt, sitemap index and a clean site', async () => {
  const good = await auditSite(GUIDE, fixtureLoader());
  assert.equal(good.score, 100);
  assert.deepEqual(good.recommendations, []);
  assert.equal(good.llms_txt.valid, true);
  assert.equal(good.llms_txt.title, 'Acme PM');
  assert.equal(good.sitemap.lists_page, true);
  const de = await auditSite('https://beispiel.test/ratgeber/buchhaltungssoftware', fixtureLoader());
  assert.equal(de.sitemap.lists_page, true, 'found through the sitemap index');
  assert.equal(de.crawlers.find((c) => c.agent === 'Google-Extended')!.allowed, false);
  const bad = validateLlmsTxt('DocsCo\n\n- plain link https://x.test\n### More\n');
  assert.equal(bad.valid, false);
  assert.ok(bad.errors.some((e) => /H1/.test(e)));
  const soft404 = await auditSite('https://agency.test/services/seo-audit', fixtureLoader());
  assert.equal(soft404.llms_txt.present, false, 'an HTML page at /llms.txt is not an llms.txt');
});

test('loader failures become extraction_failed', async () => {
  await assert.rejects(scoreContent({ url: 'https://acme-pm.test/missing' }, fixtureLoader(), { now }), (e: Error & { code?: string }) => e.code === 'extraction_failed');
});

test('suggestPrompts: count, intents, funnel stages, market, brand only in branded intents, deterministic', async () => {
  const input = { url: GUIDE, brand: 'Acme PM', country: 'DE', competitors: ['Asana', 'Trello'], count: 14 };
  const r = await suggestPrompts(input, fixtureLoader());
  assert.deepEqual(Object.keys(r).sort(), ['brand', 'generator', 'industry', 'prompts', 'suggestions', 'url']);
  assert.equal(r.prompts.length, 14);
  assert.deepEqual(r.prompts, r.suggestions.map((s) => s.prompt));
  assert.equal(new Set(r.prompts.map((p) => p.toLowerCase())).size, r.prompts.length);
  const intents = new Set(r.suggestions.map((s) => s.intent));
  for (const i of ['category_discovery', 'comparison', 'alternatives', 'problem_solution', 'how_to', 'reviews', 'pricing']) assert.ok(intents.has(i as never), i);
  assert.deepEqual([...new Set(r.suggestions.map((s) => s.funnel_stage))].sort(), ['awareness', 'consideration', 'decision']);
  for (const s of r.suggestions) {
    const branded = ['comparison', 'alternatives', 'reviews'].includes(s.intent);
    if (!branded) assert.ok(!/acme|asana|trello/i.test(s.prompt), `unbranded prompt names a brand: ${s.prompt}`);
    assert.ok(s.why.length > 20);
  }
  assert.ok(r.prompts.some((p) => p.includes('in Germany')));
  assert.ok(r.prompts.some((p) => /project management/i.test(p)));
  assert.deepEqual(await suggestPrompts(input, fixtureLoader()), r);
  const many = await suggestPrompts({ url: GUIDE, count: 25 }, fixtureLoader());
  assert.ok(many.prompts.length >= 15 && many.prompts.length <= 25, 'up to count: never padded with prompts that do not fit');
  assert.equal(many.brand, 'Acme PM', 'brand falls back to the JSON-LD organization');
  const one = await suggestPrompts({ url: GUIDE, count: 0 }, fixtureLoader());
  assert.equal(one.prompts.length, 1);
});

test('suggestPrompts speaks German, French and Spanish', async () => {
  const de = await suggestPrompts({ url: 'https://beispiel.test/ratgeber/buchhaltungssoftware', country: 'DE', count: 7 }, fixtureLoader());
  assert.ok(de.prompts.some((p) => /^(Welche|Was|Wie|Wer|Ich)\b/.test(p)), de.prompts.join(' | '));
  assert.ok(de.prompts.some((p) => p.includes('in Deutschland')));
  const fr = await suggestPrompts({ url: 'https://exemple.test/blog/logiciel-crm', country: 'FR', count: 7 }, fixtureLoader());
  assert.ok(fr.prompts.some((p) => /^(Quel|Quels|Quelles|Comment|Combien|Je)\b/.test(p)), fr.prompts.join(' | '));
  for (const p of [...de.prompts, ...fr.prompts]) assert.ok(!/\b(What|How|Which|best|would you)\b/.test(p), `English inside: ${p}`);
  assert.ok(fr.prompts.some((p) => p.includes('en France')));
  const es = await suggestPrompts({ url: GUIDE, language: 'es', country: 'MX', count: 7 }, fixtureLoader());
  assert.ok(es.prompts.every((p) => /[¿¡áéíóúñ]|opciones|proveedores|Busco|Necesito/.test(p)), es.prompts.join(' | '));
  assert.ok(es.prompts.some((p) => p.includes('en México')));
});
