// The MCP tool catalog. Each tool is the MCP face of one HTTP route: its arguments are that
// route's own zod shapes (path parameters, query and body merged into one object), so bounds,
// clamped limits, aliases and defaults are the HTTP API's; its scope and activity action are the
// route's; and it calls the same core function as the route's handler.
import { z } from 'zod';
import type { Principal } from '../core/accounts/accounts.ts';
import type { Scope } from '../core/accounts/scopes.ts';
import type { ActionContext } from '../core/billing/actions.ts';
import type { Core } from '../core/index.ts';
import { serializePage } from '../core/pages/serialize.ts';
import { ACTIVITY_KINDS } from '../core/reports/activity.ts';
import { getTestWithRuns, reportsByUrl } from '../core/reports/reports.ts';
import { listTests, TEST_TYPES } from '../core/tracking/tests.ts';
import { getUsage } from '../core/reports/usage.ts';
import { CI_STATUSES } from '../core/content/runs.ts';
import { getVisibilityRun, listVisibilityRuns, RUN_STATUSES } from '../core/visibility/read.ts';
import { cancelVisibilityRun, createVisibilityRun } from '../core/visibility/runs.ts';
import { filterValue, type RouteSpec } from '../http/schemas.ts';
import listActivityRoute from '../http/routes/activity/list-activity.ts';
import createCiRunRoute from '../http/routes/content/create-run.ts';
import discoverTrendsRoute from '../http/routes/content/discover-trends.ts';
import getCiRunRoute from '../http/routes/content/get-run.ts';
import listCiRunsRoute from '../http/routes/content/list-runs.ts';
import scoreContentRoute from '../http/routes/content/score-content.ts';
import serializeRoute from '../http/routes/pages/serialize.ts';
import reportsByUrlRoute from '../http/routes/reports/by-url.ts';
import getTestRoute from '../http/routes/tests/get-test.ts';
import listTestsRoute from '../http/routes/tests/list-tests.ts';
import getUsageRoute from '../http/routes/usage/get-usage.ts';
import createTestRoute from '../http/routes/tests/create-test.ts';
import updateTestRoute from '../http/routes/tests/update-test.ts';
import deleteTestRoute from '../http/routes/tests/delete-test.ts';
import runTestRoute from '../http/routes/tests/run-test.ts';
import testHistoryRoute from '../http/routes/tests/test-history.ts';
import exportRunRoute from '../http/routes/visibility/export-run.ts';
import { parseDefinition } from '../http/routes/tests/shapes.ts';
import { createTrackedTest, deleteTrackedTest, runTrackedTestNow, updateTrackedTest } from '../core/tracking/tracked-tests.ts';
import { findTest, type TestType } from '../core/tracking/tests.ts';
import { HISTORY_WINDOWS, testHistory } from '../core/tracking/history.ts';
import { assertRunVisible, exportRunRows } from '../core/visibility/export.ts';
import cancelRunRoute from '../http/routes/visibility/cancel-run.ts';
import createRunRoute from '../http/routes/visibility/create-run.ts';
import getRunRoute from '../http/routes/visibility/get-run.ts';
import listModelsRoute from '../http/routes/visibility/list-models.ts';
import listRunsRoute from '../http/routes/visibility/list-runs.ts';
import suggestPromptsRoute from '../http/routes/visibility/suggest-prompts.ts';

type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;
/** The parsed output of one part of a route's input; `unknown` (no keys) for a part it lacks. */
type Bare<T> = T extends z.ZodOptional<infer O> ? Bare<O> : T extends z.ZodNullable<infer O> ? Bare<O> : T;
type Out<T> = Bare<T> extends z.ZodObject ? z.output<Bare<T>> : unknown;
type ArgsOf<R> = R extends RouteSpec<infer Q, infer B, infer P> ? Out<P> & Out<Q> & Out<B> : never;

export interface McpTool {
  name: string;
  description: string;
  /** The HTTP route this tool mirrors (method and URL, for the catalog test and the docs). */
  route: { method: string; url: string };
  scope: Scope | null;
  /** The route's listedFor: a token with none of these scopes is not shown the tool. */
  listedFor?: Scope[];
  /** Activity-log action, the route's. */
  action: string;
  /** The arguments: the route's path, query and body shapes in one object. */
  input: z.ZodObject;
  run: (args: unknown, ctx: ActionContext, core: Core, principal: Principal) => Promise<unknown>;
}

function argumentsOf(route: AnyRoute): z.ZodObject {
  const shape: z.ZodRawShape = {};
  for (const raw of [route.params, route.querystring, route.body]) {
    // An optional body (POST /v1/tests/{id}/runs) contributes its fields, each optional already.
    let part = raw;
    while (part instanceof z.ZodOptional || part instanceof z.ZodNullable) part = part.unwrap() as z.ZodType;
    if (part instanceof z.ZodObject) Object.assign(shape, part.shape);
  }
  return z.object(shape);
}

