// Shapes shared by the webhook operations.
import { z } from 'zod';
import { EVENT_TYPES } from '../../core/webhooks/events.ts';
import { WEBHOOK_FORMATS } from '../../core/webhooks/endpoints.ts';

export const EventNames = z
  .array(z.enum([...EVENT_TYPES, '*']))
  .min(1)
  .max(20)
  .describe(`Events to receive: any of ${EVENT_TYPES.join(', ')}, or ["*"] for all (also events added later)`);

export const ProjectIds = z
  .array(z.string().max(64))
  .min(1)
  .max(100)
  .nullish()
  .describe(
    "Only the events of these projects (proj_…): runs of their tests and their tracked tests' changes and skips. An endpoint so limited gets no account events (credits.low, crawler.blocked) and no run outside a project. null or omitted: every event of the account",
  );

export const WebhookUrl = z.string().min(1).max(2000).describe('Where events are POSTed: a public http(s) URL (or a host the operator allowed)');

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']),
    format: z.enum(WEBHOOK_FORMATS).describe('standard_webhooks (signed JSON) or slack (a Slack incoming webhook, Block Kit message)'),
    project_ids: z.array(z.string()).nullable().describe('The projects whose events it receives; null: every event of the account'),
    disabled_reason: z.string().nullable().describe('failing (every delivery failed for 5 days), disabled_by_user, or null'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .passthrough();

export const Delivery = z
  .object({
    id: z.string().describe('The message id (msg_…): the webhook-id header of every attempt'),
    event: z.string(),
    event_id: z.string(),
    created_at: z.string(),
    attempts: z.number().int(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    attempt_log: z.array(
      z.object({
        attempt: z.number().int(),
        started_at: z.string(),
        finished_at: z.string().nullable(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        duration_ms: z.number().int().nullable(),
      }),
    ),
  })
  .passthrough();

export const WebhookId = z.object({ webhook_id: z.string().max(64).describe('Webhook id (wh_…)') });
