// Renders a PageDocument as the content view: Markdown-flavoured, normalized text that the
// Serialization endpoint pages through (`# Title`, the meta description, then headings and body
// copy in document order). The one thing to know: the output is a pure function of the
// document, so the same page always serializes to the same bytes and slices concatenate back.
import type { Block, PageDocument } from './document.ts';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function escapeCell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

function renderBlock(b: Block): string {
  switch (b.kind) {
    case 'heading': {
      const level = Math.min(6, Math.max(1, b.level));
      return `${'#'.repeat(level)} ${oneLine(b.text)}`;
    }
    case 'paragraph':
      return b.text
        .split('\n')
        .map(oneLine)
        .filter(Boolean)
        .join('\n');
    case 'list':
      return b.items.map((item, i) => `${b.ordered ? `${i + 1}.` : '-'} ${oneLine(item)}`).join('\n');
    case 'table': {
      const width = Math.max(...b.rows.map((r) => r.length));
      const pad = (r: string[]) => [...r, ...Array(width - r.length).fill('')];
      const line = (r: string[]) => `| ${pad(r).map(escapeCell).join(' | ')} |`;
      const rows = b.rows.map(line);
      if (b.header && rows.length) rows.splice(1, 0, `|${' --- |'.repeat(width)}`);
      return rows.join('\n');
    }
    case 'code': {
      const fence = b.text.includes('```') ? '~~~' : '```';
      return `${fence}${b.language ?? ''}\n${b.text.replace(/\s+$/, '')}\n${fence}`;
    }
    case 'quote':
      return b.text
        .split('\n')
        .map((l) => oneLine(l))
        .filter(Boolean)
        .map((l) => `> ${l}`)
        .join('\n');
  }
}

function repeatsTitle(heading: string, title: string): boolean {
  if (!heading || !title) return false;
  const h = heading.toLowerCase();
  const t = title.toLowerCase();
  return t === h || (t.startsWith(h) && /^\s*[|\-–—:·•]/.test(t.slice(h.length)));
}

/**
 * Collects the view's pieces and joins them every CHUNK characters. Why: a big page has a
 * hundred thousand blocks, and a list of every rendered block lives until the final join, long
 * enough to be promoted to the old generation; joined in chunks, the pieces die young and the
 * view costs about twice its own size at the end (chunks + result), not several times.
 */
class ViewBuilder {
  private static readonly CHUNK = 1 << 16;
  private readonly chunks: string[] = [];
  private parts: string[] = [];
  private size = 0;
  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= ViewBuilder.CHUNK) this.flush();
  }
  private flush(): void {
    if (!this.parts.length) return;
    this.chunks.push(this.parts.join('\n\n'));
    this.parts = [];
    this.size = 0;
  }
  /** The view with its final newline, as one flat string (a `${view}\n` would be a rope that
   * every later slice or serialization first copies flat). */
  finish(): string {
    this.flush();
    const chunks = this.chunks;
    if (!chunks.length) return '';
    chunks[chunks.length - 1] += '\n';
    return chunks.length === 1 ? chunks[0]! : chunks.join('\n\n');
  }
}

/**
 * The view's title: the page's H1 when it sits outside the main block (a page header above
 * it, which the extractor leaves out of the main text), since that heading is the title a
 * reader sees and the view would otherwise show no H1 at all; else the <title>.
 */
function viewTitle(doc: PageDocument): string {
  const outside = doc.page?.h1s?.[0];
  if (outside && !doc.blocks.some((b) => b.kind === 'heading' && b.level === 1)) return oneLine(outside);
  return doc.title ? oneLine(doc.title) : '';
}

/**
 * The page's sources list after the article, under its own title ("Sources", "Quellen"), each
 * entry a Markdown link to what it cites. The extractor keeps such lists out of the main text (a
 * list of links at the end reads as a link box, and the word count is of the article), but they
 * are the article's evidence and a reader of the view sees them.
 */
function renderReferences(doc: PageDocument, out: ViewBuilder): void {
  const entries = doc.page?.references ?? [];
  let heading: string | undefined;
  let items: string[] = [];
  const flush = () => {
    if (items.length) out.push(items.join('\n'));
    items = [];
  };
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const title = e.heading ? oneLine(e.heading) : 'Sources';
    if (i === 0 || title !== heading) {
      flush();
      heading = title;
      out.push(`## ${title}`);
    }
    const text = oneLine(e.text);
    items.push(e.href ? `- [${text.replace(/([[\]])/g, '\\$1')}](${e.href.replace(/[()\s]/g, encodeURIComponent)})` : `- ${text}`);
  }
  flush();
}

export function renderContentView(doc: PageDocument): string {
  const out = new ViewBuilder();
  const title = viewTitle(doc);
  if (title) out.push(`# ${title}`);
  const description = doc.description ? oneLine(doc.description) : '';
  if (description) out.push(description);
  const blocks = doc.blocks;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    // A leading h1 that only repeats the title (often "Title | Site") would print it twice.
    if (i === 0 && b.kind === 'heading' && b.level === 1 && repeatsTitle(oneLine(b.text), title)) continue;
    const text = renderBlock(b);
    if (text) out.push(text);
  }
  renderReferences(doc, out);
  return out.finish();
}
