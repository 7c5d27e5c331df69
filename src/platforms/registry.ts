// Builds the six platform drivers for an engine from an env object, and reads the per-platform
// pacing settings. The env is passed in (never process.env here), so tests and the composition
// root decide where credentials and base URLs come from. In live mode a platform without an API
// key still gets a driver; it reports available() === false.

import { createClaudeDriver } from './claude.ts';
import { createDeepSeekDriver } from './deepseek.ts';
import { createGeminiDriver } from './gemini.ts';
import { createGrokDriver } from './grok.ts';
import { createOpenAIDriver } from './openai.ts';
import { createPerplexityDriver } from './perplexity.ts';
import { createSandboxDriver } from './sandbox.ts';
import { CONSUMER_PLATFORMS, PLATFORMS, type ConsumerPlatform, type PlatformDriver, type PlatformName } from './types.ts';
import { chooseProvider, validateProviderChoices } from './consumer/providers.ts';
import { createSerpApiDriver } from './consumer/serpapi.ts';
import { createDataForSeoDriver } from './consumer/dataforseo.ts';
import { createConsumerDriver } from './consumer/driver.ts';
import type { LiveDriverConfig } from './live/driver.ts';

export type Env = Record<string, string | undefined>;

/** Env variable prefix of each platform's credentials: <PREFIX>_API_KEY, <PREFIX>_BASE_URL. */
export const PLATFORM_ENV_PREFIX: Record<PlatformName, string> = {
  openai: 'OPENAI',
  perplexity: 'PERPLEXITY',
  gemini: 'GEMINI',
  grok: 'XAI',
  claude: 'ANTHROPIC',
  deepseek: 'DEEPSEEK',
  // Consumer surfaces take their credentials from their provider (SERPAPI_*, DATAFORSEO_*).
  google_ai_overview: 'GOOGLE_AI_OVERVIEW',
  google_ai_mode: 'GOOGLE_AI_MODE',
  copilot: 'COPILOT',
  chatgpt_app: 'CHATGPT_APP',
};

