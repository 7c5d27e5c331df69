// Live Perplexity driver: Sonar models through the AI SDK (@ai-sdk/perplexity). Sonar always
// searches the web; the probe's country goes into web_search_options.user_location (the API's
// location parameter, passed through providerOptions), language into the system message.
// Citations come from the body's search_results (url + title), falling back to the bare
// `citations` URL list that older responses carry; the SDK only surfaces the URL list.
//
// Request: POST {PERPLEXITY_BASE_URL|https://api.perplexity.ai}/chat/completions, Authorization:
// Bearer KEY, {model, messages:[{role:'system'},{role:'user'}],
//  web_search_options:{user_location:{country}}}

import { createPerplexity } from '@ai-sdk/perplexity';
import { generateText } from 'ai';
import type { PlatformDriver, ProbeRequest } from './types.ts';
import { cleanBaseURL, createLiveDriver, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { urlSources, type RawCitation } from './live/citations.ts';

interface SonarBody {
  model?: string;
  citations?: unknown;
  search_results?: unknown;
}

function citationsOf(body: SonarBody | undefined): RawCitation[] {
  const out: RawCitation[] = [];
  if (Array.isArray(body?.search_results)) {
    for (const r of body.search_results as Array<{ url?: unknown; title?: unknown }>) {
      if (typeof r?.url === 'string') out.push({ url: r.url, title: typeof r.title === 'string' ? r.title : null });
    }
  }
  if (Array.isArray(body?.citations)) {
    for (const u of body.citations) if (typeof u === 'string') out.push({ url: u, title: null });
  }
  return out;
}

export function createPerplexityDriver(config: LiveDriverConfig): PlatformDriver {
  const provider = createPerplexity({
    apiKey: config.apiKey ?? '',
    baseURL: cleanBaseURL(config.baseURL),
    fetch: config.fetch,
  });
  return createLiveDriver({
    platform: 'perplexity',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const country = req.country?.toUpperCase();
      const result = await generateText({
        model: provider(req.providerModel),
        system: marketInstruction(req.language, req.country, { includeCountry: false }),
        prompt: req.prompt,
        providerOptions: country ? { perplexity: { web_search_options: { user_location: { country } } } } : undefined,
        maxRetries: 0,
        abortSignal: req.signal,
      });
      const body = result.response.body as SonarBody | undefined;
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
      };
    },
  });
}
