// Whole-page structure that tells what kind of page this is, read from the full tree before
// boilerplate is pruned (the buy button, the pager and the docs sidebar are not main content,
// yet they are what marks a product page, a listing or a manual). Counts only: Content
// Intelligence weighs them (src/core/pages/page-kind.ts). The one thing to know: every count is
// of generic markup (form controls, rel/ARIA/class words, repeated sibling shapes), never of a site.
import { isElement, isText, walk, type Element } from './dom.ts';

export interface PageLayout {
  /** Buttons, submit inputs and links that put the item in a cart or buy it. */
  cartButtons: number;
  /** Price boxes (itemprop=price, a class word "price") and schema.org Offer microdata. */
  prices: number;
  /** Search forms (role=search, a search input, a q/s/query field). */
  searchForms: number;
  /** A pager: rel=next/prev, a box named pagination/pager, or links to page 2, 3… */
  pagination: boolean;
  /** Links at the second list level or deeper of a sidebar, table of contents or nav tree. */
  navTreeLinks: number;
  /** Code blocks (<pre>) anywhere on the page. */
  codeBlocks: number;
  /** Posts with an author or a time: forum posts, replies, answers (class words or microdata). */
  posts: number;
  /** The largest group of same-shaped sibling cards that each hold a link and a heading or image. */
  cards: number;
  /** Of that group, the cards that show a price. */
  pricedCards: number;
  /** Calls to action ("Get started", "Book a demo", "Contact us", "Get a quote"). */
  ctas: number;
}

