// The main-content extractor: static HTML in, PageDocument out (no JavaScript is run).
// Order matters: metadata and the page's links are read from the whole tree first, then
// boilerplate is pruned, the main subtree is chosen, and only that subtree becomes blocks.
// The one thing to know: extractPage never throws; on any failure it returns the metadata it
// has (or an empty document) so one broken page cannot fail a whole run.
import type { PageDocument, PageLink } from '../document.ts';
import { findFirst, parseHtml, removeNodes, isElement, isText, normalizeSpace, walk, type AnyNode, type Element, type ParentNode } from './dom.ts';
import { readMetadata, resolveUrl, type PageMetadata } from './metadata.ts';
import { productExtras, pruneBoilerplate, textLength, weakBoilerplate } from './boilerplate.ts';
import { linkBoxes, measure, pricesOutside, productCardLists, relatedRails, selectMain, spaceAwareLength } from './main-content.ts';
import { BlockWriter, blocksToText, SKIP_TAGS } from './blocks.ts';
import { articleExtras, pageCommentThreads } from './article-extras.ts';
import { readLayout } from './layout.ts';

/** Weak boilerplate (sidebars, related rails) inside the main subtree goes below this share of its text. */
const WEAK_SHARE = 0.5;
/** The same on product pages (reviews, carousels of other products). */
const PRODUCT_WEAK_SHARE = 0.85;
/** Lists of other products' cards go from a product page's main box below this share of it. */
const PRODUCT_CARDS_SHARE = 0.5;
/** Below this share of the box they go even when no price stands outside them. */
const PRODUCT_CARDS_MINOR = 0.35;
/** Reviews and other products' carousels go before the main box is chosen below this share of the page. */
const PRODUCT_EXTRAS_SHARE = 0.5;
/** A sidebar box (class or id token "sidebar") holding a CMS's widgets (class token "widget" or "widget_…"). */
const SIDEBAR_TOKEN = /(?:^|\s)sidebar(?:\s|$)/i;
const WIDGET_TOKEN = /(?:^|\s)(?:widget|widget_[\w-]+)(?:\s|$)/i;
function isWidgetArea(el: Element): boolean {
  if (!SIDEBAR_TOKEN.test(el.attribs.class ?? '') && !SIDEBAR_TOKEN.test(el.attribs.id ?? '')) return false;
  let widgets = 0;
  for (const child of el.children) if (isElement(child) && WIDGET_TOKEN.test(child.attribs.class ?? '')) widgets++;
  return widgets >= 1;
}

/** Below this many words of extracted text, the JSON-LD body is used when it says more. */
const LD_FALLBACK_WORDS = 50;
/** Least words of a JSON-LD body worth using. */
const LD_MIN_WORDS = 30;

/** Keys of shoppers' or critics' reviews in JSON-LD: a review's text is not the page's body. */
const LD_REVIEWS = /^reviews?$/i;
/** The longest article body, post text or description in the page's JSON-LD (not inside a review). */
function jsonLdBody(meta: PageMetadata): string | null {
  let best: string | null = null;
  const stack: unknown[] = [...meta.jsonLd];
  for (let n = 0; stack.length && n < 500; n++) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...item.slice(0, 50));
    else if (item && typeof item === 'object') {
      for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
        if ((k === 'articleBody' || k === 'text' || k === 'description') && typeof v === 'string') {
          if (!best || v.length > best.length) best = v;
        } else if (v && typeof v === 'object' && !LD_REVIEWS.test(k)) stack.push(v);
      }
    }
  }
  return best;
}

/** Class words, inside a forum post, of a quoted earlier post, the poster's signature and the
 * poster's details (join date, post count): XenForo, Invision, phpBB, vBulletin, Discourse. */
