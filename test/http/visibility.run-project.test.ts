// A visibility run says its project: `project_id` on the run object wherever it appears (the
// single read, the runs list and its project filter, cancel, a saved test's runs, the
// run.completed webhook payload, MCP's get_visibility_run, the CLI's status view), the project of the run's tracked test, null
// for a run whose test belongs to no project. It stays when the market is removed or the project
// deleted: the run is still readable by id and still that project's, as its test_id stays.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { runCli } from '../helpers/cli.ts';

describe('visibility run: project_id', () => {
  let s: TestServer;
  let rx: Receiver;
  let base: string;
  before(async () => {
    rx = await startReceiver();
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '1h' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await s.close();
    await rx.close();
  });

  const received = (path: string) => rx.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as { type: string; data: any });

  test('a project market run has its project, a one-off run null: read, list, filter, webhook, MCP, CLI', async () => {
    rx.answer = () => ({ status: 200 });
    const { accountId, key } = await s.account({ credits: 50 });
    const hook = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/runs'), events: ['run.completed'] } });
    assert.equal(hook.statusCode, 200, hook.body);
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://hooli.example/',
        brand: { name: 'Hooli' },
        markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }],
        platforms: ['deepseek'],
        prompts: [{ prompt: 'best search engine [[sandbox:mention]]' }],
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const project = created.json();
    const made = (await s.request('POST', `/v1/projects/${project.id}/runs`, { key, body: {} })).json();
    assert.equal(made.runs.length, 2, JSON.stringify(made));
    const oneOff = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://other.example/', target_entity: 'Other', prompts: ['q'], platforms: ['deepseek'] } })).json();
    for (const r of [...made.runs, oneOff]) await s.waitForRun(key, r.run_id);

    for (const r of made.runs) {
      const run = (await s.request('GET', `/v1/visibility/runs/${r.run_id}`, { key })).json();
      assert.equal(run.project_id, project.id);
      assert.equal(run.test_id, r.test_id);
      // The same with the probes (another read path) and on a second, cached read.
      assert.equal((await s.request('GET', `/v1/visibility/runs/${r.run_id}?include_results=true`, { key })).json().project_id, project.id);
      assert.equal((await s.request('GET', `/v1/visibility/runs/${r.run_id}`, { key })).json().project_id, project.id);
    }
    const single = (await s.request('GET', `/v1/visibility/runs/${oneOff.run_id}`, { key })).json();
    assert.ok(single.test_id, 'a one-off run has its saved test');
    assert.equal(single.project_id, null);
    // A cancel answers the run object too (a finished run: nothing to cancel, the run as it is).
    assert.equal((await s.request('POST', `/v1/visibility/runs/${oneOff.run_id}/cancel`, { key })).json().project_id, null);

    const listed = (await s.request('GET', '/v1/visibility/runs', { key })).json().runs as { run_id: string; project_id: string | null }[];
    const projectOf = Object.fromEntries(listed.map((r) => [r.run_id, r.project_id]));
    assert.deepEqual(projectOf, { ...Object.fromEntries(made.runs.map((r: any) => [r.run_id, project.id])), [oneOff.run_id]: null });
    const filtered = (await s.request('GET', `/v1/visibility/runs?project_id=${project.id}`, { key })).json().runs as { run_id: string; project_id: string }[];
    assert.deepEqual(filtered.map((r) => r.run_id).sort(), made.runs.map((r: any) => r.run_id).sort());
    assert.ok(filtered.every((r) => r.project_id === project.id));

    // A saved test's runs (GET /v1/tests/{id}, reports by URL) are compact runs too.
    const testRuns = (await s.request('GET', `/v1/tests/${made.runs[0].test_id}`, { key })).json().runs as { run_id: string; project_id: string }[];
    assert.deepEqual(testRuns.map((r) => [r.run_id, r.project_id]), [[made.runs[0].run_id, project.id]]);
    const oneOffTest = (await s.request('GET', `/v1/tests/${single.test_id}`, { key })).json();
    assert.deepEqual(oneOffTest.runs.map((r: any) => r.project_id), [null]);

    // run.completed carries the compact run, project_id included.
    await until(async () => received('/runs').length >= 3);
    const heard = Object.fromEntries(received('/runs').map((e) => [e.data.run_id, e.data.project_id]));
    assert.deepEqual(heard, projectOf);

    // MCP: the tool's structured answer, as the HTTP read.
    const client = await connectMcp(base, await s.key(accountId, { kind: 'mcp' }));
    try {
      const tool = await client.callTool({ name: 'get_visibility_run', arguments: { run_id: made.runs[0].run_id } });
      assert.ok(!tool.isError, JSON.stringify(tool));
      assert.equal((tool.structuredContent as { project_id: string }).project_id, project.id);
      const none = await client.callTool({ name: 'get_visibility_run', arguments: { run_id: oneOff.run_id } });
      assert.equal((none.structuredContent as { project_id: string | null }).project_id, null);
    } finally {
      await client.close();
    }

    // CLI: the status view names the project (and --json has the field).
    const env = { SIGHTLINE_API_URL: base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: '/nonexistent/sightline-cli.json' };
    const status = await runCli(['visibility', 'status', made.runs[0].run_id], { env });
    assert.equal(status.code, 0, status.err);
    assert.match(status.out, new RegExp(`^project ${project.id}, test ${made.runs[0].test_id}$`, 'm'));
    const plain = await runCli(['visibility', 'status', oneOff.run_id], { env });
    assert.doesNotMatch(plain.out, /^project /m);
    const json = await runCli(['visibility', 'status', oneOff.run_id, '--json'], { env });
    assert.equal(json.json.project_id, null);
  });

  test('a removed market and a deleted project: their runs stay readable by id and keep the project', async () => {
    const { key } = await s.account({ credits: 50 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://pied.example/',
        brand: { name: 'Pied' },
        markets: [{ language: 'en', country: 'US' }, { language: 'fr', country: 'FR' }],
        platforms: ['deepseek'],
        prompts: [{ prompt: 'compression tools' }],
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const project = created.json();
    const made = (await s.request('POST', `/v1/projects/${project.id}/runs`, { key, body: {} })).json();
    for (const r of made.runs) await s.waitForRun(key, r.run_id);
    const fr = made.runs.find((r: any) => r.market === 'fr-FR');
    assert.ok(fr, JSON.stringify(made.runs));

    // The fr-FR market is removed: its test is deleted, its run is still the project's.
    const patched = await s.request('PATCH', `/v1/projects/${project.id}`, { key, body: { markets: [{ language: 'en', country: 'US' }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal((await s.request('GET', `/v1/tests/${fr.test_id}`, { key })).statusCode, 404);
    const kept = await s.request('GET', `/v1/visibility/runs/${fr.run_id}`, { key });
    assert.equal(kept.statusCode, 200);
    assert.equal(kept.json().project_id, project.id);

    // The project is deleted: every run is still readable by id, naming it.
    assert.equal((await s.request('DELETE', `/v1/projects/${project.id}`, { key })).statusCode, 200);
    for (const r of made.runs) {
      const run = await s.request('GET', `/v1/visibility/runs/${r.run_id}`, { key });
      assert.equal(run.statusCode, 200);
      assert.equal(run.json().project_id, project.id);
    }
    const filtered = (await s.request('GET', `/v1/visibility/runs?project_id=${project.id}`, { key })).json().runs as { run_id: string }[];
    assert.deepEqual(filtered.map((r) => r.run_id).sort(), made.runs.map((r: any) => r.run_id).sort(), 'the filter agrees with the field');
  });
});
