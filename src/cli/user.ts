// The user commands of the `sightline` bin: a client of a running server's HTTP API through the
// typed client (src/client). The commands are built from the table derived from the catalog of
// operations (src/cli/commands.gen.ts): each operation's positional arguments and options, typed
// by its input schema; a human formatter per command (src/cli/formatters.ts). Configured by
// SIGHTLINE_API_URL and SIGHTLINE_API_KEY, or a profile saved by `sightline login`.
// With --json, stdout holds exactly one JSON document (the answer, or {"error", "message", …} on
// failure); progress and messages go to stderr.
// Exit codes by failure class: 0 done, 1 the request was refused (400/422), 2 usage error,
// 3 authentication or scope (401/403), 4 credits (402), 5 not found (404), 6 rate limited (429),
// 7 server unreachable or failing (5xx).
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { createSightlineClient, ServerSilent, type SightlineClient } from '../client/index.ts';
import type { CliCommandDef, CliField } from './command-table.ts';
import { CLI_COMMANDS } from './commands.gen.ts';
import { completionScript, SHELLS } from './completion.ts';
import { ciRunLine, FORMATTERS, futureLinesNote, type Listing, tooOldLinesNote, plural, probeCounts, visibilityRunLine } from './formatters.ts';
import { COMMANDS as OPERATOR_COMMANDS, OPTIONS as OPERATOR_OPTIONS } from './operator-commands.ts';
import { configPath, connection, DEFAULT_API_URL, profileName, removeProfile, saveProfile } from './profiles.ts';
import { progressDisplay } from './progress.ts';
import { ingestFile, uploadPiece, type Send } from './log-ingest.ts';

export const EXIT = { ok: 0, refused: 1, usage: 2, auth: 3, credits: 4, notFound: 5, rateLimited: 6, server: 7 } as const;

const HINTS: Record<number, string> = {
  401: 'check the API key: it must be an API key (svc_api_live_…) of this server, in SIGHTLINE_API_KEY or saved by `sightline login`; an operator makes one with `sightline keys create --email ADDRESS`',
  402: 'not enough credits: see `sightline usage`, or ask the operator (`sightline credits grant`)',
  403: "the key lacks the scope this needs: use a key that has it (made on the console's API keys page, or by the operator)",
  429: 'rate limited: wait for the Retry-After seconds and retry',
};

/** Hints by error code where one status has several causes. */
const CODE_HINTS: Record<string, string> = {
  // Said without naming the JSON field a person at a terminal does not see: see failureHint.
  extraction_failed: 'the page at the URL failed, not this server: check the URL',
  missing_scope: HINTS[403]!,
  account_suspended: 'ask the operator to unsuspend it (`sightline accounts unsuspend --account ID`)',
};

/** Descriptions of the command groups (the commands themselves describe themselves from the catalog). */
const GROUPS: Record<string, string> = {
  visibility: 'AI Visibility: do AI platforms mention a brand? Runs, prompts, exports',
  tests: 'saved and tracked tests: schedules, budgets, history',
  ci: 'Content Intelligence: score pages, queue and read runs',
  page: 'web pages as text',
  reports: 'saved reports',
  sites: 'sites: AI crawlers and AI referrals read from access logs',
  logs: 'access logs: upload a file or follow a growing one',
  webhooks: 'webhooks and alerts: signed deliveries, their log and retries, credits.low threshold',
  projects: 'projects: a brand workspace with competitors, markets, prompt library and dashboard',
};

/** A failed call, with the exit code of its class. */
class CallFailed extends Error {
  constructor(
    readonly exit: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message ?? body.error));
  }
}

function exitFor(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 402) return EXIT.credits;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status >= 500) return EXIT.server;
  return EXIT.refused;
}

type Reply = { data?: unknown; error?: unknown; response: Response };

/** The server could not be reached: the network's reason (refused, unknown host) with it. */
function unreachable(err: unknown): CallFailed {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.message ? `${(err as Error).message} (${cause.message})` : (err as Error).message;
  return new CallFailed(EXIT.server, { error: 'unreachable', message: `cannot reach the server: ${why}; check SIGHTLINE_API_URL or the profile's URL` });
}

/** A request the server left unanswered for SIGHTLINE_TIMEOUT seconds, as a failure; else null. */
function silence(err: unknown): CallFailed | null {
  if (!(err instanceof ServerSilent)) return null;
  const maybeDone = err.method === 'GET' ? '' : '; the server may have carried the request out all the same, so look before repeating it (a repeat with the same --idempotency-key is charged once)';
  return new CallFailed(EXIT.server, {
    error: 'timeout',
    message: `no answer from the server in ${err.ms / 1000} s${maybeDone}`,
    hint: 'a stuck or overloaded server or proxy: check it with `sightline doctor`, or allow longer with SIGHTLINE_TIMEOUT=SECONDS (0: no limit)',
  });
}

/** How long a command waits for a silent server: SIGHTLINE_TIMEOUT seconds (default 120, 0 none), in ms. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
function timeoutMs(env: Io['env']): number {
  const text = env.SIGHTLINE_TIMEOUT?.trim();
  if (!text) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new CallFailed(EXIT.usage, { error: 'usage_error', message: `SIGHTLINE_TIMEOUT takes seconds, e.g. 300 (0: no limit), not ${JSON.stringify(text)}` });
  }
  return seconds * 1000;
}

/** The answer of an openapi-fetch call, or a CallFailed carrying the API's error. */
async function answer<T>(call: Promise<Reply>): Promise<T> {
  let res: Reply;
  try {
    res = await call;
  } catch (err) {
    throw silence(err) ?? unreachable(err);
  }
  if (res.response.ok) return res.data as T;
  const detail = (res.error as { detail?: unknown } | undefined)?.detail;
  const body: Record<string, unknown> = Array.isArray(detail)
    ? { error: 'validation_error', message: detail.map((d: { loc: unknown[]; msg: string }) => `${d.loc.join('.')}: ${d.msg}`).join('; '), detail }
    : typeof detail === 'object' && detail
      ? { ...(detail as Record<string, unknown>) }
      : { error: `http_${res.response.status}`, message: `HTTP ${res.response.status}` };
  body.status = res.response.status;
  const hint =
    body.error === 'extraction_failed' && body.retryable === true
      ? 'the page at the URL failed, not this server: it may answer if you try again later'
      : (CODE_HINTS[String(body.error)] ?? HINTS[res.response.status]);
  if (hint) body.hint = hint;
  // The page asked about failed (a 404, an unknown host): the server is fine, and asking again
  // will fail the same way unless the error says it may pass.
  if (body.error === 'extraction_failed' && body.retryable === false) throw new CallFailed(EXIT.refused, body);
  throw new CallFailed(exitFor(res.response.status), body);
}

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Whether stderr (where progress goes) is a terminal. */
  isTTY: boolean;
  env: Record<string, string | undefined>;
  /** Raw stdout, for a streamed export. */
  stdout?: NodeJS.WritableStream;
  /** Where `login` reads the key: a hidden prompt on a terminal, else the first line piped in. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** The connection of a command: its --profile (or SIGHTLINE_PROFILE) and the environment. */
