import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { getVisibilityRun } from '../../../core/visibility/read.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute, queryBool } from '../../schemas.ts';

export const CompactRun = z
  .object({
    run_id: z.string(),
    status: z.string(),
    engine: z.string(),
    url: z.string(),
    target_entity: z.string(),
    probe_count: z.number().int(),
    probe_counts: z.object({
      queued: z.number().int(),
      running: z.number().int(),
      succeeded: z.number().int(),
      errored: z.number().int(),
      cancelled: z.number().int(),
      skipped: z.number().int(),
    }),
    billing: z.object({
      status: z.string(),
      estimated_credits: z.string(),
      reserved_credits: z.string(),
      settled_credits: z.string(),
      released_credits: z.string(),
    }).passthrough(),
    summary: z.object({ mention_rate: z.number().nullable(), overall_score: z.number().nullable(), visibility_band: z.string().nullable() }).passthrough(),
  })
  .passthrough();

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs/:run_id',
  summary: 'Read one visibility run (compact; include_probes / include_results / include_raw for more)',
  tags: ['visibility'],
  action: 'visibility.runs.read',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id) }),
  querystring: z.object({ include_probes: queryBool, include_results: queryBool, include_raw: queryBool }),
  response: CompactRun,
  errors: [404, 422],
  handler: async ({ params, query, request }, core) =>
    getVisibilityRun(core.store, actionContext(request).accountId, params.run_id, {
      includeProbes: query.include_probes,
      includeResults: query.include_results,
      includeRaw: query.include_raw,
    }),
});
