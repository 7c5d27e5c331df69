import { z } from 'zod';
import { VisibilityRun } from './shapes.ts';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { getVisibilityRun } from '../../core/visibility/read.ts';
import { defineRoute, queryBool } from '../define.ts';

export { CompactRun } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/visibility/runs/:run_id',
  summary: 'Read one visibility run (compact; include_probes / include_results / include_raw for more)',
  tags: ['visibility'],
  action: 'visibility.runs.read',
  scope: 'runs:read',
  params: z.object({ run_id: z.string().max(INPUT_LIMITS.id).describe('Visibility run id (vis_…)') }),
  querystring: z.object({
    include_probes: queryBool.describe('true adds the probe list (status, mentions, citations, analysis per probe)'),
    include_results: queryBool.describe('true adds each probe with its full answer text (implies include_probes)'),
    include_raw: queryBool.describe("true adds each provider's raw response (debugging)"),
  }),
  response: VisibilityRun,
  errors: [404, 422],
  run: (a, ctx, core) =>
      getVisibilityRun(core.store, ctx.accountId, a.run_id, { includeProbes: a.include_probes, includeResults: a.include_results, includeRaw: a.include_raw }),
  cli: { command: 'visibility status', description: 'one run: status, counts, billing, summary', args: ['run_id'] },
  tool: {
    name: 'get_visibility_run',
    title: 'Read a visibility run',
    description:
      'Status, probe counts, billing and summary (mention rate, band, competitors, cited domains, sentiment, prominence, discovered entities) of a visibility run; with include_probes each probe carries its brands (position, list rank, prominence, sentiment, recommended) and judge.',
  },
});
