// POST /v1/projects/estimate: what a project with these settings would cost (free, nothing saved):
// one run of every market, the schedule's runs in each calendar month ahead, what the budget pays
// for and the smallest budget that skips no run.
import { z } from 'zod';
import { estimateProject } from '../../core/projects/estimate.ts';
import { defineRoute } from '../define.ts';
import { ProjectFields, PromptItem } from './shapes.ts';

export const Credits = z.string().describe('Credits, e.g. "12.50"');

/** What a schedule costs a month: the same figures in the project and the tracked-test estimate. */
export const ScheduleCostFields = {
  runs_per_month: z
    .object({ average: z.number(), busiest: z.number().int(), fewest: z.number().int() })
    .nullable()
    .describe('Scheduled runs in the full calendar months listed; null when not scheduled'),
  credits_per_month: z.object({ average: Credits, busiest: Credits }).nullable().describe('What the schedule costs a month without a budget'),
  runs_within_budget_per_month: z
    .number()
    .int()
    .nullable()
    .describe('Runs a month the budget pays for (a later run in a month is skipped); null without a budget, a schedule or a cost'),
  budget_for_every_run: Credits.nullable().describe('The smallest monthly budget under which no scheduled run is skipped in any month listed'),
  months: z
    .array(
      z.object({
        month: z.string().describe('YYYY-MM in the schedule time zone'),
        from: z.string().describe('Where the count starts: now for the current month, else its first instant'),
        scheduled_runs: z.number().int(),
        runs_within_budget: z.number().int().nullable(),
        credits: Credits.describe('What the runs that would run cost'),
      }),
    )
    .nullable()
    .describe('The rest of this month, then each full month ahead; null when not scheduled'),
};

export const ProjectEstimate = z.object({
  object: z.literal('project_estimate'),
  prompt_count: z.number().int(),
  market_count: z.number().int(),
  probes_per_run: z.number().int().describe('Probes one run of every market asks (prompts × platforms × repeats × markets)'),
  credits_per_run: Credits.describe('One run of every market'),
  markets: z.array(
    z.object({ market: z.string(), credits_per_run: Credits, monthly_credit_budget: Credits.nullable().describe("The market's even share of the budget") }),
  ),
  schedule: z.object({ cron: z.string(), timezone: z.string() }).nullable(),
  monthly_credit_budget: Credits.nullable(),
  ...ScheduleCostFields,
});

export default defineRoute({
  method: 'POST',
  url: '/v1/projects/estimate',
  summary: 'Quote a project (free): one run of every market, runs and credits per calendar month, what the budget pays for',
  tags: ['projects'],
  action: 'projects.estimate',
  scope: 'visibility:runs:create',
  body: z.object({
    ...ProjectFields,
    // The create's body is taken as it is; what does not set the price may be left out.
    url: ProjectFields.url.optional(),
    brand: ProjectFields.brand.optional(),
    prompts: z.array(PromptItem).max(1000).optional().describe('The prompts, as create_project takes them (or give prompt_count)'),
    prompt_count: z.number().int().min(0).max(1000).optional().describe('Prompts in the library; every run asks each one (default: the prompts given)'),
    months: z.number().int().min(1).max(24).optional().describe('Full calendar months listed after the current one (default 12)'),
  }),
  response: ProjectEstimate,
  errors: [400, 422],
  run: (a, _ctx, core) => estimateProject(core.tracking, a),
  cli: {
    command: 'projects estimate',
    description: 'what a project would cost: a run, each month of its schedule, what a budget pays for (free)',
    flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' },
  },
  tool: {
    name: 'estimate_project',
    title: 'Quote a project (free)',
    readOnly: true,
    description:
      'Free, saves nothing. Before create_project: takes the create_project arguments (or only what sets the cost: prompt_count, markets, platforms, models, repeats, schedule {cron, timezone}, monthly_credit_budget) and answers credits_per_run, the scheduled runs and credits of each calendar month ahead, runs_within_budget_per_month and budget_for_every_run (the smallest budget that skips no run). Refuses what create_project would refuse (an unknown model, more than 2,000 probes a run).',
  },
});
