// Where AI answers get their facts: every cited URL classed as the brand's own (`owned`: the
// test's URL domain and any brand domains), a named competitor's (`competitor`: its domains when
// known, else a domain named after it), or by kind of site from catalog/citation-sources.json
// (community, reference, video, review, news), else `other`; and the per-run figures built on
// that: citation share by class and by domain, the most-cited URLs, and per prompt the sources
// cited when a competitor is named and the brand is not (an outreach list). The one thing to
// know: a catalog entry may carry a path (`nytimes.com/wirecutter`), and the longest matching
// entry wins, so a review section of a news site is a review.
import { readFileSync } from 'node:fs';
import type { BrandTerms } from './plan.ts';
import { hostAndPath } from '../../lib/url.ts';
import { topSorted } from '../../lib/top.ts';
import { Layered } from '../../lib/layered.ts';

export const CITATION_CLASSES = ['owned', 'competitor', 'community', 'reference', 'video', 'review', 'news', 'other'] as const;
export type CitationClass = (typeof CITATION_CLASSES)[number];
type Kind = Exclude<CitationClass, 'owned' | 'competitor' | 'other'>;

export interface CitationCatalog {
  kinds: Partial<Record<Kind, string[]>>;
}

const BUNDLED = new URL('../../../catalog/citation-sources.json', import.meta.url);

/** Entries by host (and optional path prefix), longest first within a host. */
export class CitationSources {
  private readonly byHost = new Map<string, { path: string; kind: Kind }[]>();
  constructor(catalogs: CitationCatalog[]) {
    // Later catalogs (the operator's) override earlier ones for the same entry.
    for (const catalog of catalogs) {
      for (const [kind, entries] of Object.entries(catalog.kinds) as [Kind, string[]][]) {
        for (const entry of entries ?? []) {
          const slash = entry.indexOf('/');
          const host = (slash < 0 ? entry : entry.slice(0, slash)).toLowerCase().replace(/^www\./, '');
          const path = slash < 0 ? '' : entry.slice(slash).toLowerCase();
          const list = (this.byHost.get(host) ?? []).filter((e) => e.path !== path);
          list.push({ path, kind });
          list.sort((a, b) => b.path.length - a.path.length);
          this.byHost.set(host, list);
        }
      }
    }
  }

  /** The kind of a host and path, by the most specific entry (a subdomain counts as its parent). */
  kindOf(host: string, path: string): Kind | null {
    const p = path.toLowerCase();
    for (let h = host; h.includes('.'); h = h.slice(h.indexOf('.') + 1)) {
      const entries = this.byHost.get(h);
      const hit = entries?.find((e) => !e.path || p === e.path || p.startsWith(e.path.endsWith('/') ? e.path : `${e.path}/`) || p.startsWith(`${e.path}?`));
      if (hit) return hit.kind;
    }
    return null;
  }
}

let loaded: { key: string; sources: CitationSources } | null = null;
let operatorCatalog: string | undefined;

/**
 * The operator's catalog file (SIGHTLINE_CITATION_SOURCES_PATH), set once when the core is built:
 * every classification of the process then uses it. Read now, so a broken file fails the start.
 */
export function useOperatorCitationCatalog(path: string | undefined): void {
  operatorCatalog = path?.trim() || undefined;
  loaded = null;
  citationSources();
}

/** The bundled catalog, extended by the operator's file (SIGHTLINE_CITATION_SOURCES_PATH) when given. */
export function citationSources(extraPath: string | undefined = operatorCatalog): CitationSources {
  const key = extraPath ?? '';
  if (!loaded || loaded.key !== key) {
    const catalogs = [JSON.parse(readFileSync(BUNDLED, 'utf8')) as CitationCatalog];
    if (extraPath) catalogs.push(JSON.parse(readFileSync(extraPath, 'utf8')) as CitationCatalog);
    loaded = { key, sources: new CitationSources(catalogs) };
  }
  return loaded.sources;
}

export interface Brand {
  /** The test's URL domain and any other domains of the brand. */
  domains: string[];
  /** Competitors by name, with their domains when known. */
  competitors: { name: string; domains?: string[] }[];
}

const sameSite = (host: string, domain: string) => {
  const d = domain.toLowerCase().replace(/^www\./, '');
  return host === d || host.endsWith(`.${d}`);
};
const slug = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');

export interface ClassifiedCitation {
  url: string;
  domain: string;
  class: CitationClass;
  /** The competitor a `competitor` citation belongs to. */
  competitor?: string;
}

