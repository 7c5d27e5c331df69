// What happens to deliveries waiting for a retry when their endpoint changes, through the real
// server, worker and database, with a receiver on 127.0.0.1. The retry schedule is an hour long,
// so a delivery whose first attempt failed stays pending until the test moves it. An event type
// the endpoint stopped subscribing to, a disabled endpoint and a deleted one: the pending
// delivery ends `failed` at once, unsent, with the reason in `last_error`, and a manual retry of
// the unsubscribed one is refused (409). A type still subscribed follows the endpoint to its new
// URL, with the same webhook-id.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { startReceiver, until, type Receiver } from '../helpers/webhook-receiver.ts';

const RUN = { url: 'https://www.acme-crm.example/pricing', target_entity: 'Acme CRM', prompts: ['crm'], platforms: ['deepseek'] };

describe('pending deliveries when their endpoint changes', () => {
  let s: TestServer;
  let rx: Receiver;
  before(async () => {
    rx = await startReceiver();
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '1h' });
    // Every first attempt fails (so the delivery waits an hour for its retry); later ones succeed.
    rx.answer = (_r, n) => ({ status: n === 0 ? 500 : 200 });
  });
  after(async () => {
    await s.close();
    await rx.close();
  });

  const deliveries = async (key: string, id: string) => (await s.request('GET', `/v1/webhooks/${id}/deliveries`, { key })).json().deliveries as any[];
  const endpoint = async (key: string, path: string, events: string[]) => {
    const res = await s.request('POST', '/v1/webhooks', { key, body: { url: rx.url(path), events } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  /** Runs one probe and waits until the endpoint's deliveries of `count` events failed their first attempt. */
  async function pendingDeliveries(key: string, id: string, count: number) {
    const run = (await s.request('POST', '/v1/visibility/runs', { key, body: RUN })).json();
    await s.waitForRun(key, run.run_id);
    return until(async () => {
      const list = await deliveries(key, id);
      return list.length === count && list.every((d) => d.status === 'pending' && d.attempt_log.length === 1 && d.attempt_log[0].status_code === 500) ? list : null;
    });
  }
  /** Moves a delivery's queued job to now and waits until the worker has handled it. */
  async function runJobNow(messageId: string) {
    const db = s.runtime.core.store.db;
    await db.updateTable('jobs').set({ run_after: new Date().toISOString() }).where('ref_id', '=', messageId).where('status', '=', 'queued').execute();
    s.runtime.core.notifyWork();
    await until(async () => (await db.selectFrom('jobs').select('id').where('ref_id', '=', messageId).where('status', '=', 'queued').execute()).length === 0);
  }
  const sentTo = (path: string, id: string) => rx.received.filter((r) => r.path === path && r.headers['webhook-id'] === id).length;

  test('events narrowed and URL changed: the unsubscribed type ends unsent; the subscribed one goes to the new URL', async () => {
    const { key } = await s.account({ credits: 10 });
    assert.equal((await s.request('PATCH', '/v1/notification-settings', { key, body: { credits_low_threshold: '9.99' } })).statusCode, 200);
    const wh = await endpoint(key, '/old', ['run.completed', 'credits.low']);
    const list = await pendingDeliveries(key, wh.id, 2);
    const completed = list.find((d) => d.event === 'run.completed');
    const low = list.find((d) => d.event === 'credits.low');
    assert.ok(completed && low, JSON.stringify(list));

    const patched = await s.request('PATCH', `/v1/webhooks/${wh.id}`, { key, body: { events: ['credits.low'], url: rx.url('/new') } });
    assert.equal(patched.statusCode, 200, patched.body);
    const after = await deliveries(key, wh.id);
    const ended = after.find((d) => d.id === completed.id);
    assert.deepEqual([ended.status, ended.last_error, ended.next_attempt_at, ended.attempts], ['failed', 'event_unsubscribed', null, 1]);
    assert.equal(after.find((d) => d.id === low.id).status, 'pending');

    // Its queued retry does nothing when it comes due: nothing reaches either URL again.
    await runJobNow(completed.id);
    assert.equal(sentTo('/new', completed.id), 0);
    assert.equal(sentTo('/old', completed.id), 1);
    assert.equal((await deliveries(key, wh.id)).find((d) => d.id === completed.id).last_error, 'event_unsubscribed');
    // A manual retry of it is refused, and says why.
    const refused = await s.request('POST', `/v1/webhooks/${wh.id}/deliveries/${completed.id}/retry`, { key });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.deepEqual([refused.json().detail.error, refused.json().detail.event], ['webhook_event_unsubscribed', 'run.completed']);

    // The subscribed type's retry goes to the endpoint's new URL, with the same webhook-id.
    await runJobNow(low.id);
    const delivered = await until(async () => (await deliveries(key, wh.id)).find((d) => d.id === low.id && d.status === 'succeeded'));
    assert.equal(delivered.attempts, 2);
    assert.equal(sentTo('/new', low.id), 1);
  });

  test('disabled: the pending delivery ends at once and is not sent when enabled again, until retried by hand', async () => {
    const { key } = await s.account({ credits: 10 });
    const wh = await endpoint(key, '/paused', ['run.completed']);
    const [pending] = await pendingDeliveries(key, wh.id, 1);
    assert.equal((await s.request('PATCH', `/v1/webhooks/${wh.id}`, { key, body: { status: 'disabled' } })).statusCode, 200);
    const [ended] = await deliveries(key, wh.id);
    assert.deepEqual([ended.status, ended.last_error, ended.next_attempt_at], ['failed', 'endpoint_disabled', null]);
    await runJobNow(pending.id);
    assert.equal((await s.request('PATCH', `/v1/webhooks/${wh.id}`, { key, body: { status: 'enabled' } })).statusCode, 200);
    assert.equal((await deliveries(key, wh.id))[0].status, 'failed');
    assert.equal(sentTo('/paused', pending.id), 1);
    const retried = await s.request('POST', `/v1/webhooks/${wh.id}/deliveries/${pending.id}/retry`, { key });
    assert.equal(retried.statusCode, 200, retried.body);
    await until(async () => (await deliveries(key, wh.id))[0].status === 'succeeded');
    assert.equal(sentTo('/paused', pending.id), 2);
  });

  test('deleted: the pending delivery ends at once, endpoint_deleted, and is never sent', async () => {
    const { key } = await s.account({ credits: 10 });
    const wh = await endpoint(key, '/gone', ['*']);
    const [pending] = await pendingDeliveries(key, wh.id, 1);
    assert.equal((await s.request('DELETE', `/v1/webhooks/${wh.id}`, { key })).statusCode, 200);
    const row = await s.runtime.core.store.db.selectFrom('webhook_messages').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.last_error, row.next_attempt_at], ['failed', 'endpoint_deleted', null]);
    await runJobNow(pending.id);
    assert.equal(sentTo('/gone', pending.id), 1);
  });
});
