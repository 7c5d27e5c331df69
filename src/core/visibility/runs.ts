// AI Visibility runs: create (plan, fund probe by probe, queue), estimate and cancel. Creation
// goes through the paid-create path (billing/paid-create.ts): the run, its probes, the credit
// reservation and the jobs appear together or not at all, and concurrent creates with one
// idempotency key produce exactly one run.
import { sql } from 'kysely';
import { surfaceOf, type PlatformName } from '../../platforms/types.ts';
import { enqueueJobs, cancelJobsFor } from '../../jobs/queue.ts';
import type { ActionContext } from '../billing/actions.ts';
import { fundInOrder, getBalance, lockAccount, releaseCharge } from '../billing/ledger.ts';
import { createPaidRun } from '../billing/paid-create.ts';
import { AppError } from '../errors.ts';
import { newId, nowIso } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import { attachToTest, touchTest } from '../tracking/tests.ts';
import type { Store } from '../../db/store.ts';
import type { Catalog } from './catalog.ts';
import { visibilityRunSettled } from './run-events.ts';
import { planRun, type CreateRunInput } from './plan.ts';

export const PROBE_JOB_KIND = 'visibility.probe';

export interface VisibilityDeps {
  store: Store;
  catalog: Catalog;
  engine: 'live' | 'sandbox';
  isAvailable: (p: PlatformName) => boolean;
  /** Called after a commit that queued work, so an in-process worker starts at once. */
  onQueued?: () => void;
}

/** What creating a visibility run answers (the same on an idempotent replay, which says so). */
export interface VisibilityRunCreated {
  action_decision_id: string;
  run_id: string;
  status: 'queued' | 'partially_queued';
  estimated_credits: string;
  reserved_credits: string;
  probe_count: number;
  queued_probe_count: number;
  skipped_probe_count: number;
  skipped_reason: 'insufficient_credits' | null;
  prompt_count: number;
  platform_count: number;
  idempotent_replay?: true;
}

