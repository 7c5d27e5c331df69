// The page fetcher's public surface: fetch one URL safely (fetchPage), the address policy it
// enforces, and its typed errors. Import from here rather than from the files behind it.
export { fetchPage, defaultResolver, USER_AGENT, checkOutboundTarget } from './fetch-page.ts';
export type { FetchOptions, FetchedPage, HostResolver, ResolvedAddress, CheckedTarget } from './fetch-page.ts';
export {
  isPublicAddress,
  isAddressAllowed,
  parseFetchAllowlist,
  EMPTY_ALLOWLIST,
} from './address-policy.ts';
export type { FetchAllowlist, AllowEntry } from './address-policy.ts';
export { FetchError, isFetchError, fetchErrorToAppError, fetchRetryable } from './errors.ts';
export type { FetchErrorCode, FetchErrorDetails } from './errors.ts';
export { decodeBody, sniffEncoding, parseContentType } from './charset.ts';
