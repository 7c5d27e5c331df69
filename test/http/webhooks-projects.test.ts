// Webhook endpoints limited to some projects (an agency's channel per client), through the real
// server, worker and database, with a receiver on 127.0.0.1: a limited endpoint gets only its
// projects' events (never another project's run, a run outside projects, or an account event
// such as credits.low); an open one gets everything. Narrowing the list ends pending deliveries
// about other projects (project_unsubscribed) and a manual retry of one is refused; a project of
// another account, or an empty list, is a 400.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.ts';
import { runCli } from '../helpers/cli.ts';

describe('webhook endpoints limited to projects', () => {
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

  const project = async (key: string, name: string) => {
    const res = await s.request('POST', '/v1/projects', {
      key,
      body: { name, url: `https://${name.toLowerCase()}.example/`, brand: { name }, platforms: ['deepseek'], prompts: [{ prompt: `best ${name} [[sandbox:mention]]` }] },
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().id as string;
  };
  const runProject = async (key: string, id: string) => {
    const made = (await s.request('POST', `/v1/projects/${id}/runs`, { key, body: {} })).json();
    for (const r of made.runs) await s.waitForRun(key, r.run_id, 60_000);
    return made.runs.map((r: { run_id: string }) => r.run_id) as string[];
  };
  const received = (path: string) => rx.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as { type: string; data: any });

  test('a limited endpoint hears only of its projects; an open one of everything', async () => {
    rx.answer = () => ({ status: 200 });
    const { key } = await s.account({ credits: 50 });
    assert.equal((await s.request('PATCH', '/v1/notification-settings', { key, body: { credits_low_threshold: '49.99' } })).statusCode, 200);
    const stride = await project(key, 'Stride');
    const smile = await project(key, 'Smile');
    const limited = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/stride'), events: ['*'], project_ids: [stride, stride] } });
    assert.equal(limited.statusCode, 200, limited.body);
    assert.deepEqual(limited.json().project_ids, [stride], 'listed once');
    const open = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/all'), events: ['*'] } })).json();
    assert.equal(open.project_ids, null);

    const [strideRun] = await runProject(key, stride);
    const [smileRun] = await runProject(key, smile);
    const oneOff = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://other.example/', target_entity: 'Other', prompts: ['x'], platforms: ['deepseek'] } })).json();
    await s.waitForRun(key, oneOff.run_id);

    // Three runs completed and credits ran low: the open endpoint hears of all four events.
    await until(async () => received('/all').length >= 4);
    assert.deepEqual(received('/all').map((e) => e.type).sort(), ['credits.low', 'run.completed', 'run.completed', 'run.completed']);
    const runsHeard = received('/stride').filter((e) => e.type === 'run.completed').map((e) => e.data.run_id);
    assert.deepEqual(runsHeard, [strideRun]);
    assert.ok(!received('/stride').some((e) => e.type === 'credits.low'), 'no account event to a client channel');
    assert.ok(![smileRun, oneOff.run_id].some((id) => runsHeard.includes(id)));
    const list = (await s.request('GET', `/v1/webhooks/${limited.json().id}`, { key })).json();
    assert.deepEqual(list.project_ids, [stride]);

    // Opened to every event again (null), it hears of the next Smile run.
    const reopened = await s.request('PATCH', `/v1/webhooks/${limited.json().id}`, { key, body: { project_ids: null } });
    assert.equal(reopened.statusCode, 200, reopened.body);
    assert.equal(reopened.json().project_ids, null);
    const [again] = await runProject(key, smile);
    await until(async () => received('/stride').some((e) => e.data?.run_id === again));
  });

  test('narrowed: pending deliveries about other projects end unsent; their retry is refused', async () => {
    // Every first attempt fails, so a delivery waits an hour for its retry.
    rx.answer = (_r, n) => ({ status: n === 0 ? 500 : 200 });
    const { key } = await s.account({ credits: 50 });
    const a = await project(key, 'Alpha');
    const b = await project(key, 'Beta');
    const wh = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/agency'), events: ['run.completed'] } })).json();
    await runProject(key, a);
    await runProject(key, b);
    const deliveries = async () => (await s.request('GET', `/v1/webhooks/${wh.id}/deliveries`, { key })).json().deliveries as any[];
    await until(async () => {
      const l = await deliveries();
      return l.length === 2 && l.every((d) => d.status === 'pending' && d.attempt_log.length === 1);
    });
    const patched = await s.request('PATCH', `/v1/webhooks/${wh.id}`, { key, body: { project_ids: [a] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const after = await deliveries();
    assert.deepEqual(after.map((d) => d.status).sort(), ['failed', 'pending']);
    const ended = after.find((d) => d.status === 'failed');
    assert.equal(ended.last_error, 'project_unsubscribed');
    const refused = await s.request('POST', `/v1/webhooks/${wh.id}/deliveries/${ended.id}/retry`, { key });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().detail.error, 'webhook_event_unsubscribed');
    assert.equal(refused.json().detail.project_id, b);
  });

  test('another account\'s project, an unknown one or an empty list: 400, nothing made', async () => {
    const { key } = await s.account({ credits: 5 });
    const other = await s.account({ credits: 5 });
    const theirs = await project(other.key, 'Theirs');
    for (const project_ids of [[theirs], ['proj_nope'], []]) {
      const res = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/x'), events: ['run.completed'], project_ids } });
      assert.equal(res.statusCode, project_ids.length ? 400 : 422, res.body);
      if (project_ids.length) assert.deepEqual([res.json().detail.error, res.json().detail.unknown], ['invalid_request', project_ids]);
    }
    assert.deepEqual((await s.request('GET', '/v1/webhooks', { key })).json().webhooks, []);
  });

  test('CLI: webhooks create --project (repeatable) and the list line name the projects', async () => {
    const { key } = await s.account({ credits: 5 });
    const a = await project(key, 'Gamma');
    const b = await project(key, 'Delta');
    const env = { SIGHTLINE_API_URL: base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: '/nonexistent/sightline-cli.json' };
    const made = await runCli(['webhooks', 'create', rx.url('/cli'), '--event', 'run.completed', '--project', a, '--project', b, '--json'], { env });
    assert.equal(made.code, 0, made.err);
    assert.deepEqual(made.json.project_ids, [a, b]);
    const list = await runCli(['webhooks', 'list'], { env });
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, new RegExp(`run\\.completed projects ${a},${b}`));

    // --no-project sends project_ids: null: every event of the account again.
    const cleared = await runCli(['webhooks', 'update', made.json.id, '--no-project', '--json'], { env });
    assert.equal(cleared.code, 0, cleared.err);
    assert.equal(cleared.json.project_ids, null);
    const help = await runCli(['webhooks', 'update', '--help'], { env });
    assert.match(help.out, /--no-project\s+send project_ids: null/);
  });
});
