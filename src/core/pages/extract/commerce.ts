// Product pages, once the extractor treats a page as one (../page-kind.ts): what a shop puts around
// a product's description and is not it. Shoppers' reviews and carousels of other products go
// before the main box is chosen; rails and lists of other products' cards go from the main box.
import { isElement, removeNodes, walk, type Element } from './dom.ts';
import { productExtras, textLength } from './boilerplate.ts';
import { pricesOutside, productCardLists, relatedRails, titledBoxes, type Stats } from './main-content.ts';
import {
  ARTICLE_TYPES,
  PRODUCT_CARDS_MINOR,
  PRODUCT_CARDS_SHARE,
  PRODUCT_EXTRAS_SHARE,
  PRODUCT_TYPES,
  PRODUCT_URL,
  SHOP_TERMS_MAX_SHARE,
  SHOP_TERMS_TITLE,
  SHOP_TERMS_TITLE_MAX,
} from './rules.ts';
import type { PageMetadata } from './metadata.ts';
import type { PageLayout } from './layout.ts';
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
  removeNodes(reviewLists(body));
}

/**
 * shop-page-reviews: on a page that sells (a cart button or a price box anywhere on it) but is not
 * one product's page (removeProductExtras covers that), an article or a forum, a box of shoppers'
 * rated reviews (isReviewList: named as reviews, two rated items or more) is their opinion of the
 * products: a category's "Happy customers" carousel or a review widget under the grid is not the
 * category's content, however much prose it holds. On a page that sells nothing (a directory of
 * movers whose customers' reviews are what a reader compares) the reviews stay.
 */
export function shopPageReviews(body: Element, layout: PageLayout): Element[] {
  return layout.cartButtons > 0 || layout.prices > 0 ? reviewLists(body) : [];
}

/** The top-most review lists under root (see isReviewList). */
function reviewLists(root: Element): Element[] {
  const out: Element[] = [];
  walk(root, (n) => {
    if (!isElement(n)) return false;
    if (n !== root && isReviewList(n)) {
      out.push(n);
      return false;
    }
    return true;
  });
  return out;
}

/** Class or id token of a box of shoppers' reviews ("reviews", "product-reviews", "review-list"). */
const REVIEWS_BOX = /(?:^|[^a-z])reviews?(?:$|[^a-z])/i;
/** What marks one review: its star rating (a class, an aria-label "Rated 5 out of 5 stars", schema.org reviewRating). */
const RATING_MARK = /(?:^|[^a-z])(?:rating|stars?)(?:$|[^a-z])/i;
const RATING_LABEL = /\b(?:rated \d|\d(?:[.,]\d)? out of \d|\d(?:[.,]\d)? stars?)\b/i;
/** Fewest rated items in a box for it to be a list of reviews, not a product's own rating. */
const REVIEW_LIST_MIN = 2;

/**
 * review-list-never-spared: on a product page, a box named as reviews that holds two rated
 * reviews or more (each with its stars) is shoppers' opinions, not the product's description,
 * however much of the page's text it holds (a popular product's reviews outweigh its copy). It
 * goes unless it wraps the page's <h1>. A box named "reviews" without rated items (a product's
 * "Reviews" tab around its description, a press quote) is left to the share rule.
 */
export function isReviewList(el: Element): boolean {
  if (!REVIEWS_BOX.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''}`)) return false;
  let rated = 0;
  let h1 = false;
  walk(el, (n) => {
    if (!isElement(n) || h1) return false;
    if (n.name === 'h1') {
      h1 = true;
      return false;
    }
    const a = n.attribs;
    if (a.itemprop === 'reviewRating' || RATING_LABEL.test(a['aria-label'] ?? '') || (a.class !== undefined && RATING_MARK.test(a.class))) {
      rated++;
      return false;
    }
    return true;
  });
  return !h1 && rated >= REVIEW_LIST_MIN;
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
  // shop-terms-section (rules.ts): the shop's shipping and returns terms under their own title,
  // whatever the box is named (a class names it on some shops, see PRODUCT_EXTRAS).
  // A title alone ("Free delivery and free returns" as a line of the buy box) is a claim, not a section.
  if (!collection) {
    const terms = titledBoxes(root, stats, SHOP_TERMS_TITLE, SHOP_TERMS_MAX_SHARE, { wholeLine: true });
    removeNodes(terms.filter((box) => stats.textOf(box) > SHOP_TERMS_TITLE_MAX));
  }
  const cards = collection ? [] : productCardLists(root, stats);
  const cardText = cards.reduce((n, el) => n + stats.textOf(el), 0);
  if (
    cards.length &&
    cardText < stats.textOf(root) * PRODUCT_CARDS_SHARE &&
    (pricesOutside(root, cards) > 0 || cardText < stats.textOf(root) * PRODUCT_CARDS_MINOR)
  )
    removeNodes(cards);
}
