// The one error handler. Every failure leaves the service in one of two shapes:
// 422 {"detail": [{"loc", "msg", "type"}]} for schema problems, and
// {"detail": {"error", "message", ...}} for everything else. 500s never carry a stack trace,
// only the request id that finds the log line.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, ERROR_CODES, FieldError, ValidationFailed, type ErrorCode } from '../core/errors.ts';
import { authenticationFailure, isDatabaseUnavailable, unavailableLogLine } from '../db/resilience.ts';
import { JSON_TOO_DEEP } from './edge.ts';
import { trackRouteMethods } from './methods.ts';

/** Seconds a client should wait before retrying a 503 (database or fetch capacity). */
export const RETRY_AFTER_SECONDS = 2;

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

const MIB = 1024 * 1024;
/** The registry's message for the API's 1 MiB; a route with a limit of its own (POST /mcp) names that. */
function bodyTooLargeMessage(limit: number | undefined): string {
  return limit && limit !== MIB ? `The request body is larger than ${limit / MIB} MiB.` : ERROR_CODES.payload_too_large.message;
}

function sendError(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  const status = ERROR_CODES[code].status;
  const detail: Record<string, unknown> = { error: code, message, ...extra };
  if (status >= 500) detail.request_id = request.id;
  if (status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.status(status).send({ detail });
}

/** A request body that is not JSON (or is empty): what the body parser throws for it. */
export function isInvalidJsonBody(error: unknown): boolean {
  const fe = error as FastifyError;
  if (fe.code === 'SIGHTLINE_INVALID_JSON' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return true;
  return fe.statusCode === 400 && (error instanceof SyntaxError || /JSON/i.test(fe.message ?? ''));
}

/**
 * Errors Fastify's router answers before any route or hook runs (Fastify's `frameworkErrors`
 * option): a path parameter over maxParamLength (414) or a malformed URL (400), in the API's
 * error shape with the request id, instead of Fastify's own body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, request, 'uri_too_long', ERROR_CODES.uri_too_long.message);
  return sendError(reply, request, 'invalid_request', 'The request URL is not valid (bad percent-encoding or characters).');
}

/**
 * /readyz's 503 detail while the database does not answer. Refused credentials are said apart,
 * for the operator, because they do not clear by waiting (authenticationFailure: the reason and
 * the setting to fix, never the password).
 */
export function notReadyDetail(err: unknown): { error: 'not_ready'; message: string; reason?: string } {
  const refused = authenticationFailure(err);
  if (!refused) return { error: 'not_ready', message: 'The database is not reachable.' };
  return { error: 'not_ready', reason: refused.reason, message: `The database is not reachable: ${refused.message}` };
}

export function registerErrorHandling(app: FastifyInstance) {
  const methodsOf = trackRouteMethods(app);
  app.setErrorHandler((error: FastifyError | AppError | FieldError | Error, request, reply) => {
    if (error instanceof AppError) {
      return sendError(reply, request, error.code, error.message, error.extra);
    }
    if (error instanceof ValidationFailed) {
      return reply.status(422).send({ detail: error.detail });
    }
    if (error instanceof FieldError) {
      return reply.status(422).send({ detail: [{ loc: error.loc, msg: error.message, type: error.type }] });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const part = PART_NAMES[(error as FastifyError).validationContext ?? 'body'] ?? 'body';
      // The zod provider flattens issue paths into instancePath ("/prompts/0"): array indexes
      // come back as numbers, as FastAPI clients expect.
      const detail = error.validation.map((v) => {
        const path = v.instancePath
          .split('/')
          .filter(Boolean)
          .map((p: string) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
        return { loc: [part, ...path], msg: v.message, type: v.keyword };
      });
      return reply.status(422).send({ detail });
    }
    if (isDatabaseUnavailable(error)) {
      const line = unavailableLogLine(error);
      request.log.warn({ err: error, ...line.fields }, line.msg);
      return sendError(reply, request, 'database_unavailable', ERROR_CODES.database_unavailable.message);
    }
    const fe = error as FastifyError;
    switch (fe.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, request, 'payload_too_large', bodyTooLargeMessage(request.routeOptions.bodyLimit));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, request, 'unsupported_media_type', ERROR_CODES.unsupported_media_type.message);
      case 'SIGHTLINE_UNSUPPORTED_CHARSET':
        return sendError(reply, request, 'unsupported_media_type', fe.message);
      case JSON_TOO_DEEP:
        return reply.status(422).send({ detail: [{ loc: ['body'], msg: fe.message, type: 'json_too_deep' }] });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(422).send({ detail: [{ loc: ['body'], msg: 'Body is empty; send a JSON object.', type: 'missing' }] });
    }
    if (isInvalidJsonBody(error)) {
      return reply.status(422).send({ detail: [{ loc: ['body'], msg: 'Body is not valid JSON.', type: 'json_invalid' }] });
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.status(fe.statusCode).send({ detail: { error: 'invalid_request', message: fe.message } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, request, 'internal_error', ERROR_CODES.internal_error.message);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // The path exists with other methods: 405 with Allow (DELETE /v1/usage), not 404.
    const allowed = methodsOf(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, request, 'method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`);
    }
    return sendError(reply, request, 'not_found', `No route ${request.method} ${path}.`);
  });
}

/** The requests a server is answering, for shutdown: how many, and answering what is left 503. */
export interface InFlight {
  count(): number;
  /**
   * From now on a request that arrives (on a connection kept alive from before) is answered 503
   * `shutting_down` with `Connection: close` at once (Fastify's own 503 for it has another shape).
   */
  refuseNew(): void;
  /**
   * Answers every request not answered yet 503 `shutting_down` (with `Connection: close`), and
   * closes the connections of those whose answer had started: a shutdown's grace period is over.
   * What their handlers still do afterwards is never sent. Returns how many it stopped.
   */
  abort(): number;
}

const inFlightOf = new WeakMap<FastifyInstance, InFlight>();

/** Tracks the requests in flight (from their first hook until their response ends or the socket closes). */
export function trackInFlight(app: FastifyInstance): InFlight {
  const open = new Map<FastifyReply, FastifyRequest>();
  let refusing = false;
  app.addHook('onRequest', (request, reply, done) => {
    if (refusing) {
      reply.header('connection', 'close');
      sendError(reply, request, 'shutting_down', ERROR_CODES.shutting_down.message);
      return;
    }
    open.set(reply, request);
    reply.raw.once('close', () => open.delete(reply));
    done();
  });
  const inFlight: InFlight = {
    count: () => open.size,
    refuseNew() {
      refusing = true;
    },
    abort() {
      let stopped = 0;
      for (const [reply, request] of open) {
        stopped++;
        open.delete(reply);
        if (reply.sent || reply.raw.headersSent) {
          reply.raw.destroy();
          continue;
        }
        reply.header('connection', 'close');
        sendError(reply, request, 'shutting_down', ERROR_CODES.shutting_down.message);
      }
      return stopped;
    },
  };
  inFlightOf.set(app, inFlight);
  return inFlight;
}

/** The tracker trackInFlight registered on app (buildApp registers one). */
export function inFlightRequests(app: FastifyInstance): InFlight | undefined {
  return inFlightOf.get(app);
}
