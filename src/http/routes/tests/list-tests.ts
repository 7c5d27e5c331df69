import { z } from 'zod';
import { listTests, TEST_TYPES } from '../../../core/tracking/tests.ts';
import { actionContext } from '../../plugins/auth.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../../schemas.ts';

export const SavedTest = z
  .object({
    id: z.string(),
    test_type: z.enum(TEST_TYPES),
    name: z.string(),
    url: z.string(),
    target_entity: z.string().optional(),
    created_at: z.string(),
    last_run_at: z.string().nullable(),
    run_count: z.number().int(),
  })
  .passthrough();

export default defineRoute({
  method: 'GET',
  url: '/v1/tests',
  summary: 'List saved tests, most recently run first',
  tags: ['tests'],
  action: 'tests.list',
  scope: 'tests:read',
  querystring: z.object({ limit: clampedInt(50, 1, 50), test_type: filterParam(TEST_TYPES) }),
  response: z.object({ tests: z.array(SavedTest) }),
  errors: [400, 422],
  handler: async ({ query, request }, core) => ({
    tests: await listTests(core.store, actionContext(request).accountId, { limit: query.limit, testType: filterValue('test_type', query.test_type, TEST_TYPES) }),
  }),
});
