// Live DeepSeek driver: OpenAI-compatible chat completions through @ai-sdk/openai-compatible
// (the brief's choice; it also lets any self-hosted OpenAI-compatible server stand in via
// DEEPSEEK_BASE_URL). DeepSeek's API has no web search, so answers carry no citations, and
// language and country both travel in the system message.
//
// Request: POST {DEEPSEEK_BASE_URL|https://api.deepseek.com}/chat/completions, Authorization:
// Bearer KEY, {model, messages:[{role:'system'},{role:'user'}]}

import type { PlatformDriver, ProbeRequest } from './types.ts';
import { cleanBaseURL, createLiveDriver, providerSettings, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';
import { aiOnFirstCall } from './live/sdk.ts';

export const DEEPSEEK_DEFAULT_BASE_URL = 'https://api.deepseek.com';

export function createDeepSeekDriver(config: LiveDriverConfig): PlatformDriver {
  const sdk = aiOnFirstCall(async () =>
    (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
      ...providerSettings(config),
      name: 'deepseek',
      baseURL: cleanBaseURL(config.baseURL) ?? DEEPSEEK_DEFAULT_BASE_URL,
      includeUsage: true,
    }),
  );
  return createLiveDriver({
    platform: 'deepseek',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
      const { generateText, provider } = await sdk();
      const result = await generateText({
        model: provider.chatModel(req.providerModel),
        system: marketInstruction(req.language, req.country, { includeCountry: true }),
        prompt: req.prompt,
        maxRetries: 0,
        abortSignal: req.signal,
      });
      const body = result.response.body as { model?: string } | undefined;
      return {
        text: result.text,
        citations: [],
        model: body?.model ?? result.response.modelId ?? null,
        raw: body ?? null,
        usage: result.usage,
        finishReason: result.finishReason,
      };
    },
  });
}
