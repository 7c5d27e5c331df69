// Deeply nested JSON is refused while it is parsed, on every surface, before anything recurses
// into it: /v1 and /console/api answer 422 json_too_deep (the schema error shape), /mcp answers
// JSON-RPC's parse error. The NUL walk is iterative (no stack overflow, no path copy per level),
// and every pre-session console route is limited per client address.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { MAX_JSON_DEPTH, jsonNestsDeeperThan } from '../../src/text/json-depth.ts';
import { findNulByte } from '../../src/text/nul-bytes.ts';

/** `{"a":{"a":…"leaf"…}}` nested `depth` objects deep. */
const nestedObject = (depth: number, leaf = '"x"') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const nestedArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON nesting limit', () => {
  let s: TestServer;
  let key: string;
  let accountId: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000' }, { worker: false });
    ({ key, accountId } = await s.account({ credits: 5 }));
  });
  after(async () => s.close());

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });

  test('the scanner: brackets inside strings and escaped quotes do not count; the limit is inclusive', () => {
    const at = (text: string) => jsonNestsDeeperThan(Buffer.from(text), 3);
    assert.equal(at('[[[]]]'), false);
    assert.equal(at('[[[[]]]]'), true);
    assert.equal(at('[{"a":[1]}]'), false);
    assert.equal(at('{"a":{"b":{"c":{}}}}'), true);
    assert.equal(at('["[[[[[[[["]'), false);
    assert.equal(at('["\\"[[[[[[", "\\\\"]'), false);
    assert.equal(at('["\\\\", [[[]]]]'), true);
    assert.equal(at('{"é[[[[": "ü{{{{"}'), false);
  });

  test(`/v1: ${MAX_JSON_DEPTH} levels parse, ${MAX_JSON_DEPTH + 1} and 5,000 are 422 json_too_deep; nothing is charged`, async () => {
    const auth = { authorization: `Bearer ${key}` };
    const ok = await post('/v1/visibility/runs', `{"url":"https://acme.example","target_entity":"Acme","prompts":["q"],"platforms":["openai"],"competitors":${nestedArray(MAX_JSON_DEPTH - 1)}}`, auth);
    assert.equal(ok.statusCode, 422);
    assert.notEqual(ok.json().detail[0].type, 'json_too_deep', ok.body);
    for (const depth of [MAX_JSON_DEPTH + 1, 5000]) {
      for (const body of [nestedArray(depth), nestedObject(depth), `{"url":${nestedArray(depth)}}`]) {
        const res = await post('/v1/visibility/runs', body, auth);
        assert.equal(res.statusCode, 422, res.body);
        assert.deepEqual(res.json(), { detail: [{ loc: ['body'], msg: `Body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`, type: 'json_too_deep' }] });
      }
    }
    const usage = await s.request('GET', '/v1/usage', { key });
    assert.equal(usage.json().credits.available_credit_units, '5.00');
  });

  test('/console/api: a 100 KB body nested 50,000 levels deep on sign-out is refused in milliseconds', async () => {
    // The pre-session CSRF pair (cookie and token) the page would send, so the body is read.
    const session = await s.app.inject({ method: 'GET', url: '/console/api/session' });
    const cookie = String(session.headers['set-cookie']).split(';')[0]!;
    const csrf = { cookie, 'x-csrf-token': session.json().csrf_token };
    const started = performance.now();
    const res = await post('/console/api/sign-out', nestedObject(50_000 / 2) + ' '.repeat(10), csrf);
    const ms = performance.now() - started;
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().detail[0].type, 'json_too_deep');
    assert.ok(ms < 250, `took ${ms.toFixed(0)} ms`);
    const signIn = await post('/console/api/sign-in', nestedArray(3000), csrf);
    assert.equal(signIn.json().detail[0].type, 'json_too_deep');
  });

  test('/mcp: JSON-RPC parse error (-32700), as for a body that is not JSON', async () => {
    const token = await s.key(accountId, { kind: 'mcp' });
    const res = await post('/mcp', nestedObject(5000), { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' });
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json();
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32700);
    assert.match(body.error.message, /deeper than 64 levels/);
  });

  test('the NUL walk is iterative and names the path at the deepest allowed level', async () => {
    // Built in memory, far deeper than a body may be: the recursive walk overflowed the stack here.
    let deep: unknown = 'a\u0000b';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const path = findNulByte(deep, ['body']);
    assert.equal(path?.length, 200_001);
    assert.deepEqual(findNulByte({ a: [1, { b: 'x', 'k\u0000': 1 }] }), ['a', 1, 'k\u0000']);
    assert.deepEqual(findNulByte({ a: 'ok', b: ['ok', 'n\u0000'] }), ['b', 1]);
    assert.equal(findNulByte({ a: [{ b: 'fine' }] }), null);

    const res = await post('/v1/visibility/runs', `{"competitors":${'['.repeat(MAX_JSON_DEPTH - 2)}"x\\u0000"${']'.repeat(MAX_JSON_DEPTH - 2)}}`, { authorization: `Bearer ${key}` });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().detail[0].type, 'string_nul_byte');
    assert.deepEqual(res.json().detail[0].loc, ['body', 'competitors', ...Array(MAX_JSON_DEPTH - 2).fill(0)]);
  });
});

describe('pre-session console routes are limited per client address', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '2' }, { worker: false });
  });
  after(async () => s.close());

  const ROUTES = [
    '/console/api/setup',
    '/console/api/signup',
    '/console/api/sign-in',
    '/console/api/sign-out',
    '/console/api/password/forgot',
    '/console/api/password/reset',
    '/console/api/invitations/describe',
    '/console/api/invitations/accept',
  ];

  test('each POST: the third request from one address within a minute is 429 rate_limited with Retry-After', async () => {
    let n = 10;
    for (const url of ROUTES) {
      const remoteAddress = `198.51.100.${n++}`;
      const send = () => s.app.inject({ method: 'POST', url, remoteAddress, headers: { 'content-type': 'application/json' }, payload: '{}' });
      for (let i = 0; i < 2; i++) assert.notEqual((await send()).statusCode, 429, url);
      const limited = await send();
      assert.equal(limited.statusCode, 429, `${url}: ${limited.body}`);
      assert.equal(limited.json().detail.error, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);
    }
    // Another address is not limited; the page's session read is not limited either.
    const other = await s.app.inject({ method: 'POST', url: '/console/api/sign-out', remoteAddress: '198.51.100.200', headers: { 'content-type': 'application/json' }, payload: '{}' });
    assert.notEqual(other.statusCode, 429);
    for (let i = 0; i < 5; i++) assert.equal((await s.app.inject({ method: 'GET', url: '/console/api/session', remoteAddress: '198.51.100.10' })).statusCode, 200);
  });
});
