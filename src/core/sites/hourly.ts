// The sites' hourly rollups over a span, read in two statements for any number of sites: AI
// crawler hits (by site, crawler, refused or not, hour) and AI referral visits (by site, source,
// hour). The project dashboard's site activity and the weekly digest pool them as they need.
import type { Executor } from '../../db/store.ts';

/** The rollups' hour key (UTC, `YYYY-MM-DDTHH`) of an instant. */
export const hourKey = (at: Date): string => at.toISOString().slice(0, 13);

export interface HourlyCrawlerHits {
  site_id: string;
  crawler: string;
  /** The crawler was refused (401/403/429/451 or a bot challenge). */
  blocked: boolean;
  hour: string;
  hits: number;
}

export interface HourlyReferralVisits {
  site_id: string;
  source: string;
  hour: string;
  visits: number;
}

/** Every site's crawler hits and referral visits in the hours [fromHour, toHour) (hour keys). */
export async function siteHourlyRollups(
  db: Executor,
  siteIds: readonly string[],
  fromHour: string,
  toHour: string,
): Promise<{ crawlers: HourlyCrawlerHits[]; referrals: HourlyReferralVisits[] }> {
  if (siteIds.length === 0) return { crawlers: [], referrals: [] };
  const crawlerRows = await db
    .selectFrom('site_crawler_hits')
    .select(['site_id', 'crawler', 'blocked', 'hour'])
    .select((eb) => eb.fn.sum<number>('hits').as('hits'))
    .where('site_id', 'in', siteIds)
    .where('hour', '>=', fromHour)
    .where('hour', '<', toHour)
    .groupBy(['site_id', 'crawler', 'blocked', 'hour'])
    .execute();
  const referralRows = await db
    .selectFrom('site_referral_visits')
    .select(['site_id', 'source', 'hour'])
    .select((eb) => eb.fn.sum<number>('visits').as('visits'))
    .where('site_id', 'in', siteIds)
    .where('hour', '>=', fromHour)
    .where('hour', '<', toHour)
    .groupBy(['site_id', 'source', 'hour'])
    .execute();
  return {
    crawlers: crawlerRows.map((r) => ({ site_id: r.site_id, crawler: r.crawler, blocked: Number(r.blocked) !== 0, hour: r.hour, hits: Number(r.hits) })),
    referrals: referralRows.map((r) => ({ site_id: r.site_id, source: r.source, hour: r.hour, visits: Number(r.visits) })),
  };
}
