// What the core's worker does besides running jobs: per job kind, how a job that ran out of
// attempts is given up (its probe or run failed and its credits released), how one interrupted by
// shutdown goes back to the queue, and the periodic
// release of reservations that crashed fixed-price actions left behind. Passed to the Worker
// where the core builds it (index.ts), so business stays out of src/jobs.
import type { WorkerOptions } from '../jobs/worker.ts';
import { ACTION_SWEEP_EVERY_MS, releaseAbandonedActionCharges } from './billing/actions.ts';
import { giveUpCiRun, releaseCiRun } from './content/give-up.ts';
import { CI_JOB_KIND } from './content/runs.ts';
import type { Store } from '../db/store.ts';
import { giveUpProbe, releaseProbe } from './visibility/probe-executor.ts';
import { PROBE_JOB_KIND } from './visibility/runs.ts';

export function workerExtras(store: Store): Required<Pick<WorkerOptions, 'giveUp' | 'release' | 'periodic'>> {
  return {
    giveUp: {
      [PROBE_JOB_KIND]: (job, reason, code) => giveUpProbe(store, job, reason, code),
      [CI_JOB_KIND]: (job, reason, code) => giveUpCiRun(store, job, reason, code),
    },
    // Shutdown: a probe or run interrupted reads queued again, with its job, for the next worker.
    release: {
      [PROBE_JOB_KIND]: (job) => releaseProbe(store, job),
      [CI_JOB_KIND]: (job) => releaseCiRun(store, job),
    },
    periodic: [{ name: 'release-abandoned-action-charges', everyMs: ACTION_SWEEP_EVERY_MS, run: () => releaseAbandonedActionCharges(store) }],
  };
}
