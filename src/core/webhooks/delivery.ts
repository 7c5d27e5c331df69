// The delivery job: one claim makes one attempt of one message. The attempt number is reserved
// (webhook_attempts' primary key) in a transaction fenced by the job's lease before anything is
// sent, so an attempt is made once even when workers race or die; the outcome and the next
// attempt (the job put back with the schedule's delay) are written in one fenced transaction.
// An endpoint that failed every delivery for SIGHTLINE_WEBHOOK_DISABLE_AFTER_MS is disabled
// here, once, with an activity record and a mail to the account's users when SMTP is set.
import { sql } from 'kysely';
import { finishJob, holdLease, leaseOf, markJobFinished, retryJobLater, type Job } from '../../jobs/queue.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import type { Mailer } from '../accounts/mail.ts';
import type { Tx } from '../../db/store.ts';
import type { WebhookDeps } from './endpoints.ts';
import { postOnce, type AttemptResult } from './send.ts';
import { endPendingDeliveries, type EndedReason } from './pending.ts';
import { openSecret, signPayload } from './signing.ts';
import { slackMessage } from './slack.ts';
import { coversProject, endpointProjects, subscribes } from './subscriptions.ts';

export interface DeliveryDeps extends WebhookDeps {
  timeoutMs: number;
  /** The waits before each retry (ms): attempt n failing waits retrySchedule[n-1]; past the end the message failed. */
  retrySchedule: number[];
  /** An endpoint failing every delivery this long is disabled (0: never). */
  disableAfterMs: number;
  mailer?: Mailer;
  /** Where the console is, for links in messages and mail. */
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** The Standard Webhooks body of an event: the same bytes on every attempt. */
export function eventBody(event: { type: string; created_at: string; data: string }): string {
  return `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(toApiTime(event.created_at))},"data":${event.data}}`;
}

interface Prepared {
  attempt: number;
  url: string;
  kind: string;
  secret: string;
  event: { type: string; created_at: string; data: string };
  endpointId: string;
  accountId: string;
}

export async function deliverMessage(deps: DeliveryDeps, job: Job, signal: AbortSignal): Promise<void> {
  const lease = leaseOf(job);
  const { db } = deps.store;
  const prepared = await db.transaction().execute(async (trx): Promise<Prepared | null> => {
    await holdLease(trx, lease);
    const msg = await trx.selectFrom('webhook_messages').selectAll().where('id', '=', job.ref_id).executeTakeFirst();
    if (!msg || msg.status !== 'pending') {
      await finishJob(trx, job.id, 'done', undefined, lease);
      return null;
    }
    const endpoint = await trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', msg.endpoint_id).executeTakeFirst();
    // Not sent to an endpoint disabled or deleted, nor an event type it stopped subscribing to
    // (pending.ts ends those when the endpoint changes; this catches a delivery queued by an event
    // recorded while that change committed).
    const ended: EndedReason | null =
      !endpoint || endpoint.deleted_at ? 'endpoint_deleted'
      : endpoint.status !== 'enabled' ? 'endpoint_disabled'
      : !subscribes(JSON.parse(endpoint.events) as string[], msg.event_type) ? 'event_unsubscribed'
      : !coversProject(endpointProjects(endpoint), msg.project_id) ? 'project_unsubscribed'
      : null;
    if (!endpoint || ended) {
      await trx.updateTable('webhook_messages').set({ status: 'failed', last_error: ended, next_attempt_at: null, updated_at: nowIso() }).where('id', '=', msg.id).execute();
      await finishJob(trx, job.id, 'done', undefined, lease);
      return null;
    }
    const event = await trx.selectFrom('webhook_events').select(['type', 'created_at', 'data']).where('id', '=', msg.event_id).executeTakeFirstOrThrow();
    const attempt = msg.attempts + 1;
    const now = nowIso();
    await trx.insertInto('webhook_attempts').values({ message_id: msg.id, attempt, started_at: now, finished_at: null, status_code: null, error: null, duration_ms: null }).execute();
    await trx.updateTable('webhook_messages').set({ attempts: attempt, updated_at: now }).where('id', '=', msg.id).execute();
    return { attempt, url: endpoint.url, kind: endpoint.kind, secret: endpoint.secret, event, endpointId: endpoint.id, accountId: endpoint.account_id };
  });
  if (!prepared) {
    markJobFinished(signal);
    return;
  }

  const result = await attemptOnce(deps, job.ref_id, prepared, signal);

  const disabled = await db.transaction().execute(async (trx) => {
    await holdLease(trx, lease);
    const now = nowIso();
    await trx
      .updateTable('webhook_attempts')
      .set({ finished_at: now, status_code: result.statusCode, error: result.error, duration_ms: result.durationMs })
      .where('message_id', '=', job.ref_id)
      .where('attempt', '=', prepared.attempt)
      .execute();
    if (result.ok) {
      await trx
        .updateTable('webhook_messages')
        .set({ status: 'succeeded', last_status_code: result.statusCode, last_error: null, next_attempt_at: null, updated_at: now })
        .where('id', '=', job.ref_id)
        .execute();
      await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', prepared.endpointId).where('failing_since', 'is not', null).execute();
      await finishJob(trx, job.id, 'done', undefined, lease);
      return false;
    }
    const delay = deps.retrySchedule[prepared.attempt - 1];
    const failedFor = { last_status_code: result.statusCode, last_error: result.error, updated_at: now };
    if (delay !== undefined) {
      const next = new Date(Date.now() + delay).toISOString();
      // Still pending unless the endpoint was disabled, deleted or unsubscribed meanwhile (pending.ts):
      // then it stays ended with that reason, and the job put back finds nothing to do.
      await trx.updateTable('webhook_messages').set({ ...failedFor, next_attempt_at: next }).where('id', '=', job.ref_id).where('status', '=', 'pending').execute();
      await retryJobLater(trx, job.id, delay, result.error ?? 'failed', lease);
    } else {
      await trx.updateTable('webhook_messages').set({ ...failedFor, status: 'failed', next_attempt_at: null }).where('id', '=', job.ref_id).where('status', '=', 'pending').execute();
      await finishJob(trx, job.id, 'done', undefined, lease);
    }
    await trx.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', prepared.endpointId).where('failing_since', 'is', null).execute();
    return disableIfFailingTooLong(deps, trx, prepared.endpointId, prepared.accountId);
  });
  markJobFinished(signal);
  if (disabled) await mailDisabled(deps, prepared.accountId, prepared.endpointId, prepared.url);
}

async function attemptOnce(deps: DeliveryDeps, messageId: string, p: Prepared, signal: AbortSignal): Promise<AttemptResult> {
  let secret: string;
  try {
    secret = openSecret(p.secret, deps.secretKey);
  } catch (err) {
    return { ok: false, statusCode: null, error: `secret: ${(err as Error).message}`, durationMs: 0 };
  }
  const body = p.kind === 'slack' ? JSON.stringify(slackMessage(p.event.type, JSON.parse(p.event.data), deps.publicUrl)) : eventBody(p.event);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signPayload(secret, messageId, timestamp, body),
  };
  return postOnce(p.url, headers, body, { allow: deps.allow, lookup: deps.lookup, timeoutMs: deps.timeoutMs, signal });
}

