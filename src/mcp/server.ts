// The MCP surface: AI agents call sightline as tools over MCP's Streamable HTTP transport at
// POST /mcp, authenticated with `svc_mcp_live_` tokens (API keys are for the HTTP API). Every
// tool is a thin translation to the same core call the HTTP route makes (src/mcp/tools.ts), with
// the access source `mcp` (so idempotency keys are scoped to this surface) and the token's scopes.
// An MCP token is a key like any other: the per-key rate limit, last-used time, activity log
// and request id apply to every POST /mcp as they do to an HTTP API request; a JSON-RPC batch
// counts one request per message, holds at most MCP_MAX_BATCH, and runs its calls in turn.
// The server is stateless: one MCP server per request, no sessions to keep or share.
//
// The low-level SDK Server is used (not McpServer) so that this file validates tool arguments
// itself: a schema problem then comes back in the HTTP API's 422 shape and is recorded like
// any other failed call, instead of as the SDK's free-text error that no handler sees.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { authenticate, requireScope, touchKey, type Principal } from '../core/accounts/accounts.ts';
import type { ActionContext } from '../core/billing/actions.ts';
import { AppError, ERROR_CODES } from '../core/errors.ts';
import { toJson } from '../core/freeze.ts';
import type { Core } from '../core/index.ts';
import { bearerToken } from '../web/auth.ts';
import { isInvalidJsonBody } from '../web/errors.ts';
import { JSON_TOO_DEEP } from '../web/edge.ts';
import { applyRateLimit, type KeyRateLimiter } from '../web/rate-limit.ts';
import { jsonRpcMessages, McpActivity } from './activity.ts';
import { argumentsHoldNul, argumentsInvalid, argumentsUnknown, toolFailure, type ToolFailure } from './errors.ts';
import { findNulByte } from '../text/nul-bytes.ts';
import { PACKAGE_VERSION } from '../lib/version.ts';
import { extraFields } from '../web/unknown-fields.ts';
import { inputJsonSchema, MCP_TOOLS, outputJsonSchema, TOOLS_BY_NAME } from './tools.ts';

export { MCP_TOOLS } from './tools.ts';

/**
 * The MCP SDK, imported on the first POST /mcp rather than with the server: it and what it pulls
 * in (zod-to-json-schema, Ajv: some 70 modules) cost every process that builds the app about
 * 0.14 s of CPU at start (`serve`, each test file), though most never answer an MCP request.
 */
async function mcpSdk() {
  const [server, http, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Server: server.Server, Transport: http.StreamableHTTPServerTransport, CallTool: types.CallToolRequestSchema, ListTools: types.ListToolsRequestSchema };
}
let sdkLoaded: ReturnType<typeof mcpSdk> | undefined;
type McpSdk = Awaited<ReturnType<typeof mcpSdk>>;

/**
 * The largest POST /mcp body. A tool's arguments may hold 1 MiB of text (upload_site_logs'
 * `lines`, a run's 2,000 prompts of 500 characters), which JSON and UTF-8 write in up to 3 bytes
 * a character (a quote escaped, a non-Latin letter): 4 MiB carries any arguments the schemas
 * accept, where the API's 1 MiB refused log lines the tool's own schema allows. A tool whose route
 * reads more (score_content's draft HTML, up to the fetcher's 5 MiB) raises it to that route's
 * limit plus 1 MiB for the JSON-RPC envelope, so a draft the API takes is never refused here.
 */
export const MCP_BODY_LIMIT = Math.max(4 * 1024 * 1024, ...MCP_TOOLS.map((t) => (t.bodyLimit ? t.bodyLimit + 1024 * 1024 : 0)));

/** What an agent is told when it connects: how a study is run, and what costs credits. */
const ABOUT = 'sightline measures whether AI assistants (ChatGPT, Perplexity, Gemini, Grok, Claude, DeepSeek) mention and cite a brand, and what to change on a page so they do.';

