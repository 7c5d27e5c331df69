// One JSON request to a SERP or scraping provider, classified into PlatformError the way the API
// drivers' errors are (src/platforms/live/errors.ts): 429 and 5xx retryable with Retry-After
// honoured, 401/403 an authentication failure, other 4xx a bad request, a body that is not JSON
// malformed, a connection failure a network error. Every message is scrubbed of the provider's
// secrets before it leaves (the SerpApi key travels in the query string, so URLs are never quoted).

import { PlatformError, type PlatformName } from '../types.ts';
import { errorPageText, isAbortLike, parseRetryAfter } from '../live/errors.ts';
import { scrubText } from '../live/secrets.ts';

export interface ProviderHttp {
  platform: PlatformName;
  provider: string;
  fetch: typeof fetch;
  secrets: readonly (string | undefined)[];
}

const MAX_DETAIL = 300;

export function providerDetail(message: string, secrets: readonly (string | undefined)[]): string {
  const clean = scrubText(message, secrets).replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL)}…` : clean;
}

function headerRecord(h: Headers): Record<string, string> {
  return Object.fromEntries(h);
}

/** The provider's own error text from a JSON error body (`error` for SerpApi, `status_message` for DataForSEO). */
function errorText(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; status_message?: unknown };
    if (typeof b.error === 'string') return b.error;
    if (typeof b.status_message === 'string') return b.status_message;
  }
  return fallback;
}

export async function requestJson(
  http: ProviderHttp,
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<unknown> {
  const who = `${http.platform} (${http.provider})`;
  let res: Response;
  try {
    res = await http.fetch(url, { method: init.method, headers: { accept: 'application/json', ...init.headers }, body: init.body, signal: init.signal });
  } catch (err) {
    if (isAbortLike(err)) throw err;
    const e = err as { message?: string; cause?: { message?: string; code?: string } };
    throw new PlatformError('provider_network_error', `${who}: cannot reach the provider: ${providerDetail(String(e.cause?.message ?? e.message ?? err), http.secrets)}`, {
      retryable: true,
    });
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    if (isAbortLike(err)) throw err;
    throw new PlatformError('provider_network_error', `${who}: the connection broke while reading the reply.`, { retryable: true });
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const status = res.status;
  if (status >= 200 && status < 300) {
    if (body === undefined || body === null || typeof body !== 'object') {
      throw new PlatformError('provider_malformed_response', `${who}: the provider's response is not a JSON object (HTTP ${status}).`, { httpStatus: status });
    }
    return body;
  }
  const detail = providerDetail(errorText(body, errorPageText(text.slice(0, 2000)).trim().slice(0, 200) || res.statusText || 'no error message in the response'), http.secrets);
  const retryAfterMs = parseRetryAfter(headerRecord(res.headers));
  if (status === 429) {
    throw new PlatformError('provider_rate_limited', `${who}: rate limited (HTTP 429): ${detail}`, { retryable: true, retryAfterMs, httpStatus: status });
  }
  if (status === 408) {
    throw new PlatformError('provider_timeout', `${who}: the provider timed out (HTTP 408): ${detail}`, { retryable: true, retryAfterMs, httpStatus: status });
  }
  if (status >= 500) {
    throw new PlatformError('provider_unavailable', `${who}: the provider failed (HTTP ${status}): ${detail}`, { retryable: true, retryAfterMs, httpStatus: status });
  }
  if (status === 401 || status === 403) {
    throw new PlatformError('provider_auth_failed', `${who}: the provider refused the credentials (HTTP ${status}): ${detail}`, { httpStatus: status });
  }
  if (status === 404) {
    throw new PlatformError('provider_not_found', `${who}: the provider does not know this endpoint (HTTP 404): ${detail}`, { httpStatus: status });
  }
  throw new PlatformError('provider_bad_request', `${who}: the provider rejected the request (HTTP ${status}): ${detail}`, { httpStatus: status });
}
