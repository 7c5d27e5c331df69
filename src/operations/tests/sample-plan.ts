// GET /v1/tests/{test_id}/sample-plan: how many repeats per prompt × platform the test needs for
// an interval half-width or to detect a change, from the rates seen so far, and the credits a
// month that costs on its schedule. Free: it reads and computes.
import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { PLAN_LEVELS, testSamplePlan, type PlanWindow, type SampleGoal, type SamplePlanOptions } from '../../core/tracking/sample-plan.ts';
import { HISTORY_WINDOWS } from '../../core/tracking/history.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';

export const SamplePlanQuery = {
  half_width: z.coerce.number().min(0.01).max(0.5).optional().describe('Goal: the 95% (or `confidence`) interval at most ± this, e.g. 0.10'),
  change: z.coerce.number().min(0.01).max(0.9).optional().describe('Goal: detect a change of this size between two periods, e.g. 0.15'),
  direction: filterParam(['drop', 'rise']).describe('The change to detect: drop (default) or rise'),
  confidence: z.coerce.number().min(0.5).max(0.999).default(0.95).describe('Confidence level, default 0.95'),
  power: z.coerce.number().min(0.5).max(0.99).default(0.8).describe('Power for a change goal, default 0.8'),
  level: filterParam(PLAN_LEVELS).describe('prompt_platform (default): every prompt × platform reaches the goal; overall: the test rate does'),
  window: filterParam(HISTORY_WINDOWS).describe('A period compared: one run (default) or the runs of a 7d or 30d window'),
  days: clampedInt(90, 1, 730),
};

/** The goal from the query: exactly one of half_width and change. */
export function sampleGoal(q: { half_width?: number; change?: number; direction?: string; confidence: number; power: number }): SampleGoal {
  if ((q.half_width === undefined) === (q.change === undefined)) {
    throw new AppError('invalid_request', 'Give exactly one goal: half_width (e.g. 0.10) or change (e.g. 0.15).');
  }
  if (q.half_width !== undefined) return { type: 'half_width', half_width: q.half_width, confidence: q.confidence };
  return { type: 'change', change: q.change!, direction: filterValue('direction', q.direction, ['drop', 'rise'] as const) ?? 'drop', confidence: q.confidence, power: q.power };
}

/** The planner's options from the query (shared with the project's plan). */
export function samplePlanOptions(
  a: { half_width?: number; change?: number; direction?: string; confidence: number; power: number; level?: string; window?: string; days: number },
  catalog: SamplePlanOptions['catalog'],
): SamplePlanOptions {
  return {
    goal: sampleGoal(a),
    level: filterValue('level', a.level, PLAN_LEVELS) ?? 'prompt_platform',
    window: (filterValue('window', a.window, HISTORY_WINDOWS) ?? 'run') as PlanWindow,
    days: a.days,
    catalog,
  };
}

export const SamplePlanResponse = z
  .object({
    goal: z.object({ type: z.enum(['half_width', 'change']) }).passthrough(),
    repeats_needed: z.number().int().nullable().describe('Repeats per prompt × platform per run the goal needs; null when none reaches it'),
    repeats_recommended: z.number().int().describe('repeats_needed capped at max_repeats'),
    feasible: z.boolean(),
    cells: z.array(z.object({ prompt: z.string(), platform: z.string(), probes_needed_per_period: z.number().int().nullable(), repeats_per_run: z.number().int().nullable() }).passthrough()),
    runs_per_month: z.number().int().nullable(),
    current: z.object({ credits_per_run: z.string(), credits_per_month: z.string().nullable() }),
    planned: z.object({ credits_per_run: z.string(), credits_per_month: z.string().nullable() }),
  })
  .passthrough();

export default defineRoute({
  method: 'GET',
  url: '/v1/tests/:test_id/sample-plan',
  summary: 'Plan the sample: repeats per prompt × platform for an interval half-width or to detect a change, and the credits a month',
  tags: ['tests'],
  action: 'tests.sample_plan',
  scope: 'tests:read',
  params: z.object({ test_id: z.string().max(64).describe('Tracked test id (test_…)') }),
  querystring: z.object(SamplePlanQuery),
  response: SamplePlanResponse.extend({ test_id: z.string() }),
  errors: [400, 404, 422],
  run: (a, ctx, core) =>
    testSamplePlan(core.store, ctx.accountId, a.test_id, samplePlanOptions(a, core.catalog)),
  cli: { command: 'tests plan', description: 'repeats needed for ±half-width (--half-width 0.1) or to detect a change (--change 0.15), with credits a month', args: ['test_id'] },
  tool: {
    name: 'plan_test_sample',
    title: 'Plan a tracked test sample',
    description:
      'How many repeats per prompt × platform a tracked test needs so its 95% Wilson interval is at most ±half_width (e.g. 0.10), or to detect a change (e.g. 0.15 drop at 95% confidence, 80% power; two-proportion sample size), from the rates seen so far (50% where none), with the credits per run and per month on its schedule. Give exactly one of half_width or change. Free.',
  },
});