const POST_CHROME = /(?:^|[^a-z])(?:quote|ipsquote|quotecontent|signature|sig|userinfo|user-info|postprofile|message-userdetails|message-user|author-info|userdetails|user-details|postbit-user)(?:$|[^a-z])/i;
/** Forum and Q&A URL shapes and structured data: there the replies are the content. */
const FORUM_URL = /(?:^|\/)(?:forums?|threads?|topics?|t|discussions?|community|questions|post|comments|viewtopic|showthread)(?:\/|\.php|$)/i;
/** A path segment or host label that names a forum ("/travel-forum/…", "forums.example.com", "someforum.com"). */
const FORUM_NAME = /forum/i;
const FORUM_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:DiscussionForumPosting|QAPage|SocialMediaPosting|Question)$/i;
/** The same types in microdata (itemtype="https://schema.org/DiscussionForumPosting"). */
const FORUM_ITEMTYPE = /^\s*https?:\/\/schema\.org\/(?:DiscussionForumPosting|QAPage|SocialMediaPosting)\s*$/i;
/** Microdata of an article (schema.org Article and its news and blog kinds). */
const ARTICLE_ITEMTYPE = /^\s*https?:\/\/schema\.org\/(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|Report|ScholarlyArticle|TechArticle)\s*$/i;
const ARTICLE_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:Article|NewsArticle|BlogPosting|ReportageNewsArticle|AnalysisNewsArticle|OpinionNewsArticle|Report|ScholarlyArticle|TechArticle|LiveBlogPosting)$/i;
/** The page says it is an article: og:type article, or a schema.org Article (JSON-LD or microdata). */
function declaresArticle(meta: PageMetadata, articleItems: number): boolean {
  return articleItems > 0 || /^article$/i.test(meta.openGraph.type ?? '') || hasJsonLdType(meta, ARTICLE_TYPES);
}
/** The main box is an <article> or sits in one, or holds the text the markup names as an article's body. */
function isArticleBox(root: Element): boolean {
  for (let p: ParentNode | null = root; p && isElement(p as AnyNode); p = (p as Element).parent) if ((p as Element).name === 'article') return true;
  let body = false;
  walk(root, (n) => {
    if (body || !isElement(n)) return false;
    if (n.attribs.itemprop === 'articleBody') body = true;
    return !body;
  });
  return body;
}
function isForumPage(meta: PageMetadata, url: string, forumItems: number): boolean {
  if (FORUM_URL.test(pathOf(url)) || /forum/i.test(meta.openGraph.type ?? '') || forumItems > 0) return true;
  try {
    const u = new URL(url);
    if (FORUM_NAME.test(u.hostname) || u.pathname.split('/').slice(0, -1).some((seg) => FORUM_NAME.test(seg))) return true;
  } catch {
    // no URL: the other signals decide
  }
  return hasJsonLdType(meta, FORUM_TYPES);
}
/** Boxes of bare links inside the main subtree go below this share of its text. */
const LINK_SHARE = 0.2;

export { renderContentView } from '../content-view.ts';

/** Class or id of a reference list ("references", "reflist", "sources", "footnotes", "bibliography"). */
const REFERENCE_CLASS = /(?:^|[\s_-])(?:references?|reflist|sources|citations|footnotes|bibliography|quellen|einzelnachweise|fuentes|referencias|bibliographie)(?:$|[\s_-])/i;
/** A heading that opens a reference list. */
const REFERENCE_HEADING = /^(?:sources?|references?|bibliography|citations?|works cited|footnotes|notes and references|quellen|quellenangaben|einzelnachweise|literatur|sources et références|références|bibliographie|fuentes|referencias|bibliografía)\s*:?$/i;
const REFERENCE_TAGS = new Set(['section', 'div', 'aside', 'ol', 'ul', 'footer']);
/** A reference list this long is a page of its own, not an article's sources. */
const REFERENCE_MAX_CHARS = 20_000;

function firstHeadingText(el: Element): string | null {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (/^h[2-6]$/.test(c.name)) return normalizeSpace(textOf(c));
    if (c.name !== 'header') return null;
    return firstHeadingText(c);
  }
  return null;
}

function textOf(el: Element): string {
  const parts: string[] = [];
  walk(el, (n) => {
    if (isText(n)) parts.push(n.data);
    return !isElement(n) || !SKIP_TAGS.has(n.name);
  });
  return parts.join(' ');
}

/**
 * Reference lists of the page (by class/id or by a "References"/"Sources" heading as their first
 * child), with the document order of every element, read before pruning.
 */
function findReferenceLists(body: Element): { lists: Element[]; order: Map<Element, number> } {
  const lists: Element[] = [];
  const order = new Map<Element, number>();
  let i = 0;
  walk(body, (n) => {
    if (!isElement(n)) return false;
    order.set(n, i++);
    if (!REFERENCE_TAGS.has(n.name)) return true;
    const named = REFERENCE_CLASS.test(`${n.attribs.class ?? ''} ${n.attribs.id ?? ''}`);
    const heading = firstHeadingText(n);
    if (named || (heading !== null && REFERENCE_HEADING.test(heading))) {
      const length = textLength(n);
      let items = 0;
      walk(n, (m) => {
        if (isElement(m) && m.name === 'li') items++;
        return isElement(m);
      });
      if (items >= 2 && length < REFERENCE_MAX_CHARS) lists.push(n);
      // A matched box's descendants are not looked at again.
      walkOrder(n, order, () => i++);
      return false;
    }
    return true;
  });
  return { lists, order };
}

function walkOrder(root: Element, order: Map<Element, number>, next: () => number): void {
  walk(root, (n) => {
    if (!isElement(n)) return false;
    order.set(n, next());
    return true;
  });
}

