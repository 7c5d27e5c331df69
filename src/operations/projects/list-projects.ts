// GET /v1/projects: the account's projects, newest first (without their prompt lists), each with
// its latest figures (`glance`), read for the whole list at once.
import { z } from 'zod';
import { projectGlances } from '../../core/projects/dashboard.ts';
import { listProjects } from '../../core/projects/projects.ts';
import { clampedInt, defineRoute } from '../define.ts';
import { Project, ProjectGlance } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/projects',
  summary: 'List projects, newest first, each with its latest figures',
  tags: ['projects'],
  action: 'projects.list',
  scope: 'tests:read',
  querystring: z.object({ limit: clampedInt(50, 1, 100) }),
  response: z.object({ object: z.literal('list'), projects: z.array(Project.extend({ glance: ProjectGlance })) }),
  errors: [],
  run: async (a, ctx, core) => {
    const list = await listProjects(core.tracking, ctx.accountId, a.limit);
    const glances = await projectGlances(core.store, list.projects.map((p) => p.id), core.catalog);
    return { ...list, projects: list.projects.map((p) => ({ ...p, glance: glances.get(p.id)! })) };
  },
  cli: { command: 'projects list', description: 'projects with their markets, prompt counts, tests and latest mention rate' },
  tool: {
    name: 'list_projects',
    title: 'List projects',
    description:
      'The account projects (brand workspaces), newest first, with markets, topics, prompt counts, their tracked tests and glance: the latest 7-day window of the last 90 days (mention rate with 95% interval, band, n, thin, engine sandbox/live) and its change from the last earlier window that asked the same, with whether it is significant (two-proportion z-test at 95%).',
  },
});
