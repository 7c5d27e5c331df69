// The weekly digest: one e-mail per console user who chose `digest.weekly`, for the week that
// ended at Monday 00:00 UTC, sent from Monday 08:00 UTC. Per project: the brand's mention rate
// with its interval and the change since the week before (flagged only when the two-proportion
// test says it is beyond the noise), competitors whose rate moved beyond the noise, prompts won
// and lost, and prompts where competitors are named and the brand is not; per site: AI crawler
// hits, refusals and AI referral visits.
//
// The one thing to know: exactly once per account and week, however many processes tick. The
// claim is an insert into digest_weeks (primary key account, week); the process whose insert
// wins queues one mail job per subscribed user in the same transaction, and the jobs survive
// restarts. A digest is claimed only within a day of its due time: a service that was down all
// Monday skips that week rather than sending a stale digest later in the week.
import type { Mailer } from '../accounts/mail.ts';
import { nowIso, toApiTime } from '../../lib/ids.ts';
import { enqueueJobs } from '../../jobs/queue.ts';
import { projectDashboard } from '../projects/dashboard.ts';
import type { Store } from '../../db/store.ts';
import { compareProportions } from '../../lib/stats.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { WEBHOOK_LANE } from './events.ts';
import { subscribes } from './subscriptions.ts';
import { hourKey, siteHourlyRollups } from '../sites/hourly.ts';

/** The e-mail choice that subscribes a user to the weekly digest (beside the event types). */
export const DIGEST_CHOICE = 'digest.weekly';
export const DIGEST_JOB_KIND = 'digest.mail';
/** Hour (UTC) on Monday from which the past week's digest is sent. */
export const DIGEST_SEND_HOUR_UTC = 8;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** A digest not claimed within this long after its due time is skipped. */
const CLAIM_WINDOW_MS = DAY_MS;

export interface DigestWeek {
  /** The week's first day, YYYY-MM-DD (a Monday). */
  week: string;
  from: Date;
  to: Date;
  dueAt: Date;
}

/** The week whose digest is due at `now` (the latest Monday 08:00 UTC at or before it). */
export function dueDigestWeek(now: Date): DigestWeek {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let monday = midnight - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  if (now.getTime() < monday + DIGEST_SEND_HOUR_UTC * 3_600_000) monday -= WEEK_MS;
  const to = new Date(monday);
  const from = new Date(monday - WEEK_MS);
  return { week: from.toISOString().slice(0, 10), from, to, dueAt: new Date(monday + DIGEST_SEND_HOUR_UTC * 3_600_000) };
}

/**
 * Claims the due week's digest for every account with a subscribed user and queues their mails.
 * Returns the number of mails queued by this call (0 when another process already claimed).
 */
export async function claimDigests(store: Store, now: Date): Promise<number> {
  const due = dueDigestWeek(now);
  if (now.getTime() - due.dueAt.getTime() > CLAIM_WINDOW_MS) return 0;
  const prefs = await store.db.selectFrom('alert_email_prefs').select(['user_id', 'account_id', 'events']).execute();
  const usersOf = new Map<string, string[]>();
  for (const p of prefs) {
    if (!subscribes(JSON.parse(p.events) as string[], DIGEST_CHOICE)) continue;
    usersOf.set(p.account_id, [...(usersOf.get(p.account_id) ?? []), p.user_id]);
  }
  if (usersOf.size === 0) return 0;
  const done = await store.db.selectFrom('digest_weeks').select('account_id').where('week', '=', due.week).execute();
  for (const d of done) usersOf.delete(d.account_id);
  let queued = 0;
  for (const [accountId, users] of usersOf) {
    queued += await store.db.transaction().execute(async (trx) => {
      const won = await trx
        .insertInto('digest_weeks')
        .values({ account_id: accountId, week: due.week, created_at: nowIso() })
        .onConflict((oc) => oc.doNothing())
        .returning('account_id')
        .executeTakeFirst();
      if (!won) return 0;
      await enqueueJobs(
        trx,
        users.map((u) => ({ kind: DIGEST_JOB_KIND, lane: WEBHOOK_LANE, refId: `${accountId}:${due.week}:${u}`, accountId })),
      );
      return users.length;
    });
  }
  return queued;
}

type Rate = { mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null; n: number; thin: boolean };

