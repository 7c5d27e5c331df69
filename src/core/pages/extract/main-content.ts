// Chooses the main-content subtree of a pruned page. Text is split into runs between block
// boundaries; each run is booked as prose (good), link list (bad) or short label (short) on its
// block, and the subtree with the most prose net of the rest wins; semantic containers (<main>,
// <article>, itemprop=articleBody) get a small bonus; the winner is then narrowed to a child
// that holds nearly all of its prose (on product pages, never past the <h1>).
// The one thing to know: all text statistics are computed once, bottom-up, in `measure`, into
// typed arrays indexed by element number (pre-order), so scoring stays linear in the size of the
// page and a multi-megabyte page costs a few bytes per element, not an object per element.
import { findFirst, isElement, isText, type AnyNode, type Element } from './dom.ts';
import { BLOCK_TAGS, SKIP_TAGS } from './blocks.ts';
import { LIST_DESCRIPTION, LIST_DESCRIPTION_MAX_TEXT, LIST_DESCRIPTION_MIN_PROSE } from './rules.ts';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Element number, stored on the node by `measure` (parseHtml gives every element the field). */
type Numbered = Element & { index?: number };

/** Per-element text statistics; arrays are indexed by `of(el)` (pre-order number). */
export class Stats {
  /** Elements in pre-order (last child first): a parent always comes before its descendants. */
  readonly els: Element[];
  readonly parent: Int32Array; // parent's number, -1 for the root
  readonly text: Int32Array; // characters of text (whitespace runs count as one)
  readonly link: Int32Array; // characters of text inside <a>
  readonly anchors: Int32Array; // <a> elements below (including self)
  readonly good: Int32Array; // characters in prose-like runs of text (or headings) below
  readonly bad: Int32Array; // characters in link-dominated runs below
  readonly short: Int32Array; // characters in short runs that are not links (labels, cells)

  constructor(els: Element[], parent: Int32Array) {
    const n = els.length;
    this.els = els;
    this.parent = parent;
    this.text = new Int32Array(n);
    this.link = new Int32Array(n);
    this.anchors = new Int32Array(n);
    this.good = new Int32Array(n);
    this.bad = new Int32Array(n);
    this.short = new Int32Array(n);
  }

  /** The element's number, or -1 when it was not measured (skipped or outside the root). */
  of(el: Element): number {
    const i = (el as Numbered).index;
    return i !== undefined && i >= 0 && i < this.els.length && this.els[i] === el ? i : -1;
  }

  /** Prose-like text of an element (see classifyRuns), 0 when it was not measured. */
  goodOf(el: Element): number {
    const i = this.of(el);
    return i < 0 ? 0 : this.good[i]!;
  }

  /** Text length of an element, 0 when it was not measured. */
  textOf(el: Element): number {
    const i = this.of(el);
    return i < 0 ? 0 : this.text[i]!;
  }
}

export function spaceAwareLength(s: string): number {
  // Length with whitespace runs collapsed, without allocating a new string.
  let n = 0;
  let ws = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isWs = c === 32 || c === 10 || c === 9 || c === 13 || c === 160 || c === 12;
    if (isWs) {
      if (!ws) n++;
      ws = true;
    } else {
      n++;
      ws = false;
    }
  }
  return n;
}

/** Bottom-up text statistics for every element under root. */
export function measure(root: Element): Stats {
  const els: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    (el as Numbered).index = els.length;
    els.push(el);
    // Children are pushed first to last, so they are numbered last to first; the reverse
    // order (which every bottom-up pass uses) is then document order, children before parents.
    for (const c of el.children) if (isElement(c) && !SKIP_TAGS.has(c.name)) stack.push(c);
  }
  // A parent is numbered before its children, so its number is already on the node.
  const parents = new Int32Array(els.length);
  parents[0] = -1;
  for (let i = 1; i < els.length; i++) parents[i] = (els[i]!.parent as Numbered).index!;
  const stats = new Stats(els, parents);
  const { text, link, anchors, parent } = stats;
  // Reverse pre-order visits children before parents.
  for (let i = els.length - 1; i >= 0; i--) {
    const el = els[i]!;
    let own = 0;
    for (const k of el.children) if (isText(k)) own += spaceAwareLength(k.data);
    text[i] += own;
    if (el.name === 'a') {
      link[i] = text[i]!;
      anchors[i] += 1;
    }
    const p = parent[i]!;
    if (p >= 0) {
      text[p] += text[i]!;
      link[p] += link[i]!;
      anchors[p] += anchors[i]!;
    }
  }
  classifyRuns(root, stats);
  return stats;
}

