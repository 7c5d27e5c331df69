// POST /v1/projects/{project_id}/prompts: add prompts to the library, as a list or pasted lines or
// CSV (columns prompt, topics with topics separated by ";"), with topics for all of them.
import { z } from 'zod';
import { importProjectPrompts } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { ProjectId, PromptItem } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/projects/:project_id/prompts',
  summary: "Add prompts to a project's library: a list, or pasted lines or CSV (prompt, topics)",
  tags: ['projects'],
  action: 'projects.prompts.import',
  scope: 'visibility:runs:create',
  params: ProjectId,
  body: z.object({
    prompts: z.array(PromptItem).max(1000).optional().describe('Prompts with topics'),
    text: z.string().max(500_000).optional().describe('Pasted prompts: one per line, or CSV with a header (prompt, topics)'),
    format: z.enum(['lines', 'csv']).optional().describe('How text is written (default lines)'),
    topics: z.array(z.string().max(60)).max(20).optional().describe('Topics given to every prompt of this import'),
  }),
  response: z.object({ project_id: z.string(), added: z.number().int(), duplicates: z.number().int(), prompt_count: z.number().int() }),
  errors: [400, 404, 422],
  run: (a, _ctx, core, principal) => {
    const { project_id, ...input } = a;
    return importProjectPrompts(core.tracking, principal, project_id, input);
  },
  cli: {
    command: 'projects prompts',
    description: 'add prompts (--text "…" lines, --text-file FILE or - for stdin; --format csv with a prompt,topics header; --topic for all)',
    args: ['project_id'],
    files: ['text'],
  },
  tool: { name: 'import_project_prompts', title: 'Import prompts into a project', description: "Add prompts to a project's library: prompts [{prompt, topics}], or text (one prompt per line, or CSV with prompt,topics columns, format csv), topics applied to all. Prompts already there are counted as duplicates. Its tests ask the new prompts from the next run. Free; later runs cost more per prompt added." },
});
