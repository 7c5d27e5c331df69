// Tracked tests (docs/concepts.md): a saved test that holds a run definition (the create body
// of a visibility or Content Intelligence run), an optional cron schedule in a time zone, a pause
// flag and a monthly credit budget. Create, update, delete and "run now" live here; the
// scheduler (scheduler.ts) takes due slots. A test's identity is its kind, URL and target entity,
// as for implicit saved tests: creating a tracked test for a URL and brand already tracked turns
// that test into the tracked one (its runs stay with it).
import { sql } from 'kysely';
import { requireScope, type Principal } from '../accounts/accounts.ts';
import type { Scope } from '../accounts/scopes.ts';
import type { ActionContext } from '../billing/actions.ts';
import { priceFor } from '../content/runs.ts';
import { AppError } from '../errors.ts';
import { isUniqueViolation } from '../idempotency.ts';
import { nowIso } from '../../lib/ids.ts';
import { parseCredits } from '../money.ts';
import type { ActivityLog } from '../reports/activity.ts';
import { absoluteUrlMessage, normalizeUrl, parseHttpUrl } from '../../lib/url.ts';
import type { Executor, Store } from '../../db/store.ts';
import { planRun, type CreateRunInput } from '../visibility/plan.ts';
import type { CiRunCreated } from '../content/runs.ts';
import { createVisibilityRun, type VisibilityDeps } from '../visibility/runs.ts';
import { nextSlotAfter, parseSchedule, type Schedule } from './schedule.ts';
import { attachToTest, findTest, foldEntity, getTestRow, type TestType } from './tests.ts';
import { normalizePrompt } from '../projects/prompts.ts';

export interface TrackingDeps {
  store: Store;
  visibility: VisibilityDeps;
  /** Queues a Content Intelligence run (the content service's createRun). */
  createCiRun: (ctx: ActionContext, body: Record<string, unknown>, opts: { testId?: string }) => Promise<CiRunCreated>;
  activity: ActivityLog;
  /** SIGHTLINE_MAX_PROJECTS_PER_ACCOUNT: projects (not deleted) one account may have. */
  maxProjects?: number;
}

/** The scope a test's runs need: the create scope of its run kind . */
export function createScopeOf(testType: TestType): Scope {
  return testType === 'ai_citations' ? 'visibility:runs:create' : 'content_intelligence:runs:create';
}

/** The largest monthly budget: the largest grant (10,000,000.00 credits). */
const MAX_BUDGET = 10_000_000_00;

export function parseBudget(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  let hundredths: number;
  try {
    hundredths = parseCredits(value);
  } catch {
    throw new AppError('invalid_request', 'monthly_credit_budget must be a credit amount such as "200.00", or null.', { monthly_credit_budget: value });
  }
  if (hundredths > MAX_BUDGET) throw new AppError('invalid_request', 'monthly_credit_budget is at most 10000000.00.');
  return hundredths;
}

/** A run definition, checked as its run create would check it; with its identity and its estimated cost. */
export interface CheckedDefinition {
  definition: Record<string, unknown>;
  url: string;
  targetEntity: string | null;
  /** What a run of it would reserve if fully funded (hundredths). */
  estimate: number;
  /** Probes a visibility run of it asks (null for Content Intelligence, which asks none). */
  probeCount: number | null;
}

