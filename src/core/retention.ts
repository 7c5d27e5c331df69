// The retention sweep: what grows without bound and nobody reads after a while is let go on a
// schedule (docs/operating.md, "Retention"). Each with its setting in days (0 keeps it for good):
// finished job rows, webhook deliveries that ended (with their attempts, and then the events no
// delivery and no dedupe key needs any more), the sites' log line hashes by the hour of their
// line, and the activity log (with the removed people only its old rows named). Without a
// setting, a day after they ended: sessions, sign-in links (reset, invitation, set-up) and the
// failed sign-in counts. Runs, probes, answers and the sites' hourly counts are never touched.
// The one thing to know: many worker processes sweep one database. Every statement deletes at
// most BATCH rows that are old and finished when it runs (re-checked by the statement itself),
// so two sweeps at once delete each row once and the second finds less or nothing; on Postgres
// the rows are picked with SKIP LOCKED, so neither waits on the other. No statement holds a lock
// for long: a backlog (a first sweep after an upgrade) goes over several runs.
import { sql, type RawBuilder } from 'kysely';
import type { Config } from '../config.ts';
import type { JobLog } from '../jobs/worker.ts';
import { idFloor } from '../lib/ids.ts';
import { migrationAppliedAt } from '../db/migrations.ts';
import { LOG_LINE_HASH_MARK } from './sites/ingest.ts';
import { SESSION_MAX_AGE_MS, SESSION_IDLE_MS } from './accounts/sessions.ts';
import { LOCK_MS, LOCK_WINDOW_MS, TOKEN_MAX_TTL_MS } from './accounts/users.ts';
import type { Executor, Store } from '../db/store.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows one statement deletes at most. */
export const RETENTION_BATCH = 1000;
/** Statements per kind of row in one sweep at most (a backlog goes over several sweeps). */
export const RETENTION_MAX_BATCHES = 50;
/** The migration that added the hour of a log line; hashes from before it have none. */
export const LOG_LINE_HOUR_MIGRATION = '0026_site_log_line_hour';

/** Days each kind of row is kept; 0 keeps it for good. */
export interface RetentionPolicy {
  jobsDays: number;
  webhookDeliveriesDays: number;
  logLineHashesDays: number;
  activityDays: number;
  /** Days an ended session, sign-in link or failed sign-in count is kept after it ended; 0 keeps them. */
  endedAuthDays: number;
}

/** Days an ended session or sign-in link is kept (nothing reads one; a day to look at a "my link did not work"). */
export const ENDED_AUTH_DAYS = 1;
/**
 * Days after which no producer can make a webhook event's dedupe key again (see
 * webhookEventsBefore): the longest any of them looks back is a tracked test's 90-day history.
 */
export const WEBHOOK_EVENT_KEY_DAYS = 92;

export function retentionPolicy(
  config: Pick<
    Config,
    'SIGHTLINE_RETAIN_JOBS_DAYS' | 'SIGHTLINE_RETAIN_WEBHOOK_DELIVERIES_DAYS' | 'SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS' | 'SIGHTLINE_RETAIN_ACTIVITY_DAYS'
  >,
): RetentionPolicy {
  return {
    jobsDays: config.SIGHTLINE_RETAIN_JOBS_DAYS,
    webhookDeliveriesDays: config.SIGHTLINE_RETAIN_WEBHOOK_DELIVERIES_DAYS,
    logLineHashesDays: config.SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS,
    activityDays: config.SIGHTLINE_RETAIN_ACTIVITY_DAYS,
    endedAuthDays: ENDED_AUTH_DAYS,
  };
}

/** Whether the policy lets anything go. */
export const retentionOn = (p: RetentionPolicy) => Object.values(p).some((days) => days > 0);

/** Rows one sweep removed, per table. */
export interface SweepResult {
  jobs: number;
  webhook_messages: number;
  webhook_attempts: number;
  site_log_lines: number;
  webhook_events: number;
  activity: number;
  removed_users: number;
  sessions: number;
  auth_tokens: number;
  login_throttle: number;
}

