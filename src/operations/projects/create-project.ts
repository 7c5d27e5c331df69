// POST /v1/projects: a brand workspace with its competitors, markets, platforms, schedule, budget
// and (optionally) its first prompts; its tracked tests (one per market) are made with it.
import { z } from 'zod';
import { createProject } from '../../core/projects/projects.ts';
import { INPUT_LIMITS } from '../../core/limits.ts';
import { defineRoute } from '../define.ts';
import { Project, ProjectFields, PromptItem } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/projects',
  summary: 'Create a project: a brand, its competitors, markets, platforms, schedule, budget and prompt library',
  tags: ['projects'],
  action: 'projects.create',
  scope: 'visibility:runs:create',
  body: z.object({
    ...ProjectFields,
    prompts: z.array(PromptItem).max(1000).optional().describe('The first prompts of the library, with topics'),
    idempotency_key: z
      .string()
      .max(INPUT_LIMITS.idempotencyKey)
      .nullish()
      .describe('Retry-safe key: the same key with the same body answers the project made the first time (for 24 hours); another body under it is 422 idempotency_key_reused'),
  }),
  response: Project.extend({ prompts: z.array(z.object({ id: z.string(), prompt: z.string(), topics: z.array(z.string()) })) }),
  errors: [400, 409, 422],
  run: (a, _ctx, core, principal) => createProject(core.tracking, principal, a),
  cli: { command: 'projects create', description: 'a brand workspace: brand, competitors, markets, platforms, schedule, prompts (--brand Acme, or JSON)', flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' } },
  tool: {
    name: 'create_project',
    title: 'Create a project',
    description:
      "A brand's workspace: brand {name, aliases, domains}, competitors (each with aliases and domains), markets [{language, country}], platforms, models, repeats, schedule {cron, timezone}, monthly_credit_budget and prompts [{prompt, topics}]. One tracked test per market asks every prompt on every platform on the schedule. Answers the project: its id is the project_id the other project tools take (run_project runs it now). Pass an idempotency_key: a retry with the same key and arguments answers the same project instead of making a second. Free to create; runs cost what their probes cost.",
  },
});