const INLINE_BREAK = new Set(['br']);
/** Same whitespace as String.prototype.trim, tested without allocating a trimmed copy. */
const NON_SPACE = /\S/;
const siblingShapes = new WeakMap<Element, Map<string, number>>();

/** Tag and first class word, digits dropped: cards of one list share it even when the rest of
 * their classes name each item (WordPress's "post-123 category-dinner …"). */
function shape(el: Element): string {
  const cls = el.attribs.class;
  if (!cls) return el.name;
  const first = /\S+/.exec(cls);
  return first ? `${el.name}.${first[0].replace(/\d+/g, '')}` : el.name;
}

/** Levels above a run's block that may hold the repeated item (cards nest their text deep). */
const ITEM_DEPTH = 16;
/** Past the three nearest levels, a repeated item must be card-sized to count. */
const CARD_MAX_TEXT = 2000;

/**
 * True when el or one of its nearest ancestors has 4+ siblings of the same shape: within three
 * levels any such box (list items, rows); further up only a card-sized one (product tiles,
 * result cards whose title link sits deep inside wrappers).
 */
function isRepeatedItem(el: Element, stats: Stats): boolean {
  let cur: Element | null = el;
  for (let depth = 0; cur && depth < ITEM_DEPTH; depth++) {
    const parent: AnyNode | null = cur.parent;
    if (!parent || !isElement(parent)) return false;
    let counts = siblingShapes.get(parent);
    if (!counts) {
      counts = new Map();
      for (const k of parent.children) if (isElement(k)) counts.set(shape(k), (counts.get(shape(k)) ?? 0) + 1);
      siblingShapes.set(parent, counts);
    }
    if ((counts.get(shape(cur)) ?? 0) >= 4 && (depth < 4 || stats.textOf(cur) <= CARD_MAX_TEXT)) return true;
    cur = parent;
  }
  return false;
}

/**
 * Splits the text into runs (text between two block boundaries) and books each run's characters
 * as good (prose: 25+ characters of non-link text, mostly not links; or a heading) or bad (menus,
 * labels, link lists), on the run's nearest block ancestor; then sums both up the tree.
 */
function classifyRuns(root: Element, stats: Stats): void {
  const { good, bad, short, parent } = stats;
  let runText = 0;
  let runLink = 0;
  let runOwner = -1;
  let runHeading = false;
  const finish = () => {
    if (runOwner >= 0 && runText > 0) {
      const linky = runLink >= runText * 0.5;
      const prose = !linky && (runHeading || runText - runLink >= 25);
      // A link in one of many same-shaped siblings (cards, result rows) is a listing item,
      // which is content; a lone link run is navigation.
      const item = linky && isRepeatedItem(stats.els[runOwner]!, stats);
      const m = prose || item ? good : linky ? bad : short;
      m[runOwner] += runText;
    }
    runText = 0;
    runLink = 0;
    runOwner = -1;
    runHeading = false;
  };
  // Depth-first walk with a stack as deep as the tree (not one frame per node): on a
  // multi-megabyte page a frame object per node would cost more than the tree itself.
  const els: Element[] = [root];
  const idx: number[] = [0];
  const blocks: number[] = [stats.of(root)];
  const links: boolean[] = [false];
  const heads: boolean[] = [false];
  while (els.length) {
    const top = els.length - 1;
    const el = els[top]!;
    const i = idx[top]!;
    if (i >= el.children.length) {
      els.pop();
      idx.pop();
      blocks.pop();
      links.pop();
      heads.pop();
      if (BLOCK_TAGS.has(el.name) || HEADINGS.has(el.name)) finish();
      continue;
    }
    idx[top] = i + 1;
    const node = el.children[i]!;
    if (isText(node)) {
      const l = spaceAwareLength(node.data);
      if (l === 0 || !NON_SPACE.test(node.data)) continue;
      if (runOwner < 0) runOwner = blocks[top]!;
      runText += l;
      if (links[top]) runLink += l;
      if (heads[top]) runHeading = true;
      continue;
    }
    if (!isElement(node) || SKIP_TAGS.has(node.name)) continue;
    const name = node.name;
    if (INLINE_BREAK.has(name)) continue;
    const block = BLOCK_TAGS.has(name) || HEADINGS.has(name);
    if (block) finish();
    els.push(node);
    idx.push(0);
    blocks.push(block ? stats.of(node) : blocks[top]!);
    links.push(links[top]! || name === 'a');
    heads.push(heads[top]! || HEADINGS.has(name));
  }
  finish();
  // Sum bottom-up: reverse pre-order visits children before parents.
  for (let i = stats.els.length - 1; i > 0; i--) {
    const p = parent[i]!;
    if (p < 0) continue;
    good[p] += good[i]!;
    bad[p] += bad[i]!;
    short[p] += short[i]!;
  }
}

