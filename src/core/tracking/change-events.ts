// tracked_test.changed and tracked_test.skipped. A change is looked for by a job queued with a
// tracked test's run.completed (visibility/run-events.ts): the test's history, one point per run,
// and when its latest comparison is significant, the event, named by the test and the latest
// point's runs (so a job run twice emits once). A skip is emitted in the transaction of the
// scheduler's conditional claimed → skipped update of the slot, named by test and slot.
import type { Executor, Store } from '../../db/store.ts';
import { toApiTime } from '../../lib/ids.ts';
import { emitEvent } from '../webhooks/events.ts';
import { comparedPoints } from './comparable.ts';
import { testHistory } from './history.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { compareProportions } from '../../lib/stats.ts';

type Point = {
  run_ids: string[];
  brand_mentions: number;
  succeeded: number;
  mention_rate: number | null;
  competitors: { name: string; mentions: number; mention_rate?: number | null }[];
};

/**
 * The job behind tracked_test.changed: the test's history (one point per run) and, when its
 * latest comparison is significant, the event, named by the test and the latest point's runs.
 */
export async function checkTestChange(store: Store, catalog: Catalog, runId: string): Promise<void> {
  const run = await store.db.selectFrom('visibility_runs').select(['account_id', 'test_id']).where('id', '=', runId).executeTakeFirst();
  if (!run) return;
  const test = await store.db.selectFrom('tests').select(['id', 'name', 'deleted_at', 'project_id']).where('id', '=', run.test_id).executeTakeFirst();
  if (!test || test.deleted_at) return;
  const history = (await testHistory(store, run.account_id, test.id, { days: 90, window: 'run', catalog })) as unknown as {
    points: (Point & { complete: boolean; start: string; definition_id: string | null })[];
    comparison: { previous: Record<string, unknown>; latest: Record<string, any>; definition_id: string | null; change: number | null; change_significant: boolean | null } | null;
  };
  const c = history.comparison;
  // The two points the comparison set against each other (same definition), not merely the last two.
  const { previous, latest } = comparedPoints(history.points);
  if (!c || c.change_significant !== true || c.change === null || !previous || !latest) return;
  const change = c.change;
  const competitors_moved = latest.competitors.flatMap((lc) => {
    const pc = previous.competitors.find((x) => x.name === lc.name);
    if (!pc) return [];
    const t = compareProportions(pc.mentions, previous.succeeded, lc.mentions, latest.succeeded);
    return t?.change_significant ? [{ name: lc.name, previous: pc.mention_rate ?? null, latest: lc.mention_rate ?? null, change: t.change, direction: t.change > 0 ? 'up' : 'down' }] : [];
  });
  await store.db.transaction().execute((trx) =>
    emitEvent(trx, {
      accountId: run.account_id,
      type: 'tracked_test.changed',
      dedupeKey: `tracked_test.changed:${test.id}:${latest.run_ids.join(',')}`,
      projectId: test.project_id,
      data: {
        test_id: test.id,
        project_id: test.project_id,
        name: test.name,
        metric: 'mention_rate',
        previous: c.previous,
        latest: c.latest,
        change,
        direction: change > 0 ? 'up' : 'down',
        size: Math.abs(change),
        interval: c.latest.mention_rate_ci ?? null,
        run_ids: latest.run_ids,
        competitors_moved,
      },
    }),
  );
}

/** The scheduler skipped a slot (call in the transaction of its claimed → skipped update). */
export async function slotSkipped(db: Executor, test: { id: string; account_id: string; name: string; project_id?: string | null }, slot: string, reason: string, message: string): Promise<void> {
  const projectId = test.project_id ?? null;
  await emitEvent(db, {
    accountId: test.account_id,
    type: 'tracked_test.skipped',
    dedupeKey: `tracked_test.skipped:${test.id}:${slot}`,
    projectId,
    data: { test_id: test.id, project_id: projectId, name: test.name, slot: toApiTime(slot), reason, message },
  });
}

