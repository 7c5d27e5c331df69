// Runs one probe: ask the platform (the probe is marked running, and the call counted, right
// before it is sent), analyze the answer, and record the outcome together with its credit
// movement. Every outcome is a conditional update on the probe's status (only an unfinished probe
// can finish), so a probe that runs twice (its worker died, the lease expired, another worker
// took it) still settles exactly once, and a cancelled probe is never started.
//
// The platform is asked at most once per probe as long as workers die only after it answered:
// a provider's outcome (paid for), or any outcome when the analysis waits on a remote judge
// (seconds), is written to the probe's `checkpoint`, fenced by the job's lease, as soon as it
// arrives, before the analysis and the settling transaction. A sandbox answer with nothing to
// wait on (free to ask again) on SQLite goes straight to the settling transaction, one commit fewer; it is
// checkpointed only when the analysis or that transaction fails, for the job's retry. A worker that takes the probe over
// finds the checkpoint and resumes from it (analysis + settle) without calling the platform.
// `attempts` counts calls to the platform: it grows right before a call's first request is sent
// (ProbeRequest.beforeSend), in a statement fenced by the lease, so a worker whose lease was taken
// over never sends, and a worker that dies before sending counts nothing.
//
// A provider with an asynchronous task (post, wait until ready, fetch) is paid when the task is
// posted, so the task's id is checkpointed as soon as it is posted, before the wait: a worker that
// takes the probe over resumes waiting on that task instead of posting (and paying for) another.
// The wait itself gives the job's lane slot back (JobControl.offLane): waiting is not work.
import { sql } from 'kysely';
import type { AskPlatform, Citation, PlatformName, ProbeAnswer, ProviderTaskCheckpoint } from '../../platforms/types.ts';
import { PlatformError } from '../../platforms/types.ts';
import { capRaw } from '../../platforms/live/raw.ts';
import { lockAccount, releaseCharge, settleCharge } from '../billing/ledger.ts';
import { nowIso } from '../../lib/ids.ts';
import type { Store, Tx } from '../../db/store.ts';
import { finishHeldJob, finishJob, holdLease, LeaseLost, leaseHeld, leaseOf, markJobFinished, requeueJob, type Job, type Lease } from '../../jobs/queue.ts';
import type { GiveUpCode, JobControl } from '../../jobs/worker.ts';
import { analysisTerms, analyzeAnswer } from './analysis.ts';
import type { BrandTerms } from './plan.ts';
import { analyseProbe } from './analysis/brands.ts';
import type { Judge } from './judge.ts';
import { visibilityRunSettled } from './run-events.ts';
import { PROBE_JOB_KIND } from './runs.ts';
import type { Catalog } from './catalog.ts';
import { isDatabaseUnavailable } from '../../db/resilience.ts';
import { ANSWER_MAX_CHARS } from '../limits.ts';
import { addStepTime, stepClock } from './analysis/step-times.ts';

const RAW_LIMIT_BYTES = 64 * 1024;

/** The run columns a probe needs; they never change after the run is created, so they are cached. */
interface RunInfo {
  account_id: string;
  url: string;
  competitors: string[];
  /** Aliases and domains of the brands, when the run was given any. */
  brandTerms: BrandTerms | null;
  ledger_entry_id: string;
}

/**
 * Run rows by id, least recently used evicted first. A run's url, competitors and ledger entry are
 * written once at creation, so a cached copy is never stale; caching saves a join per probe.
 */
const runCache = new Map<string, RunInfo>();
const RUN_CACHE_SIZE = 256;

async function runInfo(store: Store, runId: string): Promise<RunInfo> {
  const hit = runCache.get(runId);
  if (hit) {
    runCache.delete(runId);
    runCache.set(runId, hit);
    return hit;
  }
  const { rows } = await sql<{ account_id: string; url: string; competitors: string; brand_terms: string | null; ledger_entry_id: string }>`
    select account_id, url, competitors, brand_terms, ledger_entry_id from visibility_runs where id = ${runId}`.execute(store.db);
  const row = rows[0];
  if (!row) throw new Error(`visibility run ${runId} not found`);
  const info: RunInfo = {
    account_id: row.account_id,
    url: row.url,
    competitors: JSON.parse(row.competitors) as string[],
    brandTerms: row.brand_terms ? (JSON.parse(row.brand_terms) as BrandTerms) : null,
    ledger_entry_id: row.ledger_entry_id,
  };
  runCache.set(runId, info);
  if (runCache.size > RUN_CACHE_SIZE) runCache.delete(runCache.keys().next().value!);
  return info;
}

