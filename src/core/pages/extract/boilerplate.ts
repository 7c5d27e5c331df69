// Removes what is never main content before scoring: non-text elements, hidden elements, and
// boxes that announce themselves as boilerplate by tag (nav, aside, footer), ARIA role, or
// class/id words (cookie, share, related, sidebar…). The one thing to know: a box is spared
// when it holds most of the page's text or the page's <h1>, because a wrapper with an unlucky
// class name ("page-with-sidebar") must not take the article down with it.
import { attr, findFirst, isElement, isText, removeNodes, walk, type AnyNode, type Element } from './dom.ts';
import { SKIP_TAGS } from './blocks.ts';
import { spaceAwareLength } from './main-content.ts';
import {
  DISCLAIMER_BOX,
  DISCLAIMER_MAX_SHARE,
  SCREEN_READER_COPY,
  SCREEN_READER_COPY_MAX_WORDS,
  SIDEBAR_TOKEN,
  PRODUCT_FACTS_BOX,
  TOOLTIP_CLASS,
  TOOLTIP_MAX_TEXT,
  WIDGET_TOKEN,
} from './rules.ts';

const ALWAYS_DROP = new Set([...SKIP_TAGS].filter((t) => t !== 'img' && t !== 'picture' && t !== 'head' && t !== 'title'));
ALWAYS_DROP.add('dialog');

const BOILERPLATE_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tablist',
]);

/** Most text (characters) of a role=tablist box that is only tabs' labels. */
const TABLIST_MAX_TEXT = 300;

/** Words in class/id that mark page chrome (menus, consent layers, share bars, modals). */
const NEGATIVE = new RegExp(
  '(?:^|[^a-z])(?:nav|navbar|navigation|menu|menubar|megamenu|submenu|breadcrumbs?|footer|masthead|sidenav|' +
    'share|sharing|sharedaddy|social|socials|newsletter|subscribe|subscription|signup|sign-up|' +
    'advert|advertisement|ads|adsense|ad-slot|adunit|sponsor|sponsored|popup|pop-up|modal|overlay|skip-link|skiplink|toolbar|' +
    'comment-form|commentform|comment-respond|respond|reply-form|outbrain|taboola|print-only|screen-reader-text|sr-only|' +
    'visually-hidden|visuallyhidden|offscreen|login|signin|sign-in|searchform|search-form|search-bar|searchbar|minicart|' +
    'top-bar|topbar|utility-bar|announcement|alert-bar|site-header|page-header-nav|global-header|header)(?:$|[^a-z])',
  'i',
);
/** Words that are boilerplate whatever else the class says (consent layers, share bars). */
const STRONG_NEGATIVE =
  /(?:^|[^a-z])(?:cookie|cookies|consent|gdpr|cmpbox|onetrust|cookiebot|usercentrics|didomi|truste|newsletter|share-?buttons|social-?share|sharing|breadcrumbs?|skip-?link|screen-reader-text|sr-only|visually-hidden)(?:$|[^a-z])/i;
/**
 * Words for boxes that are boilerplate beside an article (related rails, sidebars, widgets) but
 * may be the content itself on a listing or collection page. A "disclaimer" box is the legal
 * small print under a page (terms of an offer, "not financial advice"). They are only removed from the
 * chosen main subtree when they are a minority of its text (see `weakBoilerplate`).
 */
const WEAK_NEGATIVE =
  /(?:^|[^a-z])(?:sidebar|side-bar|widget|widgets|related|relatedposts|recommend|recommended|recommendations|recirc|promo|promos|pagination|pager|tags|tagcloud|tag-cloud|trending|most-popular|mostpopular|more-stories|author-bio|authorbox|author-box|about-author|comments|comment-list|commentlist|comments-area|disqus|disqus_thread|upsell|cross-sell|you-may-also-like|also-like|disclaimers?)(?:$|[^a-z])/i;
/** A banner beside a product's description is a promotion; on other pages (a shop's collection,
 * a landing page) the banner box often carries the page's own title and intro. The buy box
 * (price, delivery options, sellers, protection plans, add to cart) is the shop's ordering widget
 * beside the description. */
const PRODUCT_WEAK = /(?:^|[^a-z])(?:banner|buy-?box|buybox)(?:$|[^a-z])/i;
/** Beside a product's own description: shoppers' reviews, rails of other products, and the
 * shop's shipping, returns, warranty and payment terms (the same on every product), and the
 * footnotes and disclaimers under a maker's feature page (test conditions, "image simulated"). Not
 * "carousel" or "slider": those name how a box is shown, and on a product page it is as often
 * the product's own gallery or feature slides (other products' carousels go by their cards, see
 * productCardLists, or their titles, see relatedRails). */
