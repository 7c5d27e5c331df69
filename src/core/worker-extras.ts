// What the core's worker does besides running jobs: per job kind, how a job that ran out of
// attempts is given up (its probe or run failed and its credits released), and the periodic
// release of reservations that crashed fixed-price actions left behind. Passed to the Worker
// where the core builds it (index.ts), so business stays out of src/jobs.
import type { WorkerOptions } from '../jobs/worker.ts';
import { ACTION_SWEEP_EVERY_MS, releaseAbandonedActionCharges } from './billing/actions.ts';
import { giveUpCiRun } from './content/give-up.ts';
import { CI_JOB_KIND } from './content/runs.ts';
import type { Store } from './store.ts';
import { giveUpProbe } from './visibility/probe-executor.ts';
import { PROBE_JOB_KIND } from './visibility/runs.ts';

export function workerExtras(store: Store): Required<Pick<WorkerOptions, 'giveUp' | 'periodic'>> {
  return {
    giveUp: {
      [PROBE_JOB_KIND]: (job, reason, code) => giveUpProbe(store, job, reason, code),
      [CI_JOB_KIND]: (job, reason, code) => giveUpCiRun(store, job, reason, code),
    },
    periodic: [{ name: 'release-abandoned-action-charges', everyMs: ACTION_SWEEP_EVERY_MS, run: () => releaseAbandonedActionCharges(store) }],
  };
}
