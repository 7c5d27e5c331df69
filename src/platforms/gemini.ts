// Live Gemini driver: generateContent with Google Search grounding through the AI SDK
// (@ai-sdk/google), the way the Gemini app answers with search. Citations come from the
// grounding chunks (web.uri, web.title). Those URIs are Google redirect links
// (vertexaisearch.cloud.google.com/grounding-api-redirect/…) that hide the real site, so each is
// recorded as given (`url`) with the real domain from the chunk title (Gemini puts the site's
// domain there) and, when enabled, the real URL read from the redirect's Location header: one
// request to Google's redirect endpoint with redirect:'manual', never a request to the cited site.
// The Gemini API has no location parameter for Search grounding, so language and country go into
// the system instruction. The model reported is the body's modelVersion.
//
// Request: POST {GEMINI_BASE_URL|https://generativelanguage.googleapis.com/v1beta}/models/{model}:generateContent,
// x-goog-api-key: KEY, {contents:[{role:'user',parts:[{text}]}], systemInstruction:{parts:[{text}]},
//  tools:[{googleSearch:{}}]}

import type { ToolSet } from 'ai';
import type { PlatformDriver, ProbeRequest } from './types.ts';
import { createLiveDriver, providerSettings, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { domainFromTitle, GROUNDING_REDIRECT_HOST, isGroundingRedirect, urlSources, type RawCitation } from './live/citations.ts';
import { hostAndPath } from '../lib/url.ts';
import { aiOnFirstCall } from './live/sdk.ts';

export interface GeminiDriverConfig extends LiveDriverConfig {
  /** Read the real target of grounding redirect links from Google's Location header (default false). */
  resolveRedirects?: boolean;
  /** Time allowed for one redirect lookup (default 5000 ms). */
  redirectTimeoutMs?: number;
}

interface GeminiBody {
  modelVersion?: string;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  candidates?: Array<{
    finishReason?: string;
    groundingMetadata?: { groundingChunks?: Array<{ web?: { uri?: string; title?: string } }> };
  }>;
}

const BLOCKING_FINISH = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_SAFETY']);

function refusalOf(body: GeminiBody | undefined, text: string): string | null {
  const block = body?.promptFeedback?.blockReason;
  if (block) return body?.promptFeedback?.blockReasonMessage ?? `prompt blocked (${block})`;
  const finish = body?.candidates?.[0]?.finishReason;
  if (!text.trim() && finish && BLOCKING_FINISH.has(finish)) return `answer blocked (${finish})`;
  return null;
}

/** Location of a grounding redirect, read without following it; null when unknown. */
async function lookupRedirect(url: string, fetchFn: typeof fetch, timeoutMs: number, signal?: AbortSignal): Promise<string | null> {
  // Only Google's own redirect endpoint is ever contacted, never the cited site.
  if (!isGroundingRedirect(url) || new URL(url).hostname !== GROUNDING_REDIRECT_HOST) return null;
  const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
  for (const method of ['HEAD', 'GET'] as const) {
    try {
      const res = await fetchFn(url, { method, redirect: 'manual', signal: AbortSignal.any(signals) });
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        const target = new URL(location, url);
        return target.protocol === 'http:' || target.protocol === 'https:' ? target.href : null;
      }
      if (res.status !== 405) return null;
    } catch {
      return null;
    }
  }
  return null;
}

export function createGeminiDriver(config: GeminiDriverConfig): PlatformDriver {
  const sdk = aiOnFirstCall(async () => (await import('@ai-sdk/google')).createGoogleGenerativeAI(providerSettings(config)));
  const fetchFn = config.fetch ?? globalThis.fetch;
  const redirectTimeoutMs = config.redirectTimeoutMs ?? 5000;
  return createLiveDriver({
    platform: 'gemini',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const { generateText, provider } = await sdk();
      const result = await generateText({
        model: provider(req.providerModel),
        system: marketInstruction(req.language, req.country, { includeCountry: true }),
        prompt: req.prompt,
        // The cast bridges two installed copies of @ai-sdk/provider-utils; same object at runtime.
        tools: { google_search: provider.tools.googleSearch({}) } as unknown as ToolSet,
        maxRetries: 0,
        abortSignal: req.signal,
      });
      const body = result.response.body as GeminiBody | undefined;
      const chunks = body?.candidates?.[0]?.groundingMetadata?.groundingChunks;
      const web: RawCitation[] = Array.isArray(chunks)
        ? chunks.flatMap((c) => (typeof c?.web?.uri === 'string' ? [{ url: c.web.uri, title: c.web.title ?? null }] : []))
        : urlSources(result.sources);

      const citations = await Promise.all(
        web.map(async (c): Promise<RawCitation> => {
          if (!isGroundingRedirect(c.url)) return c;
          const resolved = config.resolveRedirects ? await lookupRedirect(c.url, fetchFn, redirectTimeoutMs, req.signal) : null;
          const resolvedDomain = resolved ? (hostAndPath(resolved)?.host ?? null) : null;
          return { ...c, resolved_url: resolved, domain: resolvedDomain ?? domainFromTitle(c.title) ?? null };
        }),
      );
      return {
        text: result.text,
        citations,
        model: body?.modelVersion ?? null,
        raw: body ?? null,
        usage: result.usage,
        finishReason: result.finishReason,
        refusal: refusalOf(body, result.text),
      };
    },
  });
}