/** Citation-like entries of reference lists: an item with a link to another site or a year, of some length. */
function referenceEntries(lists: Element[], baseUrl: string, pageUrl: string): { text: string; href: string | null }[] {
  const host = (u: string) => {
    try {
      return new URL(u).hostname.replace(/^www\./, '');
    } catch {
      return '';
    }
  };
  const own = host(pageUrl);
  const out: { text: string; href: string | null }[] = [];
  for (const list of lists) {
    const entries: { text: string; href: string | null; cites: boolean }[] = [];
    walk(list, (n) => {
      if (!isElement(n)) return false;
      if (n.name !== 'li') return true;
      const text = normalizeSpace(textOf(n));
      let href: string | null = null;
      walk(n, (m) => {
        if (!isElement(m)) return false;
        if (m.name === 'a' && !href) {
          const h = resolveUrl(m.attribs.href, baseUrl);
          if (h && /^https?:/i.test(h) && host(h) !== own) href = h;
        }
        return true;
      });
      entries.push({ text, href, cites: text.length >= 25 && (href !== null || /\b(1[89]|20)\d\d\b/.test(text)) });
      return false;
    });
    // A list is a reference list when most of its entries read as citations (menus do not).
    if (entries.length >= 2 && entries.filter((e) => e.cites).length * 2 >= entries.length) {
      for (const e of entries) if (e.cites) out.push({ text: e.text.slice(0, 300), href: e.href });
    }
  }
  return out;
}

/** The reference lists that come after the main content and are not part of it already. */
function referencesAfter(lists: Element[], order: Map<Element, number>, roots: Element[]): Element[] {
  if (!lists.length || !roots.length) return [];
  const inside = (el: Element, root: Element) => {
    for (let p: ParentNode | null = el; p; p = (p as Element).parent as ParentNode | null) if (p === root) return true;
    return false;
  };
  const start = Math.min(...roots.map((r) => order.get(r) ?? Infinity));
  return lists.filter((l) => (order.get(l) ?? -1) > start && !roots.some((r) => inside(l, r) || inside(r, l)));
}

function emptyDocument(url: string, meta?: PageMetadata): PageDocument {
  return {
    url,
    title: meta?.title ?? null,
    description: meta?.description ?? null,
    language: meta?.language ?? null,
    canonicalUrl: meta?.canonicalUrl ?? null,
    metaRobots: meta?.metaRobots ?? null,
    openGraph: meta?.openGraph ?? {},
    jsonLd: meta?.jsonLd ?? [],
    jsonLdErrors: meta?.jsonLdErrors ?? 0,
    dates: meta?.dates ?? { published: null, modified: null, found: [] },
    headings: [],
    blocks: [],
    links: { main: [], all: [] },
    bodyText: '',
    wordCount: 0,
    ...(meta ? { page: meta.signals } : {}),
  };
}

/** Longest link text kept (characters); a link is a label, not a passage. */
const LINK_TEXT_MAX = 300;

/**
 * A link's own text: without links nested in it (broken HTML that never closes its <a> tags
 * nests every later link in the earlier ones, and each would otherwise carry the rest of the
 * page: quadratic memory), and bounded by LINK_TEXT_MAX.
 */
function linkText(link: Element): string {
  const parts: string[] = [];
  let length = 0;
  walk(link, (k) => {
    if (length > LINK_TEXT_MAX * 2) return false;
    if (isText(k)) {
      parts.push(k.data);
      length += k.data.length;
    } else if (isElement(k) && (k.name === 'a' || k.name === 'area' || SKIP_TAGS.has(k.name))) return false;
    return true;
  });
  const text = normalizeSpace(parts.join(''));
  if (text.length <= LINK_TEXT_MAX) return text;
  // Not between the two halves of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[LINK_TEXT_MAX - 1]!) ? LINK_TEXT_MAX - 1 : LINK_TEXT_MAX;
  return text.slice(0, end).trimEnd();
}

function collectLinks(root: ParentNode, base: string): PageLink[] {
  const out: PageLink[] = [];
  walk(root, (n) => {
    if (!isElement(n)) return;
    if (SKIP_TAGS.has(n.name)) return false;
    if (n.name === 'a' || n.name === 'area') {
      const href = resolveUrl(n.attribs.href, base);
      if (href) {
        const text = linkText(n) || normalizeSpace(n.attribs['aria-label'] ?? n.attribs.title ?? '');
        out.push({ href, text, rel: n.attribs.rel ?? null });
      }
    }
    return true;
  });
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** Most words of a main text that is judged by whether it relates to the page's title. */
const UNRELATED_MAX_WORDS = 8;
/** Scripts written without spaces between words, where whole-word matching says nothing. */
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f]/u;

/** Lowercased words of three or more letters or digits. */
function titleWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
}

/**
 * True when a short main text shares no word with the page's title once the site's own name
 * (the words of its host name) is set aside. Unknown (false) without a title or in a script
 * written without spaces.
 */
