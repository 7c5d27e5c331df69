// Persisted Content Intelligence runs: created with a reservation (3 credits for depth score,
// 6 for full), analysed by the worker through the same job queue as visibility probes, settled
// on success and released on failure, in the same transaction that records the outcome.
// Creation goes through the paid-create path (billing/paid-create.ts), as for visibility runs.
import { enqueueJobs, holdLease, type Lease } from '../../jobs/queue.ts';
import { RetryLater } from '../../jobs/worker.ts';
import { ACTION_PRICES, type ActionContext } from '../billing/actions.ts';
import { chargeState, lockAccount, releaseCharge, settleCharge } from '../billing/ledger.ts';
import { createPaidRun } from '../billing/paid-create.ts';
import { AppError } from '../errors.ts';
import { fetchErrorToAppError, isFetchError } from '../pages/fetch/errors.ts';
import { nowIso, toApiTime } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import { attachToTest, touchTest } from '../tracking/tests.ts';
import { absoluteUrlMessage, parseHttpUrl } from '../../lib/url.ts';
import type { Executor, Store } from '../../db/store.ts';
import { emitEvent } from '../webhooks/events.ts';
import { checkLocaleInput } from '../locale.ts';

export const CI_JOB_KIND = 'content_intelligence.run';
export const CI_LANE = 'content';

export interface CreateCiRunInput {
  url: string;
  analysis_depth?: 'score' | 'full';
  language?: string;
  country?: string;
  industry?: string;
  trends?: unknown[];
  idempotency_key?: string;
}

/** Does the analysis for a run; throws a typed error when the page cannot be analysed. */
export type CiAnalyzer = (run: {
  url: string;
  depth: 'score' | 'full';
  /** Undefined when the request named none: the engine then follows the page's own language. */
  language: string | undefined;
  country: string;
  trends: unknown[] | null;
  industry?: string;
  /** Aborted when the worker stops: the analysis gives up at its next step (then throws). */
  signal?: AbortSignal;
  /** The run's account: its page fetches count against the per-account fetch cap. */
  accountId?: string;
}) => Promise<{ result: Record<string, unknown>; overallScore: number | null; overallBand: string | null }>;

/** What a Content Intelligence run of this depth reserves (hundredths). */
export function priceFor(depth: 'score' | 'full') {
  return depth === 'full' ? ACTION_PRICES['content_intelligence.runs.full'] : ACTION_PRICES['content_intelligence.runs.score'];
}

/** What creating a Content Intelligence run answers. */
export type CiRunCreated = Awaited<ReturnType<typeof handle>>;

async function handle(store: Store, accountId: string, runId: string, replay: boolean) {
  const run = await getCiRun(store, accountId, runId);
  return {
    run_id: run.run_id,
    status: run.status,
    analysis_depth: run.analysis_depth,
    estimated_credits: run.billing.estimated_credits,
    reserved_credits: run.billing.reserved_credits,
    ...(replay ? { idempotent_replay: true } : {}),
  };
}

export async function createCiRun(store: Store, ctx: ActionContext, input: CreateCiRunInput, onQueued?: () => void, opts: { testId?: string } = {}) {
  checkLocaleInput(input);
  return createPaidRun(store, ctx, {
    table: 'ci_runs',
    idPrefix: 'ci',
    action: 'content_intelligence.runs.create',
    refType: 'ci_run',
    input,
    plan: () => {
      if (!parseHttpUrl(input.url)) throw new AppError('invalid_url', absoluteUrlMessage('url', input.url), { url: input.url });
      const depth = input.analysis_depth ?? 'score';
      return { depth, price: priceFor(depth) };
    },
    prices: ({ price }) => [price],
    answer: (runId, replay) => handle(store, ctx.accountId, runId, replay),
    onQueued,
    insert: async (trx, { id: runId, plan: { depth, price }, reservation, idempotencyKey, idempotencyFingerprint, now }) => {
      const testId = opts.testId
        ? await touchTest(trx, opts.testId, now)
        : await attachToTest(trx, { accountId: ctx.accountId, testType: 'content_intelligence', url: input.url.trim(), targetEntity: null });
      await trx
        .insertInto('ci_runs')
        .values({
          id: runId,
          account_id: ctx.accountId,
          test_id: testId,
          started_by_test: opts.testId ? 1 : 0,
          source: ctx.source,
          url: input.url.trim(),
          analysis_depth: depth,
          // '' = not given: the analysis follows the page's language (a German page gets German prompts).
          language: input.language?.trim() || '',
          country: (input.country?.trim() || 'US').toUpperCase(),
          trends: input.trends && input.trends.length ? JSON.stringify({ trends: input.trends, industry: input.industry ?? null }) : input.industry ? JSON.stringify({ trends: null, industry: input.industry }) : null,
          idempotency_key: idempotencyKey,
          idempotency_fingerprint: idempotencyFingerprint,
          status: 'queued',
          price,
          ledger_entry_id: reservation.entryId,
          result: null,
          overall_score: null,
          overall_band: null,
          error_code: null,
          error_message: null,
          created_at: now,
          started_at: null,
          completed_at: null,
        })
        .execute();
      await enqueueJobs(trx, [{ kind: CI_JOB_KIND, lane: CI_LANE, refId: runId, accountId: ctx.accountId, maxAttempts: 3 }]);
    },
  });
}