async function createResponseFor(store: Store, accountId: string, runId: string, replay: boolean): Promise<VisibilityRunCreated> {
  const run = await store.db
    .selectFrom('visibility_runs')
    .innerJoin('ledger_entries', 'ledger_entries.id', 'visibility_runs.ledger_entry_id')
    .select([
      'visibility_runs.id',
      'visibility_runs.ledger_entry_id',
      'visibility_runs.probe_count',
      'visibility_runs.prompt_count',
      'visibility_runs.platform_count',
      'ledger_entries.amount',
      'ledger_entries.estimated_amount',
    ])
    .where('visibility_runs.id', '=', runId)
    .where('visibility_runs.account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const skipped = await store.db
    .selectFrom('visibility_probes')
    .select(sql<number>`count(*)`.as('n'))
    .where('run_id', '=', runId)
    .where('status', '=', 'skipped')
    .executeTakeFirstOrThrow();
  const skippedCount = Number(skipped.n);
  const response: VisibilityRunCreated = {
    action_decision_id: run.ledger_entry_id,
    run_id: run.id,
    status: skippedCount > 0 ? 'partially_queued' : 'queued',
    estimated_credits: formatCredits(run.estimated_amount),
    reserved_credits: formatCredits(run.amount),
    probe_count: run.probe_count,
    queued_probe_count: run.probe_count - skippedCount,
    skipped_probe_count: skippedCount,
    skipped_reason: skippedCount > 0 ? 'insufficient_credits' : null,
    prompt_count: run.prompt_count,
    platform_count: run.platform_count,
  };
  if (replay) response.idempotent_replay = true;
  return response;
}

export interface CreateRunOptions {
  /** The saved test the run belongs to (a tracked test's run); else it attaches by URL and entity. */
  testId?: string;
  /** All or nothing: a balance that cannot fund every probe refuses the run (402) instead of partly queueing it (scheduled runs). */
  requireFullFunding?: boolean;
}

export async function createVisibilityRun(deps: VisibilityDeps, ctx: ActionContext, input: CreateRunInput, opts: CreateRunOptions = {}) {
  const { store } = deps;
  return createPaidRun(store, ctx, {
    table: 'visibility_runs',
    idPrefix: 'vis',
    action: 'visibility.runs.create',
    refType: 'visibility_run',
    input,
    plan: () => planRun(input, deps.catalog, deps.isAvailable),
    prices: (plan) => plan.probes.map((p) => p.price),
    answer: (runId, replay) => createResponseFor(store, ctx.accountId, runId, replay),
    onQueued: deps.onQueued,
    insert: async (trx, { id: runId, plan, reservation, idempotencyKey, idempotencyFingerprint, now }) => {
      if (opts.requireFullFunding && reservation.funded.includes(false)) {
        throw new AppError('insufficient_credits', 'The balance does not cover every probe of this run.', {
          required_credits: formatCredits(reservation.estimated),
          available_credits: formatCredits(Math.max(0, reservation.available + reservation.reserved)),
        });
      }
      const testId = opts.testId
        ? await touchTest(trx, opts.testId, now)
        : await attachToTest(trx, { accountId: ctx.accountId, testType: 'ai_citations', url: plan.url, targetEntity: plan.targetEntity });
      await trx
        .insertInto('visibility_runs')
        .values({
          id: runId,
          account_id: ctx.accountId,
          test_id: testId,
          started_by_test: opts.testId ? 1 : 0,
          source: ctx.source,
          engine: deps.engine,
          url: plan.url,
          target_entity: plan.targetEntity,
          competitors: JSON.stringify(plan.competitors),
          brand_terms: plan.brandTerms ? JSON.stringify(plan.brandTerms) : null,
          language: plan.language,
          country: plan.country,
          idempotency_key: idempotencyKey,
          idempotency_fingerprint: idempotencyFingerprint,
          cancel_requested: 0,
          prompt_count: plan.promptCount,
          platform_count: plan.platformCount,
          probe_count: plan.probes.length,
          ledger_entry_id: reservation.entryId,
          created_at: now,
          started_at: null,
          completed_at: null,
        })
        .execute();
      const rows = plan.probes.map((p, i) => ({
        id: newId('probe'),
        run_id: runId,
        account_id: ctx.accountId,
        seq: p.seq,
        repeat: p.repeat,
        prompt: p.prompt,
        platform: p.platform,
        model: p.modelId,
        engine: deps.engine,
        language: p.language,
        country: p.country,
        city: p.city,
        surface: surfaceOf(p.platform),
        provider: null,
        ai_answer_present: null,
        target_entity: p.targetEntity,
        status: reservation.funded[i] ? ('queued' as const) : ('skipped' as const),
        price: p.price,
        reported_model: null,
        brand_mentioned: null,
        text_mentioned: null,
        citation_mentioned: null,
        mention_position: null,
        list_rank: null,
        competitors: null,
        citations: null,
        answer: null,
        raw: null,
        error_code: reservation.funded[i] ? null : 'insufficient_credits',
        error_message: reservation.funded[i] ? null : 'Skipped: the balance did not cover this probe.',
        attempts: 0,
        started_at: null,
        completed_at: null,
      }));
      for (let i = 0; i < rows.length; i += 200) await trx.insertInto('visibility_probes').values(rows.slice(i, i + 200)).execute();
      await enqueueJobs(
        trx,
        rows.filter((r) => r.status === 'queued').map((r) => ({ kind: PROBE_JOB_KIND, lane: r.platform, refId: r.id, accountId: ctx.accountId })),
      );
    },
  });
}

/**
 * What a create with this body would do, free and without writing anything: the same plan (so
 * the same 400s), the same prices and the same funding rule (fundInOrder) against the current
 * balance. A create made right after, with nothing else spending in between, reserves exactly
 * `would_reserve_credits` for `fundable_probe_count` probes. The idempotency_key is accepted
 * and ignored: an estimate never replays a run.
 */
export async function estimateVisibilityRun(deps: VisibilityDeps, accountId: string, input: CreateRunInput) {
  const plan = planRun(input, deps.catalog, deps.isAvailable);
  const balance = await getBalance(deps.store.db, accountId);
  const available = Math.max(0, balance.available);
  const { funded, reserved, estimated } = fundInOrder(available, plan.probes.map((p) => p.price));
  const fundable = funded.filter(Boolean).length;
  return {
    estimated_credits: formatCredits(estimated),
    probe_count: plan.probes.length,
    available_credits: formatCredits(available),
    fundable_probe_count: fundable,
    would_reserve_credits: formatCredits(reserved),
    would_be_status: fundable === 0 ? 'insufficient' : fundable < plan.probes.length ? 'partially_queued' : 'queued',
    prompt_count: plan.promptCount,
    platform_count: plan.platformCount,
  } as const;
}

/**
 * Cancels the queued probes of a run and releases their credits, in one transaction with the
 * status change, so a probe is either cancelled (and released) or claimed by a worker (and
 * later settled or released), never both. Running probes finish normally. Safe to repeat.
 */
export async function cancelVisibilityRun(store: Store, accountId: string, runId: string): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    // The account first, as every transaction that moves credits does (see lockAccount).
    await lockAccount(store, trx, accountId);
    const run = await trx
      .selectFrom('visibility_runs')
      .select(['id', 'ledger_entry_id'])
      .where('id', '=', runId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!run) throw new AppError('not_found', `Visibility run ${runId} not found.`);
    // Cancelling a run that has finished changes nothing: without a queued or
    // running probe, the flag would turn a completed, failed or partially completed run into a
    // cancelled one.
    const active = await trx
      .selectFrom('visibility_probes')
      .select('id')
      .where('run_id', '=', runId)
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    if (!active) return;
    await trx.updateTable('visibility_runs').set({ cancel_requested: 1 }).where('id', '=', runId).execute();
    const now = nowIso();
    const cancelled = await trx
      .updateTable('visibility_probes')
      .set({ status: 'cancelled', completed_at: now })
      .where('run_id', '=', runId)
      .where('status', '=', 'queued')
      .returning(['id', 'price'])
      .execute();
    if (cancelled.length === 0) return;
    await releaseCharge(trx, run.ledger_entry_id, cancelled.reduce((a, p) => a + p.price, 0));
    await cancelJobsFor(trx, cancelled.map((p) => p.id));
    // Nothing running either: the run is over (cancelled) and says so once.
    await visibilityRunSettled(trx, runId);
  });
}