interface ProbeRow {
  id: string;
  run_id: string;
  prompt: string;
  platform: string;
  model: string;
  language: string;
  country: string;
  target_entity: string;
  price: number;
  repeat: number;
  checkpoint: string | null;
  city: string | null;
}

/** What the platform gave for a probe: its answer (raw already capped), or why it gave none. */
type ProviderOutcome = { answer: ProbeAnswer } | { failure: { code: string; message: string } };

/** What a probe's checkpoint holds: the platform's outcome, or the provider task posted and not fetched yet. */
type Checkpoint = ProviderOutcome | { task: string };

/** The probe finished or was cancelled before its platform call was sent: nothing to do. */
class ProbeEnded extends Error {}

/**
 * Runs the probe. Its job (the one whose ref_id is this probe) is marked done in the same
 * transaction as the result, and the worker told so (markJobFinished), so the worker skips its
 * own finish statement. Hot-path statements are `sql` templates: the query builder cost several
 * times their CPU.
 */
export async function executeProbe(
  deps: { store: Store; catalog: Catalog; ask: AskPlatform; judge?: Judge | null },
  probeId: string,
  signal: AbortSignal,
  /** The worker's claim: the call is counted, checkpointed and recorded only while it holds (see holdLease). */
  lease?: Lease,
  /** The worker's control of the job: a wait on the provider runs off the job's lane. */
  control?: JobControl,
): Promise<void> {
  const { store } = deps;
  // Reads it with any checkpoint, and its account's status, without a write: a probe is marked
  // running in the statement that counts its platform call (countCall), right before the call is
  // sent, so a fresh probe costs one commit fewer. A cancelled or finished probe is not started,
  // nor a queued one of an account that was suspended meanwhile (refused: errored, credits
  // released); one that had started before the suspension finishes.
  const { rows: found } = await sql<ProbeRow & { status: string; account_status: string | null }>`
    select p.id, p.run_id, p.prompt, p.platform, p.model, p.language, p.country, p.target_entity, p.price, p.repeat, p.checkpoint, p.city,
           p.status, (select a.status from accounts a where a.id = p.account_id) as account_status
      from visibility_probes p where p.id = ${probeId}`.execute(store.db);
  let row: ProbeRow | undefined = found[0];
  if (row && found[0]!.status !== 'running' && !(found[0]!.status === 'queued' && found[0]!.account_status === 'active')) row = undefined;
  // A probe resumed from a checkpoint (an answer, or a posted provider task) sends no counted
  // call: it is marked running here, as it was before (a released probe is queued again).
  if (row?.checkpoint) row = await markRunning(store, probeId);
  if (!row) {
    if (await refuseSuspended(store, probeId, lease)) markJobFinished(signal);
    return; // cancelled, already finished, or refused for a suspended account
  }
  const run = await runInfo(store, row.run_id);
  const probe = { ...row, price: Number(row.price), url: run.url, ledger_entry_id: run.ledger_entry_id };
  const competitors = run.competitors;

  // The analysis waits on nothing unless a remote judge is asked: then the platform's outcome is
  // checkpointed first (a worker may die during the judge's seconds), as is every outcome a
  // provider was paid for. Otherwise the settling transaction follows at once, and the outcome is
  // checkpointed only if the analysis or that transaction fails, so that the job's retry resumes
  // from it instead of asking again.
  const analysisWaits = deps.judge?.engine === 'live';
  let unsaved: ProviderOutcome | null = null;

  // A previous worker's platform outcome, or a call (counted, then checkpointed): a new one, or
  // the resumption of the provider task a previous worker posted.
  const saved = row.checkpoint ? (JSON.parse(row.checkpoint) as Checkpoint) : null;
  let outcome: ProviderOutcome;
  if (saved && !('task' in saved)) {
    outcome = saved;
  } else {
    const sent = { counted: false };
    const called = await callPlatform(deps, probe, competitors, signal, lease, saved?.task ?? null, control, sent);
    if (!called) {
      // The probe ended before the call was sent (cancelled, or its account suspended: refused).
      if (await refuseSuspended(store, probeId, lease)) markJobFinished(signal);
      return;
    }
    outcome = called;
    // An answer from a call that was never counted (no beforeSend from the platform) still
    // settles a running probe only.
    if (!saved && !sent.counted && 'answer' in outcome && !(await markRunning(store, probeId))) {
      if (await refuseSuspended(store, probeId, lease)) markJobFinished(signal);
      return;
    }
    // A provider's answer was paid for: it is checkpointed before anything else can fail, so a
    // worker that dies during the analysis or the settle never makes the operator pay twice. The
    // sandbox's simulated answers cost nothing to ask again: on SQLite they settle in the same
    // turn of the event loop (no statement waits), so a worker can hardly die in between; on
    // Postgres the settle is a pool wait and several round trips away, and one statement now
    // keeps a worker killed meanwhile from asking again (test:chaos counts those).
    const paid = !('answer' in outcome) || outcome.answer.engine !== 'sandbox';
    if (analysisWaits || paid || store.dialect === 'postgres') await saveCheckpoint(store, probeId, outcome, lease);
    else unsaved = outcome;
  }

  try {
    await analyseAndSettle(deps, probeId, row.run_id, probe, run, competitors, outcome, signal, lease, judgeDeadline(control?.deadline));
  } catch (err) {
    if (unsaved && !(err instanceof LeaseLost)) await saveCheckpoint(store, probeId, unsaved, lease).catch(() => {});
    throw err;
  }
  markJobFinished(signal);
}

