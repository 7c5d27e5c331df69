// The content score: measured signals → sub-scores (depth, freshness, structure, citability,
// metadata, trend coverage) → overall score and ranked, concrete recommendations. Each
// recommendation comes from one rule keyed by a stable defect code (`signal`), so a client can
// track a defect across runs. `scoreDocument` is pure (no I/O); `scoreContent` loads the page
// (and, without supplied trends, a few same-site pages to discover them) through the loader.
import type { PageDocument } from '../pages/document.ts';
import { measureSignals, stripSiteName, type PageSignals } from './signals.ts';
import { loadPrimary, loadSite } from './site.ts';
import { normalizeLang, type Lang } from './text.ts';
import { assessTrend, cap, fieldTopics, suppliedTopics, trendQuestions, type FieldTopic } from './trends.ts';
import {
  bandOf,
  clampScore,
  type ContentScore,
  type PageType,
  type Priority,
  type Recommendation,
  type ScoreContentInput,
  type SiteLoader,
  type TrendCoverage,
} from './types.ts';

export interface ScoreExtras {
  /** Response headers of the page (Last-Modified feeds freshness). */
  headers?: Record<string, string>;
  /** Clock for freshness; defaults to the current time. */
  now?: Date;
  language?: string | null;
  /** Trends to measure coverage of. Strings or {name}. Without them, the page's own topics are used. */
  trends?: (string | { name: string })[] | null;
  trendSource?: 'supplied' | 'discovered';
  /** Same-site pages that define the page's field (used when trends are not supplied). */
  related?: PageDocument[];
}

// Below these counts a page has almost nothing to cite ("thin"). Shorter-than-ideal pages
// above them are handled by the depth score, which grows toward TARGET_WORDS.
const MIN_WORDS: Record<PageType, number> = { article: 150, documentation: 150, service: 150, product: 50, listing: 30, forum: 30, home: 30 };
const TARGET_WORDS: Record<PageType, number> = { article: 1200, documentation: 1000, service: 700, product: 500, listing: 300, forum: 400, home: 400 };
const PROSE_TYPES = new Set<PageType>(['article', 'service', 'product', 'documentation']);

interface RuleContext {
  s: PageSignals;
  doc: PageDocument;
  topic: string; // main keyphrase of the page
  questions: string[];
  lang: Lang;
}

interface Rule {
  signal: string;
  applies(c: RuleContext): boolean;
  impact(c: RuleContext): number;
  title(c: RuleContext): string;
  text(c: RuleContext): string;
}

const q = (s: string) => `"${s}"`;

function suggestedSchema(type: PageType): string {
  switch (type) {
    case 'article':
      return 'Article (headline, author, datePublished, dateModified, publisher)';
    case 'product':
      return 'Product (name, description, brand, offers with price and priceCurrency, aggregateRating)';
    case 'documentation':
      return 'TechArticle (headline, dateModified, publisher)';
    case 'service':
      return 'Service (name, description, provider, areaServed) plus Organization';
    case 'listing':
      return 'CollectionPage with an ItemList of the listed items';
    case 'forum':
      return 'DiscussionForumPosting or QAPage (author, datePublished, comment)';
    case 'home':
      return 'Organization (name, url, logo, sameAs) and WebSite';
  }
}

