// GET /v1/webhooks/{webhook_id}/deliveries: the delivery log, newest first, with each attempt.
import { z } from 'zod';
import { listDeliveries } from '../../core/webhooks/endpoints.ts';
import { clampedInt, defineRoute } from '../define.ts';
import { Delivery, WebhookId } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/webhooks/:webhook_id/deliveries',
  summary: "A webhook endpoint's deliveries, newest first, with their attempts",
  tags: ['webhooks'],
  action: 'webhooks.deliveries.list',
  scope: 'webhooks:write',
  params: WebhookId,
  querystring: z.object({ limit: clampedInt(50, 1, 100) }),
  response: z.object({ deliveries: z.array(Delivery) }),
  errors: [404],
  run: (a, ctx, core) => listDeliveries(core.store, ctx.accountId, a.webhook_id, a.limit),
  cli: { command: 'webhooks deliveries', description: "a webhook endpoint's delivery log", args: ['webhook_id'] },
  tool: {
    name: 'list_webhook_deliveries',
    title: 'List webhook deliveries',
    description: "A webhook endpoint's deliveries (limit 1..100, default 50), newest first: status (pending|succeeded|failed), attempts, last status code, next attempt, and each attempt.",
  },
});
