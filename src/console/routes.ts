// The web console surface: the page and its static modules, and the console's own endpoints
// under /console/api (sign-in, keys, ledger, the operator's view). Everything else the console
// shows it reads through the public /v1 API, authenticated by the session cookie.
// The one thing to know: every /console/api route declares `console.access` — 'public' (the
// sign-in forms: CSRF by the pre-session cookie), 'user' or 'operator' (a live session, its CSRF
// token on every state-changing request) — and one hook enforces it before the handler runs.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../core/errors.ts';
import type { Core } from '../core/index.ts';
import { createMailer } from '../core/accounts/mail.ts';
import { checkCsrf, preSessionCsrfOf, sessionOf, setPreSessionCsrfCookie } from '../web/session.ts';
import { consolePublicUrl, needsOwner } from '../core/accounts/users.ts';
import { loadAssets } from './assets.ts';
import type { ConsoleContext, ProviderKeyView } from './context.ts';
import { registerAuthRoutes } from './api/auth.ts';
import { registerKeyRoutes } from './api/keys.ts';
import { registerAccountRoutes } from './api/account.ts';
import { registerOperatorRoutes } from './api/operator.ts';
import { registerTeamRoutes } from './api/team.ts';

/** How long closing the server waits for mail sent after an answer. */
const MAIL_DRAIN_MS = 5_000;

export function registerConsole(app: FastifyInstance, core: Core, opts: { providerKeys?: () => ProviderKeyView[] } = {}) {
  const { assets, shell, scriptHash } = loadAssets();
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${scriptHash}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

  const sendAsset = (request: FastifyRequest, reply: FastifyReply, a: ReturnType<typeof loadAssets>['shell']) => {
    reply.header('content-security-policy', csp);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-cache');
    reply.header('etag', a.etag);
    reply.header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === a.etag) return reply.code(304).send();
    reply.type(a.type);
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
      reply.header('content-encoding', 'gzip');
      return reply.send(a.gzip);
    }
    return reply.send(a.body);
  };

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console'));
  app.get('/console', { schema: { hide: true } }, async (request, reply) => sendAsset(request, reply, shell));
  app.get<{ Params: { '*': string } }>('/console/*', { schema: { hide: true } }, async (request, reply) => {
    // Not a page: the console API's own answer (404, or 405 for a path it has with another method).
    if (request.params['*'].startsWith('api/')) return reply.callNotFound();
    return sendAsset(request, reply, shell);
  });
  app.get<{ Params: { '*': string } }>('/console/assets/*', { schema: { hide: true } }, async (request, reply) => {
    const a = assets.get(request.params['*']);
    if (!a) throw new AppError('not_found', 'No such console file.');
    return sendAsset(request, reply, a);
  });

  const pending = new Set<Promise<void>>();
  const ctx: ConsoleContext = {
    core,
    providerKeys: opts.providerKeys ?? (() => []),
    mailer: createMailer(core.config.SIGHTLINE_SMTP_URL, core.config.SIGHTLINE_MAIL_FROM),
    publicUrl: consolePublicUrl(core.config),
    afterResponse(reply, what, task) {
      reply.raw.once('close', () => {
        const run: Promise<void> = task()
          .catch((err) => reply.log.error({ err }, `${what} failed`))
          .finally(() => pending.delete(run));
        pending.add(run);
      });
    },
  };
  app.addHook('onClose', async () => {
    // Mail still being sent gets a few seconds (a dead mail server would hold the close for minutes).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...pending]), new Promise((r) => (timer = setTimeout(r, MAIL_DRAIN_MS)))]);
    clearTimeout(timer);
    ctx.mailer.close();
  });

  // Sign-in, sign-up, sign-out, reset and set-up forms: SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE attempts
  // per client address (the real client behind SIGHTLINE_TRUST_PROXY), besides the per-email
  // lockout (which guesses spread over many emails would not meet).
  const authLimiter = new RateLimiterMemory({ points: core.config.SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE, duration: 60 });

  app.register(async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      const rule = request.routeOptions.config.console;
      if (!rule) return;
      // Answers here carry CSRF tokens, new keys and MCP tokens, and account data: no cache keeps them.
      reply.header('cache-control', 'no-store');
      // Limited before anything else is done for it (the session lookup, reading the body): every
      // state-changing pre-session route (sign-in, sign-up, sign-out, reset, set-up, invitations)
      // and the signed-in routes marked authLimited (password change).
      if (rule.authLimited || (rule.access === 'public' && request.method !== 'GET')) {
        try {
          await authLimiter.consume(request.ip);
        } catch (res) {
          if (res instanceof RateLimiterRes) reply.header('retry-after', String(Math.ceil(res.msBeforeNext / 1000)));
          throw new AppError('rate_limited', 'Too many attempts from this address; wait a minute.');
        }
      }
      const session = await sessionOf(core, request);
      if (rule.access === 'public') {
        checkCsrf(request, session?.csrfToken ?? preSessionCsrfOf(request));
        return;
      }
      if (!session) throw new AppError('unauthorized', 'Sign in first.');
      checkCsrf(request, session.csrfToken);
      if (rule.access === 'operator' && session.role !== 'operator') throw new AppError('forbidden');
    });
    api.addHook('onResponse', (request, reply, done) => {
      const rule = request.routeOptions.config.console;
      const session = request.consoleSession;
      if (rule && session && request.method !== 'GET') {
        core.activity.recordRequest({
          principal: { accountId: session.accountId, keyId: session.userId, keyPrefix: null },
          source: 'console',
          action: `console.${rule.action}`,
          method: request.method,
          path: request.url.split('?')[0]!,
          httpStatus: reply.statusCode,
          credits: 0,
          requestId: request.id,
        });
      }
      done();
    });

    /** The page's first question: who is signed in, and the token its forms must send. */
    api.get('/console/api/session', { schema: { hide: true }, config: { console: { access: 'public', action: 'session.read' } } }, async (request, reply) => {
      const session = request.consoleSession;
      const base = {
        needs_owner: await needsOwner(core.store.db),
        signup: core.config.SIGHTLINE_SIGNUP,
        mail: ctx.mailer.configured,
        engine: core.visibility.engine,
      };
      if (session) {
        return {
          ...base,
          signed_in: true,
          csrf_token: session.csrfToken,
          user: { id: session.userId, email: session.email, role: session.role, account_role: session.accountRole },
          account: { id: session.accountId, status: session.accountStatus },
        };
      }
      let token = preSessionCsrfOf(request);
      if (!token || token.length < 20 || token.length > 100) {
        token = randomBytes(24).toString('base64url');
        setPreSessionCsrfCookie(request, reply, token);
      }
      return { ...base, signed_in: false, csrf_token: token, user: null, account: null };
    });

    registerAuthRoutes(api, ctx);
    registerKeyRoutes(api, ctx);
    registerAccountRoutes(api, ctx);
    registerOperatorRoutes(api, ctx);
    registerTeamRoutes(api, ctx);
  });
}