/** One cited URL's class for a brand (null: not an http(s) URL). */
export function classifyCitation(url: string, brand: Brand, sources: CitationSources): ClassifiedCitation | null {
  const parsed = hostAndPath(url);
  if (!parsed || !parsed.host.includes('.')) return null;
  const { host, path } = parsed;
  if (brand.domains.some((d) => sameSite(host, d))) return { url, domain: host, class: 'owned' };
  for (const c of brand.competitors) {
    const known = c.domains?.length ? c.domains.some((d) => sameSite(host, d)) : false;
    // No domains given: a host whose name before its suffix is the competitor's name (globex.com, www.globex.co.uk).
    const named = !c.domains?.length && slug(c.name).length >= 3 && host.split('.').some((label, i, all) => i < all.length - 1 && label === slug(c.name));
    if (known || named) return { url, domain: host, class: 'competitor', competitor: c.name };
  }
  return { url, domain: host, class: sources.kindOf(host, path) ?? 'other' };
}

/**
 * Classes of URLs already seen, per brand and catalog, the least recently used brand dropped
 * first: a run's summary is built again on every read while it runs, over the same URLs.
 */
const classified = new Map<string, { sources: CitationSources; byUrl: Map<string, ClassifiedCitation | null> }>();
const CLASSIFIED_BRANDS = 64;
const CLASSIFIED_URLS = 20_000;

function classifierFor(brand: Brand, sources: CitationSources): (url: string) => ClassifiedCitation | null {
  const key = JSON.stringify(brand);
  let known = classified.get(key);
  if (!known || known.sources !== sources) known = { sources, byUrl: new Map() };
  classified.delete(key);
  classified.set(key, known);
  if (classified.size > CLASSIFIED_BRANDS) classified.delete(classified.keys().next().value!);
  const { byUrl } = known;
  return (url) => {
    let c = byUrl.get(url);
    if (c === undefined) {
      c = classifyCitation(url, brand, sources);
      if (c) Object.freeze(c);
      if (byUrl.size >= CLASSIFIED_URLS) byUrl.clear();
      byUrl.set(url, c);
    }
    return c;
  };
}

export interface CitingProbe {
  prompt: string;
  brand_mentioned: boolean;
  /** Competitor names the answer mentioned. */
  competitors: string[];
  citations: string[];
}

const share = (n: number, total: number) => (total ? Math.round((n / total) * 10_000) / 10_000 : 0);

type Counted = { url: string; domain: string; class: CitationClass; citations: number };
/** A prompt's competitor-only sources; `citations` counts every source cited in it, so a gap only grows and the same count is the same content. */
type Gap = { prompt: string; competitors: Set<string>; sources: Map<string, Counted>; citations: number };
const cloneGap = (g: Gap): Gap => ({
  prompt: g.prompt,
  competitors: new Set(g.competitors),
  sources: new Map([...g.sources].map(([k, v]) => [k, { ...v }])),
  citations: g.citations,
});

/** A gap as the summary lists it, kept per gap object and its count (a running run's summary lists the same gaps on every read). */
const gapViews = new WeakMap<Gap, { citations: number; view: { prompt: string; competitors: string[]; sources: Counted[] } }>();
function gapView(g: Gap) {
  const known = gapViews.get(g);
  if (known && known.citations === g.citations) return known.view;
  const view = { prompt: g.prompt, competitors: [...g.competitors].sort(), sources: [...g.sources.values()].sort(byCount((x) => x.url)).map((s) => ({ ...s })) };
  gapViews.set(g, { citations: g.citations, view });
  return view;
}
const byCount =
  <T extends { citations: number }>(key: (x: T) => string) =>
  (a: T, b: T) =>
    b.citations - a.citations || key(a).localeCompare(key(b));

/**
 * The citation figures folded one answer at a time, in the answers' order (a domain takes the
 * class of its first URL seen). A fold can branch (see Layered and SummaryFold in summary.ts).
 */
export class CitationFold {
  private readonly byClass: Map<CitationClass, number>;
  private readonly byDomain: Layered<string, { domain: string; class: CitationClass; citations: number }>;
  private readonly byUrl: Layered<string, Counted>;
  private readonly gaps: Layered<string, Gap>;
  private total: number;
  private readonly classify: (url: string) => ClassifiedCitation | null;

  constructor(brand: Brand, sources: CitationSources, from?: CitationFold) {
    this.byClass = from ? new Map(from.byClass) : new Map(CITATION_CLASSES.map((c) => [c, 0]));
    this.byDomain = from ? from.byDomain.branch() : new Layered(undefined, (d) => ({ ...d }));
    this.byUrl = from ? from.byUrl.branch() : new Layered(undefined, (u) => ({ ...u }));
    this.gaps = from ? from.gaps.branch() : new Layered(undefined, cloneGap);
    this.total = from ? from.total : 0;
    this.classify = from ? from.classify : classifierFor(brand, sources);
  }

  /** A fold that goes on from this one's state; adding to it leaves this one unchanged. */
  branch(): CitationFold {
    return new CitationFold(undefined as never, undefined as never, this);
  }

