// GET /v1/content-intelligence/runs/{run_id}: one run, compact by default; include_result=true
// adds the stored analysis (content score, and for depth full trends, prompts and the audit).
import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute, queryBool } from '../../schemas.ts';
import { CiRun } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/content-intelligence/runs/:run_id',
  summary: 'Read one Content Intelligence run (include_result=true adds the analysis)',
  tags: ['content_intelligence'],
  action: 'content_intelligence.runs.read',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id) }),
  querystring: z.object({ include_result: queryBool }),
  response: CiRun.extend({ result: z.object({}).passthrough().nullable().optional() }),
  errors: [404, 422],
  handler: async ({ params, query, request }, core) =>
    core.content.getRun(actionContext(request).accountId, params.run_id, { includeResult: query.include_result }),
});