/**
 * Disables the endpoint when it has failed every delivery since `failing_since` for longer than
 * the limit. The update is conditional on the endpoint being enabled, so of several workers
 * failing at once exactly one disables it and records the activity.
 */
async function disableIfFailingTooLong(deps: DeliveryDeps, trx: Tx, endpointId: string, accountId: string): Promise<boolean> {
  if (deps.disableAfterMs <= 0) return false;
  const cutoff = new Date(Date.now() - deps.disableAfterMs).toISOString();
  const now = nowIso();
  const res = await trx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: 'failing', updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'enabled')
    .where('failing_since', '<=', cutoff)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  // Its other pending deliveries end now, unsent, as when its owner disables it (pending.ts).
  await endPendingDeliveries(trx, endpointId, 'endpoint_disabled');
  await trx
    .insertInto('activity')
    .values({
      id: newId('act'),
      account_id: accountId,
      key_id: null,
      key_prefix: null,
      source: 'webhooks',
      action: 'webhooks.disabled',
      method: 'POST',
      path: `/v1/webhooks/${endpointId}`,
      http_status: 0,
      status: 'error',
      credits: 0,
      request_id: newId('req'),
      created_at: now,
    })
    .execute();
  deps.log?.warn({ endpoint_id: endpointId, account_id: accountId }, 'webhook endpoint disabled: every delivery failed');
  return true;
}

async function mailDisabled(deps: DeliveryDeps, accountId: string, endpointId: string, url: string): Promise<void> {
  if (!deps.mailer?.configured) return;
  const users = await deps.store.db.selectFrom('users').select('email').where('account_id', '=', accountId).execute();
  const days = Math.round((deps.disableAfterMs / 86_400_000) * 10) / 10;
  const text =
    `The webhook endpoint ${endpointId} (${url}) failed every delivery for ${days} days, so sightline disabled it.\n\n` +
    `Nothing more is sent to it until it is enabled again (PATCH /v1/webhooks/${endpointId} with {"status": "enabled"}, ` +
    `or \`sightline webhooks update ${endpointId} --status enabled\`). Its delivery log shows what it answered.\n`;
  for (const u of users) {
    try {
      await deps.mailer.send(u.email, 'A sightline webhook endpoint was disabled', text);
    } catch (err) {
      deps.log?.error({ err, endpoint_id: endpointId }, 'could not mail that a webhook endpoint was disabled');
    }
  }
}

/** The worker's give-up handler: a delivery whose job ran out of claims ends failed. */
export async function giveUpDelivery(deps: Pick<DeliveryDeps, 'store'>, job: Job, reason: string): Promise<void> {
  const lease = leaseOf(job);
  await deps.store.db.transaction().execute(async (trx) => {
    await holdLease(trx, lease);
    await sql`update webhook_messages set status = 'failed', last_error = ${reason.slice(0, 300)}, next_attempt_at = null, updated_at = ${nowIso()}
               where id = ${job.ref_id} and status = 'pending'`.execute(trx);
    await finishJob(trx, job.id, 'failed', reason, lease);
  });
}
