// GET /v1/webhooks/{webhook_id}
import { getEndpoint } from '../../core/webhooks/endpoints.ts';
import { defineRoute } from '../define.ts';
import { Webhook, WebhookId } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/webhooks/:webhook_id',
  summary: 'Read a webhook endpoint',
  tags: ['webhooks'],
  action: 'webhooks.get',
  scope: 'webhooks:write',
  params: WebhookId,
  response: Webhook,
  errors: [404],
  run: (a, ctx, core) => getEndpoint(core.store, ctx.accountId, a.webhook_id),
  cli: { command: 'webhooks get', description: 'one webhook endpoint', args: ['webhook_id'] },
  tool: { name: 'get_webhook', title: 'Read a webhook endpoint', description: 'One webhook endpoint: url, events, status, format.' },
});
