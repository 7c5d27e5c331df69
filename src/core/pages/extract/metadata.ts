// Page metadata read from the whole (unpruned) tree: title, description, language, canonical,
// robots, OpenGraph, JSON-LD and dates. Must run before boilerplate pruning, because the
// <head>, <time> elements in bylines and JSON-LD scripts are exactly what pruning throws away.
import { attr, isElement, isText, normalizeSpace, rawText, walk, type Element, type ParentNode } from './dom.ts';

export interface PageMetadata {
  title: string | null;
  h1: string | null;
  description: string | null;
  language: string | null;
  canonicalUrl: string | null;
  metaRobots: string | null;
  openGraph: Record<string, string>;
  jsonLd: unknown[];
  jsonLdErrors: number;
  dates: { published: string | null; modified: string | null; found: string[] };
  baseUrl: string;
  signals: PageFacts;
}

/** Whole-page facts Content Intelligence needs that the main content cannot show: every H1 (a
 * page's H1 often sits above the main block), every robots meta tag by agent (`robots`,
 * `googlebot`, `bingbot`, `gptbot`…), `data-nosnippet` regions, what says the copy needs
 * JavaScript (script count, an empty app root, a noscript "enable JavaScript" notice), and the
 * names the page gives its site (application-name, the logo's alt text, the header brand). */
export interface PageFacts {
  h1s: string[];
  /** Names of the site or its publisher shown outside the main content; absent on documents stored before. */
  siteNames?: string[];
  robotsMeta: Record<string, string>;
  nosnippetRegions: number;
  scripts: number;
  appRoot: boolean;
  noscriptNeedsJs: boolean;
}

/** Meta names that are robots directives for one crawler (or all: `robots`). */
const ROBOTS_META = /^(robots|googlebot(?:-news)?|bingbot|msnbot|gptbot|oai-searchbot|chatgpt-user|claudebot|claude-searchbot|claude-user|perplexitybot|perplexity-user|applebot|amazonbot|duckduckbot|ccbot|bytespider|meta-externalagent)$/;
const APP_ROOT_IDS = /^(root|app|__next|__nuxt|svelte|q-app|ember-app)$/i;
/** Meta names whose content is the site's name. */
const SITE_NAME_META = new Set(['application-name', 'apple-mobile-web-app-title']);
/** A class or id word of a site's logo or header brand ("logo", "site-title", "navbar-brand"). */
const BRAND_BOX = /(?:^|[\s_-])(?:logo|brand|site-?title|site-?name|wordmark)(?:$|[\s_-])/i;
/** Words around a brand in logo alt texts and home links ("Acme logo", "Back to home"). */
const BRAND_NOISE = /\b(?:logo(?:type)?|home ?page|home|go to|back to|link to|startseite|accueil|inicio)\b/gi;

const PUBLISHED_META = new Set([
  'article:published_time', 'og:published_time', 'datepublished', 'date', 'pubdate', 'publishdate',
  'publish_date', 'publication_date', 'dc.date', 'dc.date.issued', 'dcterms.date', 'dcterms.issued',
  'sailthru.date', 'parsely-pub-date', 'citation_publication_date', 'citation_date',
]);
const MODIFIED_META = new Set([
  'article:modified_time', 'og:updated_time', 'datemodified', 'last-modified', 'dc.date.modified',
  'dcterms.modified', 'lastmod',
]);

/** ISO-8601 form of a date string, or null if it does not parse as a date. */
export function toIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  // Require something date-like so that "3" or "May" do not become a date.
  if (!/\d{4}/.test(v)) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  const year = new Date(t).getUTCFullYear();
  if (year < 1990 || year > 2100) return null;
  return new Date(t).toISOString();
}

function boxWords(el: Element): string {
  return `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`;
}

