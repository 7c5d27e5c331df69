// The content score: measured signals → named score points → components and the overall score,
// and recommendations whose gain is measured by scoring the page again with the change made.
//
// What earns points is what the GEO study (Aggarwal et al., KDD 2024: citing sources, quotations
// and statistics raised visibility in generative answers by up to 40%; keyword stuffing did not
// help) and the search engines' own guidance (Google's "helpful, reliable, people-first content":
// clear authorship, dates, sourcing) say matters. Word count earns nothing: no engine publishes a
// length preference, and padding a page to a length dilutes the passages an assistant quotes.
//
// The one thing to know: every point of the overall score is one entry of `score_breakdown`
// (signal, component, points, max, evidence), so the overall score is the rounded sum of the
// entries; each page type has its own weights (0 = the signal does not apply, so a shop's
// product page is never told to add an author byline). A recommendation's `expected_impact` is
// the overall score of the page with its signal fixed minus the score now.
import type { PageDocument } from '../pages/document.ts';
import { measureSignals, stripSiteName } from './signals.ts';
import { normalizeLang, type Lang } from './text.ts';
import { assessTrend, cap, fieldTopics, suppliedTopics, type FieldTopic } from './trends.ts';
import { isVagueWord } from './questions.ts';
import { bandOf, clampScore } from './bands.ts';
import type { Component, ContentScore, CrawlFacts, PageSignals, PageType, Priority, Recommendation, ScorePoint, TrendCoverage } from './types.ts';

export type { Component, ScorePoint };

export interface ScoreExtras {
  /** Response headers of the page (Last-Modified is a weak freshness fallback; X-Robots-Tag). */
  headers?: Record<string, string>;
  /** Clock for freshness; defaults to the current time. */
  now?: Date;
  language?: string | null;
  /** Trends to measure coverage of. Strings or {name}. Without them, the page's own topics are used. */
  trends?: (string | { name: string })[] | null;
  trendSource?: 'supplied' | 'discovered';
  /** Same-site pages that define the page's field (used when trends are not supplied). */
  related?: PageDocument[];
  /** Crawl access (robots.txt, page directives): blocked search crawlers cap the overall score. */
  crawl?: CrawlFacts | null;
}



/** Facts the points are computed from: the page's signals plus coverage and crawl access. */
export interface ScoreFacts {
  s: PageSignals;
  coverage: number[];
  crawl: CrawlFacts | null;
}

const TYPES: PageType[] = ['article', 'product', 'collection', 'listing', 'documentation', 'service', 'forum', 'home'];
type Weights = [number, number, number, number, number, number, number, number];
const w = (type: PageType, weights: Weights) => weights[TYPES.indexOf(type)]!;

interface Reward {
  signal: string;
  component: Component;
  label: string;
  weights: Weights; // article, product, collection, listing, documentation, service, forum, home
  /** 0..1 achieved. */
  value(f: ScoreFacts): number;
  evidence(f: ScoreFacts): string;
  fix(f: ScoreFacts): void;
}

interface Penalty {
  signal: string;
  component: Component;
  label: string;
  /** Points taken from the overall score at full severity. */
  weights: Weights;
  /** 0..1 severity. */
  severity(f: ScoreFacts): number;
  evidence(f: ScoreFacts): string;
  fix(f: ScoreFacts): void;
}

const sat = (n: number, enough: number) => Math.max(0, Math.min(1, n / enough));
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The schema.org types a page of each type is expected to declare, with their share of the signal. */
export const EXPECTED_SCHEMA: Record<PageType, { types: string[]; share: number; label: string }[]> = {
  article: [
    { types: ['Article', 'BlogPosting', 'NewsArticle', 'TechArticle', 'ReportageNewsArticle', 'ScholarlyArticle'], share: 1, label: 'Article (headline, author, datePublished, dateModified, publisher)' },
  ],
  product: [
    { types: ['Product', 'ProductGroup'], share: 0.4, label: 'Product (name, description, brand, image)' },
    { types: ['Offer', 'AggregateOffer'], share: 0.4, label: 'Offer (price, priceCurrency, availability)' },
    { types: ['AggregateRating', 'Review'], share: 0.2, label: 'AggregateRating or Review' },
  ],
  collection: [{ types: ['ItemList', 'CollectionPage', 'OfferCatalog'], share: 1, label: 'CollectionPage with an ItemList of the listed products' }],
  listing: [{ types: ['ItemList', 'CollectionPage', 'SearchResultsPage'], share: 1, label: 'ItemList of the listed items' }],
  // Reference documentation: TechArticle helps little; no schema advice (weight 0).
  documentation: [{ types: ['TechArticle', 'Article', 'APIReference', 'HowTo'], share: 1, label: 'TechArticle' }],
  service: [{ types: ['Service', 'ProfessionalService', 'LocalBusiness', 'Organization', 'Product'], share: 1, label: 'Service (name, description, provider, areaServed) plus Organization' }],
  forum: [{ types: ['DiscussionForumPosting', 'QAPage', 'Question', 'SocialMediaPosting'], share: 1, label: 'DiscussionForumPosting or QAPage (author, datePublished, comment)' }],
  home: [{ types: ['Organization', 'WebSite', 'Corporation', 'LocalBusiness'], share: 1, label: 'Organization (name, url, logo, sameAs) and WebSite' }],
};

function schemaValue(s: PageSignals): number {
  const have = new Set(s.citability.json_ld_types);
  let v = 0;
  for (const e of EXPECTED_SCHEMA[s.page_type]) if (e.types.some((t) => have.has(t))) v += e.share;
  return Math.min(1, v);
}

function neededSections(words: number): number {
  return words < 300 ? 0 : Math.max(2, Math.round(words / 350));
}