/** How much a character of link-list text lowers a subtree's value (prose counts 1). */
const BAD_WEIGHT = 0.5;
/** How much a character of short non-link text (labels, cells) lowers it. */
const SHORT_WEIGHT = 0.1;
/** <main>, <article> and articleBody boxes win ties with their wrappers. */
const SEMANTIC_BONUS = 1.1;
/** The page's <main>, or a box named as the article's body, inside the winner replaces it when
 * worth this share of the winner's value. */
const MAIN_SHARE = 0.5;
/** A child holding this share of the chosen box's prose replaces it (see `selectMain`). */
const TIGHTEN_SHARE = 0.85;
/** A chosen box of under this many characters inside the page's only <main> of under
 * THIN_MAIN_TEXT characters, under THIN_LINK_SHARE of them links, widens to the <main>. */
const THIN_TEXT = 200;
const THIN_MAIN_TEXT = 600;
const THIN_LINK_SHARE = 0.3;

/** Characters of text inside <pre> blocks, per element (bottom-up, like `measure`). */
function codeText(stats: Stats): Int32Array {
  const { els, parent, text } = stats;
  const code = new Int32Array(els.length);
  for (let i = els.length - 1; i >= 0; i--) {
    if (els[i]!.name === 'pre') code[i] = text[i]!;
    const p = parent[i]!;
    if (p >= 0) code[p] += code[i]!;
  }
  return code;
}

function isSemantic(el: Element): boolean {
  const a = el.attribs;
  return (
    el.name === 'main' ||
    el.name === 'article' ||
    a.role === 'main' ||
    a.itemprop === 'articleBody' ||
    a.itemprop === 'mainContentOfPage' ||
    a.itemprop === 'text'
  );
}

/**
 * The subtrees that make up the main content, in document order. keepHeading: do not narrow
 * the chosen box to a child that leaves the page's <h1> out (set for product pages); forum: the
 * replies are content, so narrowing may enter a comment section.
 */
