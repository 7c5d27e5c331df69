// Webhook endpoints of an account: create (the whsec_ secret shown once), list, read, change,
// delete; their delivery log and a manual retry. The URL must pass the page fetcher's address
// policy (public http(s), or a host the operator allowed in SIGHTLINE_FETCH_ALLOW), checked here
// and again, on the address actually connected to, at every delivery (delivery.ts).
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import { checkCap } from '../limits.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import { enqueueJobs } from '../../jobs/queue.ts';
import { checkOutboundTarget, isFetchError, type FetchAllowlist, type HostResolver } from '../pages/fetch/index.ts';
import type { Store } from '../../db/store.ts';
import { lockAccount } from '../billing/ledger.ts';
import { DELIVERY_JOB_MAX_CLAIMS, WEBHOOK_JOB_KIND, WEBHOOK_LANE } from './events.ts';
import { endPendingDeliveries } from './pending.ts';
import { newWebhookSecret, sealSecret } from './signing.ts';
import { coversProject, endpointProjects, subscribes } from './subscriptions.ts';
import type { WebhookEndpointsTable, WebhookMessagesTable } from '../../db/schema.ts';
import type { Principal } from '../accounts/accounts.ts';
import { requireAdminToGrant } from '../accounts/team.ts';

/** What endpoint operations and deliveries need from the composition root. */
export interface WebhookDeps {
  store: Store;
  /** The page fetcher's allowlist (SIGHTLINE_FETCH_ALLOW). */
  allow: FetchAllowlist;
  /** Name resolution (tests replace it; default: the system resolver). */
  lookup?: HostResolver;
  /** SIGHTLINE_WEBHOOK_SECRET_KEY: secrets are stored encrypted when set. */
  secretKey?: string;
  /** SIGHTLINE_MAX_WEBHOOKS_PER_ACCOUNT: endpoints (not deleted) one account may have. */
  maxEndpoints?: number;
}

