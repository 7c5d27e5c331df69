// The page pipeline: fetch a URL safely, extract its document, render the content view, and
// keep the result briefly. Serialization, content scoring and the technical audit all load
// pages through one loader. Big pages are extracted in a worker thread (extract-threads.ts).
//
// The one thing to know: results are cached per normalized URL for a short time (default 60 s,
// at most 100 entries holding at most 24 M characters of text, least recently used evicted) and
// concurrent loads of one URL share a single fetch, so a client paging through a long page with `offset` costs one fetch, not one
// per slice. Failures are never cached: the next call tries again.
import type { PageDocument } from './document.ts';
import { createPageExtractor, type ExtractedPage, type PageExtractor } from './extract-threads.ts';
import { EMPTY_ALLOWLIST, type FetchAllowlist } from './fetch/address-policy.ts';
import { FetchError } from './fetch/errors.ts';
import { fetchPage, type FetchOptions, type FetchedPage } from './fetch/fetch-page.ts';
import { createFetchGate } from './fetch-gate.ts';

/** What was fetched, without the raw body (the document and content view carry the content). */
export type FetchedPageInfo = Omit<FetchedPage, 'body'>;

export interface LoadedPage {
  fetched: FetchedPageInfo;
  document: PageDocument;
  contentView: string;
}

export interface PageLoaderOptions {
  /** Non-public targets the operator allows (parsed SIGHTLINE_FETCH_ALLOW). Default: none. */
  allow?: FetchAllowlist;
  /** How long a result is reused. Default 60 000 ms; 0 keeps only in-flight sharing. */
  cacheTtlMs?: number;
  /** How many results are kept. Default 100. */
  cacheMax?: number;
  /**
   * How much text the kept results may hold, in characters (content view + body text + the
   * page's HTML, or fetched text). Default 24 M: a few pages at the 5 MiB body cap, or the 100 entries of ordinary pages,
   * but never 100 huge ones. A result bigger than the whole budget is shared with the callers
   * waiting for it and not kept.
   */
  cacheMaxChars?: number;
  /** Where pages are extracted (big ones in worker threads). Default: createPageExtractor() with one thread. */
  extractor?: PageExtractor;
  /** Passed to every fetch (timeouts, size cap, resolver...). `allow` and `accept` are set by the loader. */
  fetchOptions?: Omit<FetchOptions, 'allow' | 'accept'>;
  /** Clock, replaceable in tests. */
  now?: () => number;
  /** Outbound fetches at once per process (SIGHTLINE_FETCH_CONCURRENCY). Default 16. */
  fetchConcurrency?: number;
  /** Fetches waiting for a slot before 503 fetch_capacity (SIGHTLINE_FETCH_QUEUE). Default 256. */
  fetchQueue?: number;
  /** Fetches of one account running or waiting before 503 fetch_capacity (SIGHTLINE_FETCH_ACCOUNT_CONCURRENCY); 0 = none. Default 0. */
  fetchPerAccount?: number;
}

/** Who a fetch is for: its account counts it against the per-account cap (fetch-gate.ts). */
export interface FetchFor {
  accountId?: string;
}

/** Results are shared between callers (and with the cache): treat them as read-only. */
export interface PageLoader {
  /** Fetches an HTML page and extracts it. Throws FetchError (unsupported_content for non-HTML). */
  load(url: string, who?: FetchFor): Promise<LoadedPage>;
  /**
   * Fetches a text resource (robots.txt, llms.txt, sitemap.xml): any non-binary type, and 4xx/5xx
   * answers are returned rather than thrown (a 404 robots.txt means "no rules").
   */
  fetchText(url: string, who?: FetchFor): Promise<FetchedPage>;
  /**
   * Fetches a page again, uncached, with another User-Agent (a crawler's), answering its status
   * and extracted text even for 4xx/5xx: used to see a CDN or firewall that treats crawlers
   * differently. Throws FetchError when nothing could be fetched.
   */
  fetchAs(url: string, userAgent: string, who?: FetchFor): Promise<{ status: number; document: PageDocument }>;
  /** Extracts HTML the caller supplied, as if fetched from `url` (links resolve against it); nothing is fetched or cached. */
  extract(html: string, url: string): Promise<PageDocument>;
  /** Forgets every cached result. */
  clear(): void;
  /** Stops the extraction threads (the loader still works; they start again when needed). */
  close(): Promise<void>;
  /** Number of cached (or in-flight) entries. */
  readonly size: number;
}

/** The cache key: the URL as the WHATWG parser normalizes it (scheme/host case, default port), without fragment. */
export function normalizePageUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchError('invalid_url');
  }
  url.hash = '';
  return url.href;
}

interface Entry {
  value: Promise<unknown>;
  /** Infinity while in flight; set when the promise fulfils. */
  expires: number;
  /** What the result holds (see PageLoaderOptions.cacheMaxChars); 0 while in flight. */
  weight: number;
}

/**
 * A small LRU of promises. Written here rather than taken from lru-cache because storing the
 * promise itself is what gives coalescing, and with that the whole cache is thirty lines.
 */
