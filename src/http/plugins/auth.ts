// Bearer authentication, scope checks, per-key rate limits and the activity log, as hooks on
// every route that declares an `action` in its config. Public routes (health, docs) declare none.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, requireScope, touchKey, type Principal } from '../../core/accounts/accounts.ts';
import type { Scope } from '../../core/accounts/scopes.ts';
import type { ActionContext } from '../../core/billing/actions.ts';
import { AppError } from '../../core/errors.ts';
import { newId, nowIso } from '../../core/ids.ts';
import type { Core } from '../../core/index.ts';
import type { KeyRateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Activity-log name of the endpoint, e.g. visibility.runs.create; its presence means "authenticated". */
    action?: string;
    /** Scope the key must carry; null for authenticated routes open to every key. */
    scope?: Scope | null;
  }
  interface FastifyRequest {
    principal?: Principal;
    actionContext?: ActionContext;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}

/** The context a handler passes to the core; throws if the route is not authenticated. */
export function actionContext(request: FastifyRequest): ActionContext {
  if (!request.actionContext) throw new Error('route is not authenticated');
  return request.actionContext;
}

export function registerAuth(app: FastifyInstance, core: Core, limiter: KeyRateLimiter) {
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!config?.action) return;
    const principal = await authenticate(core.store.db, bearerToken(request), 'api');
    request.principal = principal;
    // The web console is a client of this API; it names itself so its requests are recorded
    // (and idempotency-scoped) as the console surface.
    const source = request.headers['x-sightline-surface'] === 'console' ? 'console' : 'api';
    request.actionContext = { accountId: principal.accountId, source, requestId: request.id, credits: 0 };
    const decision = await limiter.consume(principal.keyId);
    reply.header('RateLimit-Limit', decision.limit);
    reply.header('RateLimit-Remaining', decision.remaining);
    reply.header('RateLimit-Reset', decision.resetSeconds);
    if (!decision.allowed) {
      reply.header('Retry-After', decision.resetSeconds);
      throw new AppError('rate_limited', `Rate limit of ${decision.limit} requests per minute exceeded for this API key.`, {
        retry_after_seconds: decision.resetSeconds,
      });
    }
    if (config.scope) requireScope(principal, config.scope);
    touchKey(core.store.db, principal.keyId)?.catch(() => {});
  });

  app.addHook('onResponse', async (request, reply) => {
    const principal = request.principal;
    const action = request.routeOptions.config?.action;
    if (!principal || !action) return;
    const status = reply.statusCode;
    core.activity.record({
      id: newId('act'),
      account_id: principal.accountId,
      key_id: principal.keyId,
      key_prefix: principal.keyPrefix,
      source: request.actionContext?.source ?? 'api',
      action,
      method: request.method,
      path: request.url.split('?')[0],
      http_status: status,
      status: status < 400 ? 'ok' : 'error',
      credits: request.actionContext?.credits ?? 0,
      request_id: request.id,
      created_at: nowIso(),
    });
  });
}
