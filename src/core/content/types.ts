// Shared types of the Content Intelligence engine: the injected SiteLoader (the engine never
// touches the network itself) and the result shapes of each action. Every result carries
// `generator`: 'offline' (the built-in generator) or 'model' (SIGHTLINE_CONTENT_MODEL wrote it).
import type { PageDocument } from '../pages/document.ts';
import { AppError } from '../errors.ts';

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

/**
 * For `.catch` on a secondary resource (robots.txt, llms.txt, sitemaps, related pages, crawler
 * re-fetches): a failure means "not there" (null), except a refusal for capacity (503
 * fetch_capacity), which fails the whole action rather than being reported as a missing resource.
 */
export function notThere(err: unknown): null {
  if (err instanceof AppError && err.code === 'fetch_capacity') throw err;
  return null;
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
export type Band = 'Poor' | 'Fair' | 'Good' | 'Strong';
export type Priority = 'high' | 'medium' | 'low';
/** listing = search results and archives; collection = a shop's category of products. */
export type PageType = 'article' | 'product' | 'collection' | 'listing' | 'documentation' | 'service' | 'forum' | 'home';

/** Band of an integer 0..100 score, as API-NOTES fixes it. */
export function bandOf(score: number): Band {
  if (score < 40) return 'Poor';
  if (score < 60) return 'Fair';
  if (score < 80) return 'Good';
  return 'Strong';
}

export function clampScore(n: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.max(0, Math.min(100, Math.round(n)));
}

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
  signals: import('./signals.ts').PageSignals;
  /** Every point of the overall score by named signal: overall_score is the rounded sum of `points`. */
  score_breakdown: import('./score.ts').ScorePoint[];
  /** robots.txt and page directives as the AI crawlers meet them (null when not checked). */
  crawl_access: import('./crawlers.ts').CrawlFacts | null;
  /** The component scores (0..100) of the breakdown. */
  components: { depth: number; freshness: number; structure: number; citability: number; metadata: number; trend_coverage: number; trust: number; access: number };
  generator: Generator;
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
  crawlers: import('./crawlers.ts').CrawlerAccess[];
  robots_txt: import('./crawlers.ts').RobotsReport;
  crawl_access: import('./crawlers.ts').CrawlFacts;
  /** The page fetched again as each major search crawler; null when the loader cannot set a user agent. */
  crawler_fetch: import('./access.ts').RefetchResult[] | null;
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
