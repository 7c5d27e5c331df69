// Loads a page and a few of its same-site linked pages through the injected SiteLoader. The
// linked pages give the "field" of the page (which topics the site talks about) for trends
// and depth. The one thing to know: related pages are picked in a fixed order (same section
// first, then document order), so the same site gives the same sample every time.
import { AppError } from '../errors.ts';
import { fetchRetryable } from '../pages/fetch/errors.ts';
import { hostOf } from '../../lib/url.ts';
import type { LoadedPage, SiteLoader } from './types.ts';

export interface LoadedSite {
  page: LoadedPage;
  related: LoadedPage[];
}

/**
 * For `.catch` on a secondary resource (robots.txt, llms.txt, sitemaps, related pages, crawler
 * re-fetches): a failure means "not there" (null), except a refusal for capacity (503
 * fetch_capacity), which fails the whole action rather than being reported as a missing resource.
 */
export function notThere(err: unknown): null {
  if (err instanceof AppError && err.code === 'fetch_capacity') throw err;
  return null;
}

const SKIP_PATH = /\.(pdf|jpe?g|png|gif|webp|svg|zip|gz|mp4|mp3|xml|txt|json|css|js)$|\/(login|signin|sign-in|signup|register|cart|checkout|account|logout|wp-admin|feed|rss)(\/|$)/i;

export async function loadPrimary(url: string, loader: SiteLoader): Promise<LoadedPage> {
  const page = await loader.loadPage(url);
  if (!page || page.status >= 400) {
    throw new AppError('extraction_failed', page ? `The page answered HTTP ${page.status}.` : undefined, {
      url,
      ...(page ? { http_status: page.status, retryable: fetchRetryable('http_error', page.status) } : {}),
    });
  }
  return page;
}

/** Same-site links worth sampling, best first, without the page itself. */
export function relatedCandidates(page: LoadedPage): string[] {
  const doc = page.document;
  const host = hostOf(doc.url);
  let section = '';
  try {
    section = new URL(doc.url).pathname.split('/').filter(Boolean)[0] ?? '';
  } catch {
    /* none */
  }
  const seen = new Set<string>([strip(doc.url)]);
  if (doc.canonicalUrl) seen.add(strip(doc.canonicalUrl));
  const sameSection: string[] = [];
  const others: string[] = [];
  for (const link of [...doc.links.main, ...doc.links.all]) {
    let u: URL;
    try {
      u = new URL(link.href);
    } catch {
      continue;
    }
    if (!/^https?:$/.test(u.protocol) || hostOf(u.href) !== host) continue;
    if (SKIP_PATH.test(u.pathname) || /nofollow/i.test(link.rel ?? '')) continue;
    const key = strip(u.href);
    if (seen.has(key)) continue;
    seen.add(key);
    const first = u.pathname.split('/').filter(Boolean)[0] ?? '';
    (section && first === section ? sameSection : others).push(key);
  }
  return [...sameSection, ...others];
}

export async function loadSite(url: string, loader: SiteLoader, maxRelated = 3): Promise<LoadedSite> {
  const page = await loadPrimary(url, loader);
  const related: LoadedPage[] = [];
  let tries = 0;
  for (const candidate of relatedCandidates(page)) {
    if (related.length >= maxRelated || tries >= maxRelated * 2) break;
    tries++;
    const p = await loader.loadPage(candidate).catch(notThere);
    if (p && p.status < 400 && p.document.wordCount > 0) related.push(p);
  }
  return { page, related };
}

function strip(href: string): string {
  try {
    const u = new URL(href);
    u.hash = '';
    return u.href;
  } catch {
    return href;
  }
}
