// Live ChatGPT driver: the OpenAI Responses API with the hosted web_search tool, the way ChatGPT
// answers with search. Built on the AI SDK (@ai-sdk/openai `responses()` model): it speaks the
// Responses wire format, exposes url_citation annotations as sources and keeps the raw body.
// The probe's country goes into the tool's user_location; language goes into the system message
// (the API has no language parameter).
// A reply with status "failed" comes as HTTP 200 with an `error` object {code, message}; the SDK
// throws it as an HTTP 400 (or, as its schema also wants error.type, as an unreadable 200), so it
// is classified here by its error code: server_error / vector_store_timeout are
// retryable outages, rate_limit_exceeded a rate limit, anything else (invalid_prompt, …) a bad request.
//
// Request: POST {OPENAI_BASE_URL|https://api.openai.com/v1}/responses, Authorization: Bearer KEY,
// {model, input:[{role:'system'|'developer',…},{role:'user',…}],
//  tools:[{type:'web_search', user_location:{type:'approximate', country}}], store:false}

import type { ToolSet } from 'ai';
import { PlatformError, type PlatformDriver, type ProbeRequest } from './types.ts';
import { createLiveDriver, providerSettings, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { urlSources, type RawCitation } from './live/citations.ts';
import { isApiCallError } from './live/errors.ts';
import { aiOnFirstCall } from './live/sdk.ts';

interface ResponsesBody {
  model?: string;
  output?: Array<{ type?: string; content?: Array<{ type?: string; refusal?: string }> }>;
}

/** A refusal content part (the model declined) instead of output_text. */
function refusalOf(body: ResponsesBody | undefined): string | null {
  for (const item of body?.output ?? []) {
    if (item.type !== 'message') continue;
    for (const part of item.content ?? []) if (part.type === 'refusal') return part.refusal ?? 'refused';
  }
  return null;
}

/** The PlatformError for a `status: "failed"` reply (HTTP 200) the SDK threw; null for anything else. */
export function failedResponseError(err: unknown): PlatformError | null {
  if (!isApiCallError(err)) return null;
  // The SDK hands over the parsed body on its own HTTP 400, the text when its schema rejected it.
  let body: { status?: unknown; error?: { code?: unknown; message?: unknown } | null };
  const given: unknown = err.responseBody;
  try {
    body = typeof given === 'string' ? JSON.parse(given) : (given as typeof body);
  } catch {
    return null;
  }
  if (body?.status !== 'failed' || !body.error || typeof body.error.code !== 'string') return null;
  const code = body.error.code;
  const message = `openai: the response failed (${code}): ${String(body.error.message ?? '').slice(0, 300)}`;
  if (code === 'rate_limit_exceeded') return new PlatformError('provider_rate_limited', message, { retryable: true });
  if (code === 'server_error' || code === 'vector_store_timeout') {
    return new PlatformError('provider_unavailable', message, { retryable: true });
  }
  return new PlatformError('provider_bad_request', message);
}

export function createOpenAIDriver(config: LiveDriverConfig): PlatformDriver {
  const sdk = aiOnFirstCall(async () => (await import('@ai-sdk/openai')).createOpenAI(providerSettings(config)));
  return createLiveDriver({
    platform: 'openai',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const { generateText, provider } = await sdk();
      const country = req.country?.toUpperCase();
      const result = await generateText({
        model: provider.responses(req.providerModel),
        system: marketInstruction(req.language, req.country, { includeCountry: false }),
        prompt: req.prompt,
        // The cast bridges two installed copies of @ai-sdk/provider-utils (the provider's and ai's);
        // the tool object is the same at runtime.
        tools: {
          web_search: provider.tools.webSearch({
            ...(country ? { userLocation: { type: 'approximate', country } } : {}),
          }),
        } as unknown as ToolSet,
        // Nothing of a probe needs to live on OpenAI's side after the answer.
        providerOptions: { openai: { store: false } },
        maxRetries: 0,
        abortSignal: req.signal,
      }).catch((err: unknown) => {
        throw failedResponseError(err) ?? err;
      });
      const body = result.response.body as ResponsesBody | undefined;
      const citations: RawCitation[] = urlSources(result.sources);
      return {
        text: result.text,
        citations,
        model: body?.model ?? result.response.modelId ?? null,
        raw: body ?? null,
        usage: result.usage,
        finishReason: result.finishReason,
        refusal: refusalOf(body),
      };
    },
  });
}
