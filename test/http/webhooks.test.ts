// Webhooks end to end through the real server and database: endpoint CRUD and its errors, the
// address policy on the URL, and deliveries to a receiver on 127.0.0.1 whose signatures are
// checked with an independent Standard Webhooks implementation (the `standardwebhooks` package):
// retries with the same webhook-id, a timeout, a redirect not followed, the schedule running out,
// a manual retry, an endpoint disabled after failing too long; and the events: run.completed,
// credits.low, tracked_test.skipped, tracked_test.changed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { startReceiver, until, type Receiver, type Received } from '../helpers/webhook-receiver.ts';
import { Scheduler } from '../../src/core/tracking/scheduler.ts';
import type { HostResolver } from '../../src/core/pages/fetch/index.ts';

const URL_ = 'https://www.acme-crm.example/pricing';

function verify(secret: string, r: Received): any {
  // The independent implementation: throws unless the signature and timestamp check out.
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
}

/** A server with webhook settings for tests, and a receiver; `ctx.s` and `ctx.rx` once started. */
function serverWithReceiver(env: Record<string, string>) {
  const ctx = {} as { s: TestServer; rx: Receiver };
  before(async () => {
    ctx.rx = await startReceiver();
    ctx.s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', ...env });
  });
  after(async () => {
    await ctx.s.close();
    await ctx.rx.close();
  });
  return ctx;
}

