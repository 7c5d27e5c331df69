// POST /v1/tests/{test_id}/runs: run the test's definition now, as the caller; answers the run
// kind's create response plus test_id.
import { z } from 'zod';
import { runTrackedTestNow } from '../../core/tracking/tracked-tests.ts';
import { RUN_COST } from '../visibility/shapes.ts';
import { defineRoute } from '../define.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/tests/:test_id/runs',
  summary: 'Run a tracked test now (reserves credits like the run kind’s create; counts towards the monthly budget, which only skips scheduled runs)',
  tags: ['tests'],
  action: 'tests.runs.create',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  params: z.object({ test_id: z.string().max(64).describe('Saved test id (test_…)') }),
  body: z.object({ idempotency_key: z.string().max(160).optional().describe('Retry-safe key: the same key gives the same run, charged once') }).nullish(),
  response: z.object({ run_id: z.string(), status: z.string(), test_id: z.string() }).passthrough(),
  errors: [400, 402, 404, 422],
  run: (a, ctx, core, principal) => runTrackedTestNow(core.tracking, principal, ctx, a.test_id, a.idempotency_key),
  cli: { command: 'tests run', description: "run a tracked test's definition now (costs what the definition costs; counts towards its monthly budget, which only skips scheduled runs)", args: ['test_id'] },
  tool: {
    name: 'run_tracked_test',
    title: 'Run a tracked test now', openWorld: true,
    description:
      "Run a tracked test's definition now; poll the returned run_id. Costs what the definition costs, exactly as its create would: for a visibility definition " + RUN_COST.charAt(0).toLowerCase() + RUN_COST.slice(1) + ' A Content Intelligence definition costs 3 credits (score) or 6 (full). The run counts towards the test’s monthly_credit_budget, but the budget does not stop it (it only skips scheduled runs): compare credits_used_this_month with the budget first.',
  },
});