const PRODUCT_EXTRAS =
  /(?:^|[^a-z])(?:reviews?|similar|recently-viewed|recentlyviewed|shipping|delivery|returns|return-policy|warranty|financing|klarna|afterpay|affirm|payment-options|trust-badges|usp|usps|footnotes?|disclaimers?)(?:$|[^a-z])/i;
/** consent-layer-never-spared: a consent manager's layer (its purposes and vendor lists can
 * outweigh a short page) goes whatever its share of the text, unless it wraps the page's <h1>. */
const CONSENT_LAYER =
  /(?:^|[^a-z])(?:cookie-?consent|cookie-?banner|cookie-?notice|cookie-?law|consent-?(?:banner|layer|manager|sdk|modal|dialog)|gdpr|cmpbox|onetrust|ot-sdk|cookiebot|CybotCookiebot|usercentrics|didomi|truste|qc-cmp\d*|sp_message|fc-consent)(?:$|[^a-z])/i;
const POSITIVE =
  /(?:^|[^a-z])(?:content|main|article|articlebody|post-body|post-content|entry|entry-content|story|body|text|prose|markdown|doc|docs|documentation|product|description|question|answer|thread|topic)(?:$|[^a-z])/i;

/** Buttons and calls to action drawn as links ("Book now", "Add to cart"); short ones go. */
const CTA_CLASS = /(?:^|[^a-z])(?:btn|button|cta)(?:$|[^a-z])/i;
const CTA_MAX_TEXT = 60;
/** Class/id words of a byline or an item's metadata line. */
const META =
  /(?:^|[^a-z])(?:byline|bylines|entry-meta|post-meta|article-meta|card-meta|item-meta|subtext|posted-on|post-date|entry-date|dateline|timestamp)(?:$|[^a-z])/i;
const META_MAX_TEXT = 200;
const FORM_LABEL_MAX_TEXT = 100;
/** Most text (characters) of a role=status line that goes (see pruneBoilerplate). */
const STATUS_MAX_TEXT = 200;
/** A search/comment/login form holding more than this share of the page's text is kept. */
const FORM_SPARE_SHARE = 0.3;
/** A hidden box holding more than this share of the page's text is kept (see pruneBoilerplate). */
const HIDDEN_SPARE_SHARE = 0.4;
/** Least share of a hidden box's text in sentences for it to be spared as the page's text (see
 * proseShare). */
const HIDDEN_PROSE_SHARE = 0.5;
/** Fewest words of a text node that reads as a sentence. */
const SENTENCE_WORDS = 8;

/** Share of el's text in text nodes of SENTENCE_WORDS words or more (prose, not labels, values or addresses). */
function proseShare(el: Element): number {
  let prose = 0;
  let all = 0;
  walk(el, (k) => {
    if (isText(k)) {
      const n = spaceAwareLength(k.data);
      all += n;
      let words = 0;
      for (const _ of k.data.matchAll(/\S+/g)) if (++words >= SENTENCE_WORDS) break;
      if (words >= SENTENCE_WORDS) prose += n;
    } else if (isElement(k) && ALWAYS_DROP.has(k.name)) return false;
    return true;
  });
  return all ? prose / all : 0;
}

/** Whole class tokens that hide an element in common CSS frameworks (not "hidden-xs" and the like). */
const HIDDEN_CLASS = /(?:^|\s)(?:hidden|hide|d-none|is-hidden|mfp-hide|u-hidden|invisible)(?:\s|$)/i;
/** An inline display:none (sign-in dialogs, account menus, mini carts, hidden carousels). Not
 * visibility:hidden: a child may be visible inside it. */
const HIDDEN_STYLE = /(?:^|;)\s*display\s*:\s*none/i;
/** Class/id words of a collapsed section that a click opens (accordions, "read more", FAQ
 * answers): hidden by an inline style until then, but content. */
const DISCLOSURE = /collaps|accordion|expand|panel|answer|faq|read-?more|more-?text|truncat|spoiler|details|description|toggle/i;
function isDisclosure(el: Element): boolean {
  const a = el.attribs;
  return a.role === 'region' || DISCLOSURE.test(`${a.class ?? ''} ${a.id ?? ''}`) || (a.class !== undefined && /(?:^|\s)content(?:\s|$)/.test(a.class));
}
/** Names of a collapsed section's panel (narrower than DISCLOSURE: a hidden "details" or
 * "description" box is as often a player's or a dialog's). */
const COLLAPSED_PANEL = /collaps|accordion|expand|faq|answer|spoiler|disclosure/i;
/**
 * collapsed-disclosure-panel: a box with the `hidden` attribute that a click reveals in place —
 * `hidden="until-found"` (the browser's own collapsed section, found by in-page search), a box
 * whose class, id or component name says so (accordion, collapsible, FAQ answer …). Its text is
 * a guide's "What to consider", a product's details, an FAQ's answers: content a reader opens.
 * A hidden box that nothing toggles (a dialog, a template, a mobile copy) still goes.
 */
