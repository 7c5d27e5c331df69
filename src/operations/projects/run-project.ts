// POST /v1/projects/{project_id}/runs: run every market's tracked test now, as the caller.
import { z } from 'zod';
import { runProjectNow } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { ProjectId } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/projects/:project_id/runs',
  summary: "Run a project's tracked tests now (one run per market; costs what their probes cost)",
  tags: ['projects'],
  action: 'projects.runs.create',
  scope: 'visibility:runs:create',
  params: ProjectId,
  // ≤ 120 so that the key of each market's run (`<key>:en-US`) stays within a run's 160.
  body: z
    .object({
      idempotency_key: z
        .string()
        .max(120)
        .optional()
        .describe("Retry-safe key (at most 120 characters): the same key replays each market's run, charged once; the run of market M carries the key <key>:<M>"),
    })
    .nullish(),
  response: z.object({
    project_id: z.string(),
    runs: z.array(z.object({ run_id: z.string(), test_id: z.string(), market: z.string().nullable() }).passthrough()),
    skipped: z
      .array(
        z
          .object({ market: z.string().nullable(), test_id: z.string(), reason: z.literal('insufficient_credits'), required_credits: z.string(), available_credits: z.string() })
          .passthrough(),
      )
      .describe('Markets whose run the balance no longer covered (after the runs before them were funded): not run, nothing charged'),
  }),
  errors: [400, 402, 404, 422],
  run: (a, ctx, core, principal) => runProjectNow(core.tracking, principal, ctx, a.project_id, a.idempotency_key),
  cli: { command: 'projects run', description: "run a project's tests now (one run per market)", args: ['project_id'] },
  tool: { name: 'run_project', title: 'Run a project now', openWorld: true, description: "Run every market's tracked test of a project now: one visibility run per market, each reserving what its probes cost (prompts × platforms × repeats), funded in market order; a market the balance no longer covers is listed in skipped with its required_credits (insufficient_credits only when no market could run). Send an idempotency_key so a retry never pays twice. Poll the run ids." },
});
