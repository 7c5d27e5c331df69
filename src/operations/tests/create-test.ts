// POST /v1/tests: a tracked test, from a run definition and an optional
// schedule. The scope is the create scope of the run kind, checked by the core.
import { z } from 'zod';
import { createTrackedTest } from '../../core/tracking/tracked-tests.ts';
import { TEST_TYPES } from '../../core/tracking/tests.ts';
import { defineRoute } from '../define.ts';
import { SavedTest } from './list-tests.ts';
import { Budget, Definition, parseDefinition, Schedule } from './shapes.ts';

/** The create's body; the estimate (estimate-test.ts) takes it as it is. */
export const CreateTestBody = z.object({
  test_type: z.enum(TEST_TYPES).describe('ai_citations (visibility runs) or content_intelligence'),
  name: z.string().max(200).nullish().describe('Display name; default: the URL'),
  definition: Definition,
  schedule: Schedule.nullish().describe('When to run: {cron (five fields), timezone (IANA)}; null or absent: only on demand'),
  monthly_credit_budget: Budget,
  paused: z.boolean().optional().describe('true keeps the schedule but runs nothing'),
});

export default defineRoute({
  method: 'POST',
  url: '/v1/tests',
  summary: 'Create a tracked test: a run definition, an optional cron schedule, a monthly credit budget',
  tags: ['tests'],
  action: 'tests.create',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  body: CreateTestBody,
  response: SavedTest,
  errors: [400, 404, 422],
  run: (a, _ctx, core, principal) => createTrackedTest(core.tracking, principal, { ...a, definition: parseDefinition(a.test_type, a.definition) }),
  cli: { command: 'tests create', description: 'a tracked test from a run definition (JSON, or @file), with an optional schedule and budget', flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' } },
  tool: {
    name: 'create_tracked_test',
    title: 'Create a tracked test', openWorld: true,
    description:
      'Track a URL over time: a saved test with a run definition (the create body of create_visibility_run or create_content_intelligence_run, without idempotency_key), an optional schedule {cron, timezone} and monthly_credit_budget. Scheduled runs cost what the definition costs, each slot; slots over the budget or the balance are skipped, never half-run.',
  },
});
