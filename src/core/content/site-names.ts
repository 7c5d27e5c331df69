// The names a site goes by (its own name, its publisher, its brand), gathered from every page
// an action read, so that none of them is ever offered as a topic. The one thing to know: a page
// may name no site at all (no og:site_name, no JSON-LD, served on an IP address), so the names
// come from all the pages read together: og:site_name, application-name, the header's logo and
// brand, the site-level JSON-LD (Organization, WebSite, publisher, a product's brand), and a
// title prefix or suffix ("… | Acme PM") that repeats across pages with different titles.
import type { PageDocument } from '../pages/document.ts';

/** Organisation-like schema.org types whose name, at the top of a page's JSON-LD, is the site's. */
const SITE_TYPES = /^(?:Organization|Corporation|LocalBusiness|NGO|NewsMediaOrganization|OnlineStore|OnlineBusiness|Store|WebSite|Brand)$/;
/** Separators of a title's site name: "Pricing | Acme", "Acme – Pricing", "Acme: Pricing". */
const TITLE_SEPARATOR = /\s*\|\s*|\s+[–—·•:-]\s+|:\s+/;

const nameOf = (v: unknown): string | null =>
  typeof v === 'string' ? v.trim() || null : Array.isArray(v) ? nameOf(v[0]) : v && typeof v === 'object' ? nameOf((v as Record<string, unknown>).name) : null;

const typesOf = (node: Record<string, unknown>) => ([] as unknown[]).concat(node['@type'] ?? []).map(String);

/** Top-level JSON-LD nodes (roots and @graph members): what the page says about itself. */
function topNodes(jsonLd: unknown[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const root of jsonLd.flat()) {
    if (!root || typeof root !== 'object') continue;
    const graph = (root as Record<string, unknown>)['@graph'];
    if (Array.isArray(graph)) for (const g of graph) g && typeof g === 'object' && out.push(g as Record<string, unknown>);
    else out.push(root as Record<string, unknown>);
  }
  return out;
}

/** Names one page gives its site or publisher (not the people or things it writes about). */
function declaredNames(doc: PageDocument): string[] {
  const names: (string | null)[] = [doc.openGraph['site_name'] ?? null, ...(doc.page?.siteNames ?? [])];
  for (const node of topNodes(doc.jsonLd)) {
    if (typesOf(node).some((t) => SITE_TYPES.test(t))) names.push(nameOf(node.name), nameOf(node.alternateName));
    if (typesOf(node).some((t) => /^(?:Product|SoftwareApplication)$/.test(t))) names.push(nameOf(node.brand), nameOf(node.manufacturer));
    // The publisher of the page itself (an Article's), not of a work it cites.
    if (node.publisher) names.push(nameOf(node.publisher));
  }
  return names.filter((n): n is string => !!n);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A title's first or last part that stands in the titles of at least two pages with different
 * rest ("Pricing | Acme PM", "Guide | Acme PM"). A phrase the pages also write in lower case
 * ("Project Management Software: …" above a text about project management software) is a topic
 * heading, not a name.
 */
function titleAffixes(docs: PageDocument[]): string[] {
  const rests = new Map<string, { name: string; rests: Set<string> }>();
  for (const doc of docs) {
    const parts = (doc.title ?? '').split(TITLE_SEPARATOR).map((p) => p.trim()).filter(Boolean);
    if (parts.length < 2) continue;
    for (const [affix, rest] of [[parts[0]!, parts.slice(1)], [parts.at(-1)!, parts.slice(0, -1)]] as const) {
      const key = affix.toLowerCase();
      const e = rests.get(key) ?? { name: affix, rests: new Set<string>() };
      e.rests.add(rest.join(' ').toLowerCase());
      rests.set(key, e);
    }
  }
  const text = docs.map((d) => d.bodyText).join('\n');
  const out: string[] = [];
  for (const [key, e] of rests) {
    if (e.rests.size < 2 || e.name.length > 40 || e.name.split(/\s+/).length > 4) continue;
    const lowerInText = new RegExp(`(?<![\\p{L}\\p{N}])${escape(key)}(?![\\p{L}\\p{N}])`, e.name === key ? 'iu' : 'u').test(text);
    if (!lowerInText) out.push(e.name);
  }
  return out;
}

/** The site's and its publisher's names, from every page read (the page first). */
export function siteNames(docs: PageDocument[]): string[] {
  const seen = new Map<string, string>();
  for (const n of [...docs.flatMap(declaredNames), ...titleAffixes(docs)]) {
    const clean = n.replace(/\s+/g, ' ').trim();
    // Two letters match inside too many words to exclude anything safely ("PM", "Go").
    if (clean.replace(/[^\p{L}\p{N}]/gu, '').length >= 3 && !seen.has(clean.toLowerCase())) seen.set(clean.toLowerCase(), clean);
  }
  return [...seen.values()];
}
