// Pending deliveries an endpoint no longer wants end at once, unsent: when the endpoint is
// disabled or deleted, and, after its `events` change, those of types it no longer subscribes
// to. They end `failed` with the reason in `last_error` (`endpoint_disabled`, `endpoint_deleted`,
// `event_unsubscribed`), so the deliveries list says why at once, and their queued jobs are
// cancelled. An attempt already in flight still records its outcome (a 2xx makes it succeeded)
// but never puts the delivery back in the retry schedule (delivery.ts). Pending deliveries of types still subscribed keep
// their schedule and go to the endpoint's current URL (a URL change moves them).
import { cancelJobsFor } from '../../jobs/queue.ts';
import { nowIso } from '../../lib/ids.ts';
import type { Executor } from '../../db/store.ts';
import { subscribes } from './subscriptions.ts';

export type EndedReason = 'endpoint_disabled' | 'endpoint_deleted' | 'event_unsubscribed' | 'project_unsubscribed';

/**
 * Ends the endpoint's pending deliveries: every one, or with `events` only those of types the
 * list does not cover, or with `projects` (reason project_unsubscribed) only those about no
 * project of the list (account events among them). Answers how many ended.
 */
export async function endPendingDeliveries(db: Executor, endpointId: string, reason: EndedReason, events?: readonly string[], projects?: readonly string[]): Promise<number> {
  let types: string[] | undefined;
  if (events) {
    const pending = await db.selectFrom('webhook_messages').select('event_type').distinct().where('endpoint_id', '=', endpointId).where('status', '=', 'pending').execute();
    types = pending.map((p) => p.event_type).filter((t) => !subscribes(events, t));
    if (types.length === 0) return 0;
  }
  const ended = await db
    .updateTable('webhook_messages')
    .set({ status: 'failed', last_error: reason, next_attempt_at: null, updated_at: nowIso() })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .$if(types !== undefined, (qb) => qb.where('event_type', 'in', types!))
    // An endpoint's project list is never empty (endpoints.ts): null means every project.
    .$if(projects !== undefined, (qb) => qb.where((eb) => eb.or([eb('project_id', 'is', null), eb('project_id', 'not in', projects!)])))
    .returning('id')
    .execute();
  await cancelJobsFor(db, ended.map((m) => m.id));
  return ended.length;
}
