// What a site's access logs say about one page, for the content audit: per AI crawler over the
// last days, its requests for the page's path, how many were refused (401, 403, 429, 451 or a
// challenge) and when it last came, set beside what robots.txt says for that crawler. The finding
// a robots.txt check cannot make: "GPTBot was refused on 52 requests although robots.txt allows
// it" (a CDN or firewall rule). Reads the hourly rollups only.
import type { Executor } from '../../db/store.ts';
import { toApiTime } from '../../lib/ids.ts';
import { foldHost } from './classify.ts';

export interface PageLogEvidence {
  site_id: string;
  domain: string;
  path: string;
  days: number;
  crawlers: {
    name: string;
    requests: number;
    refused: number;
    status: { '2xx': number; '3xx': number; '4xx': number; '5xx': number };
    last_seen: string | null;
    /** What robots.txt says for this crawler (null: the audit did not judge it). */
    robots_allowed: boolean | null;
  }[];
  /** Sentences for the audit, most serious first. */
  findings: string[];
}

/** The evidence for a page, or null when the account has no site for its host. */
export async function pageLogEvidence(
  db: Executor,
  accountId: string,
  pageUrl: string,
  robots: readonly { agent: string; allowed: boolean }[],
  opts: { days?: number; now?: Date } = {},
): Promise<PageLogEvidence | null> {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  // A site is its host name, or host:port for an address the operator allowlisted (see parseSiteDomain).
  const host = foldHost(url.hostname);
  const names = url.port ? [host, `${host}:${url.port}`] : [host];
  const site = await db.selectFrom('sites').select(['id', 'domain']).where('account_id', '=', accountId).where('domain', 'in', names).orderBy('domain', 'desc').executeTakeFirst();
  if (!site) return null;
  const days = opts.days ?? 7;
  const now = opts.now ?? new Date();
  const fromHour = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 13);
  const path = url.pathname || '/';
  const rows = await db
    .selectFrom('site_crawler_hits')
    .select(['crawler', 'status_class', 'blocked'])
    .select((eb) => [eb.fn.sum<number>('hits').as('hits'), eb.fn.max('last_seen').as('last_seen')])
    .where('site_id', '=', site.id)
    .where('path', '=', path)
    .where('hour', '>=', fromHour)
    .groupBy(['crawler', 'status_class', 'blocked'])
    .execute();
  const byName = new Map<string, PageLogEvidence['crawlers'][number]>();
  for (const r of rows) {
    const hits = Number(r.hits);
    let c = byName.get(r.crawler);
    if (!c) {
      const rule = robots.find((x) => x.agent.toLowerCase() === r.crawler.toLowerCase());
      c = { name: r.crawler, requests: 0, refused: 0, status: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, last_seen: null, robots_allowed: rule ? rule.allowed : null };
      byName.set(r.crawler, c);
    }
    c.requests += hits;
    c.status[r.status_class] += hits;
    if (Number(r.blocked)) c.refused += hits;
    const seen = r.last_seen ? String(r.last_seen) : null;
    if (seen && (!c.last_seen || seen > c.last_seen)) c.last_seen = seen;
  }
  const crawlers = [...byName.values()]
    .map((c) => ({ ...c, last_seen: c.last_seen ? toApiTime(c.last_seen) : null }))
    .sort((a, b) => b.refused - a.refused || b.requests - a.requests || a.name.localeCompare(b.name));
  const span = `the last ${days} days`;
  const findings: string[] = [];
  for (const c of crawlers) {
    if (c.refused > 0 && c.robots_allowed === true) {
      findings.push(`${c.name} was refused on ${c.refused} of ${c.requests} requests for ${path} in ${span} although robots.txt allows it: a CDN, firewall or bot rule blocks it.`);
    } else if (c.refused > 0) {
      findings.push(`${c.name} was refused on ${c.refused} of ${c.requests} requests for ${path} in ${span}.`);
    }
  }
  for (const c of crawlers) if (c.refused === 0) findings.push(`${c.name} fetched ${path} ${c.requests} time${c.requests === 1 ? '' : 's'} in ${span} (none refused).`);
  if (crawlers.length === 0) findings.push(`No AI crawler requested ${path} in ${span} of ${site.domain}'s uploaded logs.`);
  return { site_id: site.id, domain: site.domain, path, days, crawlers, findings };
}
