// The job table: work waiting to be done, claimed by workers with a lease. A worker that dies
// stops renewing its lease, and once the lease has expired any worker may claim the job again,
// so handlers must be safe to run twice (the visibility probe handler is: its result is
// recorded by a conditional update). Claiming uses FOR UPDATE SKIP LOCKED on Postgres, so many
// worker processes share one queue; on SQLite the single writer makes the claim atomic.
// This module knows no business: a job is a kind, a lane (the unit of concurrency limits, e.g.
// a platform) and the id of the thing to work on.
import { sql, type Selectable } from 'kysely';
import type { JobsTable } from '../db/schema.ts';
import { newId, nowIso } from '../lib/ids.ts';
import type { Executor, Store } from '../db/store.ts';

export type Job = Selectable<JobsTable>;

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
  /** The account the work is for: claims go round-robin over accounts (see claimJobs). */
  accountId?: string;
  maxAttempts?: number;
}

export async function enqueueJobs(db: Executor, jobs: NewJob[]): Promise<void> {
  const now = nowIso();
  const rows = jobs.map((j) => ({
    id: newId('job'),
    kind: j.kind,
    lane: j.lane,
    ref_id: j.refId,
    account_id: j.accountId ?? null,
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
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('jobs')
      .values(rows.slice(i, i + 500))
      .execute();
}

export interface ClaimOptions {
  /** false skips the look for expired leases (see claimJobs). */
  expired?: boolean;
  /** Jobs in flight in these lanes across every worker at most (provider concurrency per platform). */
  laneCap?: number;
  /** Jobs in flight per account across every worker and lane at most (SIGHTLINE_ACCOUNT_CONCURRENCY). */
  accountCap?: number;
  /** Round-robin cursor: the account served last in these lanes; claiming starts after it. */
  after?: string | null;
}

/**
 * Claims up to `limit` jobs of the given lanes: running jobs whose lease has expired (their
 * worker died) first, then queued jobs whose time has come. Expired leases are rare: `expired:
 * false` skips that statement (the worker looks for them once per poll interval, not on every
 * claim). Every claim counts an attempt, a reclaim too: a job that comes back with attempts >
 * max_attempts is not run but given up by the worker (worker.ts), so a job that kills its worker
 * every time still ends and its credits come back. A claim's (lease_owner, attempts) is its lease
 * token: see holdLease.
 *
 * Queued jobs are shared fairly: the accounts with work waiting in the lanes are served
 * round-robin (starting after `after`), each account's jobs oldest first, so an account that
 * queued 10,000 probes delays another account's probe by one claim, not by its whole backlog.
 * Room an account cannot use goes to the oldest jobs of any account (unless an account cap
 * applies). With `laneCap` or `accountCap` the claim counts jobs in flight and claims in one
 * transaction, serialized per lane (a Postgres advisory lock; SQLite's single writer), so the caps
 * hold across every worker process.
 */
export async function claimJobs(store: Store, workerId: string, lanes: string[], limit: number, leaseMs: number, opts: ClaimOptions = {}): Promise<Job[]> {
  if (lanes.length === 0 || limit <= 0) return [];
  const now = nowIso();
  const leaseUntil = new Date(Date.now() + leaseMs).toISOString();
  const lock = store.dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const inLanes = sql`lane in (${sql.join(lanes)})`;
  // Each statement walks one index in order and stops at `limit` (an OR, or a sort over the
  // lane's backlog, made a large run quadratic: bench:runs).
  const claim = async (db: Executor, ready: ReturnType<typeof sql>, n: number) =>
    n <= 0
      ? []
      : (
          await sql<Job>`
    update jobs
       set status = 'running', lease_owner = ${workerId}, lease_until = ${leaseUntil},
           attempts = attempts + 1, waiting = 0, updated_at = ${now}
     where id in (
       select id from jobs
        where ${inLanes} and ${ready}
        order by run_after, id
        limit ${limitLit(n)}
        ${lock})
    returning *`.execute(db)
        ).rows;
  const expired = opts.expired === false ? [] : await claim(store.db, sql`status = 'running' and lease_until < ${now}`, limit);
  if (expired.length >= limit) return expired;
  const queuedReady = sql`status = 'queued' and run_after <= ${now}`;

  const claimQueued = async (db: Executor, room: number): Promise<Job[]> => {
    if (opts.laneCap !== undefined) {
      // A job waiting on its provider holds no slot (see setJobWaiting).
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from jobs where status = 'running' and waiting = 0 and ${inLanes}`.execute(db);
      room = Math.min(room, opts.laneCap - Number(rows[0]!.n));
      if (room <= 0) return [];
    }
    const accounts = await waitingAccounts(db, inLanes);
    if (accounts.length <= 1 && opts.accountCap === undefined) return claim(db, queuedReady, room);
    const start = opts.after == null ? 0 : accounts.findIndex((a) => a > opts.after!);
    const order = start <= 0 ? accounts : [...accounts.slice(start), ...accounts.slice(0, start)];
    const inFlight = opts.accountCap === undefined ? new Map<string, number>() : await runningPerAccount(db, order.slice(0, room));
    const served = order.slice(0, room);
    const claimed: Job[] = [];
    for (let i = 0; i < served.length; i++) {
      const account = served[i]!;
      let quota = Math.floor(room / served.length) + (i < room % served.length ? 1 : 0);
      if (opts.accountCap !== undefined) quota = Math.min(quota, opts.accountCap - (inFlight.get(account) ?? 0));
      claimed.push(...(await claim(db, sql`${queuedReady} and account_id = ${account}`, quota)));
    }
    // Room the served accounts could not use: the oldest jobs of anyone (jobs without an account
    // only, under an account cap).
    const left = room - claimed.length;
    if (left > 0) claimed.push(...(await claim(db, opts.accountCap === undefined ? queuedReady : sql`${queuedReady} and account_id is null`, left)));
    return claimed;
  };

  const room = limit - expired.length;
  let queued: Job[];
  if (opts.laneCap === undefined && opts.accountCap === undefined) {
    queued = await claimQueued(store.db, room);
  } else {
    queued = await store.db.transaction().execute(async (trx) => {
      if (store.dialect === 'postgres') {
        // Per lane set, or per account cap (one lock for all: it spans lanes).
        const key = opts.accountCap === undefined ? `sightline.claim.${lanes.join(',')}` : 'sightline.claim.accounts';
        await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
      }
      return claimQueued(trx, room);
    });
  }
  return [...expired, ...queued];
}

/**
 * The accounts with queued jobs in the lanes, in id order: a loose index scan (one index seek per
 * account, over jobs_queued_fair), not a scan of the backlog. Jobs whose retry delay has not passed
 * still count; their account then claims nothing this time.
 */
async function waitingAccounts(db: Executor, inLanes: ReturnType<typeof sql>): Promise<string[]> {
  const { rows } = await sql<{ id: string | null }>`
    with recursive a(id) as (
      select (select min(account_id) from jobs where status = 'queued' and ${inLanes})
      union all
      select (select min(account_id) from jobs where status = 'queued' and ${inLanes} and account_id > a.id)
        from a where a.id is not null
    )
    select id from a where id is not null limit 10000`.execute(db);
  return rows.map((r) => r.id!);
}

async function runningPerAccount(db: Executor, accounts: string[]): Promise<Map<string, number>> {
  if (accounts.length === 0) return new Map();
  const { rows } = await sql<{ account_id: string; n: number | string }>`
    select account_id, count(*) as n from jobs where account_id in (${sql.join(accounts)}) and status = 'running' and waiting = 0 group by account_id`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.account_id, Number(r.n)]));
}

/** A claim's lease token: the worker and the attempt it claimed (attempts grows with every claim). */
export interface Lease {
  jobId: string;
  owner: string;
  attempt: number;
}

export const leaseOf = (job: Job): Lease => ({ jobId: job.id, owner: job.lease_owner ?? '', attempt: job.attempts });

/** Thrown when a job's lease was taken over (or the job finished) since this worker claimed it. */
export class LeaseLost extends Error {
  constructor(readonly jobId: string) {
    super(`lease of job ${jobId} was lost: another worker took the job over, or it ended`);
    this.name = 'LeaseLost';
  }
}

/**
 * The fence: every write of a job's outcome first calls this inside its transaction. It succeeds
 * only while the job is still running under this very claim (same worker, same attempt) and
 * locks the job's row until the transaction ends, so no other worker can take the job over in
 * between; otherwise it throws LeaseLost and the transaction rolls back, recording nothing.
 * A lease that ran out while nobody took the job over is still this claim's: there is no second
 * holder to be fenced from (the heartbeat renews it).
 */
export async function holdLease(db: Executor, lease: Lease): Promise<void> {
  const res = await sql`
    update jobs set updated_at = ${nowIso()}
     where id = ${lease.jobId} and lease_owner = ${lease.owner} and attempts = ${lease.attempt} and status = 'running'`.execute(db);
  if (Number(res.numAffectedRows) !== 1) throw new LeaseLost(lease.jobId);
}

/**
 * holdLease and finishJob(…, 'done') in one statement, for a handler that records its outcome and
 * ends its job in one transaction: the job is marked done only while it runs under this very
 * claim (its row then stays locked until the transaction ends); otherwise LeaseLost, and the
 * transaction rolls back.
 */
export async function finishHeldJob(db: Executor, lease: Lease): Promise<void> {
  const res = await sql`
    update jobs set status = 'done', lease_owner = null, lease_until = null, last_error = null, updated_at = ${nowIso()}
     where id = ${lease.jobId} and lease_owner = ${lease.owner} and attempts = ${lease.attempt} and status = 'running'`.execute(db);
  if (Number(res.numAffectedRows) !== 1) throw new LeaseLost(lease.jobId);
}

/**
 * The fence as a condition of one statement, for a write outside a transaction (a probe's
 * checkpoint, its call count): true while the job is still running under this very claim, as
 * holdLease checks. On Postgres the job's row is locked (FOR SHARE) until the statement ends: a
 * worker taking the job over at the same moment either waits for the write or, having taken it
 * first, makes the condition false; SQLite runs one writer at a time.
 */
export function leaseHeld(dialect: Store['dialect'], lease: Lease) {
  return sql`exists (select 1 from jobs where id = ${lease.jobId} and lease_owner = ${lease.owner} and attempts = ${lease.attempt} and status = 'running' ${dialect === 'postgres' ? sql`for share` : sql``})`;
}

/**
 * Marks a running job as waiting on its provider (true) or working again (false), fenced by its
 * lease. A waiting job keeps its lease (the heartbeat renews it) but is left out of the lane and
 * account counts of claimJobs, so other jobs take its slot meanwhile. Answers whether the job was
 * still this claim's.
 */
export async function setJobWaiting(db: Executor, lease: Lease, waiting: boolean): Promise<boolean> {
  const res = await sql`update jobs set waiting = ${waiting ? 1 : 0} where id = ${lease.jobId} ${fence(lease)}`.execute(db);
  return Number(res.numAffectedRows) === 1;
}

/** Extends the leases of jobs this worker still holds; returns the ids it still holds. */
export async function renewLeases(db: Executor, workerId: string, jobIds: string[], leaseMs: number): Promise<Set<string>> {
  const held = new Set<string>();
  if (jobIds.length === 0) return held;
  const leaseUntil = new Date(Date.now() + leaseMs).toISOString();
  for (let i = 0; i < jobIds.length; i += 500) {
    const { rows } = await sql<{ id: string }>`
      update jobs set lease_until = ${leaseUntil}
       where id in (${sql.join(jobIds.slice(i, i + 500))}) and lease_owner = ${workerId} and status = 'running'
      returning id`.execute(db);
    for (const r of rows) held.add(r.id);
  }
  return held;
}

/** Only while `lease` is this claim's (see holdLease); no condition without one. */
const fence = (lease?: Lease) => (lease ? sql`and lease_owner = ${lease.owner} and attempts = ${lease.attempt} and status = 'running'` : sql``);

/**
 * Hot path (every job ends here): a `sql` template, several times cheaper than the builder.
 * With a lease, only that claim's job changes (see holdLease).
 */
export async function finishJob(db: Executor, jobId: string, status: 'done' | 'failed' | 'cancelled', error?: string, lease?: Lease): Promise<void> {
  await sql`
    update jobs set status = ${status}, lease_owner = null, lease_until = null, last_error = ${error ?? null}, updated_at = ${nowIso()}
     where id = ${jobId} ${fence(lease)}`.execute(db);
}

/** Puts a job back in the queue to run again after a delay (transient failure); fenced by its lease. */
export async function retryJobLater(db: Executor, jobId: string, delayMs: number, error: string, lease?: Lease): Promise<void> {
  await sql`
    update jobs set status = 'queued', lease_owner = null, lease_until = null,
           run_after = ${new Date(Date.now() + delayMs).toISOString()}, last_error = ${error}, updated_at = ${nowIso()}
     where id = ${jobId} ${fence(lease)}`.execute(db);
}

/**
 * Hands a job back to the queue at once, as its worker stops (graceful shutdown): queued, lease
 * cleared, runnable now. The interrupted claim stays counted (every claim is an attempt), so a job
 * interrupted on its last attempt is given up instead (worker.ts). Fenced by the lease; answers
 * whether the job was still this claim's.
 */
export async function requeueJob(db: Executor, lease: Lease, error: string): Promise<boolean> {
  const res = await sql`
    update jobs set status = 'queued', lease_owner = null, lease_until = null, run_after = ${nowIso()},
           last_error = ${error}, updated_at = ${nowIso()}
     where id = ${lease.jobId} ${fence(lease)}`.execute(db);
  return Number(res.numAffectedRows) === 1;
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
 * Whether any running job's lease has expired (a worker died): a read of the running jobs' index
 * (jobs_running holds only those, so it costs the jobs in flight, not the table), so the worker
 * asks for expired jobs lane by lane only when there are some.
 */
export async function anyExpiredLease(db: Executor): Promise<boolean> {
  const { rows } = await sql`select 1 as x from jobs where status = 'running' and lease_until < ${nowIso()} limit 1`.execute(db);
  return rows.length > 0;
}
