// POST /v1/tests (API-NOTES "Tracking"): a tracked test, from a run definition and an optional
// schedule. The scope is the create scope of the run kind, checked by the core.
import { z } from 'zod';
import { createTrackedTest } from '../../../core/tracking/tracked-tests.ts';
import { TEST_TYPES } from '../../../core/tracking/tests.ts';
import { defineRoute } from '../../schemas.ts';
import { SavedTest } from './list-tests.ts';
import { Budget, Definition, parseDefinition, Schedule } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/tests',
  summary: 'Create a tracked test: a run definition, an optional cron schedule, a monthly credit budget',
  tags: ['tests'],
  action: 'tests.create',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  body: z.object({
    test_type: z.enum(TEST_TYPES),
    name: z.string().max(200).nullish(),
    definition: Definition,
    schedule: Schedule.nullish(),
    monthly_credit_budget: Budget,
    paused: z.boolean().optional(),
  }),
  response: SavedTest,
  errors: [400, 404, 422],
  handler: async ({ body, request }, core) =>
    createTrackedTest(core.tracking, request.principal!, { ...body, definition: parseDefinition(body.test_type, body.definition) }),
});
