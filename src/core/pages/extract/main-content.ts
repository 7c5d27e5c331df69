// Chooses the main-content subtree(s) of a pruned page. Text blocks vote for their ancestors
// (Readability's idea: commas and length, discounted by link density and class words); the
// best candidate is widened to the wrapper that holds it without adding link-heavy text, and
// semantic containers (<main>, <article>, itemprop=articleBody) win when they hold the content.
// The one thing to know: all text statistics are computed once, bottom-up, in `measure`, so
// scoring stays linear in the size of the page.
import { isElement, isText, type AnyNode, type Element } from './dom.ts';
import { SKIP_TAGS } from './blocks.ts';

export interface Stats {
  text: number; // characters of text (whitespace runs count as one)
  link: number; // characters of text inside <a>
  score: number; // votes received from text blocks
  paragraphs: number; // text blocks of 25+ characters below
}

const TEXT_BLOCKS = new Set(['p', 'pre', 'td', 'blockquote', 'li', 'dd', 'h2', 'h3', 'h4', 'figcaption', 'section', 'div', 'article', 'span', 'font', 'center']);
const POSITIVE_WEIGHT = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story|product|description|question|answer|docs?|markdown|prose/i;
const NEGATIVE_WEIGHT = /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|byline|author|dateline|nav|menu/i;

function classWeight(el: Element): number {
  let w = 0;
  for (const v of [el.attribs.class, el.attribs.id]) {
    if (!v) continue;
    if (NEGATIVE_WEIGHT.test(v)) w -= 25;
    if (POSITIVE_WEIGHT.test(v)) w += 25;
  }
  return w;
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

function countCommas(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 44 || c === 0x3001 || c === 0xff0c || c === 0x060c) n++;
  }
  return n;
}

/** Bottom-up text statistics for every element under root, plus Readability-style votes. */
export function measure(root: Element): Map<Element, Stats> {
  const stats = new Map<Element, Stats>();
  // Post-order without recursion: push (node, visited) pairs.
  const order: Element[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n) || SKIP_TAGS.has(n.name)) continue;
    order.push(n);
    for (const k of n.children) if (isElement(k)) stack.push(k);
  }
  const commas = new Map<Element, number>();
  const ownText = new Map<Element, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    let text = 0;
    let link = 0;
    let cm = 0;
    let own = 0;
    let paragraphs = 0;
    for (const k of el.children) {
      if (isText(k)) {
        const l = spaceAwareLength(k.data);
        text += l;
        own += l;
        cm += countCommas(k.data);
      } else if (isElement(k)) {
        const s = stats.get(k);
        if (!s) continue;
        text += s.text;
        link += s.link;
        paragraphs += s.paragraphs;
        cm += commas.get(k) ?? 0;
      }
    }
    if (el.name === 'a') link = text;
    commas.set(el, cm);
    ownText.set(el, own);
    stats.set(el, { text, link, score: 0, paragraphs });
  }
  // Votes: a text block scores by commas and length and passes its score to its ancestors.
  for (const el of order) {
    if (!TEXT_BLOCKS.has(el.name)) continue;
    const s = stats.get(el)!;
    // Generic containers vote only for text they hold directly (not via child blocks).
    const generic = el.name === 'div' || el.name === 'section' || el.name === 'article' || el.name === 'span' || el.name === 'font' || el.name === 'center';
    const len = generic ? ownText.get(el)! : s.text - s.link;
    if (len < 25) continue;
    s.paragraphs += 1;
    const score = 1 + (generic ? 0 : commas.get(el)!) + Math.min(Math.floor(len / 100), 3);
    let p = el.parent;
    for (let level = 0; p && isElement(p) && level < 5; level++, p = p.parent) {
      const ps = stats.get(p);
      if (!ps) break;
      ps.score += level === 0 ? score : level === 1 ? score / 2 : score / (level * 3);
    }
    if (generic) s.score += score;
  }
  // Propagate paragraph counts upward was done during measurement for children; the votes above
  // added to self only, so recount ancestors' paragraph totals.
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    let p = 0;
    for (const k of el.children) if (isElement(k)) p += stats.get(k)?.paragraphs ?? 0;
    const s = stats.get(el)!;
    if (p > s.paragraphs) s.paragraphs = p;
  }
  return stats;
}

export function linkDensity(s: Stats): number {
  return s.text ? s.link / s.text : 0;
}

/** The subtrees that make up the main content, in document order. */
export function selectMain(body: Element, stats: Map<Element, Stats>): Element[] {
  const total = stats.get(body);
  if (!total || total.text === 0) return [body];
  const good = (el: Element) => {
    const s = stats.get(el)!;
    return s.text - s.link;
  };
  const bodyGood = good(body);

  // 1. Best candidate by votes, discounted by link density and class words.
  let best: Element | null = null;
  let bestScore = 0;
  for (const [el, s] of stats) {
    if (s.score <= 0) continue;
    const final = (s.score + classWeight(el)) * (1 - linkDensity(s));
    if (final > bestScore) {
      bestScore = final;
      best = el;
    }
  }
  if (!best) return [body];

  // 2. Semantic containers: prefer <main>/<article>/articleBody when they hold the winner and
  // most of the page's real text.
  let semantic: Element | null = null;
  for (let p: Element | null = best; p; p = p.parent && isElement(p.parent) ? p.parent : null) {
    const a = p.attribs;
    if (p.name === 'main' || a.role === 'main' || a.itemprop === 'articleBody' || a.itemprop === 'mainContentOfPage' || p.name === 'article') {
      if (good(p) <= bodyGood) semantic = p;
      if (p.name === 'main' || a.role === 'main') break;
    }
  }

  // 3. Widen: climb while the parent adds little text or adds text that is mostly prose.
  let root = best;
  for (;;) {
    const parent = root.parent;
    if (!parent || !isElement(parent) || parent === body.parent) break;
    const ps = stats.get(parent);
    const rs = stats.get(root)!;
    if (!ps) break;
    const added = ps.text - rs.text;
    const addedLink = ps.link - rs.link;
    if (added <= 0 || (added < rs.text * 0.3 && addedLink < added * 0.5) || added < 80) {
      root = parent;
      continue;
    }
    // Parent adds a lot: accept it when the extra text is prose (low link density) and the
    // parent itself still scores well.
    if (addedLink / added < 0.33 && ps.score >= stats.get(root)!.score * 0.5 && added < rs.text * 2.5) {
      root = parent;
      continue;
    }
    break;
  }
  if (semantic && semantic !== root && isAncestor(root, semantic)) {
    // The winner's wrapper is inside a semantic container: use the container if it is not
    // dominated by links.
    const s = stats.get(semantic)!;
    if (linkDensity(s) < 0.5) root = semantic;
  }
  return [root];
}

function isAncestor(node: Element, ancestor: Element): boolean {
  for (let p: AnyNode | null = node.parent; p; p = p.parent) if (p === ancestor) return true;
  return false;
}
