// What a key must be able to read to subscribe to an event. An event carries the data of a run, a
// test, the balance or a site's logs, so an endpoint is a standing read of that data: a key with
// webhooks:write alone may not subscribe to what it could not read.
import type { Principal } from '../accounts/accounts.ts';
import { AppError } from '../errors.ts';
import type { Scope } from '../accounts/scopes.ts';
import type { EventType } from './events.ts';

/** The read scope whose data each event delivers (the balance is read with runs:read, as GET /v1/usage). */
export const READ_SCOPE_OF_EVENT: Record<EventType, Scope> = {
  'run.completed': 'runs:read',
  'tracked_test.changed': 'tests:read',
  'tracked_test.skipped': 'tests:read',
  'credits.low': 'runs:read',
  'crawler.blocked': 'sites:read',
};

/** The read scopes a subscription needs ("*": all of them, for every event now and later). */
export function readScopesFor(events: readonly string[]): Scope[] {
  const all = Object.values(READ_SCOPE_OF_EVENT);
  const needed = events.includes('*') ? all : events.map((e) => READ_SCOPE_OF_EVENT[e as EventType]).filter((s): s is Scope => s !== undefined);
  return [...new Set(needed)];
}

/**
 * 403 missing_scope unless the caller may read what each subscribed event carries. The key has
 * the endpoint's own scope (webhooks:write) already, so the answer names every read scope it
 * lacks and the events that need each: one refusal says all that the call needs.
 */
export function requireEventScopes(principal: Principal, events: readonly string[] | undefined): void {
  if (!events) return;
  const missing = readScopesFor(events).filter((scope) => !principal.scopes.has(scope));
  if (missing.length === 0) return;
  const named = events.includes('*') ? (Object.keys(READ_SCOPE_OF_EVENT) as EventType[]) : (events as EventType[]);
  const needs = missing.map((scope) => `${scope} (${named.filter((e) => READ_SCOPE_OF_EVENT[e] === scope).join(', ')})`);
  const subject = events.includes('*') ? 'Subscribing to "*" (every event)' : 'Subscribing to these events';
  throw new AppError('missing_scope', `${subject} needs the scopes that read their data; this key lacks ${needs.join(' and ')}.`, {
    required_scope: missing[0],
    missing_scopes: missing,
  });
}
