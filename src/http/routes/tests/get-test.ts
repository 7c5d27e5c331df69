import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { getTestWithRuns } from '../../../core/reports/reports.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute } from '../../schemas.ts';
import { SavedTest } from './list-tests.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/tests/:test_id',
  summary: 'Read one saved test with its runs (compact, newest first)',
  tags: ['tests'],
  action: 'tests.read',
  scope: 'tests:read',
  params: z.object({ test_id: z.string().max(INPUT_LIMITS.id) }),
  response: SavedTest.extend({ runs: z.array(z.object({}).passthrough()) }),
  errors: [404],
  handler: async ({ params, request }, core) => getTestWithRuns(core.store, actionContext(request).accountId, params.test_id),
});
