// URL checks and the normalization that makes saved tests and reports match the same page
// however its URL was spelled (API-NOTES: scheme and host lowercased, default port, fragment
// and trailing slash dropped).

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
