// A project's bounds, checked through the server. Topics, however they arrive (a CSV cell, one
// prompt repeated within an import, or topics gained over several imports): without bounds a
// single import stored 60,000 topics on one prompt, and every dashboard, shared page and PDF
// rolled each one up (a dashboard took seconds of the event loop). The dashboard's topic rollup
// is indexed once, so a library at the limits answers with the same numbers as before. And the
// projects of an account: each holds 1,000 prompts, so without a cap one key filled the database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { MAX_PROJECT_TOPICS, MAX_PROMPT_TOPICS, MAX_TOPIC_CHARS } from '../../src/core/projects/prompts.ts';

describe('project topic limits', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  const project = { url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'] };

  test('a CSV cell, a repeated prompt or later imports cannot give a prompt more topics than a list may', async () => {
    const { key } = await s.account({ credits: 0 });
    const p = (await s.request('POST', '/v1/projects', { key, body: { ...project, prompts: [{ prompt: 'best crm', topics: ['a'] }] } })).json();
    const importing = (body: object) => s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body });

    const many = Array.from({ length: 5000 }, (_, i) => `t${i}`).join(';');
    let res = await importing({ text: `prompt,topics\n"crm for teams","${many}"\n`, format: 'csv' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().detail.error, 'invalid_request');
    assert.match(res.json().detail.message, new RegExp(`at most ${MAX_PROMPT_TOPICS} topics`));

    res = await importing({ text: `prompt,topics\n"crm for teams",${'x'.repeat(MAX_TOPIC_CHARS + 1)}\n`, format: 'csv' });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().detail.message, new RegExp(`topic is at most ${MAX_TOPIC_CHARS} characters`));

    // The same prompt 30 times in one list, each time with a new topic (each item within the schema).
    res = await importing({ prompts: Array.from({ length: 30 }, (_, i) => ({ prompt: 'crm for teams', topics: [`r${i}`] })) });
    assert.equal(res.statusCode, 400, res.body);

    // Topics gained over imports: 20 fit, the 21st is refused and nothing of that import is written.
    for (let i = 0; i < MAX_PROMPT_TOPICS - 1; i++) assert.equal((await importing({ prompts: [{ prompt: 'best crm', topics: [`g${i}`] }] })).statusCode, 200);
    res = await importing({ prompts: [{ prompt: 'best crm', topics: ['one too many'] }, { prompt: 'a new prompt', topics: [] }] });
    assert.equal(res.statusCode, 400, res.body);
    const full = (await s.request('GET', `/v1/projects/${p.id}`, { key })).json();
    assert.deepEqual(full.prompts.map((x: any) => [x.prompt, x.topics.length]), [['best crm', MAX_PROMPT_TOPICS]]);
  });

  test(`a library has at most ${MAX_PROJECT_TOPICS} distinct topics; at the limits the dashboard rolls each up`, async () => {
    const { key } = await s.account({ credits: 0 });
    const topic = (k: number) => `topic ${k % MAX_PROJECT_TOPICS}`;
    const prompts = Array.from({ length: 400 }, (_, i) => ({ prompt: `which crm is best, case ${i}`, topics: Array.from({ length: MAX_PROMPT_TOPICS }, (_, j) => topic(i + j)) }));
    const created = await s.request('POST', '/v1/projects', { key, body: { ...project, prompts } });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const res = await s.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'one more', topics: ['a new topic'] }] } });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().detail.message, new RegExp(`at most ${MAX_PROJECT_TOPICS} topics`));

    const d = (await s.request('GET', `/v1/projects/${p.id}/dashboard`, { key })).json();
    assert.equal(d.topics.length, MAX_PROJECT_TOPICS);
    // 400 prompts × 20 topics spread evenly over 200 topics: 40 prompts each.
    assert.ok(d.topics.every((t: any) => t.prompts === 40), JSON.stringify(d.topics.slice(0, 3)));
  });
});

describe('projects per account', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0', SIGHTLINE_MAX_PROJECTS_PER_ACCOUNT: '2' });
  });
  after(async () => s.close());

  test('one project more than the instance allows is 409 limit_reached, created at once or not; a deleted one makes room', async () => {
    const { key } = await s.account({ credits: 0 });
    const body = { url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts: [{ prompt: 'best crm' }] };
    // Four creates at the same instant: two fit.
    const all = await Promise.all(Array.from({ length: 4 }, () => s.request('POST', '/v1/projects', { key, body })));
    assert.deepEqual(all.map((r) => r.statusCode).sort(), [200, 200, 409, 409]);
    const refused = all.find((r) => r.statusCode === 409)!.json().detail;
    assert.equal(refused.error, 'limit_reached');
    assert.equal(refused.limit, 2);
    // Another account has its own room.
    const other = await s.account({ credits: 0 });
    assert.equal((await s.request('POST', '/v1/projects', { key: other.key, body })).statusCode, 200);
    const first = all.find((r) => r.statusCode === 200)!.json();
    assert.equal((await s.request('DELETE', `/v1/projects/${first.id}`, { key })).statusCode, 200);
    assert.equal((await s.request('POST', '/v1/projects', { key, body })).statusCode, 200);
  });
});
