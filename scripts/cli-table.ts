// The user CLI's table of commands (src/cli/commands.gen.ts), derived from the one catalog of
// operations: each operation's `cli` entry names its command and positional arguments, and every
// other input field becomes an option typed by the field's JSON Schema (the same conversion the
// MCP tools and the OpenAPI document use). The CLI loads this table, not the routes, so it starts
// without the engine. `npm run client:generate` writes it; test/cli/cli-catalog.test.ts fails
// when the committed table differs from what the catalog derives.
import pluralize from 'pluralize';
import { z } from 'zod';
import { OPERATIONS } from '../src/operations/index.ts';
import { operationIdOf, type CliSpec, type RouteSpec } from '../src/operations/define.ts';
import type { CliField, FieldKind } from '../src/cli/command-table.ts';

type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;
type Json = { [k: string]: any };

/** Flags the CLI adds to every command or to some (src/cli/user.ts); no input field may take them. */
export const RESERVED_FLAGS = ['json', 'help', 'profile', 'verbose', 'output', 'watch', 'version'];

/** A command of the table as derived, before it is written out. */
export interface DerivedCommand {
  command: string;
  operationId: string;
  method: string;
  path: string;
  description: string;
  args: CliField[];
  options: CliField[];
  fixed: Record<string, unknown>;
  download: boolean;
  scope: string | null;
}

/** `X | null` → X (the description kept); other unions stay as they are. */
function withoutNull(s: Json): Json {
  if (!Array.isArray(s.anyOf)) return s;
  const rest = s.anyOf.filter((a: Json) => a.type !== 'null');
  if (rest.length === 1) return { ...rest[0], description: s.description ?? rest[0].description };
  return { ...s, anyOf: rest };
}

/** A schema's bounds that say something (a clamped integer's are the safe-integer limits). */
function boundsOf(s: Json): { min?: number; max?: number } {
  const b: { min?: number; max?: number } = {};
  if (typeof s.minimum === 'number' && Math.abs(s.minimum) < Number.MAX_SAFE_INTEGER) b.min = s.minimum;
  if (typeof s.maximum === 'number' && Math.abs(s.maximum) < Number.MAX_SAFE_INTEGER) b.max = s.maximum;
  return b;
}

/** A list of objects with exactly a language and a country: a market list. */
function isMarketList(s: Json): boolean {
  if (s.type !== 'array') return false;
  const items = withoutNull(s.items ?? {});
  return items.type === 'object' && JSON.stringify(Object.keys(items.properties ?? {}).sort()) === '["country","language"]';
}

/** How a field is written on the command line, from its JSON Schema. */
export function kindOf(schema: Json): { kind: FieldKind; choices?: string[]; shorthand?: CliField['shorthand']; min?: number; max?: number; credits?: boolean; markets?: boolean } {
  const s = withoutNull(schema);
  const alts: Json[] = s.anyOf ?? [s];
  if (alts.some((a) => a.type === 'boolean')) return { kind: 'boolean' };
  if (alts.length === 1) {
    if (s.type === 'integer') return { kind: 'integer', ...boundsOf(s) };
    if (s.type === 'number') return { kind: 'number', ...boundsOf(s) };
    if (s.type === 'string') {
      const choices = s.enum ?? s['x-choices'];
      return choices ? { kind: 'string', choices } : { kind: 'string' };
    }
    if (s.type === 'array') {
      const items = withoutNull(s.items ?? {});
      const itemAlts: Json[] = items.anyOf ?? [items];
      if (itemAlts.some((a) => a.type === 'string')) return itemAlts.length === 1 && items.enum ? { kind: 'list', choices: items.enum } : { kind: 'list' };
    }
    if (s.type === 'object' && s.additionalProperties?.type === 'string') return { kind: 'map' };
  } else if (alts.every((a) => a.type === 'string' || a.type === 'number' || a.type === 'integer')) {
    // A text or a number: in the catalog, a credit amount ("200.00" or 200), which the CLI checks.
    if (!/credit/i.test(s.description ?? '')) throw new Error(`a text-or-number field that is no credit amount (${s.description}): say how the CLI checks it`);
    return { kind: 'string', credits: true };
  }
  if (isMarketList(s)) return { kind: 'json', markets: true };
  const named = shorthandOf(s);
  return named ? { kind: 'json', shorthand: named } : { kind: 'json' };
}

/**
 * The one required string property of an object, or of a list's objects, so that a bare word
 * stands for it on the command line (`--brand Acme` for {"name":"Acme"}, `--competitor` repeated
 * for a list): the property a person would type first.
 */
function shorthandOf(s: Json): CliField['shorthand'] {
  const many = s.type === 'array';
  const obj = many ? withoutNull(s.items ?? {}) : s;
  if (obj.type !== 'object' || !Array.isArray(obj.required) || obj.required.length !== 1) return undefined;
  const key = obj.required[0] as string;
  return withoutNull(obj.properties?.[key] ?? {}).type === 'string' ? { key, many } : undefined;
}

