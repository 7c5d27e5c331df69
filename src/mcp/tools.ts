// The MCP tool catalog, derived from the one catalog of operations (src/operations/index.ts):
// every operation that declares a `tool` is offered to agents with the route's own zod shapes as
// arguments (path parameters, query and body merged into one object: bounds, clamped limits,
// aliases and defaults are the HTTP API's), the route's scope and activity action, its 200
// response as output schema, and the same `run` (the one core call) the HTTP route makes.
import { z } from 'zod';
import type { Principal } from '../core/accounts/accounts.ts';
import type { Scope } from '../core/accounts/scopes.ts';
import type { ActionContext } from '../core/billing/actions.ts';
import type { Core } from '../core/index.ts';
import { OPERATIONS } from '../operations/index.ts';
import type { RouteSpec } from '../operations/define.ts';
import { closeObjectSchemas } from '../web/unknown-fields.ts';
import { compactSchema, shareRepeats } from './compact-schema.ts';

type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

export interface McpTool {
  name: string;
  description: string;
  /** The HTTP route of the same operation (method and URL, for the catalog test and the docs). */
  route: { method: string; url: string };
  scope: Scope | null;
  /** The route's listedFor: a token with none of these scopes is not shown the tool. */
  listedFor?: Scope[];
  /** Activity-log action, the route's. */
  action: string;
  /** Human-facing name shown by MCP clients. */
  title: string;
  /** MCP tool annotations (hints an agent plans with: does it change anything, cost, reach out). */
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  /** The arguments: the route's path, query and body shapes in one object. */
  input: z.ZodObject;
  /** The route's own body limit in bytes, where it takes more than the server's 1 MiB (a draft's HTML). */
  bodyLimit?: number;
  /** What the tool answers (the route's 200 response, unless the tool answers another shape). */
  output: z.ZodType;
  run: (args: unknown, ctx: ActionContext, core: Core, principal: Principal) => Promise<unknown>;
}

function argumentsOf(route: AnyRoute): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const raw of [route.params, route.querystring, route.body]) {
    // An optional body (POST /v1/tests/{id}/runs) contributes its fields, each optional already.
    let part = raw;
    while (part instanceof z.ZodOptional || part instanceof z.ZodNullable) part = part.unwrap() as z.ZodType;
    if (part instanceof z.ZodObject) Object.assign(shape, part.shape);
  }
  if (route.tool?.extraInput) Object.assign(shape, route.tool.extraInput);
  for (const name of route.tool?.omitInput ?? []) delete shape[name];
  return z.object(shape);
}

function toolOf(route: AnyRoute): McpTool {
  const t = route.tool!;
  const read = route.method === 'GET' || !!t.readOnly;
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    annotations: {
      readOnlyHint: read,
      destructiveHint: !read && !!t.destructive,
      idempotentHint: read || !!t.idempotent,
      openWorldHint: !!t.openWorld,
    },
    route: { method: route.method, url: route.url },
    scope: route.scope,
    ...(route.listedFor ? { listedFor: route.listedFor } : {}),
    action: route.action,
    input: argumentsOf(route),
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    output: t.output ?? route.response,
    run: async (args, ctx, core, principal) => route.run(args as never, ctx, core, principal),
  };
}

export const MCP_TOOLS: McpTool[] = (OPERATIONS as AnyRoute[]).filter((r) => r.tool).map(toolOf);

export const TOOLS_BY_NAME = new Map(MCP_TOOLS.map((t) => [t.name, t]));

/** `additionalProperties: false` dropped everywhere: answers may gain fields (additive). */
function openObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(openObjects);
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o.additionalProperties === false) delete o.additionalProperties;
  Object.values(o).forEach(openObjects);
}

/**
 * The tool's answer as zod writes it in JSON Schema, field descriptions and all, with objects
 * open: the long form of what tools/list publishes (outputJsonSchema), for tests to compare.
 */
export function verboseOutputJsonSchema(t: McpTool): Record<string, unknown> {
  const schema = z.toJSONSchema(t.output, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  openObjects(schema);
  return schema;
}

const outputSchemas = new Map<string, Record<string, unknown>>();
/**
 * The tool's answer as JSON Schema (the structuredContent an agent receives), computed once:
 * the same values as the long form, in about half the bytes (src/mcp/compact-schema.ts).
 */
export function outputJsonSchema(t: McpTool): Record<string, unknown> {
  let schema = outputSchemas.get(t.name);
  if (!schema) {
    schema = shareRepeats(compactSchema(verboseOutputJsonSchema(t), { output: true }));
    outputSchemas.set(t.name, schema);
  }
  return schema;
}

const jsonSchemas = new Map<string, Record<string, unknown>>();
/** The tool's arguments as JSON Schema (the input side: what a client sends), computed once. */
export function inputJsonSchema(t: McpTool): Record<string, unknown> {
  let schema = jsonSchemas.get(t.name);
  if (!schema) {
    schema = z.toJSONSchema(t.input, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
    delete schema.$schema;
    // Closed where the server refuses unknown arguments, so an agent never plans with one.
    closeObjectSchemas(schema);
    compactSchema(schema, { output: false });
    jsonSchemas.set(t.name, schema);
  }
  return schema;
}
