// The scheduler: turns each due slot of each scheduled test into exactly one run, whether one
// process or many (servers and workers sharing a Postgres or a SQLite file) run it.
//
// The one thing to know: exactly-once comes from the database, not from a lock in memory. A slot
// is claimed by inserting its (test, slot) row into test_slots; the primary key lets one insert
// win, and the insert only happens while the test is scheduled, not paused and not deleted
// (pausing stops new slots at once). The winner then creates the run with the idempotency key
// `slot:<test_id>:<slot>`, so a claim whose process died before it finished is
// finished by any scheduler later without a second run. A test whose slots were missed (the
// service was down) runs once, for the latest missed slot.
import { scheduleActor } from '../accounts/key-list.ts';
import { parseStoredScopes } from '../accounts/scopes.ts';
import { sql } from 'kysely';
import { getAccount } from '../accounts/accounts.ts';
import type { ActionContext } from '../billing/actions.ts';
import { AppError } from '../errors.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import type { CreateRunInput } from '../visibility/plan.ts';
import { createVisibilityRun, type VisibilityRunCreated } from '../visibility/runs.ts';
import type { CiRunCreated } from '../content/runs.ts';
import { latestSlotAtOrBefore, monthStart, nextSlotAfter, type Schedule } from './schedule.ts';
import { budgetTimeZone, creditsUsedSince, type TestType } from './tests.ts';
import { checkDefinition, createScopeOf, type TrackingDeps } from './tracked-tests.ts';
import { slotSkipped } from './change-events.ts';

export const SKIP_REASONS = ['budget_exceeded', 'insufficient_credits', 'account_suspended', 'key_revoked', 'missing_scope', 'invalid_definition'] as const;

