// What a project would cost before it exists (POST /v1/projects/estimate): one run of every market,
// the schedule's runs in each calendar month ahead (in the schedule's time zone, the budget's
// month), what the budget pays for, and the smallest budget that skips no run. The same checks and
// prices as the create: a definition that a create would refuse (a model that does not exist, more
// probes than a run may hold) is refused here with the same error.
import { AppError } from '../errors.ts';
import { toApiTime } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import { calendarMonths, parseSchedule } from '../tracking/schedule.ts';
import { checkDefinition, parseBudget, type TrackingDeps } from '../tracking/tracked-tests.ts';
import { normalizePrompt } from './prompts.ts';
import { cleanMarkets, marketDefinition, marketKey, type ProjectInput } from './projects.ts';

export interface ProjectEstimateInput extends Pick<ProjectInput, 'markets' | 'platforms' | 'models' | 'repeats' | 'schedule' | 'monthly_credit_budget'> {
  /** Prompts in the library (the runs ask every one); default: the distinct prompts given. */
  prompt_count?: number;
  prompts?: { prompt: string }[];
  /** Full calendar months listed after the current one (1..24, default 12). */
  months?: number;
}

/** One calendar month of the schedule: its runs, the runs the budget pays for and their credits. */
interface MonthEstimate {
  month: string;
  from: string;
  scheduled_runs: number;
  runs_within_budget: number | null;
  credits: string;
}

// The estimate prices a definition like the market's tracked test, with stand-in prompts (the
// price of a probe does not depend on its prompt's words, only on its platform and model).
const STAND_IN = { url: 'https://estimate.invalid/', brand: { name: 'estimate' } } as const;

export function estimateProject(deps: Pick<TrackingDeps, 'visibility'>, input: ProjectEstimateInput, now = new Date()) {
  const markets = cleanMarkets(input.markets);
  const schedule = input.schedule ? parseSchedule(input.schedule) : null;
  const budget = parseBudget(input.monthly_credit_budget);
  const monthsAhead = input.months ?? 12;
  const promptCount = input.prompt_count ?? new Set((input.prompts ?? []).map((p) => normalizePrompt(p.prompt)).filter(Boolean)).size;
  if (!Number.isInteger(promptCount) || promptCount < 0) throw new AppError('invalid_request', 'prompt_count must be a whole number of prompts, 0 or more.');
  if (!Number.isInteger(monthsAhead) || monthsAhead < 1 || monthsAhead > 24) throw new AppError('invalid_request', 'months must be 1 to 24.');

  const prompts = Array.from({ length: promptCount }, (_, i) => `prompt ${i + 1}`);
  const perMarket = markets.map((m) => {
    // Without prompts a project's tests hold no definition: nothing runs and nothing is charged.
    const credits = prompts.length ? checkDefinition(deps, 'ai_citations', marketDefinition({ ...input, ...STAND_IN }, m, prompts)).estimate : 0;
    return { market: marketKey(m), credits };
  });
  const perRun = perMarket.reduce((a, m) => a + m.credits, 0);
  const probesPerRun = promptCount * new Set(input.platforms).size * (input.repeats ?? 1) * markets.length;
  // The server gives each market's test an even share of the budget, rounded down to a hundredth.
  const share = budget === null ? null : Math.floor(budget / markets.length);
  // Runs a month every market's share pays for: a later run that would pass it is skipped (null:
  // no budget, or runs that cost nothing).
  const paying = perMarket.filter((m) => m.credits > 0);
  const affordable = share === null || paying.length === 0 ? null : Math.min(...paying.map((m) => Math.floor(share / m.credits)));
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
  const mostPerMarket = Math.max(0, ...perMarket.map((m) => m.credits));
  return {
    object: 'project_estimate' as const,
    prompt_count: promptCount,
    market_count: markets.length,
    probes_per_run: probesPerRun,
    credits_per_run: formatCredits(perRun),
    markets: perMarket.map((m) => ({ market: m.market, credits_per_run: formatCredits(m.credits), monthly_credit_budget: share === null ? null : formatCredits(share) })),
    schedule,
    runs_per_month: busiest === null ? null : { average: Math.round(average! * 100) / 100, busiest, fewest: Math.min(...full.map((m) => m.runs)) },
    credits_per_month: busiest === null ? null : { average: formatCredits(Math.round(average! * perRun)), busiest: formatCredits(busiest * perRun) },
    monthly_credit_budget: budget === null ? null : formatCredits(budget),
    // Runs a month the budget pays for; later ones in a month are skipped (null: no budget, not
    // scheduled, or nothing to pay).
    runs_within_budget_per_month: busiest === null ? null : affordable,
    // The smallest budget that skips no run in any month listed: every market's share covers
    // the busiest month's runs of the dearest market.
    budget_for_every_run: busiest === null ? null : formatCredits(busiest * mostPerMarket * markets.length),
    months: monthRows,
  };
}
