import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { getVisibilityRun } from '../../../core/visibility/read.ts';
import { cancelVisibilityRun } from '../../../core/visibility/runs.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute } from '../../schemas.ts';
import { CompactRun } from './get-run.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/visibility/runs/:run_id/cancel',
  summary: 'Cancel the queued probes of a run and release their credits (safe to repeat)',
  tags: ['visibility'],
  action: 'visibility.runs.cancel',
  scope: 'visibility:runs:create',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id) }),
  response: CompactRun,
  errors: [404],
  handler: async ({ params, request }, core) => {
    const { accountId } = actionContext(request);
    await cancelVisibilityRun(core.store, accountId, params.run_id);
    return getVisibilityRun(core.store, accountId, params.run_id);
  },
});
