// Shapes shared by the tracked-test routes: the schedule, the budget and
// the run definition, which is the create body of the test's run kind (checked with that route's
// own schema, so a definition accepts and refuses exactly what a run create does).
import { z } from 'zod';
import type { TestType } from '../../core/tracking/tests.ts';
import { parseNested } from '../define.ts';
import { CreateCiRunBody } from '../content/create-run.ts';
import { CreateVisibilityRunBody } from '../visibility/create-run.ts';

export const Schedule = z
  .object({
    cron: z.string().max(120).describe('Five-field cron expression (minute hour day month weekday), e.g. "0 6 * * 1"'),
    timezone: z.string().max(64).nullish().describe('IANA time zone the cron is read in (default UTC), e.g. "Europe/Berlin". A schedule is set whole: an update that gives a cron without its zone means UTC'),
  })
  .strict();

export const Budget = z
  .union([z.string().max(20), z.number().nonnegative()])
  .nullish()
  .describe('Credits the test may spend per calendar month (schedule time zone), e.g. "200.00"; null = no budget');

export const Definition = z
  .record(z.string(), z.unknown())
  .describe('The create body of the run kind (POST /v1/visibility/runs or /v1/content-intelligence/runs), without idempotency_key');

const DEFINITION_SCHEMAS = {
  ai_citations: CreateVisibilityRunBody.omit({ idempotency_key: true }).strict(),
  content_intelligence: CreateCiRunBody.omit({ idempotency_key: true }).strict(),
};

/** The definition checked against its run kind's create schema; 422 details under body.definition. */
export function parseDefinition(testType: TestType, value: unknown): Record<string, unknown> {
  return parseNested(DEFINITION_SCHEMAS[testType], value, ['body', 'definition']) as Record<string, unknown>;
}

export const TrackedTestFields = {
  definition: z.record(z.string(), z.unknown()).nullable(),
  schedule: z.object({ cron: z.string(), timezone: z.string() }).nullable(),
  paused: z.boolean(),
  next_run_at: z.string().nullable(),
  monthly_credit_budget: z.string().nullable(),
  credits_used_this_month: z.string(),
  last_skip: z.object({ slot: z.string(), reason: z.string(), message: z.string().optional(), at: z.string() }).nullable(),
};
