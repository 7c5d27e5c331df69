// MCP tools an agent can plan with: titles, annotations, described parameters, output schemas
// that the SDK client validates every structuredContent against, the credit cost in every
// billable tool's description, server instructions, one probe's full answer, and the specific
// error for an API key sent to /mcp. Every tool is called once through the real SDK client.
// The published output schemas are the compact form (src/mcp/compact-schema.ts): on every answer
// of those calls, and on answers made wrong from them, they agree with the long form zod writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { TOOLS_BY_NAME, verboseOutputJsonSchema } from '../../src/mcp/tools.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from '../http/content-sites.ts';
import type { FixtureServer } from '../helpers/fixture-server.ts';

// Tools that spend credits: each description must say what it costs.
const BILLABLE = ['create_visibility_run', 'run_tracked_test', 'create_tracked_test', 'serialize_page', 'suggest_prompts', 'discover_trends', 'score_content', 'create_content_intelligence_run'];

describe('MCP tools for agents', () => {
  let site: FixtureServer;
  let s: TestServer;
  let base: string;
  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await s.close();
    await site.close();
  });

  const connect = (token: string) => connectMcp(base, token);
  // Each tool's answers in the study below, and the output schemas tools/list published.
  const answers = new Map<string, Record<string, unknown>[]>();
  const published = new Map<string, Record<string, unknown>>();

  test('every tool has a title, four annotations, described parameters and an object output schema; billable ones state their cost', async () => {
    const { accountId } = await s.account();
    const client = await connect(await s.key(accountId, { kind: 'mcp' }));
    const instructions = client.getInstructions() ?? '';
    for (const step of ['estimate_visibility_run', 'create_visibility_run', 'get_visibility_run', 'get_visibility_probe']) assert.ok(instructions.includes(step), step);
    assert.ok(instructions.indexOf('estimate_visibility_run') < instructions.indexOf('(3) create_visibility_run'));
    // Not every refusal is a tool error: the rate limit and the body limit answer the HTTP request.
    assert.match(instructions, /429 rate_limited .*Retry-After/);
    assert.match(instructions, /413 payload_too_large for a request over 12 MiB/);
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 25, String(tools.length));
    for (const t of tools) {
      assert.ok(t.title && t.title.length > 3, `${t.name} title`);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof t.annotations?.[hint], 'boolean', `${t.name} ${hint}`);
      }
      assert.equal(t.outputSchema?.type, 'object', `${t.name} outputSchema`);
      // Arguments in the JSON Schema subset model APIs take (Gemini refuses a list as type).
      assert.deepEqual(unportable(t.inputSchema), [], `${t.name} inputSchema`);
      for (const [name, prop] of Object.entries<any>(t.inputSchema.properties ?? {})) {
        assert.ok(typeof prop.description === 'string' && prop.description.length > 5, `${t.name}.${name} has no description`);
      }
      if (t.annotations!.readOnlyHint) assert.equal(t.annotations!.destructiveHint, false, t.name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of BILLABLE) assert.match(byName.get(name)!.description!, /credit/i, `${name} states its cost`);
    assert.equal(byName.get('estimate_visibility_run')!.annotations!.readOnlyHint, true);
    assert.equal(byName.get('create_visibility_run')!.annotations!.readOnlyHint, false);
    assert.equal(byName.get('create_visibility_run')!.annotations!.openWorldHint, true);
    assert.equal(byName.get('delete_tracked_test')!.annotations!.destructiveHint, true);
    assert.equal(byName.get('cancel_visibility_run')!.annotations!.idempotentHint, true);
    assert.equal(byName.get('get_usage')!.annotations!.openWorldHint, false);
    await client.close();
  });

  test('tools/list for a token of every scope stays within its byte budget (the whole list goes into an agent\'s context)', async () => {
    const { accountId } = await s.account();
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await s.key(accountId, { kind: 'mcp' })}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const body = await res.text();
    const tools: { outputSchema: unknown }[] = JSON.parse(body).result.tools;
    const outputs = tools.reduce((n, t) => n + JSON.stringify(t.outputSchema).length, 0);
    // 199 KB and 127 KB of output schemas before they were compacted (bench:mcp-size).
    assert.ok(Buffer.byteLength(body) <= 150 * 1024, `tools/list is ${Buffer.byteLength(body)} bytes`);
    assert.ok(outputs <= 80 * 1024, `output schemas are ${outputs} bytes`);
  });

  test('a token that may not create runs is told what it can read, naming only tools it is shown', async () => {
    const { accountId } = await s.account();
    for (const opts of [{ readOnly: true }, { scopes: ['tests:read'] }, { scopes: ['sites:read'] }]) {
      const client = await connect(await s.key(accountId, { kind: 'mcp', ...opts }));
      const instructions = client.getInstructions() ?? '';
      const shown = new Set((await client.listTools()).tools.map((t) => t.name));
      const named = [...instructions.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map((m) => m[0]).filter((w) => /^(list|get|create|estimate|cancel|export|suggest|run|plan|update|delete|upload|score|discover|serialize|import|revoke|retry)_/.test(w));
      assert.deepEqual(named.filter((t) => !shown.has(t)), [], `${JSON.stringify(opts)}: instructions name only tools the token sees`);
      assert.match(instructions, /may not create visibility runs \(that needs the visibility:runs:create scope\)/);
      assert.match(instructions, /429 rate_limited/);
      await client.close();
    }
    const ro = await connect(await s.key(accountId, { kind: 'mcp', readOnly: true }));
    assert.match(ro.getInstructions() ?? '', /get_project_dashboard.*get_test_history.*get_visibility_probe/);
    await ro.close();
    const sites = await connect(await s.key(accountId, { kind: 'mcp', scopes: ['sites:read'] }));
    assert.match(sites.getInstructions() ?? '', /To read results: list_sites, then get_site_crawlers and get_site_referrals/);
    await sites.close();
  });

  test('a study as the instructions describe it, and every tool once, each answer valid against its output schema', async () => {
    const { accountId, key } = await s.account({ credits: 200 });
    const client = await connect(await s.key(accountId, { kind: 'mcp' }));
    const called = new Set<string>();
    // The client keeps each tool's output validator from tools/list: list first.
    const { tools } = await client.listTools();
    for (const t of tools) published.set(t.name, t.outputSchema as Record<string, unknown>);
    // callTool validates structuredContent against the tool's outputSchema and throws when it
    // does not match, so each call below is also a schema check.
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const r: any = await client.callTool({ name, arguments: args });
      assert.ok(!r.isError, `${name}: ${r.content?.[0]?.text}`);
      assert.ok(r.structuredContent, `${name} has structuredContent`);
      assert.deepEqual(r.structuredContent, JSON.parse(r.content[0].text), name);
      called.add(name);
      // The first answer and the last one that differs (a poll's last state) are kept.
      const kept = answers.get(name) ?? [];
      if (!kept.some((a) => JSON.stringify(a) === JSON.stringify(r.structuredContent))) answers.set(name, [kept[0] ?? r.structuredContent, r.structuredContent].slice(kept.length ? 0 : 1));
      return r.structuredContent;
    };
    const study = {
      url: 'https://acme.example',
      target_entity: 'Acme',
      competitors: ['Globex'],
      prompts: ['best anvils [[sandbox:mention]]', 'anvil makers'],
      platforms: ['openai', 'claude'],
    };
    await call('list_visibility_models');
    const quote = await call('estimate_visibility_run', study);
    assert.equal(quote.would_be_status, 'queued');
    const created = await call('create_visibility_run', { ...study, idempotency_key: 'study-1' });
    assert.equal(created.reserved_credits, quote.would_reserve_credits);
    await s.waitForRun(key, created.run_id);
    const run = await call('get_visibility_run', { run_id: created.run_id, include_probes: true });
    assert.equal(run.status, 'completed');
    const probe = await call('get_visibility_probe', { run_id: created.run_id, probe_id: run.probes[0].probe_id });
    assert.equal(probe.probe_id, run.probes[0].probe_id);
    assert.equal(typeof probe.answer, 'string');
    assert.ok(probe.answer.length > 20);
    assert.ok(Array.isArray(probe.citations));
    const missing: any = await client.callTool({ name: 'get_visibility_probe', arguments: { run_id: created.run_id, probe_id: 'probe_nope' } });
    assert.equal(JSON.parse(missing.content[0].text).error, 'not_found');

    await call('list_visibility_runs');
    await call('export_visibility_run', { run_id: created.run_id });
    const queued = await call('create_visibility_run', { ...study, prompts: ['slow [[sandbox:delay=3000]]'] });
    const cancelled = await call('cancel_visibility_run', { run_id: queued.run_id });
    assert.equal(cancelled.run_id, queued.run_id);
    const tests = await call('list_tests');
    await call('get_test', { test_id: tests.tests[0].id });
    await call('get_reports_by_url', { url: 'https://acme.example' });
    const trackedBody = {
      test_type: 'ai_citations',
      definition: { url: 'https://tracked.example', target_entity: 'Acme', prompts: ['anvils'], platforms: ['openai'] },
    };
    const testQuote = await call('estimate_test', { ...trackedBody, schedule: { cron: '0 6 * * 1', timezone: 'UTC' } });
    assert.equal(testQuote.probes_per_run, 1);
    assert.ok(testQuote.runs_per_month.busiest >= 4, 'a weekly schedule runs at least four times a month');
    const tracked = await call('create_tracked_test', trackedBody);
    await call('update_tracked_test', { test_id: tracked.id, name: 'Anvils weekly' });
    const now = await call('run_tracked_test', { test_id: tracked.id });
    await s.waitForRun(key, now.run_id);
    await call('get_test_history', { test_id: tracked.id });
    await call('plan_test_sample', { test_id: tracked.id, half_width: 0.1 });
    await call('delete_tracked_test', { test_id: tracked.id });
    const projectQuote = await call('estimate_project', { url: 'https://project.example', brand: { name: 'Acme' }, platforms: ['openai'], prompts: [{ prompt: 'anvils', topics: ['tools'] }] });
    assert.equal(projectQuote.probes_per_run, 1);
    const project = await call('create_project', { url: 'https://project.example', brand: { name: 'Acme' }, platforms: ['openai'], prompts: [{ prompt: 'anvils', topics: ['tools'] }] });
    await call('list_projects');
    await call('update_project', { project_id: project.id, repeats: 2 });
    await call('import_project_prompts', { project_id: project.id, text: 'hammers\nnails' });
    const withPrompts = await call('get_project', { project_id: project.id });
    await call('delete_project_prompt', { project_id: project.id, prompt_id: withPrompts.prompts[2].id });
    const projectRuns = await call('run_project', { project_id: project.id });
    await s.waitForRun(key, projectRuns.runs[0].run_id);
    await call('get_project_dashboard', { project_id: project.id });
    await call('plan_project_sample', { project_id: project.id, change: 0.15 });
    const share = await call('create_project_share', { project_id: project.id, expires_in_days: 7 });
    assert.match(share.url, /\/share\/[\w-]{43}$/);
    const shares = await call('list_project_shares', { project_id: project.id });
    assert.equal(shares.shares.length, 1);
    await call('revoke_project_share', { project_id: project.id, share_id: share.id });
    await call('delete_project', { project_id: project.id });

    const page = site.url('/blog/project-management-guide');
    await call('serialize_page', { url: page, max_chars: 500 });
    await call('suggest_prompts', { url: page, count: 3 });
    const trends = await call('discover_trends', { url: page, max_trends: 3 });
    await call('score_content', { url: page, trends: trends.trends.map((t: any) => t.name) });
    const ci = await call('create_content_intelligence_run', { url: page });
    for (let i = 0; i < 100; i++) {
      const r = await call('get_content_intelligence_run', { run_id: ci.run_id, include_result: true });
      if (!['queued', 'running'].includes(r.status)) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await call('list_content_intelligence_runs');
    await call('get_usage');
    await call('list_activity');
    // Webhooks: an endpoint on the fixture site (allowed), a delivery from a run, its retry.
    const hook = await call('create_webhook', { url: site.url('/hook'), events: ['run.completed'] });
    assert.match(hook.secret, /^whsec_/);
    await call('list_webhooks');
    await call('get_webhook', { webhook_id: hook.id });
    await call('update_webhook', { webhook_id: hook.id, description: 'study' });
    await call('update_notification_settings', { credits_low_threshold: '5.00' });
    await call('get_notification_settings');
    const hooked = await call('create_visibility_run', { ...study, prompts: ['anvils'], platforms: ['openai'] });
    await s.waitForRun(key, hooked.run_id);
    let delivered: any[] = [];
    for (let i = 0; i < 200 && delivered.length === 0; i++) {
      delivered = (await call('list_webhook_deliveries', { webhook_id: hook.id })).deliveries;
      if (!delivered.length) await new Promise((r) => setTimeout(r, 50));
    }
    await call('retry_webhook_delivery', { webhook_id: hook.id, msg_id: delivered[0].id });
    await call('delete_webhook', { webhook_id: hook.id });

    // Sites: a site, log lines through the tool, the two reports, then the site goes.
    const siteRow = await call('create_site', { domain: 'acme.example' });
    await call('list_sites');
    await call('get_site', { site_id: siteRow.id });
    const when = new Date(Date.now() - 3_600_000);
    const clf = `${String(when.getUTCDate()).padStart(2, '0')}/${when.toUTCString().slice(8, 11)}/${when.getUTCFullYear()}:${when.toISOString().slice(11, 19)} +0000`;
    const uploaded = await call('upload_site_logs', {
      site_id: siteRow.id,
      lines: `20.171.206.5 - - [${clf}] "GET /pricing HTTP/1.1" 200 10 "-" "Mozilla/5.0 (compatible; GPTBot/1.1; +https://openai.com/gptbot)"\n1.2.3.4 - - [${clf}] "GET /pricing HTTP/1.1" 200 10 "https://chatgpt.com/" "Mozilla/5.0"\n`,
    });
    assert.deepEqual([uploaded.format, uploaded.ai_crawler_hits, uploaded.ai_referral_visits], ['combined', 1, 1]);
    const crawlers = await call('get_site_crawlers', { site_id: siteRow.id });
    assert.equal(crawlers.crawlers[0].verified_hits, 1);
    await call('get_site_referrals', { site_id: siteRow.id, days: 7 });
    await call('delete_site', { site_id: siteRow.id });

    assert.deepEqual(tools.map((t) => t.name).filter((n) => !called.has(n)), [], 'every tool was called');
    await client.close();
  });

  test('an API key sent to /mcp is 401 api_key_not_allowed (the mirror of mcp_token_not_allowed)', async () => {
    const { key } = await s.account();
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
    const body: any = await res.json();
    assert.equal(body.detail.error, 'api_key_not_allowed');
    assert.match(body.detail.message, /MCP token/);
  });

  test('a body that is not JSON is the JSON-RPC parse error (-32700); without a token it is 401 before the body is read', async () => {
    const { accountId } = await s.account();
    const token = await s.key(accountId, { kind: 'mcp' });
    const post = (authorization: string | undefined, body: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
    for (const bad of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'not json']) {
      const res = await post(`Bearer ${token}`, bad);
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON.' } });
    }
    const anonymous = await post(undefined, 'not json');
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as any).detail.error, 'unauthorized');
    // A well-formed call still works.
    const ok = await post(`Bearer ${token}`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.equal(ok.status, 200);
  });

  // Last: it reads the answers of the study above.
  test('each published output schema accepts and refuses what the long form does, on every answer of the study and on answers made wrong', async () => {
    assert.ok(answers.size >= 25, 'the study ran first');
    const ajv = new AjvJsonSchemaValidator();
    let checked = 0;
    for (const [name, values] of answers) {
      const compact = ajv.getValidator(published.get(name)!);
      const verbose = ajv.getValidator(verboseOutputJsonSchema(TOOLS_BY_NAME.get(name)!));
      for (const value of values) {
        assert.equal(compact(value).valid, true, `${name}: ${compact(value).errorMessage}`);
        for (const [where, wrong] of wrongVersions(value)) {
          assert.equal(compact(wrong).valid, verbose(wrong).valid, `${name} ${where}: compact ${compact(wrong).errorMessage}, long ${verbose(wrong).errorMessage}`);
          checked++;
        }
      }
      // Let the event loop run between tools (an idle keep-alive socket closes on time).
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(checked > 5000, String(checked));
  });
});