function tool<R extends AnyRoute>(
  name: string,
  route: R,
  description: string,
  run: (args: ArgsOf<R>, ctx: ActionContext, core: Core, principal: Principal) => unknown,
): McpTool {
  return {
    name,
    description,
    route: { method: route.method, url: route.url },
    scope: route.scope,
    ...(route.listedFor ? { listedFor: route.listedFor } : {}),
    action: route.action,
    input: argumentsOf(route),
    run: async (args, ctx, core, principal) => run(args as ArgsOf<R>, ctx, core, principal),
  };
}

/** Rows an MCP export answers at most: one tool result holds them all, unlike the streamed HTTP export. */
const MCP_EXPORT_ROWS = 1000;

export const MCP_TOOLS: McpTool[] = [
  tool('get_usage', getUsageRoute, 'Credit balance (available, reserved, used) and the recent credit ledger (recent_limit 1..100, default 20; out of range is clamped).', (a, ctx, core) =>
    getUsage(core.store, ctx.accountId, a.recent_limit),
  ),
  tool('list_activity', listActivityRoute, 'Recent requests of this account over every surface (API, MCP, console), newest first (limit 1..100, default 20, clamped); kind filters by action family.', async (a, ctx, core) => ({
    items: await core.activity.list(ctx.accountId, a.limit, filterValue('kind', a.kind, ACTIVITY_KINDS) ?? 'all'),
  })),
  tool('list_visibility_models', listModelsRoute, 'Selectable AI models per platform with their price in credits per probe; price runs from this.', (_a, _ctx, core) =>
    core.modelListing(),
  ),
  tool(
    'create_visibility_run',
    createRunRoute,
    'Queue an AI Visibility run: does each AI platform mention target_entity when asked the prompts? Give prompts+platforms (matrix) or probes (explicit). Reserves credits; poll get_visibility_run until a terminal status.',
    (a, ctx, core) => createVisibilityRun(core.visibility, ctx, a),
  ),
  tool(
    'get_visibility_run',
    getRunRoute,
    'Status, probe counts, billing and summary (mention rate, band, competitors, cited domains, sentiment, prominence, discovered entities) of a visibility run; with include_probes each probe carries its brands (position, list rank, prominence, sentiment, recommended) and judge.',
    (a, ctx, core) =>
      getVisibilityRun(core.store, ctx.accountId, a.run_id, { includeProbes: a.include_probes, includeResults: a.include_results, includeRaw: a.include_raw }),
  ),
  tool('list_visibility_runs', listRunsRoute, 'Visibility runs, newest first (limit 1..100, default 20, clamped); pass next_starting_after as starting_after for the next page.', (a, ctx, core) =>
    listVisibilityRuns(core.store, ctx.accountId, { limit: a.limit, startingAfter: a.starting_after, status: filterValue('status', a.status, RUN_STATUSES) }),
  ),
  tool('cancel_visibility_run', cancelRunRoute, 'Cancel the queued probes of a run and release their credits; running probes finish.', async (a, ctx, core) => {
    await cancelVisibilityRun(core.store, ctx.accountId, a.run_id);
    return getVisibilityRun(core.store, ctx.accountId, a.run_id);
  }),
  tool('list_tests', listTestsRoute, 'Saved tests (a URL with its visibility or content runs), most recently run first (limit 1..50, default 50, clamped).', async (a, ctx, core) => ({
    tests: await listTests(core.store, ctx.accountId, { limit: a.limit, testType: filterValue('test_type', a.test_type, TEST_TYPES) }),
  })),
  tool('get_test', getTestRoute, 'One saved test with its runs (compact, newest first).', (a, ctx, core) => getTestWithRuns(core.store, ctx.accountId, a.test_id)),
  tool(
    'create_tracked_test',
    createTestRoute,
    'Track a URL over time: a saved test with a run definition (the create body of create_visibility_run or create_content_intelligence_run, without idempotency_key), an optional schedule {cron, timezone} and monthly_credit_budget. Scheduled runs cost what the definition costs, each slot; slots over the budget or the balance are skipped, never half-run.',
    (a, _ctx, core, principal) => createTrackedTest(core.tracking, principal, { ...a, definition: parseDefinition(a.test_type, a.definition) }),
  ),
  tool(
    'update_tracked_test',
    updateTestRoute,
    'Change a tracked test: name, definition, schedule (null removes it), paused (true pauses at once), monthly_credit_budget.',
    async (a, _ctx, core, principal) => {
      const { test_id, ...patch } = a;
      if (patch.definition !== undefined) {
        const test = await findTest(core.store.db, principal.accountId, test_id);
        patch.definition = parseDefinition(test.test_type as TestType, patch.definition);
      }
      return updateTrackedTest(core.tracking, principal, test_id, patch);
    },
  ),
  tool('delete_tracked_test', deleteTestRoute, 'Delete a saved test and its schedule; its runs stay readable by id.', (a, _ctx, core, principal) =>
    deleteTrackedTest(core.tracking, principal, a.test_id),
  ),
  tool(
    'run_tracked_test',
    runTestRoute,
    "Run a tracked test's definition now (reserves credits like the run kind's create); poll the returned run_id.",
    (a, ctx, core, principal) => runTrackedTestNow(core.tracking, principal, ctx, a.test_id, a.idempotency_key),
  ),
  tool(
    'get_test_history',
    testHistoryRoute,
    'A tracked test over time: per run or pooled (window 7d/30d) mention rate with its 95% Wilson interval, citation rate, share of voice, per platform and competitor, skipped slots, and whether the latest change is significant (days 1..730, default 90).',
    (a, ctx, core) =>
      testHistory(core.store, ctx.accountId, a.test_id, { days: a.days, window: filterValue('window', a.window, HISTORY_WINDOWS) ?? 'run' }),
  ),
  tool(
    'export_visibility_run',
    exportRunRoute,
    `Every probe of a run as rows (prompt, platform, model, repeat, status, mentions, competitors, citations, answer, brand analysis), at most ${MCP_EXPORT_ROWS} rows (truncated: true beyond; the HTTP export streams any size as CSV or JSON Lines).`,
    async (a, ctx, core) => {
      await assertRunVisible(core.store, ctx.accountId, a.run_id);
      const rows = [];
      let truncated = false;
      for await (const r of exportRunRows(core.store, ctx.accountId, a.run_id)) {
        if (rows.length === MCP_EXPORT_ROWS) {
          truncated = true;
          break;
        }
        rows.push(r);
      }
      return { run_id: a.run_id, rows, truncated, export_path: `/v1/visibility/runs/${a.run_id}/export?format=${a.format ?? 'csv'}` };
    },
  ),
  tool('get_reports_by_url', reportsByUrlRoute, 'Saved reports for a URL: the tests that match it and their recent runs (limit 1..20 runs per test, default 5; days 1..3650, default 90; clamped).', (a, ctx, core) =>
    reportsByUrl(core.store, ctx.accountId, { url: a.url, testType: filterValue('test_type', a.test_type, TEST_TYPES), days: a.days, limit: a.limit }),
  ),
  tool(
    'serialize_page',
    serializeRoute,
    'Fetch a public web page and return its main content as normalized Markdown-like text, in slices (offset/max_chars). 1 credit.',
    (a, ctx, core) => serializePage({ store: core.store, pages: core.pages }, ctx, a),
  ),
  tool(
    'suggest_prompts',
    suggestPromptsRoute,
    'Prompt ideas worth tracking for a URL and brand (brand_name, alias target_entity): what people ask assistants, across intents and funnel stages. 1 credit.',
    (a, ctx, core) => core.content.suggestPrompts(ctx, a),
  ),
  tool(
    'discover_trends',
    discoverTrendsRoute,
    "Ranked content trends for a page's field, each with the gap on this page, the action to take and the questions people ask. 1 credit.",
    (a, ctx, core) => core.content.discoverTrends(ctx, a),
  ),
  tool(
    'score_content',
    scoreContentRoute,
    'Score a page (overall, depth, freshness, trend coverage) with ranked, concrete recommendations. trends takes names or the trend objects discover_trends returns. 2 credits with trends supplied, 3 without.',
    (a, ctx, core) => core.content.scoreContent(ctx, a),
  ),
  tool(
    'create_content_intelligence_run',
    createCiRunRoute,
    'Queue a persisted Content Intelligence run (analysis_depth score: 3 credits; full adds trends, prompt ideas and an AI-readiness audit: 6 credits). Poll get_content_intelligence_run.',
    (a, ctx, core) => core.content.createRun(ctx, a),
  ),
  tool('list_content_intelligence_runs', listCiRunsRoute, 'Content Intelligence runs, newest first (limit 1..100, default 20, clamped); pass next_starting_after as starting_after for the next page.', (a, ctx, core) =>
    core.content.listRuns(ctx.accountId, { limit: a.limit, startingAfter: a.starting_after, status: filterValue('status', a.status, CI_STATUSES) }),
  ),
  tool('get_content_intelligence_run', getCiRunRoute, 'Status of a Content Intelligence run; include_result for the full analysis.', (a, ctx, core) =>
    core.content.getRun(ctx.accountId, a.run_id, { includeResult: a.include_result }),
  ),
];

export const TOOLS_BY_NAME = new Map(MCP_TOOLS.map((t) => [t.name, t]));

const jsonSchemas = new Map<string, Record<string, unknown>>();
/** The tool's arguments as JSON Schema (the input side: what a client sends), computed once. */
export function inputJsonSchema(t: McpTool): Record<string, unknown> {
  let schema = jsonSchemas.get(t.name);
  if (!schema) {
    schema = z.toJSONSchema(t.input, { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
    delete schema.$schema;
    jsonSchemas.set(t.name, schema);
  }
  return schema;
}