export interface ProjectDigest {
  id: string;
  name: string;
  brand: string;
  rate: Rate | null;
  previous: Rate | null;
  change: { change: number; significant: boolean; p_value: number | null } | null;
  competitors_moved: { name: string; from: number; to: number; change: number }[];
  prompts_won: { prompt: string; mention_rate: number; n: number }[];
  prompts_lost: { prompt: string; change: number; mention_rate: number | null; n: number }[];
  competitors_only: { prompt: string; competitors: string[] }[];
}

export interface SiteDigest {
  domain: string;
  crawler_hits: number;
  blocked_hits: number;
  top_crawlers: { name: string; hits: number; blocked_hits: number }[];
  referral_visits: number;
  referrals: { source: string; visits: number }[];
}

export interface Digest {
  week: string;
  from: string;
  to: string;
  projects: ProjectDigest[];
  sites: SiteDigest[];
}

const countOf = (r: Rate) => Math.round((r.mention_rate ?? 0) * r.n);

/** Moved beyond the noise between two rates (the history's two-proportion test at 95%). */
function moved(before: Rate | null, after: Rate | null) {
  if (!before || !after || before.mention_rate === null || after.mention_rate === null) return null;
  const c = compareProportions(countOf(before), before.n, countOf(after), after.n);
  return c ? { change: c.change, significant: c.change_significant, p_value: c.p_value } : null;
}

const TOP = 3;

/** The digest's numbers for one account and week. */
export async function buildDigest(store: Store, catalog: Catalog, accountId: string, week: DigestWeek): Promise<Digest> {
  const projects = await store.db
    .selectFrom('projects')
    .select(['id', 'name', 'brand'])
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .execute();
  const out: ProjectDigest[] = [];
  for (const p of projects) {
    const d = await projectDashboard(store, accountId, p.id, { days: 14, window: '7d', catalog, now: week.to, siteActivity: false });
    // Windows end at `to` in 7-day steps; runs made after it (the Monday morning) are not this week's.
    const latest = d.series.find((s) => s.end === toApiTime(week.to.toISOString()));
    const previous = d.series.find((s) => s.end === toApiTime(week.from.toISOString()));
    const rateOf = (s: (typeof d.series)[number] | undefined): Rate | null =>
      s ? { mention_rate: s.brand.mention_rate, mention_rate_ci: s.brand.mention_rate_ci, n: s.brand.n, thin: s.brand.thin } : null;
    const competitorsMoved = latest && previous
      ? latest.competitors.flatMap((c) => {
          const was = previous.competitors.find((x) => x.name === c.name);
          const m = was ? moved(was as Rate, c as Rate) : null;
          return m?.significant && was?.mention_rate != null && c.mention_rate != null ? [{ name: c.name, from: was.mention_rate, to: c.mention_rate, change: m.change }] : [];
        })
      : [];
    const inWeek = latest !== undefined && d.latest_period?.end === latest.end;
    const matrix = inWeek ? d.matrix.filter((m) => m.n > 0) : [];
    out.push({
      id: p.id,
      name: p.name,
      brand: (JSON.parse(p.brand) as { name: string }).name,
      rate: rateOf(latest),
      previous: rateOf(previous),
      change: moved(rateOf(previous), rateOf(latest)),
      competitors_moved: competitorsMoved,
      prompts_won: matrix
        .filter((m) => (m.mention_rate ?? 0) > 0)
        .sort((a, b) => (b.mention_rate ?? 0) - (a.mention_rate ?? 0) || b.n - a.n || a.prompt.localeCompare(b.prompt))
        .slice(0, TOP)
        .map((m) => ({ prompt: m.prompt, mention_rate: m.mention_rate ?? 0, n: m.n })),
      prompts_lost: matrix
        .filter((m) => m.change !== null && m.change < 0)
        .sort((a, b) => (a.change ?? 0) - (b.change ?? 0) || a.prompt.localeCompare(b.prompt))
        .slice(0, TOP)
        .map((m) => ({ prompt: m.prompt, change: m.change ?? 0, mention_rate: m.mention_rate, n: m.n })),
      competitors_only: inWeek ? d.competitors_named_brand_absent.slice(0, TOP).map((c) => ({ prompt: c.prompt, competitors: c.competitors.map((x) => x.name) })) : [],
    });
  }
  return { week: week.week, from: toApiTime(week.from.toISOString()), to: toApiTime(week.to.toISOString()), projects: out, sites: await siteDigests(store, accountId, week) };
}