/** Every page-level rule. Order is the tie-break order when impacts are equal. */
export const RULES: Rule[] = [
  {
    signal: 'noindex',
    applies: ({ s }) => s.meta.noindex,
    impact: () => 15,
    title: () => 'Allow indexing',
    text: ({ s }) => `Remove "noindex" from the meta robots tag (now ${q(s.meta.meta_robots ?? '')}) if this page should be found and cited by AI search; a noindex page is dropped from the indexes AI answers draw on.`,
  },
  {
    signal: 'thin_content',
    applies: ({ s }) => s.structure.word_count < MIN_WORDS[s.page_type],
    impact: () => 12,
    title: () => 'Expand thin content',
    text: ({ s, topic, questions }) =>
      `Expand the page from ${s.structure.word_count} to at least ${TARGET_WORDS[s.page_type]} words: answer ${questions.slice(0, 3).map(q).join(', ')} about ${topic} in their own H2 sections.`,
  },
  {
    signal: 'missing_title',
    applies: ({ s }) => !s.meta.title,
    impact: () => 8,
    title: () => 'Add a title tag',
    text: ({ topic }) => `Add a <title> of 50–60 characters that starts with "${cap(topic)}" and says what the page offers.`,
  },
  {
    signal: 'no_answer_first',
    applies: ({ s }) => PROSE_TYPES.has(s.page_type) && !s.citability.answer_first && s.structure.word_count > 0,
    impact: () => 9,
    title: () => 'Lead with a direct answer',
    text: ({ s, questions }) =>
      s.citability.lead_paragraph_words > 100
        ? `Replace the ${s.citability.lead_paragraph_words}-word opening paragraph with a 40–60 word answer to ${q(questions[0]!)}; move the background below it.`
        : `Open the page with a 40–60 word paragraph that directly answers ${q(questions[0]!)} before any introduction.`,
  },
  {
    signal: 'wall_of_text',
    applies: ({ s }) => s.structure.word_count >= 400 && (s.structure.h2_count + s.structure.h3_count < 2 || s.structure.words_per_section > 500),
    impact: () => 8,
    title: () => 'Break up the wall of text',
    text: ({ s, questions }) =>
      `Split the ${s.structure.word_count} words (${s.structure.h2_count + s.structure.h3_count} subheadings now) into H2/H3 sections of 150–300 words, with headings such as ${questions.slice(1, 3).map(q).join(' and ')}.`,
  },
  {
    signal: 'stale_content',
    applies: ({ s }) => s.freshness.age_days !== null && s.freshness.age_days > 365,
    impact: ({ s }) => ((s.freshness.age_days ?? 0) > 730 ? 9 : 7),
    title: () => 'Refresh outdated content',
    text: ({ s }) =>
      `Update the page (newest date found: ${s.freshness.newest}, ${s.freshness.age_days} days ago): refresh figures and examples, show a visible "Updated" date and set dateModified in the JSON-LD.`,
  },
  {
    signal: 'no_faq',
    applies: ({ s }) => PROSE_TYPES.has(s.page_type) && !s.structure.faq.present,
    impact: () => 7,
    title: () => 'Add an FAQ section',
    text: ({ questions }) =>
      `Add an FAQ section with 3–5 questions people ask, e.g. ${questions.slice(0, 3).map(q).join(', ')}, each answered in 40–60 words, and mark it up as FAQPage JSON-LD.`,
  },
  {
    signal: 'no_json_ld',
    applies: ({ s }) => s.citability.json_ld_types.length === 0 && s.citability.json_ld_errors === 0,
    impact: () => 7,
    title: () => 'Add structured data',
    text: ({ s }) => `Add schema.org JSON-LD of type ${suggestedSchema(s.page_type)} in a <script type="application/ld+json"> block.`,
  },
  {
    signal: 'json_ld_errors',
    applies: ({ s }) => s.citability.json_ld_errors > 0,
    impact: () => 6,
    title: () => 'Fix broken JSON-LD',
    text: ({ s }) =>
      `Fix the ${s.citability.json_ld_errors} JSON-LD block${s.citability.json_ld_errors === 1 ? '' : 's'} that do not parse (check trailing commas, unescaped quotes, unclosed braces); crawlers ignore invalid blocks${s.citability.json_ld_types.length ? '' : `, so the page has no structured data: use ${suggestedSchema(s.page_type)}`}.`,
  },
  {
    signal: 'missing_h1',
    applies: ({ s }) => s.structure.h1_count === 0,
    impact: () => 6,
    title: () => 'Add an H1',
    text: ({ doc, topic }) => `Add one H1 that names the page's topic, e.g. ${q(doc.title ? stripSiteName(doc.title) : cap(topic))}.`,
  },
  {
    signal: 'missing_meta_description',
    applies: ({ s }) => !s.meta.description,
    impact: () => 6,
    title: () => 'Add a meta description',
    text: ({ topic, s }) =>
      `Add a meta description of 140–160 characters summarizing what this ${s.page_type} page says about ${topic} and who it is for; AI search and snippets quote it.`,
  },
  {
    signal: 'no_statistics',
    applies: ({ s }) => ['article', 'service', 'product'].includes(s.page_type) && s.citability.statistics === 0 && s.structure.word_count > 0,
    impact: () => 6,
    title: () => 'Add statistics with sources',
    text: ({ topic }) => `Add 2–3 specific statistics about ${topic} (a figure with its unit and year, e.g. a percentage or price) and name the source of each.`,
  },
  {
    signal: 'no_sources_cited',
    applies: ({ s }) => s.page_type === 'article' && s.citability.sources_cited === 0,
    impact: () => 6,
    title: () => 'Cite sources',
    text: ({ topic }) => `Link 2–3 authoritative external sources (studies, official documentation, standards) next to the claims about ${topic}; cited pages are more likely to be cited.`,
  },
  {
    signal: 'no_author',
    applies: ({ s }) => s.page_type === 'article' && !s.citability.author,
    impact: () => 5,
    title: () => 'Show the author',
    text: () => `Add a visible byline with the author's name and role, and an author (Person with name and url) in the Article JSON-LD.`,
  },
  {
    signal: 'no_date',
    applies: ({ s }) => (s.page_type === 'article' || s.page_type === 'documentation') && s.freshness.newest === null,
    impact: () => 5,
    title: () => 'Date the page',
    text: () => `Show a visible publication and "Updated" date and add datePublished/dateModified to the JSON-LD; undated pages are treated as stale.`,
  },
  {
    signal: 'long_paragraphs',
    applies: ({ s }) => s.structure.long_paragraphs > 0,
    impact: () => 5,
    title: () => 'Shorten long paragraphs',
    text: ({ s }) =>
      `Split the ${s.structure.long_paragraphs} paragraph${s.structure.long_paragraphs === 1 ? '' : 's'} longer than 150 words (longest: ${s.structure.longest_paragraph_words} words) into paragraphs of 2–4 sentences, each opening with its main point.`,
  },
  {
    signal: 'hard_to_read',
    applies: ({ s }) => s.readability.words >= 100 && s.readability.ease < 30,
    impact: () => 4,
    title: () => 'Make the text easier to read',
    text: ({ s }) =>
      `Reading ease is ${s.readability.ease}/100 (${s.readability.formula}): shorten sentences from ${s.readability.avgSentenceWords} words on average to under 20 and prefer common words.`,
  },
  {
    signal: 'no_lists_or_tables',
    applies: ({ s }) => s.structure.word_count >= 400 && s.structure.list_count + s.structure.table_count === 0,
    impact: () => 4,
    title: () => 'Add lists and tables',
    text: ({ topic }) => `Turn enumerations into bulleted lists and comparisons into a table (e.g. ${topic} options by price, features and fit); assistants lift lists and tables verbatim.`,
  },
  {
    signal: 'multiple_h1',
    applies: ({ s }) => s.structure.h1_count > 1,
    impact: () => 3,
    title: () => 'Use a single H1',
    text: ({ s }) =>
      `Keep one H1 (${q(s.structure.h1_texts[0]!)}) and turn the other ${s.structure.h1_count - 1} (${s.structure.h1_texts.slice(1, 3).map(q).join(', ')}) into H2s.`,
  },
  {
    signal: 'meta_description_length',
    applies: ({ s }) => !!s.meta.description && (s.meta.description_length < 70 || s.meta.description_length > 170),
    impact: () => 3,
    title: () => 'Fix the meta description length',
    text: ({ s, topic }) => `Rewrite the meta description (now ${s.meta.description_length} characters) to 140–160 characters summarizing the page's answer about ${topic}.`,
  },
  {
    signal: 'missing_canonical',
    applies: ({ s }) => !s.meta.canonical,
    impact: () => 3,
    title: () => 'Add a canonical URL',
    text: ({ doc }) => `Add <link rel="canonical" href="${doc.url}"> so crawlers attribute copies and tracking-parameter variants to this URL.`,
  },
];