  add(p: CitingProbe): void {
    const competitorOnly = !p.brand_mentioned && p.competitors.length > 0;
    for (const url of new Set(p.citations)) {
      const c = this.classify(url);
      if (!c) continue;
      this.total++;
      this.byClass.set(c.class, this.byClass.get(c.class)! + 1);
      const d = this.byDomain.own(c.domain) ?? { domain: c.domain, class: c.class, citations: 0 };
      d.citations++;
      this.byDomain.set(c.domain, d);
      const u = this.byUrl.own(url) ?? { url, domain: c.domain, class: c.class, citations: 0 };
      u.citations++;
      this.byUrl.set(url, u);
      if (competitorOnly && c.class !== 'owned') {
        const g = this.gaps.own(p.prompt) ?? { prompt: p.prompt, competitors: new Set<string>(), sources: new Map(), citations: 0 };
        g.citations++;
        for (const name of p.competitors) g.competitors.add(name);
        const s = g.sources.get(url) ?? { url, domain: c.domain, class: c.class, citations: 0 };
        s.citations++;
        g.sources.set(url, s);
        this.gaps.set(p.prompt, g);
      }
    }
  }

  result(opts: { topUrls?: number; topDomains?: number } = {}) {
    const total = this.total;
    return {
      citation_count: total,
      citation_share_by_class: CITATION_CLASSES.map((c) => ({ class: c, citations: this.byClass.get(c)!, share: share(this.byClass.get(c)!, total) })),
      citation_share_by_domain: topSorted(this.byDomain.values(), opts.topDomains ?? 25, byCount((x) => x.domain)).map((d) => ({ ...d, share: share(d.citations, total) })),
      top_cited_urls: topSorted(this.byUrl.values(), opts.topUrls ?? 20, byCount((x) => x.url)).map((u) => ({ ...u })),
      competitor_only_sources: this.gaps
        .values()
        .map(gapView)
        .sort((a, b) => a.prompt.localeCompare(b.prompt)),
    };
  }
}

/**
 * The citation figures of a run's answers: share by class and by domain, the most-cited URLs,
 * and, per prompt, the sources cited in answers that named a competitor but not the brand.
 */
export function summarizeCitationSources(probes: readonly CitingProbe[], brand: Brand, sources: CitationSources, opts: { topUrls?: number; topDomains?: number } = {}) {
  const fold = new CitationFold(brand, sources);
  for (const p of probes) fold.add(p);
  return fold.result(opts);
}

/** What the adder reads of a stored probe: its prompt, flags and JSON text lists. */
export interface StoredCitingProbe {
  prompt?: string;
  status: string;
  brand_mentioned: number | null;
  competitors: string | null;
  citations: string | null;
}

const list = <T>(text: string | null): T[] => {
  try {
    const v = text ? (JSON.parse(text) as unknown) : [];
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};

/** A stored run's brand terms column, parsed (null when it has none). */
/** A stored probe as summarizeCitationSources reads it, once per row object (rows are not changed once read). */
const citingOf = new WeakMap<StoredCitingProbe, CitingProbe>();
export function citingProbe(p: StoredCitingProbe): CitingProbe {
  let c = citingOf.get(p);
  if (!c) {
    c = {
      prompt: p.prompt ?? '',
      brand_mentioned: p.brand_mentioned === 1,
      competitors: list<string>(p.competitors),
      citations: list<{ url?: string } | string>(p.citations).flatMap((x) => (typeof x === 'string' ? [x] : x?.url ? [x.url] : [])),
    };
    citingOf.set(p, c);
  }
  return c;
}

export const storedBrandTerms = (json: string | null | undefined): BrandTerms | null => (json ? (JSON.parse(json) as BrandTerms) : null);

/** The brand a run's citations are classed for: its URLs' hosts and brand domains, its competitors with theirs. */
export function citationBrand(run: { urls: readonly string[]; competitors: readonly string[]; brandTerms?: BrandTerms | null }): Brand {
  const domains = run.urls.flatMap((u) => {
    const h = hostAndPath(u)?.host;
    return h ? [h] : [];
  });
  for (const d of run.brandTerms?.target_domains ?? []) if (!domains.includes(d)) domains.push(d);
  const domainsOf = new Map((run.brandTerms?.competitors ?? []).map((c) => [c.name, c.domains]));
  return { domains, competitors: run.competitors.map((name) => ({ name, domains: domainsOf.get(name) })) };
}

/**
 * Adds `citation_sources` to a run (or history point) summary: the figures above over the
 * succeeded probes, the brand's domain taken from the run's URL(s). Additive: nothing else changes.
 */
export function addCitationSourcesSummary(
  summary: Record<string, unknown>,
  probes: readonly StoredCitingProbe[],
  run: { urls: string[]; competitors: readonly string[]; brandTerms?: BrandTerms | null },
  extraCatalog?: string,
) {
  const brand = citationBrand(run);
  const citing = probes.filter((p) => p.status === 'succeeded').map(citingProbe);
  const figures = summarizeCitationSources(citing, brand, citationSources(extraCatalog));
  // Without prompts (a read that did not load them) the per-prompt list would be one nameless group.
  if (probes.some((p) => p.prompt === undefined)) (figures as { competitor_only_sources?: unknown }).competitor_only_sources = undefined;
  summary.citation_sources = figures;
  return summary;
}
