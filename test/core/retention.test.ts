// The retention sweep (src/core/retention.ts) through the real server and database, on SQLite and
// Postgres: finished jobs, ended webhook deliveries (with their attempts) and log line hashes older
// than their window go; newer rows, queued and running jobs and pending deliveries stay; a log line
// older than the hash window is refused and counted (too_old_lines), so a file sent again after
// its hashes went counts nothing twice; two sweeps at once (two connections, as two worker
// processes) remove each row once; retention off keeps everything. The sweep takes its clock as
// an argument: "31 days later" is a sweep told so, nothing sleeps.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { migrationAppliedAt } from '../../src/db/migrations.ts';
import { storeOf, type Store } from '../../src/db/store.ts';
import { enqueueJobs } from '../../src/jobs/queue.ts';
import { idFloor } from '../../src/lib/ids.ts';
import { emitEvent } from '../../src/core/webhooks/events.ts';
import { ingestLog } from '../../src/core/sites/ingest.ts';
import { crawlerRanges } from '../../src/core/sites/ip-ranges.ts';
import { LOG_LINE_HOUR_MIGRATION, retentionPolicy, sweepRetention, type RetentionPolicy } from '../../src/core/retention.ts';
import { getMetrics } from '../../src/ops/metrics.ts';
import { hashKey } from '../../src/core/accounts/accounts.ts';
import { createInvite, createResetToken, describeInvite } from '../../src/core/accounts/users.ts';
import { createSession, resolveSession, revokeSession } from '../../src/core/accounts/sessions.ts';
import { listTeam } from '../../src/core/accounts/team.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { IP, render, UA, type LogEvent } from '../helpers/access-logs.ts';

const DAY = 86_400_000;
/** The tables the two-process test counts. */
const TABLES = ['jobs', 'webhook_messages', 'webhook_attempts', 'webhook_events', 'site_log_lines', 'activity', 'sessions', 'auth_tokens'] as const;
const CHILD = 'retention-sweep-child';
const BOTH: RetentionPolicy = { jobsDays: 30, webhookDeliveriesDays: 90, logLineHashesDays: 400, activityDays: 365, endedAuthDays: 1 };
const OFF: RetentionPolicy = { jobsDays: 0, webhookDeliveriesDays: 0, logLineHashesDays: 0, activityDays: 0, endedAuthDays: 0 };
const DEFAULTS = retentionPolicy(loadConfig({ DATABASE_URL: 'sqlite::memory:' }));

