// Webhook delivery as jobs, with more than one worker process and across a restart (a worker
// killed mid-schedule), on a real database shared by the test and `sightline worker` processes:
// every attempt made once, the retry schedule surviving a restart with the same webhook-id, the
// address policy applied again at each attempt (a DNS answer that changes to a private address
// is refused before any connection), the pinned socket lookup, secrets encrypted at rest, and
// the Slack destination's Block Kit message.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../../src/config.ts';
import { openRuntime, type Runtime } from '../../../src/server/runtime.ts';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { createEndpoint } from '../../../src/core/webhooks/endpoints.ts';
import { emitEvent } from '../../../src/core/webhooks/events.ts';
import { openSecret, sealSecret, signPayload } from '../../../src/core/webhooks/signing.ts';
import { checkOutboundTarget, parseFetchAllowlist, type HostResolver } from '../../../src/core/pages/fetch/index.ts';
import { freshDatabaseUrl } from '../../helpers/harness.ts';
import { startReceiver, until, type Receiver } from '../../helpers/webhook-receiver.ts';
import { Fleet } from '../../helpers/processes.ts';

const ENV = { SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_FETCH_ALLOW: '127.0.0.1' };

describe('webhook deliveries across workers and restarts', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let rx: Receiver;
  const runtimes: Runtime[] = [];
  const fleets: Fleet[] = [];
  const open = async (env: Record<string, string> = {}, core: Record<string, unknown> = {}) => {
    const rt = await openRuntime(loadConfig({ ...ENV, ...env, DATABASE_URL: db.url }), { core });
    runtimes.push(rt);
    return rt;
  };
  before(async () => {
    db = await freshDatabaseUrl();
    rx = await startReceiver();
  });
  after(async () => {
    for (const f of fleets) await f.stopAll();
    for (const rt of runtimes.splice(0)) await rt.close({ graceMs: 100 }).catch(() => {});
    await rx.close();
    await db.drop();
  });

  // Workers are separate processes (`sightline worker`), as deployed: SQLite connections of one
  // process would wait on each other synchronously.
  async function workers(n: number, env: Record<string, string>): Promise<Fleet> {
    const fleet = new Fleet({ ...ENV, ...env, DATABASE_URL: db.url });
    fleets.push(fleet);
    for (let i = 0; i < n; i++) fleet.start(`worker${i + 1}`, ['worker']);
    return fleet;
  }

  test('two worker processes: 120 messages, each attempt made once (a 500 first, then a 200), ids stable', async () => {
    const api = await open();
    const acct = await createAccount(api.core.store.db, 'two-workers@example.com');
    const wh = await createEndpoint(api.core.webhooks, acct.id, { url: rx.url('/two'), events: ['*'] });
    rx.answer = (_r, n) => ({ status: n === 0 ? 500 : 200 });
    const fleet = await workers(2, { SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '50ms' });
    const N = 120;
    for (let i = 0; i < N; i += 20) {
      await api.core.store.db.transaction().execute(async (trx) => {
        for (let j = i; j < i + 20; j++) await emitEvent(trx, { accountId: acct.id, type: 'credits.low', dedupeKey: `two:${j}`, data: { n: j } });
      });
    }
    // The same dedupe keys again (another process noticing the same changes): nothing new.
    for (let j = 0; j < 10; j++) assert.equal(await emitEvent(api.core.store.db, { accountId: acct.id, type: 'credits.low', dedupeKey: `two:${j}`, data: {} }), null);
    await rx.waitFor(2 * N, (r) => r.path === '/two', 90_000);
    await new Promise((r) => setTimeout(r, 500));
    const hits = rx.received.filter((r) => r.path === '/two');
    assert.equal(hits.length, 2 * N, 'one failed and one successful attempt per message, no more');
    const perId = new Map<string, number>();
    for (const h of hits) perId.set(String(h.headers['webhook-id']), (perId.get(String(h.headers['webhook-id'])) ?? 0) + 1);
    assert.equal(perId.size, N);
    assert.ok([...perId.values()].every((n) => n === 2));
    const wv = new Webhook(wh.secret!);
    assert.equal(new Set(hits.map((h) => (wv.verify(h.body, h.headers as Record<string, string>) as any).data.n)).size, N);
    const attempts = await api.core.store.db.selectFrom('webhook_attempts').select(['message_id', 'attempt', 'status_code']).execute();
    assert.equal(attempts.length, 2 * N);
    assert.ok(attempts.every((x) => (x.attempt === 1 ? x.status_code === 500 : x.status_code === 200)));
    const jobs = await api.core.store.db.selectFrom('jobs').select(['status']).where('kind', '=', 'webhook.deliver').execute();
    assert.equal(jobs.length, N);
    assert.ok(jobs.every((j) => j.status === 'done'));
    await fleet.stopAll();
    assert.deepEqual(fleet.crashed().map((p) => p.output()), []);
  });

  test('restart in the middle of the retry schedule: the worker is killed, a new one makes the next attempt, same webhook-id', async () => {
    const env = { SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '3s,3s' };
    const api = runtimes[0] ?? (await open());
    const acct = await createAccount(api.core.store.db, 'restart@example.com');
    const wh = await createEndpoint(api.core.webhooks, acct.id, { url: rx.url('/restart'), events: ['credits.low'] });
    rx.answer = (r, n) => ({ status: r.path === '/restart' && n === 0 ? 500 : 200 });
    const fleet = await workers(1, env);
    await emitEvent(api.core.store.db, { accountId: acct.id, type: 'credits.low', dedupeKey: 'restart:1', data: { available_credits: '1.00', threshold: '5.00' } });
    const [one] = await rx.waitFor(1, (r) => r.path === '/restart', 60_000);
    const message = () => api.core.store.db.selectFrom('webhook_messages').selectAll().where('endpoint_id', '=', wh.id).executeTakeFirstOrThrow();
    await until(async () => (await message()).last_status_code === 500);
    await fleet.kill(fleet.processes[0]!, 'SIGKILL');
    const pending = await message();
    assert.deepEqual([pending.status, pending.attempts, pending.last_status_code], ['pending', 1, 500]);
    fleet.start('worker-after-restart', ['worker']);
    const hits = await rx.waitFor(2, (r) => r.path === '/restart', 60_000);
    assert.equal(hits[1]!.headers['webhook-id'], one!.headers['webhook-id']);
    assert.ok(hits[1]!.at - one!.at >= 2900, 'the schedule was kept across the restart');
    assert.equal((new Webhook(wh.secret!).verify(hits[1]!.body, hits[1]!.headers as Record<string, string>) as any).type, 'credits.low');
    const done = await until(async () => {
      const m = await message();
      return m.status === 'succeeded' ? m : null;
    });
    assert.equal(done.attempts, 2);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.filter((r) => r.path === '/restart').length, 2);
    await fleet.stopAll();
  });

  test('SSRF: a host whose DNS answer turns private after the check is refused at the next attempt, before any connection', async () => {
    let answer = '127.0.0.1';
    const lookups: string[] = [];
    const lookup: HostResolver = async (host) => {
      lookups.push(host);
      return [{ address: answer, family: 4 }];
    };
    for (const old of runtimes.splice(0)) await old.close({ graceMs: 100 });
    const rt = await open({ SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '' }, { pages: { fetchOptions: { lookup } } });
    const acct = await createAccount(rt.core.store.db, 'rebind@example.com');
    const port = new URL(rx.url()).port;
    const wh = await createEndpoint(rt.core.webhooks, acct.id, { url: `http://hooks.rebind.test:${port}/rebind`, events: ['*'] });
    assert.ok(lookups.includes('hooks.rebind.test'));
    answer = '10.0.0.7'; // rebinding: the name now points inside
    rt.core.startWorker();
    await emitEvent(rt.core.store.db, { accountId: acct.id, type: 'credits.low', dedupeKey: 'rebind:1', data: {} });
    const msg = await until(async () => {
      const m = await rt.core.store.db.selectFrom('webhook_messages').selectAll().where('endpoint_id', '=', wh.id).executeTakeFirst();
      return m?.status === 'failed' ? m : null;
    });
    assert.match(msg.last_error ?? '', /^blocked_address/);
    assert.equal(rx.received.filter((r) => r.path === '/rebind').length, 0);
    await rt.close({ graceMs: 100 });
    runtimes.length = 0;
  });
});