const isHomeLink = (el: Element) => el.name === 'a' && /^(?:https?:\/\/[^/?#]+)?\/?(?:index\.html?)?$/i.test((attr(el, 'href') ?? '').trim());

const linksHome = (el: Element, depth = 0): boolean =>
  isHomeLink(el) || (depth < 2 && el.children.some((c) => isElement(c) && linksHome(c, depth + 1)));

/**
 * The site's name shown by its logo or brand, or null: a logo image (alt) in a link to the home
 * page, or marked as a logo inside the page header; a brand element (text) that links home
 * (`<a class="navbar-brand" href="/">`, `<p class="site-title"><a href="/">`). Logos elsewhere
 * (a wall of customer logos) name other companies; a header banner that links nowhere is a slogan.
 */
function brandOf(el: Element): string | null {
  let text: string | undefined;
  if (el.name === 'img' || el.name === 'svg') {
    let marked = BRAND_BOX.test(boxWords(el));
    let home = false;
    let p = el.parent as Element | null;
    for (let depth = 0; p && isElement(p) && depth < 3; p = p.parent as Element | null, depth++) {
      if (BRAND_BOX.test(boxWords(p))) marked = true;
      if (isHomeLink(p)) home = true;
    }
    if (!home) {
      if (!marked) return null;
      let header = false;
      for (let q = el.parent as Element | null, depth = 0; q && isElement(q) && depth < 40 && !header; q = q.parent as Element | null, depth++) header = q.name === 'header' || attr(q, 'role') === 'banner';
      if (!header) return null;
    }
    text = el.name === 'img' ? attr(el, 'alt') : attr(el, 'aria-label');
  } else {
    if (!BRAND_BOX.test(boxWords(el)) || !linksHome(el)) return null;
    text = rawText(el);
  }
  const name = normalizeSpace((text ?? '').replace(BRAND_NOISE, ' ')).replace(/^[\s|:–—·-]+|[\s|:–—·-]+$/g, '');
  // A name is a few words, not a slogan or a menu.
  return name.length >= 2 && name.length <= 40 && name.split(' ').length <= 4 && /\p{L}/u.test(name) ? name : null;
}

export function resolveUrl(href: string | undefined, base: string): string | null {
  if (!href) return null;
  const h = href.trim();
  if (!h || /^(javascript|mailto|tel|data):/i.test(h)) return null;
  try {
    return new URL(h, base).href;
  } catch {
    return null;
  }
}

function collectJsonLd(text: string, out: unknown[]): boolean {
  // CDATA wrappers and HTML comments around JSON-LD are common in CMS output.
  const cleaned = text.replace(/^\s*(<!\[CDATA\[|<!--)/, '').replace(/(\]\]>|-->)\s*$/, '').trim();
  if (!cleaned) return true;
  try {
    const parsed: unknown = JSON.parse(cleaned);
    if (Array.isArray(parsed)) out.push(...parsed);
    else out.push(parsed);
    return true;
  } catch {
    return false;
  }
}

/** Walks JSON-LD objects (including @graph and nested values) for date properties. */
function jsonLdDates(items: unknown[], published: string[], modified: string[]): void {
  const stack: unknown[] = [...items];
  let guard = 0;
  while (stack.length && guard++ < 5000) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      stack.push(...v);
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const p = toIsoDate(o.datePublished) ?? toIsoDate(o.dateCreated) ?? toIsoDate(o.uploadDate);
      if (p) published.push(p);
      const m = toIsoDate(o.dateModified);
      if (m) modified.push(m);
      for (const k of Object.keys(o)) if (typeof o[k] === 'object') stack.push(o[k]);
    }
  }
}

