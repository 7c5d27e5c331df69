// The worker's give-up handler for Content Intelligence run jobs (see GiveUpHandler in
// src/jobs/worker.ts): the job ran out of attempts (its workers died mid-analysis, or the
// recording of the outcome kept failing), so the run is failed with `worker_gave_up` and its
// reservation released (failCiRun, as for a failed analysis), in one transaction that locks the
// account first. Only a queued or running run changes: one that completed or failed
// meanwhile keeps its outcome.
import { finishJob, holdLease, LeaseLost, leaseOf, requeueJob, type Job } from '../../jobs/queue.ts';
import type { GiveUpCode } from '../../jobs/worker.ts';
import { lockAccount } from '../billing/ledger.ts';
import type { Store } from '../../db/store.ts';
import { failCiRun } from './runs.ts';

export async function giveUpCiRun(store: Store, job: Job, reason: string, code: GiveUpCode = 'worker_gave_up'): Promise<void> {
  const lease = leaseOf(job);
  const run = await store.db
    .selectFrom('ci_runs')
    .select(['account_id', 'ledger_entry_id', 'price'])
    .where('id', '=', job.ref_id)
    .executeTakeFirst();
  if (!run) return finishJob(store.db, job.id, 'failed', reason, lease);
  await store.db.transaction().execute(async (trx) => {
    await lockAccount(store, trx, run.account_id);
    await holdLease(trx, lease);
    const failure =
      code === 'job_timeout'
        ? { code, message: 'The analysis ran past its time budget and was stopped.' }
        : { code, message: 'The analysis could not be run: every attempt was interrupted.' };
    await failCiRun(trx, { id: job.ref_id, ledger_entry_id: run.ledger_entry_id, price: Number(run.price) }, failure, ['queued', 'running']);
    await finishJob(trx, job.id, 'failed', reason, lease);
  });
}

/** Shutdown: a Content Intelligence run its worker stopped goes back to `queued` with its job, at once. */
export async function releaseCiRun(store: Store, job: Job): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    if (!(await requeueJob(trx, leaseOf(job), 'interrupted by worker shutdown'))) throw new LeaseLost(job.id);
    await trx.updateTable('ci_runs').set({ status: 'queued' }).where('id', '=', job.ref_id).where('status', '=', 'running').execute();
  });
}