export interface PlatformSettings {
  concurrency: number;
  requestsPerMinute: number;
  timeoutMs: number;
  maxAttempts: number;
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function liveConfig(platform: PlatformName, env: Env, fetchFn?: typeof fetch): LiveDriverConfig {
  const prefix = PLATFORM_ENV_PREFIX[platform];
  return {
    apiKey: nonEmpty(env[`${prefix}_API_KEY`]),
    baseURL: nonEmpty(env[`${prefix}_BASE_URL`]),
    fetch: fetchFn,
  };
}

function flag(v: string | undefined): boolean | undefined {
  const t = nonEmpty(v)?.toLowerCase();
  if (t === undefined) return undefined;
  return ['1', 'true', 'yes', 'on'].includes(t);
}

export function createDrivers(opts: {
  engine: 'live' | 'sandbox';
  env: Env;
  sandboxLatencyMs?: number;
  fetch?: typeof fetch;
}): Record<PlatformName, PlatformDriver> {
  const { env } = opts;
  // A SIGHTLINE_<PLATFORM>_PROVIDER naming a provider that cannot serve the surface stops the start.
  validateProviderChoices(env);
  if (opts.engine === 'sandbox') {
    return Object.fromEntries(
      PLATFORMS.map((p) => [p, createSandboxDriver(p, { latencyMs: opts.sandboxLatencyMs })]),
    ) as Record<PlatformName, PlatformDriver>;
  }
  const gemini = liveConfig('gemini', env, opts.fetch);
  return {
    openai: createOpenAIDriver(liveConfig('openai', env, opts.fetch)),
    perplexity: createPerplexityDriver(liveConfig('perplexity', env, opts.fetch)),
    gemini: createGeminiDriver({
      ...gemini,
      // Looking up Google's redirect links is on against Google's own API and off when the base
      // URL points elsewhere (a stand-in server's links are not Google's); GEMINI_RESOLVE_REDIRECTS overrides.
      resolveRedirects: flag(env.GEMINI_RESOLVE_REDIRECTS) ?? gemini.baseURL === undefined,
    }),
    grok: createGrokDriver(liveConfig('grok', env, opts.fetch)),
    claude: createClaudeDriver(liveConfig('claude', env, opts.fetch)),
    deepseek: createDeepSeekDriver(liveConfig('deepseek', env, opts.fetch)),
    ...consumerDrivers(env, opts.fetch),
  };
}

/**
 * The consumer-surface drivers: each through the provider chosen for it (chooseProvider throws on
 * a provider that cannot serve it, so a bad SIGHTLINE_<PLATFORM>_PROVIDER stops the start). A
 * surface no configured provider serves gets a driver that is not available.
 */
function consumerDrivers(env: Env, fetchFn?: typeof fetch): Record<ConsumerPlatform, PlatformDriver> {
  const out = {} as Record<ConsumerPlatform, PlatformDriver>;
  const pollMs = intSetting(env, 'SIGHTLINE_DATAFORSEO_POLL_MS', 2000, 10);
  const method = nonEmpty(env.SIGHTLINE_DATAFORSEO_METHOD)?.toLowerCase() ?? 'task';
  if (method !== 'task' && method !== 'live') throw new Error(`SIGHTLINE_DATAFORSEO_METHOD must be task or live (got "${method}").`);
  for (const p of CONSUMER_PLATFORMS) {
    const provider = chooseProvider(p, env);
    if (provider === 'serpapi') {
      out[p] = createSerpApiDriver(p, { apiKey: nonEmpty(env.SERPAPI_API_KEY), baseURL: nonEmpty(env.SERPAPI_BASE_URL), fetch: fetchFn });
    } else if (provider === 'dataforseo') {
      out[p] = createDataForSeoDriver(p, {
        login: nonEmpty(env.DATAFORSEO_LOGIN),
        password: nonEmpty(env.DATAFORSEO_PASSWORD),
        baseURL: nonEmpty(env.DATAFORSEO_BASE_URL),
        fetch: fetchFn,
        method,
        pollIntervalMs: pollMs,
      });
    } else {
      // Not configured: the listing says unavailable and a run asking for it is refused.
      out[p] = { ...createConsumerDriver({ platform: p, provider: 'serpapi', secrets: [], configured: false, call: async () => ({ text: null, citations: [], model: null, raw: null }) }), provider: null };
    }
  }
  return out;
}

function intSetting(env: Env, name: string, fallback: number, min: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}").`);
  }
  return n;
}

/**
 * SIGHTLINE_<PLATFORM>_CONCURRENCY (default 4), SIGHTLINE_<PLATFORM>_RPM (default 0 = unlimited),
 * SIGHTLINE_PROBE_TIMEOUT_MS (default 120000), SIGHTLINE_PROBE_MAX_ATTEMPTS (default 4).
 * <PLATFORM> is the platform name upper-cased (SIGHTLINE_GROK_RPM, SIGHTLINE_CLAUDE_CONCURRENCY).
 * An invalid value throws, so a typo fails at start rather than silently running unpaced.
 */
export function platformSettingsFromEnv(env: Env): Record<PlatformName, PlatformSettings> {
  const timeoutMs = intSetting(env, 'SIGHTLINE_PROBE_TIMEOUT_MS', 120_000, 1);
  const maxAttempts = intSetting(env, 'SIGHTLINE_PROBE_MAX_ATTEMPTS', 4, 1);
  return Object.fromEntries(
    PLATFORMS.map((p) => {
      const up = p.toUpperCase();
      return [
        p,
        {
          concurrency: intSetting(env, `SIGHTLINE_${up}_CONCURRENCY`, 4, 1),
          requestsPerMinute: intSetting(env, `SIGHTLINE_${up}_RPM`, 0, 0),
          timeoutMs,
          maxAttempts,
        },
      ];
    }),
  ) as Record<PlatformName, PlatformSettings>;
}