export interface SchedulerOptions {
  /** The clock (tests drive it). */
  now?: () => Date;
  /** How often a running scheduler looks for due tests (default 5 s). */
  intervalMs?: number;
  /** Tests taken per query (the scheduler repeats until none is due). */
  batch?: number;
  /** Slots executed at once. */
  concurrency?: number;
  /** A claim older than this whose run was not recorded is finished by any scheduler (default 2 min). */
  staleClaimMs?: number;
  onError?: (err: unknown) => void;
  /** Called with the clock at the end of every tick (the weekly digest's claim rides on it). */
  afterTick?: (now: Date) => Promise<unknown>;
  /** Where each slot's outcome is logged (the worker's pino logger in `serve` and `worker`). */
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface TickResult {
  claimed: number;
  runs: number;
  skipped: number;
}

type DueRow = { id: string; schedule_cron: string; schedule_timezone: string | null; next_run_at: string };

export class Scheduler {
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: TrackingDeps,
    private readonly opts: SchedulerOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  start(): void {
    if (this.timer) return;
    this.stopped = false;
    const tick = () => {
      if (this.ticking || this.stopped) return;
      this.ticking = this.tick()
        .catch((err) => this.opts.onError?.(err))
        .finally(() => (this.ticking = null));
    };
    tick();
    this.timer = setInterval(tick, this.opts.intervalMs ?? 5_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Claims every due slot and executes the claims (also stale ones left by a dead process). */
  async tick(): Promise<TickResult> {
    const result: TickResult = { claimed: 0, runs: 0, skipped: 0 };
    const batch = this.opts.batch ?? 100;
    for (;;) {
      const now = this.now();
      const due = await this.dueTests(now, batch);
      const claimed = await this.claim(due, now);
      result.claimed += claimed.length;
      await this.executeAll(claimed, result);
      if (due.length < batch || this.stopped) break;
    }
    await this.executeAll(await this.staleClaims(), result);
    if (this.opts.afterTick && !this.stopped) await this.opts.afterTick(this.now());
    return result;
  }

  private dueTests(now: Date, limit: number): Promise<DueRow[]> {
    return this.deps.store.db
      .selectFrom('tests')
      .select(['id', 'schedule_cron', 'schedule_timezone', 'next_run_at'])
      .where('next_run_at', '<=', now.toISOString())
      .where('paused', '=', 0)
      .where('deleted_at', 'is', null)
      .where('schedule_cron', 'is not', null)
      .orderBy('next_run_at')
      .limit(limit)
      .execute() as Promise<DueRow[]>;
  }

  /**
   * For each due test, inserts its (test, latest due slot) row unless some scheduler has, while
   * the test is still scheduled with that cron and not paused; then moves each test's next slot
   * past now (only where nobody moved it meanwhile). Two statements for the whole batch, whatever
   * its size. Returns the slots this call won.
   */
  private async claim(due: DueRow[], now: Date): Promise<{ testId: string; slot: string }[]> {
    if (due.length === 0) return [];
    const db = this.deps.store.db;
    const wanted: [string, string, string][] = [];
    const moves: [string, string, string][] = [];
    // Tests that share a schedule share its slots: computed once per batch (bench:tracking).
    const slotsOf = new Map<string, { latest: string | undefined; next: string }>();
    const unreadable: string[] = [];
    for (const t of due) {
      const schedule: Schedule = { cron: t.schedule_cron, timezone: t.schedule_timezone ?? 'UTC' };
      const memo = `${schedule.cron}\u0000${schedule.timezone}\u0000${t.next_run_at}`;
      let slots = slotsOf.get(memo);
      if (!slots) {
        try {
          const next = nextSlotAfter(schedule, now).toISOString();
          // Without downtime the latest due slot is the one the test was waiting for.
          const latest = nextSlotAfter(schedule, new Date(t.next_run_at)).toISOString() === next ? t.next_run_at : latestSlotAtOrBefore(schedule, now)?.toISOString();
          slots = { latest, next };
        } catch (err) {
          // A stored schedule this parser cannot read must not stop every other test's runs:
          // it leaves the due list (no next run) and says so; saving a valid schedule resumes it.
          this.opts.log?.warn({ test_id: t.id, cron: t.schedule_cron, timezone: schedule.timezone, err: (err as Error).message }, 'scheduled test has an unreadable schedule: not scheduled');
          unreadable.push(t.id);
          continue;
        }
        slotsOf.set(memo, slots);
      }
      if (slots.latest && slots.latest >= t.next_run_at) wanted.push([t.id, slots.latest, t.schedule_cron]);
      moves.push([t.id, slots.next, t.next_run_at]);
    }
    if (unreadable.length) await db.updateTable('tests').set({ next_run_at: null }).where('id', 'in', unreadable).execute();
    // The scheduler's clock, the one stale claims are judged by (staleClaims).
    const claimedAt = now.toISOString();
    const values = (rows: [string, string, string][]) => sql.join(rows.map((r) => sql`(${r[0]}, ${r[1]}, ${r[2]})`));
    const won: { test_id: string; slot: string }[] = [];
    for (let i = 0; i < wanted.length; i += 200) {
      const { rows } = await sql<{ test_id: string; slot: string }>`
        insert into test_slots (test_id, slot, account_id, status, claimed_at)
        select t.id, v.column2, t.account_id, 'claimed', ${claimedAt}
          from (values ${values(wanted.slice(i, i + 200))}) v join tests t on t.id = v.column1
         where t.paused = 0 and t.deleted_at is null and t.schedule_cron = v.column3
        on conflict do nothing
        returning test_id, slot`.execute(db);
      won.push(...rows);
    }
    for (let i = 0; i < moves.length; i += 200) {
      await sql`
        update tests set next_run_at = v.column2
          from (values ${values(moves.slice(i, i + 200))}) v
         where tests.id = v.column1 and tests.next_run_at = v.column3`.execute(db);
    }
    return won.map((r) => ({ testId: r.test_id, slot: r.slot }));
  }

  private async staleClaims(): Promise<{ testId: string; slot: string }[]> {
    const cutoff = new Date(this.now().getTime() - (this.opts.staleClaimMs ?? 120_000)).toISOString();
    const rows = await this.deps.store.db
      .selectFrom('test_slots')
      .select(['test_id', 'slot'])
      .where('status', '=', 'claimed')
      .where('claimed_at', '<', cutoff)
      .limit(100)
      .execute();
    return rows.map((r) => ({ testId: r.test_id, slot: r.slot }));
  }

  private async executeAll(slots: { testId: string; slot: string }[], result: TickResult) {
    const queue = [...slots];
    const workers = Array.from({ length: Math.min(queue.length, this.opts.concurrency ?? 4) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          const outcome = await this.executeSlot(next.testId, next.slot);
          if (outcome !== 'done') this.opts.log?.info({ test_id: next.testId, slot: next.slot, outcome }, `scheduled slot ${outcome}`);
          if (outcome === 'run') result.runs++;
          else if (outcome === 'skipped') result.skipped++;
        } catch (err) {
          // The claim stays open; a later tick finishes it (the run's idempotency key keeps it single).
          this.opts.onError?.(err);
        }
      }
    });
    await Promise.all(workers);
  }

