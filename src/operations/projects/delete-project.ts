// DELETE /v1/projects/{project_id}: the project and its tests disappear; runs stay readable by id.
import { z } from 'zod';
import { deleteProject } from '../../core/projects/projects.ts';
import { defineRoute } from '../define.ts';
import { ProjectId } from './shapes.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/projects/:project_id',
  summary: 'Delete a project and its tracked tests (runs stay readable by id)',
  tags: ['projects'],
  action: 'projects.delete',
  scope: 'visibility:runs:create',
  params: ProjectId,
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
  run: (a, _ctx, core, principal) => deleteProject(core.tracking, principal, a.project_id),
  cli: { command: 'projects delete', description: 'delete a project and its schedule (runs stay readable)', args: ['project_id'] },
  tool: { name: 'delete_project', title: 'Delete a project', description: 'Delete a project: its tests stop and disappear; their runs stay readable by id. Free.', destructive: true },
});
