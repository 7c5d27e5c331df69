// The retention sweep: what grows without bound and nobody reads after a while is let go on a
// schedule (docs/operating.md, "Retention"). Three things, each with its setting in days (0 keeps
// it for good): finished job rows, webhook deliveries that ended (with their attempts), and the
// sites' log line hashes by the hour of their line. Runs, probes, answers, activity, webhook
// events and the sites' hourly counts are never touched here.
// The one thing to know: many worker processes sweep one database. Every statement deletes at
// most BATCH rows that are old and finished when it runs (re-checked by the statement itself),
// so two sweeps at once delete each row once and the second finds less or nothing; on Postgres
// the rows are picked with SKIP LOCKED, so neither waits on the other. No statement holds a lock
// for long: a backlog (a first sweep after an upgrade) goes over several runs.
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { deleteFinishedJobs } from '../jobs/queue.ts';
import type { JobLog } from '../jobs/worker.ts';
import { idFloor } from '../lib/ids.ts';
import { migrationAppliedAt } from '../db/migrations.ts';
import { LOG_LINE_HASH_MARK } from './sites/ingest.ts';
import type { Store } from '../db/store.ts';

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
}

export function retentionPolicy(
  config: Pick<Config, 'SIGHTLINE_RETAIN_JOBS_DAYS' | 'SIGHTLINE_RETAIN_WEBHOOK_DELIVERIES_DAYS' | 'SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS'>,
): RetentionPolicy {
  return {
    jobsDays: config.SIGHTLINE_RETAIN_JOBS_DAYS,
    webhookDeliveriesDays: config.SIGHTLINE_RETAIN_WEBHOOK_DELIVERIES_DAYS,
    logLineHashesDays: config.SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS,
  };
}

/** Whether the policy lets anything go. */
export const retentionOn = (p: RetentionPolicy) => p.jobsDays > 0 || p.webhookDeliveriesDays > 0 || p.logLineHashesDays > 0;

/** Rows one sweep removed, per table. */
export interface SweepResult {
  jobs: number;
  webhook_messages: number;
  webhook_attempts: number;
  site_log_lines: number;
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
  const out: SweepResult = { jobs: 0, webhook_messages: 0, webhook_attempts: 0, site_log_lines: 0 };
  const report = (table: keyof SweepResult) => out[table] > 0 && opts.onRemoved?.(table, out[table]);
  if (policy.jobsDays > 0) {
    const before = now - policy.jobsDays * DAY_MS;
    out.jobs = await inBatches(batch, maxBatches, () => deleteFinishedJobs(store, before, batch));
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
  }
  if (policy.logLineHashesDays > 0) {
    out.site_log_lines = await sweepLogLineHashes(store, policy.logLineHashesDays, now, batch, maxBatches);
    report('site_log_lines');
  }
  if (Object.values(out).some((n) => n > 0)) opts.log?.info({ removed: out, policy }, 'retention swept');
  return out;
}

/**
 * Deletes up to `limit` webhook deliveries that ended (succeeded or failed; never a pending one)
 * made and last changed before `before`, then their attempts, in one transaction. A delivery
 * retried meanwhile is pending again and stays: the statement checks the status itself (on
 * Postgres, a row changed under its lock is checked again).
 */
export async function deleteEndedDeliveries(store: Store, before: number, limit: number): Promise<{ messages: number; attempts: number }> {
  const lock = store.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  return store.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string }>`
      delete from webhook_messages where id in (
        select id from webhook_messages
         where id < ${idFloor('msg', before)} and status in ('succeeded', 'failed') and updated_at < ${new Date(before).toISOString()}
         order by id
         limit ${sql.lit(limit)}
         ${lock})
      returning id`.execute(trx);
    if (rows.length === 0) return { messages: 0, attempts: 0 };
    const attempts = await trx
      .deleteFrom('webhook_attempts')
      .where(
        'message_id',
        'in',
        rows.map((r) => r.id),
      )
      .executeTakeFirst();
    return { messages: rows.length, attempts: Number(attempts.numDeletedRows) };
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
  const lock = store.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const cutoff = logLineHashCutoff(now, days);
  // First the mark (uploads refuse lines before it from now on, whatever the window becomes),
  // then the deletes; never moved back.
  await store.db
    .insertInto('retention_marks')
    .values({ name: LOG_LINE_HASH_MARK, value: cutoff })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ value: sql`case when excluded.value > retention_marks.value then excluded.value else retention_marks.value end` }),
    )
    .execute();
  let removed = await inBatches(batch, maxBatches, async () => {
    const { rows } = await sql<{ site_id: string }>`
      delete from site_log_lines where (site_id, line_hash) in (
        select site_id, line_hash from site_log_lines where hour < ${cutoff} order by hour limit ${sql.lit(batch)} ${lock})
      returning site_id`.execute(store.db);
    return rows.length;
  });
  const upgraded = await migrationAppliedAt(store.db, LOG_LINE_HOUR_MIGRATION);
  if (upgraded && Date.parse(upgraded) < now - (days + 1) * DAY_MS) {
    removed += await inBatches(batch, maxBatches, async () => {
      const { rows } = await sql<{ site_id: string }>`
        delete from site_log_lines where (site_id, line_hash) in (
          select site_id, line_hash from site_log_lines where hour is null limit ${sql.lit(batch)} ${lock})
        returning site_id`.execute(store.db);
      return rows.length;
    });
  }
  return removed;
}