class PromiseCache {
  private readonly map = new Map<string, Entry>();
  private weight = 0;
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly maxWeight: number,
    private readonly weigh: (result: unknown) => number,
    private readonly now: () => number,
  ) {}

  private remove(key: string, entry: Entry): void {
    if (this.map.get(key) !== entry) return;
    this.map.delete(key);
    this.weight -= entry.weight;
  }

  /** Drops the least recently used entries while over either budget (never `keep`). */
  private evict(keep?: Entry): void {
    for (const [key, entry] of this.map) {
      if (this.map.size <= this.max && this.weight <= this.maxWeight) return;
      if (entry !== keep) this.remove(key, entry); // an evicted in-flight load still settles for its waiters
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.weight = 0;
  }

  getOrCreate<T>(key: string, create: () => Promise<T>): Promise<T> {
    const hit = this.map.get(key);
    if (hit && hit.expires > this.now()) {
      this.map.delete(key); // re-insert: Map order is recency order
      this.map.set(key, hit);
      return hit.value as Promise<T>;
    }
    if (hit) this.remove(key, hit);

    const entry: Entry = { value: Promise.resolve(), expires: Infinity, weight: 0 };
    const value = create().then(
      (result) => {
        entry.expires = this.now() + this.ttlMs;
        if (this.map.get(key) === entry) {
          const weight = this.weigh(result);
          if (this.ttlMs <= 0 || weight > this.maxWeight) this.remove(key, entry);
          else {
            entry.weight = weight;
            this.weight += weight;
            this.evict(entry);
          }
        }
        return result;
      },
      (err: unknown) => {
        this.remove(key, entry);
        throw err;
      },
    );
    entry.value = value;
    this.map.set(key, entry);
    this.evict(entry);
    return value;
  }
}

/**
 * Characters a cached result holds: the texts dominate its memory (blocks repeat the body text).
 * An extracted page also counts its HTML: strings of a document extracted on the calling thread
 * can be slices of the page's text (V8 keeps the whole string alive for them), so its size is
 * what such an entry may really hold. Links count too, with ~100 characters for each one's object
 * and the copy in links.main: a page of nothing but links holds little text but many objects.
 */
export function weighResult(result: unknown): number {
  const r = result as Partial<LoadedPage> & { body?: string };
  if (r.document) {
    let links = 0;
    for (const l of r.document.links.all) links += l.href.length + l.text.length + LINK_OVERHEAD;
    return r.contentView!.length + r.document.bodyText.length + (r.fetched?.bytes ?? 0) + links;
  }
  return typeof r.body === 'string' ? r.body.length : 0;
}
const LINK_OVERHEAD = 100;

export function createPageLoader(opts: PageLoaderOptions = {}): PageLoader {
  const allow = opts.allow ?? EMPTY_ALLOWLIST;
  const extractor = opts.extractor ?? createPageExtractor();
  const cache = new PromiseCache(
    opts.cacheTtlMs ?? 60_000,
    Math.max(1, opts.cacheMax ?? 100),
    opts.cacheMaxChars ?? 24_000_000,
    weighResult,
    opts.now ?? Date.now,
  );
  // Shared fetches (the cache's in-flight sharing) take one slot, not one per caller: the account
  // of the caller that started it.
  const gate = createFetchGate({ concurrency: opts.fetchConcurrency ?? 16, queue: opts.fetchQueue ?? 256, perAccount: opts.fetchPerAccount ?? 0 });

  async function loadUncached(url: string, who: FetchFor): Promise<LoadedPage> {
    const page = await gate.run(() => fetchPage(url, { ...opts.fetchOptions, allow, accept: 'html' }), who.accountId);
    const { body, ...fetched } = page;
    return finishLoad(fetched, extractor.extract(body, page.finalUrl));
  }

  /** Not inside loadUncached: nothing here holds the body while the page is extracted (a thread has its own copy). */
  async function finishLoad(fetched: FetchedPageInfo, extracted: Promise<ExtractedPage>): Promise<LoadedPage> {
    const { document, contentView } = await extracted;
    return { fetched, document, contentView };
  }

  return {
    load(url, who = {}) {
      let key: string;
      try {
        key = normalizePageUrl(url);
      } catch (err) {
        return Promise.reject(err);
      }
      return cache.getOrCreate(`page ${key}`, () => loadUncached(key, who));
    },
    fetchText(url, who = {}) {
      let key: string;
      try {
        key = normalizePageUrl(url);
      } catch (err) {
        return Promise.reject(err);
      }
      return cache.getOrCreate(`text ${key}`, () =>
        gate.run(() => fetchPage(key, { allowHttpErrors: true, ...opts.fetchOptions, allow, accept: 'any' }), who.accountId),
      );
    },
    async fetchAs(url, userAgent, who = {}) {
      const key = normalizePageUrl(url);
      const page = await gate.run(() => fetchPage(key, { allowHttpErrors: true, ...opts.fetchOptions, allow, accept: 'html', userAgent }), who.accountId);
      const { document } = await extractor.extract(page.body, page.finalUrl);
      return { status: page.status, document };
    },
    async extract(html, url) {
      return (await extractor.extract(html, normalizePageUrl(url))).document;
    },
    clear: () => cache.clear(),
    close: () => extractor.close(),
    get size() {
      return cache.size;
    },
  };
}
