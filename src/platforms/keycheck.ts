// `sightline platforms check`: each configured provider key tried once with the provider's
// cheapest authenticated call that costs nothing (a model or account listing), so an operator
// learns of a wrong key or base URL before a user's probe does. The URLs are built from the same
// <PREFIX>_BASE_URL variables the drivers honour (a proxy or a local fake is checked the same way),
// no key is ever part of a result (provider text is scrubbed, SerpApi's query string never quoted),
// and a provider without a free authenticated call is reported as not checkable, never as ok.

import { cleanBaseURL } from './live/driver.ts';
import { undiciFetch } from './live/http.ts';
import { scrubText } from './live/secrets.ts';
import { refusedKeyIn400 } from './live/errors.ts';
import { DEEPSEEK_DEFAULT_BASE_URL } from './deepseek.ts';
import { SERPAPI_DEFAULT_BASE } from './consumer/serpapi.ts';
import { DATAFORSEO_DEFAULT_BASE } from './consumer/dataforseo.ts';
import { providerConfigured, SERVED_BY } from './consumer/providers.ts';
import { API_PLATFORMS, CONSUMER_PLATFORMS, type ApiPlatform } from './types.ts';
import { PLATFORM_ENV_PREFIX, type Env } from './registry.ts';

export type KeyCheckStatus = 'ok' | 'key_refused' | 'endpoint_unknown' | 'unreachable' | 'unexpected' | 'not_checkable' | 'not_configured';

export interface KeyCheck {
  /** A platform (openai, …), a consumer-surface provider (serpapi, dataforseo) or `judge`. */
  name: string;
  status: KeyCheckStatus;
  /** The variables that hold this credential (the ones to fix when it is refused). */
  variables: string[];
  /** The URL called, without its query string (SerpApi's key travels there). */
  url?: string;
  http_status?: number;
  /** What went wrong or what to know, scrubbed of every key. */
  detail?: string;
}

/** Statuses that make the command fail: the credential or its base URL does not work. */
export const FAILING: ReadonlySet<KeyCheckStatus> = new Set(['key_refused', 'endpoint_unknown', 'unreachable', 'unexpected']);

/** True when a configured credential did not pass (a judge whose platform has no key counts: the server does not start). */
export function checksFailed(checks: readonly KeyCheck[]): boolean {
  return checks.some((c) => FAILING.has(c.status) || (c.name === 'judge' && c.status === 'not_configured'));
}

const MAX_DETAIL = 200;

/** How one provider's free call is made and how its answer is read. */
interface Listing {
  url: string;
  headers: Record<string, string>;
  /** True when a 200 body is what the call answers (not some other server's page). */
  valid: (body: any) => boolean;
  /** A refusal the provider answers with another status than 401/403 (Gemini: 400 API_KEY_INVALID). */
  refused?: (status: number, body: any) => boolean;
}

const modelList = (body: any) => Array.isArray(body?.data);

/** Default API roots, as the AI SDK providers the drivers use have them. */
const DEFAULT_BASE: Record<ApiPlatform, string> = {
  openai: 'https://api.openai.com/v1',
  perplexity: 'https://api.perplexity.ai',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  grok: 'https://api.x.ai/v1',
  claude: 'https://api.anthropic.com/v1',
  deepseek: DEEPSEEK_DEFAULT_BASE_URL,
};

/** The free listing call of each API platform; null when there is none (Perplexity). */
function apiListing(platform: ApiPlatform, base: string, key: string): Listing | null {
  switch (platform) {
    // GET /v1/models, Authorization: Bearer — https://platform.openai.com/docs/api-reference/models/list
    case 'openai':
      return { url: `${base}/models`, headers: { authorization: `Bearer ${key}` }, valid: modelList };
    // GET /v1/models, Authorization: Bearer (OpenAI-compatible) — https://docs.x.ai/docs/api-reference#list-models
    case 'grok':
      return { url: `${base}/models`, headers: { authorization: `Bearer ${key}` }, valid: modelList };
    // GET /models, Authorization: Bearer — https://api-docs.deepseek.com/api/list-models
    case 'deepseek':
      return { url: `${base}/models`, headers: { authorization: `Bearer ${key}` }, valid: modelList };
    // GET /v1/models, x-api-key + anthropic-version — https://docs.anthropic.com/en/api/models-list
    case 'claude':
      return { url: `${base}/models`, headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, valid: modelList };
    // GET /v1beta/models, x-goog-api-key — https://ai.google.dev/api/models#method:-models.list
    // A key Google does not know is answered 400 INVALID_ARGUMENT with reason API_KEY_INVALID
    // (e.g. https://github.com/google-gemini/gemini-cli/issues/4690), not 401.
    case 'gemini':
      return {
        url: `${base}/models`,
        headers: { 'x-goog-api-key': key },
        valid: (b) => Array.isArray(b?.models),
        refused: refusedKeyIn400,
      };
    // Perplexity's API reference (https://docs.perplexity.ai/api-reference) lists chat completions
    // and the async jobs of a user, no model or account listing: no call is known to be free.
    case 'perplexity':
      return null;
  }
}