/**
 * The answer with one thing changed, in turn: each value replaced by null, a string, a fraction,
 * an object or an array, or removed, and an unknown key added to each object. The one object is
 * changed in place and put back before the next: use each version before asking for the next.
 */
function* wrongVersions(value: Record<string, unknown>): Generator<[string, unknown]> {
  const objects: [string, Record<string, unknown>][] = [];
  const walk = (node: unknown, where: string): Generator<[string, unknown]> =>
    (function* () {
      if (node === null || typeof node !== 'object') return;
      // A list's first item says what every item would.
      const entries = Array.isArray(node) ? node.slice(0, 1).map((v, i) => [String(i), v] as const) : Object.entries(node);
      if (!Array.isArray(node)) objects.push([where, node as Record<string, unknown>]);
      const holder = node as Record<string, unknown>;
      for (const [k, original] of entries) {
        for (const replacement of [null, 'x', 1.5, {}, []]) {
          holder[k] = replacement;
          yield [`${where}.${k} = ${JSON.stringify(replacement)}`, value];
        }
        if (!Array.isArray(node)) {
          delete holder[k];
          yield [`${where}.${k} removed`, value];
        }
        holder[k] = original;
        yield* walk(original, `${where}.${k}`);
      }
    })();
  yield* walk(value, '');
  for (const [where, node] of objects) {
    node.zz_unknown = 1;
    yield [`${where}.zz_unknown added`, value];
    delete node.zz_unknown;
  }
}

/** Places in an argument schema that some model APIs refuse: a list as `type`, a `$ref`. */
function unportable(node: unknown, where = '', found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n, i) => unportable(n, `${where}[${i}]`, found));
  else if (node !== null && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.type) || '$ref' in o) found.push(where);
    // Under `properties` the keys are argument names, not keywords.
    for (const [k, v] of Object.entries(o)) if (k !== 'properties') unportable(v, `${where}.${k}`, found);
    for (const [k, v] of Object.entries(o.properties ?? {})) unportable(v, `${where}.${k}`, found);
  }
  return found;
}
