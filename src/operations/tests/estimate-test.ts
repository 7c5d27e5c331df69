// POST /v1/tests/estimate: what a tracked test with this body would cost (free, nothing saved):
// one run of its definition, priced by the code its runs are priced by, the schedule's runs in
// each calendar month ahead, what the budget pays for and the smallest budget that skips no run.
// The scope is the create scope of the run kind, checked by the core, as for the create.
import { z } from 'zod';
import { estimateTrackedTest } from '../../core/tracking/estimate.ts';
import { TEST_TYPES } from '../../core/tracking/tests.ts';
import { Credits, ScheduleCostFields } from '../projects/estimate-project.ts';
import { defineRoute } from '../define.ts';
import { CreateTestBody } from './create-test.ts';
import { parseDefinition } from './shapes.ts';

export const TestEstimate = z.object({
  object: z.literal('test_estimate'),
  test_type: z.enum(TEST_TYPES),
  url: z.string().describe("The definition's URL, as the test would keep it"),
  target_entity: z.string().nullable().describe('The brand a visibility definition tracks; null for Content Intelligence'),
  probes_per_run: z.number().int().nullable().describe('Probes one visibility run asks (prompts × platforms × repeats, or the explicit probes); null for Content Intelligence'),
  credits_per_run: Credits.describe('What one run reserves and, when every probe answers, settles'),
  schedule: z.object({ cron: z.string(), timezone: z.string() }).nullable(),
  monthly_credit_budget: Credits.nullable(),
  ...ScheduleCostFields,
});

export default defineRoute({
  method: 'POST',
  url: '/v1/tests/estimate',
  summary: 'Quote a tracked test (free): one run of its definition, runs and credits per calendar month, what the budget pays for',
  tags: ['tests'],
  action: 'tests.estimate',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  body: CreateTestBody.extend({
    months: z.number().int().min(1).max(24).optional().describe('Full calendar months listed after the current one (default 12)'),
  }),
  response: TestEstimate,
  errors: [400, 422],
  run: (a, _ctx, core, principal) => estimateTrackedTest(core.tracking, principal, { ...a, definition: parseDefinition(a.test_type, a.definition) }),
  cli: {
    command: 'tests estimate',
    description: 'what a tracked test would cost: a run, each month of its schedule, what a budget pays for (free)',
    flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' },
  },
  tool: {
    name: 'estimate_test',
    title: 'Quote a tracked test (free)',
    readOnly: true,
    description:
      "Free, saves nothing. Before create_tracked_test: takes the create_tracked_test arguments (test_type, definition, schedule {cron, timezone}, monthly_credit_budget) and answers credits_per_run, priced as the test's runs are (a visibility definition: each probe's model price from list_visibility_models; Content Intelligence: 3 credits score, 6 full), the scheduled runs and credits of each calendar month ahead, runs_within_budget_per_month and budget_for_every_run (the smallest budget that skips no run). Refuses what create_tracked_test would refuse, with the same error.",
  },
});
