// Product pages, once the extractor treats a page as one (../page-kind.ts): what a shop puts around
// a product's description and is not it. Shoppers' reviews and carousels of other products go
// before the main box is chosen; rails and lists of other products' cards go from the main box.
import { removeNodes, type Element } from './dom.ts';
import { productExtras, textLength } from './boilerplate.ts';
import { pricesOutside, productCardLists, relatedRails, type Stats } from './main-content.ts';
import { ARTICLE_TYPES, PRODUCT_CARDS_MINOR, PRODUCT_CARDS_SHARE, PRODUCT_EXTRAS_SHARE, PRODUCT_TYPES, PRODUCT_URL } from './rules.ts';
import type { PageMetadata } from './metadata.ts';
import { hasJsonLdType, pathOf } from '../page-kind.ts';

/**
 * shopping-story-is-article: a page whose JSON-LD declares an article (a "best dishwashers of
 * 2025" roundup, a buying guide) beside the products it reviews, while neither its URL nor its
 * og:type names a product, is a story about products: the article rules apply (credits, rails,
 * price disclaimers go), not a product page's.
 */
export function isShoppingStory(meta: PageMetadata, url: string): boolean {
  return hasJsonLdType(meta, ARTICLE_TYPES) && !PRODUCT_URL.test(pathOf(url)) && !/product/i.test(meta.openGraph.type ?? '');
}

/**
 * article-at-product-url: a page that declares itself an article (og:type article and an
 * Article in JSON-LD) and declares no product, at a path only shaped like a shop's ("/p/slug-63a"
 * on a newsletter platform), is an article: a URL's shape is the weakest product signal and the
 * page's own word outweighs it. A product page that also declares a Product stays one.
 */
export function isArticleAtProductUrl(meta: PageMetadata, url: string): boolean {
  return (
    PRODUCT_URL.test(pathOf(url)) &&
    /^article$/i.test(meta.openGraph.type ?? '') &&
    hasJsonLdType(meta, ARTICLE_TYPES) &&
    !hasJsonLdType(meta, PRODUCT_TYPES)
  );
}

/**
 * Shoppers' reviews and carousels of other products are prose-rich and can outweigh a short
 * description in the choice of the main box: they go before it, unless they are most of the page.
 */
export function removeProductExtras(body: Element, bodyTextLength: number): void {
  const extras = productExtras(body);
  let extrasText = 0;
  for (const el of extras) extrasText += textLength(el);
  if (extras.length && extrasText < bodyTextLength * PRODUCT_EXTRAS_SHARE) removeNodes(extras);
}

/**
 * From a product page's main box: rails of other products titled as such ("Customers also
 * viewed"), then lists of other products' cards (a name link and a price) however titled, unless
 * the page reads as a collection: the cards are most of the box, the page says so (og:type
 * product.group, a CollectionPage), or no price stands outside cards that are a third or more of
 * the box (a category page whose og:type says product). A product shown without a price (sold
 * out, unavailable) beside a few cards is still a product.
 */
export function removeOtherProducts(root: Element, stats: Stats, collection: boolean): void {
  removeNodes(relatedRails(root, stats));
  const cards = collection ? [] : productCardLists(root, stats);
  const cardText = cards.reduce((n, el) => n + stats.textOf(el), 0);
  if (
    cards.length &&
    cardText < stats.textOf(root) * PRODUCT_CARDS_SHARE &&
    (pricesOutside(root, cards) > 0 || cardText < stats.textOf(root) * PRODUCT_CARDS_MINOR)
  )
    removeNodes(cards);
}
