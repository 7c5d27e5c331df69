// The job table: work waiting to be done, claimed by workers with a lease. A worker that dies
// stops renewing its lease, and once the lease has expired any worker may claim the job again,
// so handlers must be safe to run twice (the visibility probe handler is: its result is
// recorded by a conditional update). Claiming uses FOR UPDATE SKIP LOCKED on Postgres, so many
// worker processes share one queue; on SQLite the single writer makes the claim atomic.
// This module knows no business: a job is a kind, a lane (the unit of concurrency limits, e.g.
// a platform) and the id of the thing to work on.
import { sql } from 'kysely';
import type { JobsTable } from '../db/schema.ts';
import { newId, nowIso } from '../core/ids.ts';
import type { Executor, Store } from '../core/store.ts';

export type Job = JobsTable;

const finishedByHandler = new WeakSet<AbortSignal>();

/**
 * A handler that marked its job done itself, in the transaction that recorded its outcome (one
 * commit fewer per job), calls this with the signal the worker gave it, after that commit; the
 * worker then skips its own finishJob. Keyed by the signal because handlers are wrapped (core
 * passes only the job's ref_id on) and the signal is unique to one execution.
 */
export function markJobFinished(signal: AbortSignal): void {
  finishedByHandler.add(signal);
}

/** Whether the handler given this signal already finished its job (see markJobFinished). */
export function jobFinishedByHandler(signal: AbortSignal): boolean {
  return finishedByHandler.has(signal);
}

/** A literal LIMIT (SQLite plans it better than a bound one); only ever a validated integer. */
function limitLit(n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`invalid limit ${n}`);
  return sql.lit(n);
}

export interface NewJob {
  kind: string;
  lane: string;
  refId: string;
  maxAttempts?: number;
}

export async function enqueueJobs(db: Executor, jobs: NewJob[]): Promise<void> {
  const now = nowIso();
  const rows = jobs.map((j) => ({
    id: newId('job'),
    kind: j.kind,
    lane: j.lane,
    ref_id: j.refId,
    status: 'queued' as const,
    attempts: 0,
    max_attempts: j.maxAttempts ?? 5,
    run_after: now,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('jobs').values(rows.slice(i, i + 500)).execute();
}

/**
 * Claims up to `limit` jobs of the given lanes: running jobs whose lease has expired (their
 * worker died) first, then queued jobs whose time has come, oldest first. Two statements rather
 * than one OR, so each walks its own index in order and stops at `limit`: with the OR the
 * database sorted the lane's whole backlog on every claim, which made a large run quadratic
 * (bench:runs). Expired leases are rare: `expired: false` skips that statement (the worker looks
 * for them once per poll interval, not on every claim). Every claim counts an attempt, a reclaim
 * too: a job that comes back with attempts > max_attempts is not run but given up by the worker
 * (worker.ts), so a job that kills its worker every time still ends and its credits come back.
 */
export async function claimJobs(
  store: Store,
  workerId: string,
  lanes: string[],
  limit: number,
  leaseMs: number,
  opts: { expired?: boolean } = {},
): Promise<Job[]> {
  if (lanes.length === 0 || limit <= 0) return [];
  const now = nowIso();
  const leaseUntil = new Date(Date.now() + leaseMs).toISOString();
  const lock = store.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const claim = async (ready: ReturnType<typeof sql>, n: number) =>
    (
      await sql<Job>`
    update jobs
       set status = 'running', lease_owner = ${workerId}, lease_until = ${leaseUntil},
           attempts = attempts + 1, updated_at = ${now}
     where id in (
       select id from jobs
        where lane in (${sql.join(lanes)}) and ${ready}
        order by run_after, id
        limit ${limitLit(n)}
        ${lock})
    returning *`.execute(store.db)
    ).rows;
  const expired = opts.expired === false ? [] : await claim(sql`status = 'running' and lease_until < ${now}`, limit);
  if (expired.length >= limit) return expired;
  const queued = await claim(sql`status = 'queued' and run_after <= ${now}`, limit - expired.length);
  return [...expired, ...queued];
}

/** Extends the leases of jobs this worker still holds. */
export async function renewLeases(db: Executor, workerId: string, jobIds: string[], leaseMs: number): Promise<void> {
  if (jobIds.length === 0) return;
  const leaseUntil = new Date(Date.now() + leaseMs).toISOString();
  for (let i = 0; i < jobIds.length; i += 500) {
    await sql`
      update jobs set lease_until = ${leaseUntil}
       where id in (${sql.join(jobIds.slice(i, i + 500))}) and lease_owner = ${workerId} and status = 'running'`.execute(db);
  }
}

/** Hot path (every job ends here): a `sql` template, several times cheaper than the builder. */
export async function finishJob(db: Executor, jobId: string, status: 'done' | 'failed' | 'cancelled', error?: string): Promise<void> {
  await sql`
    update jobs set status = ${status}, lease_owner = null, lease_until = null, last_error = ${error ?? null}, updated_at = ${nowIso()}
     where id = ${jobId}`.execute(db);
}

/** Puts a job back in the queue to run again after a delay (transient failure). */
export async function retryJobLater(db: Executor, jobId: string, delayMs: number, error: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      lease_owner: null,
      lease_until: null,
      run_after: new Date(Date.now() + delayMs).toISOString(),
      last_error: error,
      updated_at: nowIso(),
    })
    .where('id', '=', jobId)
    .execute();
}

export async function cancelJobsFor(db: Executor, refIds: string[]): Promise<void> {
  for (let i = 0; i < refIds.length; i += 500) {
    await db
      .updateTable('jobs')
      .set({ status: 'cancelled', updated_at: nowIso() })
      .where('ref_id', 'in', refIds.slice(i, i + 500))
      .where('status', '=', 'queued')
      .execute();
  }
}

/**
 * Whether any running job's lease has expired (a worker died): one index seek over all lanes, so
 * the worker asks for expired jobs lane by lane only when there are some.
 */
export async function anyExpiredLease(db: Executor): Promise<boolean> {
  const { rows } = await sql`select 1 as x from jobs where status = 'running' and lease_until < ${nowIso()} limit 1`.execute(db);
  return rows.length > 0;
}

/** Lanes that have work ready now (so a worker only asks for what exists). */
export async function readyLanes(store: Store): Promise<string[]> {
  const now = nowIso();
  const rows = await store.db
    .selectFrom('jobs')
    .select('lane')
    .distinct()
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]),
        eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
      ]),
    )
    .execute();
  return rows.map((r) => r.lane);
}
