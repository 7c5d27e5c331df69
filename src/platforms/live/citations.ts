// Normalising provider citations into the one Citation shape: de-duplicated by page (tracking
// parameters, fragments, "www.", scheme and a trailing slash ignored; first URL and title win),
// `domain` = lowercase host without "www.". Gemini's grounding URLs are Google redirect links that
// hide the real site, so for those the domain comes from the chunk title (where Gemini puts
// the site's domain) or from the redirect's Location header, never from fetching the site itself;
// a redirect whose real domain stays unknown is dropped (Google's redirect host is never a cited domain).

import type { Citation } from '../types.ts';

export interface RawCitation {
  url: string;
  title?: string | null;
  /** Known real target when url is a redirect link. */
  resolved_url?: string | null;
  /** Known real domain when url is a redirect link. */
  domain?: string | null;
}

/** Lowercase host without a leading "www.", or null when url is not an absolute http(s) URL. */
/** URL sources the AI SDK collected from a response (its provider-neutral view of citations). */
export function urlSources(sources: readonly { sourceType: string; url?: string; title?: string }[]): RawCitation[] {
  return sources.flatMap((s) => (s.sourceType === 'url' && s.url ? [{ url: s.url, title: s.title && s.title !== s.url ? s.title : null }] : []));
}

/** The URL parsed, if it is an http(s) URL. */
function httpUrl(url: string): URL | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
}

export function domainOf(url: string): string | null {
  const u = httpUrl(url);
  if (!u) return null;
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

/** The title as a domain when it is one ("example.com", "www.Example.co.uk"), else null. */
export function domainFromTitle(title: string | null | undefined): string | null {
  if (!title) return null;
  const t = title.trim().toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME.test(t)) return null;
  return t.startsWith('www.') ? t.slice(4) : t;
}

export const GROUNDING_REDIRECT_HOST = 'vertexaisearch.cloud.google.com';

export function isGroundingRedirect(url: string): boolean {
  try {
    const u = new URL(url);
    return u.hostname === GROUNDING_REDIRECT_HOST && u.pathname.startsWith('/grounding-api-redirect/');
  } catch {
    return false;
  }
}

/** Query parameters that only track the click (OpenAI adds utm_source=openai to every citation). */
const TRACKING_PARAM = /^(utm_[a-z0-9_]*|gclid|dclid|fbclid|msclkid|yclid|mc_cid|mc_eid|srsltid)$/i;

/**
 * The URL as the provider gave it, minus tracking parameters and a text-fragment directive
 * (`#:~:text=…`, which only highlights a passage). Anything that is not an http(s) URL is returned
 * unchanged.
 */
export function cleanCitationUrl(url: string): string {
  const u = httpUrl(url);
  if (!u) return url;
  let changed = false;
  if (u.search.length > 1) {
    // Filtered by hand so the kept parameters keep their exact encoding.
    const parts = u.search.slice(1).split('&');
    const kept = parts.filter((part) => {
      const name = part.split('=')[0]!;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* keep the raw name */
      }
      return !TRACKING_PARAM.test(decoded);
    });
    if (kept.length !== parts.length) {
      u.search = kept.length ? `?${kept.join('&')}` : '';
      changed = true;
    }
  }
  const directive = u.hash.indexOf(':~:');
  if (directive >= 0) {
    // "#section:~:text=x" keeps "#section"; "#:~:text=x" has no fragment left.
    u.hash = u.hash.slice(1, directive);
    changed = true;
  }
  return changed ? u.href : url;
}

/**
 * What makes two citation URLs the same page: scheme, "www.", host case, default port, fragment
 * and a trailing slash do not count; tracking parameters are already gone (cleanCitationUrl).
 */
function pageKey(url: string): string {
  const u = httpUrl(url);
  if (!u) return url;
  const host = u.hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
  const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : '';
  return `${host}${u.port ? `:${u.port}` : ''}${path}${u.search}`;
}

/**
 * De-duplicate by page (see pageKey) keeping the first URL and title seen (a later non-null title
 * fills a null one). URLs lose their tracking parameters and text fragments.
 */
export function normalizeCitations(items: readonly RawCitation[]): Citation[] {
  const byPage = new Map<string, Citation>();
  for (const item of items) {
    const given = item.url?.trim();
    if (!given) continue;
    const url = cleanCitationUrl(given);
    // A redirect link and the page it leads to are the same citation.
    const key = pageKey(item.resolved_url ? cleanCitationUrl(item.resolved_url) : url);
    const existing = byPage.get(key);
    if (existing) {
      if (existing.title == null && item.title) existing.title = item.title;
      if (existing.resolved_url == null && item.resolved_url) existing.resolved_url = item.resolved_url;
      continue;
    }
    const resolvedDomain = item.resolved_url ? domainOf(item.resolved_url) : null;
    // A grounding redirect's own host is Google's, never the cited site: without a known real
    // domain the citation says nothing about who was cited, so it is left out (raw keeps it).
    const domain =
      item.domain?.toLowerCase().replace(/^www\./, '') || resolvedDomain || (isGroundingRedirect(url) ? null : domainOf(url));
    if (!domain) continue; // not a web URL (e.g. a file reference): nothing a visibility check can use
    const c: Citation = { title: item.title ?? null, url, domain };
    if (item.resolved_url !== undefined || item.domain !== undefined) c.resolved_url = item.resolved_url ?? null;
    byPage.set(key, c);
  }
  return [...byPage.values()];
}