function isCollapsedPanel(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden === 'until-found') return true;
  return COLLAPSED_PANEL.test(`${a.class ?? ''} ${a.id ?? ''} ${a['data-theme-key'] ?? ''} ${a['data-testid'] ?? ''} ${a['data-component'] ?? ''}`);
}

/** Whether the element after `el` (its panel, for an accordion's header) holds some text. */
function nextHasText(el: Element): boolean {
  const parent = el.parent;
  if (!parent || !isElement(parent)) return false;
  let seen = false;
  for (const k of parent.children) {
    if (k === el) seen = true;
    else if (seen && isElement(k)) return textLength(k) > 0;
  }
  return false;
}

/** A tooltip's box: role="tooltip", a <tool-tip> element, or a class token naming one
 * (TOOLTIP_CLASS). Not the term a reader points at, which some sites class the same way: a link
 * or button, or a box that carries its tooltip in its own title attribute. */
function isTooltip(el: Element, role: string | undefined): boolean {
  if (role === 'tooltip' || el.name === 'tool-tip') return true;
  const a = el.attribs;
  if (el.name === 'a' || el.name === 'button' || a.title !== undefined) return false;
  const c = a.class;
  if (c === undefined || !/tool-?tip/i.test(c)) return false;
  return c.split(/\s+/).some((token) => TOOLTIP_CLASS.test(token));
}

/** Whole class tokens of a tab panel (Bootstrap, Foundation and most themes). */
const TAB_PANEL = /(?:^|\s)(?:tab-pane|tab-panel|tabpanel|tab-content)(?:\s|$)/i;
/**
 * Answers kept while pruneBoilerplate walks a tree it does not change until the walk ends: nested
 * boxes each ask for their subtree's text length (and whether it holds the h1), and without the
 * memo a page of thousands of nested boxes costs depth × size. The pass numbers the elements
 * (`index`, which measure() renumbers later) and keeps the answers in typed arrays: a Map per
 * element cost ~35 MB more at peak on a 10 MB page (bench:extract --memory). Recursion is safe
 * because parseHtml caps the tree's depth (MAX_TREE_DEPTH).
 */
let passMemo: { length: Int32Array; h1: Int8Array } | null = null;
type Indexed = Element & { index: number };

/** Text length (whitespace runs count as one) of a subtree, without what is never page text. */
export function textLength(el: Element): number {
  if (passMemo) return memoLength(el as Indexed, passMemo.length);
  let n = 0;
  walk(el, (k) => {
    if (isText(k)) n += spaceAwareLength(k.data);
    else if (isElement(k) && ALWAYS_DROP.has(k.name)) return false;
    return true;
  });
  return n;
}

function memoLength(el: Indexed, memo: Int32Array): number {
  const known = memo[el.index]!;
  if (known >= 0) return known;
  let n = 0;
  for (const k of el.children) {
    if (isText(k)) n += spaceAwareLength(k.data);
    else if (isElement(k) && !ALWAYS_DROP.has(k.name)) n += memoLength(k as Indexed, memo);
  }
  memo[el.index] = n;
  return n;
}

function containsH1(el: Element): boolean {
  const memo = passMemo?.h1;
  let found = false;
  if (memo) {
    const i = (el as Indexed).index;
    if (memo[i] !== -1) return memo[i] === 1;
    for (const k of el.children) if (isElement(k) && (k.name === 'h1' || containsH1(k))) found = true;
    memo[i] = found ? 1 : 0;
    return found;
  }
  walk(el, (k) => {
    if (found) return false;
    if (isElement(k) && k.name === 'h1') found = true;
    return !found;
  });
  return found;
}

export interface PruneOptions {
  /** Total text length of <body> before pruning; boxes above a share of it are spared. */
  bodyTextLength: number;
  /**
   * title-block: spare a box named as chrome that holds the page's <h1> and is mostly not links,
   * however small its share. Set on pages that are neither an article nor a forum thread: a
   * product's or category's title block ("offer-holder sticky-navbar", "landing-hero--nav",
   * "category-header") holds its description, where an article's holds only a dek and byline.
   */
  titleBlocks?: boolean;
  /**
   * product-facts-modal: the page is one product's. Its specifications, measurements, size chart
   * or nutrition facts are often drawn in a box that opens as a modal or pop-up ("specs-modal",
   * "measurements-modal", "modal-sizechart"): on a product page that box is the product's own
   * facts, not a sign-up or a promotion, and it is kept (see PRODUCT_FACTS_BOX).
   */
  product?: boolean;
}