function freshnessValue(s: PageSignals): number {
  const f = s.freshness;
  if (f.age_days === null) return 0;
  const byAge = f.age_days <= 180 ? 1 : f.age_days <= 365 ? 0.8 : f.age_days <= 730 ? 0.4 : f.age_days <= 1095 ? 0.15 : 0;
  // The Last-Modified header alone is a weak signal: most servers set it to the time of the request.
  return f.newest_source === 'http' ? Math.min(0.3, byAge) : byAge;
}

export const REWARDS: Reward[] = [
  {
    signal: 'answer_first',
    component: 'citability',
    label: 'Direct answer early',
    weights: [8, 4, 2, 0, 6, 6, 0, 6],
    value: ({ s }) => (s.citability.answer_first ? 1 : 0),
    evidence: ({ s }) =>
      s.citability.answer_first
        ? `Opens with a ${s.citability.lead_paragraph_words}-word answer paragraph.`
        : s.citability.lead_repeats
          ? `The first paragraph (${s.citability.lead_paragraph_words} words) repeats "${s.citability.lead_repeats}" instead of answering.`
          : s.citability.lead_paragraph_words
            ? `The first paragraph (${s.citability.lead_paragraph_words} words) is not a direct answer.`
            : 'No opening paragraph.',
    fix: ({ s }) => {
      s.citability.answer_first = true;
      s.citability.lead_repeats = null;
    },
  },
  {
    signal: 'named_sources',
    component: 'citability',
    label: 'Claims name their source',
    weights: [10, 0, 0, 0, 0, 6, 2, 0],
    // A reference list at the end names the sources too (each entry counts like a claim's source).
    value: ({ s }) => sat(s.evidence.attributed_claims + s.evidence.linked_claims + s.evidence.reference_list, 3),
    evidence: ({ s }) =>
      `${plural(s.evidence.attributed_claims, 'passage')} name a source, ${s.evidence.linked_claims} link one${s.evidence.reference_list ? `, and a reference list holds ${s.evidence.reference_list} entries` : ''} (3 or more earn full points).`,
    fix: ({ s }) => void (s.evidence.attributed_claims = Math.max(s.evidence.attributed_claims, 3)),
  },
  {
    signal: 'linked_sources',
    component: 'citability',
    label: 'Sources are linked',
    weights: [6, 0, 0, 0, 0, 3, 0, 0],
    value: ({ s }) => sat(s.evidence.linked_claims + s.evidence.reference_links, 2),
    evidence: ({ s }) =>
      s.evidence.linked_domains.length
        ? `Links sources on ${s.evidence.linked_domains.slice(0, 5).join(', ')} in ${plural(s.evidence.linked_claims, 'passage')}${s.evidence.reference_links ? ` and ${plural(s.evidence.reference_links, 'reference')}` : ''}.`
        : 'No passage links an external source.',
    fix: ({ s }) => void (s.evidence.linked_claims = Math.max(s.evidence.linked_claims, 2)),
  },
  {
    signal: 'sourced_statistics',
    component: 'citability',
    label: 'Statistics say where they come from',
    weights: [8, 0, 0, 0, 0, 4, 0, 0],
    value: ({ s }) => sat(s.evidence.sourced_statistics, 2),
    evidence: ({ s }) =>
      s.evidence.statistics
        ? `${s.evidence.sourced_statistics} of ${plural(s.evidence.statistics, 'passage')} with figures name or link a source (2 earn full points).`
        : 'No passage gives a figure (2 with a named or linked source earn full points).',
    fix: ({ s }) => {
      s.evidence.sourced_statistics = Math.max(2, s.evidence.sourced_statistics);
      s.evidence.statistics = Math.max(s.evidence.statistics, s.evidence.sourced_statistics);
    },
  },
  {
    signal: 'attributed_quotations',
    component: 'citability',
    label: 'Quotations are attributed',
    weights: [4, 0, 0, 0, 0, 3, 0, 2],
    value: ({ s }) => sat(s.evidence.attributed_quotations, 1),
    evidence: ({ s }) => `${s.evidence.attributed_quotations} attributed, ${s.evidence.unattributed_quotations} unattributed quotations.`,
    fix: ({ s }) => void (s.evidence.attributed_quotations = Math.max(1, s.evidence.attributed_quotations)),
  },
  {
    signal: 'h1',
    component: 'structure',
    label: 'One H1 names the page',
    weights: [3, 3, 3, 2, 3, 3, 3, 3],
    value: ({ s }) => (s.structure.h1_count === 1 ? 1 : s.structure.h1_count > 1 ? 0.5 : 0),
    evidence: ({ s }) => (s.structure.h1_count ? `${plural(s.structure.h1_count, 'H1')}: "${s.structure.h1_texts[0]}".` : 'No H1 anywhere on the page.'),
    fix: ({ s }) => void (s.structure.h1_count = 1),
  },
  {
    signal: 'sections',
    component: 'structure',
    label: 'Subheadings split the text',
    weights: [5, 3, 2, 0, 5, 4, 0, 3],
    value: ({ s }) => {
      const need = neededSections(s.structure.word_count);
      return need === 0 ? 1 : sat(s.structure.h2_count + s.structure.h3_count, need);
    },
    evidence: ({ s }) => `${plural(s.structure.h2_count + s.structure.h3_count, 'H2/H3 heading')} for ${s.structure.word_count} words (one per ~350 words earns full points).`,
    fix: ({ s }) => void (s.structure.h2_count = Math.max(s.structure.h2_count, neededSections(s.structure.word_count))),
  },
  {
    signal: 'section_answers',
    component: 'structure',
    label: 'Sections open with their answer',
    weights: [3, 0, 0, 0, 3, 2, 0, 0],
    // No sections: nothing to open where the text needs none; where it does, the sections
    // advice adds them (each opening with its answer), so the points wait on it.
    value: ({ s }) => (s.citability.sections ? s.citability.sections_answer_first / s.citability.sections : neededSections(s.structure.word_count) === 0 ? 1 : 0),
    evidence: ({ s }) =>
      s.citability.sections
        ? `${s.citability.sections_answer_first} of ${plural(s.citability.sections, 'section')} open with a short answer, list or table.`
        : `No H2/H3 sections${neededSections(s.structure.word_count) === 0 ? ', and the text is short enough to need none' : ' to open with their answer'}.`,
    fix: ({ s }) => {
      s.citability.sections = Math.max(1, s.citability.sections);
      s.citability.sections_answer_first = s.citability.sections;
    },
  },
  {
    signal: 'lists_tables',
    component: 'structure',
    label: 'Lists or tables',
    weights: [4, 3, 0, 0, 4, 3, 0, 2],
    value: ({ s }) => (s.structure.list_count + s.structure.table_count > 0 ? 1 : 0),
    evidence: ({ s }) => `${plural(s.structure.list_count, 'list')}, ${plural(s.structure.table_count, 'table')}.`,
    fix: ({ s }) => void (s.structure.list_count = Math.max(1, s.structure.list_count)),
  },
  {
    signal: 'questions_answered',
    component: 'structure',
    label: 'Questions people ask are answered',
    weights: [4, 2, 1, 0, 2, 3, 0, 1],
    value: ({ s }) => (s.structure.faq.present ? 1 : sat(s.structure.question_headings, 2)),
    evidence: ({ s }) => (s.structure.faq.present ? `FAQ (${s.structure.faq.source}, ${plural(s.structure.faq.questions, 'question')}).` : `${plural(s.structure.question_headings, 'question heading')}, no FAQ.`),
    fix: ({ s }) => void (s.structure.faq = { present: true, source: 'heading', questions: 3 }),
  },
  {
    signal: 'paragraph_length',
    component: 'structure',
    label: 'Paragraphs are short enough to quote',
    weights: [2, 1, 0, 0, 2, 2, 1, 1],
    value: ({ s }) => (s.structure.paragraph_count === 0 ? 0 : Math.max(0, 1 - (2 * s.structure.long_paragraphs) / s.structure.paragraph_count)),
    evidence: ({ s }) => `${plural(s.structure.long_paragraphs, 'paragraph')} over 150 words (longest ${s.structure.longest_paragraph_words}).`,
    fix: ({ s }) => {
      s.structure.long_paragraphs = 0;
      s.structure.paragraph_count = Math.max(1, s.structure.paragraph_count);
    },
  },
  {
    signal: 'author',
    component: 'trust',
    label: 'A checkable author',
    weights: [6, 0, 0, 0, 0, 0, 4, 0],
    value: ({ s }) => (s.citability.author ? (s.citability.author_checkable ? 1 : 0.5) : 0),
    evidence: ({ s }) => (s.citability.author ? `Author "${s.citability.author}"${s.citability.author_checkable ? ' with a profile link' : ' without a profile link (url/sameAs)'}.` : 'No author named.'),
    fix: ({ s }) => {
      s.citability.author ??= 'Author';
      s.citability.author_checkable = true;
    },
  },
  {
    signal: 'organization',
    component: 'trust',
    label: 'A checkable organization',
    weights: [4, 4, 3, 2, 3, 6, 2, 8],
    value: ({ s }) => (s.citability.organization ? (s.citability.organization_checkable ? 1 : 0.5) : 0),
    evidence: ({ s }) => (s.citability.organization ? `Organization "${s.citability.organization}"${s.citability.organization_checkable ? ' with url/logo/sameAs' : ' named only (no JSON-LD url, logo or sameAs)'}.` : 'No publishing organization named.'),
    fix: ({ s }) => {
      s.citability.organization ??= 'Organization';
      s.citability.organization_checkable = true;
    },
  },
  {
    signal: 'declared_date',
    component: 'freshness',
    label: 'A declared, recent date',
    weights: [15, 0, 0, 0, 8, 3, 6, 0],
    value: ({ s }) => freshnessValue(s),
    evidence: ({ s }) => {
      const f = s.freshness;
      if (!f.newest) return `No declared date (JSON-LD, meta, <time>)${f.visible_dates.length ? `; dates in the text (${f.visible_dates.slice(-2).join(', ')}) do not count` : ''}.`;
      return `${f.newest_source === 'http' ? 'Only the Last-Modified header' : 'Declared'} ${f.newest}, ${f.age_days} days old${f.future_ignored.length ? `; future dates ignored: ${f.future_ignored.join(', ')}` : ''}.`;
    },
    fix: ({ s }) => {
      s.freshness.newest_source = 'json-ld/meta';
      s.freshness.age_days = 0;
    },
  },
  {
    signal: 'title',
    component: 'metadata',
    label: 'A descriptive title',
    weights: [3, 3, 3, 3, 3, 3, 3, 3],
    value: ({ s }) => (!s.meta.title ? 0 : s.meta.title_length >= 20 && s.meta.title_length <= 70 ? 1 : 0.5),
    evidence: ({ s }) => (s.meta.title ? `Title of ${s.meta.title_length} characters.` : 'No <title>.'),
    fix: ({ s }) => {
      s.meta.title ??= 'Title';
      s.meta.title_length = 55;
    },
  },
  {
    signal: 'meta_description',
    component: 'metadata',
    label: 'A meta description',
    weights: [3, 3, 3, 2, 3, 3, 2, 3],
    value: ({ s }) => (!s.meta.description ? 0 : s.meta.description_length >= 70 && s.meta.description_length <= 170 ? 1 : 0.5),
    evidence: ({ s }) => (s.meta.description ? `Meta description of ${s.meta.description_length} characters.` : 'No meta description.'),
    fix: ({ s }) => {
      s.meta.description ??= 'Description';
      s.meta.description_length = 150;
    },
  },
  {
    signal: 'canonical',
    component: 'metadata',
    label: 'A canonical URL',
    weights: [1, 2, 2, 1, 1, 1, 1, 1],
    value: ({ s }) => (s.meta.canonical ? 1 : 0),
    evidence: ({ s }) => (s.meta.canonical ? `Canonical ${s.meta.canonical}.` : 'No rel=canonical.'),
    fix: ({ s }) => void (s.meta.canonical = 'canonical'),
  },
  {
    signal: 'schema',
    component: 'metadata',
    label: 'Structured data for the page type',
    weights: [5, 10, 8, 3, 0, 5, 5, 5],
    value: ({ s }) => schemaValue(s),
    evidence: ({ s }) => `JSON-LD types: ${s.citability.json_ld_types.join(', ') || 'none'}; expected for a ${s.page_type} page: ${EXPECTED_SCHEMA[s.page_type].map((e) => e.types[0]).join(' + ')}.`,
    fix: ({ s }) => void (s.citability.json_ld_types = [...s.citability.json_ld_types, ...EXPECTED_SCHEMA[s.page_type].map((e) => e.types[0]!)]),
  },
  {
    signal: 'trend_coverage',
    component: 'depth',
    label: 'Covers the topics of its field',
    weights: [8, 4, 4, 2, 6, 6, 4, 6],
    value: ({ coverage }) => (coverage.length ? coverage.reduce((a, c) => a + c, 0) / coverage.length / 100 : 0.5),
    evidence: ({ coverage }) => `Average coverage ${coverage.length ? Math.round(coverage.reduce((a, c) => a + c, 0) / coverage.length) : 50}/100 over ${plural(coverage.length, 'trend')}.`,
    fix: (f) => void (f.coverage = f.coverage.map(() => 100)),
  },
];

