// GET /v1/content-intelligence/runs/{run_id}: one run, compact by default; include_result=true
// adds the stored analysis (content score, and for depth full trends, prompts and the audit).
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { defineRoute, queryBool } from '../define.ts';
import { CiRun } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/content-intelligence/runs/:run_id',
  summary: 'Read one Content Intelligence run (include_result=true adds the analysis)',
  tags: ['content_intelligence'],
  action: 'content_intelligence.runs.read',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id).describe('Content Intelligence run id (ci_…)') }),
  querystring: z.object({ include_result: queryBool.describe('true adds the full analysis as result') }),
  response: CiRun.extend({ result: z.object({}).passthrough().nullable().optional() }),
  errors: [404, 422],
  run: (a, ctx, core) =>
    core.content.getRun(ctx.accountId, a.run_id, { includeResult: a.include_result }),
  cli: { command: 'ci status', description: 'one Content Intelligence run (--include-result for the analysis)', args: ['run_id'] },
  tool: {
    name: 'get_content_intelligence_run',
    title: 'Read a Content Intelligence run',
    description:
      'Status of a Content Intelligence run; include_result for the full analysis.',
  },
});
