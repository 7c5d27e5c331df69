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

export function renderContentView(doc: PageDocument): string {
  const parts: string[] = [];
  const title = doc.title ? oneLine(doc.title) : '';
  if (title) parts.push(`# ${title}`);
  const description = doc.description ? oneLine(doc.description) : '';
  if (description) parts.push(description);
  for (const [i, b] of doc.blocks.entries()) {
    // A leading h1 that only repeats the title (often "Title | Site") would print it twice.
    if (i === 0 && b.kind === 'heading' && b.level === 1 && repeatsTitle(oneLine(b.text), title)) continue;
    const text = renderBlock(b);
    if (text) parts.push(text);
  }
  return parts.length ? `${parts.join('\n\n')}\n` : '';
}
