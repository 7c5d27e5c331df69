// Live Claude driver: the Anthropic Messages API with the server-side web search tool
// (web_search_20250305), through the AI SDK (@ai-sdk/anthropic). The country goes into the tool's
// user_location, language into the system prompt. Citations: the web_search_result_location
// citations on text blocks (what the answer actually cites) first, then the remaining
// web_search_tool_result results (what Claude read), de-duplicated by URL.
//
// Request: POST {ANTHROPIC_BASE_URL|https://api.anthropic.com/v1}/messages, x-api-key: KEY,
// anthropic-version: 2023-06-01, {model, max_tokens, system, messages:[{role:'user'}],
//  tools:[{type:'web_search_20250305', name:'web_search', max_uses, user_location:{type:'approximate', country}}]}

import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, type ToolSet } from 'ai';
import type { PlatformDriver, ProbeRequest } from './types.ts';
import { cleanBaseURL, createLiveDriver, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { urlSources, type RawCitation } from './live/citations.ts';

/** Searches Claude may run per probe; claude.ai runs a handful per question. */
const MAX_SEARCHES = 5;
/** The Messages API requires max_tokens; enough for a full answer with citations. */
const MAX_OUTPUT_TOKENS = 4096;

interface MessagesBody {
  model?: string;
  stop_reason?: string;
  content?: Array<{
    type?: string;
    text?: string;
    citations?: Array<{ type?: string; url?: string; title?: string | null }>;
    content?: unknown;
  }>;
}

function citationsOf(body: MessagesBody | undefined): RawCitation[] {
  const cited: RawCitation[] = [];
  const read: RawCitation[] = [];
  for (const block of body?.content ?? []) {
    if (block.type === 'text') {
      for (const c of block.citations ?? []) {
        if (c.type === 'web_search_result_location' && typeof c.url === 'string') cited.push({ url: c.url, title: c.title || null });
      }
    } else if (block.type === 'web_search_tool_result' && Array.isArray(block.content)) {
      for (const r of block.content as Array<{ type?: string; url?: string; title?: string | null }>) {
        if (r?.type === 'web_search_result' && typeof r.url === 'string') read.push({ url: r.url, title: r.title || null });
      }
    }
  }
  return [...cited, ...read];
}

export function createClaudeDriver(config: LiveDriverConfig): PlatformDriver {
  const provider = createAnthropic({
    apiKey: config.apiKey ?? '',
    baseURL: cleanBaseURL(config.baseURL),
    fetch: config.fetch,
  });
  return createLiveDriver({
    platform: 'claude',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const country = req.country?.toUpperCase();
      const result = await generateText({
        model: provider.messages(req.providerModel),
        system: marketInstruction(req.language, req.country, { includeCountry: false }),
        prompt: req.prompt,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        // The cast bridges two installed copies of @ai-sdk/provider-utils; same object at runtime.
        tools: {
          web_search: provider.tools.webSearch_20250305({
            maxUses: MAX_SEARCHES,
            ...(country ? { userLocation: { type: 'approximate', country } } : {}),
          }),
        } as unknown as ToolSet,
        maxRetries: 0,
        abortSignal: req.signal,
      });
      const body = result.response.body as MessagesBody | undefined;
      const fromBody = citationsOf(body);
      const citations: RawCitation[] = fromBody.length
        ? fromBody
        : urlSources(result.sources);
      return {
        text: result.text,
        citations,
        model: body?.model ?? result.response.modelId ?? null,
        raw: body ?? null,
        usage: result.usage,
        finishReason: result.finishReason,
        refusal: body?.stop_reason === 'refusal' ? result.text.trim() || 'refused' : null,
      };
    },
  });
}