describe('webhooks over HTTP', () => {
  const ctx = serverWithReceiver({ SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms', SIGHTLINE_WEBHOOK_TIMEOUT_MS: '700' });
  let s: TestServer;
  let rx: Receiver;
  before(() => ({ s, rx } = ctx));

  async function endpoint(key: string, path: string, events: string[] = ['*'], extra: Record<string, unknown> = {}) {
    const res = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url(path), events, ...extra } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }
  const deliveries = async (key: string, id: string) => (await s.request('GET', `/v1/webhooks/${id}/deliveries`, { key })).json().deliveries;

  test('create shows the whsec_ secret once; list, read, change, delete; another account gets 404', async () => {
    const { key } = await s.account();
    const created = await endpoint(key, '/crud', ['run.completed', 'credits.low'], { description: 'ops channel' });
    assert.match(created.id, /^wh_/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/); // 24 random bytes, base64
    assert.equal(Buffer.from(created.secret.slice(6), 'base64').length, 24);
    assert.deepEqual([created.status, created.events, created.description, created.format], ['enabled', ['run.completed', 'credits.low'], 'ops channel', 'standard_webhooks']);
    const list = (await s.request('GET', '/v1/webhooks', { key })).json();
    assert.deepEqual(list.webhooks.map((w: any) => w.id), [created.id]);
    assert.equal(list.webhooks[0].secret, undefined);
    const read = (await s.request('GET', `/v1/webhooks/${created.id}`, { key })).json();
    assert.equal(read.secret, undefined);
    assert.equal(read.url, rx.url('/crud'));
    const patched = await s.request('PATCH', `/v1/webhooks/${created.id}`, { key, body: { events: ['*'], status: 'disabled', description: null } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().events, patched.json().status, patched.json().description, patched.json().disabled_reason], [['*'], 'disabled', null, 'disabled_by_user']);
    const other = await s.account();
    for (const [method, path] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['GET', '/deliveries']] as const) {
      const res = await s.request(method, `/v1/webhooks/${created.id}${path}`, { key: other.key, ...(method === 'PATCH' ? { body: { description: 'x' } } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${path}`);
      assert.equal(res.json().detail.error, 'not_found');
    }
    const del = await s.request('DELETE', `/v1/webhooks/${created.id}`, { key });
    assert.deepEqual(del.json(), { id: created.id, deleted: true });
    assert.equal((await s.request('GET', `/v1/webhooks/${created.id}`, { key })).statusCode, 404);
    assert.deepEqual((await s.request('GET', '/v1/webhooks', { key })).json().webhooks, []);
  });

  test('bad input: unknown event 422, unknown field 422, non-public or non-http URL 400 invalid_url, scope 403', async () => {
    const { key, accountId } = await s.account();
    const unknown = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url(), events: ['run.finished'] } });
    assert.equal(unknown.statusCode, 422);
    assert.deepEqual(unknown.json().detail[0].loc, ['body', 'events', 0]);
    const extra = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url(), events: ['*'], secret: 'mine' } });
    assert.equal(extra.statusCode, 422);
    assert.equal(extra.json().detail[0].type, 'extra_forbidden');
    // SSRF: only public addresses or what SIGHTLINE_FETCH_ALLOW names (127.0.0.1 here) pass,
    // whatever the spelling; nothing is sent to check (the address policy decides on its own).
    for (const url of ['http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/', 'http://localhost/x', 'http://0x0a000001/', 'http://192.168.1.1/', 'ftp://example.com/x', 'not a url', 'http://user:pw@127.0.0.1/']) {
      const res = await s.request('POST', '/v1/webhooks', { key, body: { url, events: ['*'] } });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().detail.error, 'invalid_url', url);
    }
    const readOnly = await s.key(accountId, { readOnly: true });
    const denied = await s.request('GET', '/v1/webhooks', { key: readOnly });
    assert.equal(denied.statusCode, 403);
    assert.equal(denied.json().detail.required_scope, 'webhooks:write');
  });

  test('an endpoint is a standing read: a key subscribes only to events whose data it may read', async () => {
    const { accountId } = await s.account();
    // webhooks:write and runs:read: run.completed and credits.low, not tests' or sites' events, not "*".
    const key = await s.key(accountId, { scopes: ['webhooks:write', 'runs:read'] });
    const ok = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/scoped'), events: ['run.completed', 'credits.low'] } });
    assert.equal(ok.statusCode, 200, ok.body);
    for (const [events, scope] of [
      [['crawler.blocked'], 'sites:read'],
      [['run.completed', 'tracked_test.changed'], 'tests:read'],
      [['*'], 'tests:read'],
    ] as const) {
      const refused = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/scoped'), events } });
      assert.equal(refused.statusCode, 403, `${events}: ${refused.body}`);
      assert.deepEqual([refused.json().detail.error, refused.json().detail.required_scope], ['missing_scope', scope]);
    }
    // A change of events is checked the same way; other changes are not.
    const widened = await s.request('PATCH', `/v1/webhooks/${ok.json().id}`, { key, body: { events: ['tracked_test.skipped'] } });
    assert.deepEqual([widened.statusCode, widened.json().detail.required_scope], [403, 'tests:read']);
    const renamed = await s.request('PATCH', `/v1/webhooks/${ok.json().id}`, { key, body: { description: 'runs only' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(renamed.json().events, ['run.completed', 'credits.low']);
    // webhooks:write alone subscribes to nothing.
    const bare = await s.key(accountId, { scopes: ['webhooks:write'] });
    const none = await s.request('POST', '/v1/webhooks', { key: bare, body: { url: rx.url('/scoped'), events: ['credits.low'] } });
    assert.deepEqual([none.statusCode, none.json().detail.required_scope], [403, 'runs:read']);
    // One refusal names every scope the events need and which events need it (not "this
    // endpoint requires": the key has the endpoint's scope), so one new key fixes the call.
    const all = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/scoped'), events: ['*'] } })).json().detail;
    assert.deepEqual(all.missing_scopes, ['tests:read', 'sites:read']);
    assert.equal(all.message, 'Subscribing to "*" (every event) needs the scopes that read their data; this key lacks tests:read (tracked_test.changed, tracked_test.skipped) and sites:read (crawler.blocked).');
    const everything = (await s.request('POST', '/v1/webhooks', { key: bare, body: { url: rx.url('/scoped'), events: ['*'] } })).json().detail;
    assert.deepEqual([everything.required_scope, everything.missing_scopes], ['runs:read', ['runs:read', 'tests:read', 'sites:read']]);
    const fixed = await s.key(accountId, { scopes: ['webhooks:write', ...everything.missing_scopes] });
    assert.equal((await s.request('POST', '/v1/webhooks', { key: fixed, body: { url: rx.url('/scoped'), events: ['*'] } })).statusCode, 200);
  });

  test('run.completed: one signed delivery per run, verified by the standardwebhooks package, data the compact run with its summary', async () => {
    const { key } = await s.account({ credits: 20 });
    const wh = await endpoint(key, '/runs', ['run.completed']);
    const created = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: URL_, target_entity: 'Acme CRM', prompts: ['best crm'], platforms: ['openai', 'deepseek'] } })).json();
    await s.waitForRun(key, created.run_id);
    const [hit] = await rx.waitFor(1, (r) => r.path === '/runs');
    const payload = verify(wh.secret, hit!);
    assert.equal(payload.type, 'run.completed');
    assert.match(payload.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(payload.data.run_id, created.run_id);
    assert.equal(payload.data.status, 'completed');
    assert.equal(typeof payload.data.summary.mention_rate, 'number');
    assert.match(String(hit!.headers['webhook-id']), /^msg_/);
    assert.match(String(hit!.headers['webhook-timestamp']), /^\d{10}$/);
    assert.throws(() => new Webhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(hit!.body, hit!.headers as Record<string, string>));
    const log = await until(async () => {
      const d = await deliveries(key, wh.id);
      return d.length === 1 && d[0].status === 'succeeded' ? d : null;
    });
    assert.equal(log[0].id, hit!.headers['webhook-id']);
    assert.deepEqual([log[0].event, log[0].attempts, log[0].last_status_code, log[0].next_attempt_at], ['run.completed', 1, 200, null]);
    // A Content Intelligence run too.
    const ci = (await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'http://127.0.0.1:1/unreachable' } })).json();
    assert.match(ci.run_id, /^ci_/);
    const ciRun = await s.waitForRun(key, ci.run_id);
    const [ciHit] = await rx.waitFor(2, (r) => r.path === '/runs').then((h) => h.slice(1));
    const ciPayload = verify(wh.secret, ciHit!);
    assert.equal(ciPayload.data.run_id, ci.run_id);
    assert.equal(ciPayload.data.status, ciRun.status);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.filter((r) => r.path === '/runs' && verify(wh.secret, r).data.run_id === created.run_id).length, 1);
  });

  test('retries keep the webhook-id; a timeout and a redirect are failures; the redirect is not followed; the schedule ends in failed; a manual retry delivers', async () => {
    const { key } = await s.account({ credits: 20 });
    const wh = await endpoint(key, '/flaky', ['run.completed']);
    const redirect = await endpoint(key, '/moved', ['run.completed']);
    // /flaky: 500, then too slow (past the 700 ms limit), then 200.
    rx.answer = (r, n) => {
      if (r.path === '/flaky') return n === 0 ? { status: 500 } : n === 1 ? { status: 200, delayMs: 1500 } : { status: 200 };
      if (r.path === '/moved') return { status: 307, headers: { location: rx.url('/elsewhere') } };
      return { status: 200 };
    };
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: URL_, target_entity: 'Acme CRM', prompts: ['crm'], platforms: ['deepseek'] } })).json();
    await s.waitForRun(key, run.run_id);
    const hits = await rx.waitFor(3, (r) => r.path === '/flaky');
    const ids = new Set(hits.map((h) => h.headers['webhook-id']));
    assert.equal(ids.size, 1, 'the same webhook-id on every attempt');
    for (const h of hits) assert.equal(verify(wh.secret, h).data.run_id, run.run_id);
    const flaky = await until(async () => {
      const d = await deliveries(key, wh.id);
      return d[0]?.status === 'succeeded' ? d[0] : null;
    });
    assert.equal(flaky.attempts, 3);
    assert.deepEqual(flaky.attempt_log.map((a: any) => a.status_code), [500, null, 200]);
    assert.match(flaky.attempt_log[1].error, /^timeout/);
    // Redirect: 1 + 3 retries, all failures, never followed.
    const moved = await until(async () => {
      const d = await deliveries(key, redirect.id);
      return d[0]?.status === 'failed' ? d[0] : null;
    });
    assert.equal(moved.attempts, 4);
    assert.equal(moved.last_status_code, 307);
    assert.match(moved.last_error, /redirect not followed/);
    assert.equal(rx.received.filter((r) => r.path === '/elsewhere').length, 0);
    // Manual retry of the failed message: the same id again, now answered 200.
    rx.answer = () => ({ status: 200 });
    const retried = await s.request('POST', `/v1/webhooks/${redirect.id}/deliveries/${moved.id}/retry`, { key });
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.json().status, 'pending');
    const done = await until(async () => {
      const d = await deliveries(key, redirect.id);
      return d[0]?.status === 'succeeded' ? d[0] : null;
    });
    assert.equal(done.attempts, 5);
    assert.equal(rx.received.filter((r) => r.path === '/moved').every((r) => r.headers['webhook-id'] === moved.id), true);
    assert.equal((await s.request('POST', `/v1/webhooks/${redirect.id}/deliveries/msg_nope/retry`, { key })).statusCode, 404);
  });

  test('credits.low fires once when the balance falls below the threshold, and again only after a grant re-armed it', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const wh = await endpoint(key, '/credits', ['credits.low']);
    const set = await s.request('PATCH', '/v1/notification-settings', { key, body: { credits_low_threshold: '7.50' } });
    assert.deepEqual(set.json(), { credits_low_threshold: '7.50', credits_low_armed: true, email_alerts: [] });
    assert.equal((await s.request('PATCH', '/v1/notification-settings', { key, body: { credits_low_threshold: '1.234' } })).statusCode, 422);
    // A refused threshold says what is allowed, whatever was wrong with it.
    for (const bad of ['-5', '1e9', -5, 1e13]) {
      const res = await s.request('PATCH', '/v1/notification-settings', { key, body: { credits_low_threshold: bad } });
      assert.equal(res.statusCode, 422);
      assert.match(JSON.stringify(res.json()), /must be a number of credits written in digits, from 0 to 999999999999\.99 with at most two decimals/, JSON.stringify(bad));
    }
    const body = { url: URL_, target_entity: 'Acme CRM', prompts: ['crm'], platforms: ['deepseek'] };
    for (let i = 0; i < 4; i++) await s.waitForRun(key, (await s.request('POST', '/v1/visibility/runs', { key, body })).json().run_id);
    const [hit] = await rx.waitFor(1, (r) => r.path === '/credits');
    const payload = verify(wh.secret, hit!);
    assert.deepEqual(payload.data, { available_credits: '7.00', threshold: '7.50' });
    assert.equal((await s.request('GET', '/v1/notification-settings', { key })).json().credits_low_armed, false);
    const { grantCredits } = await import('../../src/core/billing/ledger.ts');
    await grantCredits(s.runtime.core.store, accountId, 500);
    assert.equal((await s.request('GET', '/v1/notification-settings', { key })).json().credits_low_armed, true);
    for (let i = 0; i < 6; i++) await s.waitForRun(key, (await s.request('POST', '/v1/visibility/runs', { key, body })).json().run_id);
    await rx.waitFor(2, (r) => r.path === '/credits');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.filter((r) => r.path === '/credits').length, 2);
  });

  test('tracked_test.skipped once per slot, even when two schedulers decide it', async () => {
    const { key } = await s.account({ credits: 0.5 });
    const wh = await endpoint(key, '/skips', ['tracked_test.skipped']);
    const t = (
      await s.request('POST', '/v1/tests', {
        key,
        body: { test_type: 'ai_citations', definition: { url: URL_, target_entity: 'Acme CRM', prompts: ['crm'], platforms: ['deepseek'] }, schedule: { cron: '0 * * * *' } },
      })
    ).json();
    const at = () => new Date(Date.parse(t.next_run_at) + 1000);
    await Promise.all([new Scheduler(s.runtime.core.tracking, { now: at }).tick(), new Scheduler(s.runtime.core.tracking, { now: at }).tick()]);
    const [hit] = await rx.waitFor(1, (r) => r.path === '/skips');
    const payload = verify(wh.secret, hit!);
    assert.deepEqual(payload.data, { test_id: t.id, project_id: null, name: payload.data.name, slot: t.next_run_at, reason: 'insufficient_credits', message: payload.data.message });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.filter((r) => r.path === '/skips').length, 1);
  });
});

describe('webhooks: tracked_test.changed from two comparable runs whose answers differ', () => {
  // Live mode against a fake DeepSeek: the test's definition stays the same (history compares only
  // like with like) while the answers change between the two runs.
  let s: TestServer;
  let rx: Receiver;
  let deepseek: FakeProvider;
  let mention = true;
  before(async () => {
    rx = await startReceiver();
    deepseek = await startFakeProvider('deepseek', () => ({ answer: { text: mention ? 'Acme CRM and Globex both fit small teams.' : 'Globex fits small teams best.' } }));
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_PLATFORM_ENGINE: 'live', ...deepseek.env });
  });
  after(async () => {
    await s.close();
    await rx.close();
    await deepseek.close();
  });

  test('tracked_test.changed when the history comparison becomes significant, with direction, size, interval and competitors that moved', async () => {
    const { key } = await s.account({ credits: 200 });
    const wh = (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/changes'), events: ['tracked_test.changed'] } })).json();
    const definition = { url: URL_, target_entity: 'Acme CRM', competitors: ['Globex'], prompts: ['best crm'], platforms: ['deepseek'], repeats: 10 };
    const t = (await s.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', definition } })).json();
    await s.waitForRun(key, (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json().run_id);
    mention = false;
    const second = (await s.request('POST', `/v1/tests/${t.id}/runs`, { key, body: {} })).json();
    await s.waitForRun(key, second.run_id);
    const [hit] = await rx.waitFor(1, (r) => r.path === '/changes');
    const d = verify(wh.secret, hit!).data;
    assert.equal(d.test_id, t.id);
    assert.equal(d.direction, 'down');
    assert.equal(d.previous.mention_rate, 1);
    assert.equal(d.latest.mention_rate, 0);
    assert.equal(d.change, -1);
    assert.equal(d.size, 1);
    assert.deepEqual(Object.keys(d.interval).sort(), ['high', 'level', 'low', 'method']);
    assert.ok(Array.isArray(d.competitors_moved));
    assert.deepEqual(d.run_ids, [second.run_id]);
  });
});

describe('webhooks: an endpoint failing every delivery is disabled, once, with an activity record', () => {
  const ctx = serverWithReceiver({ SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms', SIGHTLINE_WEBHOOK_DISABLE_AFTER_MS: '400' });
  let s: TestServer;
  let rx: Receiver;
  before(() => ({ s, rx } = ctx));

  test('disabled after failing longer than the limit; nothing more is sent', async () => {
    const { key } = await s.account({ credits: 20 });
    const wh = await endpoint();
    async function endpoint() {
      return (await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url('/down'), events: ['run.completed'] } })).json();
    }
    rx.answer = () => ({ status: 503 });
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: URL_, target_entity: 'Acme', prompts: ['crm'], platforms: ['deepseek'] } })).json();
    await s.waitForRun(key, run.run_id);
    const read = await until(async () => {
      const w = (await s.request('GET', `/v1/webhooks/${wh.id}`, { key })).json();
      return w.status === 'disabled' ? w : null;
    });
    assert.equal(read.disabled_reason, 'failing');
    const d = await until(async () => {
      const list = (await s.request('GET', `/v1/webhooks/${wh.id}/deliveries`, { key })).json().deliveries;
      return list[0]?.status === 'failed' ? list[0] : null;
    });
    assert.equal(d.last_error, 'endpoint_disabled');
    const sent = rx.received.length;
    assert.ok(sent >= 2 && sent <= 8, `sent ${sent}`);
    const rows = await s.runtime.core.store.db.selectFrom('activity').selectAll().where('action', '=', 'webhooks.disabled').execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.path, `/v1/webhooks/${wh.id}`);
    // Disabled: a retry is refused up front with 409 webhook_disabled; nothing is queued.
    const refused = await s.request('POST', `/v1/webhooks/${wh.id}/deliveries/${d.id}/retry`, { key });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().detail.error, 'webhook_disabled');
    assert.equal(refused.json().detail.webhook_id, wh.id);
    assert.equal(refused.json().detail.disabled_reason, 'failing');
    assert.match(refused.json().detail.message, /enable it/);
    assert.equal((await s.request('GET', `/v1/webhooks/${wh.id}/deliveries`, { key })).json().deliveries[0].status, 'failed');
    const jobs = await s.runtime.core.store.db.selectFrom('jobs').select('status').where('ref_id', '=', d.id).where('status', '=', 'queued').execute();
    assert.equal(jobs.length, 0);
    // Enabled again: deliveries resume.
    rx.answer = () => ({ status: 200 });
    assert.equal((await s.request('PATCH', `/v1/webhooks/${wh.id}`, { key, body: { status: 'enabled' } })).json().status, 'enabled');
    const retried = await s.request('POST', `/v1/webhooks/${wh.id}/deliveries/${d.id}/retry`, { key });
    assert.equal(retried.statusCode, 200);
    await until(async () => (await s.request('GET', `/v1/webhooks/${wh.id}/deliveries`, { key })).json().deliveries[0].status === 'succeeded');
  });
});

describe('webhook URL check: no oracle for internal names', () => {
  // A fake resolver (the address check's own, no query leaves the machine): an internal name
  // resolving to a private address, made-up names that do not resolve, and a public one.
  const answers: Record<string, string[]> = { 'intranet.corp.test': ['10.20.0.5'], 'metadata.corp.test': ['169.254.169.254'], 'mixed.corp.test': ['93.184.215.14', '192.168.0.2'], 'hooks.public.test': ['93.184.215.14'], 'nothing.corp.test': [] };
  const lookup: HostResolver = async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: 4 as const }));
  };
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }, { core: { pages: { fetchOptions: { lookup } } } });
  });
  after(async () => s.close());

  test('an unresolvable name and one resolving to a private address get the same answer, naming SIGHTLINE_FETCH_ALLOW', async () => {
    const { key } = await s.account();
    const answer = async (url: string) => {
      const res = await s.request('POST', '/v1/webhooks', { key, body: { url, events: ['*'] } });
      return { status: res.statusCode, detail: res.json().detail };
    };
    const internal = await answer('https://intranet.corp.test/hook');
    assert.equal(internal.status, 400);
    assert.equal(internal.detail.error, 'invalid_url');
    assert.equal(internal.detail.reason, 'not_public');
    assert.match(internal.detail.message, /SIGHTLINE_FETCH_ALLOW/);
    for (const url of ['https://made-up.corp.test/hook', 'https://nothing.corp.test/hook', 'https://metadata.corp.test/hook', 'https://mixed.corp.test/hook', 'http://127.0.0.1:9/hook', 'http://localhost/x', 'http://10.0.0.1/']) {
      assert.deepEqual(await answer(url), internal, url);
    }
    // A loopback URL without SIGHTLINE_FETCH_ALLOW says how the operator allows it.
    assert.match((await answer('http://127.0.0.1:9/hook')).detail.message, /SIGHTLINE_FETCH_ALLOW \(hosts, host:port pairs or CIDRs\)/);
    // The change of an endpoint's url is checked the same way.
    const ok = await s.request('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.public.test/in', events: ['*'] } });
    assert.equal(ok.statusCode, 200, ok.body);
    const patched = await s.request('PATCH', `/v1/webhooks/${ok.json().id}`, { key, body: { url: 'https://made-up.corp.test/hook' } });
    assert.deepEqual({ status: patched.statusCode, detail: patched.json().detail }, internal);
    // Not an address question: still told apart.
    assert.equal((await answer('ftp://example.com/x')).detail.reason, 'unsupported_scheme');
  });
});