export interface SweepOptions {
  /** The clock (epoch ms); default now. */
  now?: number;
  batch?: number;
  maxBatches?: number;
  log?: Pick<JobLog, 'info'>;
  /** Told what was removed, per table (metrics). */
  onRemoved?: (table: keyof SweepResult, rows: number) => void;
}

/**
 * One bounded delete: the rows of `table` whose `keys` `pick` (a select of those columns, ordered)
 * names, at most `limit`, within `within` (a condition that lets the delete use an index). On
 * Postgres the rows are picked once, locked with SKIP LOCKED, in a materialized CTE: picked in an
 * `in (subquery)`, the planner may run the subquery again for each row it deletes, and as the
 * statement's own deletes are skipped as locked, each run picks new rows, past the limit.
 * Answers the rows removed (the first key of each).
 */
export async function deletePicked(
  db: Executor,
  dialect: Store['dialect'],
  table: string,
  keys: readonly string[],
  pick: RawBuilder<unknown>,
  limit: number,
  within: RawBuilder<unknown> = sql`true`,
): Promise<string[]> {
  const cols = sql.join(keys.map((k) => sql.ref(k)));
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ k: string }>`
          with picked as materialized (${pick} limit ${sql.lit(limit)} for update skip locked)
          delete from ${sql.table(table)} where ${within} and (${cols}) in (select ${cols} from picked)
          returning ${sql.ref(keys[0]!)} as k`.execute(db)
      : await sql<{ k: string }>`
          delete from ${sql.table(table)} where ${within} and (${cols}) in (${pick} limit ${sql.lit(limit)})
          returning ${sql.ref(keys[0]!)} as k`.execute(db);
  return rows.map((r) => r.k);
}

/** Runs `statement` (rows removed) until it removes fewer than `batch` or maxBatches ran. */
async function inBatches(batch: number, maxBatches: number, statement: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await statement();
    total += n;
    if (n < batch) break;
  }
  return total;
}