/**
 * Marks a probe running (a queued one only while its account is active) and reads it, in one
 * statement; undefined when it is cancelled, finished, or refused for a suspended account.
 */
async function markRunning(store: Store, probeId: string): Promise<ProbeRow | undefined> {
  const { rows } = await sql<ProbeRow>`
    update visibility_probes set status = 'running', started_at = ${nowIso()}
     where id = ${probeId}
       and (status = 'running' or (status = 'queued' and exists (select 1 from accounts a where a.id = visibility_probes.account_id and a.status = 'active')))
    returning id, run_id, prompt, platform, model, language, country, target_entity, price, repeat, checkpoint, city`.execute(store.db);
  return rows[0];
}

/** Time kept, at most, between the judge's deadline and the job's, to record the outcome. */
const SETTLE_RESERVE_MS = 5_000;

/**
 * The judge's deadline in a job with a time budget: the job's, less half of what is left (at
 * most SETTLE_RESERVE_MS) to record the answer. A judge past it leaves the lexical decision
 * (judge_timeout) instead of the watchdog ending the probe job_timeout with its answer lost.
 */
function judgeDeadline(jobDeadline: number | undefined): number | undefined {
  if (jobDeadline === undefined) return undefined;
  const left = jobDeadline - Date.now();
  return jobDeadline - Math.min(SETTLE_RESERVE_MS, Math.floor(Math.max(0, left) / 2));
}

