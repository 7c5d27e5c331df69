// The sample planner: how many repeats per prompt × platform a tracked test needs before its
// numbers are firm enough, and what that costs a month. Two goals:
//   - an interval half-width (e.g. ±0.10): the smallest n whose 95% Wilson interval around the
//     rate is at most that wide on each side (the interval the API reports, stats.ts);
//   - a change to detect (e.g. a 0.15 drop at 95% confidence and 80% power): n per period from the
//     two-proportion sample-size formula without continuity correction (Fleiss, Statistical
//     Methods for Rates and Proportions, 3rd ed., 4.2), the test the history's comparison runs.
// Rates come from the comparable runs seen so far for each prompt × platform (0.5, the most
// demanding, where nothing succeeded yet). Pure arithmetic at the top, one loader below.
import { AppError } from '../errors.ts';
import { formatCredits } from '../money.ts';
import type { Store } from '../../db/store.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { MAX_REPEATS, planRun, type CreateRunInput } from '../visibility/plan.ts';
import { plannedDefinitionId, splitComparable } from './comparable.ts';
import { loadVisibilityRuns } from './history.ts';
import { countSlots } from './schedule.ts';
import { normalCdf, round4, Z_95 } from '../../lib/stats.ts';
import { findTest } from './tests.ts';

/** The largest n the planner reports; a goal needing more is reported as not reachable. */
export const MAX_PLANNED_N = 1_000_000;

/** The standard normal quantile: normalCdf inverted by bisection (to about 1e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('normalQuantile needs 0 < p < 1');
  let lo = -12;
  let hi = 12;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** z of a two-sided interval at `confidence`; exactly the API's Z_95 at 0.95. */
export const zFor = (confidence: number) => (confidence === 0.95 ? Z_95 : normalQuantile(1 - (1 - confidence) / 2));

/** Half the width of the Wilson score interval at observed rate `p` over `n` trials. */
export function wilsonHalfWidth(p: number, n: number, z: number): number {
  const z2 = z * z;
  return ((z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n)));
}

