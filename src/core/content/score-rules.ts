// The content score's rule tables: each signal's reward or penalty, its weight per page type, how
// much of it a page achieves (0..1) and the fix that recommendation scoring applies; the schema.org
// types each page type is expected to declare; the cap while AI search crawlers are blocked; and
// which signals one action fixes together. score.ts applies them; the text of each
// recommendation is in score-advice.ts.
import { isGenericTitle, TITLE_SEPARATOR } from './signals.ts';
import type { Component, CrawlFacts, PageSignals, PageType } from './types.ts';

/** Facts the points are computed from: the page's signals plus coverage and crawl access. */
export interface ScoreFacts {
  s: PageSignals;
  coverage: number[];
  crawl: CrawlFacts | null;
}

const TYPES: PageType[] = ['article', 'product', 'collection', 'listing', 'documentation', 'service', 'forum', 'home'];
export type Weights = [number, number, number, number, number, number, number, number];
export const w = (type: PageType, weights: Weights) => weights[TYPES.indexOf(type)]!;

export interface Reward {
  signal: string;
  component: Component;
  label: string;
  weights: Weights; // article, product, collection, listing, documentation, service, forum, home
  /** 0..1 achieved. */
  value(f: ScoreFacts): number;
  evidence(f: ScoreFacts): string;
  fix(f: ScoreFacts): void;
}

export interface Penalty {
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

export const sat = (n: number, enough: number) => Math.max(0, Math.min(1, n / enough));
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The schema.org types a page of each type is expected to declare, with their share of the signal. */
export const EXPECTED_SCHEMA: Record<PageType, { types: string[]; share: number; label: string }[]> = {
  article: [
    {
      types: ['Article', 'BlogPosting', 'NewsArticle', 'TechArticle', 'ReportageNewsArticle', 'ScholarlyArticle', 'AnalysisNewsArticle', 'OpinionNewsArticle', 'ReviewNewsArticle', 'BackgroundNewsArticle', 'LiveBlogPosting', 'Report', 'MedicalWebPage'],
      share: 1,
      label: 'Article (headline, author, datePublished, dateModified, publisher)',
    },
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

/** Length of the title without the site's name, when the title starts or ends with it ("Pricing – Acme"). */
function ownTitleLength(s: PageSignals): number {
  const title = s.meta.title ?? '';
  const sites = [s.citability.organization, s.meta.site_name].filter((x): x is string => !!x).map((x) => x.toLowerCase().trim());
  const parts = title.split(TITLE_SEPARATOR);
  if (!sites.length || parts.length < 2) return title.length;
  const named = (p: string | undefined) => !!p && sites.some((site) => p.toLowerCase().includes(site) || site.includes(p.toLowerCase().trim()));
  if (named(parts[parts.length - 1])) return parts.slice(0, -1).join(' – ').length;
  if (named(parts[0])) return parts.slice(1).join(' – ').length;
  return title.length;
}

function neededSections(words: number): number {
  return words < 250 ? 0 : Math.max(2, words / 350);
}

/**
 * How much a shortage of subheadings counts, 0..1: nothing below 250 words, fully from 350, so a
 * word more or less never moves the score by a step. Applied to the headings needed below too.
 */
function sectionsPhaseIn(words: number): number {
  return Math.max(0, Math.min(1, (words - 250) / 100));
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
    value: ({ s }) => s.citability.answer_first_strength,
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
      s.citability.answer_first_strength = 1;
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
      return need === 0 ? 1 : 1 - sectionsPhaseIn(s.structure.word_count) * (1 - sat(s.structure.h2_count + s.structure.h3_count, need));
    },
    evidence: ({ s }) => `${plural(s.structure.h2_count + s.structure.h3_count, 'H2/H3 heading')} for ${s.structure.word_count} words (one per ~350 words earns full points).`,
    fix: ({ s }) => void (s.structure.h2_count = Math.max(s.structure.h2_count, Math.ceil(neededSections(s.structure.word_count)))),
  },
  {
    signal: 'section_answers',
    component: 'structure',
    label: 'Sections open with their answer',
    weights: [3, 0, 0, 0, 3, 2, 0, 0],
    // No sections: nothing to open where the text needs none; where it does, the sections
    // advice adds them (each opening with its answer), so the points wait on it.
    value: ({ s }) => (s.citability.sections ? s.citability.sections_answer_first / s.citability.sections : 1 - sectionsPhaseIn(s.structure.word_count)),
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
    // The site name a title ends with is the site's, not the page's: the page's own part is measured.
    // A generic title ("Home", "Welcome") says no more than none.
    value: ({ s }) => (!s.meta.title || isGenericTitle(s.meta.title) ? 0 : ownTitleLength(s) >= 20 && ownTitleLength(s) <= 70 ? 1 : 0.5),
    evidence: ({ s }) => (isGenericTitle(s.meta.title) ? `Generic title "${s.meta.title}": it names nothing the page offers.` : s.meta.title ? `Title of ${s.meta.title_length} characters${ownTitleLength(s) !== s.meta.title_length ? ` (${ownTitleLength(s)} without the site name)` : ''}.` : 'No <title>.'),
    fix: ({ s }) => {
      s.meta.title = isGenericTitle(s.meta.title) || !s.meta.title ? 'A descriptive title' : s.meta.title;
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
    evidence: ({ s }) => `JSON-LD types: ${s.citability.json_ld_types.join(', ') || 'none'}; expected for ${/^[aeiou]/.test(s.page_type) ? 'an' : 'a'} ${s.page_type} page: ${EXPECTED_SCHEMA[s.page_type].map((e) => e.types[0]).join(' + ')}.`,
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
    signal: 'placeholder_text',
    component: 'citability',
    label: 'Placeholder text',
    weights: [15, 15, 15, 15, 15, 15, 15, 15],
    severity: ({ s }) => (s.evidence.placeholder_text.length ? 1 : 0),
    evidence: ({ s }) => (s.evidence.placeholder_text.length ? `Placeholder text on the page: "${s.evidence.placeholder_text[0]}".` : 'No placeholder text.'),
    fix: ({ s }) => void (s.evidence.placeholder_text = []),
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
    // Trust, not citability: a claim resting on "experts say" asks to be believed on no one's word,
    // so a named author does not make a page of them trustworthy.
    component: 'trust',
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

/**
 * Signals that one action changes together, so they make one recommendation: naming a claim's
 * source is the same edit as replacing "experts say" and as linking it; sourcing the figures
 * the page states is how its statistics get their source; adding sections is how sections open
 * with their answer. The first of a group that is short of its best leads; the gain is measured
 * with all of them fixed.
 */
export const ACTIONS: string[][] = [
  ['vague_attribution', 'named_sources', 'linked_sources'],
  ['unsourced_figures', 'sourced_statistics'],
  ['sections', 'section_answers'],
];
