import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { reportsByUrl } from '../../core/reports/reports.ts';
import { TEST_TYPES } from '../../core/tracking/tests.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';
import { ReportRun, SavedTest } from '../tests/list-tests.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/reports/by-url',
  summary: 'Saved reports for a URL: matching tests and their recent runs',
  tags: ['reports'],
  action: 'reports.by_url.read',
  scope: 'runs:read',
  querystring: z.object({
    url: z.string().max(INPUT_LIMITS.url).describe('URL to find reports for; matched after normalization (scheme and host lowercased, fragment and trailing slash dropped)'),
    test_type: filterParam(TEST_TYPES),
    days: clampedInt(90, 1, 3650),
    limit: clampedInt(5, 1, 20),
  }),
  response: z.object({
    url: z.string().max(INPUT_LIMITS.url),
    days: z.number().int(),
    match_count: z.number().int(),
    matches: z.array(z.object({ test: SavedTest, runs: z.array(ReportRun).describe('At most limit, newest first') })),
  }),
  errors: [400, 422],
  run: (a, ctx, core) =>
    reportsByUrl(core.store, ctx.accountId, { url: a.url, testType: filterValue('test_type', a.test_type, TEST_TYPES), days: a.days, limit: a.limit }),
  cli: { command: 'reports by-url', description: 'saved tests for a URL and their recent runs', args: ['url'] },
  tool: {
    name: 'get_reports_by_url',
    title: 'Reports for a URL',
    description:
      'Saved reports for a URL: the tests that match it and their recent runs (limit 1..20 runs per test, default 5; days 1..3650, default 90; clamped).',
  },
});