function unrelatedToTitle(text: string, title: string | null, url: string): boolean {
  if (!title || UNSPACED_SCRIPT.test(title) || UNSPACED_SCRIPT.test(text)) return false;
  let host = '';
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    // no host: nothing to set aside
  }
  const site = new Set(titleWords(host.replace(/[.-]/g, ' ')));
  const inTitle = new Set(titleWords(title).filter((w) => !site.has(w)));
  if (inTitle.size === 0) return false;
  for (const w of titleWords(text)) if (!site.has(w) && inTitle.has(w)) return false;
  return true;
}

/** Runs of letters, digits and _ (as /[\p{L}\p{N}_]+/gu would match), counted without
 * materializing every word: a big page has hundreds of thousands of them. */
function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let w: boolean;
    if (c < 128) w = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    else {
      const cp = text.codePointAt(i)!;
      w = WORD_CHAR.test(String.fromCodePoint(cp));
      if (cp > 0xffff) i++;
    }
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}

const PRODUCT_URL = /^\/(?:[^/]+\/)*(?:products?|dp|itm|ip|pdp)\/[^/]+|^\/(?:[^/]+\/)*p\/[^/]*\d/i;

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** og:type of a group of products (Facebook's product.group: a shop's collection page). */
const PRODUCT_GROUP_OG = /product[.:_]?group/i;
/** JSON-LD types of a page that lists things (a category, a shop's collection, search results). */
const COLLECTION_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:CollectionPage|SearchResultsPage)$/i;
/** The page declares itself a collection of products or a list (og:type product.group, a
 * JSON-LD CollectionPage): there other products' cards are the content. */
function isCollectionPage(meta: PageMetadata): boolean {
  return PRODUCT_GROUP_OG.test(meta.openGraph.type ?? '') || hasJsonLdType(meta, COLLECTION_TYPES);
}

/** The page declares itself a product (og:type or a JSON-LD Product, also inside @graph). */
function isProductPage(meta: PageMetadata, url: string): boolean {
  if (/product|(?:^|[:.])item$/i.test(meta.openGraph.type ?? '')) return true;
  // Shop URL shapes: /product/…, /products/…, /dp/ASIN, /itm/123, /ip/…, /p/…-123.
  if (PRODUCT_URL.test(pathOf(url))) return true;
  return hasJsonLdType(meta, PRODUCT_TYPES);
}

/** A microdata item type naming a product (itemtype="https://schema.org/Product"). */
const PRODUCT_ITEMTYPE = /^\s*https?:\/\/schema\.org\/(?:Product|IndividualProduct|ProductModel)\s*$/i;

const PRODUCT_TYPES = /^(?:https?:\/\/schema\.org\/)?(?:Product|ProductGroup|IndividualProduct)$/i;

/** A JSON-LD item (also inside @graph) has a @type matching re. */
function hasJsonLdType(meta: PageMetadata, re: RegExp): boolean {
  const matches = (t: unknown): boolean => (typeof t === 'string' ? re.test(t) : Array.isArray(t) && t.some(matches));
  const stack: unknown[] = [...meta.jsonLd];
  for (let n = 0; stack.length && n < 200; n++) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...item.slice(0, 50));
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      if (matches(o['@type'])) return true;
      if (o['@graph']) stack.push(o['@graph']);
    }
  }
  return false;
}

/** "See all detailsSee all details" -> "See all details": a line that is one text twice (a
 * visually hidden copy for screen readers beside the visible one) is written once. */
function undoubleLine(line: string): string {
  const n = line.length;
  if (n < 12) return line;
  const half = n >> 1;
  if (n % 2 === 0) return line.slice(0, half) === line.slice(half) ? line.slice(0, half) : line;
  return line[half] === ' ' && line.slice(0, half) === line.slice(half + 1) ? line.slice(0, half) : line;
}

/** A block with its doubled lines written once (see undoubleLine). */
function undouble(b: PageDocument['blocks'][number]): PageDocument['blocks'][number] {
  switch (b.kind) {
    // Most blocks have no doubled line: those are kept as they are, not copied (a big page has
    // a hundred thousand blocks, and the copies would double what the document holds).
    case 'paragraph':
    case 'heading': {
      const lines = b.text.split('\n');
      let changed = false;
      for (let i = 0; i < lines.length; i++) {
        const line = undoubleLine(lines[i]!);
        if (line !== lines[i]) {
          lines[i] = line;
          changed = true;
        }
      }
      return changed ? { ...b, text: lines.join('\n') } : b;
    }
    case 'list':
      return b.items.some((item) => undoubleLine(item) !== item) ? { ...b, items: b.items.map(undoubleLine) } : b;
    default:
      return b;
  }
}

function blockKey(b: PageDocument['blocks'][number]): string {
  switch (b.kind) {
    case 'list':
      return b.items.join('\n');
    case 'table':
      return b.rows.map((r) => r.join('\t')).join('\n');
    default:
      return b.text;
  }
}

