// Reference and source lists after an article: found before pruning (a list of links at the end
// of an article is what pruning takes for a link box), kept beside the main text rather than in it.
import { type Element, isElement, isText, normalizeSpace, type ParentNode, walk } from './dom.ts';
import { resolveUrl } from './metadata.ts';
import { SKIP_TAGS } from './blocks.ts';
import { textLength } from './boilerplate.ts';
import { REFERENCE_CLASS, REFERENCE_HEADING, REFERENCE_MAX_CHARS, REFERENCE_TAGS } from './rules.ts';
import type { Block } from '../document.ts';

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

/** The heading just before a list among its siblings ("<h2>Sources</h2><ul>…"), when it opens a reference list. */
function headingBefore(el: Element): Element | null {
  if (el.name !== 'ul' && el.name !== 'ol') return null;
  const siblings = (el.parent as ParentNode | null)?.children ?? [];
  for (let k = siblings.indexOf(el) - 1; k >= 0; k--) {
    const s = siblings[k]!;
    if (isText(s) && !s.data.trim()) continue;
    if (!isElement(s)) return null;
    if (
      /^h[2-6]$/.test(s.name) ||
      (s.name === 'p' && s.children.length === 1 && isElement(s.children[0]!) && /^(?:strong|b)$/.test((s.children[0] as Element).name))
    ) {
      return REFERENCE_HEADING.test(normalizeSpace(textOf(s))) ? s : null;
    }
    return null;
  }
  return null;
}

/** A reference list found on the page: its box, and the heading that opens it (inside the box or just before it). */
export interface ReferenceList {
  box: Element;
  /** The list's own title ("Sources", "Quellen"), when it has one. */
  heading: string | null;
  /** A title element just before the box (not inside it): it goes wherever the list goes. */
  headingElement: Element | null;
  /**
   * The list is a box of its own titled as sources (a section or div whose first child is the
   * "Article Sources" heading): a site's citations component, not a list written in the text.
   */
  boxed: boolean;
}

/**
 * Reference lists of the page (by class/id, by a "References"/"Sources" heading as their first
 * child, or by such a heading just before a bare list), with the document order of every
 * element, read before pruning.
 */
