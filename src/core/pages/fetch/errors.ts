// The typed failures of the page fetcher. Callers switch on `code` (for example to answer
// `billing.billable: false`); the message is safe to show to an API client.
//
// The one thing to know: a FetchError never carries internals. The low-level cause (socket
// error, resolver failure) is kept as the non-enumerable `cause` for server logs only, and the
// stack is reduced to the message line, so neither can leak through JSON or a careless log.
import { AppError } from '../../errors.ts';

export type FetchErrorCode =
  | 'blocked_address'
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'too_many_redirects'
  /** A redirect's Location is not a fetchable http(s) URL (the caller's URL was fine). */
  | 'bad_redirect'
  | 'timeout'
  | 'network'
  | 'unsupported_content'
  | 'http_error'
  /** Fetched, but extracting it failed (its worker ran out of memory). */
  | 'extraction';

const MESSAGES: Record<FetchErrorCode, string> = {
  blocked_address: 'The URL points at an address this server may not fetch (not public: private, loopback, link-local); its operator can allow it with SIGHTLINE_FETCH_ALLOW (hosts, host:port pairs or CIDRs).',
  invalid_url: 'The URL is not a valid http(s) URL.',
  unsupported_scheme: 'Only http and https URLs can be fetched.',
  too_many_redirects: 'The page redirected too many times.',
  bad_redirect: 'The page redirected to a URL that cannot be fetched.',
  timeout: 'The page took too long to respond.',
  network: 'The page could not be fetched.',
  unsupported_content: 'The URL does not point at an HTML page.',
  http_error: 'The page answered with an HTTP error status.',
  extraction: 'The page is too large or too complex to extract.',
};

/**
 * blocked_address for a host name: the same words whether the name does not exist (or has no
 * address) or resolves to an address that is not public. Telling the two apart would let anyone who
 * may fetch pages find out which internal names exist (an intranet name resolves to a private
 * address, a made-up one does not resolve); the words help both the user who mistyped a domain and
 * the operator who means to allow an internal host.
 */
export const HOST_NOT_PUBLIC =
  'The URL\'s host name does not lead to an address this server may fetch: either no such name exists (check the domain\'s spelling) or it resolves to an address that is not public (private, loopback, link-local); its operator can allow such a host with SIGHTLINE_FETCH_ALLOW (hosts, host:port pairs or CIDRs).';

export interface FetchErrorDetails {
  /** HTTP status of the answer that caused the error, when there was one. */
  status?: number;
  /** Content type of that answer (unsupported_content). */
  contentType?: string | null;
  /** The URL being fetched when the error happened (after redirects). */
  url?: string;
  cause?: unknown;
}

export class FetchError extends Error {
  readonly code: FetchErrorCode;
  readonly status: number | null;
  readonly contentType: string | null;
  readonly url: string | null;

  constructor(code: FetchErrorCode, message: string = MESSAGES[code], details: FetchErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'FetchError';
    this.code = code;
    this.status = details.status ?? null;
    this.contentType = details.contentType ?? null;
    this.url = details.url ?? null;
    this.stack = `FetchError [${code}]: ${message}`;
  }

  toJSON(): { code: FetchErrorCode; message: string; status: number | null } {
    return { code: this.code, message: this.message, status: this.status };
  }
}

export function isFetchError(err: unknown): err is FetchError {
  return err instanceof FetchError;
}

/**
 * Whether asking again can give another answer: a timeout, a dropped connection or a page's 5xx,
 * 408 or 429 may pass; a 4xx page, a refused or nonexistent host, too many redirects, a page that
 * is not HTML or too large to extract will fail the same way. Reported as `retryable` on
 * extraction_failed (a 500 by the spec, which alone would tell a client to retry).
 */
export function fetchRetryable(code: FetchErrorCode, status: number | null | undefined): boolean {
  if (status !== null && status !== undefined) return status >= 500 || status === 408 || status === 429;
  return code === 'timeout' || code === 'network';
}

/**
 * The API error to render for a fetch failure: a refused address or redirect target is the
 * caller's doing (400 fetch_blocked), a malformed URL 400 invalid_url, anything else the page's doing (500
 * extraction_failed). Surfaces that answer "not billable" instead of an error (serialization of
 * an unsupported page) check `code` before calling this.
 */
export function fetchErrorToAppError(err: FetchError): AppError {
  const extra = { fetch_error: err.code, ...(err.status !== null ? { http_status: err.status } : {}), retryable: fetchRetryable(err.code, err.status) };
  switch (err.code) {
    case 'blocked_address':
    // A redirect to a scheme or URL the fetcher refuses (file:, gopher:, credentials) is refused
    // like a blocked address: a 4xx the caller can act on, not the server failing.
    case 'bad_redirect':
      return new AppError('fetch_blocked', err.message, extra);
    case 'invalid_url':
    case 'unsupported_scheme':
      return new AppError('invalid_url', err.message, extra);
    default:
      return new AppError('extraction_failed', err.message, extra);
  }
}