export const WEBHOOK_FORMATS = ['standard_webhooks', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * One answer for every way the url's host fails the address policy: it could not be resolved
 * (or not in time), or it resolves to an address that is not public. Telling them apart would
 * make this check an oracle for which internal names exist (a name inside the network resolves to
 * a private address, a made-up one does not resolve); either way the operator's remedy is the
 * same allow-list the page fetcher's fetch_blocked names.
 */
export const WEBHOOK_URL_NOT_PUBLIC =
  'The url\'s host does not resolve to an address webhooks may reach: it cannot be resolved, or it is private, loopback, link-local or otherwise not public. The operator can allow such a host with SIGHTLINE_FETCH_ALLOW (hosts, host:port pairs or CIDRs).';
const NOT_PUBLIC_CODES = new Set(['blocked_address', 'network', 'timeout']);

/** The URL, normalized, when the address policy lets it through; else 400 invalid_url. */
export async function checkWebhookUrl(deps: Pick<WebhookDeps, 'allow' | 'lookup'>, url: string): Promise<string> {
  try {
    const target = await checkOutboundTarget(url, { allow: deps.allow, lookup: deps.lookup });
    return target.url.href;
  } catch (err) {
    if (isFetchError(err)) {
      if (NOT_PUBLIC_CODES.has(err.code)) throw new AppError('invalid_url', WEBHOOK_URL_NOT_PUBLIC, { reason: 'not_public' });
      throw new AppError('invalid_url', 'The url is not a valid http(s) URL.', { reason: err.code });
    }
    throw err;
  }
}

export function renderEndpoint(e: WebhookEndpointsTable) {
  return {
    id: e.id,
    url: e.url,
    events: JSON.parse(e.events) as string[],
    description: e.description,
    status: e.status,
    format: (e.kind === 'slack' ? 'slack' : 'standard_webhooks') as WebhookFormat,
    project_ids: endpointProjects(e),
    disabled_reason: e.disabled_reason,
    created_at: toApiTime(e.created_at),
    updated_at: toApiTime(e.updated_at),
  };
}

/** The most projects one endpoint may be limited to. */
export const WEBHOOK_MAX_PROJECTS = 100;

/**
 * The project list an endpoint is limited to, checked: each one a project of the account (else
 * 400 naming the unknown ids); null (or omitted) is every event of the account.
 */
async function checkProjects(store: Store, accountId: string, ids: readonly string[] | null | undefined): Promise<string | null> {
  if (ids === null || ids === undefined) return null;
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) {
    throw new AppError('invalid_request', 'project_ids lists the projects whose events the endpoint receives: give at least one, or null for every event of the account.', { parameter: 'project_ids' });
  }
  if (wanted.length > WEBHOOK_MAX_PROJECTS) throw new AppError('invalid_request', `project_ids may list at most ${WEBHOOK_MAX_PROJECTS} projects.`, { parameter: 'project_ids' });
  const found = await store.db.selectFrom('projects').select('id').where('account_id', '=', accountId).where('id', 'in', wanted).execute();
  const known = new Set(found.map((p) => p.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length) throw new AppError('invalid_request', `No project ${unknown.join(', ')} in this account.`, { parameter: 'project_ids', unknown });
  return JSON.stringify(wanted);
}

/** A new endpoint; `by` is who asks (a signed-in member is refused: requireAdminToGrant). */
export async function createEndpoint(
  deps: WebhookDeps,
  accountId: string,
  input: { url: string; events: string[]; description?: string | null; format?: WebhookFormat; project_ids?: string[] | null },
  by: Pick<Principal, 'session'> = {},
) {
  requireAdminToGrant(by, 'adds webhook endpoints and Slack channels');
  const url = await checkWebhookUrl(deps, input.url);
  const projectIds = await checkProjects(deps.store, accountId, input.project_ids);
  const secret = newWebhookSecret();
  const now = nowIso();
  const row: WebhookEndpointsTable = {
    id: newId('wh'),
    account_id: accountId,
    url,
    kind: input.format === 'slack' ? 'slack' : 'webhook',
    events: JSON.stringify(normalizeEvents(input.events)),
    description: input.description ?? null,
    status: 'enabled',
    secret: sealSecret(secret, deps.secretKey),
    failing_since: null,
    disabled_reason: null,
    project_ids: projectIds,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  // The count and the insert in one transaction that first locks the account's row (as credit
  // moves do): two creates at the same instant, in one process or two, cannot both see room for one.
  await deps.store.db.transaction().execute(async (trx) => {
    await lockAccount(deps.store, trx, accountId);
    if (deps.maxEndpoints !== undefined) {
      const { n } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
      checkCap(n, deps.maxEndpoints, { holder: 'account', things: 'webhook endpoints', allows: 'this instance allows', advice: 'delete one it no longer uses first (each endpoint receives every event it subscribes to).' });
    }
    await trx.insertInto('webhook_endpoints').values(row).execute();
  });
  // The only time the secret is shown; a Slack channel checks no signature, so it gets none.
  return { ...renderEndpoint(row), secret: row.kind === 'slack' ? null : secret };
}

/** "*" subsumes the rest; duplicates go. */
function normalizeEvents(events: string[]): string[] {
  return events.includes('*') ? ['*'] : [...new Set(events)];
}

async function findEndpoint(store: Store, accountId: string, id: string): Promise<WebhookEndpointsTable> {
  const row = await store.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `Webhook ${id} not found.`);
  return row;
}

export async function listEndpoints(store: Store, accountId: string) {
  const rows = await store.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  return { webhooks: rows.map(renderEndpoint) };
}

export async function getEndpoint(store: Store, accountId: string, id: string) {
  return renderEndpoint(await findEndpoint(store, accountId, id));
}

/**
 * Whether a change sends the account's data somewhere new (another URL) or sends more of it (an
 * event type or a project the endpoint did not take, or every project again). Only an admin makes
 * such a change from a session; describing, disabling, enabling again and narrowing are anyone's:
 * the URL and what it receives stay as an admin set them.
 */
function widens(current: WebhookEndpointsTable, next: { url?: string; events?: string; project_ids?: string | null }): boolean {
  if (next.url !== undefined && next.url !== current.url) return true;
  const events = JSON.parse(current.events) as string[];
  if (next.events !== undefined && (JSON.parse(next.events) as string[]).some((e) => !subscribes(events, e))) return true;
  const projects = endpointProjects(current);
  if (next.project_ids !== undefined && projects !== null) {
    const wanted = endpointProjects({ project_ids: next.project_ids });
    if (wanted === null || wanted.some((p) => !projects.includes(p))) return true;
  }
  return false;
}

/** Changes an endpoint; `by` is who asks (a signed-in member may not widen it: see widens). */
export async function updateEndpoint(
  deps: WebhookDeps,
  accountId: string,
  id: string,
  patch: { url?: string; events?: string[]; description?: string | null; status?: 'enabled' | 'disabled'; project_ids?: string[] | null },
  by: Pick<Principal, 'session'> = {},
) {
  const current = await findEndpoint(deps.store, accountId, id);
  const set: Partial<WebhookEndpointsTable> = { updated_at: nowIso() };
  if (patch.project_ids !== undefined) set.project_ids = await checkProjects(deps.store, accountId, patch.project_ids);
  if (patch.url !== undefined) set.url = await checkWebhookUrl(deps, patch.url);
  if (patch.events !== undefined) set.events = JSON.stringify(normalizeEvents(patch.events));
  if (widens(current, set)) requireAdminToGrant(by, "sends an endpoint to another URL, more event types or more projects (you may describe, pause, narrow or delete it)");
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.status !== undefined && patch.status !== current.status) {
    set.status = patch.status;
    // Enabled again by hand: the failure clock starts over.
    set.failing_since = null;
    set.disabled_reason = patch.status === 'disabled' ? 'disabled_by_user' : null;
  }
  await deps.store.db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_endpoints').set(set).where('id', '=', current.id).execute();
    // What the endpoint no longer wants is not sent later (pending.ts): all of it when disabled,
    // else the pending deliveries of event types it stopped subscribing to.
    if (set.status === 'disabled') await endPendingDeliveries(trx, current.id, 'endpoint_disabled');
    else {
      if (set.events !== undefined) await endPendingDeliveries(trx, current.id, 'event_unsubscribed', JSON.parse(set.events) as string[]);
      // Limited to fewer projects: the deliveries about the others (and account events) end.
      if (set.project_ids) await endPendingDeliveries(trx, current.id, 'project_unsubscribed', undefined, JSON.parse(set.project_ids) as string[]);
    }
  });
  return renderEndpoint({ ...current, ...set });
}