async function siteDigests(store: Store, accountId: string, week: DigestWeek): Promise<SiteDigest[]> {
  const sites = await store.db.selectFrom('sites').select(['id', 'domain']).where('account_id', '=', accountId).orderBy('domain').execute();
  // Every site's rollups of the week in two statements, not two per site.
  const rollups = await siteHourlyRollups(store.db, sites.map((s) => s.id), hourKey(week.from), hourKey(week.to));
  const out: SiteDigest[] = [];
  for (const site of sites) {
    const crawlers = rollups.crawlers.filter((r) => r.site_id === site.id);
    const referrals = new Map<string, number>();
    for (const r of rollups.referrals) if (r.site_id === site.id) referrals.set(r.source, (referrals.get(r.source) ?? 0) + r.visits);
    const byCrawler = new Map<string, { name: string; hits: number; blocked_hits: number }>();
    for (const r of crawlers) {
      const c = byCrawler.get(r.crawler) ?? { name: r.crawler, hits: 0, blocked_hits: 0 };
      c.hits += r.hits;
      if (r.blocked) c.blocked_hits += r.hits;
      byCrawler.set(r.crawler, c);
    }
    const all = [...byCrawler.values()];
    const refs = [...referrals].map(([source, visits]) => ({ source, visits })).sort((a, b) => b.visits - a.visits || a.source.localeCompare(b.source));
    if (all.length === 0 && refs.length === 0) continue;
    out.push({
      domain: site.domain,
      crawler_hits: all.reduce((s, c) => s + c.hits, 0),
      blocked_hits: all.reduce((s, c) => s + c.blocked_hits, 0),
      top_crawlers: all.sort((a, b) => b.blocked_hits - a.blocked_hits || b.hits - a.hits || a.name.localeCompare(b.name)).slice(0, TOP),
      referral_visits: refs.reduce((s, r) => s + r.visits, 0),
      referrals: refs.slice(0, TOP),
    });
  }
  return out;
}

const pct = (x: number | null) => (x === null ? 'no answers' : `${Math.round(x * 100)}%`);
const pts = (x: number) => `${x > 0 ? '+' : ''}${Math.round(x * 100)} pts`;
const esc = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const FONT = 'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif';

function rateLine(p: ProjectDigest): string {
  if (!p.rate) return 'No comparable runs this week.';
  const ci = p.rate.mention_rate_ci ? ` (95% interval ${pct(p.rate.mention_rate_ci.low)}–${pct(p.rate.mention_rate_ci.high)})` : '';
  const thin = p.rate.thin ? ', thin evidence' : '';
  let line = `${p.brand} was named in ${pct(p.rate.mention_rate)} of ${p.rate.n} answers${ci}${thin}.`;
  if (p.change && p.previous) {
    line += p.change.significant
      ? ` That is ${pts(p.change.change)} on the week before (${pct(p.previous.mention_rate)}), beyond the noise.`
      : ` The week before: ${pct(p.previous.mention_rate)}; the difference (${pts(p.change.change)}) is within the noise.`;
  }
  return line;
}

