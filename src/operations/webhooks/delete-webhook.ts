// DELETE /v1/webhooks/{webhook_id}: nothing more is delivered to it.
import { z } from 'zod';
import { deleteEndpoint } from '../../core/webhooks/endpoints.ts';
import { defineRoute } from '../define.ts';
import { WebhookId } from './shapes.ts';

export default defineRoute({
  method: 'DELETE',
  url: '/v1/webhooks/:webhook_id',
  summary: 'Delete a webhook endpoint',
  tags: ['webhooks'],
  action: 'webhooks.delete',
  scope: 'webhooks:write',
  params: WebhookId,
  response: z.object({ id: z.string(), deleted: z.literal(true) }),
  errors: [404],
  run: (a, ctx, core) => deleteEndpoint(core.store, ctx.accountId, a.webhook_id),
  cli: { command: 'webhooks delete', description: 'delete a webhook endpoint', args: ['webhook_id'] },
  tool: { name: 'delete_webhook', title: 'Delete a webhook endpoint', destructive: true, idempotent: true, description: 'Delete a webhook endpoint; its pending deliveries end failed. Free.' },
});
