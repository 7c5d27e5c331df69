// Unknown body fields are refused: a misspelled field (`competitor`)
// must never run a paid action without it. Route and tool schemas are plain zod objects (zod
// strips unknown keys by default), so instead of rebuilding every schema as a strict copy this
// walks a value alongside its schema and reports each key no object schema declares, as the
// FastAPI 422 detail `{"loc": [...path, key], "msg", "type": "extra_forbidden"}`. Objects that
// declare a catchall (`.passthrough()`, records) accept any key on purpose and are not checked.
// The JSON Schemas an agent or a client plans with (MCP tool arguments, OpenAPI request bodies)
// say the same through closeObjectSchemas.
import type { z } from 'zod';

export interface ExtraField {
  loc: (string | number)[];
  msg: string;
  type: 'extra_forbidden';
}

export const EXTRA_FORBIDDEN_MESSAGE = 'Extra inputs are not permitted';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The object schema a union would use for this value: the only object option, or none. */
function unionObjectOption(options: z.ZodType[], value: Record<string, unknown>): z.ZodType | undefined {
  const objects = options.filter((o) => objectSchemaOf(o) !== undefined);
  if (objects.length === 1) return objects[0];
  // Several object options (a discriminated shape): the one declaring every key of the value
  // wins; if none does, the one declaring the most, so the report names the stray keys.
  let best: z.ZodType | undefined;
  let bestHits = -1;
  for (const o of objects) {
    const shape = defOf(objectSchemaOf(o)!).shape ?? {};
    const hits = Object.keys(value).filter((k) => Object.hasOwn(shape, k)).length;
    if (hits > bestHits) [best, bestHits] = [o, hits];
  }
  return best;
}

/** The schema a wrapper (optional, nullable, default, pipe, lazy…) stands for; undefined for others. */
function wrapped(def: Def): z.ZodType | undefined {
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType;
    case 'pipe':
      return def.in;
    case 'lazy':
      return def.getter!();
    default:
      return undefined;
  }
}

/** The object schema under wrappers, if there is one. */
function objectSchemaOf(schema: z.ZodType): z.ZodType | undefined {
  const def = defOf(schema);
  if (def.type === 'object') return schema;
  const inner = wrapped(def);
  return inner ? objectSchemaOf(inner) : undefined;
}

// The declared keys an unknown key was probably meant as, kept beside the issue (not in it: the
// detail keeps FastAPI's shape) for a surface whose message can say so (an MCP tool's).
const SUGGESTIONS = new WeakMap<ExtraField, string[]>();

/** The declared, unsent keys an unknown key most likely stands for (see likelyMeant); [] for none. */
export function suggestedKeys(extra: ExtraField): string[] {
  return SUGGESTIONS.get(extra) ?? [];
}

const fold = (k: string) => k.toLowerCase().replace(/[_-]/g, '');

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Which of the declared keys not sent (`candidates`) an unknown key stands for: the same key in
 * another case or spelling (`projectId`, `project-id`), the plural or singular (`competitor`), a
 * bare `id` for `project_id`, or a typo of at most two letters in a key of five or more (`modle`).
 */
export function likelyMeant(key: string, candidates: string[]): string[] {
  const k = fold(key);
  const rules: ((c: string) => boolean)[] = [
    (c) => fold(c) === k,
    (c) => fold(c) === `${k}s` || `${fold(c)}s` === k,
    (c) => c.endsWith(`_${key}`),
    (c) => k.length >= 5 && editDistance(fold(c), k) <= 2,
  ];
  for (const rule of rules) {
    const hits = candidates.filter(rule);
    if (hits.length) return hits;
  }
  return [];
}

/** Every key of `value` that `schema` does not declare, located under `loc`. */
export function extraFields(schema: z.ZodType, value: unknown, loc: (string | number)[] = []): ExtraField[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      if (!isPlainObject(value)) return [];
      const shape = def.shape ?? {};
      const found: ExtraField[] = [];
      for (const [key, v] of Object.entries(value)) {
        // Own keys only: `valueOf` or `constructor` in a body must not find Object.prototype's.
        const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
        if (field) found.push(...extraFields(field, v, [...loc, key]));
        else if (!def.catchall) {
          const extra: ExtraField = { loc: [...loc, key], msg: EXTRA_FORBIDDEN_MESSAGE, type: 'extra_forbidden' };
          const meant = likelyMeant(key, Object.keys(shape).filter((k) => !Object.hasOwn(value, k)));
          if (meant.length) SUGGESTIONS.set(extra, meant);
          found.push(extra);
        }
      }
      return found;
    }
    case 'array':
      return Array.isArray(value) ? value.flatMap((item, i) => extraFields(def.element!, item, [...loc, i])) : [];
    case 'record':
      return isPlainObject(value) ? Object.entries(value).flatMap(([k, v]) => extraFields(def.valueType!, v, [...loc, k])) : [];
    case 'union': {
      if (!isPlainObject(value)) return [];
      const option = unionObjectOption(def.options ?? [], value);
      return option ? extraFields(option, value, loc) : [];
    }
    default: {
      const inner = wrapped(def);
      return inner ? extraFields(inner, value, loc) : [];
    }
  }
}

/**
 * Marks `additionalProperties: false` on every object of an input JSON Schema (as zod renders one)
 * that extraFields closes. zod leaves input objects open and writes `additionalProperties` only
 * for a catchall (`.passthrough()` as `{}`, a record as its value schema), so an object without
 * the key is exactly an object schema without a catchall. Changes the schema in place.
 */
export function closeObjectSchemas(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjectSchemas);
  if (!isPlainObject(node)) return;
  if (node.type === 'object' && node.additionalProperties === undefined && node.propertyNames === undefined) node.additionalProperties = false;
  Object.values(node).forEach(closeObjectSchemas);
}
