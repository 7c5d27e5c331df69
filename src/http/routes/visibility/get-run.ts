import { z } from 'zod';
import { VisibilityRun } from './shapes.ts';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { getVisibilityRun } from '../../../core/visibility/read.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute, queryBool } from '../../schemas.ts';

export { CompactRun } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs/:run_id',
  summary: 'Read one visibility run (compact; include_probes / include_results / include_raw for more)',
  tags: ['visibility'],
  action: 'visibility.runs.read',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id).describe('Visibility run id (vis_…)') }),
  querystring: z.object({
    include_probes: queryBool.describe('true adds the probe list (status, mentions, citations, analysis per probe)'),
    include_results: queryBool.describe('true adds each probe with its full answer text (implies include_probes)'),
    include_raw: queryBool.describe("true adds each provider's raw response (debugging)"),
  }),
  response: VisibilityRun,
  errors: [404, 422],
  handler: async ({ params, query, request }, core) =>
    getVisibilityRun(core.store, actionContext(request).accountId, params.run_id, {
      includeProbes: query.include_probes,
      includeResults: query.include_results,
      includeRaw: query.include_raw,
    }),
});
