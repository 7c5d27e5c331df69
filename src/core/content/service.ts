// The Content Intelligence service: the four paid single actions (prompt suggestions, trend
// discovery, content score) and the persisted runs, wired to the shared page loader and billing.
// Every surface (HTTP, MCP, CLI) calls this object rather than the engine directly.
//
// The one thing to know: everything that can refuse a request (URL, mode, bounds) is checked
// before a credit is reserved, and the page is fetched only after the reservation succeeded, so
// a short balance gives 402 without a single request leaving the server. A page that cannot be
// loaded makes the action throw (fetch_blocked / invalid_url / extraction_failed) and
// runPaidAction releases the reservation: a failed action charges nothing.
import { ACTION_PRICES, runPaidAction, type ActionContext } from '../billing/actions.ts';
import { AppError, FieldError } from '../errors.ts';
import { formatCredits } from '../money.ts';
import { FetchError, fetchErrorToAppError } from '../pages/fetch/errors.ts';
import { DEFAULT_MAX_BYTES } from '../pages/fetch/fetch-page.ts';
import type { FetchFor, PageLoader } from '../pages/pipeline.ts';
import { parseHttpUrl } from '../../lib/url.ts';
import type { Store } from '../../db/store.ts';
import { pageLogEvidence, type PageLogEvidence } from '../sites/page-evidence.ts';
import type { AuditResult } from './types.ts';
import { auditSite, discoverTrends, scoreContent, scoreSuppliedContent, suggestPrompts, type SiteLoader, type TrendInput } from './index.ts';
import { type CI_STATUSES, createCiRun, getCiRun, listCiRuns, type CiAnalyzer } from './runs.ts';
import type { ContentModel } from './generator.ts';
import { inProcessAnalysis, type Analysis } from './analysis.ts';

export const SUGGEST_ACTION = 'visibility.prompts.suggest';
export const TRENDS_ACTION = 'content_intelligence.trends.discover';
export const SCORE_ACTION = 'content_intelligence.content.score';
export const EXTRACTION_MODES = ['ssr', 'csr', 'full'] as const;
export const ANALYSIS_DEPTHS = ['score', 'full'] as const;
export const PROMPT_COUNT = { min: 1, max: 25, default: 10 } as const;
export const MAX_TRENDS = { min: 1, max: 20, default: 8 } as const;
export const MAX_COMPETITORS = 10;
/** Supplied trends beyond this many are a 422: each one becomes a coverage check and a section. */
export const MAX_SUPPLIED_TRENDS = 50;

export type SuppliedTrend = string | TrendInput;

export interface Billing {
  billable: boolean;
  /** What this request charged (decimal string, two places). */
  credits: string;
  /** The action's price. */
  estimated_credits: string;
}

export interface SuggestPromptsRequest {
  url: string;
  brand_name?: string | null;
  /** Alias of brand_name (the visibility run field name). */
  target_entity?: string | null;
  language?: string | null;
  country?: string | null;
  competitors?: string[] | null;
  count?: number | null;
}

export interface DiscoverTrendsRequest {
  url: string;
  language?: string | null;
  country?: string | null;
  industry?: string | null;
  max_trends?: number | null;
}

export interface ScoreContentRequest {
  url: string;
  /** The page's HTML as the caller has it (a draft): scored as is, nothing fetched. */
  html?: string | null;
  extraction_mode?: string | null;
  trends?: SuppliedTrend[] | null;
  industry?: string | null;
  language?: string | null;
  country?: string | null;
}

export interface CreateRunRequest {
  url: string;
  analysis_depth?: string | null;
  language?: string | null;
  country?: string | null;
  trends?: SuppliedTrend[] | null;
  industry?: string | null;
  idempotency_key?: string | null;
}

export interface ContentServiceDeps {
  store: Store;
  pages: PageLoader;
  /** Wakes the worker when a run was queued. */
  onQueued?: () => void;
  /** Clock for freshness scoring; replaceable in tests. */
  now?: () => Date;
  /** The model that writes trends and prompt ideas (SIGHTLINE_CONTENT_MODEL in live mode); null = offline. */
  contentModel?: ContentModel | null;
  /** Where the CPU-bound analysis runs (analysis threads in the server); default: the calling thread. */
  analysis?: Analysis;
}

