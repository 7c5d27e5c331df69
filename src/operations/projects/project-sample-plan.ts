// GET /v1/projects/{project_id}/sample-plan: the sample plan of each market's test and the
// project's credits a month now and as planned.
import { z } from 'zod';
import { projectSamplePlan } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { SamplePlanQuery, SamplePlanResponse, samplePlanOptions } from '../tests/sample-plan.ts';
import { ProjectId } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/projects/:project_id/sample-plan',
  summary: "Plan a project's sample: repeats per prompt × platform per market for a half-width or a change, and credits a month",
  tags: ['projects'],
  action: 'projects.sample_plan',
  scope: 'tests:read',
  params: ProjectId,
  querystring: z.object(SamplePlanQuery),
  response: z
    .object({
      project_id: z.string(),
      repeats_needed: z.number().int().nullable(),
      feasible: z.boolean(),
      current_credits_per_month: z.string().nullable(),
      planned_credits_per_month: z.string().nullable(),
      markets: z.array(SamplePlanResponse.extend({ market: z.string().nullable(), test_id: z.string() })),
    })
    .passthrough(),
  errors: [400, 404, 422],
  run: (a, ctx, core) =>
    projectSamplePlan(core.tracking, ctx.accountId, a.project_id, samplePlanOptions(a, core.catalog)),
  cli: { command: 'projects plan', description: 'repeats needed per market for ±half-width (--half-width 0.1) or a change (--change 0.15), with credits a month', args: ['project_id'] },
  tool: {
    name: 'plan_project_sample',
    title: 'Plan a project sample',
    description:
      "plan_test_sample for every market of a project (give exactly one of half_width or change), with the project's credits per month now and as planned. Free.",
  },
});
