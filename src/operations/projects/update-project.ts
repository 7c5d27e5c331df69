// PATCH /v1/projects/{project_id}: change any setting; its tests follow (new markets get a test,
// removed ones lose theirs, every test gets the new definition, schedule and budget share).
import { z } from 'zod';
import { updateProject } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { Project, ProjectFields, ProjectId } from './shapes.ts';

export default defineRoute({
  method: 'PATCH',
  url: '/v1/projects/:project_id',
  summary: 'Update a project (any setting); its tracked tests follow',
  tags: ['projects'],
  action: 'projects.update',
  scope: 'visibility:runs:create',
  params: ProjectId,
  body: z.object({
    ...ProjectFields,
    url: ProjectFields.url.optional().describe("The brand's page or site"),
    brand: ProjectFields.brand.optional().describe('The brand: {name, aliases, domains}'),
    platforms: ProjectFields.platforms.optional().describe('Platforms every prompt is asked on'),
  }),
  response: Project,
  errors: [400, 404, 422],
  run: (a, _ctx, core, principal) => {
    const { project_id, ...patch } = a;
    return updateProject(core.tracking, principal, project_id, patch);
  },
  cli: { command: 'projects update', description: "change a project's brand, competitors, markets, platforms, schedule or budget", args: ['project_id'], flags: { 'schedule.cron': 'cron', 'schedule.timezone': 'timezone', monthly_credit_budget: 'budget' } },
  tool: { name: 'update_project', title: 'Update a project', description: 'Change any project setting (partial); its tracked tests follow: a changed definition starts a new comparable series, never compared with the old one. Free; later runs cost what the new settings cost.' },
});
