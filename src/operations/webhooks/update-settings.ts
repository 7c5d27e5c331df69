// PATCH /v1/notification-settings: set the credits.low threshold (setting it re-arms the alert).
import { z } from 'zod';
import { updateNotificationSettings } from '../../core/webhooks/settings.ts';
import { defineRoute } from '../define.ts';
import { NotificationSettings } from './get-settings.ts';
import { EVENT_TYPES } from '../../core/webhooks/events.ts';
import { DIGEST_CHOICE } from '../../core/webhooks/digest.ts';

// Said whenever a threshold is refused (negative, too large, "1e9", text): what is allowed.
const THRESHOLD_RULE = 'must be a number of credits written in digits, from 0 to 999999999999.99 with at most two decimals, like "25.00"';

export default defineRoute({
  method: 'PATCH',
  url: '/v1/notification-settings',
  summary: 'Set the credits.low threshold and the e-mail alerts of the account\'s users',
  tags: ['webhooks'],
  action: 'notifications.settings.update',
  scope: 'webhooks:write',
  body: z.object({
    credits_low_threshold: z
      .union([z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, THRESHOLD_RULE), z.number().min(0, THRESHOLD_RULE).max(999_999_999_999.99, THRESHOLD_RULE)])
      .nullable()
      .optional()
      .describe('Fire credits.low when the available balance falls below this, e.g. "25.00"; null turns it off'),
    email_alerts: z
      .array(z.object({ email: z.string().max(320), events: z.array(z.enum([...EVENT_TYPES, DIGEST_CHOICE, '*'])).max(20) }))
      .max(100)
      .optional()
      .describe('Which events each named console user gets by e-mail ([] stops them; digest.weekly is the weekly digest, sent Mondays from 08:00 UTC); users not named keep their choice'),
  }),
  response: NotificationSettings,
  errors: [400, 422],
  run: (a, ctx, core, principal) => updateNotificationSettings(core.store, ctx.accountId, a, principal),
  cli: { command: 'webhooks set-threshold', description: 'set the credits.low threshold (--no-credits-low turns it off)', flags: { credits_low_threshold: 'credits-low' } },
  tool: { name: 'update_notification_settings', title: 'Set alert settings', idempotent: true, description: 'Set the credits.low threshold ("25.00"; null turns it off; setting it re-arms the alert) and email_alerts: which events each console user of the account gets by e-mail. Free.' },
});
