// The shared shell of every live driver: availability from the API key, error classification,
// key scrubbing, citation normalisation and the ProbeAnswer shape. A platform module only says how
// to ask its provider and where the answer, citations and model name sit in the reply.

import type { LanguageModelUsage } from 'ai';
import { PlatformError, type PlatformDriver, type PlatformName, type ProbeAnswer, type ProbeRequest } from '../types.ts';
import { normalizeCitations, type RawCitation } from './citations.ts';
import { toPlatformError } from './errors.ts';
import { scrubText, scrubValue } from './secrets.ts';

/** Connection settings of one live driver, taken from the env by the registry. */
export interface LiveDriverConfig {
  apiKey?: string;
  /** Overrides the provider's API root (a self-hosted compatible server, or a test fake). */
  baseURL?: string;
  /** fetch used for every provider request (tests, proxies). */
  fetch?: typeof fetch;
}

/** What a platform module extracts from one provider reply. */
export interface LiveCallResult {
  text: string;
  citations: RawCitation[];
  /** The concrete model the provider reports; null when it reports none. */
  model: string | null;
  raw: unknown;
  usage?: LanguageModelUsage;
  /** Set when the provider declined to answer (a refusal, a safety block). */
  refusal?: string | null;
  /** The AI SDK's unified finish reason; 'content-filter' without text counts as a refusal. */
  finishReason?: string;
}

export function usageOf(u: LanguageModelUsage | undefined): ProbeAnswer['usage'] {
  if (!u) return undefined;
  const out: NonNullable<ProbeAnswer['usage']> = {};
  if (typeof u.inputTokens === 'number') out.input_tokens = u.inputTokens;
  if (typeof u.outputTokens === 'number') out.output_tokens = u.outputTokens;
  return Object.keys(out).length ? out : undefined;
}

export function cleanBaseURL(url: string | undefined): string | undefined {
  const t = url?.trim();
  return t ? t.replace(/\/+$/, '') : undefined;
}

/** A provider package's settings from a driver's config: the key, the API root, the fetch. */
export function providerSettings(config: LiveDriverConfig) {
  return { apiKey: config.apiKey ?? '', baseURL: cleanBaseURL(config.baseURL), fetch: config.fetch };
}

export function createLiveDriver(opts: {
  platform: PlatformName;
  apiKey: string | undefined;
  call: (req: ProbeRequest) => Promise<LiveCallResult>;
}): PlatformDriver {
  const { platform, call } = opts;
  const apiKey = opts.apiKey?.trim() || undefined;
  const secrets = [apiKey];
  return {
    platform,
    engine: 'live',
    available: () => apiKey !== undefined,
    async ask(req: ProbeRequest): Promise<ProbeAnswer> {
      if (!apiKey) {
        throw new PlatformError('provider_not_configured', `${platform}: no API key is configured for this platform.`);
      }
      let res: LiveCallResult;
      try {
        res = await call(req);
      } catch (err) {
        throw toPlatformError(err, { platform, secrets });
      }
      const raw = scrubValue(res.raw ?? null, secrets);
      if (res.refusal == null && res.finishReason === 'content-filter' && !res.text.trim()) {
        res = { ...res, refusal: 'the provider filtered the answer (content filter)' };
      }
      if (res.refusal != null) {
        throw new PlatformError('provider_refused', scrubText(`${platform}: the model declined to answer: ${res.refusal}`.slice(0, 400), secrets));
      }
      const text = res.text.trim();
      if (!text) {
        throw new PlatformError('provider_malformed_response', `${platform}: the provider returned no answer text.`);
      }
      return {
        text: scrubText(res.text, secrets),
        citations: scrubValue(normalizeCitations(res.citations), secrets),
        model: res.model || req.providerModel,
        engine: 'live',
        raw,
        usage: usageOf(res.usage),
      };
    },
  };
}
