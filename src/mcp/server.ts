// The MCP surface: AI agents call sightline as tools over MCP's Streamable HTTP transport at
// POST /mcp, authenticated with `svc_mcp_live_` tokens (API keys are for the HTTP API). Every
// tool is a thin translation to the same core call the HTTP route makes, with the access
// source `mcp` (so idempotency keys are scoped to this surface) and the token's scopes.
// The server is stateless: one McpServer per request, no sessions to keep or share.
import type { FastifyInstance } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { authenticate, requireScope, type Principal } from '../core/accounts/accounts.ts';
import type { Scope } from '../core/accounts/scopes.ts';
import type { ActionContext } from '../core/billing/actions.ts';
import { AppError } from '../core/errors.ts';
import { newId, nowIso } from '../core/ids.ts';
import type { Core } from '../core/index.ts';
import { serializePage } from '../core/pages/serialize.ts';
import { getUsage } from '../core/reports/usage.ts';
import { getVisibilityRun, listVisibilityRuns, RUN_STATUSES } from '../core/visibility/read.ts';
import { cancelVisibilityRun, createVisibilityRun } from '../core/visibility/runs.ts';
import { PLATFORMS } from '../platforms/types.ts';
import { bearerToken } from '../http/plugins/auth.ts';

interface ToolDef {
  name: string;
  description: string;
  scope: Scope;
  action: string;
  input: z.ZodRawShape;
  run: (args: any, ctx: ActionContext, core: Core) => Promise<unknown>;
}

const probeSchema = z.object({
  prompt: z.string().min(1).max(500),
  platform: z.enum(PLATFORMS),
  model: z.string().optional(),
  language: z.string().optional(),
  country: z.string().optional(),
  target_entity: z.string().optional(),
});

export const MCP_TOOLS: ToolDef[] = [
  {
    name: 'get_usage',
    description: 'Credit balance (available, reserved, used) and the recent credit ledger.',
    scope: 'runs:read',
    action: 'usage.read',
    input: { recent_limit: z.number().int().min(1).max(100).optional() },
    run: async (a, ctx, core) => getUsage(core.store, ctx.accountId, a.recent_limit ?? 20),
  },
  {
    name: 'list_visibility_models',
    description: 'Selectable AI models per platform with their price in credits per probe; price runs from this.',
    scope: 'runs:read',
    action: 'visibility.models.list',
    input: {},
    run: async (_a, _ctx, core) => core.modelListing(),
  },
  {
    name: 'create_visibility_run',
    description:
      'Queue an AI Visibility run: does each AI platform mention target_entity when asked the prompts? Give prompts+platforms (matrix) or probes (explicit). Reserves credits; poll get_visibility_run until a terminal status.',
    scope: 'visibility:runs:create',
    action: 'visibility.runs.create',
    input: {
      url: z.string().describe('The page or site being evaluated'),
      target_entity: z.string().describe('Brand or product to detect'),
      prompts: z.array(z.string().min(1).max(500)).optional(),
      platforms: z.array(z.enum(PLATFORMS)).optional(),
      probes: z.array(probeSchema).optional(),
      models: z.record(z.string(), z.string()).optional(),
      competitors: z.array(z.string()).max(10).optional(),
      language: z.string().optional(),
      country: z.string().optional(),
      idempotency_key: z.string().max(160).optional(),
    },
    run: (a, ctx, core) => createVisibilityRun(core.visibility, ctx, a),
  },
  {
    name: 'get_visibility_run',
    description: 'Status, probe counts, billing and summary (mention rate, band, competitors, cited domains) of a visibility run.',
    scope: 'runs:read',
    action: 'visibility.runs.read',
    input: { run_id: z.string(), include_probes: z.boolean().optional(), include_results: z.boolean().optional() },
    run: (a, ctx, core) =>
      getVisibilityRun(core.store, ctx.accountId, a.run_id, { includeProbes: a.include_probes, includeResults: a.include_results }),
  },
  {
    name: 'list_visibility_runs',
    description: 'Visibility runs, newest first; pass next_starting_after as starting_after for the next page.',
    scope: 'runs:read',
    action: 'visibility.runs.list',
    input: { limit: z.number().int().min(1).max(100).optional(), starting_after: z.string().optional(), status: z.enum(RUN_STATUSES).optional() },
    run: (a, ctx, core) => listVisibilityRuns(core.store, ctx.accountId, { limit: a.limit ?? 20, startingAfter: a.starting_after, status: a.status }),
  },
  {
    name: 'cancel_visibility_run',
    description: 'Cancel the queued probes of a run and release their credits; running probes finish.',
    scope: 'visibility:runs:create',
    action: 'visibility.runs.cancel',
    input: { run_id: z.string() },
    run: async (a, ctx, core) => {
      await cancelVisibilityRun(core.store, ctx.accountId, a.run_id);
      return getVisibilityRun(core.store, ctx.accountId, a.run_id);
    },
  },
  {
    name: 'serialize_page',
    description: 'Fetch a public web page and return its main content as normalized Markdown-like text, in slices (offset/max_chars). 1 credit.',
    scope: 'pages:content:serialize',
    action: 'pages.content.serialize',
    input: { url: z.string(), max_chars: z.number().int().min(1).max(25000).optional(), offset: z.number().int().min(0).optional() },
    run: (a, ctx, core) => serializePage({ store: core.store, pages: core.pages }, ctx, { url: a.url, max_chars: a.max_chars, offset: a.offset }),
  },
  {
    name: 'suggest_prompts',
    description: 'Prompt ideas worth tracking for a URL and brand: what people ask assistants, across intents and funnel stages. 1 credit.',
    scope: 'visibility:prompts:suggest',
    action: 'visibility.prompts.suggest',
    input: {
      url: z.string(),
      brand_name: z.string().optional(),
      language: z.string().optional(),
      country: z.string().optional(),
      competitors: z.array(z.string()).max(10).optional(),
      count: z.number().int().min(1).max(25).optional(),
    },
    run: (a, ctx, core) => core.content.suggestPrompts(ctx, a),
  },
  {
    name: 'discover_trends',
    description: "Ranked content trends for a page's field, each with the gap on this page, the action to take and the questions people ask. 1 credit.",
    scope: 'content_intelligence:trends:discover',
    action: 'content_intelligence.trends.discover',
    input: { url: z.string(), language: z.string().optional(), country: z.string().optional(), industry: z.string().optional(), max_trends: z.number().int().min(1).max(20).optional() },
    run: (a, ctx, core) => core.content.discoverTrends(ctx, a),
  },
  {
    name: 'score_content',
    description: 'Score a page (overall, depth, freshness, trend coverage) with ranked, concrete recommendations. 2 credits with trends supplied, 3 without.',
    scope: 'content_intelligence:content:score',
    action: 'content_intelligence.content.score',
    input: { url: z.string(), trends: z.array(z.string()).optional(), industry: z.string().optional(), language: z.string().optional(), country: z.string().optional() },
    run: (a, ctx, core) => core.content.scoreContent(ctx, a),
  },
  {
    name: 'create_content_intelligence_run',
    description: 'Queue a persisted Content Intelligence run (analysis_depth score: 3 credits; full adds trends, prompt ideas and an AI-readiness audit: 6 credits). Poll get_content_intelligence_run.',
    scope: 'content_intelligence:runs:create',
    action: 'content_intelligence.runs.create',
    input: {
      url: z.string(),
      analysis_depth: z.enum(['score', 'full']).optional(),
      language: z.string().optional(),
      country: z.string().optional(),
      trends: z.array(z.string()).optional(),
      idempotency_key: z.string().max(160).optional(),
    },
    run: (a, ctx, core) => core.content.createRun(ctx, a),
  },
  {
    name: 'get_content_intelligence_run',
    description: 'Status of a Content Intelligence run; include_result for the full analysis.',
    scope: 'runs:read',
    action: 'content_intelligence.runs.read',
    input: { run_id: z.string(), include_result: z.boolean().optional() },
    run: (a, ctx, core) => core.content.getRun(ctx.accountId, a.run_id, { includeResult: a.include_result }),
  },
];