/** The digest as mail: subject, plain text and HTML (inline styles; simple tables). */
export function digestMail(d: Digest, publicUrl: string) {
  const base = publicUrl.replace(/\/+$/, '');
  const title = `Your week in AI answers, ${d.week}`;
  const lastDay = new Date(Date.parse(d.to) - DAY_MS).toISOString().slice(0, 10);
  const span = `Monday ${d.week} to Sunday ${lastDay} (UTC)`;
  const text: string[] = [title, `${span}.`, ''];
  const html: string[] = [
    `<h1 style="margin:0 0 4px;${FONT};font-size:20px;font-weight:600;color:#1f2328">${esc(title)}</h1>`,
    `<p style="margin:0 0 16px;${FONT};font-size:13px;color:#59636e">${esc(span)}</p>`,
  ];
  const list = (heading: string, items: string[]) => {
    if (items.length === 0) return;
    text.push(`${heading}:`, ...items.map((i) => `  - ${i}`));
    html.push(
      `<p style="margin:12px 0 4px;${FONT};font-size:14px;font-weight:600;color:#1f2328">${esc(heading)}</p>`,
      `<ul style="margin:0 0 8px;padding-left:20px;${FONT};font-size:14px;line-height:1.5;color:#1f2328">${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`,
    );
  };
  for (const p of d.projects) {
    const link = `${base}/console/projects/${p.id}`;
    text.push(`== ${p.name}`, rateLine(p));
    html.push(
      `<h2 style="margin:20px 0 6px;${FONT};font-size:17px;font-weight:600;color:#1f2328;border-top:1px solid #d1d9e0;padding-top:14px">${esc(p.name)}</h2>`,
      `<p style="margin:0 0 8px;${FONT};font-size:15px;line-height:1.5;color:#1f2328">${esc(rateLine(p))}</p>`,
    );
    list('Competitors that moved beyond the noise', p.competitors_moved.map((c) => `${c.name}: ${pct(c.from)} → ${pct(c.to)} (${pts(c.change)})`));
    list('Prompts won', p.prompts_won.map((w) => `"${w.prompt}": named in ${pct(w.mention_rate)} of ${w.n} answers`));
    list('Prompts lost ground', p.prompts_lost.map((l) => `"${l.prompt}": ${pts(l.change)}, now ${pct(l.mention_rate)} of ${l.n}`));
    list('Competitors named, your brand not', p.competitors_only.map((c) => `"${c.prompt}": ${c.competitors.join(', ')}`));
    text.push(`Dashboard: ${link}`, '');
    html.push(`<p style="margin:8px 0 0"><a href="${esc(link)}" style="${FONT};font-size:14px;color:#0b57d0">Open the dashboard</a></p>`);
  }
  if (d.sites.length) {
    text.push('== Your sites');
    html.push(`<h2 style="margin:20px 0 6px;${FONT};font-size:17px;font-weight:600;color:#1f2328;border-top:1px solid #d1d9e0;padding-top:14px">Your sites</h2>`);
    for (const s of d.sites) {
      const line = `${s.domain}: ${s.crawler_hits} AI crawler requests (${s.blocked_hits} refused), ${s.referral_visits} visits from AI assistants.`;
      text.push(line);
      html.push(`<p style="margin:0 0 6px;${FONT};font-size:15px;line-height:1.5;color:#1f2328">${esc(line)}</p>`);
      list('Crawlers', s.top_crawlers.map((c) => `${c.name}: ${c.hits} requests${c.blocked_hits ? `, ${c.blocked_hits} refused` : ''}`));
      list('Referrals', s.referrals.map((r) => `${r.source}: ${r.visits} visits`));
    }
    text.push('');
  }
  text.push(`Change what you receive: ${base}/console/account`);
  html.push(`<p style="margin:20px 0 0;${FONT};font-size:12px;color:#59636e">You chose the weekly digest. <a href="${esc(`${base}/console/account`)}" style="color:#59636e">Change what you receive</a>.</p>`);
  return {
    subject: `[sightline] ${title}`,
    text: `${text.join('\n')}\n`,
    html: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title></head>\n<body style="margin:0;padding:24px;background:#f6f8fa"><div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;border:1px solid #d1d9e0;border-radius:8px">\n${html.join('\n')}\n</div></body></html>\n`,
  };
}

/** The job: builds and mails one user's digest (ref `<account>:<week>:<user>`). Without SMTP it does nothing. */
export async function sendDigestMail(deps: { store: Store; catalog: Catalog; mailer?: Mailer; publicUrl: string }, ref: string): Promise<void> {
  if (!deps.mailer?.configured) return;
  const [accountId, week, userId] = ref.split(':');
  const user = await deps.store.db
    .selectFrom('users')
    .leftJoin('alert_email_prefs', 'alert_email_prefs.user_id', 'users.id')
    .select(['users.email', 'users.account_id', 'alert_email_prefs.events'])
    .where('users.id', '=', userId!)
    .executeTakeFirst();
  // A user who left the account or unsubscribed since the claim gets nothing.
  if (!user || user.account_id !== accountId || !subscribes(JSON.parse(user.events ?? '[]') as string[], DIGEST_CHOICE)) return;
  const from = new Date(`${week}T00:00:00.000Z`);
  const digest = await buildDigest(deps.store, deps.catalog, accountId!, { week: week!, from, to: new Date(from.getTime() + WEEK_MS), dueAt: new Date(from.getTime() + WEEK_MS + DIGEST_SEND_HOUR_UTC * 3_600_000) });
  if (digest.projects.length === 0 && digest.sites.length === 0) return;
  const mail = digestMail(digest, deps.publicUrl);
  await deps.mailer.send(user.email, mail.subject, mail.text, mail.html);
}
