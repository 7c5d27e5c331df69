// PATCH /v1/webhooks/{webhook_id}: url, events, description, status (enabling again restarts the failure clock).
import { z } from 'zod';
import { updateEndpoint } from '../../core/webhooks/endpoints.ts';
import { requireEventScopes } from '../../core/webhooks/event-scopes.ts';
import { defineRoute } from '../define.ts';
import { EventNames, ProjectIds, Webhook, WebhookId, WebhookUrl } from './shapes.ts';

export default defineRoute({
  method: 'PATCH',
  url: '/v1/webhooks/:webhook_id',
  summary: 'Change a webhook endpoint (url, events, description, status)',
  tags: ['webhooks'],
  action: 'webhooks.update',
  scope: 'webhooks:write',
  params: WebhookId,
  body: z.object({
    url: WebhookUrl.optional(),
    events: EventNames.optional(),
    description: z.string().max(500).nullish().describe('A note for people; null clears it'),
    status: z.enum(['enabled', 'disabled']).optional().describe('enabled or disabled'),
    project_ids: ProjectIds.describe(
      "Only the events of these projects (proj_…); null: every event of the account again. Pending deliveries about other projects, and of account events, end failed (project_unsubscribed)",
    ),
  }),
  response: Webhook,
  errors: [400, 404, 422],
  run: (a, ctx, core, principal) => {
    requireEventScopes(principal, a.events);
    const { webhook_id, ...patch } = a;
    return updateEndpoint(core.webhooks, ctx.accountId, webhook_id, patch, principal);
  },
  cli: [
    { command: 'webhooks update', description: "change a webhook endpoint's url, events, projects, description or status", args: ['webhook_id'], flags: { events: 'event', project_ids: 'project' } },
    { command: 'webhooks enable', description: 'enable a webhook endpoint again', args: ['webhook_id'], fields: [], fixed: { status: 'enabled' } },
    { command: 'webhooks disable', description: 'stop deliveries to a webhook endpoint', args: ['webhook_id'], fields: [], fixed: { status: 'disabled' } },
  ],
  tool: {
    name: 'update_webhook',
    title: 'Change a webhook endpoint',
    idempotent: true,
    openWorld: true,
    description: 'Change a webhook endpoint: url, events, project_ids (only those projects\' events; null: all again), description, status (enabled|disabled). Free.',
  },
});
