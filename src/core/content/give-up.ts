// The worker's give-up handler for Content Intelligence run jobs (see GiveUpHandler in
// src/jobs/worker.ts): the job ran out of attempts (its workers died mid-analysis, or the
// recording of the outcome kept failing), so the run is failed with `worker_gave_up` and its
// reservation released, in one transaction that locks the account first, as executeCiRun does
// for a failed analysis. Only a queued or running run changes: one that completed or failed
// meanwhile keeps its outcome.
import { finishJob, type Job } from '../../jobs/queue.ts';
import { lockAccount, releaseCharge } from '../billing/ledger.ts';
import { nowIso } from '../ids.ts';
import type { Store } from '../store.ts';

export async function giveUpCiRun(store: Store, job: Job, reason: string): Promise<void> {
  const run = await store.db
    .selectFrom('ci_runs')
    .select(['account_id', 'ledger_entry_id', 'price'])
    .where('id', '=', job.ref_id)
    .executeTakeFirst();
  if (!run) return finishJob(store.db, job.id, 'failed', reason);
  await store.db.transaction().execute(async (trx) => {
    await lockAccount(store, trx, run.account_id);
    const res = await trx
      .updateTable('ci_runs')
      .set({
        status: 'failed',
        error_code: 'worker_gave_up',
        error_message: 'The analysis could not be run: every attempt was interrupted.',
        completed_at: nowIso(),
      })
      .where('id', '=', job.ref_id)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) await releaseCharge(trx, run.ledger_entry_id, Number(run.price));
    await finishJob(trx, job.id, 'failed', reason);
  });
}
