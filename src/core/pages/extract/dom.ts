// Small, allocation-light helpers over the htmlparser2 (domhandler) tree the extractor works on.
// Everything here is iterative, never recursive: broken HTML can nest tens of thousands of
// unclosed elements deep, and a recursive walk would overflow the stack on such a page.
import type { AnyNode, Element, ParentNode } from 'domhandler';

export type { AnyNode, Element, ParentNode };

export function isElement(node: AnyNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

export function isText(node: AnyNode): node is AnyNode & { data: string } {
  return node.type === 'text';
}

export function attr(el: Element, name: string): string | undefined {
  return el.attribs[name];
}

/** Pre-order walk; `visit` returns false to skip an element's children. */
export function walk(root: ParentNode, visit: (node: AnyNode) => boolean | void): void {
  const stack: AnyNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]!);
  while (stack.length) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    if ('children' in node && node.children.length) {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
}

/** All elements with the given tag names (lower case), document order. */
export function findAll(root: ParentNode, tags: ReadonlySet<string>): Element[] {
  const out: Element[] = [];
  walk(root, (n) => {
    if (isElement(n) && tags.has(n.name)) out.push(n);
  });
  return out;
}

export function findFirst(root: ParentNode, tag: string): Element | null {
  let found: Element | null = null;
  walk(root, (n) => {
    if (found) return false;
    if (isElement(n) && n.name === tag) {
      found = n;
      return false;
    }
    return true;
  });
  return found;
}

/** Raw concatenated text of a subtree (no skipping, no whitespace handling). */
export function rawText(root: ParentNode): string {
  const parts: string[] = [];
  walk(root, (n) => {
    if (isText(n)) parts.push(n.data);
  });
  return parts.join('');
}

/** Detaches many nodes at once; grouped by parent so each child list is rebuilt only once. */
export function removeNodes(nodes: Iterable<AnyNode>): void {
  const byParent = new Map<ParentNode, Set<AnyNode>>();
  for (const node of nodes) {
    const parent = node.parent;
    if (!parent) continue;
    let set = byParent.get(parent);
    if (!set) byParent.set(parent, (set = new Set()));
    set.add(node);
  }
  for (const [parent, gone] of byParent) {
    const kept = parent.children.filter((c) => !gone.has(c));
    for (let i = 0; i < kept.length; i++) {
      kept[i]!.prev = i > 0 ? kept[i - 1]! : null;
      kept[i]!.next = i + 1 < kept.length ? kept[i + 1]! : null;
    }
    parent.children = kept;
    for (const node of gone) node.parent = null;
  }
}

/** Whitespace-collapsed, trimmed text; zero-width characters removed. */
export function normalizeSpace(text: string): string {
  return text.replace(/[\u200b-\u200d\ufeff\u00ad]/g, '').replace(/\s+/g, ' ').trim();
}
