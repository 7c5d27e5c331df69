// Live DeepSeek driver: OpenAI-compatible chat completions through @ai-sdk/openai-compatible
// (the brief's choice; it also lets any self-hosted OpenAI-compatible server stand in via
// DEEPSEEK_BASE_URL). DeepSeek's API has no web search, so answers carry no citations, and
// language and country both travel in the system message.
//
// Request: POST {DEEPSEEK_BASE_URL|https://api.deepseek.com}/chat/completions, Authorization:
// Bearer KEY, {model, messages:[{role:'system'},{role:'user'}]}

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import type { PlatformDriver, ProbeRequest } from './types.ts';
import { cleanBaseURL, createLiveDriver, type LiveCallResult, type LiveDriverConfig } from './live/driver.ts';
import { marketInstruction } from './live/market.ts';

export const DEEPSEEK_DEFAULT_BASE_URL = 'https://api.deepseek.com';

export function createDeepSeekDriver(config: LiveDriverConfig): PlatformDriver {
  const provider = createOpenAICompatible({
    name: 'deepseek',
    apiKey: config.apiKey ?? '',
    baseURL: cleanBaseURL(config.baseURL) ?? DEEPSEEK_DEFAULT_BASE_URL,
    fetch: config.fetch,
    includeUsage: true,
  });
  return createLiveDriver({
    platform: 'deepseek',
    apiKey: config.apiKey,
    async call(req: ProbeRequest): Promise<LiveCallResult> {
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
