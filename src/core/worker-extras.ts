// What the core's worker does besides running jobs: per job kind, how a job that ran out of
// attempts is given up (its probe or run failed and its credits released), how one interrupted by
// shutdown goes back to the queue, and the periodic work: the release of reservations that crashed
// fixed-price actions left behind, and the retention sweep (retention.ts). Passed to the Worker
// where the core builds it (index.ts), so business stays out of src/jobs.
import type { WorkerOptions } from '../jobs/worker.ts';
import { ACTION_SWEEP_EVERY_MS, releaseAbandonedActionCharges } from './billing/actions.ts';
import { giveUpCiRun, releaseCiRun } from './content/give-up.ts';
import { CI_JOB_KIND } from './content/runs.ts';
import type { Store } from '../db/store.ts';
import { giveUpProbe, releaseProbe } from './visibility/probe-executor.ts';
import { PROBE_JOB_KIND } from './visibility/runs.ts';
import { retentionOn, sweepRetention, type RetentionPolicy, type SweepOptions } from './retention.ts';

/** The retention sweep a worker runs (core/retention.ts): what to keep, how often, where it reports. */
export interface RetentionSweep {
  policy: RetentionPolicy;
  everyMs: number;
  log?: SweepOptions['log'];
  onRemoved?: SweepOptions['onRemoved'];
}

export function workerExtras(store: Store, retention?: RetentionSweep): Required<Pick<WorkerOptions, 'giveUp' | 'release' | 'periodic'>> {
  const sweeps =
    retention && retention.everyMs > 0 && retentionOn(retention.policy)
      ? [{ name: 'retention', everyMs: retention.everyMs, run: () => sweepRetention(store, retention.policy, { log: retention.log, onRemoved: retention.onRemoved }) }]
      : [];
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
    periodic: [{ name: 'release-abandoned-action-charges', everyMs: ACTION_SWEEP_EVERY_MS, run: () => releaseAbandonedActionCharges(store) }, ...sweeps],
  };
}
