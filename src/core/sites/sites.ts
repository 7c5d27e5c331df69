// Sites: the web sites an account reads access logs for, and the reports over their rollups
// (AI crawler activity and AI referral visits). The one thing to know: only rollups are stored
// (ingest.ts), so every report is a sum over hourly rows, never a scan of log lines.
import { sql } from 'kysely';
import { lockAccount } from '../billing/ledger.ts';
import { AI_CRAWLERS } from '../content/crawlers.ts';
import { AppError } from '../errors.ts';
import { checkCap } from '../limits.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import { foldHost } from './classify.ts';
import { crawlerRanges, type CrawlerRanges } from './ip-ranges.ts';
import type { FetchAllowlist } from '../pages/fetch/index.ts';

export interface SiteView {
  id: string;
  domain: string;
  name: string;
  created_at: string;
}

const view = (r: { id: string; domain: string; name: string; created_at: string }): SiteView => ({
  id: r.id,
  domain: r.domain,
  name: r.name,
  created_at: toApiTime(r.created_at),
});

/**
 * A host name as a site's domain (a URL or a bare host is accepted; `www.` folded). A `host:port`
 * domain (a staging or intranet site) is accepted only when the fetcher's allowlist
 * (SIGHTLINE_FETCH_ALLOW) names that host and port: robots.txt is then read over plain http
 * (see siteOrigin).
 */
export function parseSiteDomain(input: string, allow?: FetchAllowlist): string {
  let text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      text = new URL(text).host;
    } catch {
      /* fall through to the check below */
    }
  }
  const withPort = /^([^:/\s]+):(\d{1,5})(?:\/.*)?$/.exec(text.toLowerCase());
  if (withPort && allow) {
    const [, name, port] = withPort as unknown as [string, string, string];
    if (Number(port) >= 1 && Number(port) <= 65535 && allow.allows(name, Number(port), name)) return `${foldHost(name)}:${Number(port)}`;
  }
  const host = foldHost(text.replace(/\/.*$/, ''));
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(host)) {
    throw new AppError('invalid_request', 'domain must be a host name such as example.com.', { domain: input.slice(0, 200) });
  }
  return host;
}

/** Where the site's robots.txt lives: https, or http for an allow-listed `host:port` domain. */
export function siteOrigin(domain: string): string {
  return /:\d+$/.test(domain) ? `http://${domain}` : `https://${domain}`;
}

/** Creates the site, or returns the account's existing site of that domain. */
export async function createSite(
  store: Store,
  accountId: string,
  input: { domain: string; name?: string | null },
  allow?: FetchAllowlist,
  maxSites?: number,
): Promise<SiteView> {
  const domain = parseSiteDomain(input.domain, allow);
  const existing = await store.db.selectFrom('sites').selectAll().where('account_id', '=', accountId).where('domain', '=', domain).executeTakeFirst();
  if (existing) return view(existing);
  const row = { id: newId('site'), account_id: accountId, domain, name: input.name?.trim() || domain, created_at: nowIso() };
  await store.db.transaction().execute(async (trx) => {
    // Counted with the account locked, as projects and webhook endpoints are: two creates at
    // once cannot both see room. A domain the account already has is answered above, cap or not.
    if (maxSites !== undefined) {
      await lockAccount(store, trx, accountId);
      const { n } = await trx.selectFrom('sites').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      const again = await trx.selectFrom('sites').select('id').where('account_id', '=', accountId).where('domain', '=', domain).executeTakeFirst();
      if (!again) checkCap(n, maxSites, { holder: 'account', things: 'sites', allows: 'this instance allows', advice: 'delete one it no longer uses first.' });
    }
    await trx.insertInto('sites').values(row).onConflict((oc) => oc.columns(['account_id', 'domain']).doNothing()).execute();
  });
  const saved = await store.db.selectFrom('sites').selectAll().where('account_id', '=', accountId).where('domain', '=', domain).executeTakeFirstOrThrow();
  return view(saved);
}

export async function listSites(store: Store, accountId: string): Promise<{ sites: SiteView[] }> {
  const rows = await store.db.selectFrom('sites').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').execute();
  return { sites: rows.map(view) };
}

/** The account's site, or 404 (another account's site is not found either). */
export async function getSiteRow(store: Store, accountId: string, siteId: string) {
  const row = await store.db.selectFrom('sites').selectAll().where('id', '=', siteId).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('not_found', 'No site with this id.', { site_id: siteId });
  return row;
}