/** How to run a study, for a token that may create visibility runs. */
const STUDY = [
  'To run a visibility study: (1) list_visibility_models for platforms, models and credits per probe; optionally suggest_prompts (1 credit) for prompts worth asking;',
  '(2) estimate_visibility_run with the exact arguments you will create with (free): it answers estimated_credits, available_credits, fundable_probe_count and would_be_status;',
  '(3) create_visibility_run with the same arguments and an idempotency_key (so a retry never pays twice): it reserves credits probe by probe;',
  '(4) poll get_visibility_run until status is completed, partially_completed, failed or cancelled (probes take seconds to minutes; cancel_visibility_run stops queued probes and releases their credits);',
  '(5) read the summary (mention_rate, visibility_band, share_of_voice, competitors, cited_domains) and, with include_probes, each probe; get_visibility_probe gives one probe\'s full answer and citations.',
  'Every tool that is not readOnlyHint states its cost in its description ("Free." or the credits it spends); readOnlyHint tools never spend credits. Use create_tracked_test to repeat a study on a schedule and get_test_history to follow it.',
].join(' ');

/**
 * What a token that may not create visibility runs can do instead, one sentence per group of
 * tools, each said only when the token sees every tool it names.
 */
const READING: ReadonlyArray<readonly [string[], string]> = [
  [['list_projects', 'get_project_dashboard'], 'list_projects, then get_project_dashboard for a brand\'s mention rates by window, platform, topic and competitor;'],
  [['list_tests', 'get_test_history'], 'list_tests, then get_test_history for a tracked test\'s points and the latest significant change;'],
  [['list_visibility_runs', 'get_visibility_run', 'get_visibility_probe'], 'list_visibility_runs, get_visibility_run and get_visibility_probe for single runs and their answers;'],
  [['list_sites', 'get_site_crawlers', 'get_site_referrals'], 'list_sites, then get_site_crawlers and get_site_referrals for AI crawlers and AI referrals from access logs;'],
];

const ERRORS = [
  'Errors come back as tool errors whose text is JSON {"error", "message", …}: insufficient_credits (402) carries required_credits and available_credits; validation_error lists each bad argument under detail.',
  `Two refusals come before any tool runs, as HTTP errors of the request itself with the same JSON under detail: 429 rate_limited past the token's requests per minute (wait Retry-After seconds, then send again; nothing ran) and 413 payload_too_large for a request over ${MCP_BODY_LIMIT / (1024 * 1024)} MiB.`,
].join(' ');

/**
 * The server's instructions for a token that sees these tools: how to run a study when it may
 * create runs; otherwise what it can read, naming only tools it sees (a read-only token was told
 * to call create_visibility_run, which it is not shown and may not call).
 */
export function instructionsFor(visible: ReadonlySet<string>): string {
  if (visible.has('create_visibility_run')) return [ABOUT, STUDY, ERRORS].join(' ');
  const reads = READING.filter(([tools]) => tools.every((t) => visible.has(t))).map(([, text]) => text);
  const limits = 'This token may not create visibility runs (that needs the visibility:runs:create scope); tools/list names only the tools it may call, and readOnlyHint tools never spend credits.';
  const guide = reads.length > 0 ? `To read results: ${reads.join(' ').replace(/;$/, '.')}` : '';
  return [ABOUT, limits, guide, ERRORS].filter(Boolean).join(' ');
}

/**
 * The most JSON-RPC messages one POST /mcp may carry. Protocol 2025-06-18 removed batching; the
 * SDK still accepts batches (up to 100) for clients of 2025-03-26, and so does this server, up to
 * this many, each counted against the rate limit and the tool calls run one after another.
 */
export const MCP_MAX_BATCH = 20;

const text = (value: unknown): CallToolResult['content'] => [{ type: 'text', text: toJson(value) }];

