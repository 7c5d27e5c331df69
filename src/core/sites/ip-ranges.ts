// The published IP ranges of AI crawlers (catalog/crawler-ip-ranges.json, a dated snapshot with
// each vendor's source URL), and the check that a hit claiming to be a crawler came from them.
// The one thing to know: a crawler whose vendor publishes no ranges is never "verified"; its hits
// are counted, as unverified. `refreshCrawlerRanges` downloads the vendors' files again
// (`sightline crawlers refresh`) into a file the operator points SIGHTLINE_CRAWLER_RANGES_PATH at.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

export interface RangeEntry {
  /** The vendor's published JSON: {creationTime, prefixes: [{ipv4Prefix} | {ipv6Prefix}]}. */
  source: string;
  copied_from?: string;
  fetched_at?: string;
  prefixes: string[];
}

export interface RangesFile {
  note?: string;
  snapshot_date: string;
  crawlers: Record<string, RangeEntry>;
  unverifiable: Record<string, string>;
}

export const BUNDLED_RANGES_PATH = new URL('../../../catalog/crawler-ip-ranges.json', import.meta.url);

export function readRangesFile(path: string | URL = BUNDLED_RANGES_PATH): RangesFile {
  return JSON.parse(readFileSync(path, 'utf8')) as RangesFile;
}

/** IPv4 ranges as sorted [start, end] pairs of unsigned 32-bit numbers; IPv6 as bigint pairs. */
interface CompiledRanges {
  v4: Float64Array; // start0, end0, start1, end1 … sorted by start
  v6: [bigint, bigint][];
}

function ipv4ToNumber(ip: string): number {
  let n = 0;
  let part = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      n = n * 256 + part;
      part = 0;
      dots++;
    } else part = part * 10 + (c - 48);
  }
  return dots === 3 ? n * 256 + part : -1;
}