/** A route part's object schema (an optional body counts as its fields, each optional). */
function partSchema(part: z.ZodType | undefined): Json | null {
  if (!part) return null;
  const s = withoutNull(z.toJSONSchema(part, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as Json);
  return s.type === 'object' ? s : null;
}

const kebab = (name: string) => name.replace(/_/g, '-');

/** Every input field of an operation, with where it is sent: path parameters, query, body. */
export function inputFields(route: AnyRoute): { field: string; in: CliField['in']; schema: Json; required: boolean }[] {
  const parts = [['path', route.params], ['query', route.querystring], ['body', route.body]] as const;
  return parts.flatMap(([where, part]) => {
    const s = partSchema(part);
    if (!s) return [];
    const required = new Set<string>(s.required ?? []);
    return Object.entries(s.properties ?? {}).map(([field, schema]) => ({ field, in: where, schema: schema as Json, required: where === 'path' || required.has(field) }));
  });
}

function derive(route: AnyRoute, spec: CliSpec): DerivedCommand {
  const fields = inputFields(route);
  const flags = spec.flags ?? {};
  const offered = fields.filter((f) => !spec.args?.includes(f.field) && !(f.field in (spec.fixed ?? {})) && (!spec.fields || spec.fields.includes(f.field)));
  const args: CliField[] = (spec.args ?? []).map((name) => {
    const f = fields.find((x) => x.field === name);
    if (!f) throw new Error(`${spec.command}: argument ${name} is no input field of ${route.action}`);
    const { kind } = kindOf(f.schema);
    if (kind !== 'string') throw new Error(`${spec.command}: argument ${name} is a ${kind}, not a string`);
    return { field: name, in: f.in, kind, flag: name, description: f.schema.description ?? '', required: true };
  });
  const options: CliField[] = [];
  for (const f of offered) {
    const inner = Object.keys(flags).filter((k) => k.startsWith(`${f.field}.`));
    if (inner.length) {
      // An object field offered as one option per property (schedule → --cron, --timezone), and
      // --no-<field> to send null where the API takes null (a schedule removed).
      const s = withoutNull(f.schema);
      // A property the object requires is needed beside any other of its options (--timezone
      // without --cron would send a schedule without its cron).
      const needed = ((s.required ?? []) as string[]).map((prop) => flags[`${f.field}.${prop}`]);
      for (const [prop, propSchema] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
        const key = `${f.field}.${prop}`;
        if (!flags[key]) throw new Error(`${spec.command}: ${key} needs a flag, like its siblings`);
        const needs = needed.filter((flag) => flag !== flags[key]);
        options.push({ field: key, in: f.in, ...kindOf(propSchema), flag: flags[key], description: propSchema.description ?? '', required: false, ...(needs.length ? { needs } : {}) });
      }
      if (JSON.stringify(f.schema).includes('"type":"null"')) options.push({ field: f.field, in: f.in, kind: 'null', flag: `no-${kebab(f.field)}`, description: `send ${f.field}: null (${f.schema.description ?? 'none'})`, required: false });
      continue;
    }
    const { kind, choices, shorthand, ...checks } = kindOf(f.schema);
    const flag = flags[f.field] ?? kebab(kind === 'list' || kind === 'map' ? pluralize.singular(f.field) : f.field);
    const option: CliField = { field: f.field, in: f.in, kind, flag, description: f.schema.description ?? '', required: f.required };
    if (choices) option.choices = choices;
    if (shorthand) option.shorthand = shorthand;
    // A change (PATCH) that takes null for the field (a budget removed, every project again) also
    // offers --no-<flag>, which sends null.
    if (route.method === 'PATCH' && kind !== 'boolean' && JSON.stringify(f.schema).includes('"type":"null"')) option.nullable = true;
    Object.assign(option, checks);
    if (spec.files?.includes(f.field)) {
      if (kind !== 'list' && kind !== 'string') throw new Error(`${spec.command}: only a list or a text is read from a file, not ${f.field}`);
      option.file = true;
      option.required = false;
    }
    options.push(option);
  }
  for (const field of Object.keys(spec.fixed ?? {})) {
    if (fields.find((f) => f.field === field)?.in !== 'body') throw new Error(`${spec.command}: fixed ${field} is no body field`);
  }
  for (const o of options) {
    if (RESERVED_FLAGS.includes(o.flag)) throw new Error(`${spec.command}: --${o.flag} is the CLI's own flag; name ${o.field} in flags`);
    if (options.filter((x) => x.flag === o.flag).length > 1) throw new Error(`${spec.command}: two fields are --${o.flag}`);
  }
  return {
    command: spec.command,
    operationId: operationIdOf(route.action),
    method: route.method.toLowerCase(),
    path: route.url.replace(/:([a-z_]+)/g, '{$1}'),
    description: spec.description ?? route.summary,
    args,
    options,
    fixed: spec.fixed ?? {},
    // An operation with an HTTP handler of its own answers a file (CSV, JSON Lines): --output.
    download: route.handler !== undefined,
    // The scope the operation needs (null: it depends on the request, e.g. a tracked test's run kind).
    scope: route.scope ?? null,
  };
}

/** The commands of every operation, in catalog order. */
export function cliCommands(): DerivedCommand[] {
  return (OPERATIONS as AnyRoute[]).flatMap((route) => [route.cli].flat().map((spec) => derive(route, spec)));
}

export function cliTableSource(): string {
  return (
    '// Generated by `npm run client:generate` from the catalog of operations (scripts/cli-table.ts). Do not edit.\n' +
    "import type { CliCommandDef } from './command-table.ts';\n\n" +
    `export const CLI_COMMANDS: CliCommandDef[] = ${JSON.stringify(cliCommands(), null, 2)};\n`
  );
}
