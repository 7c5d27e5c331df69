// Lines and blocks of the main text that are not copy: a line written twice (a hidden copy for
// screen readers), a block repeated word for word, a theme's placeholder text, a widget's state,
// site chrome, a listing's controls, and on product pages a line that repeats an earlier one.
import type { PageDocument } from '../document.ts';
import {
  CHROME_ACCOUNT,
  CHROME_LINE,
  CARD_COUNTER_LINE,
  CONTROL_LINE,
  FEEDBACK_PROMPT_LINE,
  FORUM_CHROME_LINE,
  LISTING_CONTROL,
  LISTING_CONTROL_MAX,
  PLACEHOLDER,
  RATING_CELL,
  RATING_STAR,
  REVIEWS_TITLE,
} from './rules.ts';

/** "See all detailsSee all details" -> "See all details": a line that is one text twice (a
 * visually hidden copy for screen readers beside the visible one) is written once. */
function undoubleLine(line: string): string {
  const n = line.length;
  if (n < 12) return line;
  const half = n >> 1;
  if (n % 2 === 0) return line.slice(0, half) === line.slice(half) ? line.slice(0, half) : line;
  return line[half] === ' ' && line.slice(0, half) === line.slice(half + 1) ? line.slice(0, half) : line;
}

/** A block with its doubled lines written once (see undoubleLine). */
export function undouble(b: PageDocument['blocks'][number]): PageDocument['blocks'][number] {
  switch (b.kind) {
    // Most blocks have no doubled line: those are kept as they are, not copied (a big page has
    // a hundred thousand blocks, and the copies would double what the document holds).
    case 'paragraph':
    case 'heading': {
      const lines = b.text.split('\n');
      let changed = false;
      for (let i = 0; i < lines.length; i++) {
        const line = undoubleLine(lines[i]!);
        if (line !== lines[i]) {
          lines[i] = line;
          changed = true;
        }
      }
      return changed ? { ...b, text: lines.join('\n') } : b;
    }
    case 'list':
      return b.items.some((item) => undoubleLine(item) !== item) ? { ...b, items: b.items.map(undoubleLine) } : b;
    default:
      return b;
  }
}

function blockKey(b: PageDocument['blocks'][number]): string {
  switch (b.kind) {
    case 'list':
      return b.items.join('\n');
    case 'table':
      return b.rows.map((r) => r.join('\t')).join('\n');
    default:
      return b.text;
  }
}

/** Drops a block that repeats an earlier one word for word: responsive layouts render the same
 * description, specs or card twice (for mobile and desktop, one hidden by CSS we do not run),
 * and a repeated label or call to action ("Add to cart", "Read more") says nothing new. */
export function dedupe(blocks: PageDocument['blocks']): PageDocument['blocks'] {
  const seen = new Set<string>();
  const out: PageDocument['blocks'] = [];
  for (const b of blocks) {
    const key = blockKey(b);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(b);
  }
  return out;
}

export function isPlaceholder(b: PageDocument['blocks'][number]): boolean {
  return (b.kind === 'paragraph' || b.kind === 'heading') && PLACEHOLDER.test(b.text);
}

/** A line's words, lowercased: "Free Shipping!" and "free shipping" are one line. */
function lineKey(line: string): string {
  return (line.toLowerCase().match(LINE_WORDS) ?? []).join(' ');
}

const LINE_WORDS = /[\p{L}\p{N}_]+/gu;

/**
 * On a product page, drops a line (a paragraph's line, a list item, a table row, a heading) whose
 * words repeat an earlier line's: shops render the same bit twice in different boxes (the price in
 * the sticky bar and the buy box, a spec in the highlights and the table, a tab's title and its
 * accordion twin, desktop and mobile copies of a block that differ in markup), which the
 * block-level `dedupe` misses. Not on other pages: a listing's or a manual's repeated lines
 * (field labels, steps, code) are each one's own.
 */
export function dedupeLines(blocks: PageDocument['blocks']): PageDocument['blocks'] {
  const seen = new Set<string>();
  const fresh = (line: string): boolean => {
    const key = lineKey(line);
    if (!key) return true;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const out: PageDocument['blocks'] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        if (fresh(b.text)) out.push(b);
        break;
      case 'paragraph':
      case 'quote': {
        const lines = b.text.split('\n');
        const kept = lines.filter(fresh);
        if (kept.length === lines.length) out.push(b);
        else if (kept.some((l) => lineKey(l))) out.push({ ...b, text: kept.join('\n') });
        break;
      }
      case 'list': {
        const items = b.items.filter(fresh);
        if (items.length === b.items.length) out.push(b);
        else if (items.length) out.push({ ...b, items });
        break;
      }
      case 'table': {
        const rows = b.rows.filter((r, i) => fresh(r.join(' ')) || (b.header && i === 0));
        if (rows.length === b.rows.length) out.push(b);
        else if (rows.length > (b.header ? 1 : 0)) out.push({ ...b, rows });
        break;
      }
      default:
        out.push(b);
    }
  }
  return out;
}