export function readMetadata(doc: ParentNode, url: string): PageMetadata {
  let title: string | null = null;
  let h1: string | null = null;
  let language: string | null = null;
  let baseUrl = url;
  let canonicalRaw: string | undefined;
  let metaRobots: string | null = null;
  const metaByName = new Map<string, string>();
  const openGraph: Record<string, string> = {};
  const jsonLd: unknown[] = [];
  let jsonLdErrors = 0;
  const published: string[] = [];
  const modified: string[] = [];
  const found: string[] = [];
  const facts: PageFacts = { h1s: [], siteNames: [], robotsMeta: {}, nosnippetRegions: 0, scripts: 0, appRoot: false, noscriptNeedsJs: false };
  const siteName = (name: string | null) => void (name && !facts.siteNames!.includes(name) && facts.siteNames!.length < 5 && facts.siteNames!.push(name));

  walk(doc, (n) => {
    if (!isElement(n)) return;
    const el: Element = n;
    if (el.name !== 'header' && el.name !== 'body' && el.name !== 'html') siteName(brandOf(el));
    switch (el.name) {
      case 'html': {
        const lang = attr(el, 'lang') ?? attr(el, 'xml:lang');
        if (lang && lang.trim()) language = lang.trim();
        break;
      }
      case 'title':
        if (title === null) title = normalizeSpace(rawText(el)) || null;
        return false;
      case 'h1': {
        const text = normalizeSpace(rawText(el));
        if (h1 === null) h1 = text || null;
        if (text) facts.h1s.push(text);
        break;
      }
      case 'noscript':
        if (/\b(enable|activate|turn on)\b[^.]{0,40}javascript|javascript[^.]{0,40}\b(required|needed|disabled|aktivieren|activer)/i.test(rawText(el))) facts.noscriptNeedsJs = true;
        return false;
      case 'base': {
        const b = resolveUrl(attr(el, 'href'), url);
        if (b) baseUrl = b;
        break;
      }
      case 'link': {
        const rel = (attr(el, 'rel') ?? '').toLowerCase().split(/\s+/);
        if (rel.includes('canonical') && canonicalRaw === undefined) canonicalRaw = attr(el, 'href');
        break;
      }
      case 'meta': {
        const key = (attr(el, 'property') ?? attr(el, 'name') ?? attr(el, 'itemprop') ?? attr(el, 'http-equiv') ?? '').trim().toLowerCase();
        const content = attr(el, 'content');
        if (!key || content === undefined) break;
        const value = normalizeSpace(content);
        if (key.startsWith('og:')) {
          const k = key.slice(3);
          if (!(k in openGraph)) openGraph[k] = value;
        }
        if (!metaByName.has(key)) metaByName.set(key, value);
        if (key === 'robots' && metaRobots === null) metaRobots = value;
        if (SITE_NAME_META.has(key)) siteName(value.length <= 40 ? value : null);
        if (ROBOTS_META.test(key)) facts.robotsMeta[key] = facts.robotsMeta[key] ? `${facts.robotsMeta[key]}, ${value}` : value;
        if (key === 'content-language' && !language && value) language = value;
        if (PUBLISHED_META.has(key)) {
          const d = toIsoDate(value);
          if (d) published.push(d);
        } else if (MODIFIED_META.has(key)) {
          const d = toIsoDate(value);
          if (d) modified.push(d);
        }
        break;
      }
      case 'script': {
        const type = (attr(el, 'type') ?? '').toLowerCase();
        if (!type || type.includes('javascript') || type === 'module') facts.scripts++;
        if (type.includes('ld+json')) {
          if (!collectJsonLd(rawText(el), jsonLd)) jsonLdErrors++;
        }
        return false;
      }
      case 'style':
        return false;
      case 'time': {
        const d = toIsoDate(attr(el, 'datetime') ?? rawText(el));
        if (d) {
          found.push(d);
          const ip = (attr(el, 'itemprop') ?? '').toLowerCase();
          if (ip === 'datemodified') modified.push(d);
          else if (ip === 'datepublished' || attr(el, 'pubdate') !== undefined) published.push(d);
        }
        break;
      }
      default: {
        if (attr(el, 'data-nosnippet') !== undefined) facts.nosnippetRegions++;
        if (el.name === 'div' && APP_ROOT_IDS.test(attr(el, 'id') ?? '') && !el.children.some((c) => isElement(c) || (isText(c) && c.data.trim() !== ''))) facts.appRoot = true;
        const ip = attr(el, 'itemprop');
        if (ip === 'datePublished' || ip === 'dateModified') {
          const d = toIsoDate(attr(el, 'content') ?? attr(el, 'datetime') ?? rawText(el));
          if (d) (ip === 'datePublished' ? published : modified).push(d);
        }
      }
    }
    return true;
  });

  // JSON-LD is the most deliberate statement of dates, so it wins over meta tags and <time>.
  const ldPublished: string[] = [];
  const ldModified: string[] = [];
  jsonLdDates(jsonLd, ldPublished, ldModified);
  const allPublished = [...ldPublished, ...published];
  const allModified = [...ldModified, ...modified];
  const foundSet = [...new Set([...allPublished, ...allModified, ...found])];

  const description = metaByName.get('description') || openGraph.description || metaByName.get('twitter:description') || null;
  if (!title) title = openGraph.title || null;

  return {
    title,
    h1,
    description: description || null,
    language,
    canonicalUrl: resolveUrl(canonicalRaw, baseUrl),
    metaRobots,
    openGraph,
    jsonLd,
    jsonLdErrors,
    dates: { published: allPublished[0] ?? null, modified: allModified[0] ?? null, found: foundSet },
    baseUrl,
    signals: facts,
  };
}
