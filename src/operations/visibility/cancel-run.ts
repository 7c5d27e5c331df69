import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { getVisibilityRun } from '../../core/visibility/read.ts';
import { cancelVisibilityRun } from '../../core/visibility/runs.ts';
import { defineRoute } from '../define.ts';
import { CompactRun } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/visibility/runs/:run_id/cancel',
  summary: 'Cancel the queued probes of a run and release their credits (safe to repeat)',
  tags: ['visibility'],
  action: 'visibility.runs.cancel',
  scope: 'visibility:runs:create',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id).describe('Visibility run id (vis_…)') }),
  response: CompactRun,
  errors: [404],
  run: async (a, ctx, core) => {
    await cancelVisibilityRun(core.store, ctx.accountId, a.run_id);
    return getVisibilityRun(core.store, ctx.accountId, a.run_id);
  },
  cli: { command: 'visibility cancel', description: 'cancel the queued probes of a run (credits released)', args: ['run_id'] },
  tool: {
    name: 'cancel_visibility_run',
    title: 'Cancel a visibility run', destructive: true, idempotent: true,
    description:
      'Cancel the queued probes of a run and release their credits; running probes finish. Free.',
  },
});