function buildServer(sdk: McpSdk, core: Core, principal: Principal, request: FastifyRequest, activity: McpActivity): Server {
  // A token only sees the tools it may call, and its instructions name only those.
  const visible = MCP_TOOLS.filter((t) => (t.scope ? principal.scopes.has(t.scope) : !t.listedFor || t.listedFor.some((s) => principal.scopes.has(s))));
  const instructions = instructionsFor(new Set(visible.map((t) => t.name)));
  const server = new sdk.Server({ name: 'sightline', version: PACKAGE_VERSION }, { capabilities: { tools: {} }, instructions });
  server.setRequestHandler(sdk.ListTools, () => ({
    tools: visible.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      annotations: { title: t.title, ...t.annotations },
      inputSchema: inputJsonSchema(t) as { type: 'object' },
      outputSchema: outputJsonSchema(t) as { type: 'object' },
    })),
  }));

  // The calls of a batch run one at a time, in order: a batch is one client's sequence of
  // calls, not a way to take many database connections at once.
  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(sdk.CallTool, (call, extra): Promise<CallToolResult> => {
    const run = queue.then(() => callTool(call, extra));
    queue = run.catch(() => {});
    return run;
  });

  const callTool = async (call: CallToolRequest, extra: { requestId: string | number }): Promise<CallToolResult> => {
    activity.toolCallStarted(extra.requestId);
    const tool = TOOLS_BY_NAME.get(call.params.name);
    const ctx: ActionContext = { accountId: principal.accountId, source: 'mcp', requestId: request.id, credits: 0 };
    let failure: ToolFailure;
    try {
      if (!tool) throw new AppError('not_found', `No tool named ${call.params.name}; tools/list names the tools this token may call.`);
      if (tool.scope) requireScope(principal, tool.scope);
      const nul = findNulByte(call.params.arguments ?? {});
      const extra = nul ? [] : extraFields(tool.input, call.params.arguments ?? {}, ['arguments']);
      const parsed = nul || extra.length ? undefined : await tool.input.safeParseAsync(call.params.arguments ?? {});
      if (nul) {
        failure = argumentsHoldNul(nul);
      } else if (extra.length) {
        failure = argumentsUnknown(extra);
      } else if (!parsed!.success) {
        failure = argumentsInvalid(parsed!.error);
      } else {
        const result = await tool.run(parsed!.data, ctx, core, principal);
        activity.record(tool.action, 200, ctx.credits);
        return { content: text(result), structuredContent: result as Record<string, unknown> };
      }
    } catch (err) {
      failure = toolFailure(err, request.id, request.log, call.params.name);
    }
    activity.record(tool?.action ?? 'mcp.tools_call', failure.status, ctx.credits);
    return { isError: true, content: text(failure.body) };
  };
  return server;
}

export function registerMcpEndpoint(app: FastifyInstance, core: Core, limiter: KeyRateLimiter) {
  app.post(
    '/mcp',
    {
      schema: { hide: true },
      bodyLimit: MCP_BODY_LIMIT,
      // The token is checked before the body is read, as on /v1: a refused request reads nothing.
      onRequest: async (request) => {
        request.principal = await authenticate(core.store.db, bearerToken(request), 'mcp');
      },
      // A body that is not JSON is JSON-RPC's parse error, as the transport itself answers one;
      // so is a body nested too deep to parse; every other error goes on to the API's handler.
      errorHandler: (error, _request, reply) => {
        if ((error as { code?: string }).code === JSON_TOO_DEEP) {
          return reply.status(400).send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${error.message}` } });
        }
        if (isInvalidJsonBody(error)) {
          return reply.status(400).send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
        }
        throw error;
      },
    },
    async (request, reply) => {
    const principal = request.principal!;
    const activity = new McpActivity(core, principal, request.id);
    const messages = jsonRpcMessages(request.body);
    reply.raw.once('close', () => activity.requestDone(messages, reply.raw.statusCode));
    // Every JSON-RPC message of a batch counts as one request against the token's rate limit,
    // all or none; a batch over MCP_MAX_BATCH is refused (for one point) before anything runs.
    const batch = Array.isArray(request.body) ? request.body.length : 0;
    const oversized = batch > MCP_MAX_BATCH;
    const points = oversized ? 1 : Math.max(1, batch);
    applyRateLimit(reply, await limiter.consume(principal.keyId, points), 'MCP token', points);
    touchKey(core.store.db, principal.keyId)?.catch(() => {});
    if (oversized) {
      return reply.status(400).send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: a batch holds at most ${MCP_MAX_BATCH} messages (this one has ${batch}); send the rest in further requests.` },
      });
    }

    const sdk = await (sdkLoaded ??= mcpSdk());
    const server = buildServer(sdk, core, principal, request, activity);
    const transport = new sdk.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the response itself: the headers set so far (x-request-id,
    // RateLimit-*) go onto the raw response first, or hijacking would drop them.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | number | string[]);
    }
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      request.log.error({ err }, 'MCP transport failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ detail: { error: 'internal_error', message: 'Unexpected server error.', request_id: request.id } }));
      }
    }
  },
  );
  const notAllowed = async (_request: unknown, reply: { header: (k: string, v: string) => unknown; status: (n: number) => { send: (b: unknown) => unknown } }) => {
    reply.header('allow', 'POST');
    return reply.status(405).send({ detail: { error: 'method_not_allowed', message: ERROR_CODES.method_not_allowed.message } });
  };
  app.get('/mcp', { schema: { hide: true } }, notAllowed as never);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed as never);
}
