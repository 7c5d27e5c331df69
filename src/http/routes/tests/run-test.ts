// POST /v1/tests/{test_id}/runs: run the test's definition now, as the caller; answers the run
// kind's create response plus test_id.
import { z } from 'zod';
import { runTrackedTestNow } from '../../../core/tracking/tracked-tests.ts';
import { actionContext } from '../../plugins/auth.ts';
import { defineRoute } from '../../schemas.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/tests/:test_id/runs',
  summary: 'Run a tracked test now (reserves credits like the run kind’s create)',
  tags: ['tests'],
  action: 'tests.runs.create',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  params: z.object({ test_id: z.string().max(64) }),
  body: z.object({ idempotency_key: z.string().max(160).optional() }).nullish(),
  response: z.object({ run_id: z.string(), status: z.string(), test_id: z.string() }).passthrough(),
  errors: [400, 402, 404, 422],
  handler: async ({ params, body, request }, core) =>
    runTrackedTestNow(core.tracking, request.principal!, actionContext(request), params.test_id, body?.idempotency_key),
});