export function checkDefinition(deps: Pick<TrackingDeps, 'visibility'>, testType: TestType, definition: Record<string, unknown>): CheckedDefinition {
  const { idempotency_key: _ignored, ...body } = definition;
  if (testType === 'ai_citations') {
    // A saved test asks each prompt once: the same line twice (trimmed, inner whitespace as one
    // space, as a project's library keeps prompts) would be asked and paid for twice on every
    // run. `repeats` is the way to ask more than once.
    if (Array.isArray(body.prompts)) {
      const seen = new Set<string>();
      body.prompts = body.prompts.filter((p: unknown) => {
        if (typeof p !== 'string') return true;
        const key = normalizePrompt(p);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    const plan = planRun(body as unknown as CreateRunInput, deps.visibility.catalog, deps.visibility.isAvailable);
    return { definition: body, url: plan.url, targetEntity: plan.targetEntity, estimate: plan.probes.reduce((a, p) => a + p.price, 0), probeCount: plan.probes.length };
  }
  const url = typeof body.url === 'string' ? body.url.trim() : '';
  if (!parseHttpUrl(url)) throw new AppError('invalid_url', absoluteUrlMessage('definition.url', url), { url: body.url });
  return { definition: body, url, targetEntity: null, estimate: priceFor(body.analysis_depth === 'full' ? 'full' : 'score'), probeCount: null };
}

export interface TrackedTestInput {
  test_type: TestType;
  name?: string | null;
  definition: Record<string, unknown>;
  schedule?: { cron: string; timezone?: string | null } | null;
  monthly_credit_budget?: string | number | null;
  paused?: boolean;
}

/** The columns a schedule sets: the next slot after now (pausing keeps it; unpausing recomputes it). */
function scheduleColumns(schedule: Schedule | null, now: Date) {
  return {
    schedule_cron: schedule?.cron ?? null,
    schedule_timezone: schedule?.timezone ?? null,
    next_run_at: schedule ? nextSlotAfter(schedule, now).toISOString() : null,
  };
}

export async function createTrackedTest(deps: TrackingDeps, principal: Principal, input: TrackedTestInput) {
  requireScope(principal, createScopeOf(input.test_type));
  const checked = checkDefinition(deps, input.test_type, input.definition);
  const schedule = input.schedule ? parseSchedule(input.schedule) : null;
  const budget = parseBudget(input.monthly_credit_budget);
  const now = new Date();
  const testId = await deps.store.db.transaction().execute(async (trx) => {
    const id = await attachToTest(trx, { accountId: principal.accountId, testType: input.test_type, url: checked.url, targetEntity: checked.targetEntity });
    await trx
      .updateTable('tests')
      .set({
        ...(input.name?.trim() ? { name: input.name.trim() } : {}),
        definition: JSON.stringify(checked.definition),
        ...scheduleColumns(schedule, now),
        paused: input.paused ? 1 : 0,
        monthly_credit_budget: budget,
        key_id: principal.keyId,
        last_skip: null,
      })
      .where('id', '=', id)
      .execute();
    // attachToTest stamps last_run_at for the run it expects; a test made here last ran when its
    // latest adopted run did (never, without one).
    await sql`update tests set last_run_at = (select max(created_at) from (
                select created_at from visibility_runs where test_id = ${id}
                union all select created_at from ci_runs where test_id = ${id}) r)
               where id = ${id}`.execute(trx);
    return id;
  });
  return (await getTestRow(deps.store, principal.accountId, testId)).rendered;
}

export interface TrackedTestPatch {
  name?: string;
  definition?: Record<string, unknown>;
  schedule?: { cron: string; timezone?: string | null } | null;
  paused?: boolean;
  monthly_credit_budget?: string | number | null;
}

/**
 * A project's market test follows its project: the project writes its prompts, schedule, budget
 * and markets into every market's test alike, so a change made to one test directly would differ
 * from the project and be overwritten by the project's next change.
 */
function refuseProjectTest(row: { project_id?: string | null; market?: string | null }, what: 'changed' | 'deleted') {
  if (!row.project_id) return;
  throw new AppError(
    'invalid_request',
    `This test is the ${row.market ?? ''} market of project ${row.project_id} and is ${what} through the project: PATCH /v1/projects/${row.project_id} (its prompts, schedule, budget and markets), or in the console's project settings.`,
    { project_id: row.project_id },
  );
}

/** What a test made by a run lacks before it can run by itself or on a schedule. */
const NO_DEFINITION =
  'This saved test was made by a run and has no run definition yet, so it cannot run by itself or on a schedule: give it one (PATCH /v1/tests/{id} with definition, or `sightline tests update ID --definition @run.json`; in the console, "Add a schedule").';

/** What a project's test lacks while the project's prompt library is empty. */
const noPromptsYet = (projectId: string) =>
  `Project ${projectId} has no prompts yet, so there is nothing to ask: add some first (POST /v1/projects/${projectId}/prompts, the MCP tool import_project_prompts, \`sightline projects prompts ${projectId}\`, or "Import prompts" on the project's page in the console).`;

export async function updateTrackedTest(deps: TrackingDeps, principal: Principal, testId: string, patch: TrackedTestPatch) {
  const { store } = deps;
  const row = await findTest(store.db, principal.accountId, testId);
  const testType = row.test_type as TestType;
  requireScope(principal, createScopeOf(testType));
  refuseProjectTest(row, 'changed');
  const set: Record<string, unknown> = {};
  if (patch.name !== undefined) {
    if (!patch.name.trim()) throw new AppError('invalid_request', 'name must not be empty.');
    set.name = patch.name.trim();
  }
  if (patch.definition !== undefined) {
    const checked = checkDefinition(deps, testType, patch.definition);
    Object.assign(set, {
      definition: JSON.stringify(checked.definition),
      url: checked.url,
      url_key: normalizeUrl(checked.url),
      target_entity: checked.targetEntity,
      target_key: checked.targetEntity ? foldEntity(checked.targetEntity) : '',
    });
  }
  const now = new Date();
  // A test made by a run has no definition of its own: a schedule would only skip every slot.
  if (patch.schedule && patch.definition === undefined && !row.definition) throw new AppError('invalid_request', NO_DEFINITION, { test_id: testId });
  if (patch.schedule !== undefined) Object.assign(set, scheduleColumns(patch.schedule ? parseSchedule(patch.schedule) : null, now));
  if (patch.paused !== undefined) {
    set.paused = patch.paused ? 1 : 0;
    // Resuming starts from the next slot after now: slots that fell while paused are not caught up.
    if (!patch.paused && set.next_run_at === undefined && row.schedule_cron) {
      set.next_run_at = nextSlotAfter({ cron: row.schedule_cron, timezone: row.schedule_timezone ?? 'UTC' }, now).toISOString();
    }
  }
  if (patch.monthly_credit_budget !== undefined) set.monthly_credit_budget = parseBudget(patch.monthly_credit_budget);
  // Scheduled runs act with the scopes of the key that last changed what they run or when.
  if (patch.definition !== undefined || patch.schedule !== undefined || patch.paused === false) set.key_id = principal.keyId;
  if (Object.keys(set).length > 0) {
    try {
      await store.db.updateTable('tests').set(set).where('id', '=', testId).where('account_id', '=', principal.accountId).execute();
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppError('invalid_request', 'Another saved test already tracks that URL (and target entity); update that one instead.');
      }
      throw err;
    }
  }
  return (await getTestRow(store, principal.accountId, testId)).rendered;
}

/**
 * Deletes a test: it disappears from every read and its schedule stops; its runs stay readable by
 * id (they keep pointing at the row, which is kept with its identity freed, so a new run of the
 * same URL starts a new test).
 */
export async function deleteTrackedTest(deps: TrackingDeps, principal: Principal, testId: string) {
  const { accountId } = principal;
  const row = await findTest(deps.store.db, accountId, testId);
  requireScope(principal, createScopeOf(row.test_type as TestType));
  refuseProjectTest(row, 'deleted');
  await softDeleteTestRow(deps.store.db, accountId, testId);
  return { id: testId, deleted: true };
}

/** Deletes a test row: hidden, unscheduled, its identity freed (a new test may take it), its runs kept. */
export async function softDeleteTestRow(db: Executor, accountId: string, testId: string): Promise<void> {
  await db
    .updateTable('tests')
    .set({
      deleted_at: nowIso(),
      schedule_cron: null,
      next_run_at: null,
      target_key: sql<string>`target_key || ${` #deleted:${testId}`}`,
    })
    .where('id', '=', testId)
    .where('account_id', '=', accountId)
    .execute();
}

/** Runs the test's definition now, as the caller (their scopes, their access source), attached to the test. */
export async function runTrackedTestNow(deps: TrackingDeps, principal: Principal, ctx: ActionContext, testId: string, idempotencyKey?: string) {
  const row = await findTest(deps.store.db, principal.accountId, testId);
  const testType = row.test_type as TestType;
  requireScope(principal, createScopeOf(testType));
  if (!row.definition) {
    // A project's test has no definition while the project has no prompts: the test's own fix
    // (PATCH /v1/tests/{id}) is refused for it, so the message names the project's.
    if (row.project_id) throw new AppError('invalid_request', noPromptsYet(row.project_id), { test_id: testId, project_id: row.project_id });
    throw new AppError('invalid_request', NO_DEFINITION, { test_id: testId });
  }
  const body = { ...(JSON.parse(row.definition) as Record<string, unknown>), ...(idempotencyKey !== undefined ? { idempotency_key: idempotencyKey } : {}) };
  const created =
    testType === 'ai_citations'
      ? await createVisibilityRun(deps.visibility, ctx, body as unknown as CreateRunInput, { testId })
      : await deps.createCiRun(ctx, body, { testId });
  return { ...created, test_id: testId };
}
