// GET /v1/projects/{project_id}/shares: a project's share links (never their tokens).
import { z } from 'zod';
import { listShares } from '../../core/reports/shares.ts';
import { defineRoute } from '../define.ts';
import { ProjectId } from '../projects/shapes.ts';
import { Share } from './share-shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/projects/:project_id/shares',
  summary: "A project's share links, newest first, with their status (tokens are never shown again)",
  tags: ['projects'],
  action: 'projects.shares.list',
  scope: 'tests:read',
  params: ProjectId,
  response: z.object({ object: z.literal('list'), project_id: z.string(), shares: z.array(Share) }),
  errors: [404],
  run: (a, ctx, core) => listShares(core.store, ctx.accountId, a.project_id),
  cli: { command: 'reports shares', description: "a project's share links and their status", args: ['project_id'] },
  tool: { name: 'list_project_shares', title: 'List share links', description: "A project's read-only share links: report settings, status (active, expired, revoked) and expiry. Tokens are not shown again." },
});
