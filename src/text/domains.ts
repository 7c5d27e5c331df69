// Domain normalisation for citation matching.
// The one thing to know: this is deliberately *not* a Public Suffix List lookup. A citation
// counts for the target when its host equals the target's host or is a subdomain of it
// (`blog.acme.com` for `acme.com`), after lowercasing, IDN → punycode (WHATWG URL), dropping
// the port, a trailing dot and one leading "www.". Suffix matching is anchored at a dot, so
// `acme.com.evil.io` and `notacme.com` never count. The cost of skipping the PSL: a target
// given as `blog.acme.com` does not claim citations of `acme.com`, which is the cautious side.

/** Host of a URL or bare host name: lowercase, punycode, no port, no trailing dot, no leading "www.". "" when unparsable. */
export function registrableDomain(hostOrUrl: string): string {
  const input = (hostOrUrl ?? '').trim();
  if (!input) return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `http://${input.replace(/^\/\//, '')}`;
  let host: string;
  try {
    host = new URL(withScheme).hostname;
  } catch {
    return '';
  }
  host = host.toLowerCase().replace(/\.+$/, '');
  if (host.startsWith('www.') && host.length > 4) host = host.slice(4);
  return host;
}

/** True when `domain` is `target` or a subdomain of it (both already normalised). */
export function domainMatches(domain: string, target: string): boolean {
  if (!domain || !target) return false;
  return domain === target || domain.endsWith(`.${target}`);
}
