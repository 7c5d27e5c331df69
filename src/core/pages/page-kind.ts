// The page's kind, one module for both places that decide it. Two decisions, each with its own
// rule, over the same declared signals (URL path, og:type, schema.org types):
//
// - The extractor's rule (isProductPage, isCollectionPage, isForumPage, declaresArticle) runs on
//   the page's metadata before any main text exists, and answers yes/no questions that decide
//   which pruning applies: on a product page other products' cards go, on a forum the replies
//   are the content, beside an article readers' comments go. It trusts declarations only (og:type,
//   JSON-LD and microdata types, shop and forum URL shapes), because a wrong "yes" removes text.
// - Content Intelligence's rule (detectPageType) runs on the extracted PageDocument and picks one
//   of eight types by votes from schema.org types, URL, the main text and the page's layout; the
//   type with the most points wins, article when nothing votes. The type decides which score
//   rules apply (a shop's product page is not told to add an author byline).
//
// What differs, and why they stay two rules: the extractor's URL shapes are narrower (a product
// is /product/x, /dp/x, /itm/x, /ip/x, /pdp/x or /p/…digit; a forum also by a host or folder named
// "forum"), its JSON-LD reading matches @type in the first 200 nodes, and it has no home, listing,
// documentation or service kind; detectPageType's URL votes are wider (/p/, /item/, localized
// shop words), it reads every JSON-LD node, and text and layout can outvote a declaration. Made
// into one rule, either the extraction of the WCXB pages or the content labels would change.
import type { PageDocument } from './document.ts';
import { countMatches } from '../../lib/text-match.ts';
import type { PageMetadata } from './extract/metadata.ts';
import { ARTICLE_TYPES, COLLECTION_TYPES, FORUM_NAME, FORUM_TYPES, FORUM_URL, PRODUCT_GROUP_OG, PRODUCT_TYPES, PRODUCT_URL } from './extract/rules.ts';
import { jsonLdTypes } from './json-ld.ts';

/** listing = search results and archives; collection = a shop's category of products. */
export type PageType = 'article' | 'product' | 'collection' | 'listing' | 'documentation' | 'service' | 'forum' | 'home';

// --- Content Intelligence's rule: one of eight types, by votes.

/**
 * The page's type, from schema.org types first, then URL and structure. Types decide which rules
 * apply: a shop's product page is not told to add an author byline, a collection is judged on
 * its ItemList, a forum thread on its posts.
 */
