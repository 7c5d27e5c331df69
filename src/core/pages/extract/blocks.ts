// Turns the chosen main-content subtrees into typed blocks (headings, paragraphs, lists, tables,
// code, quotes) in document order. The one thing to know: a block element always ends the
// current paragraph, and inline content is only ever joined within one paragraph, so text
// from different boxes never runs together into one word.
import type { Block } from '../document.ts';
import { attr, isElement, isText, normalizeSpace, walk, type AnyNode, type Element } from './dom.ts';

/** Elements that start a new line of text (everything not listed is treated as inline). */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'html', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td',
  'tfoot', 'th', 'thead', 'tr', 'ul', 'caption', 'legend', 'frameset', 'frame', 'noframes', 'option', 'output',
]);

/** Elements whose content is never page text. (<noscript> is not here: it is what a client
 * without JavaScript shows, e.g. Discourse's whole thread; pruning drops the small ones.) */
export const SKIP_TAGS = new Set([
  'script', 'style', 'template', 'svg', 'math', 'canvas', 'iframe', 'object', 'embed', 'select',
  'textarea', 'button', 'input', 'head', 'title', 'meta', 'link', 'map', 'audio', 'video', 'source', 'track',
  'datalist', 'img', 'picture', 'frameset', 'frame',
]);

const HEADING_RE = /^h([1-6])$/;
/** A paragraph that is only an image's address (theme settings and swatch data printed as
 * text, shown as pictures by script) is not copy. */
