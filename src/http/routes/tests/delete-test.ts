// DELETE /v1/tests/{test_id}: the test and its schedule go; its runs stay readable by id.
import { z } from 'zod';
import { deleteTrackedTest } from '../../../core/tracking/tracked-tests.ts';
import { defineRoute } from '../../schemas.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/tests/:test_id',
  summary: 'Delete a saved test and its schedule (its runs stay readable by id)',
  tags: ['tests'],
  action: 'tests.delete',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  params: z.object({ test_id: z.string().max(64) }),
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
  handler: async ({ params, request }, core) => deleteTrackedTest(core.tracking, request.principal!, params.test_id),
});
