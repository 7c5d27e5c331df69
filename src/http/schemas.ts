// Schema pieces shared by routes: the two error shapes (for the OpenAPI document), clamped
// list limits, and the route helper that ties a schema, a scope and a handler together.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Scope } from '../core/accounts/scopes.ts';
import type { Core } from '../core/index.ts';
import { AppError, ValidationFailed } from '../core/errors.ts';
import { INPUT_LIMITS } from '../core/limits.ts';

export const ErrorBody = z
  .object({
    detail: z
      .object({ error: z.string(), message: z.string() })
      .catchall(z.unknown())
      .describe('Machine-readable error code and a human sentence'),
  })
  .describe('Error');

export const ValidationErrorBody = z
  .object({
    detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
  })
  .describe('Schema validation error');

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid URL, cursor, filter, field combination or model selection',
  401: 'Missing or invalid API key (unauthorized, mcp_token_not_allowed)',
  402: 'Insufficient credits',
  403: 'Missing scope or suspended account',
  404: 'Not found or not owned by the caller',
  413: 'Body larger than 1 MiB',
  415: 'Body sent with a Content-Type other than application/json',
  422: 'Schema validation failed',
  429: 'Rate limit exceeded for this API key',
  500: 'Extraction, provider or unexpected failure',
  503: 'The database or credit storage is unavailable, or too many page fetches are in progress (database_unavailable, credit_storage_unavailable, fetch_capacity); retry after Retry-After',
};

/** Clamped integer query parameter: out of range is clamped, not an error; non-numeric is 422. */
export const clampedInt = (def: number, min: number, max: number) =>
  z.coerce
    .number()
    .int()
    .optional()
    .transform((v) => (v === undefined ? def : Math.min(max, Math.max(min, v))));

/**
 * A filter query parameter (status, kind, test_type). Any string passes the schema; a value that
 * names no filter is a 400 invalid_filter (SPEC 7: "passed schema validation but holds an
 * invalid … filter"), not a 422. Read it with `filterValue`.
 */
export const filterParam = (values: readonly string[]) => z.string().max(INPUT_LIMITS.keyword).optional().describe(`One of: ${values.join(', ')}.`);

/** The filter's value, checked against the allowed ones (see filterParam); undefined when absent. */
export function filterValue<T extends string>(name: string, value: string | undefined, values: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((values as readonly string[]).includes(value)) return value as T;
  throw new AppError('invalid_filter', `${name} must be one of: ${values.join(', ')}.`, { parameter: name, allowed: values });
}

export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');

type AnyZod = z.ZodType;

export interface RouteSpec<Q extends AnyZod, B extends AnyZod, P extends AnyZod> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tags: string[];
  /** Activity-log action name; also marks the route as authenticated. */
  action: string;
  scope: Scope | null;
  /**
   * For routes whose scope depends on the request (scope null; the core checks it, e.g. a tracked
   * test needs the create scope of its run kind): a key needs one of these to use the route at all.
   */
  listedFor?: Scope[];
  querystring?: Q;
  body?: B;
  params?: P;
  response: AnyZod;
  errors: number[];
  /** May answer synchronously (a kept answer): Fastify then sends it without a promise. */
  handler: (
    ctx: { query: z.output<Q>; body: z.output<B>; params: z.output<P>; request: FastifyRequest; reply: FastifyReply },
    core: Core,
  ) => unknown;
}

export function defineRoute<Q extends AnyZod = z.ZodUndefined, B extends AnyZod = z.ZodUndefined, P extends AnyZod = z.ZodUndefined>(
  spec: RouteSpec<Q, B, P>,
) {
  return spec;
}

export function mountRoute(app: FastifyInstance, core: Core, spec: RouteSpec<AnyZod, AnyZod, AnyZod>) {
  // Besides the route's own errors, every authenticated route can answer 401/403/429 and an
  // unexpected 500; a route that reads query parameters 422 (a non-numeric limit); a route that
  // takes a body 413 (over 1 MiB), 415 (not JSON) and 422 (malformed JSON).
  // Any route can also answer 503 database_unavailable (issue #19).
  const statuses = new Set([...spec.errors, 401, 403, 429, 500, 503]);
  if (spec.querystring) statuses.add(422);
  if (spec.body || spec.method === 'POST' || spec.method === 'PATCH') for (const s of [413, 415, 422]) statuses.add(s);
  const response: Record<number, AnyZod> = { 200: spec.response };
  for (const s of [...statuses].sort()) {
    response[s] = (s === 422 ? ValidationErrorBody : ErrorBody).describe(ERROR_DESCRIPTIONS[s] ?? 'Error');
  }
  app.route({
    method: spec.method,
    url: spec.url,
    config: { action: spec.action, scope: spec.scope },
    schema: {
      summary: spec.summary,
      tags: spec.tags,
      security: [{ bearer: [] }],
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      response,
    },
    handler: (request, reply) =>
      spec.handler(
        { query: request.query as never, body: request.body as never, params: request.params as never, request, reply },
        core,
      ),
  });
}

/**
 * Parses a nested part of a body with its own schema (a tracked test's run definition), reporting
 * failures as 422 details under `loc` (e.g. ["body", "definition", "prompts", 0]). Unknown keys
 * are `extra_forbidden` (API-NOTES Conventions).
 */
export function parseNested<T extends z.ZodType>(schema: T, value: unknown, loc: (string | number)[]): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationFailed(
    parsed.error.issues.flatMap((issue) => {
      const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => ({ loc: [...loc, ...path, k], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }));
      }
      return [{ loc: [...loc, ...path], msg: issue.message, type: issue.code }];
    }),
  );
}