/** Deletes the endpoint: nothing more is delivered to it (its pending deliveries end failed, endpoint_deleted). */
export async function deleteEndpoint(store: Store, accountId: string, id: string) {
  const current = await findEndpoint(store, accountId, id);
  const now = nowIso();
  await store.db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_endpoints').set({ deleted_at: now, status: 'disabled', updated_at: now }).where('id', '=', current.id).execute();
    await endPendingDeliveries(trx, current.id, 'endpoint_deleted');
  });
  return { id: current.id, deleted: true as const };
}

function renderDelivery(m: WebhookMessagesTable, attempts: { attempt: number; started_at: string; finished_at: string | null; status_code: number | null; error: string | null; duration_ms: number | null }[]) {
  return {
    id: m.id,
    event: m.event_type,
    event_id: m.event_id,
    created_at: toApiTime(m.created_at),
    attempts: m.attempts,
    status: m.status,
    last_status_code: m.last_status_code,
    last_error: m.last_error,
    next_attempt_at: m.status === 'pending' ? toApiTime(m.next_attempt_at) : null,
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      started_at: toApiTime(a.started_at),
      finished_at: toApiTime(a.finished_at),
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
    })),
  };
}

export type Delivery = ReturnType<typeof renderDelivery>;

async function renderDeliveries(store: Store, messages: WebhookMessagesTable[]): Promise<Delivery[]> {
  if (messages.length === 0) return [];
  const attempts = await store.db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('message_id', 'in', messages.map((m) => m.id))
    .orderBy('message_id')
    .orderBy('attempt')
    .execute();
  return messages.map((m) => renderDelivery(m, attempts.filter((a) => a.message_id === m.id)));
}