function buildServer(core: Core, principal: Principal, record: (action: string, ok: boolean, credits: number) => void): McpServer {
  const server = new McpServer({ name: 'sightline', version: '1.0.0' });
  for (const tool of MCP_TOOLS) {
    if (!principal.scopes.has(tool.scope)) continue; // a token only sees the tools it may call
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, async (args: unknown) => {
      const ctx: ActionContext = { accountId: principal.accountId, source: 'mcp', requestId: newId('req'), credits: 0 };
      try {
        requireScope(principal, tool.scope);
        const result = await tool.run(args, ctx, core);
        record(tool.action, true, ctx.credits);
        return { content: [{ type: 'text' as const, text: JSON.stringify(result) }] };
      } catch (err) {
        record(tool.action, false, ctx.credits);
        const body =
          err instanceof AppError
            ? { error: err.code, message: err.message, ...err.extra }
            : { error: 'internal_error', message: 'Unexpected server error.', request_id: ctx.requestId };
        return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(body) }] };
      }
    });
  }
  return server;
}

export function registerMcpEndpoint(app: FastifyInstance, core: Core) {
  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const principal = await authenticate(core.store.db, bearerToken(request), 'mcp');
    const record = (action: string, ok: boolean, credits: number) =>
      core.activity.record({
        id: newId('act'),
        account_id: principal.accountId,
        key_id: principal.keyId,
        key_prefix: principal.keyPrefix,
        source: 'mcp',
        action,
        method: 'MCP',
        path: '/mcp',
        http_status: ok ? 200 : 400,
        status: ok ? 'ok' : 'error',
        credits,
        request_id: request.id,
        created_at: nowIso(),
      });
    const server = buildServer(core, principal, record);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  const notAllowed = async (_request: unknown, reply: { status: (n: number) => { send: (b: unknown) => unknown } }) =>
    reply.status(405).send({ detail: { error: 'method_not_allowed', message: 'This MCP server is stateless: use POST /mcp.' } });
  app.get('/mcp', { schema: { hide: true } }, notAllowed as never);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed as never);
}