/** One sweep: removes what the policy lets go, in batches; returns the rows removed per table. */
export async function sweepRetention(store: Store, policy: RetentionPolicy, opts: SweepOptions = {}): Promise<SweepResult> {
  const now = opts.now ?? Date.now();
  const batch = Math.max(1, Math.trunc(opts.batch ?? RETENTION_BATCH));
  const maxBatches = Math.max(1, Math.trunc(opts.maxBatches ?? RETENTION_MAX_BATCHES));
  const out: SweepResult = {
    jobs: 0,
    webhook_messages: 0,
    webhook_attempts: 0,
    site_log_lines: 0,
    webhook_events: 0,
    activity: 0,
    removed_users: 0,
    sessions: 0,
    auth_tokens: 0,
    login_throttle: 0,
  };
  /** Deletes from `table` the rows whose key `pick` names, in batches. */
  const sweep = (table: 'jobs' | 'sessions' | 'auth_tokens' | 'login_throttle' | 'webhook_events' | 'removed_users', key: string, pick: RawBuilder<unknown>) =>
    inBatches(batch, maxBatches, async () => (await deletePicked(store.db, store.dialect, table, [key], pick, batch)).length);
  const report = (table: keyof SweepResult) => out[table] > 0 && opts.onRemoved?.(table, out[table]);
  if (policy.jobsDays > 0) {
    const before = now - policy.jobsDays * DAY_MS;
    // Found by the primary key (ids sort by creation time): no index holds finished jobs (0021).
    const pick = sql`select id from jobs
       where id < ${idFloor('job', before)} and status in ('done', 'failed', 'cancelled') and updated_at < ${new Date(before).toISOString()}
       order by id`;
    out.jobs = await sweep('jobs', 'id', pick);
    report('jobs');
  }
  if (policy.webhookDeliveriesDays > 0) {
    const before = now - policy.webhookDeliveriesDays * DAY_MS;
    await inBatches(batch, maxBatches, async () => {
      const r = await deleteEndedDeliveries(store, before, batch);
      out.webhook_messages += r.messages;
      out.webhook_attempts += r.attempts;
      return r.messages;
    });
    report('webhook_messages');
    report('webhook_attempts');
    // Then the events whose deliveries are all gone, once no producer can make their key again.
    const eventsBefore = idFloor('evt', now - Math.max(policy.webhookDeliveriesDays, WEBHOOK_EVENT_KEY_DAYS) * DAY_MS);
    out.webhook_events = await sweep(
      'webhook_events',
      'id',
      sql`select e.id from webhook_events e
           where e.id < ${eventsBefore} and not exists (select 1 from webhook_messages m where m.event_id = e.id)
           order by e.id`,
    );
    report('webhook_events');
  }
  if (policy.logLineHashesDays > 0) {
    out.site_log_lines = await sweepLogLineHashes(store, policy.logLineHashesDays, now, batch, maxBatches);
    report('site_log_lines');
  }
  if (policy.activityDays > 0) {
    const before = now - policy.activityDays * DAY_MS;
    out.activity = await sweepActivity(store, idFloor('act', before), batch, maxBatches);
    report('activity');
    // A removed person's email is kept while an activity row of theirs is: they make none once
    // removed (a day for a request still in flight), so once the account holds no row from before
    // the window, none of theirs is left.
    const removedBefore = new Date(before - DAY_MS).toISOString();
    out.removed_users = await sweep(
      'removed_users',
      'user_id',
      sql`select r.user_id from removed_users r
           where r.removed_at < ${removedBefore}
             and not exists (select 1 from activity a where a.account_id = r.account_id and a.id < ${idFloor('act', before)})
           order by r.user_id`,
    );
    report('removed_users');
  }
  if (policy.endedAuthDays > 0) {
    const grace = policy.endedAuthDays * DAY_MS;
    const ended = new Date(now - grace).toISOString();
    // A session ends at its expiry (at most 30 days after it began), after a week unused, or when
    // revoked. The newest of each person's sessions stays: the team page's "last seen" reads it.
    out.sessions = await sweep(
      'sessions',
      'id',
      sql`select s.id from sessions s
           where (s.id < ${idFloor('ses', now - SESSION_MAX_AGE_MS - grace)} or s.expires_at < ${ended}
                  or s.revoked_at < ${ended} or s.last_seen_at < ${new Date(now - SESSION_IDLE_MS - grace).toISOString()})
             and s.id <> (select t.id from sessions t where t.user_id = s.user_id order by t.last_seen_at desc, t.id desc limit 1)
           order by s.id`,
    );
    report('sessions');
    // A link ends when used, replaced or revoked (used_at) or at its expiry (at most a week).
    out.auth_tokens = await sweep(
      'auth_tokens',
      'id',
      sql`select id from auth_tokens
           where id < ${idFloor('tok', now - TOKEN_MAX_TTL_MS - grace)} or expires_at < ${ended} or used_at < ${ended}
           order by id`,
    );
    report('auth_tokens');
    // A count of failed sign-ins matters for its window (15 minutes) and the lock it set.
    out.login_throttle = await sweep(
      'login_throttle',
      'email',
      sql`select email from login_throttle
           where window_started_at < ${new Date(now - LOCK_WINDOW_MS - grace).toISOString()}
             and (locked_until is null or locked_until < ${new Date(now - LOCK_MS - grace).toISOString()})
           order by email`,
    );
    report('login_throttle');
  }
  if (Object.values(out).some((n) => n > 0)) opts.log?.info({ removed: out, policy }, 'retention swept');
  return out;
}