/** Longest line tested against FORUM_CHROME_LINE (characters). */
const FORUM_CHROME_MAX = 140;

/** Longest line tested against FEEDBACK_PROMPT_LINE (characters). */
const FEEDBACK_PROMPT_MAX = 260;

const isSiteChrome = (line: string, heading: boolean) => {
  const t = line.trim();
  if (t.length <= 48 && CHROME_LINE.test(t) && !(heading && CHROME_ACCOUNT.test(t))) return true;
  // feedback-prompt (rules.ts): the page's own feedback widget, as a whole line.
  return t.length <= FEEDBACK_PROMPT_MAX && FEEDBACK_PROMPT_LINE.test(t);
};

/**
 * The blocks without the lines that are not copy: a widget's state (CONTROL_LINE), site chrome
 * (CHROME_LINE) and, in short paragraphs and headings, a listing's controls and counters
 * (LISTING_CONTROL). One pass over the blocks; a block left without words goes.
 */
export function dropJunkLines(blocks: PageDocument['blocks'], opts: { forum?: boolean; article?: boolean } = {}): PageDocument['blocks'] {
  // A page that declares an article keeps its bare counts: "(1)" numbers an equation there.
  const cardCounter = (line: string) => opts.article !== true && CARD_COUNTER_LINE.test(line);
  const forumChrome = (line: string) => opts.forum === true && line.length <= FORUM_CHROME_MAX && FORUM_CHROME_LINE.test(line.trim());
  const isChromeLine = (line: string, heading: boolean) => isSiteChrome(line, heading) || forumChrome(line);
  const isListingControl = (line: string) => line.length <= LISTING_CONTROL_MAX && LISTING_CONTROL.test(line.trim());
  const out: PageDocument['blocks'] = [];
  for (const b of blocks) {
    if (b.kind === 'heading') {
      const short = b.text.length <= LISTING_CONTROL_MAX * 4;
      const lines = b.text.split('\n');
      const kept = lines.filter((l) => !(short && isListingControl(l)) && !isChromeLine(l, true));
      if (kept.length === lines.length) out.push(b);
      else if (kept.some((l) => l.trim())) out.push({ ...b, text: kept.join('\n') });
    } else if (b.kind === 'paragraph') {
      const short = b.text.length <= LISTING_CONTROL_MAX * 4;
      const junk = (l: string) => CONTROL_LINE.test(l) || cardCounter(l) || isChromeLine(l, false) || (short && isListingControl(l));
      // Most paragraphs are one line: tested as they are, without splitting.
      if (!b.text.includes('\n')) {
        if (!junk(b.text)) out.push(b);
        continue;
      }
      const lines = b.text.split('\n');
      const kept = lines.filter((l) => !junk(l));
      if (kept.length === lines.length) out.push(b);
      else if (kept.some((l) => l.trim())) out.push({ ...b, text: kept.join('\n') });
    } else if (b.kind === 'list') {
      const items = b.items.filter((i) => !CONTROL_LINE.test(i) && !cardCounter(i) && !isChromeLine(i, false));
      if (items.length === b.items.length) out.push(b);
      else if (items.length) out.push({ ...b, items });
    } else out.push(b);
  }
  return out;
}

/** The lines of a one-line paragraph or heading, or a list's items; null for other blocks. */
function cellLines(b: PageDocument['blocks'][number]): string[] | null {
  if (b.kind === 'list') return b.items;
  if ((b.kind === 'paragraph' || b.kind === 'heading') && !b.text.includes('\n')) return [b.text];
  return null;
}

/**
 * Rating summary on a product page: a reviews widget's histogram ("5 ★", "57%", "8", "4 ★", …,
 * under "4.1 Based on 14 Reviews") is the widget's state, not the product's copy: a run of such
 * cells holding two star labels or more goes. A "Reviews" title then left over nothing (the next
 * block is a title, or the text ends) goes with it: the reviews it opened are not in the text.
 */
export function dropRatingSummaries(blocks: PageDocument['blocks']): PageDocument['blocks'] {
  const isCell = (b: PageDocument['blocks'][number]) => {
    const lines = cellLines(b);
    return lines !== null && lines.length > 0 && lines.every((l) => RATING_CELL.test(l.trim()));
  };
  const stars = (b: PageDocument['blocks'][number]) => (cellLines(b) ?? []).filter((l) => RATING_STAR.test(l.trim())).length;
  const kept: PageDocument['blocks'] = [];
  for (let i = 0; i < blocks.length; ) {
    if (!isCell(blocks[i]!)) {
      kept.push(blocks[i]!);
      i++;
      continue;
    }
    let j = i;
    let starLabels = 0;
    while (j < blocks.length && isCell(blocks[j]!)) starLabels += stars(blocks[j++]!);
    if (starLabels < 2) for (let k = i; k < j; k++) kept.push(blocks[k]!);
    i = j;
  }
  return kept.filter((b, i) => !(b.kind === 'heading' && REVIEWS_TITLE.test(b.text.trim()) && (i + 1 === kept.length || kept[i + 1]!.kind === 'heading')));
}