export function detectPageType(doc: PageDocument): { type: PageType; reason: string } {
  const t = new Set(jsonLdTypes(doc.jsonLd).map((x) => x.toLowerCase()));
  const paras = doc.blocks.filter((b) => b.kind === 'paragraph').length;
  let path = '/';
  let query = '';
  try {
    const u = new URL(doc.url);
    path = u.pathname.toLowerCase();
    query = u.search.toLowerCase();
  } catch {
    /* keep "/" */
  }
  const scores: Record<PageType, number> = { article: 0, product: 0, collection: 0, listing: 0, documentation: 0, service: 0, forum: 0, home: 0 };
  const why: Partial<Record<PageType, string>> = {};
  const vote = (type: PageType, points: number, reason: string) => {
    scores[type] += points;
    if (!why[type]) why[type] = reason;
  };
  if (t.has('searchresultspage')) vote('listing', 6, 'JSON-LD SearchResultsPage');
  if (t.has('product') || t.has('productgroup')) vote('product', 5, 'JSON-LD Product');
  if (t.has('offer') || t.has('aggregateoffer')) vote('product', 1, 'JSON-LD Offer');
  if (t.has('techarticle') || t.has('apireference')) vote('documentation', 5, 'JSON-LD TechArticle');
  if (t.has('article') || t.has('blogposting') || t.has('newsarticle') || t.has('reportagenewsarticle')) vote('article', 5, 'JSON-LD Article');
  if (t.has('service') || t.has('professionalservice') || t.has('localbusiness')) vote('service', 4, 'JSON-LD Service');
  if (t.has('qapage') || t.has('discussionforumposting')) vote('forum', 6, 'JSON-LD QAPage/DiscussionForumPosting');
  if (t.has('collectionpage') || t.has('offercatalog')) vote('collection', 5, 'JSON-LD CollectionPage');
  if (t.has('itemlist') && !t.has('article') && !t.has('blogposting')) vote('collection', 3, 'JSON-LD ItemList');
  if (path === '/' || /^\/(index\.html?|home)?\/?$/.test(path) || /^\/[a-z]{2}(-[a-z]{2})?\/?$/.test(path)) vote('home', 6, 'site root URL');
  if (/\/(search|suche|recherche|buscar|results)(\/|$)/.test(path) || /[?&](q|query|s|search|k)=/.test(query)) vote('listing', 6, 'search URL');
  if (/\/(docs?|documentation|reference|api|manual|handbook|kb|knowledge-base|help)(\/|$)/.test(path)) vote('documentation', 4, 'documentation URL');
  if (/\/(?:v\d+(?:\.\d+)*|latest|stable|current|master|main)\//.test(path) && scores.documentation > 0) vote('documentation', 2, 'versioned documentation URL');
  // A section's own front (/news, /blog, /news/technology) lists its stories; a story sits below it.
  const SECTION = /\/(blog|news|articles?|magazine|insights|ratgeber|actualites|noticias|story|stories)(\/|$)/;
  if (/\/(?:blog|news|articles|magazine|insights|stories|category|categories|topics?)(?:\/[a-z]{2,20})?\/?$/.test(path) && !/\d/.test(path) && !query) vote('listing', 4, 'section front URL');
  else if (SECTION.test(path)) vote('article', 3, 'blog/news URL');
  if (/\/(products?|p|item|dp|produkt|produit|producto)(\/|$)/.test(path)) vote('product', 3, 'product URL');
  if (/\/(collections?|category|categories|kategorie|categorie|categoria|shop|store|c)(\/|$)/.test(path) && !/\/(products?|p)\//.test(path)) vote('collection', 3, 'collection URL');
  if (/\/(tags?|archive|page\/\d+|author)(\/|$)/.test(path)) vote('listing', 3, 'archive URL');
  if (/\/(services?|solutions?|leistungen|dienstleistungen|prestations|servicios|landing|lp)(\/|$)/.test(path)) vote('service', 3, 'service URL');
  if (/\/(forum|forums|community|discussions?|questions|threads?|t|r)(\/|$)/.test(path)) vote('forum', 4, 'forum URL');
  const og = (doc.openGraph['type'] ?? '').toLowerCase();
  if (og === 'product' || og === 'og:product') vote('product', 4, 'og:type product');
  if (og === 'product.group') vote('collection', 5, 'og:type product.group');
  if (og === 'article') vote('article', 2, 'og:type article');
  const codeBlocks = doc.blocks.filter((b) => b.kind === 'code').length;
  if (codeBlocks >= 2) vote('documentation', 2, 'code blocks');
  // Headings that are links to other pages, one after another: an archive or a list of results.
  const linkTexts = new Set(doc.links.main.filter((l) => l.href.split('#')[0] !== doc.url.split('#')[0]).map((l) => l.text.trim()));
  const subheadings = doc.blocks.filter((b) => b.kind === 'heading' && b.level >= 2);
  const linkedHeadings = subheadings.filter((b) => linkTexts.has((b as { text: string }).text.trim())).length;
  // Most subheadings link away (an article's headings name its own sections).
  if (linkedHeadings >= 4 && linkedHeadings * 3 >= subheadings.length * 2) vote('listing', 4, 'headings that link to other pages');
  const text = doc.bodyText;
  const cart = /\b(add to (cart|basket|bag)|in den warenkorb|ajouter au panier|añadir al carrito|buy now|jetzt kaufen)\b/i;
  const prices = countMatches(text, /(?:[$€£]\s?\d[\d.,]*|\d[\d.,]*\s?(?:€|EUR|USD)\b)/);
  if (cart.test(text) && prices <= 3) vote('product', 3, 'add-to-cart text');
  // Many priced items and little prose: a category grid.
  if (prices >= 6 && paras <= prices) vote('collection', 3, 'many priced items');
  if (/\b(\d[\d,.]* (results|products|items|treffer|ergebnisse|résultats|resultados))\b/i.test(text) && prices >= 3) vote('collection', 2, 'result count');
  // A results page heads its list with a short line ("Search results for …", "12 results for …");
  // the same words inside a sentence ("rank higher in search results") say nothing.
  if (text.split('\n').some((l) => l.length <= 100 && /^(?:\d[\d,.]*\s+)?(?:search results|results for|suchergebnisse|résultats (?:pour|de (?:la )?recherche)|resultados (?:de|para))\b/i.test(l.trim()))) vote('listing', 3, 'search results heading');
  if (countMatches(text, /\b(reply|replies|posted by|upvotes?|quote|antworten|répondre|responder|joined|beiträge)\b/i) >= 3) vote('forum', 3, 'reply/post markers');
  if (doc.links.main.length >= 12 && paras <= doc.links.main.length / 3 && prices < 6) vote('listing', 3, 'many links, little prose');
  if (doc.dates.published && paras >= 4) vote('article', 2, 'dated prose');
  if (/\b(book a (call|demo)|contact us|get a quote|request a quote|our services|free consultation|angebot anfordern|devis|solicita)\b/i.test(text)) vote('service', 2, 'service call to action');
  // The whole page's structure (src/core/pages/extract/layout.ts), beyond the main text: the buy
  // box, priced cards, a pager, posts with authors, a docs sidebar with code, calls to action.
  const layout = doc.page?.layout;
  if (layout) {
    // An article says so in its JSON-LD or its URL: then cards, posts and calls to action beside
    // it are its rails, comments and promotions, not what the page is.
    const declared = scores.article >= 3;
    if (layout.cartButtons >= 1 && layout.cartButtons <= 2) vote('product', 4, 'add-to-cart button');
    else if (layout.prices >= 1 && layout.prices <= 3 && layout.pricedCards < 4) vote('product', 1, 'a price');
    if (layout.pricedCards >= 4) vote('collection', 4, 'cards with prices');
    // A search form and a count of results ("1–20 of 143 results") above a list: search results.
    if (layout.searchForms >= 1 && layout.cards >= 4 && /\b\d[\d,.]*\s+(?:results?|treffer|ergebnisse|résultats|resultados)\b/i.test(doc.bodyText) && !declared) vote(layout.pricedCards >= 4 ? 'collection' : 'listing', 2, 'search form with a result count');
    else if (layout.cards >= 8 && paras <= layout.cards && !declared) vote('listing', 2, 'many similar cards');
    if (layout.pagination && layout.cards >= 8 && !declared) vote(layout.pricedCards >= 4 ? 'collection' : 'listing', 1, 'pagination');
    if (layout.posts >= 3 && !declared) vote('forum', 4, 'posts with authors or times');
    if (layout.navTreeLinks >= 10 && layout.codeBlocks >= 1) vote('documentation', 4, 'sidebar navigation tree and code');
    else if (layout.codeBlocks >= 3) vote('documentation', 2, 'code blocks on the page');
    // og:type article is what many CMSs set on every page, but a landing page rarely sets it.
    if (layout.ctas >= 2 && !doc.dates.published && !declared && og !== 'article') vote('service', 3, 'calls to action, no publication date');
  }
  const order: PageType[] = ['home', 'listing', 'product', 'collection', 'documentation', 'forum', 'service', 'article'];
  let best: PageType = 'article';
  let bestScore = 0;
  for (const type of order) {
    if (scores[type] > bestScore) {
      best = type;
      bestScore = scores[type];
    }
  }
  return { type: best, reason: bestScore ? why[best]! : 'default: prose page' };
}

// --- The extractor's rule: yes/no questions on the page's metadata, before any text is read.
// Its patterns are rule tables of the extractor (extract/rules.ts: PRODUCT_URL, FORUM_URL, …).

export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** A JSON-LD item (also inside @graph) has a @type matching re. */
export function hasJsonLdType(meta: PageMetadata, re: RegExp): boolean {
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

/** The page declares itself a product (og:type or a JSON-LD Product, also inside @graph). */
export function isProductPage(meta: PageMetadata, url: string): boolean {
  if (/product|(?:^|[:.])item$/i.test(meta.openGraph.type ?? '')) return true;
  // Shop URL shapes: /product/…, /products/…, /dp/ASIN, /itm/123, /ip/…, /p/…-123.
  if (PRODUCT_URL.test(pathOf(url))) return true;
  return hasJsonLdType(meta, PRODUCT_TYPES);
}

/** The page declares itself a collection of products or a list (og:type product.group, a
 * JSON-LD CollectionPage): there other products' cards are the content. */
export function isCollectionPage(meta: PageMetadata): boolean {
  return PRODUCT_GROUP_OG.test(meta.openGraph.type ?? '') || hasJsonLdType(meta, COLLECTION_TYPES);
}

export function isForumPage(meta: PageMetadata, url: string, forumItems: number): boolean {
  if (FORUM_URL.test(pathOf(url)) || /forum/i.test(meta.openGraph.type ?? '') || forumItems > 0) return true;
  try {
    const u = new URL(url);
    if (FORUM_NAME.test(u.hostname) || u.pathname.split('/').slice(0, -1).some((seg) => FORUM_NAME.test(seg))) return true;
  } catch {
    // no URL: the other signals decide
  }
  return hasJsonLdType(meta, FORUM_TYPES);
}

/** The page says it is an article: og:type article, or a schema.org Article (JSON-LD or microdata). */
export function declaresArticle(meta: PageMetadata, articleItems: number): boolean {
  return articleItems > 0 || /^article$/i.test(meta.openGraph.type ?? '') || hasJsonLdType(meta, ARTICLE_TYPES);
}

