// Where an answer's text is an address rather than prose: URLs, autolinks, e-mail addresses, bare
// domains ("acme.com", also as a link's visible text) and Markdown link destinations and
// reference definitions. A brand inside one of these is citation evidence, not a mention in
// words (the reader's rule for mentions, docs/mentions.md: a link counts as a mention only when its visible text
// names the brand in words).
// The one thing to know: URLs, e-mails and bare domains are found by linkify-it (markdown-it's
// linkifier: schemes, `www.`, e-mail, and bare host names on known top-level domains, so
// "Node.js" or "e.g." are not domains). Markdown destinations use two anchored regexes without
// nested quantifiers. All of it is linear in the answer length.
import { LinkifyIt } from 'linkify-it';
import { registrableDomain } from './domains.ts';

export type AddressKind = 'url' | 'email' | 'domain' | 'destination';

export interface AddressRange {
  /** Original UTF-16 range [start, end). */
  start: number;
  end: number;
  kind: AddressKind;
  /** Normalised host the address points at ("" when it has none). */
  domain: string;
}

/**
 * Generic top-level domains common in product names, beyond linkify-it's defaults (com, net,
 * org, info, … and every two-letter country code). Kept short on purpose: the full list holds
 * everyday words ("now", "one", "new") that would turn "Acme.Now" into a domain.
 */
const EXTRA_TLDS = ['app', 'dev', 'cloud', 'tech', 'online', 'site', 'store', 'shop', 'xyz', 'page', 'software', 'digital', 'agency', 'studio', 'finance', 'bank', 'health'];

let linkify: LinkifyIt | undefined;

function linkifier(): LinkifyIt {
  linkify ??= new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false }).tlds(EXTRA_TLDS, true);
  return linkify;
}

/** What makes a token (a run of non-whitespace) one that may hold an address: a dot inside it, an "@" or "://". */
const ADDRESS_HINT = /\.[^\s.]|@|:\/\//gu;
const SPACE = /\s/u;
const INLINE_DESTINATION = /\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g;
const REFERENCE_DEFINITION = /^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S+/gm;

function hostOf(address: string, kind: AddressKind): string {
  if (kind === 'email') return registrableDomain(address.replace(/^mailto:/i, '').split('@').pop() ?? '');
  return registrableDomain(address);
}

/** Every address range of the text, sorted by start (ranges may nest: a URL inside a destination). */
export function findAddresses(text: string): AddressRange[] {
  const out: AddressRange[] = [];
  // linkify-it runs only on the whitespace-separated tokens that could hold an address (a dot, an
  // "@" or a "://"): no address spans whitespace, and scanning whole answers with its host
  // pattern cost about 1 ms per KB, most of the analysis. The tokens are found from their hints
  // (a hint never holds whitespace, so its token is the run of non-whitespace around it), not by
  // splitting the whole answer into words: a match object per word was most of what the analysis
  // allocated (bench:runs).
  ADDRESS_HINT.lastIndex = 0;
  for (let hint; (hint = ADDRESS_HINT.exec(text)); ) {
    let start = hint.index;
    while (start > 0 && !SPACE.test(text[start - 1]!)) start--;
    let end = ADDRESS_HINT.lastIndex;
    while (end < text.length && !SPACE.test(text[end]!)) end++;
    ADDRESS_HINT.lastIndex = end;
    const token = text.slice(start, end);
    for (const m of linkifier().match(token) ?? []) {
      const kind: AddressKind = m.schema === 'mailto:' ? 'email' : m.schema === '' && !/[/?#]/.test(m.raw) && !/^www\./i.test(m.raw) ? 'domain' : 'url';
      out.push({ start: start + m.index, end: start + m.lastIndex, kind, domain: hostOf(m.url, kind) });
    }
  }
  for (let m; (m = INLINE_DESTINATION.exec(text)); ) {
    const inner = m[0].slice(2, -1).trim().split(/\s+/)[0] ?? '';
    out.push({ start: m.index + 1, end: m.index + m[0].length, kind: 'destination', domain: /^[a-z][a-z0-9+.-]*:\/\//i.test(inner) ? registrableDomain(inner) : '' });
  }
  for (let m; (m = REFERENCE_DEFINITION.exec(text)); ) {
    const target = m[0].slice(m[0].indexOf(']:') + 2).trim();
    out.push({ start: m.index, end: m.index + m[0].length, kind: 'destination', domain: /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? registrableDomain(target) : '' });
  }
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  return out;
}

/**
 * Whether the mention [start, end) is prose: not inside an address, except a bare domain the
 * mention covers whole (a brand whose name is its domain, "Booking.com", named as such).
 * `ranges` sorted by start; a binary search finds the candidates, so each check is O(log n).
 */
export function isProseMention(ranges: readonly AddressRange[], start: number, end: number): boolean {
  // linkify-it's ranges are disjoint, and so are the Markdown ones; at most one of each covers a
  // point, so a few steps back from the last range starting at or before `start` find them.
  let lo = 0;
  let hi = ranges.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ranges[mid]!.start <= start) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = last; i >= 0 && i > last - 8; i--) {
    const r = ranges[i]!;
    if (r.end <= start) continue;
    if (r.kind === 'domain' && r.start === start && r.end === end) continue;
    return false;
  }
  // A range starting inside the mention (the mention runs into a URL: "Acme https://…" never does,
  // "acme.com/pricing" does when the brand is "acme.com").
  const next = ranges[last + 1];
  if (next && next.start < end) return next.kind === 'domain' && next.start === start && next.end === end;
  return true;
}
