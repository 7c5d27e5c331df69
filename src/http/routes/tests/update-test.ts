// PATCH /v1/tests/{test_id}: change any of name, definition, schedule, paused, budget.
import { z } from 'zod';
import { updateTrackedTest } from '../../../core/tracking/tracked-tests.ts';
import { findTest, type TestType } from '../../../core/tracking/tests.ts';
import { defineRoute } from '../../schemas.ts';
import { SavedTest } from './list-tests.ts';
import { Budget, Definition, parseDefinition, Schedule } from './shapes.ts';

export default defineRoute({
  method: 'PATCH',
  url: '/v1/tests/:test_id',
  summary: 'Update a tracked test (name, definition, schedule, paused, monthly_credit_budget)',
  tags: ['tests'],
  action: 'tests.update',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  params: z.object({ test_id: z.string().max(64) }),
  body: z.object({
    name: z.string().max(200).optional(),
    definition: Definition.optional(),
    schedule: Schedule.nullable().optional(),
    paused: z.boolean().optional(),
    monthly_credit_budget: Budget,
  }),
  response: SavedTest,
  errors: [400, 404, 422],
  handler: async ({ params, body, request }, core) => {
    const principal = request.principal!;
    const patch = { ...body };
    if (body.definition !== undefined) {
      const test = await findTest(core.store.db, principal.accountId, params.test_id);
      patch.definition = parseDefinition(test.test_type as TestType, body.definition);
    }
    return updateTrackedTest(core.tracking, principal, params.test_id, patch);
  },
});