export const PENALTIES: Penalty[] = [
  {
    signal: 'keyword_stuffing',
    component: 'citability',
    label: 'Keyword stuffing',
    weights: [15, 15, 15, 15, 15, 15, 15, 15],
    severity: ({ s }) => (s.evidence.keyword_stuffing ? 1 : 0),
    evidence: ({ s }) => {
      const k = s.evidence.keyword_stuffing;
      return k ? `"${k.phrase}" used ${k.count} times (${(k.density * 100).toFixed(1)}% of the words).` : 'No phrase is repeated beyond what the text needs.';
    },
    fix: ({ s }) => void (s.evidence.keyword_stuffing = null),
  },
  {
    signal: 'unsourced_figures',
    component: 'citability',
    label: 'Figures without a source',
    weights: [8, 0, 0, 0, 0, 6, 0, 4],
    severity: ({ s }) => sat(s.evidence.unsourced_figures.length, 4),
    evidence: ({ s }) => (s.evidence.unsourced_figures.length ? `${plural(s.evidence.unsourced_figures.length, 'passage')} state figures with no source, e.g. "${s.evidence.unsourced_figures[0]}".` : 'Every figure names its source.'),
    fix: ({ s }) => {
      s.evidence.sourced_statistics += s.evidence.unsourced_figures.length;
      s.evidence.unsourced_figures = [];
    },
  },
  {
    signal: 'vague_attribution',
    component: 'citability',
    label: 'Vague attribution',
    weights: [9, 3, 0, 0, 3, 6, 3, 3],
    severity: ({ s }) => sat(s.evidence.vague_attribution.length, 3),
    evidence: ({ s }) => (s.evidence.vague_attribution.length ? `${plural(s.evidence.vague_attribution.length, 'claim')} rest on unnamed authorities: ${[...new Set(s.evidence.vague_attribution)].slice(0, 3).map((v) => `"${v}"`).join(', ')}.` : 'No "experts say"/"studies show" without a name.'),
    fix: ({ s }) => {
      s.evidence.attributed_claims += s.evidence.vague_attribution.length;
      s.evidence.vague_attribution = [];
    },
  },
  {
    signal: 'outdated_figures',
    component: 'freshness',
    label: 'Figures three or more years old',
    weights: [6, 0, 0, 0, 3, 4, 0, 2],
    severity: ({ s }) => sat(s.evidence.outdated_figures.length, 2),
    evidence: ({ s }) => (s.evidence.outdated_figures.length ? `${plural(s.evidence.outdated_figures.length, 'passage')} rest on figures dated three or more years ago, e.g. "${s.evidence.outdated_figures[0]}".` : 'No figure is dated three or more years ago.'),
    fix: ({ s }) => void (s.evidence.outdated_figures = []),
  },
  {
    signal: 'inconsistent_dates',
    component: 'freshness',
    label: 'Declared dates contradict each other',
    weights: [3, 1, 1, 0, 3, 1, 2, 1],
    severity: ({ s }) => (s.freshness.consistent ? 0 : 1),
    evidence: ({ s }) => (s.freshness.consistent ? 'Declared dates agree.' : `dateModified ${s.freshness.modified} is before datePublished ${s.freshness.published}.`),
    fix: ({ s }) => void (s.freshness.consistent = true),
  },
  {
    signal: 'json_ld_errors',
    component: 'metadata',
    label: 'JSON-LD that does not parse',
    weights: [3, 3, 3, 3, 3, 3, 3, 3],
    severity: ({ s }) => (s.citability.json_ld_errors > 0 ? 1 : 0),
    evidence: ({ s }) => `${plural(s.citability.json_ld_errors, 'JSON-LD block')} fail to parse.`,
    fix: ({ s }) => void (s.citability.json_ld_errors = 0),
  },
  {
    signal: 'snippet_restricted',
    component: 'access',
    label: 'Snippets forbidden or cut short',
    weights: [10, 10, 10, 10, 10, 10, 10, 10],
    severity: ({ crawl }) => (crawl && crawl.snippet_restricted.length ? 1 : 0),
    evidence: ({ crawl }) => (crawl?.snippet_restricted.length ? `nosnippet or max-snippet under 50 for ${crawl.snippet_restricted.join(', ')}: assistants can show nothing of the page.` : 'Snippets allowed.'),
    fix: ({ crawl }) => void (crawl && (crawl.snippet_restricted = [])),
  },
  {
    signal: 'needs_javascript',
    component: 'access',
    label: 'Content needs JavaScript',
    weights: [30, 30, 30, 30, 30, 30, 30, 30],
    severity: ({ crawl }) => (crawl?.needs_javascript ? 1 : 0),
    evidence: ({ crawl }) => (crawl?.needs_javascript ? 'The HTML holds an empty app shell; the copy appears only after JavaScript runs, which most AI crawlers never do.' : 'The copy is in the HTML.'),
    fix: ({ crawl }) => void (crawl && (crawl.needs_javascript = false)),
  },
];