function resolveConnection(io: Io, cmd: Command) {
  const name = profileName(cmd.optsWithGlobals().profile as string | undefined, io.env);
  try {
    return { name, ...connection(io.env, name) };
  } catch (err) {
    throw new CallFailed(EXIT.usage, { error: 'invalid_config', message: `cannot read ${configPath(io.env)}: ${(err as Error).message}` });
  }
}

function clientFor(io: Io, cmd: Command): SightlineClient {
  const c = resolveConnection(io, cmd);
  if (cmd.optsWithGlobals().verbose) io.err(`sightline: API ${c.apiUrl} (profile ${c.name}${c.profile ? '' : ', not saved'}; key from ${io.env.SIGHTLINE_API_KEY?.trim() ? 'SIGHTLINE_API_KEY' : c.apiKey ? 'the profile' : 'nowhere'})`);
  if (!c.apiKey) {
    throw new CallFailed(EXIT.auth, { error: 'missing_api_key', message: `no API key: set SIGHTLINE_API_KEY to an API key (svc_api_live_…), or save one with \`sightline login${c.name === 'default' ? '' : ` --profile ${c.name}`}\`` });
  }
  return createSightlineClient({ baseUrl: c.apiUrl, apiKey: c.apiKey, timeoutMs: timeoutMs(io.env) });
}

// ---- options from the table ------------------------------------------------------------------

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** "from 1 to 10", "0 or more", "at most 24": the bounds the schema gives, or nothing. */
function boundsText(f: CliField): string {
  if (f.min !== undefined && f.max !== undefined) return ` from ${f.min} to ${f.max}`;
  if (f.min !== undefined) return ` of ${f.min} or more`;
  if (f.max !== undefined) return ` of at most ${f.max}`;
  return '';
}

