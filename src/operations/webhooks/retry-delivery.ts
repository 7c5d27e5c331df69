// POST /v1/webhooks/{webhook_id}/deliveries/{msg_id}/retry: deliver a message again now.
import { z } from 'zod';
import { retryDelivery } from '../../core/webhooks/endpoints.ts';
import { defineRoute } from '../define.ts';
import { Delivery } from './shapes.ts';

export default defineRoute({
  method: 'POST',
  url: '/v1/webhooks/:webhook_id/deliveries/:msg_id/retry',
  summary: 'Deliver a message again now (same webhook-id)',
  tags: ['webhooks'],
  action: 'webhooks.deliveries.retry',
  scope: 'webhooks:write',
  params: z.object({ webhook_id: z.string().max(64).describe('Webhook id (wh_…)'), msg_id: z.string().max(64).describe('Delivery id (msg_…)') }),
  response: Delivery,
  errors: [404, 409],
  run: (a, ctx, core) => retryDelivery(core.store, ctx.accountId, a.webhook_id, a.msg_id, () => core.notifyWork()),
  cli: { command: 'webhooks retry', description: 'deliver a message again now', args: ['webhook_id', 'msg_id'] },
  tool: { name: 'retry_webhook_delivery', title: 'Retry a webhook delivery', openWorld: true, description: 'Deliver a message to its endpoint again now, with the same webhook-id. Free.' },
});
