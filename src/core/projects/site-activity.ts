// What a project's own site logs say, beside its visibility numbers: AI crawler requests (and
// refusals) and visits referred by AI assistants, per day over the dashboard's span, for the
// account's sites whose domain is one of the brand's (the project URL's host or a brand domain).
// Only rollups are read (src/core/sites): nothing here sees a log line or an address.
import { registrableDomain, domainMatches } from '../../text/domains.ts';
import type { Executor } from '../../db/store.ts';
import { hourKey, siteHourlyRollups } from '../sites/hourly.ts';

export interface SiteActivity {
  sites: { id: string; domain: string }[];
  crawler_requests: number;
  crawler_refused: number;
  referral_visits: number;
  /** Per crawler, most requests first. */
  crawlers: { name: string; requests: number; refused: number }[];
  /** Per assistant (referral source), most visits first. */
  referrals: { source: string; visits: number }[];
  /** One entry per UTC day with data, oldest first. */
  days: { day: string; crawler_requests: number; crawler_refused: number; referral_visits: number }[];
}

/** The brand's sites among the account's (matched by domain), and their activity since `since`. */
export async function projectSiteActivity(
  db: Executor,
  accountId: string,
  brand: { url: string; domains: readonly string[] },
  since: Date,
  until: Date,
): Promise<SiteActivity | null> {
  const own = [registrableDomain(brand.url), ...brand.domains.map(registrableDomain)].filter(Boolean);
  const sites = (await db.selectFrom('sites').select(['id', 'domain']).where('account_id', '=', accountId).orderBy('domain').execute()).filter((s) =>
    own.some((d) => domainMatches(s.domain, d) || domainMatches(d, s.domain)),
  );
  if (sites.length === 0) return null;
  const ids = sites.map((s) => s.id);
  // The hours from since's through until's, both included.
  const rollups = await siteHourlyRollups(db, ids, hourKey(since), hourKey(new Date(until.getTime() + 3_600_000)));
  const crawlers = new Map<string, { name: string; requests: number; refused: number }>();
  const referrals = new Map<string, { source: string; visits: number }>();
  const days = new Map<string, { day: string; crawler_requests: number; crawler_refused: number; referral_visits: number }>();
  const dayOf = (hour: string) => {
    const day = hour.slice(0, 10);
    let d = days.get(day);
    if (!d) days.set(day, (d = { day, crawler_requests: 0, crawler_refused: 0, referral_visits: 0 }));
    return d;
  };
  for (const r of rollups.crawlers) {
    const hits = r.hits;
    const refused = r.blocked ? hits : 0;
    const c = crawlers.get(r.crawler) ?? { name: r.crawler, requests: 0, refused: 0 };
    c.requests += hits;
    c.refused += refused;
    crawlers.set(r.crawler, c);
    const d = dayOf(r.hour);
    d.crawler_requests += hits;
    d.crawler_refused += refused;
  }
  for (const r of rollups.referrals) {
    const visits = r.visits;
    const s = referrals.get(r.source) ?? { source: r.source, visits: 0 };
    s.visits += visits;
    referrals.set(r.source, s);
    dayOf(r.hour).referral_visits += visits;
  }
  const crawlerList = [...crawlers.values()].sort((a, b) => b.requests - a.requests || a.name.localeCompare(b.name));
  const referralList = [...referrals.values()].sort((a, b) => b.visits - a.visits || a.source.localeCompare(b.source));
  return {
    sites,
    crawler_requests: crawlerList.reduce((n, c) => n + c.requests, 0),
    crawler_refused: crawlerList.reduce((n, c) => n + c.refused, 0),
    referral_visits: referralList.reduce((n, r) => n + r.visits, 0),
    crawlers: crawlerList,
    referrals: referralList,
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
  };
}
