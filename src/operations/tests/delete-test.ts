// DELETE /v1/tests/{test_id}: the test and its schedule go; its runs stay readable by id.
import { z } from 'zod';
import { deleteTrackedTest } from '../../core/tracking/tracked-tests.ts';
import { defineRoute } from '../define.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/tests/:test_id',
  summary: 'Delete a saved test and its schedule (its runs stay readable by id)',
  tags: ['tests'],
  action: 'tests.delete',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  params: z.object({ test_id: z.string().max(64).describe('Saved test id (test_…)') }),
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
  run: (a, _ctx, core, principal) =>
    deleteTrackedTest(core.tracking, principal, a.test_id),
  cli: { command: 'tests delete', description: 'delete a tracked test (its runs stay readable)', args: ['test_id'] },
  tool: {
    name: 'delete_tracked_test',
    title: 'Delete a tracked test', destructive: true, idempotent: true,
    description:
      'Delete a saved test and its schedule; its runs stay readable by id. Free.',
  },
});