/** Analyses the outcome (pure but for the judge's call) and records it with its credit movement. */
async function analyseAndSettle(
  deps: { store: Store; judge?: Judge | null },
  probeId: string,
  runId: string,
  probe: ProbeRow & { price: number; url: string; ledger_entry_id: string },
  run: RunInfo,
  competitors: string[],
  outcome: ProviderOutcome,
  signal: AbortSignal,
  lease: Lease | undefined,
  judgeBy: number | undefined,
): Promise<void> {
  const { store } = deps;
  // The analysis is pure but for the judge's call, so it runs before the transaction opens. The
  // judge is the operator's cost: it moves no credits.
  const answer = 'answer' in outcome ? outcome.answer : null;
  const tAnalysis = stepClock();
  const analysis = answer
    ? analyzeAnswer({
        text: answer.text,
        citations: answer.citations,
        targetEntity: probe.target_entity,
        targetUrl: probe.url,
        competitors,
        language: probe.language,
        ...analysisTerms(run.brandTerms),
      })
    : null;
  addStepTime('mentions', tAnalysis);
  const probeAnalysis =
    answer && analysis
      ? await analyseProbe({
          prompt: probe.prompt,
          text: answer.text,
          language: probe.language,
          target: probe.target_entity,
          competitors,
          analysis,
          judge: deps.judge ?? null,
          signal,
          judgeDeadline: judgeBy,
        })
      : null;

  const completedAt = nowIso();
  await store.db.transaction().execute(async (trx) => {
    // The account first, as every transaction that moves credits does (see lockAccount).
    await lockAccount(store, trx, run.account_id);
    // A worker whose job was taken over (or given up by the watchdog) records nothing. With its
    // lease, the fence also marks the job done (one statement fewer); the rest rolls back with it.
    if (lease) await finishHeldJob(trx, lease);
    else await finishProbeJob(trx, probeId, completedAt);
    if (!answer || !analysis) {
      const failure = 'failure' in outcome ? outcome.failure : { code: 'provider_failed', message: 'The platform call failed unexpectedly.' };
      await recordProbeFailure(trx, { id: probeId, ledger_entry_id: probe.ledger_entry_id, price: probe.price }, failure, completedAt);
      await visibilityRunSettled(trx, runId);
      return;
    }
    const citations: Citation[] = answer.citations;
    const res = await sql`
      update visibility_probes
         set status = 'succeeded', reported_model = ${answer.model},
             brand_mentioned = ${analysis.brand_mentioned ? 1 : 0}, text_mentioned = ${analysis.text_mentioned ? 1 : 0},
             citation_mentioned = ${analysis.citation_mentioned ? 1 : 0}, mention_position = ${analysis.mention_position},
             list_rank = ${analysis.list_rank}, competitors = ${JSON.stringify(analysis.competitors)},
             citations = ${JSON.stringify(citations)}, answer = ${answer.text}, raw = ${JSON.stringify(answer.raw ?? null)},
             provider = ${answer.provider ?? null},
             ai_answer_present = ${answer.aiAnswerPresent === undefined ? null : answer.aiAnswerPresent ? 1 : 0},
             analysis = ${JSON.stringify(probeAnalysis)}, checkpoint = null,
             error_code = null, error_message = null, completed_at = ${completedAt}
       where id = ${probeId} and status = 'running'`.execute(trx);
    if (Number(res.numAffectedRows) === 1) await settleCharge(trx, probe.ledger_entry_id, probe.price);
    await visibilityRunSettled(trx, runId);
  });
}

/**
 * A queued probe of a suspended account is not run: it is errored `account_suspended` and its
 * credits released (with its job), so suspension stops the account's spending at once. A probe
 * that is not queued any more (cancelled, finished) is left alone.
 */
async function refuseSuspended(store: Store, probeId: string, lease: Lease | undefined): Promise<boolean> {
  const { rows } = await sql<{ account_id: string; run_id: string; price: number | string; status: string; account_status: string }>`
    select p.account_id, p.run_id, p.price, p.status, a.status as account_status
      from visibility_probes p join accounts a on a.id = p.account_id where p.id = ${probeId}`.execute(store.db);
  const probe = rows[0];
  if (!probe || probe.status !== 'queued' || probe.account_status === 'active') return false;
  const run = await runInfo(store, probe.run_id);
  const now = nowIso();
  await store.db.transaction().execute(async (trx) => {
    await lockAccount(store, trx, probe.account_id);
    if (lease) await holdLease(trx, lease);
    const failure = { code: 'account_suspended', message: 'The account was suspended before this probe ran; its credits were released.' };
    await recordProbeFailure(trx, { id: probeId, ledger_entry_id: run.ledger_entry_id, price: Number(probe.price) }, failure, now);
    await finishProbeJob(trx, probeId, now);
    await visibilityRunSettled(trx, probe.run_id);
  });
  return true;
}

/**
 * Asks the platform once, counting the call right before its first request is sent (see
 * countCall). Answers the outcome, or null when the probe ended before anything was sent.
 * Throws when the worker is stopping or lost its lease (nothing recorded; the job runs again).
 */