function priorityOf(impact: number): Priority {
  return impact >= 8 ? 'high' : impact >= 5 ? 'medium' : 'low';
}

function freshnessScore(age: number | null): number {
  if (age === null) return 20;
  const points: [number, number][] = [[0, 100], [90, 95], [180, 85], [365, 70], [730, 45], [1095, 30], [1825, 15]];
  for (let i = 1; i < points.length; i++) {
    const [a0, s0] = points[i - 1]!;
    const [a1, s1] = points[i]!;
    if (age <= a1) return s0 + ((s1 - s0) * (age - a0)) / (a1 - a0);
  }
  return 10;
}

export function scoreDocument(doc: PageDocument, extras: ScoreExtras = {}): ContentScore {
  const s = measureSignals(doc, { headers: extras.headers, now: extras.now, language: extras.language });
  const lang = s.language;
  const topic = s.keyphrases[0]?.phrase ?? (doc.title ? stripSiteName(doc.title).toLowerCase() : 'this topic');
  const questions = trendQuestions(topic, s.keyphrases[1]?.phrase ?? null, lang);

  // --- trend coverage
  const supplied = extras.trends && extras.trends.length ? suppliedTopics(extras.trends, lang) : null;
  const topics: FieldTopic[] = supplied ?? fieldTopics({ page: doc, related: extras.related ?? [] }, lang, 5);
  const coverage: TrendCoverage[] = topics.map((t, i) => {
    const qs = trendQuestions(t.name, topics[i + 1]?.name ?? null, lang);
    return assessTrend(doc, t.name, t.tokens, lang, qs[0]!);
  });
  const trendScore = coverage.length ? coverage.reduce((a, c) => a + c.coverage, 0) / coverage.length : 50;

  // --- depth (sufficiency)
  const st = s.structure;
  const sections = st.h2_count + st.h3_count;
  const depth = clampScore(
    Math.min(35, (st.word_count / TARGET_WORDS[s.page_type]) * 35) +
      Math.min(15, sections * 3) +
      Math.min(10, (st.list_count + st.table_count) * 5) +
      (st.faq.present ? 10 : 0) +
      trendScore * 0.3,
  );
  const depthNotes = [
    `${st.word_count} words in ${sections} H2/H3 sections (about ${TARGET_WORDS[s.page_type]} expected for a ${s.page_type} page).`,
    `${st.list_count} lists, ${st.table_count} tables, FAQ ${st.faq.present ? `present (${st.faq.source})` : 'absent'}.`,
    `Average trend coverage ${Math.round(trendScore)}/100 over ${coverage.length} ${supplied ? 'supplied' : 'discovered'} trends.`,
  ];

  // --- freshness
  const fresh = clampScore(freshnessScore(s.freshness.age_days));
  const f = s.freshness;
  const freshNotes = f.newest
    ? [
        `Newest date ${f.newest} (${f.newest_source}), ${f.age_days} days old.`,
        `Published: ${f.published ?? 'not stated'}; modified: ${f.modified ?? 'not stated'}; Last-Modified header: ${f.http_last_modified ?? 'none'}.`,
      ]
    : ['No date found in JSON-LD, meta tags, <time> elements, visible text or the Last-Modified header.'];

  // --- structure, citability, metadata
  const ease = s.readability.words ? s.readability.ease : 0;
  const structure = clampScore(
    (st.h1_count === 1 ? 20 : st.h1_count > 1 ? 10 : 0) +
      (st.word_count === 0 ? 0 : st.words_per_section <= 300 ? 20 : st.words_per_section <= 500 ? 10 : 0) +
      (st.paragraph_count === 0 ? 0 : st.long_paragraphs === 0 ? 20 : 20 * Math.max(0, 1 - st.long_paragraphs / Math.max(1, st.paragraph_count)) * 0.5) +
      Math.min(20, (ease / 60) * 20) +
      (st.list_count + st.table_count > 0 ? 20 : 0),
  );
  const c = s.citability;
  const citability = clampScore(
    (c.answer_first ? 20 : 0) +
      (c.sections ? 15 * (c.sections_answer_first / c.sections) : 0) +
      Math.min(15, c.statistics * 5) +
      Math.min(10, c.quotations * 5) +
      Math.min(15, c.sources_cited * 5) +
      Math.min(5, c.definitions * 5) +
      (c.json_ld_types.length ? (c.json_ld_errors ? 5 : 10) : 0) +
      (c.author ? 5 : 0) +
      (c.organization ? 5 : 0),
  );
  const m = s.meta;
  const metaScore = clampScore(
    (m.title ? (m.title_length >= 20 && m.title_length <= 70 ? 20 : 12) : 0) +
      (m.description ? (m.description_length >= 70 && m.description_length <= 170 ? 25 : 15) : 0) +
      (m.canonical ? 20 : 0) +
      (m.noindex ? 0 : 25) +
      10 * (1 - m.open_graph_missing.length / 5),
  );
  let overall = clampScore(0.25 * depth + 0.15 * fresh + 0.15 * structure + 0.25 * citability + 0.1 * metaScore + 0.1 * trendScore);
  if (m.noindex) overall = Math.min(overall, 39); // a page AI search may not index cannot be cited

  // --- recommendations
  const ctx: RuleContext = { s, doc, topic, questions, lang };
  const recs: (Recommendation & { order: number })[] = [];
  RULES.forEach((r, i) => {
    if (!r.applies(ctx)) return;
    const impact = r.impact(ctx);
    recs.push({ priority: priorityOf(impact), title: r.title(ctx), recommendation: r.text(ctx), expected_impact: impact, signal: r.signal, order: i });
  });
  coverage.forEach((cv, i) => {
    if (cv.coverage >= 40) return;
    const rel = topics[i]!.relevance;
    const impact = Math.max(2, Math.round(((100 - cv.coverage) / 100) * (rel / 100) * 8));
    recs.push({ priority: priorityOf(impact), title: `Cover "${cv.trend}"`, recommendation: cv.action, expected_impact: impact, signal: 'trend_gap', order: RULES.length + i });
  });
  recs.sort((a, b) => b.expected_impact - a.expected_impact || a.order - b.order);
  const recommendations: Recommendation[] = recs.map(({ order: _o, ...r }) => r);

  const parts: [string, number][] = [
    ['depth', depth],
    ['freshness', fresh],
    ['structure', structure],
    ['AI citability', citability],
    ['metadata', metaScore],
    ['trend coverage', Math.round(trendScore)],
  ];
  const best = [...parts].sort((a, b) => b[1] - a[1])[0]!;
  const worst = [...parts].sort((a, b) => a[1] - b[1])[0]!;
  const summary =
    `${bandOf(overall)} (${overall}/100) ${s.page_type} page about ${q(topic)}. ` +
    `Strongest: ${best[0]} (${best[1]}); weakest: ${worst[0]} (${worst[1]}). ` +
    (recommendations.length ? `${recommendations.length} recommendations; first: ${recommendations[0]!.title.toLowerCase()}.` : 'No recommendations.');

  return {
    url: doc.url,
    title: doc.title,
    page_type: s.page_type,
    trend_source: extras.trendSource ?? (supplied ? 'supplied' : 'discovered'),
    overall_score: overall,
    overall_band: bandOf(overall),
    overall: { score: overall, band: bandOf(overall), summary },
    content_depth: { score: depth, band: bandOf(depth), notes: depthNotes },
    content_freshness: { score: fresh, band: bandOf(fresh), notes: freshNotes },
    sufficiency_score: depth,
    sufficiency_band: bandOf(depth),
    freshness_score: fresh,
    freshness_band: bandOf(fresh),
    trend_coverage: coverage,
    recommendations,
    top_recommendations: recommendations.slice(0, 3).map((r) => r.recommendation),
    signals: s,
    components: { depth, freshness: fresh, structure, citability, metadata: metaScore, trend_coverage: Math.round(trendScore) },
    generator: 'offline',
  };
}

export interface ScoreOptions {
  now?: Date;
}

export async function scoreContent(input: ScoreContentInput, loader: SiteLoader, options: ScoreOptions = {}): Promise<ContentScore> {
  const supplied = (input.trends ?? []).filter((t) => (typeof t === 'string' ? t.trim() : t?.name?.trim()));
  if (supplied.length) {
    // Supplied trends are used as given: no discovery, so no related pages are loaded.
    const page = await loadPrimary(input.url, loader);
    return withInputUrl(
      scoreDocument(page.document, { headers: page.headers, now: options.now, language: input.language, trends: supplied, trendSource: 'supplied' }),
      input.url,
    );
  }
  const site = await loadSite(input.url, loader, 3);
  return withInputUrl(
    scoreDocument(site.page.document, {
      headers: site.page.headers,
      now: options.now,
      language: input.language,
      related: site.related.map((p) => p.document),
      trendSource: 'discovered',
    }),
    input.url,
  );
}

function withInputUrl(r: ContentScore, url: string): ContentScore {
  return { ...r, url };
}

export { normalizeLang };
