import { z } from 'zod';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { PLATFORMS } from '../../platforms/types.ts';
import { listVisibilityRuns, RUN_SORTS, RUN_SOURCES, RUN_STATUSES } from '../../core/visibility/read.ts';
import { clampedInt, defineRoute, filterParam, filterValue } from '../define.ts';
import { RunList } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs',
  summary: 'List visibility runs, newest first, with cursor pagination',
  tags: ['visibility'],
  action: 'visibility.runs.list',
  scope: 'runs:read',
  querystring: z.object({
    limit: clampedInt(20, 1, 100),
    starting_after: z.string().max(INPUT_LIMITS.id).optional().describe('Cursor: the next_starting_after of the previous page (a run id)'),
    status: filterParam(RUN_STATUSES),
    source: filterParam(RUN_SOURCES).describe(`Only runs started from this place: ${RUN_SOURCES.join(', ')} (schedule: a tracked test's schedule).`),
    platform: filterParam(PLATFORMS).describe(`Only runs that asked this platform. One of: ${PLATFORMS.join(', ')}.`),
    project_id: z.string().max(INPUT_LIMITS.id).optional().describe("Only runs of this project's tracked tests (a project id)."),
    q: z.string().max(INPUT_LIMITS.name).optional().describe('Search: every word must appear, case-insensitively, in the brand, the page URL or a prompt.'),
    sort: filterParam(RUN_SORTS).describe('newest (default) or oldest first; starting_after pages on in the same order.'),
  }),
  response: RunList,
  errors: [400, 422],
  run: (a, ctx, core) =>
    listVisibilityRuns(core.store, ctx.accountId, {
      limit: a.limit,
      startingAfter: a.starting_after,
      status: filterValue('status', a.status, RUN_STATUSES),
      source: filterValue('source', a.source, RUN_SOURCES),
      platform: filterValue('platform', a.platform, PLATFORMS),
      projectId: a.project_id || undefined,
      search: a.q,
      sort: filterValue('sort', a.sort, RUN_SORTS),
    }),
  cli: { command: 'visibility list', description: 'runs, newest first' },
  tool: {
    name: 'list_visibility_runs',
    title: 'List visibility runs',
    description:
      'Visibility runs, newest first (limit 1..100, default 20, clamped); pass next_starting_after as starting_after for the next page.',
  },
});
