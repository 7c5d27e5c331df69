// SerpApi: Google AI Overviews (engine=google, the `ai_overview` block, and when Google lazy-loads
// it, the `page_token` follow-up to engine=google_ai_overview), Google AI Mode (engine=google_ai_mode)
// and Microsoft Copilot (engine=bing_copilot). One GET per search, the key in `api_key`.
//
// Documented shapes (fixtures in test/fixtures/providers/serpapi/ name their pages):
//   GET {SERPAPI_BASE_URL|https://serpapi.com}/search?engine=…&q=…&gl=…&hl=…&location=…&api_key=…
//   → { search_metadata, search_parameters, ai_overview?: { text_blocks?, references?, page_token? } }
//     (google); { text_blocks, references } (google_ai_mode, bing_copilot)
//   text_blocks: [{ type: paragraph|heading|list|table|expandable|…, snippet?, title?, list?: [{ title?,
//   snippet?, list? }], text_blocks?, reference_indexes? }]; references: [{ title, link, snippet, source, index }]
//   Errors: a JSON `{ error }` with the HTTP status (401 invalid key, 429 throttled or out of searches).

import { PlatformError, type ConsumerPlatform, type ProbeRequest } from '../types.ts';
import type { RawCitation } from '../live/citations.ts';
import { undiciFetch } from '../live/http.ts';
import { cleanBaseURL } from '../live/driver.ts';
import { createConsumerDriver, type ConsumerResult } from './driver.ts';
import { requestJson, type ProviderHttp } from './http.ts';
import { countryName, languageCode } from './location.ts';

export const SERPAPI_DEFAULT_BASE = 'https://serpapi.com';

export interface SerpApiConfig {
  apiKey?: string;
  baseURL?: string;
  fetch?: typeof fetch;
}

interface TextBlock {
  type?: string;
  snippet?: string;
  title?: string;
  list?: TextBlock[];
  text_blocks?: TextBlock[];
  code?: string;
}

/** The answer text of SerpApi text blocks: paragraphs and headings as lines, lists as "- item". */
export function textOfBlocks(blocks: unknown, depth = 0): string {
  if (!Array.isArray(blocks) || depth > 8) return '';
  const lines: string[] = [];
  for (const b of blocks as TextBlock[]) {
    if (!b || typeof b !== 'object') continue;
    const head = [b.title, b.snippet].filter((x): x is string => typeof x === 'string' && x.trim() !== '').join(': ');
    if (b.type === 'heading' && head) lines.push(`## ${head}`);
    else if (head) lines.push(depth > 0 ? `- ${head}` : head);
    if (typeof b.code === 'string' && b.code.trim()) lines.push(b.code);
    const nested = textOfBlocks(b.list, depth + 1);
    if (nested) lines.push(nested);
    const inner = textOfBlocks(b.text_blocks, depth);
    if (inner) lines.push(inner);
  }
  return lines.join('\n');
}

function referencesOf(refs: unknown): RawCitation[] {
  if (!Array.isArray(refs)) return [];
  const out: RawCitation[] = [];
  for (const r of refs as Array<{ link?: unknown; title?: unknown }>) {
    if (typeof r?.link === 'string') out.push({ url: r.link, title: typeof r.title === 'string' ? r.title : null });
  }
  return out;
}

const ENGINES: Partial<Record<ConsumerPlatform, string>> = {
  google_ai_overview: 'google',
  google_ai_mode: 'google_ai_mode',
  copilot: 'bing_copilot',
};

/** SerpApi says so with a 200 and an `error` when Google had nothing for the query: no AI answer either. */
const NO_RESULTS = /hasn't returned any results|returned no results|no results found/i;

export function createSerpApiDriver(platform: ConsumerPlatform, config: SerpApiConfig) {
  const served = ENGINES[platform];
  if (!served) throw new Error(`SerpApi does not serve ${platform}.`);
  const engine: string = served;
  const apiKey = config.apiKey?.trim() || undefined;
  const base = cleanBaseURL(config.baseURL) ?? SERPAPI_DEFAULT_BASE;
  const http: ProviderHttp = { platform, provider: 'serpapi', fetch: config.fetch ?? undiciFetch, secrets: [apiKey] };

  const search = async (params: Record<string, string>, signal?: AbortSignal): Promise<Record<string, any>> => {
    const qs = new URLSearchParams({ ...params, api_key: apiKey ?? '' });
    const body = (await requestJson(http, `${base}/search?${qs}`, { method: 'GET', signal })) as Record<string, any>;
    if (typeof body.error === 'string') {
      if (NO_RESULTS.test(body.error)) return body;
      throw new PlatformError('provider_bad_request', `${platform} (serpapi): ${body.error.slice(0, 300)}`);
    }
    return body;
  };

  async function call(req: ProbeRequest): Promise<ConsumerResult> {
    const params: Record<string, string> = { engine, q: req.prompt };
    if (platform !== 'copilot') {
      // Copilot takes neither country nor city; the Google engines take gl/hl and a free-text location.
      if (req.country) params.gl = req.country.toLowerCase();
      params.hl = languageCode(req.language);
      const where = countryName(req.country);
      if (req.city?.trim()) params.location = where ? `${req.city.trim()}, ${where}` : req.city.trim();
    }
    const first = await search(params, req.signal);
    if (platform !== 'google_ai_overview') {
      const text = textOfBlocks(first.text_blocks);
      return { text: text || null, citations: referencesOf(first.references), model: engine, raw: first };
    }
    let overview = first.ai_overview as Record<string, any> | undefined;
    let raw: unknown = first;
    // Google lazy-loads some overviews: the first reply only carries a short-lived page_token.
    if (overview && !Array.isArray(overview.text_blocks) && typeof overview.page_token === 'string') {
      const follow = await search({ engine: 'google_ai_overview', page_token: overview.page_token }, req.signal);
      overview = follow.ai_overview as Record<string, any> | undefined;
      raw = { search: first, ai_overview_request: follow };
    }
    const text = overview ? textOfBlocks(overview.text_blocks) : '';
    return { text: text || null, citations: text ? referencesOf(overview?.references) : [], model: 'google', raw };
  }

  return createConsumerDriver({ platform, provider: 'serpapi', secrets: [apiKey], configured: apiKey !== undefined, call });
}
