// What kind of page the extractor treats a page as, from what the page declares before any text
// is read: a product (og:type, a shop's URL shape, a schema.org Product), a collection (og:type
// product.group, a CollectionPage), a forum thread (forum URLs and names, forum schema types) or
// an article (og:type article, a schema.org Article). The kind decides which pruning applies:
// on a product page other products' cards go, on a forum the replies are the content.
import { type AnyNode, type Element, isElement, type ParentNode, walk } from './dom.ts';
import type { PageMetadata } from './metadata.ts';
import { ARTICLE_TYPES, COLLECTION_TYPES, FORUM_NAME, FORUM_TYPES, FORUM_URL, PRODUCT_GROUP_OG, PRODUCT_TYPES, PRODUCT_URL } from './rules.ts';

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

/** The main box is an <article> or sits in one, or holds the text the markup names as an article's body. */
export function isArticleBox(root: Element): boolean {
  for (let p: ParentNode | null = root; p && isElement(p as AnyNode); p = (p as Element).parent) if ((p as Element).name === 'article') return true;
  let body = false;
  walk(root, (n) => {
    if (body || !isElement(n)) return false;
    if (n.attribs.itemprop === 'articleBody') body = true;
    return !body;
  });
  return body;
}