/** Detaches boilerplate in place. Returns nothing; the tree is smaller afterwards. */
export function pruneBoilerplate(body: Element, opts: PruneOptions): void {
  const gone: AnyNode[] = [];
  let count = 0;
  (body as Indexed).index = count++;
  walk(body, (n) => {
    if (isElement(n)) (n as Indexed).index = count++;
  });
  passMemo = { length: new Int32Array(count).fill(-1), h1: new Int8Array(count).fill(-1) };
  try {
    walkForBoilerplate(body, opts, gone);
  } finally {
    passMemo = null;
  }
  removeNodes(gone);
}

function walkForBoilerplate(body: Element, opts: PruneOptions, gone: AnyNode[]): void {
  // The page's own <main> (or role=main): a page footer beside it is never the content, however
  // much legal text it holds.
  const main = findMain(body);
  const signups = signupBoxes(body);
  walk(body, (n) => {
    if (n.type === 'comment' || n.type === 'directive' || n.type === 'cdata') {
      gone.push(n);
      return false;
    }
    if (!isElement(n)) return;
    const el = n;
    const name = el.name;
    if (signups.has(el)) {
      gone.push(el);
      return false;
    }
    // heading-toggle: an accordion's header is a button inside a heading ("What to consider",
    // an FAQ's question); the button goes, its words stay as the heading's.
    if (name === 'button' && el.attribs['aria-expanded'] !== undefined && el.parent && isElement(el.parent) && HEADING_TAG.test(el.parent.name) && el.parent.name !== 'h1' && nextHasText(el.parent)) {
      el.name = 'span';
      return true;
    }
    // A form that holds much of the page is a wrapper (forum moderation forms around a whole
    // thread, ASP.NET pages), not a search or login box.
    if (ALWAYS_DROP.has(name) || (name === 'form' && isUtilityForm(el) && !(opts.bodyTextLength && textLength(el) / opts.bodyTextLength > FORM_SPARE_SHARE))) {
      gone.push(el);
      return false;
    }
    if (name === 'noscript') {
      // Small noscript boxes are tracking pixels and "please enable JavaScript" notes.
      if (textLength(el) < 200) {
        gone.push(el);
        return false;
      }
      return true;
    }
    if (name === 'html' || name === 'body' || name === 'main') return true;
    const a = el.attribs;
    // Form captions ("Select a size", "Quantity") are controls' labels, not copy.
    if ((name === 'label' || name === 'legend' || name === 'fieldset') && textLength(el) < FORM_LABEL_MAX_TEXT) {
      gone.push(el);
      return false;
    }
    // A tab panel is hidden until its tab is picked, but it is the page's content (the other
    // languages of a code sample, a product's specs tab): it stays, and what is inside is judged.
    if (a.role === 'tabpanel' || (a.class && TAB_PANEL.test(a.class))) return true;
    // collapsed-disclosure-panel: an accordion's or FAQ's answer, hidden until its toggle is
    // clicked, is content (see isCollapsedPanel).
    if (a.hidden !== undefined && isCollapsedPanel(el)) return true;
    if (
      a.hidden !== undefined ||
      a.type === 'hidden' ||
      (a.class && HIDDEN_CLASS.test(a.class)) ||
      (a.style !== undefined && HIDDEN_STYLE.test(a.style) && !isDisclosure(el))
    ) {
      // Spared when it holds most of the page: streamed server rendering (React's
      // <div hidden id="S:0">) parks the whole content in a hidden box that a script reveals.
      // hidden-data-box: a box hidden by a class alone (not by the `hidden` attribute streaming
      // uses, nor an inline style a script flips to show a list) is spared only when it holds the
      // page's <h1> or reads as prose; else it is a script's data or a closed drawer's (every
      // colour's thumbnail address, a comparison grid of the products listed above).
      const byClassOnly = a.hidden === undefined && a.type !== 'hidden' && !(a.style !== undefined && HIDDEN_STYLE.test(a.style));
      if (
        opts.bodyTextLength &&
        textLength(el) / opts.bodyTextLength > HIDDEN_SPARE_SHARE &&
        (!byClassOnly || containsH1(el) || proseShare(el) >= HIDDEN_PROSE_SHARE)
      )
        return true;
      gone.push(el);
      return false;
    }
    // Bylines, dates and vote counts ("3 points by x 2 hours ago | 5 comments") label content
    // rather than being it.
    if ((a.class || a.id) && META.test(`${a.class ?? ''} ${a.id ?? ''}`) && textLength(el) < META_MAX_TEXT) {
      gone.push(el);
      return false;
    }
    if (a.class && CTA_CLASS.test(a.class) && textLength(el) < CTA_MAX_TEXT) {
      gone.push(el);
      return false;
    }
    // Shop themes' price and card boxes that their CSS shows in one state only (see hiddenByTheme).
    if (a.class && hiddenByTheme(el, a.class)) {
      gone.push(el);
      return false;
    }
    const role = a.role?.toLowerCase();
    if (role === 'main' || role === 'article') return true;
    // tooltip-text (rules.ts TOOLTIP_CLASS): a gloss shown on hover, not the page's copy.
    if (isTooltip(el, role) && textLength(el) < TOOLTIP_MAX_TEXT && !containsH1(el)) {
      gone.push(el);
      return false;
    }
    // A status line read out to screen readers ("Loaded 52 results", "Added to cart") reports on
    // the page; it is not the page's text.
    if (role === 'status' && textLength(el) < STATUS_MAX_TEXT) {
      gone.push(el);
      return false;
    }
    let drop = false;
    let structural = false;
    if (name === 'nav' || name === 'aside' || name === 'footer' || name === 'menu') {
      drop = true;
      structural = true;
    } else if (name === 'header') {
      // A page header is boilerplate; an article's own header carries the h1 and byline.
      // A header inside an <article> is that article's (or that card's) title block.
      drop = (!containsH1(el) && !isInside(el, 'article')) || isInside(el, 'nav');
      structural = true;
    } else if (role && BOILERPLATE_ROLES.has(role)) {
      // A tab list holds the tabs' short labels; one that holds paragraphs is an accordion
      // whose panels sit inside it (FAQ answers, a product's details): its content is judged.
      if (role === 'tablist' && textLength(el) > TABLIST_MAX_TEXT) return true;
      drop = true;
      structural = true;
    } else {
      const cls = `${a.class ?? ''} ${a.id ?? ''}`;
      if (cls.length > 1) {
        if (STRONG_NEGATIVE.test(cls)) drop = true;
        // A box named only "header" inside the page's <main> heads a section there (a product's
        // title block, a tab's item-number and terms line): the site's header is outside <main>.
        // A heading so named ("header-anchor-post" on a newsletter platform's section titles) is
        // a heading wherever it stands.
        else if (
          NEGATIVE.test(cls) &&
          !POSITIVE.test(cls) &&
          !(opts.product === true && isProductFactsBox(cls)) &&
          name !== 'article' &&
          !((insideMain(el) || HEADING_TAG.test(name)) && !NEGATIVE.test(cls.replace(HEADER_WORD, ' ')))
        )
          drop = true;
      }
    }
    if (drop) {
      // Spare wrappers that hold the page: a big share of all text, or the page heading.
      const len = textLength(el);
      const share = opts.bodyTextLength ? len / opts.bodyTextLength : 0;
      // An <aside> is beside the content by definition: only spared when it is nearly all of it.
      const pageFooter = (name === 'footer' || role === 'contentinfo') && main !== null && !containsNode(el, main) && !isInside(el, 'main');
      const consent = !structural && CONSENT_LAYER.test(`${a.class ?? ''} ${a.id ?? ''}`) && !containsH1(el);
      if (
        !pageFooter &&
        !consent &&
        !(share > LINK_FARM_MIN_SHARE && isLinkFarm(el, len)) &&
        !(structural && share > LINK_FARM_MIN_SHARE && isNameCloud(el, len)) &&
        (share > (name === 'aside' ? 0.9 : structural ? 0.6 : 0.4) ||
          (!structural && name !== 'header' && containsH1(el) && (share > 0.15 || (opts.titleBlocks === true && len - h1Length(el) >= TITLE_BLOCK_MIN_TEXT && linkShare(el, len) < TITLE_BLOCK_LINK_SHARE))))
      )
        return true;
      gone.push(el);
      return false;
    }
    return true;
  });
}

