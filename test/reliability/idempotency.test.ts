// Idempotency as Stripe does it (src/core/idempotency.ts): a key remembers a fingerprint of its
// request; the same key with another body is 422 idempotency_key_reused and charges nothing; the
// same body replays; a key older than SIGHTLINE_IDEMPOTENCY_TTL_SECONDS (24 h) is free again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const body = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'], idempotency_key: 'order-1' };

describe('idempotency keys', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(async () => s.close());

  const usage = async (key: string) => (await s.request('GET', '/v1/usage', { key })).json().credits;

  test('same key, same body: replay; same key, other body: 422 idempotency_key_reused, nothing charged', async () => {
    const { key } = await s.account({ credits: 20 });
    const first = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.equal(first.statusCode, 200);
    // Key order and explicit nulls do not make another request.
    const reordered = { idempotency_key: 'order-1', platforms: ['openai'], prompts: ['best crm'], target_entity: 'Acme', url: 'https://acme.example' };
    const replay = await s.request('POST', '/v1/visibility/runs', { key, body: reordered });
    assert.equal(replay.json().run_id, first.json().run_id);
    assert.equal(replay.json().idempotent_replay, true);
    const before = await usage(key);
    const reused = await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, target_entity: 'Globex' } });
    assert.equal(reused.statusCode, 422, reused.body);
    assert.equal(reused.json().detail.error, 'idempotency_key_reused');
    assert.equal(reused.json().detail.run_id, first.json().run_id);
    assert.deepEqual(await usage(key), before);

    const ci = { url: 'https://acme.example', idempotency_key: 'ci-1' };
    const c1 = await s.request('POST', '/v1/content-intelligence/runs', { key, body: ci });
    assert.equal(c1.statusCode, 200, c1.body);
    assert.equal((await s.request('POST', '/v1/content-intelligence/runs', { key, body: ci })).json().run_id, c1.json().run_id);
    const c3 = await s.request('POST', '/v1/content-intelligence/runs', { key, body: { ...ci, analysis_depth: 'full' } });
    assert.equal(c3.statusCode, 422);
    assert.equal(c3.json().detail.error, 'idempotency_key_reused');
  });

  test('a key whose run is older than the TTL starts a new run; the old run keeps its data', async () => {
    const { key } = await s.account({ credits: 20 });
    const first = (await s.request('POST', '/v1/visibility/runs', { key, body })).json();
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000).toISOString();
    await s.runtime.core.store.db.updateTable('visibility_runs').set({ created_at: twoDaysAgo }).where('id', '=', first.run_id).execute();
    // Even with another body: the expired key is simply free.
    const second = await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, target_entity: 'Globex' } });
    assert.equal(second.statusCode, 200, second.body);
    assert.notEqual(second.json().run_id, first.run_id);
    assert.equal(second.json().idempotent_replay, undefined);
    const old = await s.request('GET', `/v1/visibility/runs/${first.run_id}`, { key });
    assert.equal(old.statusCode, 200);
    assert.equal(old.json().target_entity, 'Acme');
    // The new run owns the key now.
    const replay = await s.request('POST', '/v1/visibility/runs', { key, body: { ...body, target_entity: 'Globex' } });
    assert.equal(replay.json().run_id, second.json().run_id);
  });

  test('20 concurrent creates with one key and two bodies: one run, the other body refused', async () => {
    const { key } = await s.account({ credits: 50 });
    const k = { ...body, idempotency_key: 'race-1' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.request('POST', '/v1/visibility/runs', { key, body: i % 2 ? k : { ...k, target_entity: 'Other' } })),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    assert.equal(new Set(ok.map((r) => r.json().run_id)).size, 1);
    for (const r of responses) assert.ok(r.statusCode === 200 || r.json().detail.error === 'idempotency_key_reused', r.body);
    assert.equal(responses.filter((r) => r.statusCode === 200).length, 10);
  });
});
