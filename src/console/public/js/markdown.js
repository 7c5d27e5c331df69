// AI answers are Markdown: this renders one as Preact elements from marked's token tree (its
// lexer only; marked's HTML renderer is never used). The one thing to know: nothing here sets
// innerHTML. Raw HTML inside an answer is shown as text, links open only http(s) and mailto
// targets, images are shown as their alt text (no request leaves for them), and headings become
// bold paragraphs so an answer cannot reshape the page's outline. `mark` is applied to every
// plain-text run, so brand and competitor highlighting works inside lists, tables and emphasis.
import { html } from './ui.js';
import { Lexer } from 'marked';

const SAFE_LINK = /^(https?:|mailto:)/i;

/** Preact nodes for a Markdown answer; `mark(text)` turns a plain-text run into nodes. */
export function Markdown({ text, mark = (t) => t }) {
  let tokens;
  try {
    tokens = Lexer.lex(text || '', { gfm: true, breaks: true });
  } catch {
    return html`<p class="md-plain">${mark(text || '')}</p>`;
  }
  return blocks(tokens, mark);
}

function blocks(tokens, mark) {
  return (tokens || []).map((t) => block(t, mark));
}

function block(t, mark) {
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return html`<p>${inline(t.tokens, mark)}</p>`;
    case 'heading':
      return html`<p class="md-heading"><strong>${inline(t.tokens, mark)}</strong></p>`;
    case 'code':
      return html`<pre><code>${t.text}</code></pre>`;
    case 'blockquote':
      return html`<blockquote>${blocks(t.tokens, mark)}</blockquote>`;
    case 'hr':
      return html`<hr />`;
    case 'list': {
      const items = t.items.map((it) => html`<li>${it.task ? (it.checked ? '☑ ' : '☐ ') : null}${blocks(it.tokens, mark)}</li>`);
      return t.ordered ? html`<ol start=${t.start === '' || t.start === 1 ? undefined : t.start}>${items}</ol>` : html`<ul>${items}</ul>`;
    }
    case 'table':
      return html`<div class="md-table"><table>
        <thead><tr>${t.header.map((c, i) => html`<th style=${align(t.align[i])}>${inline(c.tokens, mark)}</th>`)}</tr></thead>
        <tbody>${t.rows.map((row) => html`<tr>${row.map((c, i) => html`<td style=${align(t.align[i])}>${inline(c.tokens, mark)}</td>`)}</tr>`)}</tbody>
      </table></div>`;
    case 'text':
      // A tight list item's text: inline tokens of its own.
      return t.tokens ? inline(t.tokens, mark) : mark(t.text);
    case 'html':
      return html`<p>${mark(t.text)}</p>`;
    default:
      return t.raw ? html`<p>${mark(t.raw)}</p>` : null;
  }
}

function align(a) {
  return a ? { textAlign: a } : undefined;
}

function inline(tokens, mark) {
  return (tokens || []).map((t) => {
    switch (t.type) {
      case 'text':
        return t.tokens ? inline(t.tokens, mark) : mark(t.text);
      case 'escape':
        return t.text;
      case 'strong':
        return html`<strong>${inline(t.tokens, mark)}</strong>`;
      case 'em':
        return html`<em>${inline(t.tokens, mark)}</em>`;
      case 'del':
        return html`<del>${inline(t.tokens, mark)}</del>`;
      case 'codespan':
        return html`<code>${t.text}</code>`;
      case 'br':
        return html`<br />`;
      case 'link':
        return SAFE_LINK.test(t.href)
          ? html`<a href=${t.href} title=${t.title || undefined} rel="noopener noreferrer nofollow" target="_blank">${inline(t.tokens, mark)}</a>`
          : inline(t.tokens, mark);
      case 'image':
        return html`<span class="muted">[image: ${t.text || t.href}]</span>`;
      case 'html':
        return t.text;
      default:
        return t.raw ?? '';
    }
  });
}