/**
 * The worker's handler: analyse, then record the outcome and its credit movement together. When
 * `signal` aborts (the worker is stopping) and the analysis gives up, nothing is recorded: the
 * error goes to the worker, which retries the job later, and the run stays running with its
 * reservation until then. An analysis that finished is recorded even so.
 */
/** How long a run refused a page fetch (503 fetch_capacity) waits before it is tried again. */
const FETCH_CAPACITY_RETRY_MS = 2000;

export async function executeCiRun(store: Store, analyze: CiAnalyzer, runId: string, signal?: AbortSignal, lease?: Lease): Promise<void> {
  signal?.throwIfAborted();
  // A run still queued when its account was suspended is not analysed: it fails and its credits
  // are released (one that had started before the suspension finishes).
  const run = await store.db
    .selectFrom('ci_runs')
    .innerJoin('accounts', 'accounts.id', 'ci_runs.account_id')
    .selectAll('ci_runs')
    .select('accounts.status as account_status')
    .where('ci_runs.id', '=', runId)
    .executeTakeFirst();
  if (!run) return;
  const refused = run.status === 'queued' && run.account_status !== 'active';
  const claimed = await store.db
    .updateTable('ci_runs')
    .set({ status: 'running', started_at: nowIso() })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return;
  const extra = run.trends ? (JSON.parse(run.trends) as { trends: unknown[] | null; industry: string | null }) : { trends: null, industry: null };
  let outcome: Awaited<ReturnType<CiAnalyzer>> | null = null;
  let failure: { code: string; message: string } | null = null;
  if (refused) {
    failure = { code: 'account_suspended', message: 'The account was suspended before this analysis ran; its credits were released.' };
  } else {
    try {
      // A stop that came during the reads above: the run stays running, retried as below.
      signal?.throwIfAborted();
      outcome = await analyze({
        url: run.url,
        depth: run.analysis_depth,
        language: run.language || undefined,
        country: run.country,
        trends: extra.trends,
        industry: extra.industry ?? undefined,
        signal,
        accountId: run.account_id,
      });
    } catch (err) {
      if (signal?.aborted) throw err; // the worker is stopping, not the analysis failing: retried later
      // Too many page fetches in this process (or of this account) right now: the run waits its turn.
      if (err instanceof AppError && err.code === 'fetch_capacity') throw new RetryLater(FETCH_CAPACITY_RETRY_MS, err.message);
      failure = publicFailure(err, runId);
    }
  }
  await store.db.transaction().execute(async (trx) => {
    // The account first, as every transaction that moves credits does (see lockAccount).
    await lockAccount(store, trx, run.account_id);
    // A worker whose job was taken over (or given up by the watchdog) records nothing.
    if (lease) await holdLease(trx, lease);
    if (outcome) {
      const res = await trx
        .updateTable('ci_runs')
        .set({
          status: 'completed',
          result: JSON.stringify(outcome.result),
          overall_score: outcome.overallScore,
          overall_band: outcome.overallBand,
          completed_at: nowIso(),
        })
        .where('id', '=', runId)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) {
        await settleCharge(trx, run.ledger_entry_id, run.price);
        await ciRunSettled(trx, runId);
      }
    } else {
      await failCiRun(trx, { id: runId, ledger_entry_id: run.ledger_entry_id, price: run.price }, failure!, ['running']);
    }
  });
}

/**
 * Fails a run that is still in one of `from` and releases its reservation; a run that reached
 * another status meanwhile keeps it. Call inside a transaction that locked the account first.
 * Used when an analysis fails and when the worker gives a run's job up (content/give-up.ts).
 */
