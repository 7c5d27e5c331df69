// run.completed for visibility runs: emitted in the transaction that settles a run's last probe
// (or cancels its last queued ones). Every transaction that settles a probe locks the account
// first (lockAccount), so the last of a run's probes to commit sees all the others settled; the
// event's dedupe key makes a second notice of the same run a no-op. A tracked test's run also
// queues the job that looks for a significant change in its history (tracking/change-events.ts).
import { sql } from 'kysely';
import { enqueueJobs } from '../../jobs/queue.ts';
import type { Executor } from '../../db/store.ts';
import { emitEvent, TEST_CHANGE_JOB_KIND, WEBHOOK_LANE } from '../webhooks/events.ts';
import { compactVisibilityRuns } from './read.ts';

/** After a probe of the run settled or was cancelled: emits run.completed once no probe is left. */
export async function visibilityRunSettled(db: Executor, runId: string): Promise<void> {
  const { rows } = await sql`select 1 as x from visibility_probes where run_id = ${runId} and status in ('queued', 'running') limit 1`.execute(db);
  if (rows.length > 0) return;
  // A repeated notice (a cancel after the last settlement, a give-up) finds the event already there:
  // the compact run, with every summary, is built only for the first.
  const dedupeKey = `run.completed:${runId}`;
  if (await db.selectFrom('webhook_events').select('id').where('dedupe_key', '=', dedupeKey).executeTakeFirst()) return;
  const owner = await db.selectFrom('visibility_runs').select(['account_id', 'test_id']).where('id', '=', runId).executeTakeFirst();
  if (!owner) return;
  const [run] = await compactVisibilityRuns(db, [runId]);
  if (!run) return;
  // The run's project (its test's), for endpoints limited to some projects.
  const test = await db.selectFrom('tests').select(['definition', 'project_id']).where('id', '=', owner.test_id).executeTakeFirst();
  const eventId = await emitEvent(db, { accountId: owner.account_id, type: 'run.completed', dedupeKey, data: run, projectId: test?.project_id ?? null });
  if (!eventId) return;
  // A tracked test's run: whether its history now shows a significant change is worked out by a
  // job (the history reads every run of the test, too much for the settling transaction).
  if (test?.definition) {
    await enqueueJobs(db, [{ kind: TEST_CHANGE_JOB_KIND, lane: WEBHOOK_LANE, refId: runId, accountId: owner.account_id, maxAttempts: 5 }]);
  }
}