/**
 * The engine's SiteLoader over the SSRF-safe page pipeline. A fetch failure of a page is thrown
 * as the API error it maps to (so a refused primary page is 400 fetch_blocked, not a generic
 * extraction failure); the engine already treats failures of secondary pages (related pages,
 * robots.txt, llms.txt, sitemaps) as "not there". Text resources follow the SiteLoader contract
 * and answer null when they cannot be had.
 */
export function siteLoaderFor(pages: PageLoader, who: FetchFor = {}): SiteLoader {
  return {
    async loadPage(url) {
      try {
        const page = await pages.load(url, who);
        return { document: page.document, status: page.fetched.status, headers: page.fetched.headers };
      } catch (err) {
        if (err instanceof FetchError) throw fetchErrorToAppError(err);
        throw err;
      }
    },
    async fetchAs(url, userAgent) {
      try {
        const { status, document } = await pages.fetchAs(url, userAgent, who);
        return { status, words: document.wordCount, title: document.title, text: document.bodyText.slice(0, 2000) };
      } catch (err) {
        if (err instanceof FetchError) return null;
        throw err;
      }
    },
    async fetchText(url) {
      try {
        const res = await pages.fetchText(url, who);
        return { status: res.status, body: res.body, contentType: res.contentType };
      } catch (err) {
        if (err instanceof FetchError) return null;
        throw err;
      }
    },
  };
}

/** The URL as given (trimmed), or 400 invalid_url. Checked before anything is reserved. */
function checkUrl(value: unknown): string {
  if (typeof value !== 'string') throw new AppError('invalid_url');
  const parsed = parseHttpUrl(value);
  if (!parsed) throw new AppError('invalid_url');
  if (parsed.username || parsed.password) throw new AppError('invalid_url', 'URLs with credentials are not fetched.');
  return value.trim();
}

function checkInt(value: number | null | undefined, field: string, bounds: { min: number; max: number; default: number }): number {
  const n = value ?? bounds.default;
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max) {
    throw new FieldError(['body', field], `${field} must be an integer from ${bounds.min} to ${bounds.max}.`);
  }
  return n;
}

const text = (v: string | null | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Supplied trends with a usable name; blank entries are dropped (an all-blank list means "none"). */
export function suppliedTrends(trends: unknown): SuppliedTrend[] {
  if (!Array.isArray(trends)) return [];
  const out: SuppliedTrend[] = [];
  for (const t of trends) {
    if (typeof t === 'string' && t.trim()) out.push(t.trim());
    else if (t && typeof t === 'object' && typeof (t as TrendInput).name === 'string' && (t as TrendInput).name.trim()) {
      out.push({ ...(t as TrendInput), name: (t as TrendInput).name.trim() });
    }
  }
  return out;
}

function checkTrends(trends: unknown): SuppliedTrend[] {
  if (Array.isArray(trends) && trends.length > MAX_SUPPLIED_TRENDS) {
    throw new FieldError(['body', 'trends'], `At most ${MAX_SUPPLIED_TRENDS} trends can be supplied.`);
  }
  return suppliedTrends(trends);
}

/** Supplied HTML is capped like a fetched page's body (the fetcher reads at most this many bytes). */
export const MAX_SUPPLIED_HTML_BYTES = DEFAULT_MAX_BYTES;

/** A tag that only HTML has: a document, or a fragment of one (a draft's body copy). */
const HTML_TAG = /<(!doctype\s+html|html|head|body|title|meta|main|article|section|div|p|h[1-6]|ul|ol|li|table|a|img|span|br)\b[^>]*>/i;

/**
 * Supplied HTML, or 400/413 before anything is reserved: over the fetcher's byte cap is 413
 * payload_too_large; empty, binary or not HTML at all (plain text, JSON, Markdown) is 400 invalid_html.
 */
function checkHtml(html: unknown): string {
  if (typeof html !== 'string' || !html.trim()) throw new AppError('invalid_html', 'html is empty: send the page\'s HTML, or leave html out to fetch the url.', { field: 'html' });
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > MAX_SUPPLIED_HTML_BYTES) {
    throw new AppError('payload_too_large', `html is ${bytes} bytes; a page is scored from at most ${MAX_SUPPLIED_HTML_BYTES} bytes (${MAX_SUPPLIED_HTML_BYTES / 1024 / 1024} MiB), as a fetched page is.`, {
      field: 'html',
      max_bytes: MAX_SUPPLIED_HTML_BYTES,
    });
  }
  if (html.includes('\u0000') || !HTML_TAG.test(html)) {
    throw new AppError('invalid_html', 'html is not HTML (no HTML tag found); send the page\'s markup, not its text, JSON or a binary file.', { field: 'html' });
  }
  return html;
}