/** Drops a block that repeats an earlier one word for word: responsive layouts render the same
 * description, specs or card twice (for mobile and desktop, one hidden by CSS we do not run),
 * and a repeated label or call to action ("Add to cart", "Read more") says nothing new. */
function dedupe(blocks: PageDocument['blocks']): PageDocument['blocks'] {
  const seen = new Set<string>();
  const out: PageDocument['blocks'] = [];
  for (const b of blocks) {
    const key = blockKey(b);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(b);
  }
  return out;
}

/** Placeholder copy a theme ships with ("Lorem ipsum dolor sit amet…"), left in a template's
 * unused slide or tab: never the page's content. */
const PLACEHOLDER = /^\s*lorem ipsum\b/i;
function isPlaceholder(b: PageDocument['blocks'][number]): boolean {
  return (b.kind === 'paragraph' || b.kind === 'heading') && PLACEHOLDER.test(b.text);
}

/** A line that is a widget's state, not copy: a gallery or carousel position ("3 of 11", "Slide 2
 * of 5", "Image 4 of 8"), a loading placeholder ("Loading", "Loading…", "Loading reviews..."), a missing
 * image's note ("Image unavailable"), a zoom hint ("Click to see full view"). */
const CONTROL_LINE = /^\s*(?:\d+ of \d+|(?:hero )?(?:image|slide|photo|picture|item)s? \d+ (?:of|\/) \d+|loading(?:(?:\s+\p{L}+){0,2}\s*(?:\.{3}|…))?|click to (?:see|view) full view|image (?:not available|unavailable)\b.*)\s*$/iu;

/** A line's words, lowercased: "Free Shipping!" and "free shipping" are one line. */
function lineKey(line: string): string {
  return (line.toLowerCase().match(LINE_WORDS) ?? []).join(' ');
}
const LINE_WORDS = /[\p{L}\p{N}_]+/gu;

/**
 * On a product page, drops a line (a paragraph's line, a list item, a table row, a heading) whose
 * words repeat an earlier line's: shops render the same bit twice in different boxes (the price in
 * the sticky bar and the buy box, a spec in the highlights and the table, a tab's title and its
 * accordion twin, desktop and mobile copies of a block that differ in markup), which the
 * block-level `dedupe` misses. Not on other pages: a listing's or a manual's repeated lines
 * (field labels, steps, code) are each one's own.
 */
function dedupeLines(blocks: PageDocument['blocks']): PageDocument['blocks'] {
  const seen = new Set<string>();
  const fresh = (line: string): boolean => {
    const key = lineKey(line);
    if (!key) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const out: PageDocument['blocks'] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        if (fresh(b.text)) out.push(b);
        break;
      case 'paragraph':
      case 'quote': {
        const lines = b.text.split('\n');
        const kept = lines.filter(fresh);
        if (kept.length === lines.length) out.push(b);
        else if (kept.some((l) => lineKey(l))) out.push({ ...b, text: kept.join('\n') });
        break;
      }
      case 'list': {
        const items = b.items.filter(fresh);
        if (items.length === b.items.length) out.push(b);
        else if (items.length) out.push({ ...b, items });
        break;
      }
      case 'table': {
        const rows = b.rows.filter((r, i) => fresh(r.join(' ')) || (b.header && i === 0));
        if (rows.length === b.rows.length) out.push(b);
        else if (rows.length > (b.header ? 1 : 0)) out.push({ ...b, rows });
        break;
      }
      default:
        out.push(b);
    }
  }
  return out;
}

/**
 * A listing's controls and counters, as whole lines: "Skip to product list", "Sort by: Best
 * Match", "View:", "Showing 1–24 of 240 results", "(52 products)", "Products (52)", "1–30 of 143".
 * They report on and steer the list rather than being part of it.
 */
const LISTING_CONTROL = new RegExp(
  '^(?:skip to (?:main )?(?:content|product list|products|results)|sort(?: by\\b\\s*:?|\\s*:)(?:\\s*.{0,30})?|(?:view|display|show)\\s*:|(?:items )?per page\\s*:?|' +
    '(?:showing|displaying|viewing)\\s.{0,40}\\b(?:results?|products?|items?)\\)?|\\(?\\d[\\d,]*\\s+(?:results?|products?|items?)\\)?|' +
    '(?:products?|results?|items?)\\s*\\(\\d[\\d,]*\\)|\\d[\\d,]*\\s*[–-]\\s*\\d[\\d,]*\\s+of\\s+\\d[\\d,]*(?:\\s+(?:results?|products?|items?))?)$',
  'i',
);
/** Longest line tested against LISTING_CONTROL (characters). */
const LISTING_CONTROL_MAX = 60;

/**
 * Whole lines that are a site's chrome wherever they stand: account and cart links ("Log in",
 * "Register", "Click here to register", "My account", "Cart (2)"), call-to-action link labels
 * ("Read more", "Read full article", "Shop now", "View all") and merchandising badges ("Best
 * seller", "Sponsored", "New arrival", "Recommended for you"). Only as a whole line: "Sign in to
 * your dashboard and open Settings" is a step of a guide.
 */