/**
 * Removes the activity rows older than `before` (an id floor), account by account: the log is
 * keyed by (account, id), so each statement reads one account's oldest rows from its key. At most
 * `maxBatches` statements that removed a full batch; an account with nothing old costs one probe.
 */
async function sweepActivity(store: Store, before: string, batch: number, maxBatches: number): Promise<number> {
  const accounts = await store.db.selectFrom('accounts').select('id').orderBy('id').execute();
  let removed = 0;
  let full = 0;
  for (const { id } of accounts) {
    for (;;) {
      const pick = sql`select id from activity where account_id = ${id} and id < ${before} order by id`;
      const rows = await deletePicked(store.db, store.dialect, 'activity', ['id'], pick, batch, sql`account_id = ${id}`);
      removed += rows.length;
      if (rows.length < batch) break;
      if (++full >= maxBatches) return removed;
    }
  }
  return removed;
}

/**
 * Deletes up to `limit` webhook deliveries that ended (succeeded or failed; never a pending one)
 * made and last changed before `before`, then their attempts, in one transaction. A delivery
 * retried meanwhile is pending again and stays: the statement checks the status itself (on
 * Postgres, a row changed under its lock is checked again).
 */
export async function deleteEndedDeliveries(store: Store, before: number, limit: number): Promise<{ messages: number; attempts: number }> {
  return store.db.transaction().execute(async (trx) => {
    const pick = sql`select id from webhook_messages
       where id < ${idFloor('msg', before)} and status in ('succeeded', 'failed') and updated_at < ${new Date(before).toISOString()}
       order by id`;
    const ids = await deletePicked(trx, store.dialect, 'webhook_messages', ['id'], pick, limit);
    if (ids.length === 0) return { messages: 0, attempts: 0 };
    const attempts = await trx.deleteFrom('webhook_attempts').where('message_id', 'in', ids).executeTakeFirst();
    return { messages: ids.length, attempts: Number(attempts.numDeletedRows) };
  });
}

/**
 * The hour key (YYYY-MM-DDTHH) below which a log line hash may go at `now`: an hour past the
 * window the upload refuses lines at (tooOldBefore in sites/ingest.ts), so a line whose hash is
 * gone is refused by every upload, one that started before this sweep too.
 */
export function logLineHashCutoff(now: number, days: number): string {
  return new Date(now - days * DAY_MS - HOUR_MS).toISOString().slice(0, 13);
}

/**
 * Removes the log line hashes of lines older than the window, by the hour stored with them, after
 * raising the mark uploads read (logLineHashMark in sites/ingest.ts) to the cutoff;
 * hashes counted before migration 0026 (no hour) go once that migration is a day older than the
 * window: every line they stand for was read before it ran, so by then it is refused anyway.
 */
async function sweepLogLineHashes(store: Store, days: number, now: number, batch: number, maxBatches: number): Promise<number> {
  const cutoff = logLineHashCutoff(now, days);
  const hashes = (pick: RawBuilder<unknown>) => async () =>
    (await deletePicked(store.db, store.dialect, 'site_log_lines', ['site_id', 'line_hash'], pick, batch)).length;
  // First the mark (uploads refuse lines before it from now on, whatever the window becomes),
  // then the deletes; never moved back.
  await store.db
    .insertInto('retention_marks')
    .values({ name: LOG_LINE_HASH_MARK, value: cutoff })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ value: sql`case when excluded.value > retention_marks.value then excluded.value else retention_marks.value end` }),
    )
    .execute();
  let removed = await inBatches(batch, maxBatches, hashes(sql`select site_id, line_hash from site_log_lines where hour < ${cutoff} order by hour`));
  const upgraded = await migrationAppliedAt(store.db, LOG_LINE_HOUR_MIGRATION);
  if (upgraded && Date.parse(upgraded) < now - (days + 1) * DAY_MS) {
    removed += await inBatches(batch, maxBatches, hashes(sql`select site_id, line_hash from site_log_lines where hour is null`));
  }
  return removed;
}