function billing(price: number, charged: number, billable: boolean): Billing {
  return { billable, credits: formatCredits(charged), estimated_credits: formatCredits(price) };
}

export function createContentService(deps: ContentServiceDeps) {
  /** The loader for one account's work: its fetches count against that account's fetch cap. */
  const loaderFor = (accountId: string | undefined) => siteLoaderFor(deps.pages, { accountId });
  const now = deps.now ?? (() => new Date());
  const analysis = deps.analysis ?? inProcessAnalysis;

  /** Supplied HTML through the same extractor as fetched pages (big ones in a thread). */
  const extractSupplied = (html: string, url: string) =>
    deps.pages.extract(html, url).catch((err: unknown) => {
      throw err instanceof FetchError ? fetchErrorToAppError(err) : err;
    });

  const analyze: CiAnalyzer = async (run) => {
    const loader = loaderFor(run.accountId);
    const trends = suppliedTrends(run.trends);
    const language = run.language;
    const score = await scoreContent({ url: run.url, trends, industry: run.industry, language, country: run.country }, loader, { now: now(), analysis });
    const result: Record<string, unknown> = { analysis_depth: run.depth, ...score };
    if (run.depth === 'full') {
      // The three reuse the page loader's cache: the page and its related pages are fetched once.
      // A stopping worker is heard between them (each is bounded by the fetch timeouts).
      run.signal?.throwIfAborted();
      const discovered = await discoverTrends({ url: run.url, language, country: run.country, industry: run.industry }, loader, deps.contentModel, run.signal, analysis);
      run.signal?.throwIfAborted();
      const prompts = await suggestPrompts({ url: run.url, language, country: run.country }, loader, deps.contentModel, run.signal, analysis);
      run.signal?.throwIfAborted();
      const audit: AuditResult & { log_evidence?: PageLogEvidence | null } = await auditSite(run.url, loader);
      // What the account's own access logs say about this page (null: no site for its host).
      if (run.accountId) audit.log_evidence = await pageLogEvidence(deps.store.db, run.accountId, audit.url || run.url, audit.crawlers, { now: now() });
      Object.assign(result, {
        industry: discovered.industry,
        trends: discovered.trends,
        trend_sources: discovered.sources,
        trends_generator: discovered.generator,
        ...(discovered.model ? { trends_model: discovered.model } : {}),
        ...(discovered.fallback ? { trends_fallback: discovered.fallback } : {}),
        prompts_generator: prompts.generator,
        ...(prompts.model ? { prompts_model: prompts.model } : {}),
        ...(prompts.fallback ? { prompts_fallback: prompts.fallback } : {}),
        brand: prompts.brand,
        prompts: prompts.prompts,
        prompt_suggestions: prompts.suggestions,
        audit,
      });
    }
    return { result, overallScore: score.overall_score, overallBand: score.overall_band };
  };

  return {
    /** The worker's analysis of one persisted run (see runs.ts executeCiRun). */
    analyze,

    /** POST /v1/visibility/prompts/suggest: 1 credit. */
    async suggestPrompts(ctx: ActionContext, req: SuggestPromptsRequest) {
      const url = checkUrl(req.url);
      const count = checkInt(req.count, 'count', PROMPT_COUNT);
      const competitors = (req.competitors ?? []).filter((c) => typeof c === 'string');
      if (competitors.length > MAX_COMPETITORS) throw new FieldError(['body', 'competitors'], `At most ${MAX_COMPETITORS} competitors.`);
      const price = ACTION_PRICES[SUGGEST_ACTION];
      const { result, billable, charged } = await runPaidAction(deps.store, ctx, SUGGEST_ACTION, price, async () => ({
        billable: true,
        result: await suggestPrompts(
          { url, brand: text(req.brand_name) ?? text(req.target_entity), language: text(req.language), country: text(req.country), competitors, count },
          loaderFor(ctx.accountId),
          deps.contentModel,
          undefined,
          analysis,
        ),
      }));
      return { ...result, billing: billing(price, charged, billable) };
    },

    /** POST /v1/content-intelligence/trends/discover: 1 credit. */
    async discoverTrends(ctx: ActionContext, req: DiscoverTrendsRequest) {
      const url = checkUrl(req.url);
      const maxTrends = checkInt(req.max_trends, 'max_trends', MAX_TRENDS);
      const price = ACTION_PRICES[TRENDS_ACTION];
      const { result, billable, charged } = await runPaidAction(deps.store, ctx, TRENDS_ACTION, price, async () => ({
        billable: true,
        result: await discoverTrends({ url, language: text(req.language), country: text(req.country), industry: text(req.industry), maxTrends }, loaderFor(ctx.accountId), deps.contentModel, undefined, analysis),
      }));
      return { ...result, billing: billing(price, charged, billable) };
    },

    /**
     * POST /v1/content-intelligence/content/score: 2 credits with supplied trends, 3 without.
     * With `html` the page is not fetched: the supplied HTML is extracted as if served at `url`.
     */
    async scoreContent(ctx: ActionContext, req: ScoreContentRequest) {
      const mode = (req.extraction_mode ?? 'ssr').trim().toLowerCase();
      if (!(EXTRACTION_MODES as readonly string[]).includes(mode)) {
        throw new AppError('unsupported_extraction_mode', undefined, { allowed: [...EXTRACTION_MODES] });
      }
      const url = checkUrl(req.url);
      const html = req.html == null ? null : checkHtml(req.html);
      const trends = checkTrends(req.trends);
      const price = trends.length ? ACTION_PRICES['content_intelligence.content.score.supplied_trends'] : ACTION_PRICES[SCORE_ACTION];
      const input = { url, trends, industry: text(req.industry), language: text(req.language), country: text(req.country) };
      const { result, billable, charged } = await runPaidAction(deps.store, ctx, SCORE_ACTION, price, async () => ({
        billable: true,
        result:
          html === null
            ? await scoreContent(input, loaderFor(ctx.accountId), { now: now(), analysis })
            : await scoreSuppliedContent(input, await extractSupplied(html, url), { now: now(), analysis }),
      }));
      return { ...result, billing: billing(price, charged, billable) };
    },

    /** POST /v1/content-intelligence/runs: reserves 3 (score) or 6 (full) credits and queues the run. */
    async createRun(ctx: ActionContext, req: CreateRunRequest, opts: { testId?: string } = {}) {
      const url = checkUrl(req.url);
      const depth = req.analysis_depth ?? 'score';
      if (!(ANALYSIS_DEPTHS as readonly string[]).includes(depth)) {
        throw new FieldError(['body', 'analysis_depth'], `analysis_depth must be one of ${ANALYSIS_DEPTHS.join(', ')}.`, 'enum');
      }
      if (req.idempotency_key != null && req.idempotency_key.length > 160) {
        throw new FieldError(['body', 'idempotency_key'], 'idempotency_key must be at most 160 characters.');
      }
      const trends = checkTrends(req.trends);
      return createCiRun(
        deps.store,
        ctx,
        {
          url,
          analysis_depth: depth as (typeof ANALYSIS_DEPTHS)[number],
          language: text(req.language),
          country: text(req.country),
          industry: text(req.industry),
          trends,
          idempotency_key: req.idempotency_key ?? undefined,
        },
        deps.onQueued,
        opts,
      );
    },

    getRun: (accountId: string, runId: string, opts: { includeResult?: boolean } = {}) => getCiRun(deps.store, accountId, runId, opts),

    listRuns: (accountId: string, opts: { limit: number; startingAfter?: string; status?: (typeof CI_STATUSES)[number] }) =>
      listCiRuns(deps.store, accountId, opts),
  };
}

export type ContentService = ReturnType<typeof createContentService>;
