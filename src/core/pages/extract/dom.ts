// Small, allocation-light helpers over the htmlparser2 (domhandler) tree the extractor works on.
// Everything here is iterative, never recursive: broken HTML can nest tens of thousands of
// unclosed elements deep, and a recursive walk would overflow the stack on such a page.
import { Parser } from 'htmlparser2';
import type { AnyNode, Document, Element, ParentNode } from 'domhandler';

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
// biome-ignore lint/suspicious/noConfusingVoidType: a visitor that returns nothing walks on
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
  // Detached first, then each parent's list is filtered by its children's own links (a node is
  // in the list of the parent it links to): no set of removed nodes per parent, which on a big
  // page (boilerplate pruning removes tens of thousands) was megabytes of garbage.
  const parents = new Set<ParentNode>();
  for (const node of nodes) {
    const parent = node.parent;
    if (!parent) continue;
    node.parent = null;
    parents.add(parent);
  }
  for (const parent of parents) parent.children = parent.children.filter((c) => c.parent !== null);
}

/** Whitespace-collapsed, trimmed text; zero-width characters removed. */
export function normalizeSpace(text: string): string {
  return text
    .replace(/[\u200b-\u200d\ufeff\u00ad]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Attributes the extractor reads; everything else (srcset, data-*, inline handlers) is dropped. */
const KEPT_ATTRIBUTES = new Set([
  'class',
  'id',
  'role',
  'style',
  'hidden',
  'type',
  'href',
  'rel',
  'itemprop',
  'itemtype',
  'content',
  'property',
  'name',
  'lang',
  'xml:lang',
  'datetime',
  'pubdate',
  'aria-label',
  'aria-expanded', // a disclosure's toggle (boilerplate.ts: collapsed panels)
  'title',
  'http-equiv',
  'data-lang',
  'data-language',
  'action',
  'charset',
  'data-nosnippet',
  'alt', // a header logo's alt text names the site (metadata.ts)
  // Names that CSS-in-JS sites give their components instead of classes (article-extras.ts).
  'data-theme-key',
  'data-testid',
  'data-component',
  'data-element',
]);

/** Shared by all elements without a kept attribute; the extractor never writes attributes. */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Attributes whose values repeat across a page (class names, roles, link relations). */
const REPEATED_VALUES = new Set([
  'class',
  'role',
  'rel',
  'type',
  'itemprop',
  'itemtype',
  'property',
  'name',
  'lang',
  'http-equiv',
  'hidden',
  'aria-label',
  'aria-expanded',
  'title',
]);
/** Texts up to this long are copies, not views of the page's string (V8 slices only longer ones); most repeat. */
const SHORT_TEXT = 12;

/**
 * One string per distinct short value while a page is parsed: every text and attribute value
 * arrives as a new string, and on a big page most are repeats ("Share", "\n  ", "nav-item").
 * Bounded, so a page of unique values costs a few hundred kilobytes of table, not a copy of itself.
 */
class StringPool {
  private readonly map = new Map<string, string>();
  intern(s: string): string {
    if (s.length > 64) return s;
    const known = this.map.get(s);
    if (known !== undefined) return known;
    if (this.map.size < 8192) this.map.set(s, s);
    return s;
  }
}

/*
 * Node classes with the same field names as domhandler's (type, name, attribs, children, parent,
 * data), so the domhandler types describe them. `type` lives on each class's prototype, not on
 * every node: a 10 MB page has about 700,000 nodes (bench:extract --memory).
 */
class TextNode {
  declare type: string;
  parent: ElementNode | null;
  data: string;
  constructor(parent: ElementNode, data: string) {
    this.parent = parent;
    this.data = data;
  }
}

class ElementNode {
  declare type: string;
  parent: ElementNode | null;
  name: string;
  attribs: Record<string, string>;
  children: (ElementNode | TextNode)[];
  /** Element number, written by `measure` (declared here so every element has the same shape). */
  index: number;
  constructor(parent: ElementNode | null, name: string) {
    this.parent = parent;
    this.name = name;
    this.attribs = NO_ATTRIBUTES;
    this.children = [];
    this.index = -1;
  }
}
class ScriptNode extends ElementNode {}
class StyleNode extends ElementNode {}
class RootNode extends ElementNode {}
for (const [cls, type] of [
  [TextNode, 'text'],
  [ElementNode, 'tag'],
  [ScriptNode, 'script'],
  [StyleNode, 'style'],
  [RootNode, 'root'],
] as const) {
  Object.defineProperty(cls.prototype, 'type', { value: type, writable: false, enumerable: true });
}

/**
 * Deepest element nesting the tree keeps. Deeper elements are attached to the element at this
 * depth instead (as browsers do: Blink flattens past 512), so broken HTML that never closes a tag
 * (`<nav>` × 50,000) gives a shallow, wide tree: every walk that looks at a node's ancestors or
 * sums a subtree stays linear in the page instead of quadratic. Real pages stay far below it.
 */
export const MAX_TREE_DEPTH = 128;

/**
 * Open elements htmlparser2 remembers. Its stack of open tag names is an array it unshifts on
 * every open tag and searches on every close tag, so a page that never closes its tags costs
 * time quadratic in their number (`<dl><dd>` × 30,000 in 250 KB: over a second of parsing).
 * Past this many, the outermost are forgotten: their close tags are ignored (a browser would
 * treat such a page as garbage too) and parsing stays linear.
 */
const PARSER_MAX_OPEN = 512;

/** htmlparser2's internal stacks (private fields, checked by the extractor's tests). */
export interface ParserStacks {
  stack: string[];
  foreignContext: boolean[];
}
export function parserStacks(parser: Parser): ParserStacks | undefined {
  const p = parser as unknown as Partial<ParserStacks>;
  return Array.isArray(p.stack) && Array.isArray(p.foreignContext) ? (p as ParserStacks) : undefined;
}

/**
 * Parses HTML into a lean tree with the same field names as domhandler's (type, name, attribs,
 * children, parent, data), so the domhandler types describe it. Why not domhandler itself: its
 * nodes also carry prev/next/start/end links and every attribute, which roughly doubles the
 * memory of a multi-megabyte page; comments are not kept at all.
 */
export function parseHtml(html: string): Document {
  // A pushed-to array keeps spare capacity (17 slots after the first push); most elements have
  // one to three children, so the final list is copied to an exact-size array when it closes.
  const finish = (el: ElementNode) => {
    const kids = el.children;
    if (kids.length) el.children = kids.slice();
  };
  const tagNames = new Map<string, string>();
  const strings = new StringPool();
  const root = new RootNode(null, 'root');
  root.attribs = {};
  const stack: ElementNode[] = [root];
  // Where new nodes go: the innermost open element, or past MAX_TREE_DEPTH the element at that
  // depth. Elements past it are still pushed on the stack, so close tags stay balanced.
  const container = () => stack[Math.min(stack.length - 1, MAX_TREE_DEPTH)]!;
  const parser = new Parser(
    {
      // onopentagname + onattribute instead of onopentag: with no onopentag handler the
      // parser never builds an object of all attributes per tag, only the kept ones exist.
      onopentagname(slice) {
        // Every tag name arrives as its own new string: one copy per name instead.
        let name = tagNames.get(slice);
        if (name === undefined) tagNames.set(slice, (name = slice));
        if (stacks && stacks.stack.length > PARSER_MAX_OPEN) {
          stacks.stack.length = PARSER_MAX_OPEN;
          if (stacks.foreignContext.length > PARSER_MAX_OPEN) stacks.foreignContext.length = PARSER_MAX_OPEN;
        }
        const top = container();
        const el = name === 'script' ? new ScriptNode(top, name) : name === 'style' ? new StyleNode(top, name) : new ElementNode(top, name);
        top.children.push(el);
        stack.push(el);
      },
      onattribute(name, value) {
        if (!KEPT_ATTRIBUTES.has(name)) return;
        const el = stack[stack.length - 1]!;
        if (el.attribs === NO_ATTRIBUTES) el.attribs = {};
        // The first of duplicate attributes wins, as in browsers.
        if (!Object.hasOwn(el.attribs, name)) el.attribs[name] = REPEATED_VALUES.has(name) ? strings.intern(value) : value;
      },
      onclosetag() {
        if (stack.length > 1) finish(stack.pop()!);
      },
      ontext(data) {
        const top = container();
        const kids = top.children;
        const last = kids[kids.length - 1];
        if (last instanceof TextNode) last.data += data;
        else kids.push(new TextNode(top, data.length <= SHORT_TEXT ? strings.intern(data) : data));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  const stacks = parserStacks(parser);
  parser.end(html);
  while (stack.length) finish(stack.pop()!);
  return root as unknown as Document;
}
