// POST /v1/webhooks: a new endpoint; its whsec_ signing secret is in this answer only.
import { z } from 'zod';
import { createEndpoint, WEBHOOK_FORMATS } from '../../core/webhooks/endpoints.ts';
import { requireEventScopes } from '../../core/webhooks/event-scopes.ts';
import { defineRoute } from '../define.ts';
import { EventNames, ProjectIds, Webhook, WebhookUrl } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/webhooks',
  summary: 'Create a webhook endpoint (the signing secret is returned only here)',
  tags: ['webhooks'],
  action: 'webhooks.create',
  scope: 'webhooks:write',
  body: z.object({
    url: WebhookUrl,
    events: EventNames,
    description: z.string().max(500).nullish().describe('A note for people'),
    format: z.enum(WEBHOOK_FORMATS).optional().describe('standard_webhooks (default) or slack'),
    project_ids: ProjectIds,
  }),
  response: Webhook.extend({ secret: z.string().nullable().describe('whsec_…: verify signatures with it; shown only once. null for a Slack endpoint (Slack checks no signature)') }),
  errors: [400, 409, 422],
  run: (a, ctx, core, principal) => {
    requireEventScopes(principal, a.events);
    return createEndpoint(core.webhooks, ctx.accountId, a, principal);
  },
  cli: { command: 'webhooks create', description: 'add a webhook endpoint (prints its signing secret once)', args: ['url'], flags: { events: 'event', project_ids: 'project' } },
  tool: {
    name: 'create_webhook',
    title: 'Create a webhook endpoint',
    openWorld: true,
    description: 'Create a webhook endpoint: url (public http(s)), events (run.completed, tracked_test.changed, tracked_test.skipped, credits.low, crawler.blocked or "*"), description, format (standard_webhooks or slack), project_ids (only the events of those projects, e.g. for one client\'s channel; omit for every event of the account). Each event needs the scope that reads its data (runs:read for run.completed and credits.low, tests:read for tracked_test.*, sites:read for crawler.blocked; all three for "*"). An account holds a limited number of endpoints (20 by default; one more is 409 limit_reached). Returns the whsec_ signing secret once (null for slack: Slack checks no signature). Free.',
  },
});