/** Chrome words that only say how a box is shown (opened over the page), not what it holds. */
const OVERLAY_WORD = /(?:^|[^a-z])(?:modal|popup|pop-up|overlay)(?:$|[^a-z])/gi;

/** product-facts-modal (rules.ts PRODUCT_FACTS_BOX): a box named as a modal or pop-up that also
 * names a product's facts, and names nothing else as chrome once the modal word is set aside. */
function isProductFactsBox(cls: string): boolean {
  return PRODUCT_FACTS_BOX.test(cls) && !NEGATIVE.test(cls.replace(OVERLAY_WORD, ' '));
}

/** Least share of the page's text from which a box named as chrome is checked for being a link
 * farm or a name cloud (below it the share guard does not spare it anyway). */
const LINK_FARM_MIN_SHARE = 0.15;
/** Share of a link farm's text inside links. */
const LINK_FARM_LINK_SHARE = 0.8;
/** Fewest sentence ends per 1,000 characters of prose (about ten in running text). */
const NAME_CLOUD_SENTENCES = 2;
const SENTENCE_END = /[.!?](?:\s|$)/g;
/** Most share of a title block's text inside links (a site header with a logo <h1> is menus). */
const TITLE_BLOCK_LINK_SHARE = 0.5;

/** Least text (characters) a title block holds besides its <h1>: a description, not a dek. */
const TITLE_BLOCK_MIN_TEXT = 200;

