// The links of a subtree (the whole page, or the main content), as absolute URLs with their text.
import type { PageLink } from '../document.ts';
import { type Element, isElement, isText, normalizeSpace, type ParentNode, walk } from './dom.ts';
import { resolveUrl } from './metadata.ts';
import { SKIP_TAGS } from './blocks.ts';
import { LINK_TEXT_MAX } from './rules.ts';

/**
 * A link's own text: without links nested in it (broken HTML that never closes its <a> tags
 * nests every later link in the earlier ones, and each would otherwise carry the rest of the
 * page: quadratic memory), and bounded by LINK_TEXT_MAX.
 */
function linkText(link: Element): string {
  const parts: string[] = [];
  let length = 0;
  walk(link, (k) => {
    if (length > LINK_TEXT_MAX * 2) return false;
    if (isText(k)) {
      parts.push(k.data);
      length += k.data.length;
    } else if (isElement(k) && (k.name === 'a' || k.name === 'area' || SKIP_TAGS.has(k.name))) return false;
    return true;
  });
  const text = normalizeSpace(parts.join(''));
  if (text.length <= LINK_TEXT_MAX) return text;
  // Not between the two halves of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[LINK_TEXT_MAX - 1]!) ? LINK_TEXT_MAX - 1 : LINK_TEXT_MAX;
  return text.slice(0, end).trimEnd();
}

export function collectLinks(root: ParentNode, base: string): PageLink[] {
  const out: PageLink[] = [];
  walk(root, (n) => {
    if (!isElement(n)) return;
    if (SKIP_TAGS.has(n.name)) return false;
    if (n.name === 'a' || n.name === 'area') {
      const href = resolveUrl(n.attribs.href, base);
      if (href) {
        const text = linkText(n) || normalizeSpace(n.attribs['aria-label'] ?? n.attribs.title ?? '');
        out.push({ href, text, rel: n.attribs.rel ?? null });
      }
    }
    return true;
  });
  return out;
}
