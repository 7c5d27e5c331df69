// POST /v1/visibility/prompts/suggest through the real server, pages served by loopback fixture
// sites: the response shape, count/brand/competitor/language handling, 1.00 credit per batch,
// determinism; 422 bounds, 400 URL, 402 before any fetch, unloadable pages released; 401/403.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setAccountStatus } from '../../src/core/accounts/accounts.ts';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { serveFixtureSite } from './content-sites.ts';

const PATH = '/v1/visibility/prompts/suggest';
const INTENTS = ['category_discovery', 'comparison', 'alternatives', 'problem_solution', 'how_to', 'reviews', 'pricing'];

describe('POST /v1/visibility/prompts/suggest', () => {
  let acme: FixtureServer;
  let beispiel: FixtureServer;
  let outside: FixtureServer;
  let s: TestServer;
  let GUIDE: string;

  before(async () => {
    acme = await serveFixtureSite('acme-pm.test');
    beispiel = await serveFixtureSite('beispiel.test');
    outside = await startFixtureServer({ '/': { headers: { 'content-type': 'text/html' }, body: '<title>x</title><p>not allowlisted</p>' } });
    s = await startTestServer({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${acme.port},127.0.0.1:${beispiel.port}` });
    GUIDE = acme.url('/blog/project-management-guide');
  });
  after(async () => {
    await s.close();
    await acme.close();
    await beispiel.close();
    await outside.close();
  });

  async function post(key: string, body: unknown) {
    const res = await s.request('POST', PATH, { key, body });
    return { status: res.statusCode, body: res.json() };
  }
  async function ok(key: string, body: unknown) {
    const res = await post(key, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  test('ten suggestions by default with intent, why and funnel stage; brand from the page; 1.00 credit', async () => {
    const { key } = await s.account({ credits: 5 });
    const r = await ok(key, { url: GUIDE });
    assert.deepEqual(Object.keys(r).sort(), ['billing', 'brand', 'generator', 'industry', 'prompts', 'suggestions', 'url']);
    assert.equal(r.url, GUIDE);
    assert.equal(r.brand, 'Acme PM');
    assert.equal(typeof r.industry, 'string');
    assert.equal(r.generator, 'offline');
    assert.equal(r.prompts.length, 10);
    assert.equal(new Set(r.prompts).size, 10, 'no duplicates');
    assert.deepEqual(r.prompts, r.suggestions.map((x: { prompt: string }) => x.prompt));
    for (const sug of r.suggestions) {
      assert.deepEqual(Object.keys(sug).sort(), ['funnel_stage', 'intent', 'intent_class', 'prompt', 'why']);
      assert.ok(INTENTS.includes(sug.intent), sug.intent);
      assert.ok(['awareness', 'consideration', 'decision'].includes(sug.funnel_stage));
      assert.ok(sug.why.length > 10);
    }
    assert.ok(r.prompts.some((p: string) => p.includes('Acme PM')), 'some prompts are branded');
    assert.ok(r.prompts.some((p: string) => !p.includes('Acme PM')), 'some prompts are unbranded');
    assert.deepEqual(r.billing, { billable: true, credits: '1.00', estimated_credits: '1.00' });

    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '4.00');
    assert.equal(usage.credits.used_credit_units, '1.00');
    assert.equal(usage.recent[0].action, 'visibility.prompts.suggest');
    assert.equal(usage.recent[0].status, 'settled');
    const activity = (await s.request('GET', '/v1/activity?kind=visibility', { key })).json().items;
    assert.equal(activity[0].action, 'visibility.prompts.suggest');
    assert.equal(activity[0].credits, '1.00');
  });

  test('count, brand_name / target_entity, competitors and language are honoured; the same request gives the same prompts', async () => {
    const { key } = await s.account({ credits: 10 });
    const three = await ok(key, { url: GUIDE, count: 3 });
    assert.equal(three.prompts.length, 3);
    const many = await ok(key, { url: GUIDE, count: 25 });
    assert.ok(many.prompts.length > 10 && many.prompts.length <= 25, String(many.prompts.length));

    const branded = await ok(key, { url: GUIDE, brand_name: 'Planwise', competitors: ['Trello', 'Asana'], count: 25 });
    assert.equal(branded.brand, 'Planwise');
    assert.ok(branded.prompts.some((p: string) => p.includes('Planwise')));
    assert.ok(!branded.prompts.some((p: string) => p.includes('Acme PM')));
    assert.ok(branded.prompts.some((p: string) => p.includes('Trello') || p.includes('Asana')), 'competitor comparison prompts');
    const alias = await ok(key, { url: GUIDE, target_entity: 'Planwise', competitors: ['Trello', 'Asana'], count: 25 });
    assert.deepEqual({ ...alias, billing: null }, { ...branded, billing: null });

    const german = await ok(key, { url: beispiel.url('/ratgeber/buchhaltungssoftware'), count: 5 });
    assert.equal(german.prompts.length, 5);
    assert.ok(german.prompts.some((p: string) => /\b(Welche|Wie|Was|Gibt es|Ist)\b/.test(p)), german.prompts.join(' | '));

    const again = await ok(key, { url: GUIDE, count: 3 });
    assert.deepEqual({ ...again, billing: null }, { ...three, billing: null });
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.used_credit_units, '6.00');
  });

  test('422 for count outside 1..25, more than 10 competitors, missing url; 400 invalid_url; nothing reserved or fetched', async () => {
    const { key } = await s.account({ credits: 5 });
    const before = acme.requests.length;
    const cases: [unknown, (string | number)[]][] = [
      [{ url: GUIDE, count: 0 }, ['body', 'count']],
      [{ url: GUIDE, count: 26 }, ['body', 'count']],
      [{ url: GUIDE, count: 2.5 }, ['body', 'count']],
      [{ url: GUIDE, count: '5' }, ['body', 'count']],
      [{ url: GUIDE, competitors: Array.from({ length: 11 }, (_, i) => `Rival ${i}`) }, ['body', 'competitors']],
      [{ url: GUIDE, competitors: 'Trello' }, ['body', 'competitors']],
      [{ url: GUIDE, brand_name: 12 }, ['body', 'brand_name']],
      [{ brand_name: 'Acme' }, ['body', 'url']],
    ];
    for (const [body, loc] of cases) {
      const res = await post(key, body);
      assert.equal(res.status, 422, `${JSON.stringify(body).slice(0, 80)} → ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.detail[0].loc, loc);
    }
    for (const url of ['not a url', '', 'ftp://127.0.0.1/x', 'javascript:alert(1)', `http://u:p@127.0.0.1:${acme.port}/`]) {
      const res = await post(key, { url });
      assert.equal(res.status, 400, `${url} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail.error, 'invalid_url');
    }
    assert.equal(acme.requests.length, before);
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.deepEqual(usage.recent.map((r: { kind: string }) => r.kind), ['grant']);
    // Ten competitors and the count bounds themselves are fine.
    assert.equal((await post(key, { url: GUIDE, count: 1, competitors: Array.from({ length: 10 }, (_, i) => `Rival ${i}`) })).status, 200);
  });

  test('402 at a zero balance with no fetch; unloadable or refused pages fail with the credit released', async () => {
    const { key: broke } = await s.account();
    const before = acme.requests.length;
    const res = await post(broke, { url: acme.url('/blog/okr-guide?fresh=402') });
    assert.equal(res.status, 402);
    assert.equal(res.body.detail.error, 'insufficient_credits');
    assert.equal(acme.requests.length, before);

    const { key } = await s.account({ credits: 3 });
    const blocked = await post(key, { url: outside.url('/') });
    assert.equal(blocked.status, 400, JSON.stringify(blocked.body));
    assert.equal(blocked.body.detail.error, 'fetch_blocked');
    assert.equal(outside.requests.length, 0);
    const missing = await post(key, { url: acme.url('/no-such-page') });
    assert.equal(missing.status, 500, JSON.stringify(missing.body));
    assert.equal(missing.body.detail.error, 'extraction_failed');
    const usage = (await s.request('GET', '/v1/usage', { key })).json();
    assert.equal(usage.credits.available_credit_units, '3.00');
    assert.equal(usage.credits.reserved_credit_units, '0.00');
    assert.equal(usage.credits.used_credit_units, '0.00');
    assert.deepEqual(usage.recent.filter((r: { kind: string }) => r.kind === 'charge').map((r: { status: string }) => r.status), ['released', 'released']);
  });

  test('401 without a valid key, 403 without the scope or when suspended; nothing fetched', async () => {
    const { accountId, key } = await s.account({ credits: 5 });
    const before = acme.requests.length;
    assert.equal((await s.request('POST', PATH, { body: { url: GUIDE } })).statusCode, 401);
    assert.equal((await post('svc_api_live_' + 'y'.repeat(40), { url: GUIDE })).status, 401);
    const mcp = await post(await s.key(accountId, { kind: 'mcp' }), { url: GUIDE });
    assert.equal(mcp.status, 401);
    assert.equal(mcp.body.detail.error, 'mcp_token_not_allowed');
    for (const k of [await s.key(accountId, { readOnly: true }), await s.key(accountId, { scopes: ['visibility:runs:create', 'content_intelligence:content:score'] })]) {
      const res = await post(k, { url: GUIDE });
      assert.equal(res.status, 403);
      assert.equal(res.body.detail.error, 'missing_scope');
      assert.equal(res.body.detail.required_scope, 'visibility:prompts:suggest');
    }
    await setAccountStatus(s.runtime.core.store.db, accountId, 'suspended');
    const suspended = await post(key, { url: GUIDE });
    assert.equal(suspended.status, 403);
    assert.equal(suspended.body.detail.error, 'account_suspended');
    await setAccountStatus(s.runtime.core.store.db, accountId, 'active');
    assert.equal(acme.requests.length, before);
    const only = await s.key(accountId, { scopes: ['visibility:prompts:suggest'] });
    assert.equal((await post(only, { url: GUIDE, count: 2 })).status, 200);
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.used_credit_units, '1.00');
  });
});