/** The smallest n whose Wilson interval at rate `p` is at most ±`halfWidth` (null past MAX_PLANNED_N). */
export function trialsForHalfWidth(p: number, halfWidth: number, z: number): number | null {
  if (wilsonHalfWidth(p, MAX_PLANNED_N, z) > halfWidth) return null;
  let lo = 1;
  let hi = MAX_PLANNED_N;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (wilsonHalfWidth(p, mid, z) <= halfWidth) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * n per period to detect a move from p1 to p2 with a two-sided two-proportion test at level
 * `confidence` and the given power: [z_(1−α/2)·√(2·p̄·q̄) + z_β·√(p1·q1 + p2·q2)]² ÷ (p1 − p2)².
 */
export function trialsForChange(p1: number, p2: number, confidence: number, power: number): number | null {
  const d = Math.abs(p1 - p2);
  if (d === 0) return null;
  const za = zFor(confidence);
  const zb = normalQuantile(power);
  const pbar = (p1 + p2) / 2;
  const n = (za * Math.sqrt(2 * pbar * (1 - pbar)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (d * d);
  // Rounding away float noise before the ceiling: 169.00000000001 needs 169, not 170.
  const needed = Math.ceil(Math.round(n * 1e6) / 1e6);
  return needed > MAX_PLANNED_N ? null : Math.max(1, needed);
}

export type SampleGoal =
  | { type: 'half_width'; half_width: number; confidence: number }
  | { type: 'change'; change: number; direction: 'drop' | 'rise'; confidence: number; power: number };

/**
 * The rate a change is measured to: `change` below (drop) or above (rise) the rate seen, turned
 * the other way when it would leave 0..1 (a 15-point drop from 10% is planned as a rise to 25%).
 */
export function changedRate(p: number, goal: Extract<SampleGoal, { type: 'change' }>): number {
  const signed = goal.direction === 'drop' ? -goal.change : goal.change;
  const target = p + signed;
  return target < 0 || target > 1 ? p - signed : target;
}

/** n per period for `goal` at the rate `p`. */
export function trialsNeeded(p: number, goal: SampleGoal): number | null {
  if (goal.type === 'half_width') return trialsForHalfWidth(p, goal.half_width, zFor(goal.confidence));
  return trialsForChange(p, changedRate(p, goal), goal.confidence, goal.power);
}

const WINDOW_MS = { run: 0, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type PlanWindow = keyof typeof WINDOW_MS;
export const PLAN_LEVELS = ['prompt_platform', 'overall'] as const;
export type PlanLevel = (typeof PLAN_LEVELS)[number];
const MONTH_MS = 30 * 86_400_000;

export interface SamplePlanOptions {
  goal: SampleGoal;
  level: PlanLevel;
  /** What one compared period is: one run, or the runs of a 7- or 30-day window (history's windows). */
  window: PlanWindow;
  /** How far back rates are read from. */
  days: number;
  catalog: Catalog;
  now?: Date;
}

interface Cell {
  prompt: string;
  platform: string;
  price: number;
  repeats: number;
  succeeded: number;
  mentions: number;
}

/** The planned cells of a definition (prompt × platform, in asking order) with their price and repeats. */
function definitionCells(definition: CreateRunInput, catalog: Catalog): Cell[] {
  const cells = new Map<string, Cell>();
  for (const p of planRun(definition, catalog, () => true).probes) {
    const key = JSON.stringify([p.prompt, p.platform]);
    const cell = cells.get(key);
    if (cell) cell.repeats++;
    else cells.set(key, { prompt: p.prompt, platform: p.platform, price: p.price, repeats: 1, succeeded: 0, mentions: 0 });
  }
  return [...cells.values()];
}

/** The sample plan of a tracked visibility test (GET /v1/tests/{id}/sample-plan). */
export async function testSamplePlan(store: Store, accountId: string, testId: string, opts: SamplePlanOptions) {
  const test = await findTest(store.db, accountId, testId);
  if (test.test_type !== 'ai_citations' || !test.definition) {
    throw new AppError('invalid_request', 'A sample plan needs a tracked AI citations test with a run definition.', { test_id: testId });
  }
  const now = opts.now ?? new Date();
  const definition = JSON.parse(test.definition) as CreateRunInput;
  const cells = definitionCells(definition, opts.catalog);
  // Rates seen so far: the comparable runs' succeeded probes, per prompt × platform.
  const since = new Date(now.getTime() - opts.days * 86_400_000).toISOString();
  const { runs, probesOf } = await loadVisibilityRuns(store, testId, since);
  const { comparable } = splitComparable(runs, probesOf, plannedDefinitionId(test.definition, opts.catalog));
  const byKey = new Map(cells.map((c) => [JSON.stringify([c.prompt, c.platform]), c]));
  for (const r of comparable) {
    for (const p of probesOf.get(r.id) ?? []) {
      const cell = byKey.get(JSON.stringify([p.prompt, p.platform]));
      if (!cell || p.status !== 'succeeded') continue;
      cell.succeeded++;
      if (p.brand_mentioned === 1) cell.mentions++;
    }
  }
  const schedule = test.schedule_cron ? { cron: test.schedule_cron, timezone: test.schedule_timezone ?? 'UTC' } : null;
  const runsPerMonth = schedule ? countSlots(schedule, now, MONTH_MS) : null;
  // Runs pooled into one compared period: one, or the scheduled runs a window holds (at least one).
  const runsPerPeriod = opts.window === 'run' ? 1 : Math.max(1, schedule ? countSlots(schedule, now, WINDOW_MS[opts.window]) : 1);
  return { test_id: testId, ...planFor(cells, opts, runsPerPeriod, runsPerMonth, test.monthly_credit_budget === null ? null : Number(test.monthly_credit_budget)), rates_from: { days: opts.days, runs: comparable.length } };
}

/** The plan for cells whose rates were counted: needed n, repeats per run and what that costs. */
export function planFor(cells: readonly Cell[], opts: Pick<SamplePlanOptions, 'goal' | 'level' | 'window'>, runsPerPeriod: number, runsPerMonth: number | null, budget: number | null) {
  const z = zFor(opts.goal.confidence);
  const rateOf = (k: number, n: number) => (n === 0 ? 0.5 : k / n);
  const repeatsFor = (needed: number | null, cellsSharing: number) => (needed === null ? null : Math.max(1, Math.ceil(needed / (runsPerPeriod * cellsSharing))));
  const cellPlans = cells.map((c) => {
    const p = rateOf(c.mentions, c.succeeded);
    const needed = trialsNeeded(p, opts.goal);
    return {
      prompt: c.prompt,
      platform: c.platform,
      succeeded_so_far: c.succeeded,
      rate_seen: c.succeeded === 0 ? null : round4(c.mentions / c.succeeded),
      rate_assumed: round4(p),
      current_repeats: c.repeats,
      // The Wilson half-width a period has today at the rate assumed.
      current_half_width: round4(wilsonHalfWidth(p, c.repeats * runsPerPeriod, z)),
      probes_needed_per_period: needed,
      repeats_per_run: repeatsFor(needed, 1),
    };
  });
  const totalSucceeded = cells.reduce((a, c) => a + c.succeeded, 0);
  const overallRate = rateOf(cells.reduce((a, c) => a + c.mentions, 0), totalSucceeded);
  const overallNeeded = trialsNeeded(overallRate, opts.goal);
  const needed =
    opts.level === 'overall'
      ? repeatsFor(overallNeeded, cells.length)
      : cellPlans.some((c) => c.repeats_per_run === null)
        ? null
        : Math.max(...cellPlans.map((c) => c.repeats_per_run!));
  const feasible = needed !== null && needed <= MAX_REPEATS;
  const perRun = (repeats: number) => cells.reduce((a, c) => a + c.price * repeats, 0);
  const recommended = needed === null ? MAX_REPEATS : Math.min(needed, MAX_REPEATS);
  const currentPerRun = cells.reduce((a, c) => a + c.price * c.repeats, 0);
  const monthly = (hundredths: number) => (runsPerMonth === null ? null : formatCredits(hundredths * runsPerMonth));
  return {
    goal: opts.goal,
    level: opts.level,
    window: opts.window,
    runs_per_period: runsPerPeriod,
    overall: {
      succeeded_so_far: totalSucceeded,
      rate_seen: totalSucceeded === 0 ? null : round4(overallRate),
      rate_assumed: round4(overallRate),
      probes_needed_per_period: overallNeeded,
    },
    // What the goal needs per prompt × platform per run (null when no repeats count reaches it).
    repeats_needed: needed,
    // What a definition can ask: at most MAX_REPEATS; `feasible` says whether that reaches the goal.
    repeats_recommended: recommended,
    max_repeats: MAX_REPEATS,
    feasible,
    cells: cellPlans,
    runs_per_month: runsPerMonth,
    current: { credits_per_run: formatCredits(currentPerRun), credits_per_month: monthly(currentPerRun) },
    planned: { credits_per_run: formatCredits(perRun(recommended)), credits_per_month: monthly(perRun(recommended)) },
    monthly_credit_budget: budget === null ? null : formatCredits(budget),
    within_budget: budget === null || runsPerMonth === null ? null : perRun(recommended) * runsPerMonth <= budget,
  };
}