/** Text length of the first <h1> under el. */
function h1Length(el: Element): number {
  let n = 0;
  walk(el, (k) => {
    if (n || !isElement(k)) return false;
    if (k.name === 'h1') {
      n = textLength(k);
      return false;
    }
    return !ALWAYS_DROP.has(k.name);
  });
  return n;
}

/** Share of el's text (len characters) inside links. */
function linkShare(el: Element, len: number): number {
  if (len === 0) return 0;
  let link = 0;
  walk(el, (k) => {
    if (!isElement(k)) return false;
    if (ALWAYS_DROP.has(k.name)) return false;
    if (k.name === 'a') {
      link += textLength(k);
      return false;
    }
    return true;
  });
  return link / len;
}

/**
 * link-farm-chrome: a site menu, header or footer (by tag, role or class) whose text is nearly
 * all links — a mega menu of every category, a footer of every town the shop delivers to — is
 * never spared by its share of the page: in static HTML such a box can hold most of a thin
 * page's text, yet it is the site's, not the page's. One that holds the page's <h1> is spared as
 * before (a wrapper with an unlucky name).
 */
function isLinkFarm(el: Element, len: number): boolean {
  return len > 0 && !containsH1(el) && linkShare(el, len) >= LINK_FARM_LINK_SHARE;
}

/**
 * name-cloud-chrome: a page's <footer>, <nav> or <header> (by tag or role) that holds next to no
 * sentence — every town a service reaches, every brand a shop stocks, written as plain names
 * rather than links — is not spared by its share either, unless it holds the <h1>.
 */
function isNameCloud(el: Element, len: number): boolean {
  if (len === 0 || containsH1(el)) return false;
  let ends = 0;
  walk(el, (k) => {
    if (isText(k)) ends += k.data.match(SENTENCE_END)?.length ?? 0;
    else if (isElement(k) && ALWAYS_DROP.has(k.name)) return false;
    return true;
  });
  return (ends * 1000) / len < NAME_CLOUD_SENTENCES;
}

/** Whole class tokens of a price box's two states and of a card's text-only title block. */
const PRICE_SALE = /(?:^|\s)price__sale(?:\s|$)/;
const PRICE_REGULAR = /(?:^|\s)price__regular(?:\s|$)/;
const CARD_INFO = /(?:^|\s)card__information(?:\s|$)/;
/**
 * Boxes that the markup carries in two states and the theme's CSS shows one of (Shopify's
 * Dawn theme and the many themes built on it): a price box holds a regular and a sale price and
 * shows the sale one only when it is marked on sale ("price--on-sale"); a product card with a
 * picture ("card--media") hides the title block drawn inside its picture area ("card__inner") for
 * cards without one. Written out, each card would give its name and price twice.
 */
function hiddenByTheme(el: Element, cls: string): boolean {
  const sale = PRICE_SALE.test(cls);
  if (sale || PRICE_REGULAR.test(cls)) {
    for (let p = el.parent, up = 0; p && up < 4; p = p.parent, up++) {
      if (!isElement(p)) break;
      const c = p.attribs.class;
      if (c && /(?:^|\s)price(?:\s|$)/.test(c)) return sale !== /(?:^|\s)price--on-sale(?:\s|$)/.test(c);
    }
    return false;
  }
  if (CARD_INFO.test(cls)) {
    let inner = false;
    for (let p = el.parent, up = 0; p && up < 5; p = p.parent, up++) {
      if (!isElement(p)) break;
      const c = p.attribs.class ?? '';
      if (/(?:^|\s)card__inner(?:\s|$)/.test(c)) inner = true;
      else if (/(?:^|\s)card(?:\s|$)/.test(c)) return inner && /(?:^|\s)card--media(?:\s|$)/.test(c);
    }
  }
  return false;
}

/** The first <main> or role=main element with text under root, or null. */
function findMain(root: Element): Element | null {
  let found: Element | null = null;
  walk(root, (n) => {
    if (found || !isElement(n)) return false;
    if (ALWAYS_DROP.has(n.name)) return false;
    if ((n.name === 'main' || n.attribs.role === 'main') && textLength(n) > 0) {
      found = n;
      return false;
    }
    return true;
  });
  return found;
}

function containsNode(el: Element, node: Element): boolean {
  for (let p: AnyNode | null = node; p; p = p.parent) if (p === el) return true;
  return false;
}

