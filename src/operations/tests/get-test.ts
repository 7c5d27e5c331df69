import { z } from 'zod';
import { getTestWithRuns } from '../../core/reports/reports.ts';
import { defineRoute } from '../define.ts';
import { ReportRun, SavedTest } from './list-tests.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/tests/:test_id',
  summary: 'Read one saved test with its runs (compact, newest first)',
  tags: ['tests'],
  action: 'tests.read',
  scope: 'tests:read',
  params: z.object({ test_id: z.string().max(64).describe('Saved test id (test_…)') }),
  response: SavedTest.extend({ runs: z.array(ReportRun) }),
  errors: [404],
  run: (a, ctx, core) => getTestWithRuns(core.store, ctx.accountId, a.test_id),
  cli: { command: 'tests show', description: 'one test with its runs', args: ['test_id'] },
  tool: {
    name: 'get_test',
    title: 'Read a saved test',
    description:
      'One saved test with its runs (compact, newest first).',
  },
});
