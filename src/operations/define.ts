// How an operation is defined: its schemas, scope, activity action, the one core call (`run`)
// and how it is offered on each surface (HTTP, MCP, CLI); plus the schema pieces operations
// share (error shapes, clamped list limits, filters). HTTP mounting lives in src/http/mount.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Scope } from '../core/accounts/scopes.ts';
import type { Core } from '../core/index.ts';
import type { Principal } from '../core/accounts/accounts.ts';
import type { ActionContext } from '../core/billing/actions.ts';
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

/**
 * Clamped integer query parameter: out of range is clamped, not an error; non-numeric is 422. An
 * integer beyond the safe range (`limit=1e20`) is out of range like -1, so it is clamped too.
 */
export const clampedInt = (def: number, min: number, max: number) =>
  z
    .preprocess((v) => {
      if (v === undefined || v === '') return v;
      const n = Number(v);
      return Number.isInteger(n) && !Number.isSafeInteger(n) ? Math.sign(n) * Number.MAX_SAFE_INTEGER : v;
    }, z.coerce.number().int().optional())
    .transform((v) => (v === undefined ? def : Math.min(max, Math.max(min, v))))
    .describe(`${min}..${max}, default ${def}; a value out of range is clamped`);

/**
 * A filter query parameter (status, kind, test_type). Any string passes the schema; a value that
 * names no filter is a 400 invalid_filter: it passed schema validation but
 * holds an invalid value, so it is not a 422. Read it with `filterValue`.
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

/** bom=true on a CSV export: the file starts with a UTF-8 byte order mark, so Excel opens it as UTF-8 (core/csv.ts). */
export const BOM_PARAM = queryBool.describe('true starts the CSV with a UTF-8 byte order mark so Excel opens it as UTF-8 (CSV only; default false)');


type AnyZod = z.ZodType;

/**
 * What an operation may answer for a response schema: a value the schema accepts (its input
 * side: what would parse), now or as a promise. Typing `run` and `handler` with it makes a wrong
 * answer a compile error, so the response schema (and with it the OpenAPI document, the typed
 * client and the MCP output schema) describes what is actually sent.
 */
export type Answer<R extends AnyZod> = Wire<z.input<R>> | Promise<Wire<z.input<R>>>;

/**
 * A response type as the core's values meet it: string, number and boolean literals widened to
 * their type (the core builds `object: 'list'` or `deleted: true` as plain values), arrays
 * read-only (shared answers are frozen), and the open index signature of a passthrough object
 * left out (an interface has none). Field names, presence and value types are still checked.
 */
export type Wire<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends null | undefined
        ? T
        : T extends readonly (infer E)[]
          ? readonly Wire<E>[]
          : T extends object
            ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Wire<T[K]> }
            : T;

export interface RouteSpec<Q extends AnyZod, B extends AnyZod, P extends AnyZod, R extends AnyZod = AnyZod, O extends AnyZod = R> {
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
  response: R;
  errors: number[];
  /**
   * The operation's one core call, made by every surface: HTTP (unless `handler` overrides it,
   * e.g. to stream a file), MCP (the tool below) and the CLI (through the HTTP API). Its
   * arguments are the path parameters, query and body in one object, as an MCP tool takes them.
   * May answer synchronously (a kept answer): Fastify then sends it without a promise.
   */
  run: (args: ArgsOf<Q, B, P>, ctx: ActionContext, core: Core, principal: Principal) => Answer<NoInfer<O>>;
  /** HTTP only: a handler of its own where the HTTP answer is not run's (a streamed CSV). */
  handler?: (
    input: { query: z.output<Q>; body: z.output<B>; params: z.output<P>; ctx: ActionContext; request: FastifyRequest; reply: FastifyReply },
    core: Core,
  ) => Answer<NoInfer<R>> | Promise<Wire<z.input<NoInfer<R>>> | FastifyReply>;
  /** The operation as an MCP tool (its name, title, hints and description stating any cost). */
  tool?: ToolSpec<O>;
  /**
   * HTTP only: the body is raw bytes of these media types, handed to `handler` unread as a
   * RawBody (a log upload streamed into the core), never parsed or buffered.
   */
  rawBody?: readonly string[];
  /** HTTP only: the largest body this route reads, in bytes, where it needs more than the server's 1 MiB. */
  bodyLimit?: number;
  /**
   * HTTP only: the media types of the 200 answer when it is not JSON alone (a download streamed
   * as CSV or JSON Lines). The OpenAPI document lists each, so a client generated from it does
   * not parse a CSV as JSON.
   */
  produces?: readonly string[];
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
  /** Fields that can also be read from a file or stdin (`-`): a list one item a line (`--prompt-file`), a text whole (`--text-file`). */
  files?: string[];
}

/**
 * How an operation is offered to agents. Reads (GET) are read-only and idempotent; `openWorld`
 * marks operations that reach outside the server (AI platforms, web pages); `destructive` ones
 * remove or stop something; `idempotent` writes may be repeated with the same effect.
 */
export interface ToolSpec<O extends AnyZod = AnyZod> {
  name: string;
  title: string;
  description: string;
  openWorld?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  /** A read-only operation that is not a GET (a quote). */
  readOnly?: boolean;
  /** The tool's answer when it is not the route's 200 response (the HTTP route streams a file). */
  output?: O;
  /** Arguments only the tool takes: what HTTP sends another way (a log upload's raw body as `lines`). */
  extraInput?: z.ZodRawShape;
  /**
   * Route parameters the tool does not take: what only shapes an HTTP download the tool does not
   * send (a CSV's format and byte order mark), so an agent is never offered an argument that
   * changes nothing, and one sent anyway is refused like any unknown argument.
   */
  omitInput?: string[];
}

/** The parsed output of one part of a route's input; `unknown` (no keys) for a part it lacks. */
type Bare<T> = T extends z.ZodOptional<infer O> ? Bare<O> : T extends z.ZodNullable<infer O> ? Bare<O> : T;
type Out<T> = Bare<T> extends z.ZodObject ? z.output<Bare<T>> : unknown;
/** An operation's arguments: its path parameters, query and body in one object. */
export type ArgsOf<Q, B, P> = Out<P> & Out<Q> & Out<B>;

export function defineRoute<
  Q extends AnyZod = z.ZodUndefined,
  B extends AnyZod = z.ZodUndefined,
  P extends AnyZod = z.ZodUndefined,
  R extends AnyZod = AnyZod,
  O extends AnyZod = R,
>(
  spec: RouteSpec<Q, B, P, R, O>,
) {
  if (spec.method === 'GET' || spec.tool?.readOnly) READ_ACTIONS.add(spec.action);
  return spec;
}

/** The activity actions of every route defined so far that reads (a GET, or a read-only quote). */
const READ_ACTIONS = new Set<string>();

/**
 * Which activity actions are reads: the activity filter `actions` leaves them out and `reads`
 * keeps them, whatever their name (`projects.dashboard`, `tests.history`) and whichever way they
 * came in (an MCP tool call is recorded with method `MCP`, not `GET`).
 */
export function readActions(): readonly string[] {
  return [...READ_ACTIONS];
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

/**
 * Parses a nested part of a body with its own schema (a tracked test's run definition), reporting
 * failures as 422 details under `loc` (e.g. ["body", "definition", "prompts", 0]). Unknown keys
 * are `extra_forbidden`.
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
