// The page's own declared dates. Structured data often describes more than the page: an Event
// it announces, a study it cites, a review or comment below it. Their dates are not the page's
// date, so only the nodes that stand for the page itself count: the top-level nodes (and @graph
// members) of a page-like type (Article, BlogPosting, WebPage…) or whose url / @id is the page's
// address, plus their mainEntity. Meta tags and <time pubdate> come next; a date that only a
// described node carries is never taken from them.
import type { PageDocument } from '../pages/document.ts';
import { toIsoDate } from '../pages/extract/metadata.ts';

type Node = Record<string, unknown>;

const PAGE_TYPE = /(?:Article|Posting|Page)$|^(?:Report|HowTo|Recipe|Guide|Review|Question)$/;

const typesOf = (n: Node) => ([] as unknown[]).concat(n['@type'] ?? []).map(String);
const withoutFragment = (u: unknown) => (typeof u === 'string' ? u.replace(/#.*$/, '').replace(/\/+$/, '') : null);

function topNodes(roots: unknown[]): Node[] {
  const out: Node[] = [];
  const add = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') {
      const n = v as Node;
      if (Array.isArray(n['@graph'])) (n['@graph'] as unknown[]).forEach(add);
      else out.push(n);
    }
  };
  roots.forEach(add);
  return out;
}

function isPageNode(n: Node, url: string | null): boolean {
  if (typesOf(n).some((t) => PAGE_TYPE.test(t))) return true;
  return !!url && (withoutFragment(n.url) === url || withoutFragment(n['@id']) === url);
}

/** Every date any JSON-LD node declares (as YYYY-MM-DD). */
function allLdDays(roots: unknown[]): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [...roots];
  let guard = 0;
  while (stack.length && guard++ < 5000) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (v && typeof v === 'object') {
      const o = v as Node;
      for (const k of ['datePublished', 'dateCreated', 'uploadDate', 'dateModified']) {
        const d = toIsoDate(o[k]);
        if (d) out.add(d.slice(0, 10));
      }
      for (const k of Object.keys(o)) if (typeof o[k] === 'object') stack.push(o[k]);
    }
  }
  return out;
}

export interface PageDates {
  published: string | null;
  modified: string | null;
}

/** datePublished / dateModified of the page itself (ISO strings, as the extractor writes them). */
export function pageDates(doc: PageDocument): PageDates {
  const url = withoutFragment(doc.canonicalUrl ?? doc.url);
  const own = withoutFragment(doc.url);
  const nodes = topNodes(doc.jsonLd);
  const pageNodes = nodes.filter((n) => isPageNode(n, url) || isPageNode(n, own));
  for (const n of [...pageNodes]) for (const m of ([] as unknown[]).concat(n.mainEntity ?? [])) if (m && typeof m === 'object' && typesOf(m as Node).some((t) => PAGE_TYPE.test(t))) pageNodes.push(m as Node);
  let published: string | null = null;
  let modified: string | null = null;
  for (const n of pageNodes) {
    published ??= toIsoDate(n.datePublished) ?? toIsoDate(n.dateCreated) ?? toIsoDate(n.uploadDate);
    modified ??= toIsoDate(n.dateModified);
  }
  // Meta tags and <time> (what the extractor found beside JSON-LD), unless the date is one that
  // only a described node declares.
  const pageDays = new Set([published, modified].filter((d): d is string => !!d).map((d) => d.slice(0, 10)));
  const described = [...allLdDays(doc.jsonLd)].filter((d) => !pageDays.has(d));
  const usable = (d: string | null) => (d && !described.includes(d.slice(0, 10)) ? d : null);
  return { published: published ?? usable(doc.dates.published), modified: modified ?? usable(doc.dates.modified) };
}
