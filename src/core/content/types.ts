// Shared types of the Content Intelligence engine: the injected SiteLoader (the engine never
// touches the network itself) and the result shapes of each action. Every result carries
// `generator`: 'offline' (the built-in generator) or 'model' (SIGHTLINE_CONTENT_MODEL wrote it).
import type { PageDocument } from '../pages/document.ts';
import type { PageType } from '../pages/page-kind.ts';
import type { Evidence } from './evidence.ts';
import type { Entity, Keyphrase, TopicCluster } from './keyphrases.ts';
import type { ReadabilityResult } from './readability.ts';
import type { Lang } from './text.ts';

/** What the engine needs from the outside world. The service adapts the real SSRF-safe
 * pipeline to it; tests serve fixture files. Both methods return null when the resource cannot
 * be had (network error, refused target, not HTML); an HTTP error status is returned as is. */
export interface SiteLoader {
  /** Fetch and extract one HTML page. Header names are lower case. */
  loadPage(url: string): Promise<LoadedPage | null>;
  /** Fetch a small text resource: robots.txt, llms.txt, sitemap.xml. */
  fetchText(url: string): Promise<FetchedText | null>;
  /** Fetch a page again, uncached, with another User-Agent (a crawler's), and extract it. */
  fetchAs?(url: string, userAgent: string): Promise<{ status: number; words: number; title: string | null; text: string } | null>;
}


export interface LoadedPage {
  document: PageDocument;
  status: number;
  headers: Record<string, string>;
}

export interface FetchedText {
  status: number;
  body: string;
  contentType: string | null;
}

/** offline: the built-in deterministic generator; model: the operator's SIGHTLINE_CONTENT_MODEL. */
export type Generator = 'offline' | 'model';

/** Which model generated a result, or why the model's output was not used. */
export interface GeneratorInfo {
  /** The model asked (platform and the model it reported). */
  model?: { platform: string; model: string };
  /** Set when the model failed or its output was rejected: the offline generator answered instead. */
  fallback?: { platform: string; model: string; reason: string };
}
export type { PageType };
export type Band = 'Poor' | 'Fair' | 'Good' | 'Strong';
export type Priority = 'high' | 'medium' | 'low';



/** One concrete, ranked recommendation. `signal` is the stable code of the measured defect
 * that produced it (e.g. `missing_meta_description`), so clients and tests can key on it. */
export interface Recommendation {
  priority: Priority;
  title: string;
  recommendation: string;
  /** Gain in overall score points (integer): the page scored again with the signal fixed, minus the score now. */
  expected_impact: number;
  signal: string;
  /** Every signal the change moves, `signal` first: one action can fix several (naming a claim's
   * source also replaces "experts say"); the gain is measured with all of them fixed. Absent on
   * audit recommendations. */
  signals?: string[];
  /** The score component the signal belongs to (absent on audit recommendations). */
  component?: string;
}

export interface TrendInput {
  name: string;
  [key: string]: unknown;
}

export interface Trend {
  name: string;
  relevance: number;
  /** commercial when the topic is bought (the site sells it or the page prices it), else informational. */
  intent: 'informational' | 'commercial' | 'comparison' | 'navigational';
  gap: string;
  action: string;
  questions: string[];
  /** The intent of each question, in order. */
  question_intents: ('informational' | 'commercial' | 'comparison' | 'navigational')[];
}

export interface DiscoverTrendsInput {
  url: string;
  language?: string | null;
  country?: string | null;
  industry?: string | null;
  maxTrends?: number | null;
}

export interface TrendsResult extends GeneratorInfo {
  url: string;
  industry: string;
  generator: Generator;
  trends: Trend[];
  sources: { title: string; url: string }[];
}

export interface ScoreContentInput {
  url: string;
  trends?: (string | TrendInput)[] | null;
  industry?: string | null;
  language?: string | null;
  country?: string | null;
}

export interface TrendCoverage {
  trend: string;
  /** 0..100: how well the page covers the trend. */
  coverage: number;
  gap: string;
  action: string;
}

export interface SubScore {
  score: number;
  band: Band;
  notes: string[];
}

