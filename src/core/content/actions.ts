// The entry points of Content Intelligence that load a site: each loads the page (and a few
// same-site pages) through the injected SiteLoader, hands the CPU-bound part to an Analysis (an
// analysis thread in the server, this thread by default) and, in live mode, asks the content
// model. The one thing to know: everything below this module is pure (a loaded site in, a result
// out); network I/O and model calls happen only here and in audit.ts.
import type { PageDocument } from '../pages/document.ts';
import { crawlFactsFor } from './access.ts';
import { inProcessAnalysis, type Analysis } from './analysis.ts';
import { GenerationError, generatePrompts, generateTrends, type ContentModel } from './generator.ts';
import { jsonLdTypes, phraseTokens } from './keyphrases.ts';
import { nonsense } from './nonsense.ts';
import { FUNNEL } from './prompts.ts';
import { isVendor } from './questions.ts';
import { scoreDocument, type ScoreExtras } from './score.ts';
import { loadPrimary, loadSite } from './site.ts';
import { normalizeLang } from './text.ts';
import { assessTrend } from './trends.ts';
import type { ContentScore, ContentSource, DiscoverTrendsInput, PromptSuggestion, PromptsResult, ScoreContentInput, SiteLoader, SuggestPromptsInput, Trend, TrendsResult } from './types.ts';
import { checkLocaleInput } from '../locale.ts';

export interface ScoreOptions {
  now?: Date;
  /** Where the CPU-bound scoring runs (an analysis thread in the server); default: here. */
  analysis?: Pick<Analysis, 'score'>;
}

export async function scoreContent(input: ScoreContentInput, loader: SiteLoader, options: ScoreOptions = {}): Promise<ScoredPage> {
  checkLocaleInput(input);
  const analysis = options.analysis ?? { score: async (doc: PageDocument, extras: ScoreExtras) => scoreDocument(doc, extras) };
  const supplied = (input.trends ?? []).filter((t) => (typeof t === 'string' ? t.trim() : t?.name?.trim()));
  if (supplied.length) {
    // Supplied trends are used as given: no discovery, so no related pages are loaded.
    const page = await loadPrimary(input.url, loader);
    const crawl = await crawlFactsFor(page, loader);
    return withInputUrl(
      await analysis.score(page.document, { headers: page.headers, now: options.now, language: input.language, trends: supplied, trendSource: 'supplied', crawl }),
      input.url,
    );
  }
  const site = await loadSite(input.url, loader, 3);
  const crawl = await crawlFactsFor(site.page, loader);
  return withInputUrl(
    await analysis.score(site.page.document, {
      headers: site.page.headers,
      now: options.now,
      language: input.language,
      related: site.related.map((p) => p.document),
      trendSource: 'discovered',
      crawl,
    }),
    input.url,
  );
}

/** A score with where its HTML came from (every single-action score says it). */
export type ScoredPage = ContentScore & { source: ContentSource };

function withInputUrl(r: ContentScore, url: string): ScoredPage {
  return { ...r, url, source: 'fetched' };
}

/** What a score of supplied HTML leaves out: every finding that needs the live site. */
export const SUPPLIED_NOT_CHECKED = {
  reason:
    'The HTML was supplied, so nothing was fetched: robots.txt and crawler access, the HTTP status, redirects, response headers (Last-Modified) and fetch timing of the live page are unknown, not passed. Score the published URL to check them.',
  findings: ['crawl_access', 'components.access', 'http_status', 'redirects', 'response_headers', 'fetch_timing'],
};

/**
 * The score of HTML the caller supplied (a draft): the same extraction and scoring as a fetched
 * page, with `url` as the page's address, and nothing loaded: no related pages (discovered trends
 * come from the page alone), no robots.txt, no headers. Live-site findings are null, with the reason.
 */
export async function scoreSuppliedContent(input: ScoreContentInput, document: PageDocument, options: ScoreOptions = {}): Promise<ScoredPage> {
  checkLocaleInput(input);
  const analysis = options.analysis ?? { score: async (doc: PageDocument, extras: ScoreExtras) => scoreDocument(doc, extras) };
  const supplied = (input.trends ?? []).filter((t) => (typeof t === 'string' ? t.trim() : t?.name?.trim()));
  const r = await analysis.score(document, {
    now: options.now,
    language: input.language,
    ...(supplied.length ? { trends: supplied, trendSource: 'supplied' as const } : { related: [], trendSource: 'discovered' as const }),
    crawl: null,
    liveSite: false,
  });
  return { ...r, url: input.url, source: 'supplied', not_checked: SUPPLIED_NOT_CHECKED };
}