const IMAGE_URL = /^(?:https?:)?\/\/\S+\.(?:jpe?g|png|gif|webp|avif|svg)(?:[?#]\S*)?$/i;

/** Text of a subtree with block boundaries as newlines and <br> as newline; lines normalized. */
export function blockText(root: Element): string {
  const parts: string[] = [];
  walk(root, (n) => {
    if (isText(n)) {
      pushText(parts, n.data);
      return;
    }
    if (!isElement(n)) return false;
    if (SKIP_TAGS.has(n.name)) return false;
    if (n.name === 'br' || BLOCK_TAGS.has(n.name)) parts.push('\n');
    else if (n.name === 'td' || n.name === 'th') parts.push(' ');
    return true;
  });
  return joinLines(parts.join(''));
}

const LOWER_END = /\p{L}\p{Ll}$/u;
const UPPER_START = /^\p{Lu}/u;
const DIGIT_START = /^\p{N}/u;
const DIGIT_END = /\p{N}$/u;
/** A figure and a short unit ("54m", "5kg", "2nd"). */
const UNIT_END = /\p{N}\p{Ll}{1,3}$/u;
/**
 * Appends a text node's text. Two text nodes are always apart by a tag; where one ends in a
 * lowercase letter and the next starts with a capital ("Top Rated</span><span>Merrell"), the
 * tags are two labels that the page's CSS sets apart (badges, brand and name in a product card),
 * not one word: a space keeps them two words. Not after a lone letter ("i<b>P</b>hone",
 * "e<span>Bay</span>"): those are one name styled in parts.
 * adjacent-figures: the same for two figures ("2026</span><span>1h 54m": a year and a running
 * time, "$120</span><span>10% off") and for a figure with its unit before a capital ("54m</span>
 * <span>R": a running time and a rating). A figure and its ordinal or unit stay one word
 * ("1<sup>st</sup>", "5<span>kg</span>").
 */
function pushText(parts: string[], data: string): void {
  const text = flat(data);
  if (parts.length) {
    const prev = parts[parts.length - 1]!;
    if (
      (UPPER_START.test(text) && LOWER_END.test(prev)) ||
      (DIGIT_START.test(text) && DIGIT_END.test(prev)) ||
      (UPPER_START.test(text) && UNIT_END.test(prev))
    )
      parts.push(' ');
  }
  parts.push(text);
}

/** Source line breaks are just whitespace; only <br> and block boundaries break lines. */
function flat(text: string): string {
  return text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0 ? text.replace(/[\r\n]+/g, ' ') : text;
}

function joinLines(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (const l of lines) {
    const t = normalizeSpace(l);
    if (t) out.push(t);
  }
  return out.join('\n');
}

function codeLanguage(el: Element): string | null {
  const classes = `${attr(el, 'class') ?? ''} ${el.children.find(isElement)?.attribs.class ?? ''}`;
  const m = /(?:^|\s)(?:language|lang|highlight|brush:?)-?([a-z0-9+#-]+)/i.exec(classes);
  return m ? m[1]!.toLowerCase() : (attr(el, 'data-lang') ?? attr(el, 'data-language') ?? null);
}

/** Raw text of <pre>, keeping line structure; <br> becomes a newline. */
function preText(el: Element): string {
  const parts: string[] = [];
  walk(el, (n) => {
    if (isText(n)) parts.push(n.data);
    else if (isElement(n)) {
      if (SKIP_TAGS.has(n.name)) return false;
      if (n.name === 'br') parts.push('\n');
    }
    return true;
  });
  return parts.join('').replace(/\r\n?/g, '\n').replace(/^\n+|\s+$/g, '').replace(/\u00a0/g, ' ');
}

function directRows(table: Element): Element[] {
  const rows: Element[] = [];
  walk(table, (n) => {
    if (!isElement(n)) return false;
    if (n.name === 'table') return false; // nested table: its rows are not ours
    if (n.name === 'tr') {
      rows.push(n);
      return false;
    }
    return true;
  });
  return rows;
}

/** A layout table holds page structure, not data: nested tables or long, block-rich cells. */
function isLayoutTable(table: Element, rows: Element[]): boolean {
  let nested = false;
  walk(table, (n) => {
    if (nested) return false;
    if (isElement(n) && n.name === 'table') nested = true;
    return !nested;
  });
  if (nested) return true;
  if (attr(table, 'role') === 'presentation') return true;
  let cells = 0;
  let maxCols = 0;
  for (const r of rows) {
    const c = r.children.filter((k) => isElement(k) && (k.name === 'td' || k.name === 'th')).length;
    cells += c;
    if (c > maxCols) maxCols = c;
  }
  if (rows.length <= 1 && maxCols <= 1) return true;
  // A few huge cells with paragraphs inside are a page laid out with a table.
  let longCells = 0;
  for (const r of rows) {
    for (const k of r.children) {
      if (!isElement(k) || (k.name !== 'td' && k.name !== 'th')) continue;
      const hasBlocks = k.children.some((x) => isElement(x) && (x.name === 'p' || x.name === 'div' || x.name === 'ul' || x.name === 'h2' || x.name === 'h3'));
      if (hasBlocks && blockText(k).length > 400) longCells++;
    }
  }
  return longCells > 0 && longCells * 3 >= cells;
}

export class BlockWriter {
  readonly blocks: Block[] = [];
  private inline: string[] = [];

  private flush(): void {
    if (!this.inline.length) return;
    const text = joinLines(this.inline.join(''));
    this.inline = [];
    if (text && !IMAGE_URL.test(text)) this.blocks.push({ kind: 'paragraph', text });
  }

  /** Writes one subtree. Iterative with an explicit stack of enter/leave markers. */
  write(root: AnyNode): void {
    // Two parallel stacks rather than a frame object per node: on a multi-megabyte page the
    // frames alone were tens of megabytes of garbage.
    const stack: AnyNode[] = [root];
    const leaving: boolean[] = [false];
    while (stack.length) {
      const node = stack.pop()!;
      const leave = leaving.pop()!;
      if (leave) {
        this.flush();
        continue;
      }
      if (isText(node)) {
        pushText(this.inline, node.data);
        continue;
      }
      if (!isElement(node)) continue;
      const name = node.name;
      if (SKIP_TAGS.has(name)) continue;
      if (name === 'br') {
        this.inline.push('\n');
        continue;
      }
      const h = HEADING_RE.exec(name);
      if (h) {
        this.flush();
        const text = normalizeSpace(blockText(node).replace(/\n/g, ' '));
        if (text) this.blocks.push({ kind: 'heading', level: Number(h[1]), text });
        continue;
      }
      if (name === 'ul' || name === 'ol') {
        this.flush();
        const items: string[] = [];
        this.listItems(node, items);
        if (items.length) this.blocks.push({ kind: 'list', ordered: name === 'ol', items: items.slice() });
        continue;
      }
      if (name === 'pre') {
        this.flush();
        const text = preText(node);
        if (text.trim()) this.blocks.push({ kind: 'code', text, language: codeLanguage(node) });
        continue;
      }
      if (name === 'blockquote') {
        this.flush();
        const text = blockText(node);
        if (text) this.blocks.push({ kind: 'quote', text });
        continue;
      }
      if (name === 'table') {
        this.flush();
        const rows = directRows(node);
        if (!isLayoutTable(node, rows)) {
          this.table(node, rows);
          continue;
        }
      }
      const block = BLOCK_TAGS.has(name);
      if (block) {
        this.flush();
        stack.push(node);
        leaving.push(true);
      } else if (name === 'td' || name === 'th') {
        this.inline.push(' ');
      }
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) {
        stack.push(kids[i]!);
        leaving.push(false);
      }
    }
    this.flush();
  }

  private listItems(list: Element, items: string[]): void {
    // Nested lists are flattened into the same item sequence, after their parent item.
    walk(list, (n) => {
      if (!isElement(n)) return false;
      if (n.name === 'li' || n.name === 'dt' || n.name === 'dd') {
        const nested: Element[] = [];
        const parts: string[] = [];
        walk(n, (k) => {
          if (isText(k)) {
            pushText(parts, k.data);
            return;
          }
          if (!isElement(k)) return false;
          if (SKIP_TAGS.has(k.name)) return false;
          if (k.name === 'ul' || k.name === 'ol') {
            nested.push(k);
            return false;
          }
          if (k.name === 'br' || BLOCK_TAGS.has(k.name)) parts.push('\n');
          return true;
        });
        const text = joinLines(parts.join('')).replace(/\n/g, ' ');
        if (text) items.push(text);
        for (const sub of nested) this.listItems(sub, items);
        return false;
      }
      return true;
    });
  }

  private table(table: Element, rows: Element[]): void {
    const out: string[][] = [];
    let header = false;
    for (const [i, r] of rows.entries()) {
      const cells: string[] = [];
      let allTh = true;
      for (const k of r.children) {
        if (!isElement(k) || (k.name !== 'td' && k.name !== 'th')) continue;
        if (k.name !== 'th') allTh = false;
        cells.push(normalizeSpace(blockText(k).replace(/\n/g, ' ')));
      }
      if (!cells.some((c) => c)) continue;
      if (i === 0 && (allTh || r.parent && isElement(r.parent) && r.parent.name === 'thead')) header = true;
      // Exact-size copies: a pushed-to array keeps room for 17 entries, and the document keeps these.
      out.push(cells.slice());
    }
    const caption = table.children.find((k) => isElement(k) && k.name === 'caption');
    if (caption && isElement(caption)) {
      const c = normalizeSpace(blockText(caption));
      if (c) this.blocks.push({ kind: 'paragraph', text: c });
    }
    if (out.length) this.blocks.push({ kind: 'table', rows: out.slice(), header });
  }
}

/** Plain text of blocks: no Markdown markers, blocks separated by blank lines. */
export function blocksToText(blocks: Block[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
      case 'paragraph':
      case 'quote':
      case 'code':
        parts.push(b.text);
        break;
      case 'list':
        parts.push(b.items.join('\n'));
        break;
      case 'table':
        parts.push(b.rows.map((r) => r.filter(Boolean).join('\t')).join('\n'));
        break;
    }
  }
  return parts.join('\n\n');
}
