// Mounts an operation of the catalog (src/operations/) as a Fastify route: its schemas for
// validation and the OpenAPI document, the error statuses it can answer, the unknown-field
// check, and a handler calling the operation's `run` (or its HTTP-only `handler`).
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Core } from '../core/index.ts';
import { ValidationFailed } from '../core/errors.ts';
import { ErrorBody, RawBody, ValidationErrorBody, operationIdOf, type RouteSpec } from '../operations/define.ts';
import { extraFields } from '../web/unknown-fields.ts';
import { actionContext } from '../web/auth.ts';

type AnyZod = z.ZodType;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types for the OpenAPI document: a raw request body's, a 200 answer's that is not JSON alone. */
    media?: { consumes?: readonly string[]; produces?: readonly string[] };
  }
}

type OpenApiSchema = { body?: unknown; response?: Record<string, { description?: string } & Record<string, unknown>> };

/**
 * A route's OpenAPI schema with its media types (config.media), changed in place: a raw body is
 * bytes of each accepted type, and a 200 answer that is not JSON alone lists each type (JSON
 * keeps its schema, the others are text).
 */
export function documentMediaTypes(media: FastifyContextConfig['media'], schema: OpenApiSchema | undefined): void {
  if (!media || !schema) return;
  if (media.consumes) {
    schema.body = { content: Object.fromEntries(media.consumes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) };
  }
  const ok = schema.response?.['200'];
  if (media.produces && ok) {
    const content = Object.fromEntries(media.produces.map((type) => [type, { schema: type === 'application/json' ? ok : { type: 'string' } }]));
    schema.response!['200'] = { description: ok.description ?? 'Default Response', content };
  }
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid URL, cursor, filter, field combination or model selection',
  401: 'Missing or invalid API key (unauthorized, mcp_token_not_allowed)',
  402: 'Insufficient credits',
  403: 'Missing scope or suspended account',
  404: 'Not found or not owned by the caller',
  413: 'Body larger than 1 MiB',
  414: 'A path parameter longer than 100 characters (uri_too_long)',
  415: 'Body sent with a Content-Type other than application/json',
  422: 'Schema validation failed',
  429: 'Rate limit exceeded for this API key',
  500: 'Extraction, provider or unexpected failure',
  503: 'The database or credit storage is unavailable, or too many page fetches are in progress (database_unavailable, credit_storage_unavailable, fetch_capacity); retry after Retry-After',
};

/** Mounts a raw-body route in a scope of its own, whose content-type parsers hand the stream through. */
function mountRawBodyRoute(app: FastifyInstance, core: Core, spec: RouteSpec<AnyZod, AnyZod, AnyZod>) {
  const types = new Set(spec.rawBody!.map((t) => t.toLowerCase()));
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('*', (request, payload, done) => {
      const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!types.has(type)) {
        const err = Object.assign(new Error(`Send the body as one of: ${[...types].join(', ')}.`), { statusCode: 415, code: 'SIGHTLINE_UNSUPPORTED_CHARSET' });
        return done(err, undefined);
      }
      done(null, new RawBody(payload as AsyncIterable<Buffer>));
    });
    mountRoute(scope, core, { ...spec, rawBody: undefined }, spec.rawBody);
  });
}

export function mountRoute(app: FastifyInstance, core: Core, spec: RouteSpec<AnyZod, AnyZod, AnyZod>, consumes?: readonly string[]) {
  if (spec.rawBody) return mountRawBodyRoute(app, core, spec);
  // Besides the route's own errors, every authenticated route can answer 401/403/429 and an
  // unexpected 500; a route that reads query parameters 422 (a non-numeric limit); a route that
  // takes a body 413 (over 1 MiB, or the route's own bodyLimit), 415 (not JSON) and 422 (malformed JSON).
  // Any route can also answer 503 database_unavailable.
  const statuses = new Set([...spec.errors, 401, 403, 429, 500, 503]);
  if (spec.querystring) statuses.add(422);
  if (spec.params) statuses.add(414);
  if (spec.body || spec.method === 'POST' || spec.method === 'PATCH') for (const s of [413, 415, 422]) statuses.add(s);
  const response: Record<number, AnyZod> = { 200: spec.response };
  for (const s of [...statuses].sort()) {
    const description = s === 413 && spec.bodyLimit ? `Body larger than ${spec.bodyLimit / (1024 * 1024)} MiB` : ERROR_DESCRIPTIONS[s];
    response[s] = (s === 422 ? ValidationErrorBody : ErrorBody).describe(description ?? 'Error');
  }
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    config: { action: spec.action, scope: spec.scope, ...(consumes || spec.produces ? { media: { consumes, produces: spec.produces } } : {}) },
    // Unknown body fields are a 422 extra_forbidden, checked on every
    // route that takes a body before its schema (which would silently strip them) runs.
    ...(spec.body ? { preValidation: rejectUnknownBodyFields(spec.body) } : {}),
    schema: {
      operationId: operationIdOf(spec.action),
      summary: spec.summary,
      tags: spec.tags,
      security: [{ bearer: [] }],
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      response,
    },
    handler: spec.handler
      ? (request, reply) =>
          spec.handler!({ query: request.query as never, body: request.body as never, params: request.params as never, ctx: actionContext(request), request, reply }, core)
      : (request) =>
          spec.run(
            { ...(request.params as object), ...(request.query as object), ...(request.body as object) } as never,
            actionContext(request),
            core,
            request.principal!,
          ),
  });
}

/** A preValidation hook refusing body keys the schema does not declare (see unknown-fields.ts). */
function rejectUnknownBodyFields(body: AnyZod) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const extra = extraFields(body, request.body, ['body']);
    done(extra.length ? new ValidationFailed(extra) : undefined);
  };
}

