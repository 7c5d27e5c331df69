// PATCH /v1/tests/{test_id}: change any of name, definition, schedule, paused, budget.
import { z } from 'zod';
import { updateTrackedTest } from '../../core/tracking/tracked-tests.ts';
import { findTest, type TestType } from '../../core/tracking/tests.ts';
import { defineRoute } from '../define.ts';
import { SavedTest } from './list-tests.ts';
import { Budget, Definition, parseDefinition, Schedule } from './shapes.ts';

export default defineRoute({
  method: 'PATCH',
  url: '/v1/tests/:test_id',
  summary: 'Update a tracked test (name, definition, schedule, paused, monthly_credit_budget)',
  tags: ['tests'],
  action: 'tests.update',
  scope: null,
  listedFor: ['visibility:runs:create', 'content_intelligence:runs:create'],
  params: z.object({ test_id: z.string().max(64).describe('Saved test id (test_…)') }),
  body: z.object({
    name: z.string().max(200).optional().describe('New display name'),
    definition: Definition.optional(),
    schedule: Schedule.nullable().optional().describe('New schedule {cron, timezone}; null removes it'),
    paused: z.boolean().optional().describe('true pauses at once, false resumes'),
    monthly_credit_budget: Budget,
  }),
  response: SavedTest,
  errors: [400, 404, 422],
  run: async (a, _ctx, core, principal) => {
      const { test_id, ...patch } = a;
      if (patch.definition !== undefined) {
        const test = await findTest(core.store.db, principal.accountId, test_id);
        patch.definition = parseDefinition(test.test_type as TestType, patch.definition);
      }
      return updateTrackedTest(core.tracking, principal, test_id, patch);
    },
  cli: [
    { command: 'tests update', description: "change a tracked test's name, definition, schedule or budget", args: ['test_id'], flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' } },
    { command: 'tests schedule', description: 'set when a tracked test runs (cron, time zone) and its monthly credit budget; --no-schedule removes the schedule', args: ['test_id'], fields: ['schedule', 'monthly_credit_budget'], flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' } },
    { command: 'tests pause', description: "pause a tracked test's schedule", args: ['test_id'], fields: [], fixed: { paused: true } },
    { command: 'tests resume', description: "resume a tracked test's schedule", args: ['test_id'], fields: [], fixed: { paused: false } },
  ],
  tool: {
    name: 'update_tracked_test',
    title: 'Change a tracked test', idempotent: true, openWorld: true,
    description:
      'Change a tracked test: name, definition, schedule (null removes it), paused (true pauses at once), monthly_credit_budget. Free; later runs cost what the new definition costs.',
  },
});