function detailOf(body: unknown, text: string): string {
  if (!body || typeof body !== 'object') return text;
  const b = body as { error?: unknown; message?: unknown; status_message?: unknown };
  const nested = b.error && typeof b.error === 'object' ? (b.error as { message?: unknown }).message : undefined;
  const found = [b.error, nested, b.message, b.status_message].find((v): v is string => typeof v === 'string' && v !== '');
  return found ?? text;
}

function clip(text: string, secrets: readonly (string | undefined)[]): string {
  const clean = scrubText(text, secrets).replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL)}…` : clean;
}

function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** One free call, classified. */
async function runListing(
  name: string,
  variables: string[],
  listing: Listing,
  secrets: readonly (string | undefined)[],
  opts: { fetch: typeof fetch; timeoutMs: number },
): Promise<KeyCheck> {
  const shown = withoutQuery(listing.url);
  const base: KeyCheck = { name, status: 'ok', variables, url: shown };
  let res: Response;
  let text: string;
  try {
    new URL(listing.url);
  } catch {
    return {
      ...base,
      status: 'endpoint_unknown',
      detail: `the base URL is not a URL; check ${variables.find((v) => v.endsWith('_BASE_URL')) ?? 'the base URL'}`,
    };
  }
  try {
    res = await opts.fetch(listing.url, {
      method: 'GET',
      headers: { accept: 'application/json', ...listing.headers },
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { message?: string; code?: string } };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    const why = timedOut ? `no answer within ${opts.timeoutMs / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
    return { ...base, status: 'unreachable', detail: clip(`cannot reach ${shown}: ${why}`, secrets) };
  }
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const status = res.status;
  const keyVars = variables.filter((v) => !v.endsWith('_BASE_URL')).join(' / ');
  const said = clip(detailOf(body, text), secrets);
  if (status === 401 || status === 403 || listing.refused?.(status, body)) {
    return { ...base, status: 'key_refused', http_status: status, detail: `${said ? `${said} ` : ''}(fix ${keyVars})`.trim() };
  }
  if (status === 404) {
    return {
      ...base,
      status: 'endpoint_unknown',
      http_status: status,
      detail: `${shown} does not exist: check the base URL${variables.some((v) => v.endsWith('_BASE_URL')) ? ` (${variables.find((v) => v.endsWith('_BASE_URL'))})` : ''}`,
    };
  }
  if (status >= 200 && status < 300 && listing.valid(body)) return { ...base, http_status: status };
  if (status >= 200 && status < 300) {
    return {
      ...base,
      status: 'unexpected',
      http_status: status,
      detail: `answered ${status} with a body that is not this provider's reply; is the base URL the provider's?`,
    };
  }
  return { ...base, status: 'unexpected', http_status: status, detail: `answered HTTP ${status}${said ? `: ${said}` : ''}` };
}

const nonEmpty = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/**
 * Every provider credential in env checked once, in parallel: the six API platforms, the consumer
 * surfaces' providers (SerpApi, DataForSEO) and, when SIGHTLINE_JUDGE_MODEL is set, the judge
 * (which answers through its platform's key).
 */
