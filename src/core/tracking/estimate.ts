// What a schedule costs, before anything is saved: the schedule's runs in each calendar month
// ahead (in its time zone, the budget's month), what a monthly budget pays for (a run that would
// pass it is skipped, as the scheduler skips it) and the smallest budget that skips no run. Shared
// by the tracked-test estimate (POST /v1/tests/estimate, here) and the project estimate
// (core/projects/estimate.ts), whose runs are one tracked test per market.
import { requireScope, type Principal } from '../accounts/accounts.ts';
import { AppError } from '../errors.ts';
import { toApiTime } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import { calendarMonths, parseSchedule, type Schedule } from './schedule.ts';
import { checkDefinition, createScopeOf, parseBudget, type TrackedTestInput, type TrackingDeps } from './tracked-tests.ts';

/** One calendar month of the schedule: its runs, the runs the budget pays for and their credits. */
interface MonthEstimate {
  month: string;
  from: string;
  scheduled_runs: number;
  runs_within_budget: number | null;
  credits: string;
}

/**
 * The month figures of a schedule whose every slot runs `units` tracked tests (a project's
 * markets; a tracked test is one), each of the given price (hundredths) under its own monthly
 * budget `share` (null: none).
 */
export function scheduleCost(schedule: Schedule | null, units: number[], share: number | null, now: Date, monthsAhead: number) {
  if (!Number.isInteger(monthsAhead) || monthsAhead < 1 || monthsAhead > 24) throw new AppError('invalid_request', 'months must be 1 to 24.');
  const perRun = units.reduce((a, c) => a + c, 0);
  // Runs a month every unit's budget pays for: a later run that would pass it is skipped (null:
  // no budget, or runs that cost nothing).
  const paying = units.filter((c) => c > 0);
  const affordable = share === null || paying.length === 0 ? null : Math.min(...paying.map((c) => Math.floor(share / c)));
  const coveredRuns = (runs: number) => (share === null ? null : affordable === null ? runs : Math.min(runs, affordable));

  const months = schedule ? calendarMonths(schedule, now, monthsAhead) : null;
  const monthRows: MonthEstimate[] | null =
    months?.map((m) => {
      const within = coveredRuns(m.runs);
      return { month: m.month, from: toApiTime(m.from.toISOString()), scheduled_runs: m.runs, runs_within_budget: within, credits: formatCredits((within ?? m.runs) * perRun) };
    }) ?? null;
  // The full months (the current one is partial): their average and their busiest.
  const full = months?.slice(1) ?? [];
  const busiest = full.length ? Math.max(...full.map((m) => m.runs)) : null;
  const average = full.length ? full.reduce((a, m) => a + m.runs, 0) / full.length : null;
  const dearest = Math.max(0, ...units);
  return {
    runs_per_month: busiest === null ? null : { average: Math.round(average! * 100) / 100, busiest, fewest: Math.min(...full.map((m) => m.runs)) },
    credits_per_month: busiest === null ? null : { average: formatCredits(Math.round(average! * perRun)), busiest: formatCredits(busiest * perRun) },
    // Runs a month the budget pays for; later ones in a month are skipped (null: no budget, not
    // scheduled, or nothing to pay).
    runs_within_budget_per_month: busiest === null ? null : affordable,
    // The smallest budget that skips no run in any month listed: every unit's budget covers the
    // busiest month's runs of the dearest unit.
    budget_for_every_run: busiest === null ? null : formatCredits(busiest * dearest * units.length),
    months: monthRows,
  };
}

export interface TrackedTestEstimateInput extends TrackedTestInput {
  /** Full calendar months listed after the current one (1..24, default 12). */
  months?: number;
}

/**
 * What a tracked test with this body would cost (free, nothing saved): its definition checked and
 * priced by the same code the create and every run of it use (checkDefinition: the visibility
 * plan's probe prices, or the Content Intelligence depth's price), so a body the create refuses is
 * refused with the same error and a run settles what `credits_per_run` says.
 */
export function estimateTrackedTest(deps: Pick<TrackingDeps, 'visibility'>, principal: Principal, input: TrackedTestEstimateInput, now = new Date()) {
  requireScope(principal, createScopeOf(input.test_type));
  const checked = checkDefinition(deps, input.test_type, input.definition);
  const schedule = input.schedule ? parseSchedule(input.schedule) : null;
  const budget = parseBudget(input.monthly_credit_budget);
  return {
    object: 'test_estimate' as const,
    test_type: input.test_type,
    url: checked.url,
    target_entity: checked.targetEntity,
    probes_per_run: checked.probeCount,
    credits_per_run: formatCredits(checked.estimate),
    schedule,
    monthly_credit_budget: budget === null ? null : formatCredits(budget),
    ...scheduleCost(schedule, [checked.estimate], budget, now, input.months ?? 12),
  };
}
