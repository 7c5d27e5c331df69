// Creating a project with an idempotency_key, through the real server and database: a retry with
// the same key and body answers the project made the first time (one project, one test per
// market); another body under the key is 422 idempotency_key_reused naming the project; parallel
// retries make one project; the key is the account's (another account may use it); a deleted
// project frees its key; the MCP tool replays the same way.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { connectMcp } from '../helpers/mcp-client.ts';

const BODY = {
  name: 'StrideFit',
  url: 'https://stridefit.example/',
  brand: { name: 'StrideFit' },
  platforms: ['deepseek'],
  markets: [{ language: 'en', country: 'US' }, { language: 'en', country: 'GB' }],
  prompts: [{ prompt: 'best running shoes for flat feet' }],
};

describe('project create with an idempotency_key', () => {
  let s: TestServer;
  let base: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => s.close());

  const create = (key: string, body: object) => s.request('POST', '/v1/projects', { key, body });
  const count = async (key: string) => (await s.request('GET', '/v1/projects', { key })).json().projects.length as number;

  test('a retry answers the first project; another body under the key is 422; parallel retries make one', async () => {
    const { key } = await s.account({ credits: 5 });
    const first = await create(key, { ...BODY, idempotency_key: 'client-stridefit' });
    assert.equal(first.statusCode, 200, first.body);
    const again = await create(key, { ...BODY, idempotency_key: 'client-stridefit' });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().id, first.json().id);
    assert.deepEqual(again.json().tests, first.json().tests, 'no second set of tests');
    assert.equal(await count(key), 1);

    const other = await create(key, { ...BODY, name: 'Someone else', idempotency_key: 'client-stridefit' });
    assert.equal(other.statusCode, 422, other.body);
    assert.deepEqual([other.json().detail.error, other.json().detail.project_id], ['idempotency_key_reused', first.json().id]);

    const parallel = await Promise.all(Array.from({ length: 6 }, () => create(key, { ...BODY, idempotency_key: 'parallel' })));
    assert.deepEqual(parallel.map((r) => r.statusCode), Array(6).fill(200));
    assert.equal(new Set(parallel.map((r) => r.json().id)).size, 1, 'six retries at once, one project');
    assert.equal(await count(key), 2);
    const db = s.runtime.core.store.db;
    const tests = await db.selectFrom('tests').select('id').where('project_id', '=', parallel[0]!.json().id).where('deleted_at', 'is', null).execute();
    assert.equal(tests.length, 2, 'one test per market');

    // Without a key every create makes a project, as before.
    await create(key, BODY);
    await create(key, BODY);
    assert.equal(await count(key), 4);
  });

  test('the key is the account\'s; a deleted project frees it; MCP replays too', async () => {
    const a = await s.account({ credits: 5 });
    const b = await s.account({ credits: 5 });
    const madeA = (await create(a.key, { ...BODY, idempotency_key: 'k' })).json();
    const madeB = (await create(b.key, { ...BODY, idempotency_key: 'k' })).json();
    assert.notEqual(madeA.id, madeB.id);
    assert.equal((await s.request('DELETE', `/v1/projects/${madeA.id}`, { key: a.key })).statusCode, 200);
    const fresh = await create(a.key, { ...BODY, idempotency_key: 'k' });
    assert.equal(fresh.statusCode, 200, fresh.body);
    assert.notEqual(fresh.json().id, madeA.id);

    const client = await connectMcp(base, await s.key(b.accountId, { kind: 'mcp' }));
    const replay: any = await client.callTool({ name: 'create_project', arguments: { ...BODY, idempotency_key: 'k' } });
    assert.equal(replay.isError, undefined, JSON.stringify(replay));
    assert.equal(replay.structuredContent.id, madeB.id);
    await client.close();
    assert.equal(await count(b.key), 1);
  });
});
