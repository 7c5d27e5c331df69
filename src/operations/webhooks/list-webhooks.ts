// GET /v1/webhooks: the account's endpoints, newest first (never their secrets).
import { z } from 'zod';
import { listEndpoints } from '../../core/webhooks/endpoints.ts';
import { defineRoute } from '../define.ts';
import { Webhook } from './shapes.ts';

export default defineRoute({
  method: 'GET',
  url: '/v1/webhooks',
  summary: 'List webhook endpoints',
  tags: ['webhooks'],
  action: 'webhooks.list',
  // Endpoint URLs can carry credentials (a Slack incoming-webhook URL is one): reading them needs the write scope.
  scope: 'webhooks:write',
  response: z.object({ webhooks: z.array(Webhook) }),
  errors: [],
  run: (_a, ctx, core) => listEndpoints(core.store, ctx.accountId),
  cli: { command: 'webhooks list', description: 'webhook endpoints, newest first' },
  tool: { name: 'list_webhooks', title: 'List webhook endpoints', description: 'The account\'s webhook endpoints, newest first (secrets are never shown again).' },
});