const CART = /\b(?:add(?:ing)? to (?:cart|basket|bag|trolley)|buy (?:it )?now|in den (?:warenkorb|einkaufswagen)|jetzt kaufen|ajouter au panier|acheter(?: maintenant)?|añadir al carrito|comprar(?: ahora)?|aggiungi al carrello|in winkelwagen)\b/i;
const CTA = /^(?:get started|get a (?:quote|demo|free quote)|book (?:a|your) (?:call|demo|consultation|meeting|appointment)|request (?:a )?(?:demo|quote|consultation|proposal)|contact (?:us|sales)|talk to (?:sales|an expert|us)|schedule (?:a )?(?:call|demo|consultation)|start (?:your )?free trial|try (?:it )?(?:for )?free|sign up(?: for)? free|free consultation|get in touch|let['’]s talk|kostenlos testen|jetzt anfragen|kontakt(?:ieren sie uns)?|demander un devis|nous contacter|contáctanos|solicitar (?:demo|presupuesto))\b/i;
const BUTTON_LIKE = /btn|button|cta|add-?to-?cart|buy/i;
const PRICE_CLASS = /(?:^|\s)[\w-]*price[\w-]*(?:\s|$)/i;
const PRICE_TEXT = /[$£€¥₹]\s?\d|\d[\d.,]*\s?(?:[$£€¥₹]|(?:USD|EUR|GBP|CHF|zł|kr)\b)/;
const OFFER_ITEMTYPE = /schema\.org\/(?:Offer|AggregateOffer)\s*$/i;
const SEARCH_FIELD = /^(?:q|s|query|search|keywords?|k|term|search_query|searchterm)$/i;
const PAGER = /(?:^|[^a-z])(?:pagination|pager|paginator|page-numbers)(?:$|[^a-z])/i;
const PAGE_LINK = /[?&](?:page|p|pg|paged|start)=\d+|\/page\/\d+\/?$/i;
const TREE_BOX = /(?:^|[^a-z])(?:sidebar|side-?nav|sidenav|toc|table-of-contents|docs-?nav|doc-?nav|nav-?tree|navtree|tree|menu-?tree|book-?toc)(?:$|[^a-z])/i;
const POST_CLASS = /(?:^|\s)(?:post|message|reply|comment|answer|postbit|forum-?post|topic-?post|post-?container|message-?container|answer-?container|js-post|cooked|bbp-reply|bbp-topic)(?:\s|$)/i;
const POST_ITEMTYPE = /schema\.org\/(?:Comment|UserComments|Answer|DiscussionForumPosting|SocialMediaPosting)\s*$/i;
const AUTHOR_CLASS = /(?:^|[^a-z])(?:author|username|user-name|poster|postauthor|post-author|user-info|userinfo|member)(?:$|[^a-z])/i;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const SKIP = new Set(['script', 'style', 'template', 'svg', 'noscript']);

/** The element's text, whitespace collapsed, at most `max` characters. */
function shortText(el: Element, max = 120): string {
  let out = '';
  walk(el, (n) => {
    if (out.length > max) return false;
    if (isText(n)) out += n.data;
    return !isElement(n) || !SKIP.has(n.name);
  });
  return out.replace(/\s+/g, ' ').trim().slice(0, max);
}

/** True when an element below el passes test. Recursive without a stack array: the tree's
 * depth is capped by parseHtml (MAX_TREE_DEPTH), and this runs for many boxes of a big page. */
function has(el: Element, test: (e: Element) => boolean): boolean {
  for (const k of el.children) if (isElement(k) && !SKIP.has(k.name) && (test(k) || has(k, test))) return true;
  return false;
}
const isLink = (e: Element) => e.name === 'a';
const isTitleOrPicture = (e: Element) => HEADINGS.has(e.name) || e.name === 'img' || e.name === 'picture';
const isTimeOrAuthor = (e: Element) => e.name === 'time' || AUTHOR_CLASS.test(e.attribs.class ?? '') || AUTHOR_CLASS.test(e.attribs.itemprop ?? '');
const isSearchField = (e: Element) => e.name === 'input' && ((e.attribs.type ?? '').toLowerCase() === 'search' || SEARCH_FIELD.test(e.attribs.name ?? ''));
/** A class or id word test without building "class id" for every element. */
const named = (a: Element['attribs'], re: RegExp) => (a.class !== undefined && re.test(a.class)) || (a.id !== undefined && re.test(a.id));

function shape(el: Element): string {
  const first = /\S+/.exec(el.attribs.class ?? '');
  return first ? `${el.name}.${first[0].replace(/\d+/g, '')}` : el.name;
}

/** Reads the layout counts of a whole page (the parsed document, before any pruning). */
export function readLayout(root: Element | { children: Element['children'] }): PageLayout {
  const out: PageLayout = { cartButtons: 0, prices: 0, searchForms: 0, pagination: false, navTreeLinks: 0, codeBlocks: 0, posts: 0, cards: 0, pricedCards: 0, ctas: 0 };
  // Depth of nested lists inside a sidebar/toc box, per open box; -1 outside any.
  const walkTree = (el: Element, listDepth: number, inTree: boolean, inPrice: boolean, inPost: boolean): void => {
    for (const k of el.children) {
      if (!isElement(k) || SKIP.has(k.name)) continue;
      visit(k, listDepth, inTree, inPrice, inPost);
    }
  };
  const visit = (el: Element, listDepth: number, inTree: boolean, inPrice: boolean, inPost: boolean): void => {
    const a = el.attribs;
    const name = el.name;
    if (name === 'pre') out.codeBlocks++;
    if (!out.pagination) {
      if ((name === 'a' || name === 'link') && a.rel !== undefined && /(?:^|\s)(?:next|prev)(?:\s|$)/i.test(a.rel)) out.pagination = true;
      else if (name === 'a' && a.href && PAGE_LINK.test(a.href)) out.pagination = true;
      else if (named(a, PAGER) || (a['aria-label'] !== undefined && /pagination|pager/i.test(a['aria-label']))) out.pagination = true;
    }
    if (name === 'form' && (a.role === 'search' || has(el, isSearchField))) out.searchForms++;
    else if (a.role === 'search') out.searchForms++;
    // A link counts when it is drawn as a button (class btn/button/cta, role=button): reading every
    // link's text would cost a string per link of a big page.
    if (name === 'button' || (name === 'a' && (a.role === 'button' || named(a, BUTTON_LIKE))) || (name === 'input' && /^(?:submit|button)$/i.test(a.type ?? ''))) {
      const label = name === 'input' ? (a.value ?? '') : `${shortText(el, 60)} ${a['aria-label'] ?? ''} ${a.title ?? ''}`;
      if (CART.test(label) || /add-?to-?cart/i.test(a.name ?? '') || named(a, /add-?to-?cart/i)) out.cartButtons++;
      else if (CTA.test(label.trim())) out.ctas++;
    }
    let price = inPrice;
    if (!inPrice && (a.itemprop === 'price' || (a.itemtype && OFFER_ITEMTYPE.test(a.itemtype)) || (PRICE_CLASS.test(a.class ?? '') && PRICE_TEXT.test(shortText(el, 40))))) {
      out.prices++;
      price = true;
    }
    let post = inPost;
    if (!inPost && ((a.itemtype && POST_ITEMTYPE.test(a.itemtype)) || (a.class !== undefined && POST_CLASS.test(a.class) && has(el, isTimeOrAuthor)))) {
      out.posts++;
      post = true;
    }
    let tree = inTree || name === 'aside' || (name === 'nav' && !named(a, /header|footer/i)) || named(a, TREE_BOX);
    if (name === 'header' || name === 'footer') tree = false;
    const depth = name === 'ul' || name === 'ol' ? listDepth + 1 : listDepth;
    if (tree && name === 'a' && listDepth >= 2) out.navTreeLinks++;
    cardGroups(el);
    walkTree(el, depth, tree, price, post);
  };
  // Same-shaped children of one parent that each look like a card: a link and a heading or image.
  const cardGroups = (parent: Element): void => {
    let kids = 0;
    for (const k of parent.children) if (isElement(k) && !SKIP.has(k.name)) kids++;
    if (kids < 4 || kids <= out.cards) return;
    const groups = new Map<string, Element[]>();
    for (const k of parent.children) {
      if (!isElement(k) || SKIP.has(k.name)) continue;
      const s = shape(k);
      const g = groups.get(s);
      if (g) g.push(k);
      else groups.set(s, [k]);
    }
    for (const g of groups.values()) {
      if (g.length < 4 || g.length <= out.cards) continue;
      let cards = 0;
      let priced = 0;
      for (const k of g) {
        if (!(k.name === 'a' || has(k, isLink)) || !has(k, isTitleOrPicture)) continue;
        cards++;
        if (PRICE_TEXT.test(shortText(k, 300))) priced++;
      }
      if (cards >= 4 && cards > out.cards) {
        out.cards = cards;
        out.pricedCards = priced;
      }
    }
  };
  for (const k of root.children) if (isElement(k) && !SKIP.has(k.name)) visit(k, 0, false, false, false);
  return out;
}
