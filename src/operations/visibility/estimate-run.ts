import { z } from 'zod';
import { estimateVisibilityRun } from '../../core/visibility/runs.ts';
import { defineRoute } from '../define.ts';
import { CreateVisibilityRunBody } from './create-run.ts';

export const EstimateVisibilityRunResponse = z.object({
  estimated_credits: z.string().describe('Price of every probe the body plans, funded or not'),
  probe_count: z.number().int().describe('Probes the body plans (prompts × platforms × repeats, or the explicit probes)'),
  available_credits: z.string().describe('Credits available now (granted − settled − reserved)'),
  fundable_probe_count: z.number().int().describe('Probes a create now would queue: the prefix, in matrix order, that the balance covers'),
  would_reserve_credits: z.string().describe('Credits a create now would reserve'),
  would_be_status: z.enum(['queued', 'partially_queued', 'insufficient']).describe('The create response status now; insufficient means a create would be 402'),
  prompt_count: z.number().int(),
  platform_count: z.number().int(),
});

export default defineRoute({
  method: 'POST',
  url: '/v1/visibility/runs/estimate',
  summary: 'Quote a visibility run (free): what a create with this body would cost and reserve now',
  tags: ['visibility'],
  action: 'visibility.runs.estimate',
  scope: 'visibility:runs:create',
  body: CreateVisibilityRunBody,
  response: EstimateVisibilityRunResponse,
  errors: [400, 422],
  run: (a, ctx, core) => estimateVisibilityRun(core.visibility, ctx.accountId, a),
  cli: { command: 'visibility estimate', description: 'what a run would cost and reserve now (free)', args: ['url'], flags: { target_entity: 'brand' }, files: ['prompts'] },
  tool: {
    name: 'estimate_visibility_run',
    title: 'Quote a visibility run (free)', readOnly: true,
    description:
      'Free. Quote a visibility run before spending: takes exactly the create_visibility_run arguments and answers estimated_credits, probe_count, available_credits, fundable_probe_count, would_reserve_credits and would_be_status (queued, partially_queued or insufficient), what a create now would reserve.',
  },
});