describe('webhook pieces', () => {
  test('the socket lookup answers only the checked addresses, whatever DNS says later', async () => {
    let answer = '127.0.0.1';
    const target = await checkOutboundTarget('http://pinned.test:9/x', { allow: parseFetchAllowlist('127.0.0.1'), lookup: async () => [{ address: answer, family: 4 }] });
    answer = '10.1.2.3';
    const got = await new Promise<string>((resolve, reject) =>
      target.connectLookup('pinned.test', {}, (err, address) => (err ? reject(err) : resolve(String(address)))),
    );
    assert.equal(got, '127.0.0.1');
    const other = await new Promise<string>((resolve) => target.connectLookup('elsewhere.test', {}, (err) => resolve(String(err?.code))));
    assert.equal(other, 'ENOTFOUND');
    await assert.rejects(checkOutboundTarget('http://10.0.0.1/', {}), (e: any) => e.code === 'blocked_address');
  });

  test('signatures match the standardwebhooks package; secrets sealed with a key open only with it', () => {
    const secret = 'whsec_' + randomBytes(24).toString('base64');
    const body = JSON.stringify({ type: 'credits.low', timestamp: '2026-11-27T12:00:00Z', data: { a: 'é' } });
    const ts = Math.floor(Date.now() / 1000);
    const sig = signPayload(secret, 'msg_1', ts, body);
    assert.equal(sig, new Webhook(secret).sign('msg_1', new Date(ts * 1000), body));
    const key = randomBytes(32).toString('base64');
    const sealed = sealSecret(secret, key);
    assert.match(sealed, /^enc:v1:/);
    assert.ok(!sealed.includes(secret.slice(6)));
    assert.equal(openSecret(sealed, key), secret);
    assert.throws(() => openSecret(sealed, randomBytes(32).toString('base64')));
    assert.throws(() => openSecret(sealed, undefined));
    assert.equal(sealSecret(secret, undefined), secret);
  });
});
