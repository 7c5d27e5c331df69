// A project deleted while share links of it are being made, through the real server: every
// create answers 200 (made before the delete, then revoked with the project) or 404 (after it),
// never a 500, and no live link of a deleted project is ever left. Run on SQLite and, with
// DATABASE_URL set, on Postgres, where the create and the delete really overlap.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('share links and a concurrent project delete', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_PUBLIC_URL: 'https://sightline.example' });
  });
  after(async () => s.close());

  test('creates racing a delete: 200 or 404, never a 500, never a live link of the deleted project', async () => {
    const { key } = await s.account({ credits: 10 });
    const db = s.runtime.core.store.db;
    const body = { name: 'Race', url: 'https://acme-crm.example/', brand: { name: 'Acme CRM' }, platforms: ['deepseek'], prompts: [{ prompt: 'best crm', topics: ['crm'] }] };
    const seen = new Set<number>();
    for (let round = 0; round < 12; round++) {
      const p = (await s.request('POST', '/v1/projects', { key, body })).json();
      const shareBody = round % 2 ? { topic: 'crm' } : {};
      const creates = Array.from({ length: 4 }, () => s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: shareBody }));
      const [deleted, ...made] = await Promise.all([s.request('DELETE', `/v1/projects/${p.id}`, { key }), ...creates]);
      assert.equal(deleted.statusCode, 200, deleted.body);
      for (const r of made) {
        seen.add(r.statusCode);
        assert.ok(r.statusCode === 200 || r.statusCode === 404, `${r.statusCode} ${r.body}`);
        if (r.statusCode === 404) assert.equal(r.json().detail.error, 'not_found');
        if (r.statusCode === 200) assert.equal((await s.request('GET', `/share/${r.json().token}`)).statusCode, 404, 'the link died with its project');
      }
      const live = await db.selectFrom('project_shares').select('id').where('project_id', '=', p.id).where('revoked_at', 'is', null).execute();
      assert.deepEqual(live, [], `round ${round}: a live link of a deleted project`);
      assert.equal((await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).statusCode, 404);
    }
    assert.ok(seen.size > 0);
  });
});