if (process.argv[2] === CHILD) {
  // The other process of "two sweeps at once": sweeps the same database with the same clock, prints what it removed.
  const handle = openDatabase(process.argv[3]!);
  await handle.db.selectFrom('jobs').select('id').limit(1).execute();
  // Ready (connected, modules loaded): both start on the parent's word.
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
  const removed = await sweepRetention(storeOf(handle), BOTH, { now: Number(process.argv[4]), batch: 3 });
  await handle.close();
  process.stdout.write(JSON.stringify(removed));
} else {
  describe('retention sweep', () => {
    let s: TestServer;
    let store: Store;
    let key: string;
    let accountId: string;
    before(async () => {
      // No worker: each test sweeps itself, with the clock it names.
      s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }, { worker: false });
      store = s.runtime.core.store;
      ({ key, accountId } = await s.account());
    });
    after(() => s.close());

    const ids = async (table: 'jobs' | 'webhook_messages', list: string[]) =>
      list.length ? (await store.db.selectFrom(table).select('id').where('id', 'in', list).execute()).map((r) => r.id).sort() : [];

    const emailOf = async (account: string) =>
      (await store.db.selectFrom('accounts').select('email').where('id', '=', account).executeTakeFirstOrThrow()).email;
    let oldSeq = 0;
    /** `n` activity rows of the account made `days` ago (as requests then would have), oldest first; `keyId` names who made them. */
    async function oldActivity(account: string, n: number, days: number, keyId: string | null = null) {
      const at = Date.now() - days * DAY;
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `${idFloor('act', at + i)}${String(++oldSeq).padStart(16, '0')}`,
        account_id: account,
        key_id: keyId,
        key_prefix: null,
        source: 'console',
        action: 'tests.create',
        method: 'POST',
        path: '/v1/tests',
        http_status: 200,
        status: 'ok' as const,
        credits: 0,
        request_id: `req_old_${oldSeq}`,
        created_at: new Date(at + i).toISOString(),
      }));
      await store.db.insertInto('activity').values(rows).execute();
      return rows.map((r) => r.id);
    }
    const activityIds = async (list: string[]) =>
      (await store.db.selectFrom('activity').select('id').where('id', 'in', list).execute()).map((r) => r.id).sort();

    /** Jobs in each state, made now; returns their ids by state. */
    async function jobsInEveryState(tag: string) {
      await enqueueJobs(
        store.db,
        ['done', 'failed', 'cancelled', 'queued', 'running'].map((st) => ({ kind: `test.${tag}`, lane: `lane-${tag}`, refId: st, accountId })),
      );
      const rows = await store.db.selectFrom('jobs').select(['id', 'ref_id']).where('kind', '=', `test.${tag}`).execute();
      const byState = Object.fromEntries(rows.map((r) => [r.ref_id, r.id])) as Record<string, string>;
      for (const st of ['done', 'failed', 'cancelled'] as const)
        await store.db.updateTable('jobs').set({ status: st }).where('id', '=', byState[st]!).execute();
      await store.db
        .updateTable('jobs')
        .set({ status: 'running', lease_owner: 'wrk_test', lease_until: new Date(Date.now() + 60_000).toISOString(), attempts: 1 })
        .where('id', '=', byState.running!)
        .execute();
      return byState;
    }

    test('finished jobs go once older than the window; queued and running ones never; newer ones stay', async () => {
      const j = await jobsInEveryState('a');
      const all = Object.values(j).sort();
      const policy = { ...OFF, jobsDays: 30 };
      assert.equal((await sweepRetention(store, policy, { now: Date.now() + 29 * DAY })).jobs, 0, 'not 30 days old yet');
      assert.deepEqual(await ids('jobs', all), all);
      const swept = await sweepRetention(store, policy, { now: Date.now() + 31 * DAY });
      assert.ok(swept.jobs >= 3, JSON.stringify(swept));
      assert.deepEqual(await ids('jobs', all), [j.queued!, j.running!].sort(), 'the queued and the leased job stay');
      // A job made long ago that finished recently stays for the window after it finished.
      await store.db
        .updateTable('jobs')
        .set({ status: 'done', updated_at: new Date(Date.now() + 20 * DAY).toISOString() })
        .where('id', '=', j.queued!)
        .execute();
      await sweepRetention(store, policy, { now: Date.now() + 31 * DAY });
      assert.deepEqual(await ids('jobs', all), [j.queued!, j.running!].sort());
      await sweepRetention(store, policy, { now: Date.now() + 51 * DAY });
      assert.deepEqual(await ids('jobs', all), [j.running!], 'only the running job is left');
    });

    /** An endpoint (never delivered to: no worker) and `n` deliveries per state, with attempts for the ended ones. */
    async function deliveries(tag: string, n: number, owner = { key, accountId }) {
      const res = await s.request('POST', '/v1/webhooks', { key: owner.key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
      assert.equal(res.statusCode, 200, res.body);
      const endpointId = res.json().id as string;
      const out: Record<'succeeded' | 'failed' | 'pending', string[]> = { succeeded: [], failed: [], pending: [] };
      for (let i = 0; i < 3 * n; i++) {
        const eventId = await emitEvent(store.db, { accountId: owner.accountId, type: 'credits.low', dedupeKey: `retention:${tag}:${i}`, data: { i } });
        assert.ok(eventId);
        const msg = await store.db
          .selectFrom('webhook_messages')
          .select('id')
          .where('event_id', '=', eventId)
          .where('endpoint_id', '=', endpointId)
          .executeTakeFirstOrThrow();
        const status = (['succeeded', 'failed', 'pending'] as const)[i % 3]!;
        out[status].push(msg.id);
        const now = new Date().toISOString();
        await store.db
          .insertInto('webhook_attempts')
          .values(
            [1, 2].map((attempt) => ({
              message_id: msg.id,
              attempt,
              started_at: now,
              finished_at: now,
              status_code: status === 'succeeded' && attempt === 2 ? 200 : 500,
              error: null,
              duration_ms: 5,
            })),
          )
          .execute();
        if (status !== 'pending')
          await store.db.updateTable('webhook_messages').set({ status, attempts: 2, next_attempt_at: null }).where('id', '=', msg.id).execute();
      }
      return out;
    }
    const attemptsOf = async (messageIds: string[]) =>
      Number(
        (
          await store.db
            .selectFrom('webhook_attempts')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('message_id', 'in', messageIds)
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('ended webhook deliveries go with their attempts; pending ones and the events stay', async () => {
      const d = await deliveries('a', 4);
      const all = [...d.succeeded, ...d.failed, ...d.pending];
      const policy = { ...OFF, webhookDeliveriesDays: 90 };
      assert.equal((await sweepRetention(store, policy, { now: Date.now() + 89 * DAY })).webhook_messages, 0);
      const swept = await sweepRetention(store, policy, { now: Date.now() + 91 * DAY, batch: 3 });
      assert.equal(swept.webhook_messages, 8, JSON.stringify(swept));
      assert.equal(swept.webhook_attempts, 16);
      assert.deepEqual(await ids('webhook_messages', all), [...d.pending].sort(), 'pending deliveries stay');
      assert.equal(await attemptsOf(d.pending), 8, 'with their attempts');
      assert.equal(await attemptsOf([...d.succeeded, ...d.failed]), 0);
      const events = await store.db.selectFrom('webhook_events').select('id').where('dedupe_key', 'like', 'retention:a:%').execute();
      assert.equal(events.length, 12, 'the events stay: their dedupe keys keep an event from being sent twice');
    });

    test('webhook events go once no delivery is left and no producer can make their key again (92 days)', async () => {
      // Events of an account with no endpoint have no delivery at all; 'a'-style ones have ended and pending ones.
      const { accountId: quiet } = await s.account();
      const lone = [];
      for (let i = 0; i < 3; i++)
        lone.push(await emitEvent(store.db, { accountId: quiet, type: 'credits.low', dedupeKey: `retention:ev:lone:${i}`, data: { i } }));
      const d = await deliveries('ev', 2, await s.account());
      const events = async (like: string) =>
        (await store.db.selectFrom('webhook_events').select('dedupe_key').where('dedupe_key', 'like', like).execute()).length;
      const policy = { ...OFF, webhookDeliveriesDays: 90 };
      const early = await sweepRetention(store, policy, { now: Date.now() + 91 * DAY });
      assert.equal(early.webhook_events, 0, 'not before 92 days, whatever became of their deliveries');
      assert.equal(await events('retention:ev:%'), 9);
      const swept = await sweepRetention(store, policy, { now: Date.now() + 93 * DAY, batch: 2 });
      assert.ok(swept.webhook_events >= 7, JSON.stringify(swept));
      assert.equal(await events('retention:ev:lone:%'), 0, 'no delivery ever: gone');
      const left = await store.db
        .selectFrom('webhook_events')
        .innerJoin('webhook_messages', 'webhook_messages.event_id', 'webhook_events.id')
        .select(['webhook_messages.id', 'webhook_messages.status'])
        .where('webhook_events.dedupe_key', 'like', 'retention:ev:%')
        .execute();
      assert.deepEqual(left.map((r) => r.id).sort(), [...d.pending].sort(), 'an event with a pending delivery stays, and only those');
      assert.equal(await events('retention:ev:%'), 2);
      // With deliveries kept for good the events are too (a delivery in the log names its event).
      await emitEvent(store.db, { accountId: quiet, type: 'credits.low', dedupeKey: 'retention:ev:kept', data: {} });
      assert.equal((await sweepRetention(store, { ...OFF, webhookDeliveriesDays: 0 }, { now: Date.now() + 1000 * DAY })).webhook_events, 0);
      assert.equal(await events('retention:ev:kept'), 1);
    });

    test('sessions, sign-in links and failed sign-in counts go a day after they ended; live ones and last seen stay', async () => {
      const { accountId: acct } = await s.account();
      const email = await emailOf(acct);
      const policy = { ...OFF, endedAuthDays: 1 };
      const t0 = Date.now();
      // Links: A is ended by B (a newer reset link for the same email); B lives an hour; C, an invitation, a week.
      const a = (await createResetToken(store, email))!.token;
      const b = (await createResetToken(store, email))!.token;
      const c = (await createInvite(store, 'open', `invitee-${acct}@example.com`, 0, 'usr_none')).token;
      const user = await store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const tokens = async () =>
        (await store.db.selectFrom('auth_tokens').select('token_hash').where('token_hash', 'in', [a, b, c].map(hashKey)).execute())
          .map((r) => r.token_hash)
          .sort();
      // Sessions: one signed out, one unused for a week in an hour (it ends then), one in use; and a person whose only session ended long ago.
      const out = await createSession(store.db, user.id, 'test');
      await revokeSession(store.db, out.sessionId);
      const idle = await createSession(store.db, user.id, 'test');
      await store.db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(t0 - 7 * DAY + 3_600_000).toISOString() })
        .where('id', '=', idle.sessionId)
        .execute();
      const live = await createSession(store.db, user.id, 'test');
      const sessions = async () => (await store.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).map((r) => r.id).sort();
      // Failed sign-ins: a count from two days ago whose lock ended, and one from now.
      await store.db
        .insertInto('login_throttle')
        .values([
          {
            email: `old-${acct}@example.com`,
            failures: 5,
            window_started_at: new Date(t0 - 2 * DAY).toISOString(),
            locked_until: new Date(t0 - 2 * DAY + 900_000).toISOString(),
          },
          { email: `new-${acct}@example.com`, failures: 2, window_started_at: new Date(t0).toISOString(), locked_until: null },
        ])
        .execute();

      // Within the day after they ended: everything stays; the live link and session still work.
      const within = await sweepRetention(store, policy, { now: t0 + 20 * 3_600_000 });
      assert.deepEqual([within.auth_tokens, within.sessions], [0, 0], JSON.stringify(within));
      assert.equal((await tokens()).length, 3);
      assert.equal(within.login_throttle >= 1, true, 'the count from two days ago');
      const throttled = await store.db.selectFrom('login_throttle').select('email').where('email', 'like', `%-${acct}@example.com`).execute();
      assert.deepEqual(
        throttled.map((r) => r.email),
        [`new-${acct}@example.com`],
      );

      // A day and an hour on: the ended link A, the expired link B, the signed-out and the idle session go.
      const later = await sweepRetention(store, policy, { now: t0 + 25 * 3_600_000 + 60_000 });
      assert.ok(later.auth_tokens >= 2 && later.sessions >= 2, JSON.stringify(later));
      assert.deepEqual(await tokens(), [hashKey(c)], 'the invitation is still live');
      assert.deepEqual(await sessions(), [live.sessionId]);
      assert.equal((await resolveSession(store.db, live.token))?.sessionId, live.sessionId, 'the session in use still signs in');
      assert.equal((await describeInvite(store.db, c)).email, `invitee-${acct}@example.com`, 'the invitation still opens');

      // Past every expiry: the invitation goes; the person's newest session stays, ended, for "last seen".
      await sweepRetention(store, policy, { now: t0 + 40 * DAY });
      assert.deepEqual(await tokens(), []);
      assert.deepEqual(await sessions(), [live.sessionId]);
      assert.equal((await listTeam(store.db, acct)).people.find((p) => p.id === user.id)?.last_active_at !== null, true, 'last active still known');
    });

    test('activity older than the window goes; a cursor into removed rows reads on; a removed person goes with their rows', async () => {
      const { key: k, accountId: acct } = await s.account();
      const old = await oldActivity(acct, 5, 400, 'usr_leftlongago');
      await store.db
        .insertInto('removed_users')
        .values({ user_id: 'usr_leftlongago', account_id: acct, email: 'left@long.example', removed_at: new Date(Date.now() - 399 * DAY).toISOString() })
        .execute();
      await store.db
        .insertInto('removed_users')
        .values({ user_id: 'usr_leftrecently', account_id: acct, email: 'left@recent.example', removed_at: new Date().toISOString() })
        .execute();
      const young = await oldActivity(acct, 2, 300);
      assert.equal((await s.request('GET', '/v1/usage', { key: k })).statusCode, 200, 'a request of today');
      // A client paging through holds a cursor into the old rows.
      const cursor = old[3]!;
      const before = await s.request('GET', `/v1/activity?limit=100&starting_after=${cursor}`, { key: k });
      assert.equal(before.statusCode, 200, before.body);
      assert.deepEqual(
        before.json().items.map((i: { id: string; user_email: string | null }) => [i.id, i.user_email]),
        old
          .slice(0, 3)
          .reverse()
          .map((id) => [id, 'left@long.example']),
      );

      const swept = await sweepRetention(store, { ...OFF, activityDays: 365 }, { batch: 2 });
      assert.ok(swept.activity >= 5, JSON.stringify(swept));
      assert.deepEqual(await activityIds(old), [], 'older than 365 days: gone');
      assert.deepEqual(await activityIds(young), [...young].sort(), '300 days old: kept');
      const all = (await s.request('GET', '/v1/activity?limit=100', { key: k })).json();
      assert.ok(
        all.items.some((i: { action: string }) => i.action === 'usage.read'),
        "today's request is there",
      );
      assert.ok(!all.items.some((i: { id: string }) => old.includes(i.id)));
      // The cursor's row is gone: the page after it is what is older still (nothing), not an error.
      const after = await s.request('GET', `/v1/activity?limit=100&starting_after=${cursor}`, { key: k });
      assert.equal(after.statusCode, 200, after.body);
      assert.deepEqual([after.json().items, after.json().has_more, after.json().next_starting_after], [[], false, null]);
      // A cursor that never was one, or one of today that is not this account's, is still refused.
      for (const bad of ['act_zzzzzzzzzz0000000000000000', 'act_nope', young[0]!.replace(/.$/, 'z'), `${idFloor('act', Date.now())}0000000000000000`]) {
        const res = await s.request('GET', `/v1/activity?starting_after=${bad}`, { key: k });
        assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
        assert.equal(res.json().detail.error, 'invalid_cursor');
      }
      // The person removed long ago, whose rows are gone, goes; one removed today stays.
      const removed = (await store.db.selectFrom('removed_users').select('user_id').where('account_id', '=', acct).execute()).map((r) => r.user_id);
      assert.deepEqual(removed, ['usr_leftrecently']);
      assert.ok(swept.removed_users >= 1);
    });

    test('a removed person stays while the account still holds activity from before the window', async () => {
      const { accountId: acct } = await s.account();
      const old = await oldActivity(acct, 3, 400, 'usr_notyet');
      await store.db
        .insertInto('removed_users')
        .values({ user_id: 'usr_notyet', account_id: acct, email: 'not@yet.example', removed_at: new Date(Date.now() - 399 * DAY).toISOString() })
        .execute();
      // One statement of 1 row: the sweep stops with rows of the account still there.
      const first = await sweepRetention(store, { ...OFF, activityDays: 365 }, { batch: 1, maxBatches: 1 });
      assert.equal(first.activity, 1, JSON.stringify(first));
      assert.equal((await activityIds(old)).length, 2);
      assert.ok(
        await store.db.selectFrom('removed_users').select('user_id').where('user_id', '=', 'usr_notyet').executeTakeFirst(),
        'kept: their rows are not all gone',
      );
      await sweepRetention(store, { ...OFF, activityDays: 365 });
      assert.equal(await store.db.selectFrom('removed_users').select('user_id').where('user_id', '=', 'usr_notyet').executeTakeFirst(), undefined);
    });

    test('retention off keeps everything', async () => {
      const j = await jobsInEveryState('off');
      const d = await deliveries('off', 2);
      await store.db.insertInto('site_log_lines').values({ site_id: 'site_off', line_hash: 'h-off', upload: 1, hour: '2001-01-01T00' }).execute();
      const old = await oldActivity(accountId, 2, 400);
      const { token } = (await createResetToken(store, await emailOf(accountId)))!;
      const swept = await sweepRetention(store, OFF, { now: Date.now() + 10_000 * DAY });
      assert.equal(Object.keys(swept).length, 10);
      assert.ok(
        Object.values(swept).every((n) => n === 0),
        JSON.stringify(swept),
      );
      assert.equal((await activityIds(old)).length, 2);
      assert.ok(await store.db.selectFrom('auth_tokens').select('id').where('token_hash', '=', hashKey(token)).executeTakeFirst());
      assert.equal((await ids('jobs', Object.values(j))).length, 5);
      assert.equal((await ids('webhook_messages', [...d.succeeded, ...d.failed, ...d.pending])).length, 6);
      assert.ok(await store.db.selectFrom('site_log_lines').select('line_hash').where('site_id', '=', 'site_off').executeTakeFirst());
      await store.db.deleteFrom('site_log_lines').where('site_id', '=', 'site_off').execute();
      // `off` and 0 both mean it; anything else but days is refused at start.
      const c = loadConfig({
        DATABASE_URL: 'sqlite::memory:',
        SIGHTLINE_RETAIN_JOBS_DAYS: 'off',
        SIGHTLINE_RETAIN_WEBHOOK_DELIVERIES_DAYS: '0',
        SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS: 'OFF',
        SIGHTLINE_RETAIN_ACTIVITY_DAYS: 'off',
      });
      assert.deepEqual(retentionPolicy(c), { ...OFF, endedAuthDays: 1 }, 'ended sessions and links have no setting: a day');
      assert.throws(
        () => loadConfig({ DATABASE_URL: 'sqlite::memory:', SIGHTLINE_RETAIN_JOBS_DAYS: '30d' }),
        /SIGHTLINE_RETAIN_JOBS_DAYS: must be a number of days/,
      );
      assert.deepEqual(DEFAULTS, { jobsDays: 30, webhookDeliveriesDays: 90, logLineHashesDays: 400, activityDays: 365, endedAuthDays: 1 });
    });

    const newSite = async (domain: string) => {
      const res = await s.request('POST', '/v1/sites', { key, body: { domain } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as { id: string; domain: string };
    };
    const hit = (domain: string, time: number, path: string): LogEvent => ({
      ip: IP.gptbot,
      time,
      method: 'GET',
      host: domain,
      path,
      status: 200,
      ua: UA.gptbot,
    });
    const hashes = async (siteId: string) =>
      (await store.db.selectFrom('site_log_lines').select(['line_hash', 'hour']).where('site_id', '=', siteId).execute()).sort((a, b) =>
        a.line_hash.localeCompare(b.line_hash),
      );

    test('an upload does not count lines older than the hash window, and says how many (too_old_lines)', async () => {
      const site = await newSite('old-lines.example');
      const now = Date.now();
      const recent = [1, 2, 3].map((i) => hit(site.domain, now - i * 3_600_000, `/recent/${i}`));
      const old = [hit(site.domain, now - 401 * DAY, '/old/1'), hit(site.domain, now - 500 * DAY, '/old/2')];
      const body = [...recent, ...old].map(render.combined).join('\n') + '\n';
      const first = await s.request('POST', `/v1/sites/${site.id}/logs`, { key, body, headers: { 'content-type': 'text/plain' } });
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(
        [first.json().parsed, first.json().ai_crawler_hits, first.json().too_old_lines, first.json().duplicates, first.json().future_lines],
        [5, 3, 2, 0, 0],
      );
      assert.equal(Date.parse(first.json().from), Math.floor((now - 500 * DAY) / 1000) * 1000, 'from still says what was read');
      const stored = await hashes(site.id);
      assert.equal(stored.length, 3, 'no hash for a line not counted');
      assert.deepEqual(
        stored.map((h) => h.hour).sort(),
        recent.map((e) => new Date(e.time).toISOString().slice(0, 13)).sort(),
        'each hash carries its line hour',
      );
      // Sent again: the recent lines are duplicates, the old ones too old again; nothing counts twice.
      const again = (await s.request('POST', `/v1/sites/${site.id}/logs`, { key, body, headers: { 'content-type': 'text/plain' } })).json();
      assert.deepEqual([again.ai_crawler_hits, again.duplicates, again.too_old_lines], [0, 3, 2]);
      const report = (await s.request('GET', `/v1/sites/${site.id}/crawlers?days=365`, { key })).json();
      assert.equal(
        report.crawlers.reduce((n: number, c: { hits: number }) => n + c.hits, 0),
        3,
      );
    });

    test('with hashes kept for good every line counts, however old', async () => {
      const off = await startTestServer({ SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS: 'off' }, { worker: false });
      try {
        const { key: k } = await off.account();
        const site = (await off.request('POST', '/v1/sites', { key: k, body: { domain: 'keep.example' } })).json();
        const body = [hit('keep.example', Date.now() - 3000 * DAY, '/ancient'), hit('keep.example', Date.now() - 3_600_000, '/new')]
          .map(render.combined)
          .join('\n');
        const res = (await off.request('POST', `/v1/sites/${site.id}/logs`, { key: k, body, headers: { 'content-type': 'text/plain' } })).json();
        assert.deepEqual([res.ai_crawler_hits, res.too_old_lines], [2, 0]);
        assert.deepEqual(
          (await sweepRetention(off.runtime.core.store, retentionPolicy(off.runtime.core.config), { now: Date.now() + 9000 * DAY })).site_log_lines,
          0,
        );
      } finally {
        await off.close();
      }
    });

    test('hashes go by their line hour; the same file read after that counts nothing twice', async () => {
      const site = await newSite('sweep-lines.example');
      const t0 = Date.now();
      // Lines of two days, 10 days apart.
      const early = [1, 2, 3, 4].map((i) => hit(site.domain, t0 - 12 * DAY - i * 60_000, `/early/${i}`));
      const late = [1, 2].map((i) => hit(site.domain, t0 - 2 * DAY - i * 60_000, `/late/${i}`));
      const text = [...early, ...late].map(render.combined).join('\n');
      const read = (now: number, retainDays = 30) =>
        ingestLog(store, site, Readable.from([Buffer.from(text)]), { format: 'auto', ranges: crawlerRanges(), retainDays, now: () => now });
      const first = await read(t0);
      assert.deepEqual([first.ai_crawler_hits, first.too_old_lines], [6, 0]);
      const policy = { ...OFF, logLineHashesDays: 30 };
      // 20 days later the early lines are 32 days old: their hashes go, the late ones' stay.
      const later = t0 + 20 * DAY;
      assert.equal((await sweepRetention(store, policy, { now: later })).site_log_lines, 4);
      assert.equal((await hashes(site.id)).length, 2);
      // The file sent again then: the early lines are refused as too old, the late ones are duplicates.
      const again = await read(later);
      assert.deepEqual([again.ai_crawler_hits, again.too_old_lines, again.duplicates], [0, 4, 2]);
      // A window made longer since, or turned off, does not bring the removed hashes back: the
      // server remembers how far back it removed them, and still refuses those lines.
      for (const days of [400, 0]) {
        const r = await read(later, days);
        assert.deepEqual([r.ai_crawler_hits, r.too_old_lines, r.duplicates], [0, 4, 2], `window ${days}`);
      }
      // A line inside the last hour before the cutoff keeps its hash (an upload still reading may count it).
      const edge = hit(site.domain, later - 30 * DAY + 10 * 60_000, '/edge');
      const e = await ingestLog(store, site, Readable.from([Buffer.from(render.combined(edge))]), {
        format: 'auto',
        ranges: crawlerRanges(),
        retainDays: 30,
        now: () => later,
      });
      assert.equal(e.ai_crawler_hits, 1);
      assert.equal(
        (await sweepRetention(store, policy, { now: later + 30 * 60_000 })).site_log_lines,
        0,
        'not before its hour ended an hour before the cutoff',
      );
      assert.equal((await sweepRetention(store, policy, { now: later + 3 * 3_600_000 })).site_log_lines, 1);
    });

    test('hashes counted before migration 0026 (no hour) go once the upgrade is a day older than the window', async () => {
      await store.db
        .insertInto('site_log_lines')
        .values([1, 2, 3].map((i) => ({ site_id: 'site_legacy', line_hash: `legacy-${i}`, upload: null, hour: null })))
        .execute();
      const upgraded = Date.parse((await migrationAppliedAt(store.db, LOG_LINE_HOUR_MIGRATION))!);
      const legacy = async () => (await store.db.selectFrom('site_log_lines').select('line_hash').where('site_id', '=', 'site_legacy').execute()).length;
      const policy = { ...OFF, logLineHashesDays: 30 };
      await sweepRetention(store, policy, { now: upgraded + 30 * DAY });
      assert.equal(await legacy(), 3, 'kept while the upgrade is not a day past the window');
      await sweepRetention(store, policy, { now: upgraded + 31 * DAY + 60_000, batch: 2 });
      assert.equal(await legacy(), 0);
      // These sweeps ran 31 days past the upgrade, so uploads now refuse every line before then: the
      // mark is set back for the tests that follow (a server's clock never goes back).
      await store.db.deleteFrom('retention_marks').execute();
    });

    test('two sweeps at once, in two processes, remove each row once', async () => {
      const j = [];
      for (let i = 0; i < 4; i++) j.push(...Object.values(await jobsInEveryState(`two${i}`)));
      const d = await deliveries('two', 5);
      const site = await newSite('two-sweeps.example');
      const lines = Array.from({ length: 40 }, (_, i) => hit(site.domain, Date.now() - 3_600_000 - i * 1000, `/two/${i}`));
      const up = await s.request('POST', `/v1/sites/${site.id}/logs`, {
        key,
        body: lines.map(render.combined).join('\n'),
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(up.json().ai_crawler_hits, 40);
      const now = Date.now() + 402 * DAY;
      const rows = async () => {
        const n = async (table: (typeof TABLES)[number]) =>
          Number(
            (
              await store.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await n(t)] as const))) as Record<(typeof TABLES)[number], number>;
      };
      // Activity (old and of today), sessions and links of a person, all past their window by then.
      await oldActivity(accountId, 30, 10);
      await s.runtime.core.activity.flush();
      const email = await emailOf(accountId);
      for (let i = 0; i < 4; i++) await createResetToken(store, email);
      const person = await store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      for (let i = 0; i < 5; i++) await createSession(store.db, person.id, 'two');
      const held = await rows();
      // The other worker process: the same sweep, started at the same time, in a child.
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD, s.runtime.core.config.DATABASE_URL, String(now)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      let out = '';
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (c) => {
          out += c;
          if (out.startsWith('ready\n')) resolve();
        }),
      );
      child.stdin.end('go\n');
      const a = await sweepRetention(store, BOTH, { now, batch: 3 });
      assert.equal(await exited, 0);
      const b = JSON.parse(out.slice('ready\n'.length)) as typeof a;
      // Each row was removed by one of them: the two counts add up to what left the tables.
      const left = await rows();
      for (const table of TABLES) {
        assert.equal(a[table] + b[table], held[table] - left[table], `${table}: ${JSON.stringify({ a, b, held, left })}`);
      }
      assert.ok(a.webhook_messages + b.webhook_messages >= 10 && a.site_log_lines + b.site_log_lines >= 40);
      assert.ok(a.activity + b.activity >= 30 && a.sessions + b.sessions === 4 && a.auth_tokens + b.auth_tokens >= 4, JSON.stringify({ a, b }));
      assert.equal((await hashes(site.id)).length, 0);
      assert.deepEqual((await ids('jobs', j)).length, 8, 'the queued and running job of each set');
      assert.deepEqual(await ids('webhook_messages', [...d.succeeded, ...d.failed, ...d.pending]), [...d.pending].sort());
      const third = await sweepRetention(store, BOTH, { now });
      assert.deepEqual([third.jobs, third.webhook_messages, third.site_log_lines], [0, 0, 0], 'nothing left for a third');
    });
  });

  describe('retention sweep in the worker', () => {
    test('a worker sweeps at its start and counts what it removed in the metrics', async () => {
      const s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_RETAIN_JOBS_DAYS: '2' }, { worker: false });
      try {
        const store = s.runtime.core.store;
        // A job finished three days ago: its id and last change say so.
        const old = Date.now() - 3 * DAY;
        const id = `${idFloor('job', old)}0000000000000001`;
        const at = new Date(old).toISOString();
        await store.db
          .insertInto('jobs')
          .values({
            id,
            kind: 'test.old',
            lane: 'old',
            ref_id: 'x',
            account_id: null,
            status: 'done',
            attempts: 1,
            max_attempts: 5,
            run_after: at,
            lease_owner: null,
            lease_until: null,
            last_error: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
        const before = await removedJobsMetric();
        s.runtime.core.startWorker();
        for (let i = 0; i < 500 && (await removedJobsMetric()) < before + 1; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(await store.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst(), undefined, 'the old job is gone');
        assert.ok((await removedJobsMetric()) >= before + 1);
      } finally {
        await s.close();
      }
    });
  });

  async function removedJobsMetric(): Promise<number> {
    const text = await getMetrics().render();
    const m = /^sightline_retention_removed_rows_total\{table="jobs"\} (\d+)/m.exec(text);
    return m ? Number(m[1]) : 0;
  }
}