const CHROME_LINE =
  /^(?:log ?in|log-in|log ?out|sign ?in|sign-in|sign ?out|register|sign ?up|create (?:an |your )?account|my account|wish ?list|my wish ?list|(?:my |view )?cart(?: \(\d+\))?|checkout|forgot (?:your )?password\??|lost your password\??|click here to (?:log-?in|register|sign ?in)|read more|read (?:the )?full (?:article|story|review)|learn more|shop now|shop all|view all|see all|see more|view more|show more|continue reading|discover more|find out more|best ?seller|sponsored|new arrivals?|recommended for you|new colou?rs?)$/iu;
/** Account and cart words that a heading may rightly be ("Sign in" in a guide's steps). */
const CHROME_ACCOUNT = /^(?:log|sign|register|create|my account|forgot|lost|checkout|click here)/iu;
const isChromeLine = (line: string, heading: boolean) => {
  const t = line.trim();
  return t.length <= 40 && CHROME_LINE.test(t) && !(heading && CHROME_ACCOUNT.test(t));
};

/**
 * The blocks without the lines that are not copy: a widget's state (CONTROL_LINE), site chrome
 * (CHROME_LINE) and, in short paragraphs and headings, a listing's controls and counters
 * (LISTING_CONTROL). One pass over the blocks; a block left without words goes.
 */
function dropJunkLines(blocks: PageDocument['blocks']): PageDocument['blocks'] {
  const isListingControl = (line: string) => line.length <= LISTING_CONTROL_MAX && LISTING_CONTROL.test(line.trim());
  const out: PageDocument['blocks'] = [];
  for (const b of blocks) {
    if (b.kind === 'heading') {
      const short = b.text.length <= LISTING_CONTROL_MAX * 4;
      const lines = b.text.split('\n');
      const kept = lines.filter((l) => !(short && isListingControl(l)) && !isChromeLine(l, true));
      if (kept.length === lines.length) out.push(b);
      else if (kept.some((l) => l.trim())) out.push({ ...b, text: kept.join('\n') });
    } else if (b.kind === 'paragraph') {
      const short = b.text.length <= LISTING_CONTROL_MAX * 4;
      const junk = (l: string) => CONTROL_LINE.test(l) || isChromeLine(l, false) || (short && isListingControl(l));
      // Most paragraphs are one line: tested as they are, without splitting.
      if (!b.text.includes('\n')) {
        if (!junk(b.text)) out.push(b);
        continue;
      }
      const lines = b.text.split('\n');
      const kept = lines.filter((l) => !junk(l));
      if (kept.length === lines.length) out.push(b);
      else if (kept.some((l) => l.trim())) out.push({ ...b, text: kept.join('\n') });
    } else if (b.kind === 'list') {
      const items = b.items.filter((i) => !CONTROL_LINE.test(i) && !isChromeLine(i, false));
      if (items.length === b.items.length) out.push(b);
      else if (items.length) out.push({ ...b, items });
    } else out.push(b);
  }
  return out;
}

/**
 * Moves what the markup puts after </body> or </html> into <body>, as browsers do: a theme that
 * closes the body early (a stray </html> in an included header) leaves the whole article after it.
 */
function adoptStrays(dom: ParentNode, body: Element): void {
  const strays: AnyNode[] = [];
  for (let child: Element = body; child.parent; ) {
    const parent = child.parent as ParentNode;
    const kids = parent.children;
    const at = kids.indexOf(child);
    for (let i = at + 1; i < kids.length; i++) if (kids[i]!.type !== 'text' || NON_SPACE.test((kids[i] as { data: string }).data)) strays.push(kids[i]!);
    if (parent === dom || !isElement(parent as AnyNode)) break;
    child = parent as Element;
  }
  if (!strays.length) return;
  removeNodes(strays);
  for (const n of strays) {
    n.parent = body;
    body.children.push(n);
  }
}
const NON_SPACE = /\S/;

/**
 * React's streamed server rendering sends each late part of the page as <div hidden id="S:n">
 * at the end of the body and a script moves it to its placeholder, a Suspense boundary's
 * <template id="B:n"> ($RC) or a plain segment's <template id="P:n"> ($RS): do the same, so the
 * part is judged where it shows (and is not dropped as hidden).
 */
