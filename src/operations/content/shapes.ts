// Schema pieces shared by the Content Intelligence routes (and prompt suggestions): the billing
// object every paid action answers with, the supplied-trends input, recommendations and the
// run record. The core builds the responses; these schemas document them for OpenAPI.
import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { MAX_SUPPLIED_TRENDS } from '../../core/content/service.ts';

export const Billing = z
  .object({
    billable: z.boolean(),
    credits: z.string().describe('Credits this request charged (0.00 when it failed or was not billable)'),
    estimated_credits: z.string().describe('Price of the action'),
  })
  .describe('What the action cost');

export const Band = z.enum(['Poor', 'Fair', 'Good', 'Strong']);

export const SuppliedTrends = z
  .array(z.union([z.string().max(INPUT_LIMITS.name), z.object({ name: z.string().max(INPUT_LIMITS.name) }).passthrough()]))
  .max(MAX_SUPPLIED_TRENDS)
  .nullish()
  .describe('Trend names or {name, …} objects to score against; when non-empty no trends are discovered');

export const Language = z.string().max(INPUT_LIMITS.language).nullish().describe('Language of the analysis; default: the page language');
export const Country = z.string().max(INPUT_LIMITS.country).nullish().describe('Country/market, e.g. US');
export const Industry = z.string().max(INPUT_LIMITS.name).nullish().describe('Industry; default: inferred from the site');

const QuestionIntent = z.enum(['informational', 'commercial', 'comparison', 'navigational']);

export const Trend = z.object({
  name: z.string(),
  relevance: z.number().int().describe('0..100'),
  intent: QuestionIntent.optional().describe('commercial when the topic is bought (the site sells it or the page prices it), else informational'),
  gap: z.string(),
  action: z.string(),
  questions: z.array(z.string()),
  question_intents: z.array(QuestionIntent).optional().describe('The intent of each question, in order'),
});

export const Recommendation = z
  .object({
    priority: z.enum(['high', 'medium', 'low']),
    title: z.string(),
    recommendation: z.string(),
    expected_impact: z.number().int().describe('Estimated gain in overall score points'),
    signal: z.string().describe('Stable code of the measured defect'),
    signals: z
      .array(z.string())
      .optional()
      .describe('Every signal the change moves, signal first: one action can fix several (naming a source also replaces "experts say"); expected_impact is measured with all of them fixed'),
  })
  .passthrough();

export const CiRun = z
  .object({
    run_id: z.string(),
    object: z.literal('content_intelligence_run'),
    status: z.string().describe('queued, running, completed or failed'),
    source: z.string(),
    url: z.string(),
    analysis_depth: z.enum(['score', 'full']),
    language: z.string().nullable().describe('The language asked for; null when none was given'),
    country: z.string(),
    test_id: z.string(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    overall_score: z.number().int().nullable(),
    overall_band: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string().nullable() }).nullable(),
    billing: z.object({
      status: z.string(),
      estimated_credits: z.string(),
      reserved_credits: z.string(),
      settled_credits: z.string(),
      released_credits: z.string(),
    }),
  })
  .passthrough();

/** Which model wrote a result (live mode with SIGHTLINE_CONTENT_MODEL), or why its output was not used. */
export const GeneratorFields = {
  model: z.object({ platform: z.string(), model: z.string() }).optional().describe('The model that generated the result (generator "model")'),
  fallback: z
    .object({ platform: z.string(), model: z.string(), reason: z.string() })
    .optional()
    .describe('The model failed or its output was rejected; the offline generator answered'),
};
