// A run read again and again (a client polling it) reuses the rows of finished probes, the
// per-prompt entries built from them and a finished run's whole summary. These tests hold every
// read of the server to what a second connection, with nothing kept, reads of the same run at
// the same moment: before the run starts, while it runs, after it ends, on the single read and
// in the list, and in the JSON the server writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { openDatabase } from '../../src/db/connection.ts';
import { storeOf, type Store } from '../../src/db/store.ts';
import { getVisibilityRun, listVisibilityRuns } from '../../src/core/visibility/read.ts';
import { readRunProbes, RUN_PROBE_COLUMNS } from '../../src/core/visibility/run-probes.ts';
import { sql } from 'kysely';

describe('visibility run reads keep what cannot change, and only that', () => {
  let s: TestServer;
  let other: { store: Store; close(): Promise<void> };
  before(async () => {
    s = await startTestServer({}, { worker: false });
    const handle = openDatabase(s.runtime.core.config.DATABASE_URL);
    other = { store: storeOf(handle), close: () => handle.close() };
  });
  after(async () => {
    await other.close();
    await s.close();
  });

  /** The server's answer (as JSON it wrote) and a cold read over a connection that kept nothing. */
  async function both(key: string, accountId: string, runId: string) {
    const served = (await s.request('GET', `/v1/visibility/runs/${runId}`, { key })).json();
    const listed = (await s.request('GET', '/v1/visibility/runs?limit=1', { key })).json().runs[0];
    const cold = JSON.parse(JSON.stringify(await getVisibilityRun(other.store, accountId, runId)));
    const coldList = JSON.parse(JSON.stringify((await listVisibilityRuns(other.store, accountId, { limit: 1 })).runs[0]));
    return { served, listed, cold, coldList };
  }

  test('before, during and after the run, every read equals a cold read of the same state', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const body = {
      url: 'https://www.acme.example/crm',
      target_entity: 'Acme CRM',
      competitors: ['Globex', 'Initech'],
      prompts: ['best crm for startups', 'top sales tools', 'crm with the best reviews', 'slow crm question [[sandbox:delay=4000]]'],
      platforms: ['openai', 'perplexity', 'claude'],
    };
    const created = (await s.request('POST', '/v1/visibility/runs', { key, body })).json();
    const runId = created.run_id;

    const queued = await both(key, accountId, runId);
    assert.equal(queued.served.status, 'queued');
    assert.deepEqual(queued.served, queued.cold);
    assert.deepEqual(queued.listed, queued.coldList);

    s.runtime.core.startWorker();
    // Mid-run: the fast probes have finished, the slow prompt's are still being answered. A pair
    // of reads that raced a probe finishing (its counts, or its credits: a read takes the ledger
    // after the probes) is taken again.
    let checkedRunning = false;
    for (let i = 0; i < 200 && !checkedRunning; i++) {
      const r = await both(key, accountId, runId);
      if (r.served.status === 'running' && r.served.probe_counts.succeeded >= 3) {
        const moment = (x: { probe_counts: unknown; billing: unknown }) => JSON.stringify([x.probe_counts, x.billing]);
        if (moment(r.served) !== moment(r.cold) || moment(r.listed) !== moment(r.coldList) || moment(r.served) !== moment(r.listed)) continue;
        assert.deepEqual(r.served, r.cold);
        assert.deepEqual(r.listed, r.coldList);
        assert.ok(r.served.summary.by_prompt.length === 4);
        checkedRunning = true;
      }
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.ok(checkedRunning, 'a read while the run was running');

    await s.waitForRun(key, runId, 30_000);
    for (let i = 0; i < 3; i++) {
      const done = await both(key, accountId, runId);
      assert.equal(done.served.status, 'completed');
      assert.equal(done.served.probe_counts.succeeded, 12);
      assert.deepEqual(done.served, done.cold);
      assert.deepEqual(done.listed, done.coldList);
      assert.equal(typeof done.served.summary.citation_sources.citation_count, 'number');
    }
    // With the probes and their answers, the kept summary is the same.
    const full = (await s.request('GET', `/v1/visibility/runs/${runId}?include_results=true`, { key })).json();
    const fullCold = JSON.parse(JSON.stringify(await getVisibilityRun(other.store, accountId, runId, { includeResults: true })));
    assert.deepEqual(full, fullCold);
    assert.equal(full.probes.length, 12);
  });

  test('a run over several places and surfaces: by prompt, locations and the comparison equal a cold read, running, done and cancelled', async () => {
    const { key, accountId } = await s.account({ credits: 1000 });
    const body = {
      url: 'https://www.acme.example/crm',
      target_entity: 'Acme CRM',
      competitors: ['Globex', 'Initech'],
      // Places: copilot answers from nowhere, openai and gemini for the country, the Google surfaces for the city.
      platforms: ['openai', 'gemini', 'chatgpt_app', 'copilot', 'google_ai_overview', 'google_ai_mode'],
      country: 'DE',
      city: 'Munich',
    };
    const same = (r: Awaited<ReturnType<typeof both>>) => {
      assert.deepEqual(r.served, r.cold);
      assert.deepEqual(r.listed, r.coldList);
    };
    /** Reads until the served and the cold read saw the same moment and `when` holds of it; false if it never did. */
    const readWhen = async (runId: string, when: (run: any) => boolean) => {
      for (let i = 0; i < 200; i++) {
        const r = await both(key, accountId, runId);
        const moment = (x: { probe_counts: unknown; billing: unknown }) => JSON.stringify([x.probe_counts, x.billing]);
        if (when(r.served) && moment(r.served) === moment(r.cold) && moment(r.listed) === moment(r.coldList) && moment(r.served) === moment(r.listed)) return r;
        await new Promise((res) => setTimeout(res, 50));
      }
      return null;
    };
    const runId = (
      await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, prompts: ['best crm for startups', 'top sales tools', 'slow crm question [[sandbox:delay=4000]]'] } })
    ).json().run_id;
    const running = await readWhen(runId, (r) => r.status === 'running' && r.probe_counts.succeeded >= 6 && (r.summary.surface_comparison?.length ?? 0) > 0);
    assert.ok(running, 'a read while the run was running, with a comparison');
    same(running);
    await s.waitForRun(key, runId, 30_000);
    const done = await both(key, accountId, runId);
    assert.equal(done.served.status, 'completed');
    same(done);
    assert.equal(done.served.summary.surface_comparison.length, 4);
    assert.ok(done.served.summary.locations.length >= 3, JSON.stringify(done.served.summary.locations));
    assert.deepEqual(await both(key, accountId, runId), done, 'read again: the same');

    // Cancelled with the slow prompt's probes still running: the cancelled probes end the prefix.
    const cancelledId = (
      await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, prompts: ['cheap crm', 'slow one [[sandbox:delay=3000]]', 'slow two [[sandbox:delay=3000]]'] } })
    ).json().run_id;
    const before = await readWhen(cancelledId, (r) => r.probe_counts.succeeded >= 6);
    assert.ok(before, 'a read once the fast prompt was answered');
    same(before);
    const cancel = await s.request('POST', `/v1/visibility/runs/${cancelledId}/cancel`, { key });
    assert.ok(cancel.statusCode < 300, cancel.body);
    assert.equal((await s.waitForRun(key, cancelledId, 30_000)).status, 'cancelled');
    for (let i = 0; i < 2; i++) same(await both(key, accountId, cancelledId));
  });

  test('a cancelled run: the cancel is seen at once, and its cancelled probes are kept as finished', async () => {
    const { key, accountId } = await s.account({ credits: 100 });
    const created = (
      await s.request('POST', '/v1/visibility/runs', {
        key,
        body: {
          url: 'https://www.acme.example/',
          target_entity: 'Acme',
          prompts: ['a [[sandbox:delay=3000]]', 'b [[sandbox:delay=3000]]'],
          platforms: ['grok'],
        },
      })
    ).json();
    // The worker runs (the first test started it), so it may start the run between the served
    // read and the cold one: a pair that saw two different states is taken again.
    let before = await both(key, accountId, created.run_id);
    for (let i = 0; i < 20 && JSON.stringify([before.served.status, before.served.probe_counts]) !== JSON.stringify([before.cold.status, before.cold.probe_counts]); i++) {
      before = await both(key, accountId, created.run_id);
    }
    assert.deepEqual(before.served, before.cold);
    const cancel = await s.request('POST', `/v1/visibility/runs/${created.run_id}/cancel`, { key });
    assert.ok(cancel.statusCode < 300, cancel.body);
    const run = await s.waitForRun(key, created.run_id, 30_000);
    assert.equal(run.status, 'cancelled');
    const afterCancel = await both(key, accountId, created.run_id);
    assert.deepEqual(afterCancel.served, afterCancel.cold);
    assert.deepEqual(afterCancel.listed, afterCancel.coldList);
  });

  test('queued probes are reused only while unchanged: started, counted, put back, finished', async () => {
    await s.runtime.core.startedWorker?.stop(1000); // the rows change here only as this test writes them
    const { key } = await s.account({ credits: 100 });
    const body = {
      url: 'https://www.acme.example/crm',
      target_entity: 'Acme CRM',
      prompts: ['best crm', 'top crm', 'cheap crm'],
      platforms: ['openai', 'claude'],
    };
    const runId = (await s.request('POST', '/v1/visibility/runs', { key, body })).json().run_id;
    const db = s.runtime.core.store.db;
    const cold = async () =>
      (
        await sql<
          Record<string, unknown>
        >`select ${sql.join(RUN_PROBE_COLUMNS.map((c) => sql.ref(c)))} from visibility_probes where run_id = ${runId} order by seq`.execute(other.store.db)
      ).rows;
    const same = async (what: string) => assert.deepEqual(await readRunProbes(db, runId), await cold(), what);
    await same('all queued');
    const first = await readRunProbes<Record<string, unknown>>(db, runId);
    const again = await readRunProbes<Record<string, unknown>>(db, runId);
    assert.ok(
      again.every((r, i) => r === first[i]),
      'unchanged queued rows are the kept objects',
    );
    const [a, b, c] = first.map((r) => r.id as string);
    await sql`update visibility_probes set status = 'running', started_at = '2026-11-28T03:00:00.000Z', attempts = attempts + 1 where id = ${a}`.execute(db);
    await same('one started and counted');
    // Put back in the queue (shutdown): queued again, with its count.
    await sql`update visibility_probes set status = 'queued', started_at = null where id = ${a}`.execute(db);
    await same('one put back');
    // Resumed from a checkpoint (marked running, not counted), then put back: the same row as before.
    await sql`update visibility_probes set status = 'running', started_at = '2026-11-28T03:00:01.000Z' where id = ${b}`.execute(db);
    await same('one resumed');
    await sql`update visibility_probes set status = 'queued', started_at = null where id = ${b}`.execute(db);
    await same('one resumed and put back');
    await sql`update visibility_probes set status = 'errored', error_code = 'provider_failed', completed_at = '2026-11-28T03:00:02.000Z' where id = ${c}`.execute(
      db,
    );
    await same('one finished');
    await sql`update visibility_probes set status = 'cancelled', completed_at = '2026-11-28T03:00:03.000Z' where run_id = ${runId} and status = 'queued'`.execute(
      db,
    );
    await same('the rest cancelled');
  });
});