/** The endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries(store: Store, accountId: string, endpointId: string, limit: number) {
  const endpoint = await findEndpoint(store, accountId, endpointId);
  const messages = await store.db
    .selectFrom('webhook_messages')
    .selectAll()
    .where('endpoint_id', '=', endpoint.id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return { deliveries: await renderDeliveries(store, messages) };
}

/**
 * Delivers a message again now. A message still in its retry schedule has its next attempt
 * moved to now; a delivered or failed one is made pending and gets one job: the status change is
 * conditional, so two retries at once queue one attempt. A failed attempt of a message past its
 * schedule ends it failed again; one still inside its schedule continues it.
 */
export async function retryDelivery(store: Store, accountId: string, endpointId: string, messageId: string, onQueued?: () => void) {
  const endpoint = await findEndpoint(store, accountId, endpointId);
  // A disabled endpoint is never delivered to: refuse now rather than queue an attempt that ends
  // failed with endpoint_disabled.
  if (endpoint.status !== 'enabled') {
    const why = endpoint.disabled_reason === 'failing' ? 'it was disabled after failing too long' : 'it was disabled';
    throw new AppError('webhook_disabled', `Webhook ${endpoint.id} is disabled (${why}); enable it (PATCH /v1/webhooks/${endpoint.id} {"status":"enabled"}) before retrying its deliveries.`, {
      webhook_id: endpoint.id,
      disabled_reason: endpoint.disabled_reason,
    });
  }
  const now = nowIso();
  await store.db.transaction().execute(async (trx) => {
    const msg = await trx.selectFrom('webhook_messages').selectAll().where('id', '=', messageId).where('endpoint_id', '=', endpoint.id).executeTakeFirst();
    if (!msg) throw new AppError('not_found', `Delivery ${messageId} not found.`);
    // Nor is an event type the endpoint no longer subscribes to (its attempt would end unsent).
    if (!subscribes(JSON.parse(endpoint.events) as string[], msg.event_type)) {
      throw new AppError('webhook_event_unsubscribed', undefined, { webhook_id: endpoint.id, event: msg.event_type });
    }
    // Nor an event about a project the endpoint is no longer limited to (or an account event).
    if (!coversProject(endpointProjects(endpoint), msg.project_id)) {
      const about = msg.project_id ? `project ${msg.project_id}` : 'the account (no project)';
      throw new AppError('webhook_event_unsubscribed', `Webhook ${endpoint.id} now receives only the events of its project_ids; this delivery is about ${about}. Add the project to project_ids (or set null) to retry it.`, {
        webhook_id: endpoint.id,
        event: msg.event_type,
        project_id: msg.project_id,
      });
    }
    const reopened = await trx
      .updateTable('webhook_messages')
      .set({ status: 'pending', next_attempt_at: now, updated_at: now })
      .where('id', '=', msg.id)
      .where('status', '!=', 'pending')
      .executeTakeFirst();
    if (Number(reopened.numUpdatedRows) === 1) {
      await enqueueJobs(trx, [{ kind: WEBHOOK_JOB_KIND, lane: WEBHOOK_LANE, refId: msg.id, accountId, maxAttempts: DELIVERY_JOB_MAX_CLAIMS }]);
    } else {
      await sql`update jobs set run_after = ${now}, updated_at = ${now} where ref_id = ${msg.id} and kind = ${WEBHOOK_JOB_KIND} and status = 'queued'`.execute(trx);
      await trx.updateTable('webhook_messages').set({ next_attempt_at: now, updated_at: now }).where('id', '=', msg.id).execute();
    }
  });
  onQueued?.();
  const msg = await store.db.selectFrom('webhook_messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow();
  return (await renderDeliveries(store, [msg]))[0]!;
}