export async function getSite(store: Store, accountId: string, siteId: string): Promise<SiteView> {
  return view(await getSiteRow(store, accountId, siteId));
}

/** Deletes the site and every rollup and line hash of its logs. */
export async function deleteSite(store: Store, accountId: string, siteId: string): Promise<{ id: string; deleted: true }> {
  await getSiteRow(store, accountId, siteId);
  await store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('site_crawler_hits').where('site_id', '=', siteId).execute();
    await trx.deleteFrom('site_referral_visits').where('site_id', '=', siteId).execute();
    await trx.deleteFrom('site_log_lines').where('site_id', '=', siteId).execute();
    await trx.deleteFrom('sites').where('id', '=', siteId).execute();
  });
  return { id: siteId, deleted: true };
}

/** The reporting window: the last `days` days up to now, as hour keys (YYYY-MM-DDTHH). */
function windowOf(days: number, now = Date.now()) {
  const from = new Date(now - days * 86_400_000);
  return { from: from.toISOString(), to: new Date(now).toISOString(), fromHour: from.toISOString().slice(0, 13), toHour: new Date(now).toISOString().slice(0, 13) };
}

const num = (v: unknown) => Number(v ?? 0);
const TOP_PATHS = 10;

export interface CrawlerReport {
  name: string;
  vendor: string;
  role: 'training' | 'search' | 'user';
  hits: number;
  verified_hits: number;
  unverified_hits: number;
  /** Whether the vendor publishes IP ranges the server holds; false: every hit is unverified by necessity. */
  verifiable: boolean;
  /** Why hits cannot be verified (the ranges file's note), null when they can. */
  unverifiable_reason: string | null;
  status: { '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  blocked_hits: number;
  last_seen: string;
  top_paths: { path: string; hits: number; blocked_hits: number }[];
  /** Hits per UTC day with any (oldest first); days without hits are left out. */
  daily: { day: string; hits: number; blocked_hits: number }[];
}

/** Per-key daily sums from rows carrying an hour key (YYYY-MM-DDTHH), oldest day first. */
function dailyOf<T extends Record<string, number>>(rows: { key: string; hour: string; values: T }[]): Map<string, ({ day: string } & T)[]> {
  const out = new Map<string, Map<string, { day: string } & T>>();
  for (const r of rows) {
    const days = out.get(r.key) ?? new Map<string, { day: string } & T>();
    const day = String(r.hour).slice(0, 10);
    const d = days.get(day);
    if (d) for (const k of Object.keys(r.values)) (d as Record<string, number>)[k] += r.values[k];
    else days.set(day, { day, ...r.values });
    out.set(r.key, days);
  }
  return new Map([...out].map(([k, days]) => [k, [...days.values()].sort((a, b) => a.day.localeCompare(b.day))]));
}

/** AI crawler activity on the site over the last `days` days, most hits first. */
export async function siteCrawlers(store: Store, accountId: string, siteId: string, days: number, ranges: CrawlerRanges = crawlerRanges()) {
  await getSiteRow(store, accountId, siteId);
  const w = windowOf(days);
  const rows = await store.db
    .selectFrom('site_crawler_hits')
    .select(['crawler', 'status_class', 'verified', 'blocked'])
    .select((eb) => [eb.fn.sum<number>('hits').as('hits'), eb.fn.max('last_seen').as('last_seen')])
    .where('site_id', '=', siteId)
    .where('hour', '>=', w.fromHour)
    .where('hour', '<=', w.toHour)
    .groupBy(['crawler', 'status_class', 'verified', 'blocked'])
    .execute();
  const byName = new Map<string, CrawlerReport>();
  for (const r of rows) {
    const entry = AI_CRAWLERS.find((c) => c.token === r.crawler);
    let c = byName.get(r.crawler);
    if (!c) {
      c = {
        name: r.crawler, vendor: entry?.vendor ?? '', role: entry?.role ?? 'training', hits: 0, verified_hits: 0, unverified_hits: 0,
        verifiable: ranges.verifiable(r.crawler),
        unverifiable_reason: ranges.verifiable(r.crawler) ? null : (ranges.file.unverifiable[r.crawler] ?? 'No published IP ranges are held for this crawler.'),
        status: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 }, blocked_hits: 0, last_seen: '', top_paths: [], daily: [],
      };
      byName.set(r.crawler, c);
    }
    const hits = num(r.hits);
    c.hits += hits;
    if (num(r.verified)) c.verified_hits += hits;
    else c.unverified_hits += hits;
    c.status[r.status_class] += hits;
    if (num(r.blocked)) c.blocked_hits += hits;
    if (String(r.last_seen) > c.last_seen) c.last_seen = String(r.last_seen);
  }
  const paths = await store.db
    .selectFrom('site_crawler_hits')
    .select(['crawler', 'path'])
    .select((eb) => [
      eb.fn.sum<number>('hits').as('hits'),
      eb.fn.sum<number>(sql<number>`case when blocked = 1 then hits else 0 end`).as('blocked_hits'),
    ])
    .where('site_id', '=', siteId)
    .where('hour', '>=', w.fromHour)
    .where('hour', '<=', w.toHour)
    .groupBy(['crawler', 'path'])
    .execute();
  const pathsOf = new Map<string, { path: string; hits: number; blocked_hits: number }[]>();
  for (const p of paths) {
    const list = pathsOf.get(p.crawler) ?? [];
    list.push({ path: p.path, hits: num(p.hits), blocked_hits: num(p.blocked_hits) });
    pathsOf.set(p.crawler, list);
  }
  const perHour = await store.db
    .selectFrom('site_crawler_hits')
    .select(['crawler', 'hour'])
    .select((eb) => [
      eb.fn.sum<number>('hits').as('hits'),
      eb.fn.sum<number>(sql<number>`case when blocked = 1 then hits else 0 end`).as('blocked_hits'),
    ])
    .where('site_id', '=', siteId)
    .where('hour', '>=', w.fromHour)
    .where('hour', '<=', w.toHour)
    .groupBy(['crawler', 'hour'])
    .execute();
  const daily = dailyOf(perHour.map((r) => ({ key: r.crawler, hour: r.hour, values: { hits: num(r.hits), blocked_hits: num(r.blocked_hits) } })));
  const crawlers = [...byName.values()]
    .map((c) => ({
      ...c,
      daily: daily.get(c.name) ?? [],
      last_seen: toApiTime(c.last_seen),
      top_paths: (pathsOf.get(c.name) ?? []).sort((a, b) => b.hits - a.hits || a.path.localeCompare(b.path)).slice(0, TOP_PATHS),
    }))
    .sort((a, b) => b.hits - a.hits || a.name.localeCompare(b.name));
  return { site_id: siteId, from: toApiTime(w.from), to: toApiTime(w.to), crawlers };
}

