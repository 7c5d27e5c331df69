// Normalising provider citations into the one Citation shape: de-duplicated by URL (first title
// wins), `domain` = lowercase host without "www.". Gemini's grounding URLs are Google redirect links
// that hide the real site, so for those the domain comes from the chunk title (where Gemini puts
// the site's domain) or from the redirect's Location header, never from fetching the site itself.

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

export function domainOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
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

/** De-duplicate by URL keeping the first title seen (a later non-null title fills a null one). */
export function normalizeCitations(items: readonly RawCitation[]): Citation[] {
  const byUrl = new Map<string, Citation>();
  for (const item of items) {
    const url = item.url?.trim();
    if (!url) continue;
    const existing = byUrl.get(url);
    if (existing) {
      if (existing.title == null && item.title) existing.title = item.title;
      if (existing.resolved_url == null && item.resolved_url) existing.resolved_url = item.resolved_url;
      continue;
    }
    const resolvedDomain = item.resolved_url ? domainOf(item.resolved_url) : null;
    const domain = item.domain?.toLowerCase().replace(/^www\./, '') || resolvedDomain || domainOf(url);
    if (!domain) continue; // not a web URL (e.g. a file reference): nothing a visibility check can use
    const c: Citation = { title: item.title ?? null, url, domain };
    if (item.resolved_url !== undefined || item.domain !== undefined) c.resolved_url = item.resolved_url ?? null;
    byUrl.set(url, c);
  }
  return [...byUrl.values()];
}
