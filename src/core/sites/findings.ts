// The `crawler.blocked` finding: an AI search or user crawler refused (401/403/429/451 or a bot
// challenge) on a page that robots.txt allows it to fetch: the owner wants it in, a CDN or
// firewall rule keeps it out. A pure function over a crawler report, so the caller decides how
// robots.txt is read (content/crawlers.ts evaluateRobots) and where the events go (the
// webhooks engine's emitEvent). Training crawlers are left out: blocking them is a choice.
import type { CrawlerReport } from './sites.ts';

export interface CrawlerBlockedEvent {
  type: 'crawler.blocked';
  site_id: string;
  crawler: string;
  vendor: string;
  role: 'search' | 'user';
  path: string;
  blocked_hits: number;
  hits: number;
  from: string;
  to: string;
}

/**
 * One event per crawler and top path with blocked hits that robots.txt allows (`allows(path,
 * token)`), at least `minBlocked` of them (default 1).
 */
export function crawlerBlockedFindings(
  report: { site_id: string; from: string; to: string; crawlers: CrawlerReport[] },
  allows: (path: string, token: string) => boolean,
  opts: { minBlocked?: number } = {},
): CrawlerBlockedEvent[] {
  const min = opts.minBlocked ?? 1;
  const out: CrawlerBlockedEvent[] = [];
  for (const c of report.crawlers) {
    if (c.role === 'training') continue;
    for (const p of c.top_paths) {
      if (p.blocked_hits < min || !allows(p.path, c.name)) continue;
      out.push({ type: 'crawler.blocked', site_id: report.site_id, crawler: c.name, vendor: c.vendor, role: c.role, path: p.path, blocked_hits: p.blocked_hits, hits: p.hits, from: report.from, to: report.to });
    }
  }
  return out;
}