export function selectMain(body: Element, stats: Stats, opts: { keepHeading?: boolean; forum?: boolean } = {}): Element[] {
  const b = stats.of(body);
  if (b < 0 || stats.text[b] === 0) return [body];
  // The subtree with the most prose net of boilerplate-like text: adding a sibling post or
  // section raises the value, adding a link rail or menu lowers it.
  let best = b;
  let bestValue = -Infinity;
  const { good, bad, short, els } = stats;
  // Reverse numbering is document order with children before parents: among equal values the
  // earlier box wins, and an equal-valued ancestor replaces its descendant.
  for (let i = els.length - 1; i >= 0; i--) {
    let v = good[i]! - BAD_WEIGHT * bad[i]! - SHORT_WEIGHT * short[i]!;
    if (isSemantic(els[i]!)) v *= SEMANTIC_BONUS;
    if (v > bestValue || (v === bestValue && isAncestor(els[best]!, els[i]!))) {
      bestValue = v;
      best = i;
    }
  }
  // The page's own <main> (one only) inside the winner holds the content: what the winner adds
  // around it is chrome that reads as prose (sign-in dialogs, promos, site blurbs in the footer).
  const mainBox = uniqueMain(els);
  if (mainBox >= 0 && mainBox !== best && isAncestor(els[mainBox]!, els[best]!)) {
    const v = good[mainBox]! - BAD_WEIGHT * bad[mainBox]! - SHORT_WEIGHT * short[mainBox]!;
    if (v * SEMANTIC_BONUS >= MAIN_SHARE * bestValue) {
      best = mainBox;
      bestValue = v * SEMANTIC_BONUS;
    }
  }
  // Likewise a box the markup names as the article's body ("entry-content", "post-body",
  // itemprop=articleBody) inside the winner: what is around it is the page's, not the article's
  // (not on forums, where the first post's body is one of many).
  if (!opts.forum) {
    const cut = MAIN_SHARE * bestValue;
    let bodyBox = -1;
    let bodyValue = -Infinity;
    walkNumbered(els[best]!, stats, (i) => {
      if (!isArticleBody(els[i]!)) return true;
      const v = good[i]! - BAD_WEIGHT * bad[i]! - SHORT_WEIGHT * short[i]!;
      if (v > bodyValue) {
        bodyValue = v;
        bodyBox = i;
      }
      return false;
    });
    if (bodyBox >= 0 && bodyBox !== best && bodyValue * SEMANTIC_BONUS >= cut) {
      best = bodyBox;
      bestValue = bodyValue * SEMANTIC_BONUS;
    }
  }
  // Nothing reads as prose (link lists such as a news aggregator's front page): keep the
  // whole pruned body rather than an arbitrary empty box.
  if (bestValue <= 0 || stats.text[best] === 0) return [body];
  // Tighten: a wrapper whose prose is nearly all inside one child adds only its leftovers
  // (hero banners, calls to action, widgets next to the content), so that child is the content.
  const heading = opts.keepHeading ? findFirst(els[best]!, 'h1') : null;
  const code = codeText(stats);
  for (;;) {
    let next = -1;
    // code-block-not-main: a long log or listing in one post (or one section) is not most of
    // the page's prose; shares are taken without the text of code blocks when prose remains.
    const bestCode = code[best]!;
    const noCode = good[best]! - bestCode > 0;
    for (const k of els[best]!.children) {
      if (!isElement(k)) continue;
      const i = stats.of(k);
      if (i < 0) continue;
      const held = noCode ? good[i]! - code[i]! >= TIGHTEN_SHARE * (good[best]! - bestCode) : good[i]! >= TIGHTEN_SHARE * good[best]!;
      // Never into a comment section (but on a forum): prose under an article can outweigh it.
      if (held && good[i]! - BAD_WEIGHT * bad[i]! - SHORT_WEIGHT * short[i]! > 0 && (opts.forum || !isCommentSection(k))) {
        next = i;
        break;
      }
    }
    // On a product page never narrow past the <h1>: the name and price sit beside the
    // description. (On articles the title is reported separately and narrowing past it helps.)
    if (next < 0 || (heading && !isAncestor(heading, els[next]!))) break;
    best = next;
  }
  // A thin page: when the chosen box is small and sits in the page's only <main>, which holds
  // little more and few links, the <main> is the content. Its short lines (a one-line
  // description, a price) count for little in the choice above, so a lone heading won.
  if (
    mainBox >= 0 &&
    mainBox !== best &&
    stats.text[best]! < THIN_TEXT &&
    isAncestor(els[best]!, els[mainBox]!) &&
    stats.text[mainBox]! < THIN_MAIN_TEXT &&
    stats.link[mainBox]! < THIN_LINK_SHARE * stats.text[mainBox]!
  ) {
    best = mainBox;
  }
  // On a product page the boxes the markup names as the description and specs, when they hold
  // most of the chosen box's prose: around them are the buy box, shipping and returns notes,
  // seller blurbs and widgets that read as prose.
  if (opts.keepHeading) {
    const parts = describedParts(els[best]!, stats);
    if (parts.length) return parts;
  }
  return [els[best]!];
}

/** Class/id naming a product's description, details, specs, highlights, ingredients or materials box. */
const DESCRIPTION =
  /(?:^|[^a-z])(?:(?:product-?|item-?|tab-?)?(?:description|desc|details|specs|specifications|specification|features|overview|highlights|ingredients|materials|dimensions|tech-?specs|feature-?bullets|attributes|characteristics|about-?(?:this-?)?(?:item|product))(?:-?content|-?panel|-?text|-?body|-?wrapper|-?container)?)(?:$|[^a-z])/i;
