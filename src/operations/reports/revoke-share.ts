// DELETE /v1/projects/{project_id}/shares/{share_id}: the link stops working at once.
import { z } from 'zod';
import { revokeShare } from '../../core/reports/shares.ts';
import { defineRoute } from '../define.ts';
import { ProjectId } from '../projects/shapes.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/projects/:project_id/shares/:share_id',
  summary: 'Revoke a share link: its page and PDF answer 404 from now on',
  tags: ['projects'],
  action: 'projects.shares.revoke',
  scope: 'visibility:runs:create',
  params: ProjectId.extend({ share_id: z.string().max(64).describe('Share id (shr_…)') }),
  response: z.object({ id: z.string(), revoked: z.literal(true) }),
  errors: [404],
  run: (a, _ctx, core, principal) => revokeShare(core.store, principal, a.project_id, a.share_id),
  cli: { command: 'reports revoke', description: 'revoke a share link', args: ['project_id', 'share_id'] },
  tool: { name: 'revoke_project_share', title: 'Revoke a share link', description: 'Revoke a read-only share link of a project report: it stops working at once. Revoking twice is harmless. Free.', destructive: true, idempotent: true },
});
