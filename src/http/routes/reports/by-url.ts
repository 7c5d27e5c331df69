import { z } from 'zod';
import { INPUT_LIMITS } from '../../../core/limits.ts';
import { reportsByUrl } from '../../../core/reports/reports.ts';
import { TEST_TYPES } from '../../../core/tracking/tests.ts';
import { actionContext } from '../../plugins/auth.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../../schemas.ts';
import { SavedTest } from '../tests/list-tests.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/reports/by-url',
  summary: 'Saved reports for a URL: matching tests and their recent runs',
  tags: ['reports'],
  action: 'reports.by_url.read',
  scope: 'runs:read',
  querystring: z.object({
    url: z.string().max(INPUT_LIMITS.url),
    test_type: filterParam(TEST_TYPES),
    days: clampedInt(90, 1, 3650),
    limit: clampedInt(5, 1, 20),
  }),
  response: z.object({
    url: z.string().max(INPUT_LIMITS.url),
    days: z.number().int(),
    match_count: z.number().int(),
    matches: z.array(z.object({ test: SavedTest, runs: z.array(z.object({}).passthrough()) })),
  }),
  errors: [400, 422],
  handler: async ({ query, request }, core) =>
    reportsByUrl(core.store, actionContext(request).accountId, {
      url: query.url,
      testType: filterValue('test_type', query.test_type, TEST_TYPES),
      days: query.days,
      limit: query.limit,
    }),
});