/** Visits referred by AI assistants over the last `days` days, most visits first. */
export async function siteReferrals(store: Store, accountId: string, siteId: string, days: number) {
  await getSiteRow(store, accountId, siteId);
  const w = windowOf(days);
  const rows = await store.db
    .selectFrom('site_referral_visits')
    .select(['source', 'path'])
    .select((eb) => eb.fn.sum<number>('visits').as('visits'))
    .where('site_id', '=', siteId)
    .where('hour', '>=', w.fromHour)
    .where('hour', '<=', w.toHour)
    .groupBy(['source', 'path'])
    .execute();
  const perHour = await store.db
    .selectFrom('site_referral_visits')
    .select(['source', 'hour'])
    .select((eb) => eb.fn.sum<number>('visits').as('visits'))
    .where('site_id', '=', siteId)
    .where('hour', '>=', w.fromHour)
    .where('hour', '<=', w.toHour)
    .groupBy(['source', 'hour'])
    .execute();
  const daily = dailyOf(perHour.map((r) => ({ key: r.source, hour: r.hour, values: { visits: num(r.visits) } })));
  const bySource = new Map<string, { source: string; visits: number; top_landing_pages: { path: string; visits: number }[] }>();
  for (const r of rows) {
    const s = bySource.get(r.source) ?? { source: r.source, visits: 0, top_landing_pages: [] };
    s.visits += num(r.visits);
    s.top_landing_pages.push({ path: r.path, visits: num(r.visits) });
    bySource.set(r.source, s);
  }
  const sources = [...bySource.values()]
    .map((s) => ({
      ...s,
      top_landing_pages: s.top_landing_pages.sort((a, b) => b.visits - a.visits || a.path.localeCompare(b.path)).slice(0, TOP_PATHS),
      daily: daily.get(s.source) ?? [],
    }))
    .sort((a, b) => b.visits - a.visits || a.source.localeCompare(b.source));
  return { site_id: siteId, from: toApiTime(w.from), to: toApiTime(w.to), sources };
}