/** Class/id words of a product page's other sections, also when named as details ("details-section faq"). */
const NOT_DESCRIPTION = /(?:^|[^a-z])(?:faqs?|reviews?|ratings?|questions|shipping|delivery|returns|warranty)(?:$|[^a-z])/i;
/** Least prose (characters) the description boxes must hold together, and least share of the
 * chosen box's prose. */
const DESCRIPTION_MIN = 200;
const DESCRIPTION_SHARE = 0.5;
/** Least text outside them for the narrowing to be worth it (a title and a price stay). */
const DESCRIPTION_REST = 100;

/**
 * Top-most boxes under root named as description/details/specs, in document order; none when
 * they hold too little of root's prose (a short blurb beside a long unlabelled description) or
 * all but a title and a price (nothing to gain). Forms and <details> disclosures (shipping, returns) are
 * not descriptions, and a name carried by 3+ boxes marks cards or review entries.
 */
function describedParts(root: Element, stats: Stats): Element[] {
  const found: Element[] = [];
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    const a = el.attribs;
    if (el.name === 'form') return false;
    const name = a.class || a.id ? `${a.class ?? ''} ${a.id ?? ''}` : '';
    if (el !== root && el.name !== 'details' && name && DESCRIPTION.test(name) && stats.good[i]! > 0) {
      // A details section whose other name says FAQ, reviews or shipping is that, not the description.
      if (!NOT_DESCRIPTION.test(name)) found.push(el);
      return false;
    }
    return true;
  });
  const shapes = new Map<string, number>();
  for (const e of found) shapes.set(shape(e), (shapes.get(shape(e)) ?? 0) + 1);
  const out = found.filter((e) => shapes.get(shape(e))! < 3);
  const total = out.reduce((n, e) => n + stats.goodOf(e), 0);
  if (
    total < DESCRIPTION_MIN ||
    total < DESCRIPTION_SHARE * stats.goodOf(root) ||
    stats.textOf(root) - out.reduce((n, e) => n + stats.textOf(e), 0) < DESCRIPTION_REST
  )
    return [];
  // Elements are numbered last child first: a higher number is earlier in the document.
  out.sort((x, y) => stats.of(y) - stats.of(x));
  return out;
}

/**
 * list-description: boxes the markup names as the description of the category, archive or
 * collection the page lists (rules.ts LIST_DESCRIPTION) that hold the page's <h1> and sit before
 * the chosen box and outside it, holding prose and mostly not links: the list's title and intro
 * ("Air fryer" over "We love our air fryer…") above a grid that won the choice. In document order.
 * A description box without the <h1> is left out: on WCXB's shop categories it often holds a
 * flip card that writes its text twice.
 */
export function listDescriptions(body: Element, roots: Element[], stats: Stats): Element[] {
  const first = Math.max(...roots.map((r) => stats.of(r)));
  const out: Element[] = [];
  walkNumbered(body, stats, (i) => {
    const el = stats.els[i]!;
    if (roots.includes(el)) return false;
    const a = el.attribs;
    if ((a.class === undefined && a.id === undefined) || !LIST_DESCRIPTION.test(`${a.class ?? ''} ${a.id ?? ''}`)) return true;
    // Before the first root (a higher number is earlier), not around one, prose and few links.
    if (
      i > first &&
      !roots.some((r) => isAncestor(r, el)) &&
      findFirst(el, 'h1') !== null &&
      stats.good[i]! >= LIST_DESCRIPTION_MIN_PROSE &&
      stats.text[i]! <= LIST_DESCRIPTION_MAX_TEXT &&
      stats.link[i]! < 0.5 * stats.text[i]!
    )
      out.push(el);
    return false;
  });
  return out.sort((x, y) => stats.of(y) - stats.of(x));
}

/** The number of the page's only <main> (or role=main) element, -1 when there is none or several. */
function uniqueMain(els: Element[]): number {
  let found = -1;
  for (let i = 0; i < els.length; i++) {
    const el = els[i]!;
    if (el.name === 'main' || el.attribs.role === 'main') {
      if (found >= 0 && !isAncestor(el, els[found]!)) return -1;
      if (found < 0) found = i;
    }
  }
  return found;
}