  /** Decides a claimed slot: a run, or a skip with its reason. */
  async executeSlot(testId: string, slot: string): Promise<'run' | 'skipped' | 'done'> {
    const { store } = this.deps;
    const claim = await store.db.selectFrom('test_slots').select(['status']).where('test_id', '=', testId).where('slot', '=', slot).executeTakeFirst();
    if (!claim || claim.status !== 'claimed') return 'done';
    const test = await store.db.selectFrom('tests').selectAll().where('id', '=', testId).executeTakeFirstOrThrow();
    const testType = test.test_type as TestType;
    const skip = (reason: string, message: string, estimate: number | null = null) => this.skip(test, slot, reason, message, estimate);

    const account = await getAccount(store.db, test.account_id);
    if (!account || account.status !== 'active') return skip('account_suspended', 'The account is suspended: scheduled runs do not run.');
    const key = test.key_id ? await scheduleActor(store.db, test.key_id) : undefined;
    if (!key || key.revoked_at) {
      return skip('key_revoked', 'The key that scheduled this test was revoked: update the schedule with a live key to resume.');
    }
    if (!(parseStoredScopes(key.scopes) as string[]).includes(createScopeOf(testType))) {
      return skip('missing_scope', `The key that scheduled this test lacks the ${createScopeOf(testType)} scope.`);
    }
    if (!test.definition) return skip('invalid_definition', 'The test has no run definition (it was made by a run): give it one, or remove the schedule.');
    let checked;
    try {
      checked = checkDefinition(this.deps, testType, JSON.parse(test.definition));
    } catch (err) {
      const message = err instanceof AppError ? `${err.code}: ${err.message}` : 'The definition cannot be run.';
      return skip(err instanceof AppError && err.code === 'platform_unavailable' ? 'platform_unavailable' : 'invalid_definition', message);
    }
    if (test.monthly_credit_budget !== null) {
      const budget = Number(test.monthly_credit_budget);
      const since = monthStart(budgetTimeZone(test), new Date(slot)).toISOString();
      const used = await creditsUsedSince(store.db, test.id, since);
      if (used + checked.estimate > budget) {
        return skip(
          'budget_exceeded',
          `This slot would cost ${fmt(checked.estimate)} credits; ${fmt(Math.max(0, budget - used))} of the ${fmt(budget)} monthly budget are left.`,
          checked.estimate,
        );
      }
    }

    const ctx: ActionContext = { accountId: test.account_id, source: 'schedule', requestId: newId('req'), credits: 0 };
    const body = { ...checked.definition, idempotency_key: `slot:${test.id}:${toApiTime(slot)}` };
    const action = testType === 'ai_citations' ? 'visibility.runs.create' : 'content_intelligence.runs.create';
    let created: VisibilityRunCreated | CiRunCreated;
    try {
      created =
        testType === 'ai_citations'
          ? await createVisibilityRun(this.deps.visibility, ctx, body as unknown as CreateRunInput, { testId: test.id, requireFullFunding: true })
          : await this.deps.createCiRun(ctx, body, { testId: test.id });
    } catch (err) {
      if (err instanceof AppError && err.code === 'insufficient_credits') {
        this.record(test, key, ctx, action, 402);
        return skip('insufficient_credits', 'The balance cannot fund every probe of this slot, so it did not run (never half-run).', checked.estimate);
      }
      throw err;
    }
    // Two schedulers may finish the same stale claim at once: the run's idempotency key made it
    // one run, and only the one that records it counts it.
    if (created.idempotent_replay !== true) this.record(test, key, ctx, action, 200);
    const res = await store.db
      .updateTable('test_slots')
      .set({ status: 'run', run_id: String(created.run_id), estimated_credits: checked.estimate, finished_at: nowIso() })
      .where('test_id', '=', test.id)
      .where('slot', '=', slot)
      .where('status', '=', 'claimed')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0 ? 'run' : 'done';
  }

  private async skip(test: { id: string; account_id: string; name: string; project_id?: string | null }, slot: string, reason: string, message: string, estimate: number | null): Promise<'skipped' | 'done'> {
    const at = nowIso();
    // The slot's conditional claimed → skipped update and its event commit together: a slot is
    // skipped, and tracked_test.skipped emitted, once however many schedulers decide it.
    const skipped = await this.deps.store.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('test_slots')
        .set({ status: 'skipped', reason, message, estimated_credits: estimate, finished_at: at })
        .where('test_id', '=', test.id)
        .where('slot', '=', slot)
        .where('status', '=', 'claimed')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('tests')
        .set({ last_skip: JSON.stringify({ slot: toApiTime(slot), reason, message, at: toApiTime(at) }) })
        .where('id', '=', test.id)
        .execute();
      await slotSkipped(trx, test, slot, reason, message);
      return true;
    });
    if (!skipped) return 'done';
    this.opts.log?.warn({ test_id: test.id, slot, reason }, `scheduled slot skipped: ${reason}`);
    return 'skipped';
  }

  /** The scheduled create in the activity log, as the key it acts for, with source `schedule`. */
  private record(
    test: { id: string; account_id: string },
    key: { id: string; key_prefix: string | null },
    ctx: ActionContext,
    action: string,
    httpStatus: number,
  ) {
    this.deps.activity.recordRequest({
      principal: { accountId: test.account_id, keyId: key.id, keyPrefix: key.key_prefix },
      source: 'schedule',
      action,
      method: 'POST',
      path: `/v1/tests/${test.id}/runs`,
      httpStatus,
      credits: ctx.credits,
      requestId: ctx.requestId,
    });
  }
}

const fmt = (hundredths: number) => (hundredths / 100).toFixed(2);