export interface ContentScore {
  url: string;
  title: string | null;
  page_type: PageType;
  trend_source: 'supplied' | 'discovered';
  overall_score: number;
  overall_band: Band;
  overall: { score: number; band: Band; summary: string };
  content_depth: SubScore;
  content_freshness: SubScore;
  sufficiency_score: number;
  sufficiency_band: Band;
  freshness_score: number;
  freshness_band: Band;
  trend_coverage: TrendCoverage[];
  recommendations: Recommendation[];
  top_recommendations: string[];
  signals: PageSignals;
  /** Every point of the overall score by named signal: overall_score is the rounded sum of `points`. */
  score_breakdown: ScorePoint[];
  /** robots.txt and page directives as the AI crawlers meet them (null when not checked). */
  crawl_access: CrawlFacts | null;
  /** The component scores (0..100) of the breakdown; access is null when the live site was not checked. */
  components: { depth: number; freshness: number; structure: number; citability: number; metadata: number; trend_coverage: number; trust: number; access: number | null };
  generator: Generator;
  /** Where the HTML came from: fetched from `url`, or supplied by the caller (nothing fetched). */
  source?: ContentSource;
  /** Supplied HTML only: the findings that need the live site, left null, and why. */
  not_checked?: NotChecked;
}

export type ContentSource = 'fetched' | 'supplied';

export interface NotChecked {
  reason: string;
  /** The response fields (or facts) left null or out. */
  findings: string[];
}

export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface AuditCheck {
  id: string;
  status: CheckStatus;
  detail: string;
}

export interface AuditResult {
  url: string;
  generator: Generator;
  score: number;
  band: Band;
  checks: AuditCheck[];
  crawlers: CrawlerAccess[];
  robots_txt: RobotsReport;
  crawl_access: CrawlFacts;
  /** The page fetched again as each major search crawler; null when the loader cannot set a user agent. */
  crawler_fetch: RefetchResult[] | null;
  llms_txt: { present: boolean; valid: boolean; title: string | null; summary: string | null; sections: number; links: number; errors: string[] };
  sitemap: { url: string | null; found: boolean; lists_page: boolean | null; url_count: number };
  json_ld: { types: string[]; errors: number };
  recommendations: Recommendation[];
}

export type Intent =
  | 'category_discovery'
  | 'comparison'
  | 'alternatives'
  | 'problem_solution'
  | 'how_to'
  | 'reviews'
  | 'pricing';
export type FunnelStage = 'awareness' | 'consideration' | 'decision';

export interface SuggestPromptsInput {
  url: string;
  brand?: string | null;
  language?: string | null;
  country?: string | null;
  competitors?: string[] | null;
  count?: number | null;
}

export interface PromptSuggestion {
  prompt: string;
  intent: Intent;
  /** The search-intent class: informational, commercial, comparison or navigational. */
  intent_class: 'informational' | 'commercial' | 'comparison' | 'navigational';
  funnel_stage: FunnelStage;
  why: string;
}

export interface PromptsResult extends GeneratorInfo {
  url: string;
  brand: string | null;
  industry: string;
  generator: Generator;
  prompts: string[];
  suggestions: PromptSuggestion[];
}

