// `crawler.blocked` events from site logs: after an upload recorded refusals of AI search or
// user crawlers, a job reads the site's robots.txt through the page fetcher (its address policy
// included) and emits one event per refused path that robots.txt allows (findings.ts).
//
// The one thing to know: an event is named by (site, crawler, path, UTC day of the last refused
// hit) in its dedupe key, so re-uploads, repeated jobs and several workers never send it twice,
// while a refusal seen again on a later day is a new event. robots.txt that cannot be fetched
// means "unknown": no event (logged), the next upload looks again.
import { createHash } from 'node:crypto';
import { enqueueJobs } from '../../jobs/queue.ts';
import type { JobLog } from '../../jobs/worker.ts';
import { evaluateRobots } from '../content/crawlers.ts';
import type { FetchedText } from '../content/types.ts';
import { FetchError } from '../pages/fetch/index.ts';
import type { PageLoader } from '../pages/pipeline.ts';
import type { Store } from '../../db/store.ts';
import { emitEvent, WEBHOOK_LANE } from '../webhooks/events.ts';
import { crawlerBlockedFindings } from './findings.ts';
import { siteCrawlers, siteOrigin } from './sites.ts';

/** The job that looks for `crawler.blocked` findings of one site (ref: the site id); webhooks lane. */
export const CRAWLER_BLOCKED_JOB_KIND = 'site.crawler_blocked';
/** The report window the findings are read over (the crawlers report's default). */
const WINDOW_DAYS = 30;

export interface BlockedCheckDeps {
  store: Store;
  pages: PageLoader;
  log?: JobLog;
}

/** Queues a check of the site's refused crawlers (after an upload that recorded some). */
export async function queueBlockedCheck(store: Store, site: { id: string; account_id: string }): Promise<void> {
  await enqueueJobs(store.db, [{ kind: CRAWLER_BLOCKED_JOB_KIND, lane: WEBHOOK_LANE, refId: site.id, accountId: site.account_id, maxAttempts: 3 }]);
}

/** The dedupe key of one finding: a path can be long, so it is hashed. */
export function blockedDedupeKey(siteId: string, crawler: string, path: string, day: string): string {
  const pathHash = createHash('sha256').update(path).digest('base64url').slice(0, 22);
  return `crawler.blocked:${siteId}:${crawler}:${day}:${pathHash}`;
}

/** Reads robots.txt; null when it could not be had (refused address, network, timeout…). */
async function fetchRobots(deps: BlockedCheckDeps, url: string, accountId: string): Promise<FetchedText | null> {
  try {
    const res = await deps.pages.fetchText(url, { accountId });
    return { status: res.status, body: res.body, contentType: res.contentType };
  } catch (err) {
    if (err instanceof FetchError) return null;
    throw err;
  }
}

/**
 * The job: findings of the site's last 30 days whose robots.txt allows the refused path, each
 * emitted once per UTC day of its last refused hit. Answers the events emitted (new ones only).
 */
export async function checkCrawlerBlocked(deps: BlockedCheckDeps, siteId: string): Promise<number> {
  const { store } = deps;
  const site = await store.db.selectFrom('sites').select(['id', 'account_id', 'domain']).where('id', '=', siteId).executeTakeFirst();
  if (!site) return 0; // deleted since the upload
  const report = await siteCrawlers(store, site.account_id, site.id, WINDOW_DAYS);
  if (!report.crawlers.some((c) => c.role !== 'training' && c.blocked_hits > 0)) return 0;

  const origin = siteOrigin(site.domain);
  const robotsUrl = `${origin}/robots.txt`;
  const robots = await fetchRobots(deps, robotsUrl, site.account_id);
  if (!robots) {
    deps.log?.warn({ site_id: site.id, robots_url: robotsUrl }, 'crawler.blocked: robots.txt could not be fetched; access unknown, no events');
    return 0;
  }
  const allowed = new Map<string, boolean>();
  const allows = (path: string, token: string) => {
    const key = `${token}\u0001${path}`;
    let v = allowed.get(key);
    if (v === undefined) {
      const { access } = evaluateRobots(robots, robotsUrl, origin + path);
      v = access.find((a) => a.agent === token)?.allowed ?? false;
      allowed.set(key, v);
    }
    return v;
  };
  const findings = crawlerBlockedFindings(report, allows);
  if (!findings.length) return 0;

  // The UTC day of each (crawler, path)'s last refused hit in the window.
  const fromHour = new Date(Date.parse(report.from)).toISOString().slice(0, 13);
  const last = await store.db
    .selectFrom('site_crawler_hits')
    .select(['crawler', 'path'])
    .select((eb) => eb.fn.max('last_seen').as('last_seen'))
    .where('site_id', '=', site.id)
    .where('blocked', '=', 1)
    .where('hour', '>=', fromHour)
    .where('crawler', 'in', [...new Set(findings.map((f) => f.crawler))])
    .groupBy(['crawler', 'path'])
    .execute();
  const lastDay = new Map(last.map((r) => [`${r.crawler}\u0001${r.path}`, String(r.last_seen).slice(0, 10)]));

  let emitted = 0;
  for (const f of findings) {
    const day = lastDay.get(`${f.crawler}\u0001${f.path}`);
    if (!day) continue;
    const { type: _type, ...data } = f;
    const id = await store.db.transaction().execute((trx) =>
      emitEvent(trx, { accountId: site.account_id, type: 'crawler.blocked', dedupeKey: blockedDedupeKey(site.id, f.crawler, f.path, day), data }),
    );
    if (id) emitted++;
  }
  if (emitted) deps.log?.info({ site_id: site.id, events: emitted }, 'crawler.blocked events emitted');
  return emitted;
}
