// Schema pieces shared by routes: the two error shapes (for the OpenAPI document), clamped
// list limits, and the route helper that ties a schema, a scope and a handler together.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Scope } from '../core/accounts/scopes.ts';
import type { Core } from '../core/index.ts';
import type { Principal } from '../core/accounts/accounts.ts';
import type { ActionContext } from '../core/billing/actions.ts';
import { actionContext } from './plugins/auth.ts';
import { AppError, ValidationFailed } from '../core/errors.ts';
import { INPUT_LIMITS } from '../core/limits.ts';
import { extraFields } from './unknown-fields.ts';

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
  414: 'A path parameter longer than 100 characters (uri_too_long)',
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
    .transform((v) => (v === undefined ? def : Math.min(max, Math.max(min, v))))
    .describe(`${min}..${max}, default ${def}; a value out of range is clamped`);

/**
 * A filter query parameter (status, kind, test_type). Any string passes the schema; a value that
 * names no filter is a 400 invalid_filter (SPEC 7: "passed schema validation but holds an
 * invalid … filter"), not a 422. Read it with `filterValue`.
 */
export const filterParam = (values: readonly string[]) =>
  z
    .string()
    .max(INPUT_LIMITS.keyword)
    .optional()
    .describe(`One of: ${values.join(', ')}.`)
    // The values for tools that offer them (the CLI's choices and completion), without making
    // another value a schema error: an enum would turn the documented 400 into a 422.
    .meta({ 'x-choices': [...values] });

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
  /**
   * The operation's one core call, made by every surface: HTTP (unless `handler` overrides it,
   * e.g. to stream a file), MCP (the tool below) and the CLI (through the HTTP API). Its
   * arguments are the path parameters, query and body in one object, as an MCP tool takes them.
   * May answer synchronously (a kept answer): Fastify then sends it without a promise.
   */
  run: (args: ArgsOf<Q, B, P>, ctx: ActionContext, core: Core, principal: Principal) => unknown;
  /** HTTP only: a handler of its own where the HTTP answer is not run's (a streamed CSV). */
  handler?: (
    ctx: { query: z.output<Q>; body: z.output<B>; params: z.output<P>; request: FastifyRequest; reply: FastifyReply },
    core: Core,
  ) => unknown;
  /** The operation as an MCP tool (its name, title, hints and description stating any cost). */
  tool?: ToolSpec;
  /**
   * HTTP only: the body is raw bytes of these media types, handed to `handler` unread as a
   * RawBody (a log upload streamed into the core), never parsed or buffered.
   */
  rawBody?: readonly string[];
  /** The operation as `sightline` user commands (one, or several over one operation: tests pause/resume/schedule). */
  cli: CliSpec | CliSpec[];
}

/**
 * How an operation is offered on the command line. The options are derived from the input
 * schemas by scripts/cli-table.ts into src/cli/commands.gen.ts (`npm run client:generate`), from
 * which src/cli/user.ts builds the commands: each input field is an option named after it in
 * kebab-case (a list or a map singular, repeatable: `--prompt`, `--model k=v`), typed by its
 * schema; only what reads badly or is not an input is declared here.
 */
export interface CliSpec {
  /** The words after `sightline`: one (`usage`) or a group and a name (`visibility run`). */
  command: string;
  /** The --help line; default: the operation's summary. */
  description?: string;
  /** Input fields taken as positional arguments, in order. */
  args?: string[];
  /** Option names where the derived one reads badly; a dotted key names a property of an object field (`schedule.cron`), which then becomes options of its own. */
  flags?: Record<string, string>;
  /** The input fields the command offers (default: every field); the others are left to sibling commands of the same operation. */
  fields?: string[];
  /** Values the command always sends (`tests pause`: paused true). */
  fixed?: Record<string, unknown>;
  /** List fields that can also be read from a file, one item a line (`--prompt-file`). */
  files?: string[];
}

/**
 * How an operation is offered to agents. Reads (GET) are read-only and idempotent; `openWorld`
 * marks operations that reach outside the server (AI platforms, web pages); `destructive` ones
 * remove or stop something; `idempotent` writes may be repeated with the same effect.
 */
export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  openWorld?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  /** A read-only operation that is not a GET (a quote). */
  readOnly?: boolean;
  /** The tool's answer when it is not the route's 200 response (the HTTP route streams a file). */
  output?: z.ZodType;
  /** Arguments only the tool takes: what HTTP sends another way (a log upload's raw body as `lines`). */
  extraInput?: z.ZodRawShape;
}

/** The parsed output of one part of a route's input; `unknown` (no keys) for a part it lacks. */
type Bare<T> = T extends z.ZodOptional<infer O> ? Bare<O> : T extends z.ZodNullable<infer O> ? Bare<O> : T;
type Out<T> = Bare<T> extends z.ZodObject ? z.output<Bare<T>> : unknown;
/** An operation's arguments: its path parameters, query and body in one object. */
export type ArgsOf<Q, B, P> = Out<P> & Out<Q> & Out<B>;

export function defineRoute<Q extends AnyZod = z.ZodUndefined, B extends AnyZod = z.ZodUndefined, P extends AnyZod = z.ZodUndefined>(
  spec: RouteSpec<Q, B, P>,
) {
  return spec;
}

/** The operation's id in the OpenAPI document (and so the generated client's method): its activity action in camelCase, unique per route. */
export function operationIdOf(action: string): string {
  return action.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/**
 * A request body handed through unread (see RouteSpec.rawBody). The stream sits in a private
 * field so that the input guards, which walk a parsed body's properties, see nothing to walk.
 */
export class RawBody {
  readonly #stream: AsyncIterable<Buffer>;
  constructor(stream: AsyncIterable<Buffer>) {
    this.#stream = stream;
  }
  get stream(): AsyncIterable<Buffer> {
    return this.#stream;
  }
}

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
    mountRoute(scope, core, { ...spec, rawBody: undefined });
  });
}

export function mountRoute(app: FastifyInstance, core: Core, spec: RouteSpec<AnyZod, AnyZod, AnyZod>) {
  if (spec.rawBody) return mountRawBodyRoute(app, core, spec);
  // Besides the route's own errors, every authenticated route can answer 401/403/429 and an
  // unexpected 500; a route that reads query parameters 422 (a non-numeric limit); a route that
  // takes a body 413 (over 1 MiB), 415 (not JSON) and 422 (malformed JSON).
  // Any route can also answer 503 database_unavailable (issue #19).
  const statuses = new Set([...spec.errors, 401, 403, 429, 500, 503]);
  if (spec.querystring) statuses.add(422);
  if (spec.params) statuses.add(414);
  if (spec.body || spec.method === 'POST' || spec.method === 'PATCH') for (const s of [413, 415, 422]) statuses.add(s);
  const response: Record<number, AnyZod> = { 200: spec.response };
  for (const s of [...statuses].sort()) {
    response[s] = (s === 422 ? ValidationErrorBody : ErrorBody).describe(ERROR_DESCRIPTIONS[s] ?? 'Error');
  }
  app.route({
    method: spec.method,
    url: spec.url,
    config: { action: spec.action, scope: spec.scope },
    // Unknown body fields are a 422 extra_forbidden (API-NOTES Conventions), checked on every
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
          spec.handler!({ query: request.query as never, body: request.body as never, params: request.params as never, request, reply }, core)
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
