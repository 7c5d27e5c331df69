// GET /v1/projects: the account's projects, newest first (without their prompt lists).
import { z } from 'zod';
import { listProjects } from '../../core/projects/projects.ts';
import { clampedInt, defineRoute } from '../define.ts';
import { Project } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/projects',
  summary: 'List projects, newest first',
  tags: ['projects'],
  action: 'projects.list',
  scope: 'tests:read',
  querystring: z.object({ limit: clampedInt(50, 1, 100) }),
  response: z.object({ object: z.literal('list'), projects: z.array(Project) }),
  errors: [],
  run: (a, ctx, core) => listProjects(core.tracking, ctx.accountId, a.limit),
  cli: { command: 'projects list', description: 'projects with their markets, prompt counts and tests' },
  tool: { name: 'list_projects', title: 'List projects', description: 'The account projects (brand workspaces), newest first, with markets, topics, prompt counts and their tracked tests.' },
});