async function callPlatform(
  deps: { catalog: Catalog; ask: AskPlatform; store: Store },
  probe: ProbeRow & { url: string },
  competitors: string[],
  signal: AbortSignal,
  lease: Lease | undefined,
  /** The provider task a previous worker posted for this probe (resumed: not posted, not counted again). */
  postedTask: string | null,
  control: JobControl | undefined,
  /** Set once the call was counted (and the probe marked running) right before it was sent. */
  sent: { counted: boolean } = { counted: false },
): Promise<ProviderOutcome | null> {
  const platform = probe.platform as PlatformName;
  const model = deps.catalog.get(platform)?.models.find((m) => m.id === probe.model);
  // An error of the counting or task-recording step is the worker's (lease lost, database down),
  // never the platform's.
  const counting: { failed: boolean; error?: unknown } = { failed: false };
  const fail = (error: unknown) => {
    counting.failed = true;
    counting.error = error;
    throw error;
  };
  let posted = postedTask;
  const task: ProviderTaskCheckpoint = {
    get posted() {
      return posted;
    },
    async record(taskId) {
      posted = taskId;
      await saveCheckpoint(deps.store, probe.id, { task: taskId }, lease).catch(fail);
    },
  };
  try {
    const answer = await deps.ask({
      platform,
      modelId: probe.model,
      providerModel: model?.providerModel ?? probe.model,
      prompt: probe.prompt,
      language: probe.language,
      country: probe.country,
      city: probe.city,
      targetEntity: probe.target_entity,
      targetUrl: probe.url,
      competitors,
      repeat: Number(probe.repeat ?? 1),
      signal,
      task,
      waitOffLane: control ? (wait) => control.offLane(wait) : undefined,
      // A resumed task was counted when it was posted.
      beforeSend: postedTask
        ? undefined
        : () =>
            countCall(deps.store, probe.id, lease).then(() => {
              sent.counted = true;
            }, fail),
    });
    // A consumer result without an AI answer is an outcome, not a failure (the provider charged for it).
    if (!answer.text.trim() && answer.citations.length === 0 && answer.aiAnswerPresent !== false) {
      return { failure: { code: 'provider_empty_answer', message: 'The platform returned neither an answer nor citations.' } };
    }
    return { answer: { ...answer, text: capAnswer(answer.text), raw: capRaw(answer.raw ?? null, RAW_LIMIT_BYTES) } };
  } catch (err) {
    if (counting.failed) {
      if (counting.error instanceof ProbeEnded) return null;
      throw counting.error;
    }
    if (signal.aborted && !(err instanceof PlatformError)) throw err; // worker shutting down: let the lease expire and retry
    return {
      failure:
        err instanceof PlatformError
          ? { code: err.code, message: err.message }
          : { code: 'provider_failed', message: 'The platform call failed unexpectedly.' },
    };
  }
}

/** The answer cut to ANSWER_MAX_CHARS (never between the two halves of a surrogate pair). */
function capAnswer(text: string): string {
  if (text.length <= ANSWER_MAX_CHARS) return text;
  const end = /[\uD800-\uDBFF]/.test(text[ANSWER_MAX_CHARS - 1]!) ? ANSWER_MAX_CHARS - 1 : ANSWER_MAX_CHARS;
  return text.slice(0, end);
}

/**
 * Counts a platform call and marks the probe running, fenced by the lease in the same statement:
 * a worker whose job was taken over throws LeaseLost here and sends nothing; a probe that finished
 * or was cancelled meanwhile, or a queued one whose account was suspended, throws ProbeEnded.
 */
async function countCall(store: Store, probeId: string, lease: Lease | undefined): Promise<void> {
  const res = await sql`
    update visibility_probes set attempts = attempts + 1, status = 'running', started_at = ${nowIso()}
     where id = ${probeId}
       and (status = 'running' or (status = 'queued' and exists (select 1 from accounts a where a.id = visibility_probes.account_id and a.status = 'active')))
       ${lease ? sql`and ${leaseHeld(store.dialect, lease)}` : sql``}`.execute(store.db);
  if (Number(res.numAffectedRows) === 1) return;
  if (lease && !(await stillHeld(store, lease))) throw new LeaseLost(lease.jobId);
  throw new ProbeEnded(`probe ${probeId} ended before its platform call`);
}

/**
 * Keeps the platform's outcome on the probe until it settles, fenced by the lease in the same
 * statement (a worker whose job was taken over throws LeaseLost and stops: the new holder asks or
 * resumes by itself). One statement, not a transaction: the window in which a dying worker loses
 * an answer is this one round trip. A checkpoint that cannot be written because the database is
 * unreachable is skipped: the answer is still in hand, and the settling transaction (retried on a
 * fresh connection) records it; only a death in between would ask the platform again. The same
 * write keeps a provider task's id as soon as it is posted (`{ task }`), before its wait.
 */
