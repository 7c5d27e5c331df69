// Smaller JSON Schemas for tools/list, which agents put whole into their model's context. Every
// rewrite here accepts exactly the values the schema accepted before (integer bounds the JSON
// number never reaches aside), so an SDK client that validates structuredContent against a tool's
// outputSchema still does, and a tool's arguments are still described the same way.
//
// - `compactSchema`, both sides: `anyOf` inside `anyOf` as one list; no ±2^53-1 bounds on
//   integers (zod writes them for every z.number().int()).
// - `compactSchema`, the output side only: `anyOf: [X, {type: null}]` as one schema whose `type`
//   or `enum` also allows null; no `type` beside an `enum` or `const` (they say it); no
//   descriptions; no `additionalProperties: {}`. Arguments keep all four: clients hand them to
//   model APIs that take a subset of JSON Schema (Gemini's function declarations refuse a list
//   as `type` and want a `type` beside `enum`), and there `{}` tells a client that the server
//   keeps that object open. What an answer's field means is said in /openapi.json and the tool's
//   description; an answer's schema is for the client's validator and the model's sense of its
//   shape.
// - `shareRepeats`, the output side: a sub-schema written two or more times in one tool's schema
//   (a run's summary rates, a brand) is written once under `$defs` and named by `$ref` where it
//   was. Refs stay within the tool's own schema (MCP shares no schema between tools); the root
//   stays an object schema, as MCP requires.

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const MANY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions'];

/** Each sub-schema of a schema node, with a name for it (the property it describes, if any). */
function* children(node: Node, name: string): Generator<[Node, string, (next: Node) => void]> {
  for (const k of ONE) {
    const v = node[k];
    if (isNode(v)) yield [v, k === 'items' ? `${name}_item` : name, (next) => (node[k] = next)];
  }
  for (const k of MANY) {
    const v = node[k];
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) if (isNode(v[i])) yield [v[i] as Node, name, (next) => (v[i] = next)];
  }
  for (const k of MAP) {
    const v = node[k];
    if (isNode(v)) for (const [p, s] of Object.entries(v)) if (isNode(s)) yield [s, p, (next) => (v[p] = next)];
  }
}

const SAFE = Number.MAX_SAFE_INTEGER;
const COMPOSED = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'if'];

/** `{anyOf: [X, {type: 'null'}]}` as X with null allowed, when X is one plain typed schema. */
function mergeNullable(node: Node): void {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2 || Object.keys(node).length !== 1) return;
  const nullAt = branches.findIndex((b) => isNode(b) && b.type === 'null' && Object.keys(b).length === 1);
  const other = branches[1 - nullAt];
  if (nullAt < 0 || !isNode(other) || COMPOSED.some((k) => k in other)) return;
  const values = 'const' in other ? [other.const] : Array.isArray(other.enum) ? other.enum : undefined;
  if (!values && typeof other.type !== 'string') return;
  delete node.anyOf;
  Object.assign(node, other);
  if (values) {
    // The values say the type: null is one more of them.
    delete node.const;
    delete node.type;
    node.enum = [...values, null];
  } else {
    node.type = [other.type, 'null'];
  }
}

/** `anyOf: [{anyOf: [A, B]}, C]` as `anyOf: [A, B, C]`. */
function flattenAnyOf(node: Node): void {
  if (!Array.isArray(node.anyOf)) return;
  node.anyOf = node.anyOf.flatMap((b) => (isNode(b) && Array.isArray(b.anyOf) && Object.keys(b).length === 1 ? b.anyOf : [b]));
}

/** The same constraints in fewer bytes; the output side (`output: true`) in fewer still. */
export function compactSchema(schema: Node, { output }: { output: boolean }): Node {
  const visit = (node: Node) => {
    for (const [child] of children(node, '')) visit(child);
    flattenAnyOf(node);
    if (node.minimum === -SAFE) delete node.minimum;
    if (node.maximum === SAFE) delete node.maximum;
    if (!output) return;
    delete node.description;
    mergeNullable(node);
    if ('enum' in node || 'const' in node) delete node.type;
    if (isNode(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0) delete node.additionalProperties;
  };
  visit(schema);
  return schema;
}

/** Sub-schemas shorter than this (in JSON) stay where they are: a `$ref` would save little. */
const MIN_SHARED = 64;

/**
 * Each sub-schema written more than once, written once under `$defs` and referred to where it
 * was; the biggest saving first, until no repeat is worth a name. The root is never moved.
 */
export function shareRepeats(schema: Node): Node {
  const defs: Record<string, Node> = {};
  for (;;) {
    const seen = new Map<string, { count: number; name: string }>();
    const count = (node: Node, name: string) => {
      for (const [child, childName] of children(node, name)) {
        const json = JSON.stringify(child);
        if (json.length >= MIN_SHARED && !('$ref' in child)) {
          const entry = seen.get(json);
          if (entry) entry.count++;
          else seen.set(json, { count: 1, name: childName });
        }
        count(child, childName);
      }
    };
    count(schema, 'value');
    for (const [name, def] of Object.entries(defs)) count(def, name);
    let best: { json: string; name: string; saved: number } | undefined;
    for (const [json, { count: n, name }] of seen) {
      // n copies become n refs (about 30 bytes each) and one definition.
      const saved = (n - 1) * json.length - n * (name.length + 20) - name.length;
      if (n > 1 && saved > 0 && (!best || saved > best.saved)) best = { json, name, saved };
    }
    if (!best) break;
    const { json: shared } = best;
    const base = best.name.replace(/[^\w]/g, '_') || 'shared';
    let name = base;
    for (let i = 2; name in defs; i++) name = `${base}_${i}`;
    const ref = { $ref: `#/$defs/${name}` };
    const replace = (node: Node) => {
      for (const [child, , set] of children(node, '')) {
        if (JSON.stringify(child) === shared) set({ ...ref });
        else replace(child);
      }
    };
    replace(schema);
    for (const def of Object.values(defs)) replace(def);
    defs[name] = JSON.parse(shared) as Node;
  }
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return schema;
}
