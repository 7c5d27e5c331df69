// Bearer authentication, scope checks, per-key rate limits and the activity log, as hooks on
// every route that declares an `action` in its config. Public routes (health, docs) declare none.
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onResponseHookHandler } from 'fastify';
import { authenticate, authenticateCached, hashKey, requireScope, touchKey, type Principal } from '../core/accounts/accounts.ts';
import type { Scope } from '../core/accounts/scopes.ts';
import type { ActionContext } from '../core/billing/actions.ts';
import type { Core } from '../core/index.ts';
import { applyRateLimit, type KeyRateLimiter, type RateLimitDecision } from './rate-limit.ts';
import { consolePrincipal } from './session.ts';

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

/**
 * The key digest of a request's bearer token, remembered per connection: a keep-alive client
 * sends the same token on every request, and each SHA-256 cost about 0.5 µs of CPU on this
 * project's machine (bench:api). Only the last token and its digest are kept, with the socket,
 * so they go when the connection does; the principal is still looked up by digest, with the key
 * cache's TTL and revocation rules. Comparing the token with the connection's previous one need
 * not be constant-time: both came from the same client.
 */
const lastDigest = new WeakMap<object, { raw: string; digest: string }>();
function connectionDigest(request: FastifyRequest): (raw: string) => string {
  return (raw) => {
    const socket = request.raw.socket;
    if (!socket) return hashKey(raw);
    const last = lastDigest.get(socket);
    if (last?.raw === raw) return last.digest;
    const digest = hashKey(raw);
    lastDigest.set(socket, { raw, digest });
    return digest;
  };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

export function registerAuth(app: FastifyInstance, core: Core, limiter: KeyRateLimiter) {
  // Runs after authentication: rate limit headers, the 429, the scope check, last-used time.
  const admit = (request: FastifyRequest, reply: FastifyReply, config: FastifyContextConfig, decision: RateLimitDecision) => {
    applyRateLimit(reply, decision, 'API key');
    if (config.scope) requireScope(request.principal!, config.scope);
    if (!request.principal!.session) touchKey(core.store.db, request.principal!.keyId)?.catch(() => {});
  };

  const identify = (request: FastifyRequest, principal: Principal) => {
    request.principal = principal;
    // Only a signed-in console session is the console surface (recorded, and idempotency-scoped,
    // as `console`); a key is the API whatever its request says about itself.
    const source = principal.session ? 'console' : 'api';
    request.actionContext = { accountId: principal.accountId, source, requestId: request.id, credits: 0 };
  };

  const slowPath = async (request: FastifyRequest, reply: FastifyReply, config: FastifyContextConfig) => {
    // No bearer key: a signed-in console user (session cookie, CSRF-checked) may act instead.
    const principal = (request.headers.authorization === undefined && (await consolePrincipal(core, request))) || (await authenticate(core.store.db, bearerToken(request), 'api'));
    identify(request, principal);
    admit(request, reply, config, await limiter.consume(principal.keyId));
  };

  // A callback hook with a synchronous path: a key verified within the cache TTL whose process
  // still holds rate-limit points costs no promise at all (bench:api); anything else (first use
  // of a key, a batch refill, every error) goes through the async path.
  const authHook = (config: FastifyContextConfig): onRequestHookHandler => (request, reply, done) => {
    const principal = authenticateCached(core.store.db, bearerToken(request), 'api', connectionDigest(request));
    if (principal) {
      identify(request, principal);
      const decision = limiter.consume(principal.keyId);
      if (!isPromiseLike(decision)) {
        try {
          admit(request, reply, config, decision);
        } catch (err) {
          return done(err as Error);
        }
        return done();
      }
      Promise.resolve(decision)
        .then((d) => admit(request, reply, config, d))
        .then(() => done(), done);
      return;
    }
    slowPath(request, reply, config).then(() => done(), done);
  };

  const activityHook = (action: string): onResponseHookHandler => (request, reply, done) => {
    const principal = request.principal;
    if (!principal) return done();
    core.activity.recordRequest({
      principal,
      source: request.actionContext?.source ?? 'api',
      action,
      method: request.method,
      path: pathOf(request.url),
      httpStatus: reply.statusCode,
      credits: request.actionContext?.credits ?? 0,
      requestId: request.id,
    });
    done();
  };

  // The hooks go on exactly the routes that declare an action, each with its config in hand:
  // public routes (health, docs) pay nothing for them, and no request reads
  // request.routeOptions, which Fastify builds anew on every access (bench:api).
  app.addHook('onRoute', (route) => {
    const config = route.config as FastifyContextConfig | undefined;
    if (!config?.action) return;
    route.onRequest = [authHook(config), ...hookList(route.onRequest)];
    route.onResponse = [...hookList(route.onResponse), activityHook(config.action)];
  });
}

/** The URL without its query string. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