function placeStreamedSegments(body: Element): void {
  const templates = new Map<string, Element>();
  const segments: Element[] = [];
  walk(body, (n) => {
    if (!isElement(n)) return false;
    const id = n.attribs.id;
    if (id && id.length < 12) {
      // B:n is a Suspense boundary's slot, P:n a placeholder segment's ($RS): both take S:n.
      if (n.name === 'template' && /^[BP]:[0-9a-z]+$/.test(id) && (id[0] === 'B' || !templates.has(id.slice(2)))) templates.set(id.slice(2), n);
      else if (n.attribs.hidden !== undefined && /^S:[0-9a-z]+$/.test(id)) segments.push(n);
    }
    return n.name !== 'template';
  });
  for (const seg of segments) {
    const slot = templates.get(seg.attribs.id!.slice(2));
    if (!slot?.parent) continue;
    removeNodes([seg]);
    const kids = slot.parent.children;
    kids[kids.indexOf(slot)] = seg;
    seg.parent = slot.parent;
    slot.parent = null;
    const { hidden: _hidden, ...rest } = seg.attribs;
    seg.attribs = rest;
  }
}

export function extractPage(html: string, url: string): PageDocument {
  let meta: PageMetadata | undefined;
  try {
    // htmlparser2 reads `<![CDATA[` in HTML as a section that swallows everything up to `]]>`;
    // browsers treat it as a bogus comment, so a stray marker must not hide the whole page.
    // (replace() copies the whole string even when nothing matches: look first.)
    const source = typeof html !== 'string' ? '' : html.includes('<![CDATA[') || html.includes(']]>') ? html.replace(/<!\[CDATA\[|\]\]>/g, '') : html;
    const dom = parseHtml(source);
    meta = readMetadata(dom, url);
    const layout = readLayout(dom);
    const all = collectLinks(dom, meta.baseUrl);
    let body: Element | null = findFirst(dom, 'body');
    if (!body) {
      body = findFirst(dom, 'html');
      if (!body) {
        // A fragment without <html>/<body>: wrap it so the rest sees one root element.
        const wrapper = parseHtml('<body></body>').children.find(isElement) as Element | undefined;
        if (!wrapper) return { ...emptyDocument(url, meta), links: { main: [], all } };
        wrapper.children = dom.children;
        for (const c of wrapper.children) c.parent = wrapper;
        body = wrapper;
      }
    }
    adoptStrays(dom, body);
    placeStreamedSegments(body);
    let bodyTextLength = 0;
    let productItems = 0;
    let forumItems = 0;
    let articleItems = 0;
    walk(body, (n) => {
      if (isText(n)) bodyTextLength += spaceAwareLength(n.data);
      else if (isElement(n)) {
        if (SKIP_TAGS.has(n.name)) return false;
        const t = n.attribs.itemtype;
        if (t !== undefined) {
          if (PRODUCT_ITEMTYPE.test(t)) productItems++;
          else if (FORUM_ITEMTYPE.test(t)) forumItems++;
          else if (ARTICLE_ITEMTYPE.test(t)) articleItems++;
        }
      }
      return true;
    });
    // Reference and source lists are looked for before pruning: a list of links at the end of an
    // article is what pruning takes for a link box, yet it is the article's evidence.
    const references = findReferenceLists(body);
    pruneBoilerplate(body, { bodyTextLength });
    // A page whose microdata holds one schema.org Product is that product's page (several are
    // a list's cards).
    const product = isProductPage(meta, url) || productItems === 1;
    const collection = isCollectionPage(meta);
    if (product) {
      // Shoppers' reviews and carousels of other products are prose-rich and can outweigh a
      // short description in the choice of the main box: on a product page they go before it,
      // unless they are most of the page.
      const extras = productExtras(body);
      let extrasText = 0;
      for (const el of extras) extrasText += textLength(el);
      if (extras.length && extrasText < bodyTextLength * PRODUCT_EXTRAS_SHARE) removeNodes(extras);
    }
    const forum = !product && isForumPage(meta, url, forumItems);
    // Readers' comments under an article can hold more prose than the article: they go before
    // the main box is chosen (on a forum the replies are the content).
    if (!product && !collection && !forum) removeNodes(pageCommentThreads(body, textLength(body)));
    const stats = measure(body);
    const article = !product && !collection && !forum && declaresArticle(meta, articleItems);
    const roots = selectMain(body, stats, { keepHeading: product, forum });
    for (const r of roots) {
      // Rails of other products ("Customers also viewed") titled as such go on product pages.
      if (product) {
        removeNodes(relatedRails(r, stats));
        // Lists of other products' cards (a name link and a price) however titled, unless the
        // page reads as a collection: the cards are most of the box, the page says so (og:type
        // product.group, a CollectionPage), or no price stands outside cards that are a third or
        // more of the box (a category page whose og:type says product). A product shown without
        // a price (sold out, unavailable) beside a few cards is still a product.
        const cards = collection ? [] : productCardLists(r, stats);
        const cardText = cards.reduce((n, el) => n + stats.textOf(el), 0);
        if (cards.length && cardText < stats.textOf(r) * PRODUCT_CARDS_SHARE && (pricesOutside(r, cards) > 0 || cardText < stats.textOf(r) * PRODUCT_CARDS_MINOR)) removeNodes(cards);
      }
      // Beside an article: the readers' comments, rails of other stories and sign-up or paywall
      // teasers (not on a forum, where the replies are the content, nor on a list of items).
      // `gone`: text of r removed by a rule that the shares after it must not count (stats are
      // of the tree before any removal).
      let gone = 0;
      if (!product && !collection && !forum) {
        const { comments, rails, teasers } = articleExtras(r, stats, { article: article || isArticleBox(r) });
        for (const box of [...comments, ...rails, ...teasers]) gone += stats.textOf(box);
        removeNodes([...comments, ...rails, ...teasers]);
      }
      // Sidebars and related rails inside the main subtree go when they are a minority of it;
      // when they are most of it, they are the page (a listing or collection).
      // A product page's own extras (reviews, shipping terms, banners) are not looked for on a
      // page that says it is a collection: there the banner holds the collection's intro.
      const weak = weakBoilerplate(r, { product: product && !collection });
      const weakText = weak.reduce((n, el) => n + stats.textOf(el), 0);
      // On a product page reviews and other products' carousels go unless they are nearly all
      // of it: the description they sit beside is short.
      if (weak.length && weakText < stats.textOf(r) * (product ? PRODUCT_WEAK_SHARE : WEAK_SHARE)) removeNodes(weak);
      else if (weak.some(isWidgetArea)) {
        // A sidebar of widgets (a CMS's widget area) is never the page, however short the page.
        const areas = weak.filter(isWidgetArea);
        gone += areas.reduce((n, el) => n + stats.textOf(el), 0);
        removeNodes(areas);
      }
      // Same rule for boxes of bare links (menus, tag lists) left inside the main subtree.
      const boxes = linkBoxes(r, stats);
      const boxText = boxes.reduce((n, el) => n + stats.textOf(el), 0);
      if (boxes.length && boxText < (stats.textOf(r) - gone) * LINK_SHARE) removeNodes(boxes);
    }
    if (forum) {
      // A reply's quote of an earlier post repeats that post (the thread already holds it);
      // signatures and poster details repeat on every post.
      const quotes: Element[] = [];
      for (const r of roots) {
        walk(r, (n) => {
          if (!isElement(n)) return false;
          if (n.attribs.class && POST_CHROME.test(n.attribs.class)) {
            quotes.push(n);
            return false;
          }
          return true;
        });
      }
      removeNodes(quotes);
    }
    // Kept beside the main content, not in it: the main text (and the content view, and WCXB's
    // ground truth) ends with the article, while Content Intelligence reads the sources.
    const referenceItems = !product && !collection && !forum ? referenceEntries(referencesAfter(references.lists, references.order, roots), meta.baseUrl, url) : [];
    const writer = new BlockWriter();
    for (const r of roots) writer.write(r);
    let blocks = dropJunkLines(dedupe(writer.blocks.map(undouble)).filter((b) => !isPlaceholder(b)));
    if (product && !collection) blocks = dedupeLines(blocks);
    const mainLinks: PageLink[] = [];
    // A loop, not push(...links): spreading tens of thousands of arguments overflows the stack.
    for (const r of roots) for (const l of collectLinks(r, meta.baseUrl)) mainLinks.push(l);
    // A page whose text is all drawn by script may still carry it in its structured data (a
    // forum post's text, a product's description): better that than next to nothing.
    let bodyText = blocksToText(blocks);
    let words = countWords(bodyText);
    if (words < LD_FALLBACK_WORDS) {
      const ld = jsonLdBody(meta);
      if (ld && countWords(ld) >= Math.max(LD_MIN_WORDS, 2 * words)) {
        // Some sites put the body's HTML there: its tags are line breaks, not words.
        for (const line of ld.replace(/<\/?[a-z][^>]*>/gi, '\n').split(/\r?\n/)) {
          const text = normalizeSpace(line);
          if (text) blocks.push({ kind: 'paragraph', text });
        }
        bodyText = blocksToText(blocks);
        words = countWords(bodyText);
      }
    }
    // A page drawn by script can leave a few words of chrome as its "main content" (the title of
    // a language menu). A text that short which shares no word with the page's title, the site's
    // own name aside, is not this page's content: the static HTML has none, and saying so is
    // truer (an AI crawler that runs no script sees none either).
    if (words > 0 && words <= UNRELATED_MAX_WORDS && unrelatedToTitle(bodyText, meta.title, url)) {
      blocks.length = 0;
      mainLinks.length = 0;
      bodyText = '';
      words = 0;
    }
    const headings: PageDocument['headings'] = [];
    for (const b of blocks) if (b.kind === 'heading') headings.push({ level: b.level, text: b.text });
    return {
      ...emptyDocument(url, meta),
      headings,
      blocks,
      links: { main: mainLinks, all },
      bodyText,
      wordCount: words,
      page: { ...meta.signals, references: referenceItems, layout },
    };
  } catch {
    return emptyDocument(url, meta);
  }
}
