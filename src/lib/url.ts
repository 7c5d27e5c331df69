// URL checks, the normalization that makes saved tests and reports match the same page however
// its URL was spelled (scheme and host lowercased, default port, fragment and trailing slash
// dropped), and the host of a URL as content, visibility and tracking compare it.

/** Parses an absolute http(s) URL, or returns null. */
export function parseHttpUrl(value: string): URL | null {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url;
}

/**
 * The error message for a value that is not an absolute http(s) URL. When it reads as a host
 * without a scheme (`acme.com`, `www.acme.com/pricing`), as people type a site, it names the URL
 * that was probably meant, so an API, MCP or CLI user sees the fix.
 */
export function absoluteUrlMessage(field: string, value: unknown): string {
  const message = `${field} must be an absolute http(s) URL`;
  if (typeof value === 'string' && value.length <= 2048) {
    const v = value.trim();
    if (/^[^\s/:?#@]+\.[^\s/:?#.@]+(:\d+)?([/?#]\S*)?$/.test(v) && parseHttpUrl(`https://${v}`)) return `${message}, such as https://${v}.`;
  }
  return `${message}.`;
}

export function normalizeUrl(value: string): string {
  const url = parseHttpUrl(value);
  if (!url) return value.trim();
  url.hash = '';
  // URL already lowercases scheme and host and drops default ports.
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '');
  if (path === '/') path = '';
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * A URL's host and its path with query, the host lowercased and without a leading `www.`, or
 * null when the text is not an absolute URL. Any scheme is accepted: callers that need http(s)
 * check that themselves.
 */
export function hostAndPath(url: string): { host: string; path: string } | null {
  try {
    const u = new URL(url);
    return { host: u.hostname.toLowerCase().replace(/^www\./, ''), path: u.pathname + u.search };
  } catch {
    return null;
  }
}

/** The host of a URL as hostAndPath gives it, or '' when the text is not an absolute URL. */
export function hostOf(url: string): string {
  return hostAndPath(url)?.host ?? '';
}