/** The most a page may score while search or user-triggered AI crawlers cannot read it. */
export const BLOCKED_CAP = 39;

export interface Tally {
  overall: number;
  /** The unrounded sum of the points (after the cap): gains are measured on it. */
  sum: number;
  points: ScorePoint[];
  components: Record<Component, number>;
}

/** Named points of one set of facts. Pure: the same facts always give the same points. */
export function tally(f: ScoreFacts): Tally {
  const type = f.s.page_type;
  const applicable = REWARDS.filter((r) => w(type, r.weights) > 0);
  const total = applicable.reduce((a, r) => a + w(type, r.weights), 0);
  const scale = 100 / total;
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const points: ScorePoint[] = [];
  for (const r of applicable) {
    const max = round1(w(type, r.weights) * scale);
    points.push({ signal: r.signal, component: r.component, label: r.label, points: round1(max * Math.max(0, Math.min(1, r.value(f)))), max, evidence: r.evidence(f) });
  }
  for (const p of PENALTIES) {
    const weight = w(type, p.weights);
    const sev = weight ? p.severity(f) : 0;
    if (sev > 0) points.push({ signal: p.signal, component: p.component, label: p.label, points: -round1(weight * sev), max: 0, evidence: p.evidence(f) });
  }
  let sum = points.reduce((a, p) => a + p.points, 0);
  const c = f.crawl;
  // Internal search results and archives are meant to be noindex (Google's own advice): no cap.
  const noindex = c && type !== 'listing' ? c.noindex : [];
  if (c && (c.blocked_search.length || noindex.length)) {
    const why = [
      c.blocked_search.length ? `robots.txt blocks ${c.blocked_search.join(', ')}` : '',
      noindex.length ? `noindex for ${noindex.join(', ')}` : '',
    ].filter(Boolean).join('; ');
    const cut = round1(Math.min(0, BLOCKED_CAP - sum));
    points.push({ signal: 'crawl_access', component: 'access', label: `Search and user-triggered AI crawlers can read the page (else at most ${BLOCKED_CAP})`, points: cut, max: 0, evidence: `${why}: assistants that search the web cannot fetch or index it.` });
    sum += cut;
  }
  const components = {} as Record<Component, number>;
  for (const comp of ['citability', 'structure', 'trust', 'freshness', 'metadata', 'depth', 'access'] as Component[]) {
    const mine = points.filter((p) => p.component === comp);
    const max = mine.reduce((a, p) => a + p.max, 0);
    const got = mine.reduce((a, p) => a + p.points, 0);
    // A component with nothing to earn on this page type (access always) is full unless penalised.
    components[comp] = clampScore(max > 0 ? (100 * got) / max : 100 + got * 3);
  }
  return { overall: clampScore(sum), sum: Math.max(0, Math.min(100, sum)), points, components };
}

