// Projects' request and response shapes: the brand, competitors, markets, the prompt library.
import { z } from 'zod';
import { PLATFORMS } from '../../platforms/types.ts';
import { Budget, Schedule } from '../tests/shapes.ts';

const Brand = z
  .object({
    name: z.string().min(1).max(200).describe('The name answers are searched for'),
    aliases: z.array(z.string().max(200)).max(20).optional().describe('Other names of the brand'),
    domains: z.array(z.string().max(253)).max(20).optional().describe('Domains the brand owns (e.g. acme.com)'),
  })
  .strict();

export const PromptItem = z
  .object({ prompt: z.string().min(1).max(500), topics: z.array(z.string().max(60)).max(20).optional().describe('Tags, e.g. ["pricing"]') })
  .strict();

export const ProjectFields = {
  name: z.string().max(200).nullish().describe('Display name; default: the brand name'),
  url: z.string().max(2048).describe("The brand's page or site, e.g. https://acme.example/"),
  brand: Brand.describe('The brand: {name, aliases, domains}'),
  competitors: z.array(Brand.describe('A competitor: {name, aliases, domains}')).max(10).optional().describe('Up to 10 competitors, each with aliases and domains'),
  markets: z
    .array(z.object({ language: z.string().min(2).max(16), country: z.string().min(2).max(8) }).strict())
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

export const ProjectId = z.object({ project_id: z.string().max(64).describe('Project id (proj_…)') });
