import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { PLATFORMS } from '../../../platforms/types.ts';
import { createVisibilityRun } from '../../../core/visibility/runs.ts';
import { MAX_REPEATS } from '../../../core/visibility/plan.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute } from '../../schemas.ts';

const Platform = z.enum(PLATFORMS);
const Prompt = z.string().min(1).max(INPUT_LIMITS.prompt);

const Repeats = z.number().int().min(1).max(MAX_REPEATS);

export const CreateVisibilityRunBody = z.object({
  url: z.string().max(INPUT_LIMITS.url).describe('Target URL being evaluated'),
  target_entity: z.string().max(INPUT_LIMITS.name).describe('Brand, product or entity to detect'),
  prompts: z.array(Prompt).max(2000).optional(),
  platforms: z.array(Platform).max(50).optional(),
  probes: z
    .array(
      z.object({
        prompt: Prompt,
        platform: Platform,
        model: z.string().max(INPUT_LIMITS.model).optional(),
        language: z.string().max(INPUT_LIMITS.language).optional(),
        country: z.string().max(INPUT_LIMITS.country).optional(),
        target_entity: z.string().max(INPUT_LIMITS.name).optional(),
        repeats: Repeats.optional().describe('How many times this probe is asked; defaults to the run\'s repeats'),
      }),
    )
    .max(2000)
    .optional(),
  models: z.record(z.string().max(INPUT_LIMITS.model), z.string().max(INPUT_LIMITS.model)).optional().describe('Matrix mode: platform → model id or default/latest/prior'),
  repeats: Repeats.optional().describe('Ask each (prompt, platform) probe this many times, as separate billed probes (default 1)'),
  competitors: z.array(z.string().max(INPUT_LIMITS.name)).max(10).optional(),
  language: z.string().max(INPUT_LIMITS.language).optional(),
  country: z.string().max(INPUT_LIMITS.country).optional(),
  idempotency_key: z.string().max(INPUT_LIMITS.idempotencyKey).optional(),
});

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
  handler: async ({ body, request }, core) => createVisibilityRun(core.visibility, actionContext(request), body),
});