export async function failCiRun(
  trx: Executor,
  run: { id: string; ledger_entry_id: string; price: number },
  failure: { code: string; message: string },
  from: readonly ('queued' | 'running')[],
): Promise<boolean> {
  const res = await trx
    .updateTable('ci_runs')
    .set({ status: 'failed', error_code: failure.code, error_message: failure.message, completed_at: nowIso() })
    .where('id', '=', run.id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await releaseCharge(trx, run.ledger_entry_id, run.price);
  await ciRunSettled(trx, run.id);
  return true;
}

/**
 * run.completed for a Content Intelligence run that just reached completed or failed, in the
 * transaction of that conditional status change (so once; the dedupe key agrees).
 */
async function ciRunSettled(db: Executor, runId: string): Promise<void> {
  const [run] = await compactCiRuns(db, [runId]);
  const owner = await db.selectFrom('ci_runs').select('account_id').where('id', '=', runId).executeTakeFirst();
  if (!run || !owner) return;
  await emitEvent(db, { accountId: owner.account_id, type: 'run.completed', dedupeKey: `run.completed:${runId}`, data: run });
}

type CiRow = {
  id: string;
  test_id: string;
  source: string;
  url: string;
  analysis_depth: 'score' | 'full';
  language: string;
  country: string;
  status: string;
  overall_score: number | null;
  overall_band: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  amount: number;
  settled_amount: number;
  released_amount: number;
  estimated_amount: number;
  result?: string | null;
};

function ciQuery(db: Executor) {
  return db
    .selectFrom('ci_runs')
    .innerJoin('ledger_entries', 'ledger_entries.id', 'ci_runs.ledger_entry_id')
    .select([
      'ci_runs.id',
      'ci_runs.test_id',
      'ci_runs.source',
      'ci_runs.url',
      'ci_runs.analysis_depth',
      'ci_runs.language',
      'ci_runs.country',
      'ci_runs.status',
      'ci_runs.overall_score',
      'ci_runs.overall_band',
      'ci_runs.error_code',
      'ci_runs.error_message',
      'ci_runs.created_at',
      'ci_runs.started_at',
      'ci_runs.completed_at',
      'ledger_entries.amount',
      'ledger_entries.settled_amount',
      'ledger_entries.released_amount',
      'ledger_entries.estimated_amount',
    ]);
}

/**
 * What a failed run shows its owner: the code and message of an API or fetch error (written for
 * clients), and for anything else (a bug) a fixed message; the error itself goes to the operator's
 * log, never into the run, whose error is read back over the API.
 */
function publicFailure(err: unknown, runId: string): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.message.slice(0, 500) };
  if (isFetchError(err)) return publicFailure(fetchErrorToAppError(err), runId);
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.emitWarning(`Content Intelligence run ${runId} failed: ${detail}`, { code: 'SIGHTLINE_CI_RUN' });
  return { code: 'extraction_failed', message: 'The analysis failed unexpectedly.' };
}

function renderCi(r: CiRow) {
  return {
    run_id: r.id,
    object: 'content_intelligence_run',
    status: r.status,
    source: r.source,
    url: r.url,
    analysis_depth: r.analysis_depth,
    language: r.language || null,
    country: r.country,
    test_id: r.test_id,
    created_at: toApiTime(r.created_at),
    started_at: toApiTime(r.started_at),
    completed_at: toApiTime(r.completed_at),
    overall_score: r.overall_score,
    overall_band: r.overall_band,
    error: r.error_code ? { code: r.error_code, message: r.error_message } : null,
    billing: {
      status: chargeState({ kind: 'charge', ...r }),
      estimated_credits: formatCredits(r.estimated_amount),
      reserved_credits: formatCredits(r.amount),
      settled_credits: formatCredits(r.settled_amount),
      released_credits: formatCredits(r.released_amount),
    },
  };
}

export async function getCiRun(store: Store, accountId: string, runId: string, opts: { includeResult?: boolean } = {}) {
  let q = ciQuery(store.db).where('ci_runs.id', '=', runId).where('ci_runs.account_id', '=', accountId);
  if (opts.includeResult) q = q.select('ci_runs.result');
  const row = (await q.executeTakeFirst()) as CiRow | undefined;
  if (!row) throw new AppError('not_found', `Content Intelligence run ${runId} not found.`);
  const out: Record<string, unknown> & ReturnType<typeof renderCi> = renderCi(row);
  if (opts.includeResult) out.result = row.result ? JSON.parse(row.result) : null;
  return out;
}

export async function compactCiRuns(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = (await ciQuery(db).where('ci_runs.id', 'in', ids).execute()) as CiRow[];
  const byId = new Map(rows.map((r) => [r.id, renderCi(r)]));
  return ids.map((id) => byId.get(id)!).filter(Boolean);
}

export async function ciRunIdsForTest(db: Executor, testId: string, limit: number, sinceIso?: string) {
  let q = db.selectFrom('ci_runs').select('id').where('test_id', '=', testId);
  if (sinceIso) q = q.where('created_at', '>=', sinceIso);
  return (await q.orderBy('id', 'desc').limit(limit).execute()).map((r) => r.id);
}

export const CI_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export async function listCiRuns(store: Store, accountId: string, opts: { limit: number; startingAfter?: string; status?: (typeof CI_STATUSES)[number] }) {
  if (opts.startingAfter !== undefined) {
    const cursor = await store.db.selectFrom('ci_runs').select('id').where('id', '=', opts.startingAfter).where('account_id', '=', accountId).executeTakeFirst();
    if (!cursor) throw new AppError('invalid_cursor', undefined, { starting_after: opts.startingAfter });
  }
  let q = ciQuery(store.db).where('ci_runs.account_id', '=', accountId);
  if (opts.startingAfter !== undefined) q = q.where('ci_runs.id', '<', opts.startingAfter);
  if (opts.status) q = q.where('ci_runs.status', '=', opts.status);
  const rows = (await q.orderBy('ci_runs.id', 'desc').limit(opts.limit + 1).execute()) as CiRow[];
  const page = rows.slice(0, opts.limit).map(renderCi);
  const hasMore = rows.length > opts.limit;
  return { object: 'list', runs: page, has_more: hasMore, next_starting_after: hasMore ? page[page.length - 1].run_id : null };
}
