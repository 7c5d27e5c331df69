// Finds list items in a Markdown-ish AI answer, so a mention can be given a list rank.
// The one thing to know: every line of the answer is owned by at most one list item (the item
// it belongs to, nested items owning their own lines), and an item's rank is its ordinal
// position among the siblings of its list, not the number written in front of it. Numbered
// lists interrupted by unindented paragraphs ("1. … text … 2. …") are resumed when the next
// number follows on, because AI answers often break lists that way. Line-based, one pass,
// anchored regexes only: linear in the answer size.

export interface ListSegment {
  /** Original UTF-16 range [start, end) owned by the item. */
  start: number;
  end: number;
  /** 1-based position of the item within its list. */
  rank: number;
}

type ListKind = 'ordered' | 'bullet';
type Owner = { rank: number; start: number };

interface OpenList {
  kind: ListKind;
  indent: number;
  count: number;
  lastNumber: number;
}

const HEADING_NUMBERED = /^ {0,3}(#{1,6})[ \t]+(?:\*\*|__)?(\d{1,3})[.)]/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const ORDERED = /^([ \t]*)(?:\*\*|__)?(\d{1,3})[.)](?:\*\*|__)?(?:[ \t]+|$)/;
const BULLET = /^([ \t]*)[-*+•▪◦‣●][ \t]+/;
const RULE = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE = /^[ \t]*(```|~~~)/;

function indentWidth(ws: string): number {
  let w = 0;
  for (const c of ws) w += c === '\t' ? 4 : 1;
  return w;
}

/** Segments of the text owned by list items, in document order. */
export function findListSegments(text: string): ListSegment[] {
  const segments: ListSegment[] = [];
  const stack: OpenList[] = [];
  /** Ordered lists closed by a paragraph, by indent: a following "n+1." resumes them. */
  const closedOrdered = new Map<number, OpenList>();
  let headingList: { level: number; count: number; lastNumber: number } | null = null;
  /** The item owning the current lines: its rank, or null when outside any item. */
  let owner: Owner | null = null;
  /** The heading item, which takes lines back when nested lists end. */
  let headingOwnerRank: number | null = null;
  let pendingBlank = false;
  let inFence = false;

  const closeOwner = (at: number) => {
    if (owner && at > owner.start) segments.push({ start: owner.start, end: at, rank: owner.rank });
    owner = null;
  };
  const closeListsTo = (indent: number) => {
    while (stack.length && stack[stack.length - 1].indent > indent) {
      const l = stack.pop()!;
      if (l.kind === 'ordered') closedOrdered.set(l.indent, l);
    }
  };
  const closeAllLists = () => closeListsTo(-1);

  let pos = 0;
  const n = text.length;
  while (pos <= n) {
    const nl = text.indexOf('\n', pos);
    const lineEnd = nl < 0 ? n : nl;
    const line = text.slice(pos, lineEnd).replace(/\r$/, '');
    const lineStart = pos;

    if (FENCE.test(line)) inFence = !inFence;
    let m: RegExpExecArray | null;
    if (inFence || FENCE.test(line)) {
      // Code belongs to whatever item holds it; it starts no items.
    } else if ((m = HEADING_NUMBERED.exec(line))) {
      const level = m[1].length;
      const num = Number(m[2]);
      closeOwner(lineStart);
      closeAllLists();
      closedOrdered.clear();
      if (headingList && headingList.level === level) {
        headingList.count++;
        headingList.lastNumber = num;
      } else {
        headingList = { level, count: 1, lastNumber: num };
      }
      owner = { rank: headingList.count, start: lineStart };
      headingOwnerRank = headingList.count;
    } else if ((m = HEADING.exec(line))) {
      const level = m[1].length;
      closeAllLists();
      closedOrdered.clear();
      if (headingList && level > headingList.level) {
        // A sub-heading ("#### Pros") inside a numbered-heading item stays in that item.
        if (headingOwnerRank !== null && (owner as Owner | null)?.rank !== headingOwnerRank) {
          closeOwner(lineStart);
          owner = { rank: headingOwnerRank, start: lineStart };
        }
      } else {
        closeOwner(lineStart);
        headingList = null;
        headingOwnerRank = null;
      }
    } else if (RULE.test(line)) {
      closeOwner(lineStart);
      closeAllLists();
      closedOrdered.clear();
      headingList = null;
      headingOwnerRank = null;
    } else if ((m = ORDERED.exec(line)) || (m = BULLET.exec(line))) {
      const kind: ListKind = m.length === 3 ? 'ordered' : 'bullet';
      const indent = indentWidth(m[1]);
      const num = kind === 'ordered' ? Number(m[2]) : 0;
      closeOwner(lineStart);
      closeListsTo(indent);
      let top = stack[stack.length - 1];
      if (top && top.indent === indent && top.kind !== kind) {
        stack.pop();
        top = stack[stack.length - 1];
      }
      if (top && top.indent === indent) {
        top.count++;
        top.lastNumber = num;
      } else {
        const resumable = kind === 'ordered' ? closedOrdered.get(indent) : undefined;
        if (resumable && num > 1 && num === resumable.lastNumber + 1) {
          resumable.count++;
          resumable.lastNumber = num;
          stack.push(resumable);
        } else {
          stack.push({ kind, indent, count: 1, lastNumber: num });
        }
        closedOrdered.delete(indent);
        top = stack[stack.length - 1];
      }
      owner = { rank: top.count, start: lineStart };
    } else if (line.trim() === '') {
      pendingBlank = true;
      pos = lineEnd + 1;
      continue;
    } else {
      const indented = /^(?: {2,}|\t)/.test(line);
      if (stack.length && (indented || !pendingBlank)) {
        // Continuation of the current item (indented, or a lazy continuation line).
      } else if (stack.length) {
        // An unindented paragraph after a blank line ends the lists.
        closeOwner(lineStart);
        closeAllLists();
        if (headingOwnerRank !== null) owner = { rank: headingOwnerRank, start: lineStart };
      }
    }
    pendingBlank = false;
    pos = lineEnd + 1;
  }
  closeOwner(n);
  return segments;
}

/** Rank of the item owning `offset`, or null. Segments are sorted and disjoint. */
export function rankAt(segments: ListSegment[], offset: number): number | null {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segments[mid];
    if (offset < s.start) hi = mid - 1;
    else if (offset >= s.end) lo = mid + 1;
    else return s.rank;
  }
  return null;
}
