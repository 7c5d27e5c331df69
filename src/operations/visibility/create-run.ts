import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { PLATFORMS } from '../../platforms/types.ts';
import { createVisibilityRun } from '../../core/visibility/runs.ts';
import { MAX_BRAND_TERMS, MAX_REPEATS, type CreateRunInput } from '../../core/visibility/plan.ts';
import { RUN_COST } from './shapes.ts';
import { defineRoute } from '../define.ts';

const Platform = z.enum(PLATFORMS);
const Prompt = z.string().min(1).max(INPUT_LIMITS.prompt);

const Repeats = z.number().int().min(1).max(MAX_REPEATS);

export const CreateVisibilityRunBody = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Target URL being evaluated'),
  target_entity: z.string().max(INPUT_LIMITS.name).describe('Brand, product or entity to detect'),
  prompts: z.array(Prompt).max(2000).optional().describe('Matrix mode: questions to ask every platform (≤ 500 characters each); with platforms, instead of probes'),
  platforms: z.array(Platform).max(50).optional().describe('Matrix mode: platforms to ask every prompt'),
  probes: z
    .array(
      z.object({
        prompt: Prompt,
        platform: Platform,
        model: z.string().max(INPUT_LIMITS.model).optional(),
        language: z.string().max(INPUT_LIMITS.language).optional(),
        country: z.string().max(INPUT_LIMITS.country).optional(),
        city: z.string().max(INPUT_LIMITS.name).optional().describe('City within the country, for consumer surfaces that take one'),
        target_entity: z.string().max(INPUT_LIMITS.name).optional(),
        repeats: Repeats.optional().describe('How many times this probe is asked; defaults to the run\'s repeats'),
      }),
    )
    .max(2000)
    .optional()
    .describe('Explicit mode: each probe with its own platform, model, language, country and target; instead of prompts and platforms'),
  models: z.record(z.string().max(INPUT_LIMITS.model), z.string().max(INPUT_LIMITS.model)).optional().describe('Matrix mode: platform → model id or default/latest/prior'),
  repeats: Repeats.optional().describe('Ask each (prompt, platform) probe this many times, as separate billed probes (default 1)'),
  competitors: z
    .array(
      z.union([
        z.string().max(INPUT_LIMITS.name),
        z
          .object({
            name: z.string().max(INPUT_LIMITS.name),
            aliases: z.array(z.string().max(INPUT_LIMITS.name)).max(MAX_BRAND_TERMS).optional().describe('Other names that count as this competitor'),
            domains: z.array(z.string().max(INPUT_LIMITS.url)).max(MAX_BRAND_TERMS).optional().describe("The competitor's domains: citations of them are classed as this competitor's"),
          }),
      ]),
    )
    .max(10)
    .optional()
    .describe('Competitors to count in every answer (at most 10): a name, or {name, aliases, domains}'),
  target_aliases: z
    .array(z.string().max(INPUT_LIMITS.name))
    .max(MAX_BRAND_TERMS)
    .optional()
    .describe('Other names of the target that count as mentions of it (a short name, a former name; at most 10)'),
  target_domains: z
    .array(z.string().max(INPUT_LIMITS.url))
    .max(MAX_BRAND_TERMS)
    .optional()
    .describe("The target's domains besides the URL's: citing them counts as citation_mentioned and as owned (at most 10)"),
  language: z.string().max(INPUT_LIMITS.language).optional().describe('Answer language (e.g. en, de); default en'),
  country: z.string().max(INPUT_LIMITS.country).optional().describe('Country the question is asked from (e.g. US, DE); default US'),
  city: z
    .string()
    .max(INPUT_LIMITS.name)
    .optional()
    .describe('City the question is asked from, for consumer surfaces that take one (supports_city in the models listing); others ignore it'),
  idempotency_key: z.string().max(INPUT_LIMITS.idempotencyKey).optional().describe('Retry-safe key: the same key with the same body returns the same run, charged once'),
}).meta({
  examples: [
    {
      url: 'https://acme.example',
      target_entity: 'Acme',
      competitors: ['Globex'],
      prompts: ['best project management software for small teams', 'acme vs globex'],
      platforms: ['openai', 'perplexity', 'gemini'],
      repeats: 2,
      idempotency_key: 'weekly-2026-11-23',
    },
  ],
});

/**
 * The body and the core's CreateRunInput declare one request twice (the core cannot import this
 * schema). They must keep the same fields, each assignable to the other: a field added to one
 * alone fails the typecheck here.
 */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? ([keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false) : false) : false;
type ProbeOf<T> = T extends { probes?: (infer P)[] } ? P : never;
type Body = z.output<typeof CreateVisibilityRunBody>;
export const bodyMatchesCreateRunInput: Mutual<Body, CreateRunInput> & Mutual<ProbeOf<Body>, ProbeOf<CreateRunInput>> = true;

export const CreateVisibilityRunResponse = z.object({
  action_decision_id: z.string(),
  run_id: z.string(),
  status: z.enum(['queued', 'partially_queued']),
  estimated_credits: z.string(),
  reserved_credits: z.string(),
  probe_count: z.number().int(),
  queued_probe_count: z.number().int(),
  skipped_probe_count: z.number().int(),
  skipped_reason: z.string().nullable(),
  prompt_count: z.number().int(),
  platform_count: z.number().int(),
  idempotent_replay: z.boolean().optional(),
});

export default defineRoute({
  method: 'POST',
  url: '/v1/visibility/runs',
  summary: 'Queue a visibility run (matrix or explicit probes); reserves credits probe by probe',
  tags: ['visibility'],
  action: 'visibility.runs.create',
  scope: 'visibility:runs:create',
  body: CreateVisibilityRunBody,
  response: CreateVisibilityRunResponse,
  errors: [400, 402, 413, 422],
  run: (a, ctx, core) => createVisibilityRun(core.visibility, ctx, a),
  cli: { command: 'visibility run', description: 'queue a run (reserves credits); --watch follows it to the end', args: ['url'], flags: { target_entity: 'brand' }, files: ['prompts'] },
  tool: {
    name: 'create_visibility_run',
    title: 'Queue a visibility run', openWorld: true,
    description:
      'Queue an AI Visibility run: does each AI platform mention target_entity when asked the prompts? Give prompts+platforms (matrix) or probes (explicit); repeats asks each probe several times. ' + RUN_COST + ' Then poll get_visibility_run until a terminal status and read answers with get_visibility_probe.',
  },
});
