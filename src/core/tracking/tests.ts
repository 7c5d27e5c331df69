// Saved tests: a test groups the runs of one kind for one page (and, for AI citations, one
// target entity). Creating a run attaches it to its test, creating the test on first use; a
// unique constraint keeps concurrent first runs from creating two tests.
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import { newId, nowIso, toApiTime } from '../ids.ts';
import type { Executor, Store } from '../store.ts';
import { normalizeUrl } from '../reports/url.ts';

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

type TestRow = { id: string; test_type: string; name: string; url: string; target_entity: string | null; created_at: string; last_run_at: string | null };

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

function renderTest(t: TestRow, count: number) {
  const out: Record<string, unknown> = {
    id: t.id,
    test_type: t.test_type,
    name: t.name,
    url: t.url,
    created_at: toApiTime(t.created_at),
    last_run_at: toApiTime(t.last_run_at),
    run_count: count,
  };
  if (t.target_entity) out.target_entity = t.target_entity;
  return out;
}

export async function listTests(store: Store, accountId: string, opts: { limit: number; testType?: TestType }) {
  let q = store.db.selectFrom('tests').selectAll().where('account_id', '=', accountId);
  if (opts.testType) q = q.where('test_type', '=', opts.testType);
  const rows = await q.orderBy('last_run_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
  const counts = await runCounts(store.db, rows.map((r) => r.id));
  return rows.map((r) => renderTest(r, counts.get(r.id) ?? 0));
}

export async function getTestRow(store: Store, accountId: string, testId: string) {
  const row = await store.db.selectFrom('tests').selectAll().where('id', '=', testId).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `Saved test ${testId} not found.`);
  const counts = await runCounts(store.db, [row.id]);
  return { row, rendered: renderTest(row, counts.get(row.id) ?? 0) };
}

export async function findTestsByUrl(store: Store, accountId: string, url: string, testType?: TestType) {
  let q = store.db.selectFrom('tests').selectAll().where('account_id', '=', accountId).where('url_key', '=', normalizeUrl(url));
  if (testType) q = q.where('test_type', '=', testType);
  const rows = await q.orderBy('last_run_at', 'desc').execute();
  const counts = await runCounts(store.db, rows.map((r) => r.id));
  return rows.map((r) => ({ row: r, rendered: renderTest(r, counts.get(r.id) ?? 0) }));
}
