// Chooses the main-content subtree of a pruned page. Text is split into runs between block
// boundaries; each run is booked as prose (good), link list (bad) or short label (short) on its
// block, and the subtree with the most prose net of the rest wins; semantic containers (<main>,
// <article>, itemprop=articleBody) get a small bonus.
// The one thing to know: all text statistics are computed once, bottom-up, in `measure`, so
// scoring stays linear in the size of the page.
import { isElement, isText, type AnyNode, type Element } from './dom.ts';
import { BLOCK_TAGS, SKIP_TAGS } from './blocks.ts';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export interface Stats {
  text: number; // characters of text (whitespace runs count as one)
  link: number; // characters of text inside <a>
  anchors: number; // <a> elements below (including self)
  good: number; // characters in prose-like runs of text (or headings) below
  bad: number; // characters in link-dominated runs below
  short: number; // characters in short runs that are not links (labels, list items, cells)
}

function spaceAwareLength(s: string): number {
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
export function measure(root: Element): Map<Element, Stats> {
  const stats = new Map<Element, Stats>();
  const order: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n) || SKIP_TAGS.has(n.name)) continue;
    order.push(n);
    for (const k of n.children) if (isElement(k)) stack.push(k);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    let text = 0;
    let link = 0;
    let anchors = el.name === 'a' ? 1 : 0;
    for (const k of el.children) {
      if (isText(k)) {
        text += spaceAwareLength(k.data);
      } else if (isElement(k)) {
        const s = stats.get(k);
        if (!s) continue;
        text += s.text;
        link += s.link;
        anchors += s.anchors;
      }
    }
    if (el.name === 'a') link = text;
    stats.set(el, { text, link, anchors, good: 0, bad: 0, short: 0 });
  }
  classifyRuns(root, stats);
  return stats;
}

const INLINE_BREAK = new Set(['br']);
const siblingShapes = new WeakMap<Element, Map<string, number>>();

function shape(el: Element): string {
  return `${el.name}.${el.attribs.class ?? ''}`;
}

/** True when el or one of its three nearest ancestors has 4+ siblings of the same shape. */
function isRepeatedItem(el: Element): boolean {
  let cur: Element | null = el;
  for (let depth = 0; cur && depth < 4; depth++) {
    const parent: AnyNode | null = cur.parent;
    if (!parent || !isElement(parent)) return false;
    let counts = siblingShapes.get(parent);
    if (!counts) {
      counts = new Map();
      for (const k of parent.children) if (isElement(k)) counts.set(shape(k), (counts.get(shape(k)) ?? 0) + 1);
      siblingShapes.set(parent, counts);
    }
    if ((counts.get(shape(cur)) ?? 0) >= 4) return true;
    cur = parent;
  }
  return false;
}

/**
 * Splits the text into runs (text between two block boundaries) and books each run's characters
 * as good (prose: 25+ characters of non-link text, mostly not links; or a heading) or bad (menus,
 * labels, link lists), on the run's nearest block ancestor; then sums both up the tree.
 */
function classifyRuns(root: Element, stats: Map<Element, Stats>): void {
  const ownGood = new Map<Element, number>();
  const ownBad = new Map<Element, number>();
  const ownShort = new Map<Element, number>();
  let runText = 0;
  let runLink = 0;
  let runOwner: Element | null = null;
  let runHeading = false;
  const finish = () => {
    if (runOwner && runText > 0) {
      const linky = runLink >= runText * 0.5;
      const prose = !linky && (runHeading || runText - runLink >= 25);
      // A link in one of many same-shaped siblings (cards, result rows) is a listing item,
      // which is content; a lone link run is navigation.
      const item = linky && isRepeatedItem(runOwner);
      const m = prose || item ? ownGood : linky ? ownBad : ownShort;
      m.set(runOwner, (m.get(runOwner) ?? 0) + runText);
    }
    runText = 0;
    runLink = 0;
    runOwner = null;
    runHeading = false;
  };
  // Depth-first walk with a stack as deep as the tree (not one frame per node): on a
  // multi-megabyte page a frame object per node would cost more than the tree itself.
  const els: Element[] = [root];
  const idx: number[] = [0];
  const blocks: Element[] = [root];
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
      if (l === 0 || !node.data.trim()) continue;
      if (!runOwner) runOwner = blocks[top]!;
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
    blocks.push(block ? node : blocks[top]!);
    links.push(links[top]! || name === 'a');
    heads.push(heads[top]! || HEADINGS.has(name));
  }
  finish();
  // Sum bottom-up: children before parents, so walk the map in reverse insertion order
  // (measure inserted parents after children).
  for (const [el, s] of stats) {
    s.good += ownGood.get(el) ?? 0;
    s.bad += ownBad.get(el) ?? 0;
    s.short += ownShort.get(el) ?? 0;
    const p = el.parent;
    if (p && isElement(p) && el !== root) {
      const ps = stats.get(p);
      if (ps) {
        ps.good += s.good;
        ps.bad += s.bad;
        ps.short += s.short;
      }
    }
  }
}

export function linkDensity(s: Stats): number {
  return s.text ? s.link / s.text : 0;
}

/** How much a character of link-list text lowers a subtree's value (prose counts 1). */
const BAD_WEIGHT = 0.5;
/** How much a character of short non-link text (labels, cells) lowers it. */
const SHORT_WEIGHT = 0.1;
/** <main>, <article> and articleBody boxes win ties with their wrappers. */
const SEMANTIC_BONUS = 1.1;

function isSemantic(el: Element): boolean {
  const a = el.attribs;
  return el.name === 'main' || el.name === 'article' || a.role === 'main' || a.itemprop === 'articleBody' || a.itemprop === 'mainContentOfPage' || a.itemprop === 'text';
}

/** The subtrees that make up the main content, in document order. */
export function selectMain(body: Element, stats: Map<Element, Stats>): Element[] {
  const total = stats.get(body);
  if (!total || total.text === 0) return [body];
  // The subtree with the most prose net of boilerplate-like text: adding a sibling post or
  // section raises the value, adding a link rail or menu lowers it.
  let best: Element = body;
  let bestValue = -Infinity;
  for (const [el, s] of stats) {
    let v = s.good - BAD_WEIGHT * s.bad - SHORT_WEIGHT * s.short;
    if (isSemantic(el)) v *= SEMANTIC_BONUS;
    if (v > bestValue || (v === bestValue && isAncestor(best, el))) {
      bestValue = v;
      best = el;
    }
  }
  // Nothing reads as prose (link lists such as a news aggregator's front page): keep the
  // whole pruned body rather than an arbitrary empty box.
  if (bestValue <= 0 || stats.get(best)!.text === 0) return [body];
  return [best];
}

function isAncestor(node: Element, ancestor: Element): boolean {
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
export function linkBoxes(root: Element, stats: Map<Element, Stats>): Element[] {
  const out: Element[] = [];
  const stack: Element[] = [];
  for (const k of root.children) if (isElement(k)) stack.push(k);
  while (stack.length) {
    const el = stack.pop()!;
    const s = stats.get(el);
    if (!s || s.text === 0) continue;
    if (LINK_BOX_TAGS.has(el.name) && s.anchors >= 2 && s.link >= s.text * LINK_BOX_DENSITY && s.text - s.link < 80) {
      out.push(el);
      continue;
    }
    for (const k of el.children) if (isElement(k)) stack.push(k);
  }
  return out;
}