function clone(f: ScoreFacts): ScoreFacts {
  return structuredClone(f);
}

interface RuleContext {
  s: PageSignals;
  doc: PageDocument;
  topic: string;
  lang: Lang;
  crawl: CrawlFacts | null;
}

const q = (s: string) => `"${s}"`;

/**
 * The text of each signal's recommendation: what to change on this page, concretely. `also`
 * holds the signals that joined it as one action (see ACTIONS), so the text asks for all of it.
 */
const ADVICE: Record<string, { title: string | ((c: RuleContext, also: Set<string>) => string); text(c: RuleContext, also: Set<string>): string }> = {
  answer_first: {
    title: 'Lead with a direct answer',
    text: ({ s, doc }) =>
      s.citability.lead_repeats
        ? `Rewrite the opening paragraph: it repeats ${q(s.citability.lead_repeats)} instead of answering. Say in 40–60 words what the page answers and for whom, with one specific fact, and name the phrase once.`
        : s.citability.lead_paragraph_words > 100
        ? `Replace the ${s.citability.lead_paragraph_words}-word opening paragraph with a 40–60 word answer to what ${q(pageName(doc, s))} promises; move the background below it.`
        : `Open the page with a 40–60 word paragraph that answers what ${q(pageName(doc, s))} promises, before any introduction.`,
  },
  named_sources: {
    title: (_c, also) => (also.has('linked_sources') ? 'Name and link the source of each claim' : 'Name the source of each claim'),
    text: ({ s }, also) =>
      `Name who says so next to the page's main claims (${s.evidence.attributed_claims + s.evidence.linked_claims} passages do today): "according to <organisation>'s <year> <report>", a study's authors, an official body${also.has('linked_sources') ? ', linked in the sentence that uses it (the report, dataset or standard itself, not a homepage)' : ''}.`,
  },
  linked_sources: {
    title: 'Link your sources',
    text: () => 'Link each named source in the sentence that uses it (the report, dataset or standard itself, not a homepage), so an assistant can verify and cite the claim.',
  },
  sourced_statistics: {
    title: ({ s }) => (s.evidence.statistics ? 'Back figures with sources' : 'Add sourced figures'),
    text: ({ s }) =>
      s.evidence.statistics
        ? `${s.evidence.statistics - s.evidence.sourced_statistics} of ${s.evidence.statistics} passages with figures give no source: add the publisher and year to each figure and link it.`
        : 'Add 2–3 specific figures (with unit and year) from a named, linked source where the page makes quantitative claims.',
  },
  attributed_quotations: {
    title: 'Quote a named expert',
    text: ({ s }) =>
      s.evidence.unattributed_quotations
        ? `Name the speaker (name and role) of the ${plural(s.evidence.unattributed_quotations, 'quotation')} without one.`
        : 'Add a short quotation from a named practitioner or expert (name, role, organisation) where the page gives advice.',
  },
  h1: {
    title: 'Use one H1',
    text: ({ s, doc }) =>
      s.structure.h1_count > 1
        ? `Keep one H1 (${q(s.structure.h1_texts[0]!)}) and turn the other ${s.structure.h1_count - 1} into H2s.`
        : `Add one H1 that names the page, e.g. ${q(doc.title ? stripSiteName(doc.title) : 'the page topic')}.`,
  },
  sections: {
    title: 'Break the text into sections',
    text: ({ s }, also) =>
      `Split the ${s.structure.word_count} words (${s.structure.h2_count + s.structure.h3_count} subheadings now) into H2/H3 sections of 150–350 words, each heading saying what the section answers${also.has('section_answers') ? ' and each section opening with a 1–2 sentence answer to it' : ''}.`,
  },
  section_answers: {
    title: 'Open each section with its answer',
    text: ({ s }) => `Start each section with a 1–2 sentence answer to its heading (${s.citability.sections_answer_first} of ${s.citability.sections} do), then the detail.`,
  },
  lists_tables: {
    title: 'Add a list or table',
    text: () => 'Turn enumerations into bulleted lists and comparisons or specifications into a table; assistants lift lists and tables verbatim.',
  },
  questions_answered: {
    title: 'Answer the questions people ask',
    text: ({ s }) => `Add an FAQ section with 3–5 questions customers ask about ${s.page_type === 'product' ? 'this product' : 'the topic'}, each answered in 40–60 words, marked up as FAQPage JSON-LD.`,
  },
  paragraph_length: {
    title: 'Shorten long paragraphs',
    text: ({ s }) =>
      `Split the ${plural(s.structure.long_paragraphs, 'paragraph')} longer than 150 words (longest: ${s.structure.longest_paragraph_words}) into paragraphs of 2–4 sentences, each opening with its point.`,
  },
  author: {
    title: 'Show a checkable author',
    text: ({ s }) =>
      s.citability.author
        ? `Link the author ${q(s.citability.author)} to a profile page and add "url" and "sameAs" to the author Person in the JSON-LD.`
        : 'Add a visible byline with the author\'s name and role, linked to a profile page, and an author Person (name, url, sameAs) in the JSON-LD.',
  },
  organization: {
    title: 'Identify the organization',
    text: ({ s }) =>
      s.citability.organization
        ? `Add an Organization for ${q(s.citability.organization)} with url, logo and sameAs (official profiles) to the JSON-LD.`
        : 'Add an Organization (name, url, logo, sameAs) as publisher in the JSON-LD.',
  },
  declared_date: {
    // A page that declares an old date is told to update it, not to declare one.
    title: ({ s }) => (s.freshness.newest_source === 'json-ld/meta' ? `Update the page: last updated ${plural(s.freshness.age_days ?? 0, 'day')} ago` : 'Declare when the page was updated'),
    text: ({ s }) =>
      s.freshness.newest_source === 'json-ld/meta'
        ? `The declared date is ${s.freshness.newest} (${s.freshness.age_days} days ago): review the facts and figures, then set dateModified in the JSON-LD and a visible "Updated" date.`
        : `Declare the page's dates: datePublished and dateModified in the JSON-LD (or article:modified_time) and a visible <time datetime> "Updated" date${s.freshness.newest_source === 'http' ? '; the Last-Modified header alone is not trusted' : ''}.`,
  },
  title: { title: 'Write a descriptive title', text: ({ s }) => `Write a <title> of 50–60 characters that says what the page offers${s.meta.title ? ` (now ${s.meta.title_length} characters)` : ''}.` },
  meta_description: {
    title: 'Write a meta description',
    text: ({ s }) => `Write a meta description of 140–160 characters summarizing what this ${s.page_type} page answers and for whom${s.meta.description ? ` (now ${s.meta.description_length} characters)` : ''}.`,
  },
  canonical: { title: 'Add a canonical URL', text: ({ doc }) => `Add <link rel="canonical" href="${doc.url}"> so copies and tracking-parameter variants are attributed to this URL.` },
  schema: {
    title: 'Add structured data for the page type',
    text: ({ s }) => {
      const have = new Set(s.citability.json_ld_types);
      const missing = EXPECTED_SCHEMA[s.page_type].filter((e) => !e.types.some((t) => have.has(t)));
      return `Add schema.org JSON-LD: ${missing.map((e) => e.label).join('; ')}.`;
    },
  },
  trend_coverage: { title: 'Cover the topics of the field', text: () => 'See the trend_gap recommendations below for the topics to cover.' },
  keyword_stuffing: {
    title: 'Stop repeating the keyword',
    text: ({ s }) => {
      const k = s.evidence.keyword_stuffing!;
      return `"${k.phrase}" appears ${k.count} times (${(k.density * 100).toFixed(1)}% of the words): write for the reader, use the phrase where it is natural (under 2%) and vary the wording; generative engines do not reward repetition.`;
    },
  },
  unsourced_figures: {
    title: 'Source or remove unsourced figures',
    text: ({ s }) =>
      `Give each figure its source (publisher and year, linked) or remove it; ${plural(s.evidence.unsourced_figures.length, 'passage')} state figures with none, e.g. ${q(s.evidence.unsourced_figures[0] ?? '')}.`,
  },
  vague_attribution: {
    title: (_c, also) => (also.size ? 'Name and link the source of each claim' : 'Replace vague attribution with names'),
    text: ({ s }, also) =>
      `Replace ${[...new Set(s.evidence.vague_attribution)].slice(0, 3).map(q).join(', ')} with the named study, organisation or person, linked in the sentence (the report itself, not a homepage)` +
      (also.has('named_sources') ? `; name the source of the page's other main claims the same way (${s.evidence.attributed_claims + s.evidence.linked_claims} passages do today)` : '') +
      '.',
  },
  outdated_figures: {
    title: 'Update old figures',
    text: ({ s }) => `Replace the figures dated three or more years ago with current ones (and their sources), e.g. in ${q(s.evidence.outdated_figures[0] ?? '')}, then update dateModified.`,
  },
  inconsistent_dates: {
    title: 'Make the declared dates agree',
    text: ({ s }) => `dateModified (${s.freshness.modified}) is before datePublished (${s.freshness.published}): set dateModified to the date of the last real update.`,
  },
  json_ld_errors: {
    title: 'Fix broken JSON-LD',
    text: ({ s }) => `Fix the ${plural(s.citability.json_ld_errors, 'JSON-LD block')} that do not parse (trailing commas, unescaped quotes); crawlers ignore invalid blocks.`,
  },
  snippet_restricted: {
    title: 'Allow snippets',
    text: ({ crawl }) => `Remove nosnippet / raise max-snippet (now restricting ${crawl?.snippet_restricted.join(', ')}); AI Overviews and assistants show nothing of a page that forbids snippets. Use data-nosnippet on the few passages you must keep out.`,
  },
  needs_javascript: {
    title: 'Render the content in the HTML',
    text: () => 'Serve the copy in the HTML (server-side rendering or prerendering): GPTBot, ClaudeBot, PerplexityBot and most AI crawlers do not run JavaScript, so they see an empty page.',
  },
  crawl_access: {
    title: 'Let AI search crawlers in',
    text: ({ crawl }) =>
      [
        crawl?.blocked_search.length ? `robots.txt blocks ${crawl.blocked_search.join(', ')}: add "Allow" groups for the search and user-triggered agents you want to be cited by (blocking only training crawlers such as GPTBot, ClaudeBot or Google-Extended is your choice and costs nothing here).` : '',
        crawl?.noindex.length ? `Remove noindex (${crawl.noindex.join(', ')}) from the meta robots tag or X-Robots-Tag header.` : '',
        `Until then the overall score stays at most ${BLOCKED_CAP}, whatever else is fixed.`,
      ].filter(Boolean).join(' '),
  },
};