export interface PageSignals {
  language: Lang;
  page_type: PageType;
  page_type_reason: string;
  meta: {
    title: string | null;
    title_length: number;
    /** The site's name as the page declares it (og:site_name), or null. */
    site_name: string | null;
    description: string | null;
    description_length: number;
    canonical: string | null;
    canonical_self: boolean | null;
    meta_robots: string | null;
    noindex: boolean;
    nofollow: boolean;
    open_graph_missing: string[];
  };
  structure: {
    word_count: number;
    h1_count: number;
    h1_texts: string[];
    h2_count: number;
    h3_count: number;
    paragraph_count: number;
    list_count: number;
    table_count: number;
    code_count: number;
    quote_count: number;
    long_paragraphs: number;
    longest_paragraph_words: number;
    avg_paragraph_words: number;
    words_per_section: number;
    question_headings: number;
    faq: { present: boolean; source: 'json-ld' | 'heading' | 'questions' | null; questions: number };
  };
  readability: ReadabilityResult;
  freshness: {
    published: string | null;
    modified: string | null;
    http_last_modified: string | null;
    visible_dates: string[];
    newest: string | null;
    /** 'json-ld/meta' = declared (JSON-LD, meta tags, <time>); 'http' = Last-Modified only, a weak fallback. Dates in body text never count. */
    newest_source: 'json-ld/meta' | 'http' | null;
    age_days: number | null;
    /** Declared dates after "now" (events, typos, CMS placeholders): ignored. */
    future_ignored: string[];
    /** dateModified is not before datePublished. */
    consistent: boolean;
  };
  citability: {
    lead_paragraph_words: number;
    answer_first: boolean;
    /** How direct the opening paragraph is, 0..1 (answer_first is this at 0.5 or more). */
    answer_first_strength: number;
    /** The phrase the opening paragraph repeats instead of answering (then answer_first is false), or null. */
    lead_repeats: string | null;
    sections: number;
    sections_answer_first: number;
    statistics: number;
    statistic_examples: string[];
    quotations: number;
    sources_cited: number;
    source_domains: string[];
    definitions: number;
    json_ld_types: string[];
    json_ld_errors: number;
    author: string | null;
    organization: string | null;
    /** The author can be checked: a JSON-LD Person with url/sameAs, or a byline linking to a profile. */
    author_checkable: boolean;
    /** The organization can be checked: JSON-LD with url, sameAs or logo. */
    organization_checkable: boolean;
  };
  evidence: Evidence;
  /** H1 of the whole page, main block or not (the title a reader sees). */
  page_h1: string | null;
  keyphrases: Keyphrase[];
  entities: Entity[];
  topics: TopicCluster[];
}

export type Component = 'citability' | 'structure' | 'trust' | 'freshness' | 'metadata' | 'depth' | 'access';

/** What one signal contributes to the overall score. */
export interface ScorePoint {
  signal: string;
  component: Component;
  label: string;
  /** Points in the overall score (one decimal; negative for penalties and caps). */
  points: number;
  /** The most this signal can add (0 for penalties). */
  max: number;
  evidence: string;
}

export type CrawlerRole = 'training' | 'search' | 'user';

export interface CrawlerAccess {
  agent: string;
  vendor: string;
  role: CrawlerRole;
  purpose: string;
  source: string;
  allowed: boolean;
  /** The robots.txt line that decided, e.g. "Disallow: /" (null when no rule matched). */
  rule: string | null;
  line: number | null;
  /** A page-level directive that keeps this agent from indexing or quoting the page. */
  directive: string | null;
}

export interface RobotsReport {
  /** `ok` parsed; `missing` 4xx/unreachable (allow all); `error` 5xx (disallow all, RFC 9309 §2.3.1.4). */
  state: 'ok' | 'missing' | 'error';
  status: number | null;
  content_type: string | null;
  /** The body was an HTML page: parsed anyway (RFC 9309 does not depend on the content type), it usually holds no rules. */
  html_body: boolean;
  sitemaps: string[];
  lines: number;
}

/** Crawl access the content score needs: which roles are cut off, and the page directives. */
export interface CrawlFacts {
  robots: RobotsReport['state'] | 'not_checked';
  /** Search or user-triggered crawlers that robots.txt blocks from the page. */
  blocked_search: string[];
  /** Training crawlers blocked: the owner's choice, shown, not scored. */
  blocked_training: string[];
  /** Agents (general robots, Googlebot, Bingbot…) told not to index the page. */
  noindex: string[];
  /** Agents whose snippets are forbidden or limited below 50 characters. */
  snippet_restricted: string[];
  nosnippet_regions: number;
  /** The copy needs JavaScript that AI crawlers do not run. */
  needs_javascript: boolean;
}

export interface RefetchResult {
  agent: string;
  /** HTTP status the crawler's user agent got; null when the fetch failed. */
  status: number | null;
  words: number | null;
  /** `same`, or what differs: `blocked` (4xx/5xx), `challenge` (a bot check page), `empty` (no copy), `error`. */
  outcome: 'same' | 'blocked' | 'challenge' | 'empty' | 'error';
  detail: string;
}