/** h2…h6 (an h1 is the page's title and is judged apart). */
const HEADING_TAG = /^h[2-6]$/;
/** The word "header" in a class/id ("tab-header", "item-header"), not the site's own ("site-header"). */
const HEADER_WORD = /(?<!site-|global-)header/gi;

/** True when el sits inside the page's <main> (or role=main). */
function insideMain(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (isElement(p) && (p.name === 'main' || p.attribs.role === 'main')) return true;
  return false;
}

function isInside(el: Element, tag: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (isElement(p) && p.name === tag) return true;
  return false;
}

/** Most text (characters) of the box around a sign-up form that goes with it (its pitch:
 * "Get the best stories in your inbox every morning"). */
const SIGNUP_BOX_TEXT = 400;
/** Inputs that take no typing. */
const NOT_TYPED = /^(?:hidden|submit|button|checkbox|radio|image|reset)$/i;

/**
 * Newsletter sign-ups and "subscribe to keep reading" boxes: a form whose only typed field (at
 * most one other, a name) takes an e-mail address, with no text area (a contact form has one)
 * and no password (a login), and the small box around it that pitches it.
 */
function signupBoxes(body: Element): Set<Element> {
  const out = new Set<Element>();
  walk(body, (n) => {
    if (!isElement(n)) return false;
    if (n.name !== 'form') return !ALWAYS_DROP.has(n.name) || n.name === 'form';
    let email = false;
    let typed = 0;
    let other = false;
    walk(n, (k) => {
      if (!isElement(k)) return false;
      if (k.name === 'textarea' || k.name === 'select') other = true;
      if (k.name === 'input') {
        const type = (k.attribs.type ?? 'text').toLowerCase();
        if (type === 'password') other = true;
        if (NOT_TYPED.test(type)) return false;
        typed++;
        if (type === 'email' || /e-?mail/i.test(`${k.attribs.name ?? ''} ${k.attribs.id ?? ''} ${k.attribs.placeholder ?? ''} ${k.attribs.autocomplete ?? ''}`))
          email = true;
      }
      return true;
    });
    if (!email || other || typed > 2) return false;
    let box: Element = n;
    for (let p = n.parent; p && isElement(p) && p !== body; p = p.parent) {
      if (p.name === 'main' || p.name === 'article' || p.attribs.role === 'main' || textLength(p) > SIGNUP_BOX_TEXT || containsH1(p)) break;
      box = p;
    }
    out.add(box);
    return false;
  });
  return out;
}

function isUtilityForm(form: Element): boolean {
  const sig = `${attr(form, 'class') ?? ''} ${attr(form, 'id') ?? ''} ${attr(form, 'action') ?? ''} ${attr(form, 'role') ?? ''}`;
  if (!/search|comment|login|signin|subscribe|newsletter|signup|register|cart|reply/i.test(sig)) return false;
  // form-wrapping-posts: a moderation form around a thread ("…?do=multimodComment") holds the
  // posts themselves, each an <article>: it is a wrapper, not a comment or search box.
  let posts = false;
  walk(form, (n) => {
    if (posts || !isElement(n)) return false;
    if (n.name === 'article') posts = true;
    return !posts;
  });
  return !posts;
}

/** A box named for its pager ("filtering-and-pagination") that holds more than a pager's text,
 * mostly not links, wraps the list it pages through (a pager is page-number links). */
const PAGER = /(?:^|[^a-z])(?:pagination|pager)(?:$|[^a-z])/i;
const PAGER_MAX_TEXT = 500;
const PAGER_LINK_SHARE = 0.5;
function isBigPager(el: Element, cls: string): boolean {
  if (!PAGER.test(cls)) return false;
  const rest = cls.replace(/pagination|pager/gi, ' ');
  if (WEAK_NEGATIVE.test(rest)) return false;
  let text = 0;
  let link = 0;
  walk(el, (k) => {
    if (isText(k)) text += spaceAwareLength(k.data);
    else if (isElement(k)) {
      if (ALWAYS_DROP.has(k.name)) return false;
      if (k.name === 'a') {
        // A link's text counted once, without climbing from every text node to find the link.
        const n = textLength(k);
        text += n;
        link += n;
        return false;
      }
    }
    return true;
  });
  return text > PAGER_MAX_TEXT && link < text * PAGER_LINK_SHARE;
}

/** Class/id words of a listing's facets, filters and sort bar. */
const FACETS =
  /(?:^|[^a-z])(?:facets?|facet-?(?:list|group|nav|panel)|filters?|filter-?(?:bar|panel|group|list|options|sidebar|menu|wrapper|container)|refinements?|sort-?by|sortby|sort-?bar|layered-?nav(?:igation)?)(?:$|[^a-z])/i;
