// Live Perplexity driver: Sonar models through the AI SDK (@ai-sdk/perplexity). Sonar always
// searches the web; the probe's country goes into web_search_options.user_location (the API's
// location parameter, passed through providerOptions), language into the system message.
// Citations come from the body's search_results (url + title), falling back to the bare
// `citations` URL list that older responses carry; the SDK only surfaces the URL list.
// The reasoning models (sonar-reasoning, sonar-reasoning-pro) start the message with the model's
// reasoning in a `<think>…</think>` block; that is not the answer a user reads, so it is cut off
// before analysis (the raw body keeps it). A reply that never closes the block (cut off while
// reasoning) has no answer and fails as a malformed response.
//
// Request: POST {PERPLEXITY_BASE_URL|https://api.perplexity.ai}/chat/completions, Authorization:
// Bearer KEY, {model, messages:[{role:'system'},{role:'user'}],
//  web_search_options:{user_location:{country}}}

import { PlatformError, type PlatformDriver, type ProbeRequest } from './types.ts';
import { createLiveDriver, providerSettings, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { urlSources, type RawCitation } from './live/citations.ts';
import { aiOnFirstCall } from './live/sdk.ts';

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

const THINK_OPEN = /^\s*<think>/i;
const THINK_CLOSE = /<\/think>/i;

/**
 * The answer without a leading `<think>` block; null when the text is all reasoning (the block
 * never closes). Text without a leading block is returned unchanged.
 */
export function stripReasoning(text: string): string | null {
  const open = THINK_OPEN.exec(text);
  if (!open) return text;
  const rest = text.slice(open[0].length);
  const close = THINK_CLOSE.exec(rest);
  if (!close) return null;
  return rest.slice(close.index + close[0].length).replace(/^\s+/, '');
}

export function createPerplexityDriver(config: LiveDriverConfig): PlatformDriver {
  const sdk = aiOnFirstCall(async () => (await import('@ai-sdk/perplexity')).createPerplexity(providerSettings(config)));
  return createLiveDriver({
    platform: 'perplexity',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const { generateText, provider } = await sdk();
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
      const text = stripReasoning(result.text);
      if (text === null) {
        throw new PlatformError(
          'provider_malformed_response',
          `perplexity: the reply holds only the model's reasoning (<think> never closed, finish reason ${result.finishReason}), no answer.`,
        );
      }
      return {
        text,
        citations,
        model: body?.model ?? result.response.modelId ?? null,
        raw: body ?? null,
        usage: result.usage,
        finishReason: result.finishReason,
      };
    },
  });
}
