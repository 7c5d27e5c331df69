// Crawl access as AI search really sees it: the table of AI crawlers and fetchers (data, in
// catalog/ai-crawlers.json, each with its role and the vendor page it comes from), robots.txt
// evaluated for each by RFC 9309 (robots-parser: longest match wins, Allow wins a tie, agents
// match case-insensitively, groups of one agent merge, `*` and `$` wildcards), and the robots
// directives of the page itself (meta robots and X-Robots-Tag, general or per agent, with the
// snippet controls). The one thing to know: only `search` and `user` roles decide whether an
// assistant can cite the page; blocking `training` crawlers is the owner's choice, reported
// but never scored as a defect.
import { readFileSync } from 'node:fs';
import robotsParserModule from 'robots-parser';
import type { CrawlerAccess, CrawlerRole, CrawlFacts, FetchedText, RobotsReport } from './types.ts';

export type { CrawlerAccess, CrawlerRole, CrawlFacts, RobotsReport };


export interface CrawlerEntry {
  vendor: string;
  token: string;
  role: CrawlerRole;
  user_agent: string | null;
  feeds: string;
  source: string;
}

const TABLE = JSON.parse(readFileSync(new URL('../../../catalog/ai-crawlers.json', import.meta.url), 'utf8')) as {
  crawlers: CrawlerEntry[];
  refetch_as: string[];
};

/** Every AI crawler and fetcher the audit checks, in table order. */
export const AI_CRAWLERS: readonly CrawlerEntry[] = TABLE.crawlers;
/** The search crawlers the page is fetched again as, to see a CDN or firewall that treats them differently. */
export const REFETCH_AS: readonly CrawlerEntry[] = TABLE.refetch_as.map((t) => TABLE.crawlers.find((c) => c.token === t)!);

// robots-parser is CommonJS (module.exports = fn) and its typings declare an ES default export,
// which NodeNext resolution does not see as callable; describe what we use.
interface RobotsTxt {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getMatchingLineNumber(url: string, ua?: string): number;
  getSitemaps(): string[];
}
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => RobotsTxt;



const looksLikeHtml = (body: string) => /^\s*<(!doctype|html|head|body)/i.test(body);

/**
 * robots.txt access of every crawler to `pageUrl`. A 2xx body is parsed whatever its content
 * type (a robots.txt served as text/html is still a robots.txt); 4xx or no answer allows all;
 * 5xx disallows all.
 */
