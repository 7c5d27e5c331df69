// The sites of an account are capped (SIGHTLINE_MAX_SITES_PER_ACCOUNT), as projects and webhook
// endpoints are: each site keeps its access logs' rollups and line hashes, so without a cap one key
// could fill the database. Counted with the account locked; a domain the account already has is
// answered with its site whatever the count; a deleted site makes room.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('sites per account', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_MAX_SITES_PER_ACCOUNT: '2' });
  });
  after(async () => s.close());

  test('one site more than the instance allows is 409 limit_reached, created at once or not; a known domain still answers; a deleted one makes room', async () => {
    const { key } = await s.account({ credits: 0 });
    const create = (domain: string, k = key) => s.request('POST', '/v1/sites', { key: k, body: { domain } });
    // Four new domains at the same instant: two fit.
    const all = await Promise.all(['a.example', 'b.example', 'c.example', 'd.example'].map((d) => create(d)));
    assert.deepEqual(all.map((r) => r.statusCode).sort(), [200, 200, 409, 409]);
    const refused = all.find((r) => r.statusCode === 409)!.json().detail;
    assert.equal(refused.error, 'limit_reached');
    assert.equal(refused.limit, 2);
    assert.match(refused.message, /2 sites, the most this instance allows/);
    assert.equal((await s.request('GET', '/v1/sites', { key })).json().sites.length, 2);
    // A domain the account has answers its site at the cap.
    const kept = all.find((r) => r.statusCode === 200)!.json();
    const again = await create(kept.domain);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().id, kept.id);
    // Another account has its own room.
    const other = await s.account({ credits: 0 });
    assert.equal((await create('a.example', other.key)).statusCode, 200);
    // A deleted site makes room.
    assert.equal((await s.request('DELETE', `/v1/sites/${kept.id}`, { key })).statusCode, 200);
    assert.equal((await create('e.example')).statusCode, 200);
  });
});
