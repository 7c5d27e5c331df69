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
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { IP, render, UA, type LogEvent } from '../helpers/access-logs.ts';

const DAY = 86_400_000;
const CHILD = 'retention-sweep-child';
const BOTH: RetentionPolicy = { jobsDays: 30, webhookDeliveriesDays: 90, logLineHashesDays: 400 };
const OFF: RetentionPolicy = { jobsDays: 0, webhookDeliveriesDays: 0, logLineHashesDays: 0 };
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
    async function deliveries(tag: string, n: number) {
      const res = await s.request('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
      assert.equal(res.statusCode, 200, res.body);
      const endpointId = res.json().id as string;
      const out: Record<'succeeded' | 'failed' | 'pending', string[]> = { succeeded: [], failed: [], pending: [] };
      for (let i = 0; i < 3 * n; i++) {
        const eventId = await emitEvent(store.db, { accountId, type: 'credits.low', dedupeKey: `retention:${tag}:${i}`, data: { i } });
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

    test('retention off keeps everything', async () => {
      const j = await jobsInEveryState('off');
      const d = await deliveries('off', 2);
      await store.db.insertInto('site_log_lines').values({ site_id: 'site_off', line_hash: 'h-off', upload: 1, hour: '2001-01-01T00' }).execute();
      const swept = await sweepRetention(store, OFF, { now: Date.now() + 10_000 * DAY });
      assert.deepEqual(swept, { jobs: 0, webhook_messages: 0, webhook_attempts: 0, site_log_lines: 0 });
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
      });
      assert.deepEqual(retentionPolicy(c), OFF);
      assert.throws(
        () => loadConfig({ DATABASE_URL: 'sqlite::memory:', SIGHTLINE_RETAIN_JOBS_DAYS: '30d' }),
        /SIGHTLINE_RETAIN_JOBS_DAYS: must be a number of days/,
      );
      assert.deepEqual(DEFAULTS, { jobsDays: 30, webhookDeliveriesDays: 90, logLineHashesDays: 400 });
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
        const n = async (table: 'jobs' | 'webhook_messages' | 'webhook_attempts' | 'site_log_lines') =>
          Number(
            (
              await store.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        return {
          jobs: await n('jobs'),
          webhook_messages: await n('webhook_messages'),
          webhook_attempts: await n('webhook_attempts'),
          site_log_lines: await n('site_log_lines'),
        };
      };
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
      for (const table of ['jobs', 'webhook_messages', 'webhook_attempts', 'site_log_lines'] as const) {
        assert.equal(a[table] + b[table], held[table] - left[table], `${table}: ${JSON.stringify({ a, b, held, left })}`);
      }
      assert.ok(a.webhook_messages + b.webhook_messages >= 10 && a.site_log_lines + b.site_log_lines >= 40);
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
