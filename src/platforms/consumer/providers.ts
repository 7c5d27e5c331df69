// Which provider serves each consumer surface, and what each surface can localise. SerpApi serves
// Google AI Overviews, Google AI Mode and Copilot; DataForSEO serves Google AI Overviews, Google AI
// Mode and the ChatGPT app. SIGHTLINE_<PLATFORM>_PROVIDER picks one where both serve a surface,
// else the first configured one (SerpApi before DataForSEO) is used; naming a provider that cannot
// serve the surface is a configuration error (thrown, so the start stops with its message).

import type { ConsumerPlatform } from '../types.ts';
import { CONSUMER_PLATFORMS } from '../types.ts';
import type { ProviderName } from './driver.ts';

export const PROVIDERS: readonly ProviderName[] = ['serpapi', 'dataforseo'];

export const SERVED_BY: Record<ConsumerPlatform, readonly ProviderName[]> = {
  google_ai_overview: ['serpapi', 'dataforseo'],
  google_ai_mode: ['serpapi', 'dataforseo'],
  copilot: ['serpapi'],
  chatgpt_app: ['dataforseo'],
};

/** Location support per surface (Copilot takes neither; the others take a country and a city). */
export const LOCATION_SUPPORT: Record<ConsumerPlatform, { country: boolean; city: boolean }> = {
  google_ai_overview: { country: true, city: true },
  google_ai_mode: { country: true, city: true },
  copilot: { country: false, city: false },
  chatgpt_app: { country: true, city: true },
};

type Env = Record<string, string | undefined>;

const set = (v: string | undefined) => Boolean(v?.trim());

export function providerConfigured(provider: ProviderName, env: Env): boolean {
  return provider === 'serpapi' ? set(env.SERPAPI_API_KEY) : set(env.DATAFORSEO_LOGIN) && set(env.DATAFORSEO_PASSWORD);
}

/** The env variable that chooses the provider of a surface. */
export const providerEnvName = (platform: ConsumerPlatform) => `SIGHTLINE_${platform.toUpperCase()}_PROVIDER`;

/**
 * The provider of a surface, or null when none that serves it is configured. Throws on a provider
 * name that is unknown or cannot serve the surface.
 */
export function chooseProvider(platform: ConsumerPlatform, env: Env): ProviderName | null {
  const name = providerEnvName(platform);
  const wanted = env[name]?.trim().toLowerCase();
  if (wanted) {
    if (!(PROVIDERS as readonly string[]).includes(wanted)) {
      throw new Error(`${name}="${env[name]}" is not a provider; use one of: ${SERVED_BY[platform].join(', ')}.`);
    }
    if (!SERVED_BY[platform].includes(wanted as ProviderName)) {
      throw new Error(`${name}=${wanted}: ${wanted} cannot serve ${platform}; it is served by ${SERVED_BY[platform].join(' or ')}.`);
    }
    return wanted as ProviderName;
  }
  return SERVED_BY[platform].find((p) => providerConfigured(p, env)) ?? null;
}

/** Checks every SIGHTLINE_<PLATFORM>_PROVIDER at start (throws the first bad one). */
export function validateProviderChoices(env: Env): void {
  for (const p of CONSUMER_PLATFORMS) chooseProvider(p, env);
}