function ipv6ToBigInt(ip: string): bigint {
  let text = ip.toLowerCase();
  const v4tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4tail) {
    const n = ipv4ToNumber(v4tail[1]);
    text = text.slice(0, -v4tail[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined ? (tail ? tail.split(':') : []) : [];
  const groups = tail !== undefined ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  let v = 0n;
  for (const g of groups) v = (v << 16n) + BigInt(parseInt(g || '0', 16));
  return v;
}

function compile(prefixes: string[]): CompiledRanges {
  const v4: [number, number][] = [];
  const v6: [bigint, bigint][] = [];
  for (const p of prefixes) {
    const [addr, lenText] = p.split('/');
    const kind = isIP(addr);
    if (kind === 4) {
      const len = Number(lenText ?? 32);
      const start = ipv4ToNumber(addr);
      const size = 2 ** (32 - len);
      const base = Math.floor(start / size) * size;
      v4.push([base, base + size - 1]);
    } else if (kind === 6) {
      const len = BigInt(Number(lenText ?? 128));
      const size = 1n << (128n - len);
      const base = (ipv6ToBigInt(addr) / size) * size;
      v6.push([base, base + size - 1n]);
    }
  }
  v4.sort((a, b) => a[0] - b[0]);
  return { v4: Float64Array.from(v4.flat()), v6 };
}

function inV4(r: Float64Array, n: number): boolean {
  // Ranges may overlap (merged lists rarely do); a binary search for the last start ≤ n, then a
  // short walk back covers an enclosing earlier range.
  let lo = 0;
  let hi = r.length / 2 - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (r[mid * 2] <= n) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let i = found; i >= 0 && i > found - 8; i--) if (r[i * 2 + 1] >= n) return true;
  return false;
}

/** Verifies crawler hits by client address against the loaded ranges. */
export class CrawlerRanges {
  private readonly compiled = new Map<string, CompiledRanges>();
  constructor(readonly file: RangesFile) {
    for (const [name, entry] of Object.entries(file.crawlers)) this.compiled.set(name, compile(entry.prefixes));
  }

  /** Whether the crawler's vendor publishes ranges this file holds. */
  verifiable(crawler: string): boolean {
    return this.compiled.has(crawler);
  }

  /** True when `ip` is inside the crawler's published ranges; false otherwise (or unknown ranges). */
  verify(crawler: string, ip: string | null | undefined): boolean {
    const r = this.compiled.get(crawler);
    if (!r || !ip) return false;
    const kind = isIP(ip);
    if (kind === 4) return inV4(r.v4, ipv4ToNumber(ip));
    if (kind === 6) {
      if (ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4) return inV4(r.v4, ipv4ToNumber(ip.slice(7)));
      const v = ipv6ToBigInt(ip);
      return r.v6.some(([a, b]) => v >= a && v <= b);
    }
    return false;
  }
}

let loaded: { path: string; ranges: CrawlerRanges } | null = null;
/** The ranges from `path` (an operator's refreshed file) or the bundled snapshot, read once. */
export function crawlerRanges(path?: string): CrawlerRanges {
  const key = path ?? '';
  if (!loaded || loaded.path !== key) loaded = { path: key, ranges: new CrawlerRanges(readRangesFile(path ?? BUNDLED_RANGES_PATH)) };
  return loaded.ranges;
}

/** One vendor file's prefixes (the {prefixes: [{ipv4Prefix}|{ipv6Prefix}]} shape the vendors share). */
export function prefixesOf(body: unknown): string[] {
  const list = (body as { prefixes?: unknown })?.prefixes;
  if (!Array.isArray(list)) throw new Error('no "prefixes" list');
  const out: string[] = [];
  for (const p of list) {
    const v = (p as { ipv4Prefix?: unknown; ipv6Prefix?: unknown }).ipv4Prefix ?? (p as { ipv6Prefix?: unknown }).ipv6Prefix;
    if (typeof v !== 'string') continue;
    const [addr, len] = v.split('/');
    if (!isIP(addr) || (len !== undefined && !/^\d{1,3}$/.test(len))) throw new Error(`not a prefix: ${v.slice(0, 60)}`);
    out.push(v);
  }
  if (!out.length) throw new Error('the prefixes list is empty');
  return out;
}

export interface RefreshOutcome {
  crawler: string;
  source: string;
  status: 'updated' | 'kept';
  prefixes: number;
  error?: string;
}

/**
 * Downloads every crawler's source file again. A source that fails (network, status, shape)
 * keeps its previous prefixes and says why; the others are replaced. `rewrite` maps a source URL
 * to the one fetched (tests point the vendors at a local fake).
 */
export async function refreshCrawlerRanges(
  current: RangesFile,
  opts: { fetch?: typeof fetch; rewrite?: (url: string) => string; timeoutMs?: number; now?: Date } = {},
): Promise<{ file: RangesFile; outcomes: RefreshOutcome[] }> {
  const doFetch = opts.fetch ?? fetch;
  const now = (opts.now ?? new Date()).toISOString();
  const crawlers: Record<string, RangeEntry> = {};
  const outcomes: RefreshOutcome[] = [];
  for (const [name, entry] of Object.entries(current.crawlers)) {
    const url = opts.rewrite ? opts.rewrite(entry.source) : entry.source;
    try {
      const res = await doFetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000), headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const prefixes = prefixesOf(await res.json());
      crawlers[name] = { source: entry.source, fetched_at: now, prefixes };
      outcomes.push({ crawler: name, source: entry.source, status: 'updated', prefixes: prefixes.length });
    } catch (err) {
      crawlers[name] = entry;
      outcomes.push({ crawler: name, source: entry.source, status: 'kept', prefixes: entry.prefixes.length, error: (err as Error).message });
    }
  }
  const anyUpdated = outcomes.some((o) => o.status === 'updated');
  return {
    file: { ...current, snapshot_date: anyUpdated ? now.slice(0, 10) : current.snapshot_date, crawlers },
    outcomes,
  };
}
