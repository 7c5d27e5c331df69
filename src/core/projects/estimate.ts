// What a project would cost before it exists (POST /v1/projects/estimate): one run of every market,
// the schedule's runs in each calendar month ahead (in the schedule's time zone, the budget's
// month), what the budget pays for, and the smallest budget that skips no run. The same checks and
// prices as the create: a definition that a create would refuse (a model that does not exist, more
// probes than a run may hold) is refused here with the same error.
import { AppError } from '../errors.ts';
import { formatCredits } from '../money.ts';
import { scheduleCost } from '../tracking/estimate.ts';
import { parseSchedule } from '../tracking/schedule.ts';
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
  return {
    object: 'project_estimate' as const,
    prompt_count: promptCount,
    market_count: markets.length,
    probes_per_run: probesPerRun,
    credits_per_run: formatCredits(perRun),
    markets: perMarket.map((m) => ({ market: m.market, credits_per_run: formatCredits(m.credits), monthly_credit_budget: share === null ? null : formatCredits(share) })),
    schedule,
    monthly_credit_budget: budget === null ? null : formatCredits(budget),
    // Each market's test runs on every slot under its share of the budget.
    ...scheduleCost(schedule, perMarket.map((m) => m.credits), share, now, monthsAhead),
  };
}