export function evaluateRobots(res: FetchedText | null, robotsUrl: string, pageUrl: string): { report: RobotsReport; access: CrawlerAccess[] } {
  const base = (c: CrawlerEntry) => ({ agent: c.token, vendor: c.vendor, role: c.role, purpose: c.feeds, source: c.source, directive: null });
  if (!res || (res.status >= 400 && res.status < 500) || (res.status >= 300 && res.status < 400)) {
    return {
      report: { state: 'missing', status: res?.status ?? null, content_type: res?.contentType ?? null, html_body: false, sitemaps: [], lines: 0 },
      access: AI_CRAWLERS.map((c) => ({ ...base(c), allowed: true, rule: null, line: null })),
    };
  }
  if (res.status >= 500) {
    return {
      report: { state: 'error', status: res.status, content_type: res.contentType, html_body: false, sitemaps: [], lines: 0 },
      access: AI_CRAWLERS.map((c) => ({ ...base(c), allowed: false, rule: `HTTP ${res.status}`, line: null })),
    };
  }
  const parsed = robotsParser(robotsUrl, res.body);
  const lines = res.body.split(/\r?\n/);
  const origin = new URL(robotsUrl).origin;
  const u = new URL(pageUrl);
  const target = u.origin === origin ? pageUrl : origin + u.pathname + u.search;
  const access = AI_CRAWLERS.map((c) => {
    const allowed = parsed.isAllowed(target, c.token) !== false;
    const lineNo = parsed.getMatchingLineNumber(target, c.token);
    return { ...base(c), allowed, rule: lineNo > 0 ? (lines[lineNo - 1] ?? '').replace(/#.*$/, '').trim() : null, line: lineNo > 0 ? lineNo : null };
  });
  return {
    report: { state: 'ok', status: res.status, content_type: res.contentType, html_body: looksLikeHtml(res.body), sitemaps: parsed.getSitemaps(), lines: lines.length },
    access,
  };
}

export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
  nosnippet: boolean;
  /** max-snippet:N (−1 = no limit); null when not set. */
  max_snippet: number | null;
  /** Where each directive came from, e.g. `meta googlebot "noindex"`. */
  sources: string[];
}

/** Directives that apply to one agent: the general `robots` ones plus those naming the agent. */
export function directivesFor(agent: string, metaByName: Record<string, string>, xRobotsTag: string | null): RobotsDirectives {
  const a = agent.toLowerCase();
  const out: RobotsDirectives = { noindex: false, nofollow: false, nosnippet: false, max_snippet: null, sources: [] };
  const apply = (text: string, where: string) => {
    let hit = false;
    for (const raw of text.split(',')) {
      const d = raw.trim().toLowerCase();
      if (d === 'noindex' || d === 'none') ((out.noindex = true), (hit = true));
      if (d === 'nofollow' || d === 'none') ((out.nofollow = true), (hit = true));
      if (d === 'nosnippet') ((out.nosnippet = true), (hit = true));
      const m = /^max-snippet\s*:\s*(-?\d+)$/.exec(d);
      if (m) {
        const n = Number(m[1]);
        out.max_snippet = out.max_snippet === null || (n >= 0 && (out.max_snippet < 0 || n < out.max_snippet)) ? n : out.max_snippet;
        hit = true;
      }
    }
    if (hit) out.sources.push(`${where} "${text.trim()}"`);
  };
  for (const [name, value] of Object.entries(metaByName)) {
    if (name === 'robots' || name === a) apply(value, `meta ${name}`);
  }
  // X-Robots-Tag: several headers arrive joined by ", "; a value may start with "agent:".
  if (xRobotsTag) {
    for (const part of splitXRobots(xRobotsTag)) {
      if (part.agent === null || part.agent === a) apply(part.value, `X-Robots-Tag${part.agent ? ` ${part.agent}` : ''}`);
    }
  }
  return out;
}

/** "googlebot: noindex, nofollow, otherbot: none" → [{agent, value}]. */
function splitXRobots(header: string): { agent: string | null; value: string }[] {
  const out: { agent: string | null; value: string }[] = [];
  let current: { agent: string | null; value: string[] } = { agent: null, value: [] };
  for (const raw of header.split(',')) {
    const m = /^\s*([a-z][a-z0-9_-]*)\s*:\s*(.*)$/i.exec(raw);
    if (m && !/^(max-snippet|max-image-preview|max-video-preview|unavailable_after)$/i.test(m[1]!)) {
      if (current.value.length) out.push({ agent: current.agent, value: current.value.join(',') });
      current = { agent: m[1]!.toLowerCase(), value: m[2] ? [m[2]] : [] };
    } else current.value.push(raw);
  }
  if (current.value.length) out.push({ agent: current.agent, value: current.value.join(',') });
  return out;
}

/** A snippet this short or forbidden leaves an assistant nothing to quote. */
export function snippetRestricted(d: RobotsDirectives): boolean {
  return d.nosnippet || (d.max_snippet !== null && d.max_snippet >= 0 && d.max_snippet < 50);
}

export function headerValue(headers: Record<string, string>, name: string): string | null {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return null;
}


export const SEARCH_ROLES = new Set<CrawlerRole>(['search', 'user']);

export function crawlFacts(
  access: CrawlerAccess[] | null,
  state: CrawlFacts['robots'],
  metaByName: Record<string, string>,
  xRobotsTag: string | null,
  page: { nosnippetRegions: number; needsJs: boolean },
): CrawlFacts {
  const noindex = new Set<string>();
  const snippets = new Set<string>();
  for (const agent of ['robots', ...AI_CRAWLERS.filter((c) => SEARCH_ROLES.has(c.role)).map((c) => c.token)]) {
    const d = directivesFor(agent, metaByName, xRobotsTag);
    const name = agent === 'robots' ? 'all crawlers' : agent;
    if (d.noindex) noindex.add(name);
    if (snippetRestricted(d)) snippets.add(name);
  }
  // A general directive covers every agent: name it once.
  const collapse = (s: Set<string>) => (s.has('all crawlers') ? ['all crawlers'] : [...s]);
  return {
    robots: state,
    blocked_search: (access ?? []).filter((a) => !a.allowed && SEARCH_ROLES.has(a.role)).map((a) => a.agent),
    blocked_training: (access ?? []).filter((a) => !a.allowed && a.role === 'training').map((a) => a.agent),
    noindex: collapse(noindex),
    snippet_restricted: collapse(snippets),
    nosnippet_regions: page.nosnippetRegions,
    needs_javascript: page.needsJs,
  };
}
