// GET /v1/projects/{project_id}: one project with its prompt library and tests.
import { z } from 'zod';
import { getProject } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { Project, ProjectId } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/projects/:project_id',
  summary: 'Read a project with its prompt library and tracked tests',
  tags: ['projects'],
  action: 'projects.read',
  scope: 'tests:read',
  params: ProjectId,
  response: Project.extend({ prompts: z.array(z.object({ id: z.string(), prompt: z.string(), topics: z.array(z.string()) })) }),
  errors: [404],
  run: (a, ctx, core) => getProject(core.tracking, ctx.accountId, a.project_id),
  cli: { command: 'projects show', description: 'one project with its prompts and tests', args: ['project_id'] },
  tool: { name: 'get_project', title: 'Read a project', description: 'One project: brand, competitors, markets, platforms, schedule, budget, its prompt library with topics and its tracked tests (one per market).' },
});
