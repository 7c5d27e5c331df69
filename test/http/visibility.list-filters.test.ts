// The runs list's search, filters and sort: each narrows the runs in SQL before any summary is
// built, combines with the others and with cursor paging, and leaves the unfiltered list as it was.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

describe('visibility runs list: search, filters, sort', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('q, platform, source, status, project and sort narrow and order the list', async () => {
    const { key } = await s.account({ credits: 200 });
    const mk = async (url: string, target: string, prompts: string[], platforms: string[]) =>
      (await s.request('POST', '/v1/visibility/runs', { key, body: { url, target_entity: target, prompts, platforms } })).json().run_id as string;
    const a = await mk('https://acme.example/', 'Acme CRM', ['best crm for agencies'], ['deepseek']);
    const b = await mk('https://globex.example/', 'Globex', ['cheap 100%_discount tools'], ['openai']);
    const c = await mk('https://initech.example/', 'Initech', ['best ERP'], ['deepseek', 'openai']);
    for (const id of [a, b, c]) await s.waitForRun(key, id);
    const list = async (qs: string) => {
      const res = await s.request('GET', `/v1/visibility/runs?${qs}`, { key });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const ids = async (qs: string) => (await list(qs)).runs.map((r: any) => r.run_id);

    assert.deepEqual(await ids(''), [c, b, a]);
    assert.deepEqual(await ids('q=acme'), [a], 'brand, case-insensitive');
    assert.deepEqual(await ids('q=INITECH.example'), [c], 'url');
    assert.deepEqual(await ids('q=best'), [c, a], 'prompt');
    assert.deepEqual(await ids('q=best%20crm'), [a], 'every word must match');
    assert.deepEqual(await ids('q=100%25_'), [b], 'LIKE wildcards are literal');
    assert.deepEqual(await ids('q=%25'), [b]);
    assert.deepEqual(await ids('platform=openai'), [c, b]);
    assert.deepEqual(await ids('platform=openai&q=best'), [c]);
    assert.deepEqual(await ids('source=api'), [c, b, a]);
    assert.deepEqual(await ids('source=console'), []);
    assert.deepEqual(await ids('status=completed&platform=deepseek'), [c, a]);
    assert.deepEqual(await ids('status=queued'), []);
    assert.deepEqual(await ids('project_id=prj_unknown'), []);
    assert.deepEqual(await ids('sort=oldest'), [a, b, c]);

    const p1 = await list('sort=oldest&limit=2');
    assert.deepEqual(p1.runs.map((r: any) => r.run_id), [a, b]);
    assert.equal(p1.has_more, true);
    const p2 = await list(`sort=oldest&limit=2&starting_after=${p1.next_starting_after}`);
    assert.deepEqual(p2.runs.map((r: any) => r.run_id), [c]);
    assert.equal(p2.has_more, false);
    const f1 = await list('platform=deepseek&limit=1');
    assert.deepEqual(f1.runs.map((r: any) => r.run_id), [c]);
    const f2 = await list(`platform=deepseek&limit=1&starting_after=${f1.next_starting_after}`);
    assert.deepEqual(f2.runs.map((r: any) => r.run_id), [a]);
    assert.equal(f2.has_more, false);

    for (const bad of ['platform=myspace', 'source=fax', 'sort=random']) {
      const res = await s.request('GET', `/v1/visibility/runs?${bad}`, { key });
      assert.equal(res.statusCode, 400, bad);
      assert.equal(res.json().detail.error, 'invalid_filter');
    }
  });

  test('project_id lists the runs of that project only', async () => {
    const { key } = await s.account({ credits: 200 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: { url: 'https://hooli.example/', brand: { name: 'Hooli' }, platforms: ['deepseek'], prompts: [{ prompt: 'best search engine' }] },
    });
    assert.equal(created.statusCode, 200, created.body);
    const project = created.json();
    const ran = await s.request('POST', `/v1/projects/${project.id}/runs`, { key });
    assert.equal(ran.statusCode, 200, ran.body);
    const runIds = ran.json().runs.map((r: any) => r.run_id);
    const other = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://x.example', target_entity: 'X', prompts: ['q'], platforms: ['deepseek'] } })).json().run_id;
    const listed = (await s.request('GET', `/v1/visibility/runs?project_id=${project.id}`, { key })).json();
    assert.deepEqual(listed.runs.map((r: any) => r.run_id), runIds);
    assert.ok(!listed.runs.some((r: any) => r.run_id === other));
  });
});