async function saveCheckpoint(store: Store, probeId: string, outcome: Checkpoint, lease: Lease | undefined): Promise<void> {
  let written: boolean;
  try {
    const res = await sql`
      update visibility_probes set checkpoint = ${JSON.stringify(outcome)}
       where id = ${probeId} and status = 'running' ${lease ? sql`and ${leaseHeld(store.dialect, lease)}` : sql``}`.execute(store.db);
    written = Number(res.numAffectedRows) === 1;
  } catch (err) {
    if (isDatabaseUnavailable(err)) return;
    throw err;
  }
  // Nothing written: the lease was taken over (stop), or the probe was cancelled (the settle records nothing).
  if (!written && lease && !(await stillHeld(store, lease))) throw new LeaseLost(lease.jobId);
}

/** Whether the claim still holds its job (only asked after a fenced write changed nothing). */
async function stillHeld(store: Store, lease: Lease): Promise<boolean> {
  const { rows } = await sql`
    select 1 as x from jobs where id = ${lease.jobId} and lease_owner = ${lease.owner} and attempts = ${lease.attempt} and status = 'running'`.execute(
    store.db,
  );
  return rows.length === 1;
}

/**
 * Errors a probe that has not finished and releases its credits, in the caller's transaction
 * (which took the account lock first). Only a queued or running probe changes: a probe that
 * finished or was cancelled meanwhile keeps its outcome, and its credits moved with it.
 */
async function recordProbeFailure(
  trx: Tx,
  probe: { id: string; ledger_entry_id: string; price: number },
  failure: { code: string; message: string },
  completedAt: string,
): Promise<void> {
  const res = await sql`
    update visibility_probes
       set status = 'errored', error_code = ${failure.code}, error_message = ${failure.message.slice(0, 500)},
           checkpoint = null, completed_at = ${completedAt}
     where id = ${probe.id} and status in ('queued', 'running')`.execute(trx);
  if (Number(res.numAffectedRows) === 1) await releaseCharge(trx, probe.ledger_entry_id, probe.price);
}

const GIVE_UP_FAILURES: Record<GiveUpCode, { code: string; message: string }> = {
  worker_gave_up: { code: 'worker_gave_up', message: 'The probe could not be run: every attempt was interrupted.' },
  job_timeout: { code: 'job_timeout', message: 'The probe ran past its time budget and was stopped.' },
};

/**
 * The worker's give-up handler for probe jobs (see GiveUpHandler in worker.ts): the job ran out
 * of attempts (its workers died or were stopped mid-call), so the probe is errored with
 * `worker_gave_up`, its credits released, and the job marked failed, in one transaction that
 * locks the account first, as for any failed probe.
 */
export async function giveUpProbe(store: Store, job: Job, reason: string, code: GiveUpCode = 'worker_gave_up'): Promise<void> {
  const lease = leaseOf(job);
  const { rows } = await sql<{ run_id: string; price: number | string }>`
    select run_id, price from visibility_probes where id = ${job.ref_id}`.execute(store.db);
  const row = rows[0];
  if (!row) return finishJob(store.db, job.id, 'failed', reason, lease);
  const run = await runInfo(store, row.run_id);
  const completedAt = nowIso();
  await store.db.transaction().execute(async (trx) => {
    await lockAccount(store, trx, run.account_id);
    await holdLease(trx, lease);
    await recordProbeFailure(trx, { id: job.ref_id, ledger_entry_id: run.ledger_entry_id, price: Number(row.price) }, GIVE_UP_FAILURES[code], completedAt);
    await finishJob(trx, job.id, 'failed', reason, lease);
    await visibilityRunSettled(trx, row.run_id);
  });
}

/**
 * Shutdown: the probe its worker stopped goes back to `queued` with its job (requeueJob), in one
 * transaction fenced by the lease, so another worker takes it at once. Its reservation and any
 * checkpointed answer stay: the next run settles them without asking the platform again.
 */
export async function releaseProbe(store: Store, job: Job): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    if (!(await requeueJob(trx, leaseOf(job), 'interrupted by worker shutdown'))) throw new LeaseLost(job.id);
    await sql`update visibility_probes set status = 'queued', started_at = null where id = ${job.ref_id} and status = 'running'`.execute(trx);
  });
}

/**
 * Marks the probe's job done in the result's transaction (one commit fewer per probe). By ref_id
 * (indexed): a probe has exactly one job, and the handler is only given the probe id.
 */
async function finishProbeJob(trx: Tx, probeId: string, now: string): Promise<void> {
  await sql`
    update jobs set status = 'done', lease_owner = null, lease_until = null, last_error = null, updated_at = ${now}
     where ref_id = ${probeId} and kind = ${PROBE_JOB_KIND}`.execute(trx);
}
