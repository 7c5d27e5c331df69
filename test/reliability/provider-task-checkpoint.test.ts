// A consumer probe served by DataForSEO's task flow (post a task, wait until it is ready, fetch
// it) pays when the task is posted. The posted task's id is checkpointed on the probe before the
// wait, so a worker SIGKILLed while its probe waits leaves the task behind, and the worker that
// takes the probe over resumes that task: it fetches the same task and posts nothing. The wait
// itself holds no lane slot: with a lane of one, every probe's task is posted before the first
// one is ready. Provider calls are counted at the fake DataForSEO's HTTP boundary.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeDataForSeo } from '../fakes/providers/consumer.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { Fleet } from '../helpers/processes.ts';
import { getBalance, ledgerBalance } from '../../src/core/billing/ledger.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

type Fake = Awaited<ReturnType<typeof startFakeDataForSeo>>;
const posts = (fake: Fake) => fake.requests.filter((r) => r.path.endsWith('/task_post'));
const fetches = (fake: Fake) => fake.requests.filter((r) => r.path.includes('/task_get/advanced/'));

async function createRun(s: TestServer, key: string, prompts: string[]) {
  const res = await s.request('POST', '/v1/visibility/runs', {
    key,
    body: { url: 'https://acme.example/', target_entity: 'Acme Anvils', competitors: ['Globex'], prompts, platforms: ['chatgpt_app'] },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().run_id as string;
}

async function assertLedgerWhole(s: TestServer, accountId: string, granted: number) {
  const balance = await getBalance(s.runtime.core.store.db, accountId);
  assert.equal(balance.reserved, 0, 'nothing left reserved');
  assert.equal(balance.granted, granted);
  assert.equal(balance.available + balance.settled, granted);
  assert.deepEqual(await ledgerBalance(s.runtime.core.store.db, accountId), balance, 'totals equal the ledger rows');
}

describe('a probe waiting on a provider task', () => {
  let fake: Fake;
  let s: TestServer;
  let env: Record<string, string>;
  /** How long a task takes to be ready: long enough that a worker is killed, or the lane's next probes start, while it waits. */
  let taskMs = 3000;

  before(async () => {
    fake = await startFakeDataForSeo({ taskLatencyMs: () => taskMs });
    env = {
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      // The worker processes' key check at start would be one more request to the fake, counted here.
      SIGHTLINE_CHECK_KEYS_AT_START: 'off',
      SIGHTLINE_DATAFORSEO_POLL_MS: '50',
      SIGHTLINE_PROBE_MAX_ATTEMPTS: '1',
      // Long enough that a loaded machine never loses a lease mid-wait (a lost lease is a third
      // claim); a takeover is made by expiring the dead worker's lease below.
      SIGHTLINE_JOB_LEASE_MS: '30000',
      // One in flight on the lane: a wait that held its slot would make the posts one at a time.
      SIGHTLINE_CHATGPT_APP_CONCURRENCY: '1',
      ...fake.env,
    };
    s = await startTestServer(env, { worker: false });
  });
  after(async () => {
    await s.close();
    await fake.close();
  });

  test('a worker SIGKILLed mid-wait: the takeover resumes the recorded task and posts nothing', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const runId = await createRun(s, key, ['Which companies make the best anvils?']);
    const { db } = s.runtime.core.store;
    const probe = () => db.selectFrom('visibility_probes').select(['id', 'status', 'attempts', 'checkpoint']).where('run_id', '=', runId).executeTakeFirstOrThrow();
    const job = async () => db.selectFrom('jobs').select(['status', 'attempts', 'waiting']).where('ref_id', '=', (await probe()).id).executeTakeFirstOrThrow();

    const fleet = new Fleet({ ...env, DATABASE_URL: s.runtime.core.config.DATABASE_URL, SIGHTLINE_LOG_LEVEL: 'silent' });
    const doomed = fleet.start('worker-a', ['worker']);
    try {
      await until('the first worker to wait on its task', async () => (await job()).waiting === 1 || doomed.unexpectedExit !== null);
      assert.equal(doomed.unexpectedExit, null, doomed.output());
      const mid = await probe();
      assert.equal(posts(fake).length, 1);
      assert.equal(mid.status, 'running');
      assert.equal(mid.attempts, 1);
      assert.deepEqual(JSON.parse(mid.checkpoint!), { task: [...fake.tasks.keys()][0] }, 'the posted task is checkpointed before the wait');
      assert.equal(fetches(fake).length, 0, 'killed before the task was fetched');
      await fleet.kill(doomed);
    } finally {
      await fleet.stopAll();
    }

    // Another worker takes the job over once the dead one's lease has run out.
    await db
      .updateTable('jobs')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('ref_id', '=', (await probe()).id)
      .execute();
    s.runtime.core.startWorker();
    const run = await s.waitForRun(key, runId);
    assert.equal(run.status, 'completed');
    assert.equal(posts(fake).length, 1, 'the task was posted (and paid for) once');
    const taskId = [...fake.tasks.keys()][0]!;
    assert.ok(fetches(fake).length >= 1);
    assert.ok(
      fetches(fake).every((r) => r.path.endsWith(`/task_get/advanced/${taskId}`)),
      'the takeover fetched the recorded task',
    );
    const done = await probe();
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempts, 1, 'attempts counts tasks posted');
    assert.equal(done.checkpoint, null, 'the checkpoint is cleared when the probe settles');
    const finished = await job();
    assert.deepEqual([finished.status, finished.attempts], ['done', 2], 'claimed twice, posted once');
    await assertLedgerWhole(s, accountId, 10_00);
  });

  test('the wait holds no lane slot: with a lane of one, every task is posted before the first is ready', async () => {
    const { key, accountId } = await s.account({ credits: 20 });
    const before = { posts: posts(fake).length, fetches: fetches(fake).length };
    taskMs = 6000; // the three probes start one after another on a lane of one, well within it
    const runId = await createRun(s, key, ['best anvils', 'anvils for blacksmiths', 'cheap anvils']);
    s.runtime.core.startWorker(); // running since the first test
    const run = await s.waitForRun(key, runId);
    assert.equal(run.status, 'completed');
    const newPosts = posts(fake).slice(before.posts);
    const newFetches = fetches(fake).slice(before.fetches);
    assert.equal(newPosts.length, 3, 'one task per probe');
    assert.equal(newFetches.length, 3);
    const lastPost = Math.max(...newPosts.map((r) => r.at));
    const firstFetch = Math.min(...newFetches.map((r) => r.at));
    const t0 = newPosts[0]!.at;
    assert.ok(lastPost < firstFetch, `the three tasks were posted while the first one waited: ${JSON.stringify([...newPosts, ...newFetches].map((r) => [r.path.split('/').pop(), r.at - t0]))}`);
    const probes = await s.runtime.core.store.db.selectFrom('visibility_probes').select(['status', 'attempts']).where('run_id', '=', runId).execute();
    assert.deepEqual(probes.map((p) => [p.status, p.attempts]), Array(3).fill(['succeeded', 1]));
    const waiting = await s.runtime.core.store.db.selectFrom('jobs').select('id').where('waiting', '=', 1).where('status', '=', 'running').execute();
    assert.equal(waiting.length, 0);
    assert.equal(s.runtime.core.startedWorker!.waitingJobs, 0);
    await assertLedgerWhole(s, accountId, 20_00);
  });
});

describe('SIGHTLINE_WORKER_MAX_WAITING=0', () => {
  let fake: Fake;
  let s: TestServer;
  before(async () => {
    fake = await startFakeDataForSeo({ taskLatencyMs: 200 });
    s = await startTestServer({
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      SIGHTLINE_DATAFORSEO_POLL_MS: '50',
      SIGHTLINE_CHATGPT_APP_CONCURRENCY: '1',
      SIGHTLINE_WORKER_MAX_WAITING: '0',
      ...fake.env,
    });
  });
  after(async () => {
    await s.close();
    await fake.close();
  });

  test('every wait keeps its slot: on a lane of one, each task is fetched before the next is posted', async () => {
    const { key } = await s.account({ credits: 20 });
    const runId = await createRun(s, key, ['best anvils', 'cheap anvils']);
    const run = await s.waitForRun(key, runId);
    assert.equal(run.status, 'completed');
    const order = fake.requests.filter((r) => !r.path.endsWith('/tasks_ready')).map((r) => (r.path.endsWith('/task_post') ? 'post' : 'fetch'));
    assert.deepEqual(order, ['post', 'fetch', 'post', 'fetch']);
  });
});
