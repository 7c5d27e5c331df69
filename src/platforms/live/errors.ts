// Classification of everything a provider call can throw into PlatformError, so retry and the
// worker decide on codes, never on SDK types. The AI SDK throws APICallError (statusCode,
// responseHeaders, isRetryable) for HTTP failures and for connection failures (no status), and
// APICallError with a 2xx status for bodies it cannot parse. Messages are scrubbed of API keys, and
// the original error is not attached as `cause`: it carries request/response bodies that may
// quote the key, and loggers serialize causes.

import type { APICallError } from 'ai';
import { PlatformError, type PlatformName } from '../types.ts';
import { loadedAiSdk } from './sdk.ts';
import { scrubText } from './secrets.ts';

/** Whether `err` is the AI SDK's APICallError (none exists before a driver's call loaded the SDK). */
export function isApiCallError(err: unknown): err is APICallError {
  return loadedAiSdk()?.APICallError.isInstance(err) ?? false;
}

type Headers = Record<string, string | undefined> | undefined;

function header(headers: Headers, name: string): string | undefined {
  if (!headers) return undefined;
  const want = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === want) return v;
  return undefined;
}

/**
 * Milliseconds to wait from `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an HTTP-date),
 * null when absent or unparseable. Never negative.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | null {
  const ms = header(headers, 'retry-after-ms');
  if (ms != null && ms.trim() !== '') {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return Math.ceil(n);
  }
  const ra = header(headers, 'retry-after');
  if (ra == null || ra.trim() === '') return null;
  const secs = Number(ra.trim());
  if (Number.isFinite(secs)) return secs >= 0 ? Math.ceil(secs * 1000) : null;
  const at = Date.parse(ra);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

const MAX_DETAIL = 300;

function detail(message: string, secrets: readonly (string | undefined)[]): string {
  const clean = scrubText(message, secrets).replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL)}…` : clean;
}

/** An error body's visible text: an HTML error page (a proxy's, a gateway's) without its markup. */
export function errorPageText(body: string): string {
  return body.replace(/<(script|style)[\s\S]*?<\/\1>|<[^>]*>/gi, ' ');
}

export function isAbortLike(err: unknown): boolean {
  return (
    (err instanceof Error || (typeof DOMException !== 'undefined' && err instanceof DOMException)) &&
    ((err as Error).name === 'AbortError' || (err as Error).name === 'TimeoutError')
  );
}

/**
 * Whether a 400 answer is a refused key: Google's Gemini API answers a key it does not know with
 * 400 INVALID_ARGUMENT, reason API_KEY_INVALID ("API key not valid"), not with 401. `body` is the
 * response's text or its parsed JSON.
 */
export function refusedKeyIn400(status: number | null, body: unknown): boolean {
  if (status !== 400 || body == null) return false;
  let json: any = body;
  if (typeof body === 'string') {
    try {
      json = JSON.parse(body);
    } catch {
      return false;
    }
  }
  const error = json?.error;
  if (Array.isArray(error?.details) && error.details.some((d: any) => d?.reason === 'API_KEY_INVALID')) return true;
  return error?.status === 'INVALID_ARGUMENT' && /API key not valid/i.test(String(error?.message ?? ''));
}

/** Map any error from a provider call into a PlatformError (abort errors pass through untouched). */
export function toPlatformError(
  err: unknown,
  ctx: { platform: PlatformName; secrets: readonly (string | undefined)[] },
): unknown {
  if (err instanceof PlatformError) {
    // Already classified (e.g. a refusal raised by the driver); still make sure no key leaks.
    const msg = scrubText(err.message, ctx.secrets);
    if (msg === err.message) return err;
    return new PlatformError(err.code, msg, {
      retryable: err.retryable,
      retryAfterMs: err.retryAfterMs,
      httpStatus: err.httpStatus,
    });
  }
  if (isAbortLike(err)) return err;
  const p = ctx.platform;

  if (isApiCallError(err)) {
    const status = err.statusCode ?? null;
    // A proxy's HTML error page gives the SDK no message: its visible text stands in, or the status.
    const text =
      detail(err.message, ctx.secrets) ||
      detail(errorPageText(err.responseBody ?? ''), ctx.secrets) ||
      'no error message in the response';
    if (status == null) {
      return new PlatformError('provider_network_error', `${p}: cannot reach the provider: ${text}`, { retryable: true });
    }
    if (status >= 200 && status < 300) {
      return new PlatformError('provider_malformed_response', `${p}: the provider's response could not be read: ${text}`, {
        httpStatus: status,
      });
    }
    const retryAfterMs = parseRetryAfter(err.responseHeaders);
    if (status === 429) {
      return new PlatformError('provider_rate_limited', `${p}: rate limited (HTTP 429): ${text}`, {
        retryable: true,
        retryAfterMs,
        httpStatus: status,
      });
    }
    if (status === 408) {
      return new PlatformError('provider_timeout', `${p}: the provider timed out (HTTP 408): ${text}`, {
        retryable: true,
        retryAfterMs,
        httpStatus: status,
      });
    }
    if (status >= 500) {
      return new PlatformError('provider_unavailable', `${p}: the provider failed (HTTP ${status}): ${text}`, {
        retryable: true,
        retryAfterMs,
        httpStatus: status,
      });
    }
    if (status === 401 || status === 403 || refusedKeyIn400(status, err.responseBody)) {
      return new PlatformError('provider_auth_failed', `${p}: the provider refused the credentials (HTTP ${status}): ${text}`, {
        httpStatus: status,
      });
    }
    if (status === 404) {
      return new PlatformError('provider_not_found', `${p}: the provider does not know this model or endpoint (HTTP 404): ${text}`, {
        httpStatus: status,
      });
    }
    // 409 is retryable per the AI SDK's own rule (a conflicting concurrent request); other 4xx are not.
    if (status === 409) {
      return new PlatformError('provider_unavailable', `${p}: conflict (HTTP 409): ${text}`, {
        retryable: true,
        retryAfterMs,
        httpStatus: status,
      });
    }
    return new PlatformError('provider_bad_request', `${p}: the provider rejected the request (HTTP ${status}): ${text}`, {
      httpStatus: status,
    });
  }

  const ai = loadedAiSdk();
  if (
    ai &&
    (ai.JSONParseError.isInstance(err) ||
      ai.TypeValidationError.isInstance(err) ||
      ai.InvalidResponseDataError.isInstance(err) ||
      ai.EmptyResponseBodyError.isInstance(err))
  ) {
    return new PlatformError(
      'provider_malformed_response',
      `${p}: the provider's response could not be read: ${detail((err as Error).message, ctx.secrets)}`,
    );
  }

  // Plain network failures that bypassed the SDK's wrapping (undici TypeError "fetch failed", socket codes).
  const e = err as { message?: string; code?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  if ((err instanceof TypeError && /fetch failed/i.test(e.message ?? '')) || (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_)/.test(code))) {
    return new PlatformError('provider_network_error', `${p}: cannot reach the provider: ${detail(String(e.cause?.message ?? e.message ?? code), ctx.secrets)}`, {
      retryable: true,
    });
  }

  // A TypeError that is not a network failure comes from reading a reply whose shape the SDK did not
  // expect (e.g. OpenAI's schema lets `output` be absent, then iterates it).
  if (err instanceof TypeError) {
    return new PlatformError('provider_malformed_response', `${p}: the provider's response could not be read: ${detail(err.message, ctx.secrets)}`);
  }

  return new PlatformError('provider_error', `${p}: unexpected provider failure: ${detail(String((err as Error)?.message ?? err), ctx.secrets)}`);
}
