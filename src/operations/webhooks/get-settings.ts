// GET /v1/notification-settings: the account's alert settings (the credits.low threshold).
import { z } from 'zod';
import { getNotificationSettings } from '../../core/webhooks/settings.ts';
import { defineRoute } from '../define.ts';

export const NotificationSettings = z.object({
  credits_low_threshold: z.string().nullable().describe('credits.low fires when the available balance falls below this ("25.00"); null: never'),
  credits_low_armed: z.boolean().describe('false after credits.low fired, until a grant lifts the balance back to the threshold'),
  email_alerts: z.array(z.object({ email: z.string(), events: z.array(z.string()) })).describe("Each console user of the account and the events they get by e-mail (needs SMTP on the server)"),
});

export default defineRoute({
  method: 'GET',
  url: '/v1/notification-settings',
  summary: 'Read the alert settings (credits.low threshold, e-mail alerts per user)',
  tags: ['webhooks'],
  action: 'notifications.settings.get',
  scope: 'webhooks:write',
  response: NotificationSettings,
  errors: [],
  run: (_a, ctx, core) => getNotificationSettings(core.store, ctx.accountId),
  cli: { command: 'webhooks settings', description: 'the alert settings (credits.low threshold)' },
  tool: { name: 'get_notification_settings', title: 'Read alert settings', description: 'The account\'s alert settings: the credits.low threshold and whether the alert is armed.' },
});
