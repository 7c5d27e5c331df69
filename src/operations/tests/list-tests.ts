import { z } from 'zod';
import { listTests, TEST_TYPES } from '../../core/tracking/tests.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';
import { TrackedTestFields } from './shapes.ts';

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
    project_id: z.string().nullable().describe("The project whose market's test this is (its prompts, schedule and budget are changed on the project); null for other tests"),
    market: z.string().nullable().describe('The market ("en-US") of a project\'s test; null for other tests'),
    ...TrackedTestFields,
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
  run: async (a, ctx, core) =>
    ({ tests: await listTests(core.store, ctx.accountId, { limit: a.limit, testType: filterValue('test_type', a.test_type, TEST_TYPES) }) }),
  cli: { command: 'tests list', description: 'saved tests, most recently run first' },
  tool: {
    name: 'list_tests',
    title: 'List saved tests',
    description:
      'Saved tests (a URL with its visibility or content runs), most recently run first (limit 1..50, default 50, clamped).',
  },
});

/**
 * A compact run as saved tests and reports list them: a visibility run carries overall_score
 * (its mention rate) and visibility_band, a Content Intelligence run overall_score (0..100) and
 * overall_band, both at the top level besides the rest of the compact run.
 */
export const ReportRun = z
  .object({
    run_id: z.string(),
    status: z.string(),
    overall_score: z.number().nullable().describe('Visibility: the mention rate 0..1; Content Intelligence: the score 0..100; null until measured'),
    visibility_band: z.enum(['Invisible', 'Low', 'Moderate', 'Good', 'Strong']).nullable().optional().describe('Visibility runs only'),
    overall_band: z.enum(['Poor', 'Fair', 'Good', 'Strong']).nullable().optional().describe('Content Intelligence runs only'),
    project_id: z.string().nullable().optional().describe("Visibility runs only: the project of the run's test, null outside projects"),
  })
  .passthrough();
