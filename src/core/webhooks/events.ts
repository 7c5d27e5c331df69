// Events an account produces (a run finished, a tracked test changed or skipped a slot, credits
// ran low, a crawler was refused) and their fan-out to the account's webhook endpoints.
//
// The one thing to know: an event's dedupe_key is unique in the database, so emitEvent called
// inside the transaction that made the change records the event once, however many workers or
// schedulers notice the same change; the messages (one per subscribed endpoint) and their
// delivery jobs are inserted in that same transaction, so a committed event is always delivered.
import type { Executor } from '../../db/store.ts';
import { enqueueJobs } from '../../jobs/queue.ts';
import { newId, nowIso } from '../../lib/ids.ts';
import { ALERT_MAIL_JOB_KIND, alertRecipients } from './alert-mail.ts';
import { coversProject, endpointProjects, subscribes } from './subscriptions.ts';

/** Every event name an endpoint may subscribe to (or "*": all, including names added later). */
export const EVENT_TYPES = ['run.completed', 'tracked_test.changed', 'tracked_test.skipped', 'credits.low', 'crawler.blocked'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const WEBHOOK_JOB_KIND = 'webhook.deliver';
export const WEBHOOK_LANE = 'webhooks';
/** The job that looks for a significant change after a tracked test's run (tracking/change-events.ts); same lane. */
export const TEST_CHANGE_JOB_KIND = 'tracked_test.check';
/**
 * Claims of one delivery job before the worker gives it up: retries are rescheduled by the
 * handler itself (the schedule, not this number, ends a message), so this only bounds reclaims
 * after workers died mid-attempt.
 */
export const DELIVERY_JOB_MAX_CLAIMS = 50;

export { subscribes };

const wakers = new Set<() => void>();

/** A worker in this process wants waking when an event queued deliveries (see emitEvent); returns the unsubscribe. */
export function onDeliveryQueued(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

export interface NewEvent {
  accountId: string;
  type: EventType;
  /** Names the change this event reports: the same change noticed twice gives the same key (e.g. `run.completed:vis_…`). */
  dedupeKey: string;
  data: unknown;
  /** The project the event is about (a run of one of its tests, one of its tracked tests); omitted for account events. */
  projectId?: string | null;
}

/**
 * Records an event once (by its dedupe key) and queues a delivery to every enabled endpoint of
 * the account that subscribes to its type. Call it inside the transaction that made the change
 * where there is one. Answers the event id, or null when the event was already recorded.
 */
export async function emitEvent(db: Executor, event: NewEvent): Promise<string | null> {
  const now = nowIso();
  const inserted = await db
    .insertInto('webhook_events')
    .values({ id: newId('evt'), account_id: event.accountId, type: event.type, dedupe_key: event.dedupeKey, data: JSON.stringify(event.data ?? null), created_at: now })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return null;
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events', 'project_ids'])
    .where('account_id', '=', event.accountId)
    .where('status', '=', 'enabled')
    .where('deleted_at', 'is', null)
    .execute();
  const projectId = event.projectId ?? null;
  const targets = endpoints.filter((e) => subscribes(JSON.parse(e.events) as string[], event.type) && coversProject(endpointProjects(e), projectId));
  // E-mail alerts: one job per user who chose this event (alert-mail.ts).
  const recipients = await alertRecipients(db, event.accountId, event.type);
  if (recipients.length) {
    await enqueueJobs(db, recipients.map((userId) => ({ kind: ALERT_MAIL_JOB_KIND, lane: WEBHOOK_LANE, refId: `${inserted.id}:${userId}`, accountId: event.accountId, maxAttempts: 5 })));
  }
  if (targets.length === 0) {
    if (recipients.length && wakers.size) setTimeout(() => wakers.forEach((w) => w()), 5).unref();
    return inserted.id;
  }
  const messages = targets.map((e) => ({
    id: newId('msg'),
    endpoint_id: e.id,
    event_id: inserted.id,
    account_id: event.accountId,
    event_type: event.type,
    project_id: projectId,
    status: 'pending' as const,
    attempts: 0,
    last_status_code: null,
    last_error: null,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }));
  await db.insertInto('webhook_messages').values(messages).execute();
  await enqueueJobs(
    db,
    messages.map((m) => ({ kind: WEBHOOK_JOB_KIND, lane: WEBHOOK_LANE, refId: m.id, accountId: event.accountId, maxAttempts: DELIVERY_JOB_MAX_CLAIMS })),
  );
  // The caller's transaction may not have committed yet: wake the worker a moment later (a claim
  // that finds nothing only costs one poll interval).
  if (wakers.size) setTimeout(() => wakers.forEach((w) => w()), 5).unref();
  return inserted.id;
}
