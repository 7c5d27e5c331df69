// Live Grok driver: xAI's Responses API with its server-side web_search tool, through the AI SDK
// (@ai-sdk/xai `responses()` model). xAI retired Live Search (`search_parameters` on chat
// completions now answers 410 Gone), and the Agent Tools web_search is its replacement, so this
// is how Grok searches today. Citations come from url_citation annotations. The tool has no
// location parameter, so language and country go into the system message.
//
// Request: POST {XAI_BASE_URL|https://api.x.ai/v1}/responses, Authorization: Bearer KEY,
// {model, input:[{role:'system'},{role:'user'}], tools:[{type:'web_search'}]}

import type { ToolSet } from 'ai';
import type { PlatformDriver, ProbeRequest } from './types.ts';
import { createLiveDriver, providerSettings, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { urlSources, type RawCitation } from './live/citations.ts';
import { aiOnFirstCall } from './live/sdk.ts';

export function createGrokDriver(config: LiveDriverConfig): PlatformDriver {
  const sdk = aiOnFirstCall(async () => (await import('@ai-sdk/xai')).createXai(providerSettings(config)));
  return createLiveDriver({
    platform: 'grok',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const { generateText, provider } = await sdk();
      const result = await generateText({
        model: provider.responses(req.providerModel),
        system: marketInstruction(req.language, req.country, { includeCountry: true }),
        prompt: req.prompt,
        // The cast bridges two installed copies of @ai-sdk/provider-utils; same object at runtime.
        tools: { web_search: provider.tools.webSearch() } as unknown as ToolSet,
        maxRetries: 0,
        abortSignal: req.signal,
      });
      const body = result.response.body as { model?: string } | undefined;
      const citations: RawCitation[] = urlSources(result.sources);
      return {
        text: result.text,
        citations,
        model: body?.model ?? result.response.modelId ?? null,
        raw: body ?? null,
        usage: result.usage,
        finishReason: result.finishReason,
      };
    },
  });
}