/** Class/id naming an article's own body. */
const ARTICLE_BODY = /(?:^|[^a-z])(?:entry|post|article|story|blog)(?:-|_|__)(?:content|body|text)(?:$|[^a-z])/i;
function isArticleBody(el: Element): boolean {
  const a = el.attribs;
  return a.itemprop === 'articleBody' || (a.class !== undefined && ARTICLE_BODY.test(a.class)) || (a.id !== undefined && ARTICLE_BODY.test(a.id));
}

/** Pre-order walk over measured elements under (and including) root; visit returns false to skip children. */
export function walkNumbered(root: Element, stats: Stats, visit: (i: number) => boolean): void {
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const i = stats.of(el);
    if (i < 0 || !visit(i)) continue;
    for (const k of el.children) if (isElement(k)) stack.push(k);
  }
}

/** Class/id words of a readers' comment thread (WordPress, Blogger, Disqus, most CMSs). */
const COMMENT_SECTION =
  /(?:^|[^a-z])(?:comments|comment-?list|commentlist|comments?-?(?:area|section|thread|wrap|wrapper|container)|commentwrap|disqus|disqus_thread)(?:$|[^a-z])/i;
/** A box whose class or id names it as a comment thread. */
export function isCommentSection(el: Element): boolean {
  const a = el.attribs;
  return (a.class !== undefined || a.id !== undefined) && COMMENT_SECTION.test(`${a.class ?? ''} ${a.id ?? ''}`);
}

