// Reference and source lists after an article: found before pruning (a list of links at the end
// of an article is what pruning takes for a link box), kept beside the main text rather than in it.
import { type Element, isElement, isText, normalizeSpace, type ParentNode, walk } from './dom.ts';
import { resolveUrl } from './metadata.ts';
import { SKIP_TAGS } from './blocks.ts';
import { textLength } from './boilerplate.ts';
import { REFERENCE_CLASS, REFERENCE_HEADING, REFERENCE_MAX_CHARS, REFERENCE_TAGS } from './rules.ts';

function firstHeadingText(el: Element): string | null {
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (/^h[2-6]$/.test(c.name)) return normalizeSpace(textOf(c));
    if (c.name !== 'header') return null;
    return firstHeadingText(c);
  }
  return null;
}

export function textOf(el: Element): string {
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
export function findReferenceLists(body: Element): { lists: Element[]; order: Map<Element, number> } {
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
export function referenceEntries(lists: Element[], baseUrl: string, pageUrl: string): { text: string; href: string | null }[] {
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
export function referencesAfter(lists: Element[], order: Map<Element, number>, roots: Element[]): Element[] {
  if (!lists.length || !roots.length) return [];
  const inside = (el: Element, root: Element) => {
    for (let p: ParentNode | null = el; p; p = (p as Element).parent as ParentNode | null) if (p === root) return true;
    return false;
  };
  const start = Math.min(...roots.map((r) => order.get(r) ?? Infinity));
  return lists.filter((l) => (order.get(l) ?? -1) > start && !roots.some((r) => inside(l, r) || inside(r, l)));
}
