// DELETE /v1/projects/{project_id}/prompts/{prompt_id}: remove a prompt from the library.
import { z } from 'zod';
import { removeProjectPrompt } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { ProjectId } from './shapes.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/projects/:project_id/prompts/:prompt_id',
  summary: "Remove a prompt from a project's library",
  tags: ['projects'],
  action: 'projects.prompts.delete',
  scope: 'visibility:runs:create',
  params: ProjectId.extend({ prompt_id: z.string().max(64).describe('Prompt id (pp_…)') }),
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
  run: (a, _ctx, core, principal) => removeProjectPrompt(core.tracking, principal, a.project_id, a.prompt_id),
  cli: { command: 'projects remove-prompt', description: "remove a prompt from a project's library", args: ['project_id', 'prompt_id'] },
  tool: { name: 'delete_project_prompt', title: 'Remove a project prompt', description: "Remove one prompt from a project's library; its tests stop asking it from the next run. Free.", destructive: true },
});