export function isAncestor(node: Element, ancestor: Element): boolean {
  for (let p: AnyNode | null = node.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

const LINK_BOX_TAGS = new Set(['ul', 'ol', 'div', 'section', 'table', 'dl', 'menu', 'p', 'span', 'form']);
const LINK_BOX_DENSITY = 0.7;

/**
 * Top-most boxes under root that are mostly links with little text of their own (menus, tag
 * lists, "more in this section"): at least two links, link density 0.7+ and under 80 characters
 * of non-link text.
 */
export function linkBoxes(root: Element, stats: Stats): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [];
  for (const k of root.children) if (isElement(k)) stack.push(k);
  while (stack.length) {
    const el = stack.pop()!;
    const i = stats.of(el);
    if (i < 0) continue;
    const text = stats.text[i]!;
    const link = stats.link[i]!;
    if (text === 0) continue;
    if (LINK_BOX_TAGS.has(el.name) && stats.anchors[i]! >= 2 && link >= text * LINK_BOX_DENSITY && text - link < 80) {
      out.push(el);
      continue;
    }
    for (const k of el.children) if (isElement(k)) stack.push(k);
  }
  return out;
}

/** Titles of rails of other products beside a product ("Customers also viewed", "Similar
 * items", "You may also like", "Frequently bought together", "Recently viewed", "Bundles & offers",
 * "Compare options", "Consider these available items", "Featured products", "We know you'll love
 * these too", "You'll also like", as the whole title: "If you love iPhone, you'll love Mac." is a
 * line of copy, "Recommended accessories", "Choose your add-ons"). */
const RELATED_TITLE = new RegExp(
  '\\b(?:customers?|people|shoppers|others)\\b.{0,40}\\balso\\b|\\balso (?:viewed|bought|like|liked|purchased|love)\\b|' +
    '\\b(?:customers|people) who\\b|\\byou (?:may|might|will|could) (?:also )?(?:like|love|enjoy|be interested)|' +
    '\\bsimilar (?:items|products)\\b|\\brelated (?:products|items)\\b|\\brecently viewed\\b|\\bfrequently (?:bought|purchased)\\b|' +
    "\\b(?:seller's|sellers) other items\\b|\\bexplore related\\b|\\bcomplete the look\\b|\\bpairs? well with\\b|\\bgoes well with\\b|" +
    '\\bshop the look\\b|\\bsponsored products\\b|\\bcompare (?:with )?similar\\b|\\bmore from\\b|\\bour (?:best ?sellers|bestsellers)\\b|' +
    '\\boften (?:viewed|bought|purchased)\\b|\\bbetter together\\b|\\bmore like this\\b|\\bsimilar (?:styles?|models?)\\b|\\bvariations of this\\b|' +
    '\\bhow about these\\b|\\b(?:wear|style|pair) it with\\b|\\binspired by your\\b|\\bpopular (?:products|items)\\b|\\btrending (?:now|products)\\b|' +
    '\\bcompare options\\b|\\bbundles\\b|\\bconsider these\\b|\\bfeatured products\\b|' +
    "^(?:we (?:know|think) )?you['’]?ll (?:also )?(?:love|like)(?: (?:these|this|them)(?: too)?)?[.!]?$|\\brecommended accessories\\b|\\b(?:choose|shop|select) (?:your )?add-?ons\\b",
  'i',
);
/** Longest title of such a rail (characters). */
const RELATED_TITLE_MAX = 80;
/** Most levels a rail's box sits above its title (each level is searched for a next section). */
const RELATED_MAX_CLIMB = 12;
/** Most rail titles handled on one page. */
const RELATED_MAX_TITLES = 20;
/** A rail never takes more than this share of the main box's text. */
const RELATED_MAX_SHARE = 0.5;

function headingLevel(el: Element): number {
  const m = /^h([1-6])$/.exec(el.name);
  return m ? Number(m[1]) : 2;
}

export function plainText(el: Element): string {
  const parts: string[] = [];
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) parts.push(n.data);
    else if (isElement(n) && !SKIP_TAGS.has(n.name)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The first text node with a letter or digit under el, in document order. */
function firstText(el: Element): AnyNode | null {
  const stack: AnyNode[] = [el];
  while (stack.length) {
    const n = stack.pop()!;
    if (isText(n)) {
      if (/[\p{L}\p{N}]/u.test(n.data)) return n;
    } else if (isElement(n) && !SKIP_TAGS.has(n.name)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return null;
}

/**
 * Rails of other products inside root (a product page's main box): a short title that names one
 * ("Similar items", "Customers also viewed") and the box that it opens (see titledBoxes).
 */
export function relatedRails(root: Element, stats: Stats): Element[] {
  return titledBoxes(root, stats, RELATED_TITLE, RELATED_MAX_SHARE);
}

/**
 * Boxes inside root opened by a short title that matches `title`: for each such title, the
 * largest ancestor that starts with the title, holds no later heading of the same or a higher
 * level (the next section), not the page's <h1>, and not more than maxShare of root's text.
 */
export function titledBoxes(root: Element, stats: Stats, title: RegExp, maxShare: number, opts: { wholeLine?: boolean; titles?: Element[] } = {}): Element[] {
  const titles = opts.titles ?? findTitles(root, stats, [title], opts.wholeLine ?? false)[0]!;
  if (!titles.length) return [];
  // Each title climbs and searches its boxes: a bounded number keeps a page of thousands of
  // "More from …" cards linear.
  if (titles.length > RELATED_MAX_TITLES) titles.length = RELATED_MAX_TITLES;
  const h1 = findFirst(root, 'h1');
  const limit = stats.textOf(root) * maxShare;
  const out: Element[] = [];
  for (const t of titles) {
    const level = headingLevel(t);
    let box = t;
    for (let up = 0; up < RELATED_MAX_CLIMB; up++) {
      const p = box.parent;
      if (!p || !isElement(p) || p === root) break;
      if (stats.textOf(p) > limit || (h1 && isAncestor(h1, p))) break;
      const first = firstText(p);
      if (!first || !(first === t || isAncestor(first as Element, t))) break;
      if (laterSection(p, t, level, stats, title)) break;
      box = p;
    }
    if (!out.some((o) => o === box || isAncestor(box, o))) out.push(box);
  }
  return out.filter((o) => !out.some((x) => x !== o && isAncestor(o, x)));
}

/**
 * Short titles under root for each of several kinds, in one walk: the top-most elements whose
 * text is short enough to be a title and matches the kind's pattern (wholeLine: and is a whole
 * line, not a phrase inside a sentence). Titles of different kinds are looked for in the same
 * lines, and a big page has a hundred thousand of them: each is read once and not kept.
 */
export function findTitles(root: Element, stats: Stats, kinds: RegExp[], wholeLine: boolean): Element[][] {
  const out: Element[][] = kinds.map(() => []);
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    const len = stats.text[i]!;
    if (len === 0) return false;
    if (len > RELATED_TITLE_MAX || el === root) return true;
    const text = plainText(el);
    for (let k = 0; k < kinds.length; k++) if (kinds[k]!.test(text) && (!wholeLine || isWholeLine(el, stats))) out[k]!.push(el);
    return false;
  });
  return out;
}

/** True when el is a heading or block, or all the text of its nearest block (a title, not a
 * link or phrase inside a sentence). */
function isWholeLine(el: Element, stats: Stats): boolean {
  let block: Element = el;
  while (!BLOCK_TAGS.has(block.name) && !HEADINGS.has(block.name)) {
    const p = block.parent;
    if (!p || !isElement(p)) return false;
    block = p;
  }
  return block === el || stats.textOf(block) === stats.textOf(el);
}

/** True when box holds a heading of level <= level, outside title and outside repeated items
 * (cards' titles), that is not itself a title of the same kind. */
function laterSection(box: Element, title: Element, level: number, stats: Stats, kind: RegExp): boolean {
  let found = false;
  const stack: AnyNode[] = [box];
  while (stack.length && !found) {
    const n = stack.pop()!;
    if (!isElement(n) || n === title || SKIP_TAGS.has(n.name)) continue;
    if (HEADINGS.has(n.name) && headingLevel(n) <= level && !isRepeatedItem(n, stats) && !kind.test(plainText(n))) found = true;
    for (const k of n.children) stack.push(k);
  }
  return found;
}

/** A price: a currency sign or code next to a number ("$49.00", "£675", "59,99€", "EUR 15.49"). */
const PRICE = /[$£€¥₹]\s?\d|\d[\d.,]*\s?(?:[$£€¥₹]|(?:USD|EUR|GBP|CHF|AUD|CAD|SEK|NOK|DKK|PLN|zł|kr|Kč)\b)|\b(?:USD|EUR|GBP|CHF|AUD|CAD)\s?\d/;
const PRICES = new RegExp(PRICE.source, 'g');

/** Prices in root's text outside the given boxes (a product's own price beside its cards). */
export function pricesOutside(root: Element, boxes: Element[]): number {
  const count = (el: Element) => plainText(el).match(PRICES)?.length ?? 0;
  return boxes.reduce((n, el) => n - count(el), count(root));
}

/** Least cards of one shape that make a list of other products. */
const CARD_MIN = 3;
/** Most text (characters) of one product card. */
const CARD_TEXT = 400;

/**
 * Lists of product cards under root (a product page's main box): boxes with CARD_MIN+ children
 * of one shape, each a short card holding a link and a price (or all link around a title heading). On a product page these are other
 * products (variants, accessories, "more from this brand"), however their rail is titled.
 */
export function productCardLists(root: Element, stats: Stats): Element[] {
  const out: Element[] = [];
  walkNumbered(root, stats, (i) => {
    const el = stats.els[i]!;
    if (el !== root && isCardList(el, stats)) {
      out.push(el);
      return false;
    }
    return true;
  });
  return out;
}

/** Share of a card's text in links for it to be one link around a title (a tile whose price is
 * drawn by script). */
const TITLE_CARD_LINK_SHARE = 0.9;

/** A card that is all link around a heading: another product's tile even without a price. */
function isTitleLinkCard(card: Element, stats: Stats): boolean {
  const i = stats.of(card);
  if (stats.link[i]! < TITLE_CARD_LINK_SHARE * stats.text[i]!) return false;
  let heading = false;
  walkNumbered(card, stats, (j) => {
    if (HEADINGS.has(stats.els[j]!.name)) heading = true;
    return !heading;
  });
  return heading;
}

function isCardList(el: Element, stats: Stats): boolean {
  let kids = 0;
  for (const k of el.children) if (isElement(k)) kids++;
  if (kids < CARD_MIN) return false;
  // Card-sized children with a link, by shape; only shapes with CARD_MIN of them have their
  // text read for a price (a deep chain of single wrappers is never read level by level).
  const groups = new Map<string, Element[]>();
  for (const k of el.children) {
    if (!isElement(k)) continue;
    const i = stats.of(k);
    if (i < 0 || stats.anchors[i] === 0 || stats.text[i] === 0 || stats.text[i]! > CARD_TEXT) continue;
    const s = shape(k);
    const group = groups.get(s);
    if (group) group.push(k);
    else groups.set(s, [k]);
  }
  for (const group of groups.values()) {
    if (group.length < CARD_MIN) continue;
    let priced = 0;
    for (const k of group) if ((PRICE.test(plainText(k)) || isTitleLinkCard(k, stats)) && ++priced >= CARD_MIN) return true;
  }
  return false;
}