export async function suggestPrompts(
  input: SuggestPromptsInput,
  loader: SiteLoader,
  model?: ContentModel | null,
  signal?: AbortSignal,
  analysis: Pick<Analysis, 'prompts'> = inProcessAnalysis,
): Promise<PromptsResult> {
  checkLocaleInput(input);
  const count = Math.max(1, Math.min(25, Math.floor(input.count ?? 10)));
  const site = await loadSite(input.url, loader, 2);
  const offline = await analysis.prompts(site, input);
  if (!model) return offline;
  const doc = site.page.document;
  const related = site.related.map((p) => p.document);
  const lang = normalizeLang(input.language ?? doc.language);
  const competitors = (input.competitors ?? []).map((c) => c.trim()).filter(Boolean);
  const vendor = competitors.length > 0 || isVendor([doc, ...related], [doc, ...related].map((d) => jsonLdTypes(d.jsonLd)));
  const brand = offline.brand;
  try {
    const got = await generatePrompts(model, doc, { lang, country: input.country ?? 'US', count, brand: vendor ? brand : null, competitors, vendor, signal });
    const items = got.value.prompts.slice(0, count);
    const bad = nonsense(items.map((p) => ({ kind: 'prompt' as const, text: p.prompt, lang })));
    // A model that names the brand of a site that sells nothing has not followed the brief.
    if (!vendor && brand) for (const p of items) if (p.prompt.toLowerCase().includes(brand.toLowerCase())) bad.push(`vendor prompt for a non-vendor: "${p.prompt}"`);
    if (bad.length) throw new GenerationError(`rejected output: ${bad.slice(0, 2).join('; ')}`);
    const fromModel: PromptSuggestion[] = items.map((p) => ({ prompt: p.prompt, intent: p.intent, intent_class: p.intent_class, funnel_stage: FUNNEL[p.intent], why: p.why }));
    return { ...offline, generator: 'model', model: { platform: model.platform, model: got.model }, prompts: fromModel.map((p) => p.prompt), suggestions: fromModel };
  } catch (err) {
    if (!(err instanceof GenerationError)) throw err;
    return { ...offline, fallback: { platform: model.platform, model: model.modelId, reason: err.message } };
  }
}

/**
 * Trends of a page's field. With a content model (live mode), the model proposes them (schema-
 * validated, checked by the nonsense rules, each measured against the page); when it fails the
 * offline generator answers and `fallback` says why.
 */
export async function discoverTrends(
  input: DiscoverTrendsInput,
  loader: SiteLoader,
  model?: ContentModel | null,
  signal?: AbortSignal,
  analysis: Pick<Analysis, 'trends'> = inProcessAnalysis,
): Promise<TrendsResult> {
  checkLocaleInput(input);
  const site = await loadSite(input.url, loader, 3);
  const offline = await analysis.trends(site, input);
  if (!model) return offline;
  const doc = site.page.document;
  const lang = normalizeLang(input.language ?? doc.language);
  const related = site.related.map((p) => p.document);
  const vendor = isVendor([doc, ...related], [doc, ...related].map((d) => jsonLdTypes(d.jsonLd)));
  const max = Math.max(1, Math.min(25, Math.floor(input.maxTrends ?? 8)));
  try {
    const got = await generateTrends(model, doc, { lang, country: input.country ?? 'US', max, industry: input.industry, vendor, signal });
    const items = got.value.trends.slice(0, max);
    const bad = nonsense(items.flatMap((t) => [{ kind: 'trend' as const, text: t.name, lang }, ...t.questions.map((q) => ({ kind: 'question' as const, text: q, lang }))]));
    if (bad.length) throw new GenerationError(`rejected output: ${bad.slice(0, 2).join('; ')}`);
    const trends: Trend[] = items
      .map((t) => {
        const c = assessTrend(doc, t.name, phraseTokens(t.name, lang), lang, t.questions[0]);
        return { name: t.name, relevance: t.relevance, intent: t.intent, gap: c.gap, action: c.action, questions: t.questions, question_intents: t.questions.map(() => t.intent) };
      })
      .sort((a, b) => b.relevance - a.relevance);
    const sources = [...offline.sources, ...got.citations.map((c) => ({ title: c.title ?? c.domain, url: c.url }))];
    return { url: input.url, industry: input.industry?.trim() || trends[0]!.name, generator: 'model', model: { platform: model.platform, model: got.model }, trends, sources };
  } catch (err) {
    if (!(err instanceof GenerationError)) throw err;
    return { ...offline, fallback: { platform: model.platform, model: model.modelId, reason: err.message } };
  }
}