function pageName(doc: PageDocument, s: PageSignals): string {
  return s.page_h1 ?? (doc.title ? stripSiteName(doc.title) : doc.url);
}

function priorityOf(impact: number): Priority {
  return impact >= 8 ? 'high' : impact >= 4 ? 'medium' : 'low';
}

/**
 * Signals that one action changes together, so they make one recommendation: naming a claim's
 * source is the same edit as replacing "experts say" and as linking it; sourcing the figures
 * the page states is how its statistics get their source; adding sections is how sections open
 * with their answer. The first of a group that is short of its best leads; the gain is measured
 * with all of them fixed.
 */
const ACTIONS: string[][] = [
  ['vague_attribution', 'named_sources', 'linked_sources'],
  ['unsourced_figures', 'sourced_statistics'],
  ['sections', 'section_answers'],
];

interface Fix {
  signal: string;
  component: Component;
  apply(f: ScoreFacts): void;
}

/** Each action that would raise the score, with the gain measured by scoring the fixed facts. */
function recommend(f: ScoreFacts, now: Tally, ctx: RuleContext, coverage: TrendCoverage[]): Recommendation[] {
  const out: (Recommendation & { order: number })[] = [];
  const push = (fixes: Fix[], order: number, title?: string, text?: string) => {
    const fixed = clone(f);
    for (const x of fixes) x.apply(fixed);
    const { signal, component } = fixes[0]!;
    // Measured on the unrounded sums, so a fix worth 0.8 points is +1, not lost to rounding.
    const gain = Math.round(tally(fixed).sum - now.sum);
    // Blocked crawlers are always reported: below the cap the gain is 0 today, but the cap
    // keeps every other fix from counting until they are let in.
    if (gain <= 0 && signal !== 'crawl_access') return;
    const advice = ADVICE[signal]!;
    const also = new Set(fixes.slice(1).map((x) => x.signal));
    out.push({
      priority: signal === 'crawl_access' ? 'high' : priorityOf(gain),
      title: title ?? (typeof advice.title === 'string' ? advice.title : advice.title(ctx, also)),
      recommendation: text ?? advice.text(ctx, also),
      expected_impact: gain,
      signal,
      signals: fixes.map((x) => x.signal),
      component,
      order,
    });
  };
  const fixes: Fix[] = [];
  if (now.points.some((p) => p.signal === 'crawl_access')) {
    fixes.push({ signal: 'crawl_access', component: 'access', apply: (x) => ((x.crawl!.blocked_search = []), (x.crawl!.noindex = [])) });
  }
  for (const p of PENALTIES) if (now.points.some((x) => x.signal === p.signal)) fixes.push({ signal: p.signal, component: p.component, apply: p.fix });
  for (const r of REWARDS) {
    const point = now.points.find((x) => x.signal === r.signal);
    if (point && point.points < point.max && r.signal !== 'trend_coverage') fixes.push({ signal: r.signal, component: r.component, apply: r.fix });
  }
  // One recommendation per action: a signal joins the first fix of its group.
  const actions: Fix[][] = [];
  for (const x of fixes) {
    const group = ACTIONS.find((g) => g.includes(x.signal));
    const joined = group && actions.find((a) => group.includes(a[0]!.signal));
    if (joined) joined.push(x);
    else actions.push([x]);
  }
  actions.forEach((a, i) => push(a, i));
  coverage.forEach((cv, i) => {
    if (cv.coverage >= 40) return;
    push([{ signal: 'trend_gap', component: 'depth', apply: (x) => void (x.coverage[i] = 100) }], 100 + i, `Cover "${cv.trend}"`, cv.action);
  });
  out.sort((a, b) => b.expected_impact - a.expected_impact || a.order - b.order);
  return out.map(({ order: _o, ...r }) => r);
}

