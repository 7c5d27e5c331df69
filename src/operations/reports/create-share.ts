// POST /v1/projects/{project_id}/shares: a read-only share link of the project's report.
import { z } from 'zod';
import { consolePublicUrl } from '../../core/accounts/users.ts';
import { DASHBOARD_WINDOWS } from '../../core/projects/dashboard.ts';
import { createShare, SHARE_DEFAULT_DAYS, SHARE_MAX_DAYS } from '../../core/reports/shares.ts';
import { defineRoute } from '../define.ts';
import { ProjectId } from '../projects/shapes.ts';
import { Share } from './share-shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/projects/:project_id/shares',
  summary: "Make a read-only share link of a project's report (HTML page and PDF, no sign-in); the link is shown once",
  tags: ['projects'],
  action: 'projects.shares.create',
  scope: 'visibility:runs:create',
  params: ProjectId,
  body: z
    .object({
      expires_in_days: z.number().int().min(1).max(SHARE_MAX_DAYS).optional().describe(`Days until the link stops working: 1..${SHARE_MAX_DAYS}, default ${SHARE_DEFAULT_DAYS}`),
      window: z.enum(DASHBOARD_WINDOWS).optional().describe('The report\'s period: 7d (default) or 30d'),
      days: z.number().int().min(1).max(730).optional().describe('Days of history the report covers (default 90)'),
      topic: z.string().max(60).nullish().describe('Only prompts with this topic'),
      market: z.string().max(30).nullish().describe('Only this market, e.g. en-US'),
    }),
  response: Share.extend({
    token: z.string().describe('The link\'s secret, shown only in this answer'),
    url: z.string().describe('The link: <public url>/share/<token>; its PDF is <url>/report.pdf'),
  }),
  errors: [400, 404, 409, 422],
  run: (a, _ctx, core, principal) =>
    createShare(core.store, principal, a.project_id, { expires_in_days: a.expires_in_days, window: a.window, days: a.days, topic: a.topic, market: a.market }, consolePublicUrl(core.config)),
  cli: { command: 'reports share', description: "make a read-only link of a project's report (shown once)", args: ['project_id'] },
  tool: {
    name: 'create_project_share',
    title: 'Share a project report',
    description:
      "Make a read-only share link of a project's dashboard report: anyone with the link sees that one report (HTML, and a PDF at <url>/report.pdf) without signing in, until it expires (default 30 days, at most 365) or is revoked. The link is in this answer only. Free.",
  },
});