export async function checkProviderKeys(env: Env, opts: { fetch?: typeof fetch; timeoutMs?: number; judgeModel?: string } = {}): Promise<KeyCheck[]> {
  const call = { fetch: opts.fetch ?? undiciFetch, timeoutMs: opts.timeoutMs ?? 10_000 };
  const api = API_PLATFORMS.map(async (platform): Promise<KeyCheck> => {
    const prefix = PLATFORM_ENV_PREFIX[platform];
    const keyVar = `${prefix}_API_KEY`;
    const baseVar = `${prefix}_BASE_URL`;
    const key = nonEmpty(env[keyVar]);
    const variables = [keyVar, baseVar];
    if (!key) return { name: platform, status: 'not_configured', variables, detail: `${keyVar} is not set` };
    const base = cleanBaseURL(env[baseVar]) ?? DEFAULT_BASE[platform];
    const listing = apiListing(platform, base, key);
    if (!listing) {
      return {
        name: platform,
        status: 'not_checkable',
        variables,
        detail: `${keyVar} is set; the provider has no free authenticated call, so the key is known good or bad only once a probe runs`,
      };
    }
    return runListing(platform, variables, listing, [key], call);
  });

  const serves = (p: 'serpapi' | 'dataforseo') => CONSUMER_PLATFORMS.filter((c) => SERVED_BY[c].includes(p)).join(', ');
  const serpapi = (async (): Promise<KeyCheck> => {
    const variables = ['SERPAPI_API_KEY', 'SERPAPI_BASE_URL'];
    const key = nonEmpty(env.SERPAPI_API_KEY);
    if (!providerConfigured('serpapi', env) || !key)
      return { name: 'serpapi', status: 'not_configured', variables, detail: `SERPAPI_API_KEY is not set (serves ${serves('serpapi')})` };
    const base = cleanBaseURL(env.SERPAPI_BASE_URL) ?? SERPAPI_DEFAULT_BASE;
    // GET /account.json?api_key=… is free and not counted toward the quota — https://serpapi.com/account-api
    const listing: Listing = {
      url: `${base}/account.json?${new URLSearchParams({ api_key: key })}`,
      headers: {},
      valid: (b) =>
        b !== null && typeof b === 'object' && typeof b.error !== 'string' && ('account_id' in b || 'total_searches_left' in b || 'plan_searches_left' in b),
    };
    return runListing('serpapi', variables, listing, [key], call);
  })();
  const dataforseo = (async (): Promise<KeyCheck> => {
    const variables = ['DATAFORSEO_LOGIN', 'DATAFORSEO_PASSWORD', 'DATAFORSEO_BASE_URL'];
    const login = nonEmpty(env.DATAFORSEO_LOGIN);
    const password = nonEmpty(env.DATAFORSEO_PASSWORD);
    if (!login && !password)
      return {
        name: 'dataforseo',
        status: 'not_configured',
        variables,
        detail: `DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD are not set (serves ${serves('dataforseo')})`,
      };
    if (!login || !password) {
      // The drivers treat half a credential as none: say so rather than leave it unnoticed.
      return {
        name: 'dataforseo',
        status: 'key_refused',
        variables,
        detail: `only ${login ? 'DATAFORSEO_LOGIN' : 'DATAFORSEO_PASSWORD'} is set; both are needed`,
      };
    }
    const base = cleanBaseURL(env.DATAFORSEO_BASE_URL) ?? DATAFORSEO_DEFAULT_BASE;
    const basic = Buffer.from(`${login}:${password}`).toString('base64');
    // GET /v3/appendix/user_data, Basic auth; "Your account will not be charged for using this API"
    // — https://docs.dataforseo.com/v3/appendix/user_data/
    const listing: Listing = {
      url: `${base}/v3/appendix/user_data`,
      headers: { authorization: `Basic ${basic}` },
      valid: (b) => b?.status_code === 20000,
      // DataForSEO also states refusals in its own status_code (40100 not authorized, 40101-…).
      refused: (_status, b) => typeof b?.status_code === 'number' && b.status_code >= 40100 && b.status_code < 40200,
    };
    return runListing('dataforseo', variables, listing, [password, basic, `${login}:${password}`], call);
  })();

  const checks = await Promise.all([...api, serpapi, dataforseo]);
  const judge = nonEmpty(opts.judgeModel);
  if (judge) {
    const platform = judge.slice(0, judge.indexOf(':')) as ApiPlatform;
    const through = checks.find((c) => c.name === platform);
    if (through) {
      checks.push({
        name: 'judge',
        status: through.status,
        variables: ['SIGHTLINE_JUDGE_MODEL', ...through.variables],
        ...(through.url ? { url: through.url } : {}),
        detail: `${judge}: answers through ${platform}'s key (${through.status.replace(/_/g, ' ')})`,
      });
    }
  }
  return checks;
}
