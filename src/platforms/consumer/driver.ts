// The shell of every consumer-surface driver: availability from the provider's credentials, key
// scrubbing, citation normalisation and the ProbeAnswer shape. What a reader must know: a result
// without an AI answer is not a failure. It comes back as an empty answer with aiAnswerPresent
// false (no citations), and the probe succeeds; the provider charged for the search all the same.

import { PlatformError, type ConsumerPlatform, type PlatformDriver, type ProbeAnswer, type ProbeRequest } from '../types.ts';
import { normalizeCitations, type RawCitation } from '../live/citations.ts';
import { toPlatformError } from '../live/errors.ts';
import { scrubText, scrubValue } from '../live/secrets.ts';

export type ProviderName = 'serpapi' | 'dataforseo';

/** What a provider module extracts from its result. `text: null` = no AI answer on the result. */
export interface ConsumerResult {
  text: string | null;
  citations: RawCitation[];
  model: string | null;
  raw: unknown;
}

export function createConsumerDriver(opts: {
  platform: ConsumerPlatform;
  provider: ProviderName;
  /** Secrets that must never leave the driver (keys, passwords, their encodings). */
  secrets: (string | undefined)[];
  configured: boolean;
  call: (req: ProbeRequest) => Promise<ConsumerResult>;
}): PlatformDriver {
  const { platform, provider, secrets } = opts;
  return {
    platform,
    engine: 'live',
    provider,
    available: () => opts.configured,
    async ask(req: ProbeRequest): Promise<ProbeAnswer> {
      if (!opts.configured) {
        throw new PlatformError('provider_not_configured', `${platform}: ${provider} credentials are not configured.`);
      }
      let res: ConsumerResult;
      try {
        res = await opts.call(req);
      } catch (err) {
        throw toPlatformError(err, { platform, secrets });
      }
      const raw = scrubValue(res.raw ?? null, secrets);
      const text = res.text?.trim() ?? '';
      const model = res.model || `${provider}:${platform}`;
      if (!text) {
        return { text: '', citations: [], model, engine: 'live', raw, aiAnswerPresent: false, provider };
      }
      return {
        text: scrubText(text, secrets),
        citations: scrubValue(normalizeCitations(res.citations), secrets),
        model,
        engine: 'live',
        raw,
        aiAnswerPresent: true,
        provider,
      };
    },
  };
}