/** An integer or a number within the field's bounds, else a usage error naming them. */
function numeric(f: CliField) {
  return (value: string) => {
    const n = Number(value);
    const written = f.kind === 'integer' ? /^-?\d+$/.test(value.trim()) : value.trim() !== '' && Number.isFinite(n);
    if (!written || (f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) {
      throw new InvalidArgumentError(`--${f.flag} takes ${f.kind === 'integer' ? 'an integer' : 'a number'}${boundsText(f)}`);
    }
    return n;
  };
}

/** A credit amount as the API reads it ("200", "200.00"): 0 or more, at most two decimals. */
function creditAmount(flag: string) {
  return (value: string) => {
    if (!/^\d+(\.\d{1,2})?$/.test(value.trim())) throw new InvalidArgumentError(`--${flag} takes a credit amount such as 200 or 200.00`);
    return value.trim();
  };
}

/**
 * A market written as a language-country tag (en-US, de_DE, zh-Hant-TW), as the console takes
 * it; the API lowercases the language, uppercases the country and checks both are known codes.
 */
function marketTag(flag: string, tag: string): { language: string; country: string } {
  const m = /^([A-Za-z]{2,3}(?:[-_][A-Za-z]{4})?)[-_]([A-Za-z]{2})$/.exec(tag.trim());
  if (!m) throw new InvalidArgumentError(`--${flag} takes language-country tags such as en-US,de-DE (or JSON): ${JSON.stringify(tag.trim())} is none`);
  return { language: m[1], country: m[2] };
}

/**
 * Markets: language-country tags, comma-separated or with the flag repeated (`--markets
 * en-US,de-DE`), or JSON or @FILE: a list of {language, country} objects or of tags.
 */
function marketsValue(flag: string) {
  return (value: string, prev: unknown) => {
    const before = Array.isArray(prev) ? prev : [];
    if (!writtenAsJson(value)) {
      const tags = value.split(',').filter((t) => t.trim());
      if (!tags.length) throw new InvalidArgumentError(`--${flag} takes language-country tags such as en-US,de-DE (or JSON)`);
      return [...before, ...tags.map((t) => marketTag(flag, t))];
    }
    const parsed = jsonValue(value);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return [...before, ...list.map((m) => (typeof m === 'string' ? marketTag(flag, m) : m))];
  };
}

/** A JSON value, or @FILE to read it from a file. */
function jsonValue(value: string): unknown {
  let text = value;
  if (value.startsWith('@')) {
    try {
      // Without a UTF-8 byte order mark (Windows editors write one), which JSON.parse refuses.
      text = readFileSync(value.slice(1), 'utf8').replace(/^\uFEFF/, '');
    } catch (err) {
      throw new InvalidArgumentError(`cannot read ${value.slice(1)}: ${(err as Error).message}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidArgumentError(`not JSON: ${(err as Error).message}`);
  }
}

/**
 * Whether a shorthand field's value is JSON or @FILE rather than the name itself: an object, an
 * array of objects, strings or nothing, or an existing file after @. Names may start with a
 * bracket, a quote or an @ too ("[24]7.ai", "@Home", a prompt in quotes).
 */
function writtenAsJson(value: string): boolean {
  if (value.startsWith('@')) return existsSync(value.slice(1));
  return /^\s*(\{|\[\s*[[{"\]])/.test(value);
}

/** The commander option of a field, typed by its kind. */
function optionOf(f: CliField): Option {
  const desc = f.description || f.field;
  switch (f.kind) {
    case 'boolean':
      return new Option(`--${f.flag}`, desc);
    case 'null':
      return new Option(`--${f.flag}`, desc);
    case 'integer':
      return new Option(`--${f.flag} <n>`, desc).argParser(numeric(f));
    case 'number':
      return new Option(`--${f.flag} <x>`, desc).argParser(numeric(f));
    case 'list': {
      const o = new Option(`--${f.flag} <value>`, `${desc} (repeat for more)`);
      if (f.choices) o.choices(f.choices);
      return o.argParser((v: string, prev?: string[]) => {
        if (f.choices && !f.choices.includes(v)) throw new InvalidArgumentError(`Allowed choices are ${f.choices.join(', ')}.`);
        return collect(v, prev);
      });
    }
    case 'map':
      return new Option(`--${f.flag} <key=value>`, `${desc} (repeat for more)`).argParser((v: string, prev?: string[]) => {
        if (!/^[^=]+=.+$/.test(v)) throw new InvalidArgumentError(`--${f.flag} takes key=value, e.g. openai=gpt-5.1`);
        return collect(v, prev);
      });
    case 'json': {
      if (f.markets) {
        return new Option(`--${f.flag} <tags|json>`, `${desc} (language-country tags, comma-separated or repeated: en-US,de-DE; or JSON, or @FILE)`).argParser(marketsValue(f.flag));
      }
      const named = f.shorthand;
      if (!named) return new Option(`--${f.flag} <json>`, `${desc} (JSON, or @FILE)`).argParser(jsonValue);
      const how = named.many ? `a ${named.key} (repeat for more), JSON, or @FILE` : `a ${named.key}, JSON, or @FILE`;
      return new Option(`--${f.flag} <${named.key}|json>`, `${desc} (${how})`).argParser((v: string, prev: unknown) => {
        const value = writtenAsJson(v) ? jsonValue(v) : { [named.key]: v };
        if (!named.many) return value;
        const before = Array.isArray(prev) ? prev : [];
        return [...before, ...(Array.isArray(value) ? value : [value])];
      });
    }
    default: {
      if (f.credits) return new Option(`--${f.flag} <credits>`, `${desc} (a credit amount, e.g. 200 or 200.00)`).argParser(creditAmount(f.flag));
      const o = new Option(`--${f.flag} <value>`, desc);
      if (f.choices) o.choices(f.choices);
      return o;
    }
  }
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown) {
  const keys = dotted.split('.');
  let node = target;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
}

/** A file's text, or stdin's for `-` (--prompt-file, --text-file), without a UTF-8 byte order mark. */
function fileText(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw new CallFailed(EXIT.usage, { error: 'usage_error', message: `cannot read ${path === '-' ? 'stdin' : path}: ${(err as Error).message}` });
  }
}

/** The lines of a file, trimmed, without empty ones (--prompt-file). */
function fileLines(path: string): string[] {
  return fileText(path)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

interface Built {
  def: CliCommandDef;
  /** Each option of the command with the field it fills (a file option fills its list). */
  fields: { option: Option; field: CliField; fromFile?: boolean }[];
}

/**
 * An object field of a PATCH given only in part (`--cron` without `--timezone`): the API replaces
 * the object whole, so the properties not given are filled from the current resource (fillPartial)
 * rather than reset to their defaults (a schedule's zone to UTC).
 */
interface PartialObject {
  /** The object field, e.g. schedule. */
  field: string;
  in: CliField['in'];
  /** The properties not given, each with its flag and whether the object needs it. */
  missing: { prop: string; flag: string; needed: boolean }[];
  /** The flags given. */
  given: string[];
}

/** The request a command line makes: path parameters, query and body from its arguments and options. */
function requestOf(built: Built, cmd: Command, positionals: string[]) {
  const { def } = built;
  const input = { path: {} as Record<string, unknown>, query: {} as Record<string, unknown>, body: {} as Record<string, unknown> };
  def.args.forEach((a, i) => setPath(input[a.in], a.field, positionals[i]));
  const opts = cmd.opts();
  const givenFlags = new Set(built.fields.filter((x) => cmd.getOptionValueSource(x.option.attributeName()) === 'cli').map((x) => x.field.flag));
  const given = (flag: string) => givenFlags.has(flag);
  const partial = new Map<string, PartialObject>();
  for (const { option, field, fromFile } of built.fields) {
    const name = option.attributeName();
    if (cmd.getOptionValueSource(name) !== 'cli') continue;
    const dot = field.field.indexOf('.');
    if (def.method === 'patch' && dot > 0 && !partial.has(field.field.slice(0, dot))) {
      // One pass over the object's properties: the flags given, those not, and what the object needs.
      const object = field.field.slice(0, dot);
      const needed = new Set<string>();
      const missing: PartialObject['missing'] = [];
      const givenHere: string[] = [];
      for (const x of built.fields) {
        if (!x.field.field.startsWith(`${object}.`)) continue;
        for (const flag of x.field.needs ?? []) needed.add(flag);
        if (given(x.field.flag)) givenHere.push(x.field.flag);
        else missing.push({ prop: x.field.field.slice(dot + 1), flag: x.field.flag, needed: false });
      }
      for (const m of missing) m.needed = needed.has(m.flag);
      if (missing.length) partial.set(object, { field: object, in: field.in, missing, given: givenHere });
    }
    const missing = def.method === 'patch' ? [] : (field.needs ?? []).filter((flag) => !given(flag));
    if (missing.length) throw new CallFailed(EXIT.usage, { error: 'usage_error', message: `--${field.flag} needs ${missing.map((f) => `--${f}`).join(' and ')} beside it` });
    const value = opts[name];
    if (fromFile && field.kind === 'string') {
      const inline = built.fields.find((x) => x.field === field && !x.fromFile)!.option;
      if (cmd.getOptionValueSource(inline.attributeName()) === 'cli') throw new CallFailed(EXIT.usage, { error: 'usage_error', message: `give --${field.flag} or --${field.flag}-file, not both` });
      setPath(input[field.in], field.field, fileText(value as string));
    } else if (fromFile) {
      const part = input[field.in];
      part[field.field] = [...((part[field.field] as string[] | undefined) ?? []), ...fileLines(value as string)];
    } else if (field.kind === 'null' || (field.nullable && value === false)) {
      setPath(input[field.in], field.field, null);
    } else if (field.kind === 'map') {
      setPath(input[field.in], field.field, Object.fromEntries((value as string[]).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])));
    } else if (field.kind === 'list') {
      const part = input[field.in];
      part[field.field] = [...((part[field.field] as string[] | undefined) ?? []), ...(value as string[])];
    } else {
      setPath(input[field.in], field.field, value);
    }
  }
  for (const [k, v] of Object.entries(def.fixed)) input.body[k] = v;
  const sendsBody = def.method === 'post' || def.method === 'patch';
  return { params: { path: input.path, query: input.query }, ...(sendsBody ? { body: input.body } : {}), partial: [...partial.values()] };
}

/**
 * Fills the properties of a PATCH's partly given object fields from the resource as it is (a GET
 * of the same path): `projects update --cron` keeps the schedule's time zone, and `--timezone`
 * alone keeps its cron. Without a current value, a property the object needs is a usage error.
 */
async function fillPartial(def: CliCommandDef, init: ReturnType<typeof requestOf>, client: SightlineClient) {
  if (!init.partial.length) return;
  let current: Record<string, unknown>;
  try {
    current = await answer<Record<string, unknown>>((client.request as unknown as Call)('get', def.path, { params: { path: init.params.path } }));
  } catch (err) {
    if (!(err instanceof CallFailed) || err.body.error !== 'missing_scope') throw err;
    const missing = init.partial.flatMap((p) => p.missing.map((m) => `--${m.flag}`)).join(' and ');
    throw new CallFailed(EXIT.auth, { ...err.body, message: `${err.message} The current values are kept by reading them first; without that scope, give ${missing} too.` });
  }
  for (const p of init.partial) {
    const now = current[p.field] as Record<string, unknown> | null | undefined;
    const target = (p.in === 'body' ? init.body : init.params.query) as Record<string, unknown>;
    for (const m of p.missing) {
      if (now && now[m.prop] !== undefined && now[m.prop] !== null) setPath(target, `${p.field}.${m.prop}`, now[m.prop]);
      else if (m.needed) {
        const what = def.command.split(' ')[0].replace(/s$/, '');
        throw new CallFailed(EXIT.usage, {
          error: 'usage_error',
          message: `${p.given.map((f) => `--${f}`).join(' and ')} needs --${m.flag} beside it: the ${what} has no ${p.field.replace(/_/g, ' ')} to keep its ${m.prop} from`,
        });
      }
    }
  }
}

type Call = (method: string, path: string, init: unknown) => Promise<Reply>;

/** What a command prints (doc with --json, else human) and, when it is not 0, its exit code. */
type Outcome = { doc: unknown; human: string | Listing; exit?: number };

// ---- the program -----------------------------------------------------------------------------

/** Builds the user commands onto `program`; each action sets the exit code through `setExit`. */
export function userCommands(program: Command, io: Io, setExit: (code: number) => void, version: string) {
  const json = (cmd: Command) => cmd.addOption(new Option('--json', 'print one JSON document'));
  const act =
    <A extends unknown[]>(fn: (cmd: Command, ...args: A) => Promise<Outcome | null>) =>
    async (...args: A) => {
      const cmd = args[args.length - 1] as Command;
      const asJson = !!cmd.opts().json;
      try {
        const result = await fn(cmd, ...args);
        if (result && asJson) io.out(JSON.stringify(result.doc));
        else if (typeof result?.human === 'string') io.out(result.human);
        else if (result) {
          // A list: rows on stdout, its note (empty, the next page) on stderr.
          if (result.human.rows) io.out(result.human.rows);
          if (result.human.note) io.err(result.human.note);
        }
        setExit(result?.exit ?? EXIT.ok);
      } catch (err) {
        if (!(err instanceof CallFailed)) throw err;
        if (asJson) io.out(JSON.stringify(err.body));
        io.err(`sightline: ${err.message}${err.body.hint ? ` (${err.body.hint})` : ''}`);
        setExit(err.exit);
      }
    };

  const groups = new Map<string, Command>();
  const parentOf = (words: string[]) => {
    if (words.length === 1) return program;
    let group = groups.get(words[0]);
    if (!group) {
      group = program.command(words[0]).description(GROUPS[words[0]] ?? words[0]);
      groups.set(words[0], group);
    }
    return group;
  };

  const built = new Map<string, Built>();
  for (const def of CLI_COMMANDS) {
    const words = def.command.split(' ');
    const cmd = json(parentOf(words).command(words[words.length - 1]).description(def.description));
    for (const a of def.args) cmd.argument(`<${a.flag}>`, a.description);
    const fields: Built['fields'] = [];
    for (const f of def.options) {
      const option = optionOf(f);
      if (f.required && !f.file) option.makeOptionMandatory();
      cmd.addOption(option);
      fields.push({ option, field: f });
      // commander pairs --no-<flag> with --<flag>: one value, false when negated (read as null below).
      if (f.nullable) cmd.addOption(new Option(`--no-${f.flag}`, `send ${f.field}: null`));
      if (f.file) {
        const what = f.kind === 'list' ? `${f.flag}s from a file, one a line` : `--${f.flag} from a file`;
        const fromFile = new Option(`--${f.flag}-file <file>`, `read ${what} (- for stdin)`);
        cmd.addOption(fromFile);
        fields.push({ option: fromFile, field: f, fromFile: true });
      }
    }
    // A null option (--no-schedule) and the options it would contradict (--cron) exclude each other.
    for (const { option, field } of fields) {
      if (field.kind === 'null') option.conflicts(fields.filter((x) => x.field.field.startsWith(`${field.field}.`)).map((x) => x.option.attributeName()));
    }
    const entry = { def, fields };
    built.set(def.command, entry);
    if (def.command === 'logs ingest') {
      logsIngest(cmd, io, act);
      continue;
    }
    const formatter = FORMATTERS[def.command];
    const extra = EXTRAS[def.command];
    if (def.download) cmd.addOption(new Option('--output <file>', 'write the answer to FILE instead of stdout'));
    extra?.options?.().forEach((o) => cmd.addOption(o));
    cmd.action(
      act(async (c: Command, ...rest: unknown[]) => {
        const positionals = rest.slice(0, def.args.length) as string[];
        const { partial, ...init } = requestOf(entry, c, positionals);
        extra?.check?.(init.body ?? {}, init.params.query);
        const client = clientFor(io, c);
        await fillPartial(def, { ...init, partial }, client);
        await extra?.before?.({ c, body: init.body ?? {}, client });
        let response: Response | undefined;
        const call = (client.request as unknown as Call)(def.method, def.path, { ...init, parseAs: 'stream' });
        const stream = await answer<WebReadableStream | null>(call.then((r) => ((response = r.response), r))).catch((err: unknown) => Promise.reject(inFlags(err, entry)));
        const contentType = response!.headers.get('content-type') ?? '';
        const output = c.opts().output as string | undefined;
        if (!output && !contentType.includes('application/json') && c.opts().json) {
          // A file (CSV, JSON Lines) is not the one JSON document --json promises on stdout.
          await stream?.cancel();
          throw new CallFailed(EXIT.usage, {
            error: 'usage_error',
            message: `the answer is a file (${contentType.split(';')[0]}), not one JSON document: add --output FILE (stdout then says where it went), or drop --json to stream it to stdout`,
          });
        }
        if (output || !contentType.includes('application/json')) {
          const target = output ? createWriteStream(output) : io.stdout!;
          let bytes = 0;
          const counted = Readable.fromWeb(stream!).on('data', (chunk: Buffer) => (bytes += chunk.length));
          try {
            await pipeline(counted, target as Writable, { end: !!output });
          } catch (err) {
            // The reader of stdout went away (`… | head`): what it read is all it wanted.
            if (!output && (err as NodeJS.ErrnoException).code === 'EPIPE') return null;
            throw silence(err) ?? new CallFailed(EXIT.usage, { error: 'write_failed', message: `cannot write ${output ?? 'stdout'}: ${(err as Error).message}` });
          }
          if (!output) return null;
          return { doc: { output, bytes, content_type: contentType }, human: `wrote ${bytes} bytes (${contentType.split(';')[0]}) to ${output}` };
        }
        const text = stream ? await new Response(stream as ReadableStream).text().catch((err: unknown) => Promise.reject(silence(err) ?? unreachable(err))) : null;
        const doc = text === null ? null : JSON.parse(text);
        const human = formatter.human(doc as never);
        if (extra?.after) return extra.after({ c, doc, human, client, io, call: (command, args) => callCommand(built.get(command)!, client, args) });
        return { doc, human };
      }),
    );
  }

  registerLocalCommands(program, io, setExit, version, json, act);
}

/**
 * A validation error in the command's own words: `--prompt, --prompt-file: Too big: …` rather than
 * `body.prompts: …`, the option (or argument) that gave each field named; other failures as they are.
 */
function inFlags(err: unknown, entry: Built): unknown {
  if (!(err instanceof CallFailed) || !Array.isArray(err.body.detail)) return err;
  const named = (err.body.detail as { loc: (string | number)[]; msg: string }[]).map((d) => {
    const [where, ...rest] = d.loc;
    const path = rest.join('.');
    const covers = (f: CliField) => f.in === where && (path === f.field || path.startsWith(`${f.field}.`));
    const given = entry.fields.filter((x) => covers(x.field));
    const flags = given.map((x) => x.option.long!);
    const arg = entry.def.args.find(covers);
    // Inside a JSON option or a list, the place in it too: --definition (definition.target_entity).
    const inside = given.some((x) => x.field.field !== path) ? ` (${path})` : '';
    const who = flags.length ? `${flags.join(', ')}${inside}` : arg ? `<${arg.flag}>` : d.loc.join('.');
    return `${who}: ${d.msg}`;
  });
  return new CallFailed(err.exit, { ...err.body, message: named.join('; ') });
}

/**
 * `logs ingest FILE --site ID [--format F] [--follow]`: the file goes up in pieces of whole lines
 * (src/cli/log-ingest.ts), not as one request body; --follow reads what is appended until
 * SIGINT/SIGTERM, then prints the totals.
 */
function logsIngest(cmd: Command, io: Io, act: Act) {
  // FILE is the command's own argument, not an input field of the operation (the catalog's
  // table lists those), so it is read from the excess arguments.
  cmd.usage('FILE|- --site SITE_ID [--format FORMAT] [--follow] [--json]');
  cmd.allowExcessArguments(true);
  cmd.addOption(new Option('--follow', 'keep reading what is appended to the file (rotation included) until interrupted'));
  cmd.action(
    act(async (c: Command) => {
      const file = c.args[0];
      if (!file || c.args.length > 1) throw new CallFailed(EXIT.usage, { error: 'usage_error', message: 'give exactly one FILE (- for stdin): sightline logs ingest FILE --site SITE_ID' });
      const o = c.opts() as { site: string; format?: string; follow?: boolean };
      if (file === '-' && o.follow) throw new CallFailed(EXIT.usage, { error: 'usage_error', message: '--follow reads a growing file, not stdin: give the file' });
      const client = clientFor(io, c);
      const send: Send = (piece) => answer(uploadPiece(client, o.site, o.format, piece) as Promise<Reply>);
      // With --follow, Ctrl-C (or SIGTERM) ends the follow and prints the totals. Without it the
      // signals keep their default: the upload stops at once (exit 130), what went up stays (sent
      // again, those lines count once).
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      if (o.follow) {
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
      }
      try {
        const t = await ingestFile(file, o.site, send, { follow: !!o.follow, signal: stop.signal, pollMs: Number(io.env.SIGHTLINE_FOLLOW_POLL_MS) || undefined }).catch((err: unknown) => {
          if (err instanceof CallFailed) throw err;
          throw new CallFailed(EXIT.usage, { error: 'read_failed', message: `cannot read ${file === '-' ? 'stdin' : file}: ${(err as Error).message}` });
        });
        return {
          doc: t,
          human: `${t.file === '-' ? 'stdin' : t.file} → ${t.site_id}: ${plural(t.lines, 'line')} (${t.format ?? 'no format'}) in ${plural(t.requests, 'request')}; ${plural(t.ai_crawler_hits, 'AI crawler hit')}, ${plural(t.ai_referral_visits, 'AI referral visit')}, ${plural(t.duplicates, 'duplicate')}, ${t.skipped} skipped${t.hint ? `\n${t.hint}` : ''}${futureLinesNote(t.future_lines, t.to)}${tooOldLinesNote(t.too_old_lines, t.from)}`,
        };
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    }),
  );
}

/** Runs a command of the table with positional arguments only (a watch polling the run's read). */
async function callCommand(entry: Built, client: SightlineClient, args: string[]): Promise<unknown> {
  const path: Record<string, string> = {};
  entry.def.args.forEach((a, i) => (path[a.field] = args[i]));
  return answer((client.request as unknown as Call)(entry.def.method, entry.def.path, { params: { path } }));
}

const TERMINAL = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface AfterContext {
  c: Command;
  doc: unknown;
  human: string | Listing;
  client: SightlineClient;
  io: Io;
  call: (command: string, args: string[]) => Promise<unknown>;
}

/**
 * `--watch`: reads the queued run with `readCommand` every half second, showing its progress,
 * until it ends; answers the last read.
 */
async function watch<R extends { status: string; billing: { settled_credits: string; reserved_credits: string }; error?: { code: string; message?: string | null } | null }>(
  x: AfterContext,
  readCommand: string,
  progressOf: (run: R) => { done: number; total: number; unit: string },
  ended: (run: R) => boolean,
  human: (run: R) => string,
): Promise<Outcome> {
  if (!x.c.opts().watch) return { doc: x.doc, human: x.human };
  const progress = progressDisplay(x.io.err, x.io.isTTY, x.io.env);
  const id = (x.doc as { run_id: string }).run_id;
  // Ctrl-C stops the watching, not the run: say which run goes on and how to find it again.
  const group = readCommand.split(' ')[0];
  const onSignal = () => {
    progress.end();
    x.io.err(`sightline: stopped watching run ${id}; it goes on (\`sightline ${group} status ${id}\`${group === 'visibility' ? `, or \`sightline visibility cancel ${id}\`` : ''})`);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  try {
    return await follow();
  } finally {
    process.off('SIGINT', onSignal);
  }
  async function follow(): Promise<Outcome> {
    for (;;) {
      const run = (await x.call(readCommand, [id])) as R;
      progress.update({ ...progressOf(run), status: run.status, credits: `${run.billing.settled_credits} of ${run.billing.reserved_credits}` });
      if (ended(run)) {
        progress.end();
        // A run that failed is a failed command: said on stderr, with its error, and exit 1.
        if (run.status === 'failed') {
          const why = run.error ? `: ${run.error.code}${run.error.message ? ` (${run.error.message})` : ''}` : '';
          x.io.err(`sightline: run ${id} failed${why}`);
          return { doc: run, human: human(run), exit: EXIT.refused };
        }
        return { doc: run, human: human(run) };
      }
      await sleep(500);
    }
  }
}

/**
 * A visibility run or estimate needs questions: said in the CLI's own flags before anything is
 * sent (the API would answer in its field names).
 */
function questionsGiven(body: Record<string, unknown>) {
  if (body.prompts === undefined && body.probes === undefined) {
    throw new CallFailed(EXIT.usage, {
      error: 'usage_error',
      message: 'give the questions as --prompt TEXT (repeatable) or --prompt-file FILE and the assistants as --platform NAME (repeatable), or every probe as --probes JSON',
    });
  }
}

/** A sample plan plans for exactly one goal: an interval's half-width or a change to detect. */
function oneGoal(query: Record<string, unknown>) {
  if ((query.half_width === undefined) === (query.change === undefined)) {
    throw new CallFailed(EXIT.usage, {
      error: 'usage_error',
      message: 'give exactly one goal: --half-width X (the interval at most ± X, e.g. 0.10) or --change X (a change of X to detect, e.g. 0.15)',
    });
  }
}

/**
 * --require-full-funding: the API queues whatever prefix of the probes the balance covers, so the
 * CLI asks the free estimate first and queues nothing unless every probe would be funded. The
 * balance can still change between the two requests; the note after the create reports it then.
 */
async function fullFundingFirst(x: { c: Command; body: Record<string, unknown>; client: SightlineClient }) {
  if (!x.c.opts().requireFullFunding) return;
  const { idempotency_key: _key, ...body } = x.body;
  const est = await answer<{ probe_count: number; fundable_probe_count: number; estimated_credits: string; available_credits: string }>(
    (x.client.request as unknown as Call)('post', '/v1/visibility/runs/estimate', { body }),
  );
  if (est.fundable_probe_count < est.probe_count) {
    throw new CallFailed(EXIT.credits, {
      error: 'insufficient_credits',
      message: `not queued: the balance covers ${est.fundable_probe_count} of ${est.probe_count} probes (${est.available_credits} of ${est.estimated_credits} credits available)`,
      hint: HINTS[402],
      probe_count: est.probe_count,
      fundable_probe_count: est.fundable_probe_count,
      estimated_credits: est.estimated_credits,
      available_credits: est.available_credits,
    });
  }
}

/** A partly funded run is said on stderr: how many probes were queued and how many skipped. */
function partialNote(x: AfterContext) {
  const run = x.doc as { run_id: string; probe_count: number; queued_probe_count: number; skipped_probe_count: number; reserved_credits?: string };
  if (!run || !run.skipped_probe_count) return;
  x.io.err(
    `sightline: run ${run.run_id} is partly funded: ${run.queued_probe_count} of ${run.probe_count} probes queued${run.reserved_credits ? ` (${run.reserved_credits} credits reserved)` : ''}, ${run.skipped_probe_count} skipped for lack of credits; pass --require-full-funding to queue nothing in that case`,
  );
}

/**
 * What some commands add to their operation: --watch follows a queued run to its end; `check`
 * refuses a request the command line left incomplete.
 */
const EXTRAS: Record<
  string,
  {
    options?: () => Option[];
    check?: (body: Record<string, unknown>, query: Record<string, unknown>) => void;
    /** Runs before the operation's own request (which it may refuse by throwing CallFailed). */
    before?: (x: { c: Command; body: Record<string, unknown>; client: SightlineClient }) => Promise<void>;
    after?: (x: AfterContext) => Promise<Outcome>;
  }
> = {
  'visibility run': {
    options: () => [
      new Option('--watch', 'follow the run until it ends, with a progress bar on stderr'),
      new Option('--require-full-funding', 'queue nothing unless the balance covers every probe (checked with a free estimate first; exit 4 otherwise)'),
    ],
    check: questionsGiven,
    before: fullFundingFirst,
    after: async (x) => {
      partialNote(x);
      return watch<Parameters<typeof visibilityRunLine>[0]>(x, 'visibility status', (run) => ({ ...probeCounts(run), unit: 'probes' }), (run) => TERMINAL.has(run.status), visibilityRunLine);
    },
  },
  'visibility estimate': { check: questionsGiven },
  'tests plan': { check: (_body, query) => oneGoal(query) },
  'projects plan': { check: (_body, query) => oneGoal(query) },
  'ci run': {
    options: () => [new Option('--watch', 'follow the run until it ends, with its progress on stderr')],
    after: (x) =>
      watch<Parameters<typeof ciRunLine>[0]>(
        x,
        'ci status',
        // A failed analysis is not a full bar: only a completed one counts as done.
        (run) => ({ done: run.status === 'completed' ? 1 : 0, total: 1, unit: 'analysis' }),
        (run) => TERMINAL.has(run.status),
        ciRunLine,
      ),
  },
};

type Act = <A extends unknown[]>(fn: (cmd: Command, ...args: A) => Promise<Outcome | null>) => (...args: A) => Promise<void>;

/** `doctor`: the URL answers, but not as sightline (GET /healthz is 404). */
class NotSightline extends Error {
  constructor(readonly status: number) {
    super(`GET /healthz answers ${status}`);
  }
}

/** The commands that are no API operation: login, logout, doctor, completion. */
function registerLocalCommands(program: Command, io: Io, setExit: (code: number) => void, version: string, json: (c: Command) => Command, act: Act) {
  json(
    program
      .command('login')
      .description('save an API URL and key as a profile (file mode 0600), after checking the key against the server; the key is read from a hidden prompt, or from stdin when piped')
      .option('--url <url>', `the server (default: SIGHTLINE_API_URL, the profile's URL, or ${DEFAULT_API_URL})`),
  ).action(
    act(async (c: Command) => {
      const name = profileName(c.optsWithGlobals().profile as string | undefined, io.env);
      const current = resolveConnection(io, c);
      const apiUrl = (c.opts().url as string | undefined)?.trim() || current.apiUrl;
      const apiKey = await readKey(io);
      if (!apiKey) throw new CallFailed(EXIT.usage, { error: 'missing_api_key', message: 'no API key given (type it at the prompt, or pipe it in)' });
      const key = await checkKey(createSightlineClient({ baseUrl: apiUrl, apiKey, timeoutMs: timeoutMs(io.env) }));
      const path = saveProfile(io.env, name, { api_url: apiUrl, api_key: apiKey });
      const credits = key.credits === null ? 'credits not readable with this key' : `${key.credits} credits available`;
      return {
        doc: { profile: name, api_url: apiUrl, config_path: path, available_credits: key.credits, missing_scopes: key.missing },
        human: `logged in to ${apiUrl} as profile ${name} (${credits}); saved to ${path}${key.missing.map((m) => `\n${lacksLine(m)}`).join('')}`,
      };
    }),
  );

  json(program.command('logout').description("forget a profile's saved URL and key (the key itself stays valid on the server)")).action(
    act(async (c: Command) => {
      const name = profileName(c.optsWithGlobals().profile as string | undefined, io.env);
      const removed = removeProfile(io.env, name);
      return { doc: { profile: name, removed }, human: removed ? `removed profile ${name} from ${configPath(io.env)}` : `no profile ${name} in ${configPath(io.env)}` };
    }),
  );

  json(program.command('doctor').description('check the server URL, readiness, the API key, the clock and the server version')).action(async (opts: { json?: boolean }, cmd: Command) => {
    const asJson = !!opts.json;
    const checks: { check: string; ok: boolean; detail: string }[] = [];
    let worst: number = EXIT.ok;
    const fail = (check: string, detail: string, exit: number) => {
      checks.push({ check, ok: false, detail });
      if (worst === EXIT.ok) worst = exit;
    };
    let conn: ReturnType<typeof resolveConnection>;
    let limit: number;
    try {
      conn = resolveConnection(io, cmd);
      limit = timeoutMs(io.env);
    } catch (err) {
      if (!(err instanceof CallFailed)) throw err;
      fail('config', err.message, err.exit);
      io.out(asJson ? JSON.stringify({ ok: false, checks }) : `FAIL config          ${err.message}`);
      return setExit(worst);
    }
    const baseUrl = conn.apiUrl;
    // Joined, not resolved: a server under a path (https://host/sightline) keeps its prefix, as the
    // typed client's requests do.
    const fetch = (path: string) => globalThis.fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, limit ? { signal: AbortSignal.timeout(limit) } : {});
    try {
      const health = await fetch('/healthz');
      // 404: whatever answers there is no sightline (another service on the port, a proxy without
      // this path, a path the server is not under); the other checks would only repeat it.
      if (health.status === 404) throw new NotSightline(health.status);
      checks.push({ check: 'url', ok: health.ok, detail: `${baseUrl} answers ${health.status}` });
      const serverDate = Date.parse(health.headers.get('date') ?? '');
      const skew = Number.isNaN(serverDate) ? null : Math.round((Date.now() - serverDate) / 1000);
      if (skew === null || Math.abs(skew) <= 60) checks.push({ check: 'clock', ok: true, detail: skew === null ? 'no Date header' : `${skew} s from the server` });
      else fail('clock', `${skew} s from the server: fix this machine's clock`, EXIT.refused);
      const ready = await fetch('/readyz');
      if (ready.ok) checks.push({ check: 'database', ok: true, detail: `ready (${((await ready.json()) as { database: string }).database})` });
      else fail('database', `readyz answers ${ready.status}`, EXIT.server);
      const docAnswer = await fetch('/openapi.json');
      const doc = (docAnswer.ok ? await docAnswer.json().catch(() => ({})) : {}) as { info?: { version?: string } };
      checks.push({ check: 'server_version', ok: true, detail: `API ${doc.info?.version ?? 'unknown'}; this CLI ${version}` });
    } catch (err) {
      if (err instanceof NotSightline) {
        fail('url', `${baseUrl} answers ${err.status} to GET /healthz: no sightline server there; check SIGHTLINE_API_URL (or the profile's URL): its host, port and path`, EXIT.server);
      } else {
        const failure = (err as Error).name === 'TimeoutError' ? silence(new ServerSilent(limit, 'GET'))! : unreachable(err);
        fail('url', `${baseUrl}: ${failure.message}${failure.body.hint ? ` (${failure.body.hint})` : ''}`, EXIT.server);
      }
    }
    if (worst !== EXIT.server) {
      try {
        const key = await checkKey(clientFor(io, cmd));
        const source = io.env.SIGHTLINE_API_KEY?.trim() ? 'SIGHTLINE_API_KEY' : `profile ${conn.name}`;
        const credits = key.credits === null ? '' : `; ${key.credits} credits available`;
        checks.push({ check: 'api_key', ok: true, detail: `accepted (from ${source})${credits}${key.missing.map((m) => `; ${lacksLine(m)}`).join('')}` });
        const platforms = await platformsCheck(clientFor(io, cmd));
        if (platforms) checks.push(platforms);
      } catch (err) {
        if (!(err instanceof CallFailed)) throw err;
        fail('api_key', `${err.message}${err.body.hint ? ` (${err.body.hint})` : ''}`, err.exit);
      }
    }
    io.out(asJson ? JSON.stringify({ ok: worst === EXIT.ok, checks }) : checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.check.padEnd(15)} ${c.detail}`).join('\n'));
    setExit(worst);
  });

  program
    .command('completion')
    .description('print a shell completion script: source <(sightline completion bash)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action((shell: (typeof SHELLS)[number]) => {
      io.out(completionScript(shell, completionTree(io, version)).replace(/\n$/, ''));
      setExit(EXIT.ok);
    });
}

/** The whole command tree for completion: the user commands, and the operator commands of src/cli/admin.ts as stubs. */
function completionTree(io: Io, version: string): Command {
  const tree = buildProgram(io, version, () => {});
  const groups = new Map<string, Command>();
  for (const [command, flags] of Object.entries(OPERATOR_COMMANDS)) {
    const [group, name] = command.split(' ');
    let cmd: Command;
    if (name) {
      if (!groups.has(group)) groups.set(group, tree.command(group).description(`operator: ${group}`));
      cmd = groups.get(group)!.command(name).description(`operator: ${command}`);
    } else cmd = tree.command(group).description(`operator: ${command}`);
    for (const f of flags) cmd.option(OPERATOR_OPTIONS[f].type === 'string' ? `--${f} <value>` : `--${f}`);
  }
  return tree;
}

interface MissingScope {
  scope: string;
  /** The commands that need the scope, which the server will refuse this key. */
  commands: string[];
}

/**
 * Checks a key against the server (GET /v1/usage) for `login` and `doctor`. A 403 missing_scope
 * still proves the key: the server knew it and read its scopes. Such a key is accepted, with the
 * scope it was refused and the commands that need that scope (a narrow key, e.g. one made only to
 * queue runs, has no runs:read). Any other failure (401, an MCP token, a suspended account, an
 * unreachable server) is thrown.
 */
async function checkKey(client: SightlineClient): Promise<{ credits: string | null; missing: MissingScope[] }> {
  try {
    const usage = await answer<{ credits: { available_credit_units: string } }>(client.GET('/v1/usage'));
    return { credits: usage.credits.available_credit_units, missing: [] };
  } catch (err) {
    if (!(err instanceof CallFailed) || err.body.error !== 'missing_scope' || typeof err.body.required_scope !== 'string') throw err;
    const scope = err.body.required_scope;
    return { credits: null, missing: [{ scope, commands: CLI_COMMANDS.filter((c) => c.scope === scope).map((c) => c.command) }] };
  }
}

/**
 * `doctor`'s platforms line: the engine, and the platforms this server can ask and those it cannot
 * (no credentials there: a run naming one is refused). Informational; null when the key may not
 * read the models.
 */
async function platformsCheck(client: SightlineClient): Promise<{ check: string; ok: boolean; detail: string } | null> {
  try {
    const models = await answer<{ platforms: Record<string, { engine: string; available: boolean }[]> }>(client.GET('/v1/visibility/models'));
    const entries = Object.entries(models.platforms);
    const engine = entries[0]?.[1][0]?.engine ?? 'unknown';
    const up = entries.filter(([, m]) => m.some((x) => x.available)).map(([p]) => p);
    const down = entries.filter(([, m]) => !m.some((x) => x.available)).map(([p]) => p);
    return { check: 'platforms', ok: true, detail: `${engine}: ${up.length ? up.join(', ') : 'none'} available${down.length ? `; not configured on the server: ${down.join(', ')}` : ''}` };
  } catch (err) {
    if (err instanceof CallFailed) return null;
    throw err;
  }
}

const lacksLine = (m: MissingScope) =>
  `the key lacks the scope ${m.scope}${m.commands.length ? `; these commands will be refused: ${m.commands.join(', ')}` : ''}`;

/** The API key for `login`: typed at a prompt that does not echo it, or the first line of stdin. */
async function readKey(io: Io): Promise<string> {
  const stdin = io.stdin ?? process.stdin;
  if (stdin.isTTY) {
    const silent = new Writable({ write: (_chunk, _enc, done) => done() });
    const rl = createInterface({ input: stdin, output: silent, terminal: true });
    io.err('API key (svc_api_live_…, not shown): ');
    try {
      return (await rl.question('')).trim();
    } finally {
      rl.close();
      io.err('\n');
    }
  }
  let text = '';
  for await (const chunk of stdin) text += String(chunk);
  return text.split(/\r?\n/)[0]?.trim() ?? '';
}

/** The first words that are user commands (and --version, --profile): everything else is an operator command (src/cli/admin.ts). */
export function isUserCommandLine(argv: string[]): boolean {
  const first = argv[0];
  if (first === undefined) return false;
  if (first === '--version' || first === '-V' || first === '--profile' || first.startsWith('--profile=')) return true;
  if (first === 'help') return USER_COMMANDS.has(argv[1]);
  return USER_COMMANDS.has(first);
}

export const USER_COMMANDS = new Set([...CLI_COMMANDS.map((c) => c.command.split(' ')[0]), 'login', 'logout', 'doctor', 'completion']);

/** The options every user command takes, shown in each command's --help. */
function globalOptions(program: Command): Command {
  return program
    .addOption(new Option('--profile <name>', 'the saved profile to use (default: SIGHTLINE_PROFILE, else "default")'))
    .addOption(new Option('--verbose', 'say which server, profile and key source the command uses'))
    .configureHelp({ showGlobalOptions: true });
}

/** The user commands' commander program; each action reports its exit code through `setExit`. */
export function buildProgram(io: Io, version: string, setExit: (code: number) => void): Command {
  const program = globalOptions(new Command('sightline').version(version))
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
  userCommands(program, io, setExit, version);
  const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
  for (const cmd of all(program)) cmd.exitOverride();
  return program;
}

/** Whether a command line asks for --json (an option, not an argument after `--`). */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** Runs a user command line (argv without node and the script); resolves to the exit code. */
export async function runUserCli(argv: string[], io: Io, version: string): Promise<number> {
  let exit: number = EXIT.ok;
  const program = buildProgram(io, version, (code) => (exit = code));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help asked for (--help, help) is a success; help shown for a group without its subcommand is a usage error.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || (err.code === 'commander.help' && err.exitCode === 0)) return EXIT.ok;
      // Commander said it on stderr; with --json, stdout still holds the one error document.
      if (wantsJson(argv)) io.out(JSON.stringify({ error: 'usage_error', message: err.message.replace(/^error: /, '') }));
      return EXIT.usage;
    }
    if (err instanceof CallFailed) {
      if (wantsJson(argv)) io.out(JSON.stringify(err.body));
      io.err(`sightline: ${err.message}`);
      return err.exit;
    }
    throw err;
  }
  return exit;
}