/**
 * What the summary says the page is about: its leading keyphrase, unless that is a lone everyday
 * word ("tool"), where the title says it better ("project management tips").
 */
function summaryTopic(topic: string, doc: PageDocument, lang: Lang): string {
  const title = doc.title ? stripSiteName(doc.title).toLowerCase().trim() : '';
  return isVagueWord(topic, lang) && title ? title : topic;
}

export function scoreDocument(doc: PageDocument, extras: ScoreExtras = {}): ContentScore {
  const s = measureSignals(doc, { headers: extras.headers, now: extras.now, language: extras.language });
  const lang = s.language;
  const topic = s.keyphrases[0]?.phrase ?? (doc.title ? stripSiteName(doc.title).toLowerCase() : 'this topic');

  // --- trend coverage
  const supplied = extras.trends && extras.trends.length ? suppliedTopics(extras.trends, lang) : null;
  const topics: FieldTopic[] = supplied ?? fieldTopics({ page: doc, related: extras.related ?? [] }, lang, 5);
  const coverage: TrendCoverage[] = topics.map((t) => assessTrend(doc, t.name, t.tokens, lang));

  const crawl = extras.crawl ?? null;
  const facts: ScoreFacts = { s, coverage: coverage.map((c) => c.coverage), crawl };
  const t = tally(facts);
  const overall = t.overall;
  const ctx: RuleContext = { s, doc, topic, lang, crawl };
  const recommendations = recommend(facts, t, ctx, coverage);

  const notesOf = (comp: Component) => t.points.filter((p) => p.component === comp).map((p) => `${p.label}: ${p.points}/${p.max} (${p.evidence})`);
  // The depth component ("sufficiency"): is what the page says enough to answer from? Structure,
  // evidence and topic coverage, never length.
  const depthParts = t.points.filter((p) => ['depth', 'structure', 'citability'].includes(p.component));
  const depthMax = depthParts.reduce((a, p) => a + p.max, 0);
  const depth = clampScore(depthMax ? (100 * depthParts.reduce((a, p) => a + p.points, 0)) / depthMax : 0);
  const fresh = t.components.freshness;

  const parts: [string, number][] = [
    ['citability', t.components.citability],
    ['structure', t.components.structure],
    ['trust', t.components.trust],
    ['freshness', fresh],
    ['metadata', t.components.metadata],
    ['trend coverage', t.components.depth],
  ];
  const best = [...parts].sort((a, b) => b[1] - a[1])[0]!;
  const worst = [...parts].sort((a, b) => a[1] - b[1])[0]!;
  const summary =
    `${bandOf(overall)} (${overall}/100) ${s.page_type} page about ${q(summaryTopic(topic, doc, lang))}. ` +
    `Strongest: ${best[0]} (${best[1]}); weakest: ${worst[0]} (${worst[1]}). ` +
    (recommendations.length ? `${recommendations.length} recommendations; first: ${recommendations[0]!.title.toLowerCase()} (+${recommendations[0]!.expected_impact}).` : 'No recommendations.');

  return {
    url: doc.url,
    title: doc.title,
    page_type: s.page_type,
    trend_source: extras.trendSource ?? (supplied ? 'supplied' : 'discovered'),
    overall_score: overall,
    overall_band: bandOf(overall),
    overall: { score: overall, band: bandOf(overall), summary },
    content_depth: { score: depth, band: bandOf(depth), notes: [...notesOf('citability'), ...notesOf('structure'), ...notesOf('depth')] },
    content_freshness: { score: fresh, band: bandOf(fresh), notes: notesOf('freshness') },
    sufficiency_score: depth,
    sufficiency_band: bandOf(depth),
    freshness_score: fresh,
    freshness_band: bandOf(fresh),
    trend_coverage: coverage,
    recommendations,
    top_recommendations: recommendations.slice(0, 3).map((r) => r.recommendation),
    signals: s,
    score_breakdown: t.points,
    crawl_access: crawl,
    components: {
      depth,
      freshness: fresh,
      structure: t.components.structure,
      citability: t.components.citability,
      metadata: t.components.metadata,
      trend_coverage: t.components.depth,
      trust: t.components.trust,
      access: t.components.access,
    },
    generator: 'offline',
  };
}


export { normalizeLang, cap };