/** Most text (characters) of a facets box: past this it holds the listing itself. */
const FACETS_MAX_TEXT = 3000;
function isFacetBox(el: Element, cls: string): boolean {
  return FACETS.test(cls) && textLength(el) <= FACETS_MAX_TEXT;
}

/** Top-most boxes under root whose class/id says "sidebar, related, widget…". */
export function weakBoilerplate(root: Element, opts: { product?: boolean } = {}): Element[] {
  const out: Element[] = [];
  let rootText = -1;
  walk(root, (n) => {
    if (!isElement(n)) return false;
    const cls = `${n.attribs.class ?? ''} ${n.attribs.id ?? ''}`;
    if (
      cls.length > 1 &&
      (WEAK_NEGATIVE.test(cls) || (opts.product && (PRODUCT_EXTRAS.test(cls) || PRODUCT_WEAK.test(cls))) || isFacetBox(n, cls)) &&
      !POSITIVE.test(cls) &&
      n.name !== 'article' &&
      n.name !== 'main' &&
      !isBigPager(n, cls)
    ) {
      // A box so named that holds nearly all of root is a layout wrapper ("page-with-sidebar",
      // a grid "with facets on the side"): what it names is inside it, so look there.
      if (n !== root) {
        if (rootText < 0) rootText = textLength(root);
        if (textLength(n) > WEAK_WRAPPER_SHARE * rootText) return true;
      }
      out.push(n);
      return false;
    }
    return true;
  });
  return out;
}
/** Share of the main box's text past which a weak-named box inside it is a wrapper (see weakBoilerplate). */
const WEAK_WRAPPER_SHARE = 0.9;

/** Top-most boxes under root whose class/id says "reviews, carousel, similar items…" (product pages). */
export function productExtras(root: Element): Element[] {
  const out: Element[] = [];
  walk(root, (n) => {
    if (!isElement(n)) return false;
    const cls = `${n.attribs.class ?? ''} ${n.attribs.id ?? ''}`;
    if (cls.length > 1 && PRODUCT_EXTRAS.test(cls) && !POSITIVE.test(cls) && n.name !== 'article' && n.name !== 'main') {
      out.push(n);
      return false;
    }
    return true;
  });
  return out;
}

/** A sidebar box (class or id token "sidebar") holding a CMS's widgets (class token "widget" or "widget_…"). */
export function isWidgetArea(el: Element): boolean {
  if (!SIDEBAR_TOKEN.test(el.attribs.class ?? '') && !SIDEBAR_TOKEN.test(el.attribs.id ?? '')) return false;
  let widgets = 0;
  for (const child of el.children) if (isElement(child) && WIDGET_TOKEN.test(child.attribs.class ?? '')) widgets++;
  return widgets >= 1;
}

/** disclaimer-fine-print (rules.ts DISCLAIMER_BOX): the top-most disclaimer boxes under root that
 * hold neither the page's <h1> nor DISCLAIMER_MAX_SHARE of root's text. */
export function disclaimerBoxes(root: Element): Element[] {
  const out: Element[] = [];
  let rootText = -1;
  walk(root, (n) => {
    if (!isElement(n)) return false;
    const a = n.attribs;
    if (n === root || (a.class === undefined && a.id === undefined) || !DISCLAIMER_BOX.test(`${a.class ?? ''} ${a.id ?? ''}`)) return true;
    if (rootText < 0) rootText = textLength(root);
    if (textLength(n) < DISCLAIMER_MAX_SHARE * rootText && !findFirst(n, 'h1')) out.push(n);
    return false;
  });
  return out;
}

/**
 * screen-reader-copy (rules.ts SCREEN_READER_COPY): inside the chosen main boxes, the elements
 * whose class names them as written for screen readers only, of a few words (a label, a price)
 * and without the page's <h1>: a second copy of what the page draws beside them.
 */
export function screenReaderCopies(roots: Element[]): Element[] {
  const out: Element[] = [];
  for (const root of roots)
    walk(root, (n) => {
      if (!isElement(n)) return false;
      const cls = n.attribs.class;
      if (n !== root && cls !== undefined && SCREEN_READER_COPY.test(cls) && fewWords(n, SCREEN_READER_COPY_MAX_WORDS)) {
        let h1 = false;
        walk(n, (k) => {
          if (isElement(k) && k.name === 'h1') h1 = true;
          return !h1;
        });
        if (!h1) {
          out.push(n);
          return false;
        }
      }
      return true;
    });
  return out;
}

/** True when el's text has at most max words (stops counting past it). */
function fewWords(el: Element, max: number): boolean {
  let words = 0;
  walk(el, (n) => {
    if (words > max) return false;
    if (isText(n)) words += n.data.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    return !(isElement(n) && SKIP_TAGS.has(n.name));
  });
  return words <= max;
}
