// Projects' request and response shapes: the brand, competitors, markets, the prompt library.
import { z } from 'zod';
import { PLATFORMS } from '../../platforms/types.ts';
import { Budget, Schedule } from '../tests/shapes.ts';

/**
 * The error of an object field sent as something else (a brand or a market as a string, as the
 * CLI and the console take them): zod's "expected object, received string" with the shape to send.
 */
const objectLike = (example: string) => ({
  error: (issue: { code?: string; input?: unknown }) => {
    if (issue.code !== 'invalid_type' || issue.input === undefined) return undefined;
    const received = issue.input === null ? 'null' : Array.isArray(issue.input) ? 'array' : typeof issue.input;
    return `Invalid input: expected an object such as ${example}, received ${received}`;
  },
});

const Brand = z
  .object(
    {
      name: z.string().min(1).max(200).describe('The name answers are searched for'),
      aliases: z.array(z.string().max(200)).max(20).optional().describe('Other names of the brand'),
      domains: z.array(z.string().max(253)).max(20).optional().describe('Domains the brand owns (e.g. acme.com)'),
    },
    objectLike('{"name": "Acme", "aliases": ["Acme Inc"], "domains": ["acme.example"]}'),
  )
  .strict();

export const PromptItem = z
  .object(
    { prompt: z.string().min(1).max(500), topics: z.array(z.string().max(60)).max(20).optional().describe('Tags, e.g. ["pricing"]') },
    objectLike('{"prompt": "best crm for agencies", "topics": ["crm"]}'),
  )
  .strict();

export const ProjectFields = {
  name: z.string().max(200).nullish().describe('Display name; default: the brand name'),
  url: z.string().max(2048).describe("The brand's page or site, e.g. https://acme.example/"),
  brand: Brand.describe('The brand: {name, aliases, domains}'),
  competitors: z.array(Brand.describe('A competitor: {name, aliases, domains}')).max(10).optional().describe('Up to 10 competitors, each with aliases and domains'),
  markets: z
    .array(z.object({ language: z.string().min(2).max(16), country: z.string().min(2).max(8) }, objectLike('{"language": "en", "country": "US"} (en-US)')).strict())
    .min(1)
    .max(10)
    .optional()
    .describe('Language + country pairs; one tracked test per market (default en-US)'),
  platforms: z.array(z.enum(PLATFORMS)).min(1).describe('Platforms every prompt is asked on'),
  models: z.record(z.string(), z.string()).nullish().describe('Model per platform (id or keyword), as in a visibility run'),
  repeats: z.number().int().min(1).max(10).optional().describe('Asks per prompt × platform per run (1..10, default 1)'),
  schedule: Schedule.nullish().describe('When its tests run: {cron, timezone}; null: only on demand'),
  monthly_credit_budget: Budget.describe('Credits a month for the project, shared evenly between its markets; null = no budget'),
};

export const Project = z
  .object({
    id: z.string(),
    object: z.literal('project'),
    name: z.string(),
    url: z.string(),
    brand: z.object({ name: z.string(), aliases: z.array(z.string()), domains: z.array(z.string()) }),
    competitors: z.array(z.object({ name: z.string(), aliases: z.array(z.string()), domains: z.array(z.string()) })),
    markets: z.array(z.object({ language: z.string(), country: z.string() })),
    platforms: z.array(z.string()),
    repeats: z.number().int(),
    prompt_count: z.number().int(),
    topics: z.array(z.object({ topic: z.string(), prompts: z.number().int() })),
    tests: z.array(z.object({ test_id: z.string(), market: z.string().nullable() }).passthrough()).describe('Its tracked tests, one per market'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .passthrough();

const Period = z.object({ start: z.string(), end: z.string() });

/** A project's latest figures in a list (core/projects/dashboard.ts projectGlances). */
export const ProjectGlance = z
  .object({
    window: z.literal('7d').describe('The windows compared: the dashboard default, 7 days'),
    days: z.number().int().describe('How far back runs are read: 90'),
    latest_period: Period.nullable().describe('The latest window with runs; null without runs in the last 90 days'),
    run_count: z.number().int().describe('Comparable runs in the latest window'),
    complete: z.boolean().describe('False while a run of the latest window is still going: its rate may move, and it is not compared yet'),
    engine: z.enum(['sandbox', 'live', 'mixed']).nullable().describe('Which engine answered the latest window: sandbox (simulated answers), live or mixed; null without runs'),
    mention_rate: z.number().nullable().describe("The brand's mention rate in the latest window, as the dashboard's"),
    mention_rate_ci: z.object({ low: z.number(), high: z.number() }).nullable().describe('Its 95% Wilson interval'),
    visibility_band: z.string().nullable().describe('Invisible, Low, Moderate, Good or Strong'),
    n: z.number().int().describe('The answers the rate rests on'),
    thin: z.boolean().describe('n < 10 or an interval wider than ±0.20'),
    previous_period: Period.nullable().describe('The most recent earlier window that asked the same (each market the same prompts, platforms, repeats and competitors); null when none'),
    previous_mention_rate: z.number().nullable(),
    change: z.number().nullable().describe('Latest rate minus the previous one; null without a comparable earlier window'),
    change_significant: z.boolean().nullable().describe('Whether the change is larger than the noise (two-proportion z-test at 95%)'),
    p_value: z.number().nullable(),
    last_run_at: z.string().nullable().describe("When one of the project's tests last ran"),
  })
  .describe("The project's latest figures, computed for the whole list at once");

export const ProjectId = z.object({ project_id: z.string().max(64).describe('Project id (proj_…)') });