export function findReferenceLists(body: Element): { lists: ReferenceList[]; order: Map<Element, number> } {
  const lists: ReferenceList[] = [];
  const order = new Map<Element, number>();
  let i = 0;
  walk(body, (n) => {
    if (!isElement(n)) return false;
    order.set(n, i++);
    if (!REFERENCE_TAGS.has(n.name)) return true;
    const named = REFERENCE_CLASS.test(`${n.attribs.class ?? ''} ${n.attribs.id ?? ''}`);
    const inner = firstHeadingText(n);
    const before = inner === null ? headingBefore(n) : null;
    const heading = inner !== null && REFERENCE_HEADING.test(inner) ? inner : before ? normalizeSpace(textOf(before)) : null;
    if (named || heading !== null) {
      const length = textLength(n);
      let items = 0;
      walk(n, (m) => {
        if (isElement(m) && m.name === 'li') items++;
        return isElement(m);
      });
      if (items >= 2 && length < REFERENCE_MAX_CHARS) {
        const boxed = n.name !== 'ul' && n.name !== 'ol' && inner !== null && heading === inner;
        lists.push({ box: n, heading: heading?.replace(/\s*:$/, '') ?? null, headingElement: before, boxed });
      }
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

/**
 * Citation-like entries of reference lists: an item with a link to another site or a year, of
 * some length; under a title that says the list is sources, any item linking to another site
 * (a bare outlet name such as "Reuters" is a source there).
 */
export function referenceEntries(lists: ReferenceList[], baseUrl: string, pageUrl: string): ReferenceEntry[] {
  const host = (u: string) => {
    try {
      return new URL(u).hostname.replace(/^www\./, '');
    } catch {
      return '';
    }
  };
  const own = host(pageUrl);
  const out: ReferenceEntry[] = [];
  for (const { box, heading } of lists) {
    const entries: { text: string; href: string | null; cites: boolean }[] = [];
    walk(box, (n) => {
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
      const cites = text.length >= 25 ? href !== null || /\b(1[89]|20)\d\d\b/.test(text) : heading !== null && href !== null && text.length >= 2;
      entries.push({ text, href, cites });
      return false;
    });
    // A list is a reference list when most of its entries read as citations (menus do not).
    if (entries.length >= 2 && entries.filter((e) => e.cites).length * 2 >= entries.length) {
      for (const e of entries) if (e.cites) out.push({ text: e.text.slice(0, 300), href: e.href, ...(heading ? { heading } : {}) });
    }
  }
  return out;
}

/** One entry of a reference list, with the list's title when it has one. */
export interface ReferenceEntry {
  text: string;
  href: string | null;
  heading?: string;
}

/**
 * The reference lists that come after the start of the main content and are not in its text:
 * after it, or inside it but taken out by pruning (a list of links reads as a link box). A list
 * still in the main text stays there.
 */
export function referencesAfter(lists: ReferenceList[], order: Map<Element, number>, roots: Element[]): ReferenceList[] {
  if (!lists.length || !roots.length) return [];
  const inside = (el: Element, root: Element) => {
    for (let p: ParentNode | null = el; p; p = (p as Element).parent as ParentNode | null) if (p === root) return true;
    return false;
  };
  const start = Math.min(...roots.map((r) => order.get(r) ?? Infinity));
  return lists.filter(({ box }) => (order.get(box) ?? -1) > start && !roots.some((r) => inside(box, r) || inside(r, box)));
}

/**
 * Sources box inside the main text: a reference list that is a box of its own under a sources
 * title ("<section><h2>Article Sources</h2><ol>…") inside the main box is the site's citations
 * component, set beside the text like a list after it. A "References" title and list written in
 * the text itself (a heading, then a bare list) stay in the text.
 */
export function sourceBoxesWithin(lists: ReferenceList[], roots: Element[]): ReferenceList[] {
  const within = (el: Element) => {
    for (let p = el.parent as ParentNode | null; p; p = (p as Element).parent as ParentNode | null) if (roots.includes(p as Element)) return true;
    return false;
  };
  return lists.filter((l) => l.boxed && within(l.box));
}

/** A line that is one bare web address and nothing else. */
const BARE_URL_LINE = /^https?:\/\/\S+$/i;
/** Fewest bare addresses under a sources title for them to be a source list. */
const BARE_URL_MIN = 2;

/**
 * bare-url-sources: the main text ends with a sources title ("Article Sources:", "References")
 * over nothing but bare web addresses, one a line — a source list written as pasted links, not a
 * list element. Returns where it starts and its addresses, so that it goes beside the text with
 * the other references; null when the text does not end so. Addresses under other titles ("Image
 * references", a step "Visit https://…"), or a sources title over written entries, stay.
 */
export function bareUrlSources(blocks: readonly Block[]): { start: number; heading: string; urls: string[] } | null {
  const urls: string[] = [];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const b = blocks[i]!;
    const lines = b.kind === 'list' ? b.items : b.kind === 'paragraph' ? b.text.split('\n') : null;
    const title = b.kind === 'heading' || b.kind === 'paragraph' ? normalizeSpace(b.text) : '';
    if (REFERENCE_HEADING.test(title)) return urls.length >= BARE_URL_MIN ? { start: i, heading: title.replace(/\s*:$/, ''), urls: urls.reverse() } : null;
    if (!lines) return null;
    const bare = lines.map((l) => l.trim()).filter(Boolean);
    if (!bare.length || !bare.every((l) => BARE_URL_LINE.test(l))) return null;
    for (let k = bare.length - 1; k >= 0; k--) urls.push(bare[k]!);
  }
  return null;
}
