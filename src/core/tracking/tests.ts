// Saved tests: a test groups the runs of one kind for one page (and, for AI citations, one
// target entity). Creating a run attaches it to its test, creating the test on first use; a
// unique constraint keeps concurrent first runs from creating two tests. A test may also hold a
// run definition and a schedule (tracked-tests.ts); a deleted test is hidden from every read.
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import type { Selectable } from 'kysely';
import type { TestsTable } from '../../db/schema.ts';
import { formatCredits } from '../money.ts';
import type { Executor, Store } from '../../db/store.ts';
import { monthStart } from './schedule.ts';
import { normalizeUrl } from '../../lib/url.ts';

export const TEST_TYPES = ['ai_citations', 'content_intelligence'] as const;
export type TestType = (typeof TEST_TYPES)[number];

export function foldEntity(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export async function attachToTest(
  db: Executor,
  input: { accountId: string; testType: TestType; url: string; targetEntity: string | null },
): Promise<string> {
  const urlKey = normalizeUrl(input.url);
  const targetKey = input.targetEntity ? foldEntity(input.targetEntity) : '';
  const now = nowIso();
  const host = new URL(urlKey).host;
  const name = input.testType === 'ai_citations' ? `${input.targetEntity} on ${host}` : `Content Intelligence: ${urlKey.replace(/^https?:\/\//, '')}`;
  await db
    .insertInto('tests')
    .values({
      id: newId('test'),
      account_id: input.accountId,
      test_type: input.testType,
      name,
      url: input.url,
      url_key: urlKey,
      target_entity: input.targetEntity,
      target_key: targetKey,
      created_at: now,
      last_run_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'test_type', 'url_key', 'target_key']).doUpdateSet({ last_run_at: now }))
    .execute();
  const row = await db
    .selectFrom('tests')
    .select('id')
    .where('account_id', '=', input.accountId)
    .where('test_type', '=', input.testType)
    .where('url_key', '=', urlKey)
    .where('target_key', '=', targetKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Marks a saved test as just run (a tracked test's run names its test instead of attaching by URL). */
export async function touchTest(db: Executor, testId: string, now: string): Promise<string> {
  await db.updateTable('tests').set({ last_run_at: now }).where('id', '=', testId).execute();
  return testId;
}

type TestRow = Selectable<TestsTable>;

async function runCounts(db: Executor, testIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (testIds.length === 0) return counts;
  const rows = await sql<{ test_id: string; n: number }>`
    select test_id, count(*) as n from (
      select test_id from visibility_runs where test_id in (${sql.join(testIds)})
      union all
      select test_id from ci_runs where test_id in (${sql.join(testIds)})
    ) r group by test_id`.execute(db);
  for (const r of rows.rows) counts.set(r.test_id, Number(r.n));
  return counts;
}

/** The schedule's time zone, UTC for a test without one: the month a budget counts in. */
export const budgetTimeZone = (t: Pick<TestRow, 'schedule_timezone'>) => t.schedule_timezone ?? 'UTC';

/**
 * Credits the runs a test started (on schedule or "run now") have taken since `sinceIso`
 * (hundredths): what their charges reserved minus what was released, so a running run counts what
 * it holds and a finished one what it paid. Runs attached to the test only because they asked about
 * the same page (one-off runs, and those from before the test was tracked) are the user's, not the
 * budget's.
 */
export async function creditsUsedSince(db: Executor, testId: string, sinceIso: string): Promise<number> {
  return (await creditsUsedSinceByTest(db, [testId], sinceIso)).get(testId) ?? 0;
}

/** creditsUsedSince for several tests in one statement: the used credits by test id. */
async function creditsUsedSinceByTest(db: Executor, testIds: string[], sinceIso: string): Promise<Map<string, number>> {
  const ids = sql.join(testIds.map((id) => sql`${id}`));
  const { rows } = await sql<{ test_id: string; used: number | string | null }>`
    select r.test_id, coalesce(sum(l.amount - l.released_amount), 0) as used from ledger_entries l
      join (select test_id, ledger_entry_id from visibility_runs where test_id in (${ids}) and started_by_test = 1 and created_at >= ${sinceIso}
            union all
            select test_id, ledger_entry_id from ci_runs where test_id in (${ids}) and started_by_test = 1 and created_at >= ${sinceIso}) r
        on r.ledger_entry_id = l.id
     group by r.test_id`.execute(db);
  return new Map(rows.map((r) => [r.test_id, Number(r.used ?? 0)]));
}

/** Why the scheduler skipped a test's last slot, as the scheduler stores it (JSON). */
export interface TestSkip {
  slot: string;
  reason: string;
  message?: string;
  at: string;
}

/** A saved test as the API shows it. */
export interface SavedTestView {
  id: string;
  test_type: TestType;
  name: string;
  url: string;
  created_at: string;
  last_run_at: string | null;
  run_count: number;
  target_entity?: string;
  definition: Record<string, unknown> | null;
  schedule: { cron: string; timezone: string } | null;
  paused: boolean;
  next_run_at: string | null;
  monthly_credit_budget: string | null;
  credits_used_this_month: string;
  last_skip: TestSkip | null;
  /** The project this is a market's test of (changed through the project only), and its market; null for other tests. */
  project_id: string | null;
  market: string | null;
}

function renderTest(t: TestRow, count: number, usedThisMonth: number): SavedTestView {
  const budget = t.monthly_credit_budget === null ? null : Number(t.monthly_credit_budget);
  return {
    id: t.id,
    test_type: t.test_type,
    name: t.name,
    url: t.url,
    created_at: toApiTime(t.created_at),
    last_run_at: toApiTime(t.last_run_at),
    run_count: count,
    ...(t.target_entity ? { target_entity: t.target_entity } : {}),
    definition: t.definition ? (JSON.parse(t.definition) as Record<string, unknown>) : null,
    schedule: t.schedule_cron ? { cron: t.schedule_cron, timezone: t.schedule_timezone ?? 'UTC' } : null,
    paused: Number(t.paused) === 1,
    next_run_at: t.schedule_cron && Number(t.paused) !== 1 ? toApiTime(t.next_run_at) : null,
    monthly_credit_budget: budget === null ? null : formatCredits(budget),
    credits_used_this_month: formatCredits(usedThisMonth),
    last_skip: t.last_skip ? (JSON.parse(t.last_skip) as TestSkip) : null,
    project_id: t.project_id ?? null,
    market: t.project_id ? (t.market ?? null) : null,
  };
}

/**
 * Tests as the API shows them. Credits used this month are read with one statement per distinct
 * month start (tests in the same time zone share one), not one per test.
 */
async function renderAll(db: Executor, rows: TestRow[]) {
  const counts = await runCounts(db, rows.map((r) => r.id));
  const now = new Date();
  const bySince = new Map<string, string[]>();
  for (const r of rows) {
    const since = monthStart(budgetTimeZone(r), now).toISOString();
    bySince.set(since, [...(bySince.get(since) ?? []), r.id]);
  }
  const used = new Map<string, number>();
  for (const [since, ids] of bySince) for (const [id, n] of await creditsUsedSinceByTest(db, ids, since)) used.set(id, n);
  return rows.map((r) => renderTest(r, counts.get(r.id) ?? 0, used.get(r.id) ?? 0));
}

export async function listTests(store: Store, accountId: string, opts: { limit: number; testType?: TestType }) {
  let q = store.db.selectFrom('tests').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null);
  if (opts.testType) q = q.where('test_type', '=', opts.testType);
  // Most recently run first; a tracked test that never ran counts from its creation.
  const rows = await q.orderBy(sql`coalesce(last_run_at, created_at)`, 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
  return renderAll(store.db, rows);
}

/** A saved test of the account (not deleted), or 404. */
export async function findTest(db: Executor, accountId: string, testId: string): Promise<TestRow> {
  const row = await db
    .selectFrom('tests')
    .selectAll()
    .where('id', '=', testId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `Saved test ${testId} not found.`);
  return row;
}

export async function getTestRow(store: Store, accountId: string, testId: string) {
  const row = await findTest(store.db, accountId, testId);
  return { row, rendered: (await renderAll(store.db, [row]))[0] };
}

export async function findTestsByUrl(store: Store, accountId: string, url: string, testType?: TestType) {
  let q = store.db
    .selectFrom('tests')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('url_key', '=', normalizeUrl(url))
    .where('deleted_at', 'is', null);
  if (testType) q = q.where('test_type', '=', testType);
  const rows = await q.orderBy(sql`coalesce(last_run_at, created_at)`, 'desc').execute();
  const rendered = await renderAll(store.db, rows);
  return rows.map((r, i) => ({ row: r, rendered: rendered[i] }));
}
