// Attacks on the console's accounts and the edges around them, through the real server with real
// cookies: open sign-up never joins an account nor tells whether an email has one; the reset mail
// goes out after the answer (a slow SMTP server does not show in the answer's time); password
// links die when a newer one is issued, on a reset and on a password change; the password policy;
// a suspended account makes no keys; answers with secrets are not cached; a key cannot pass as the
// console; CSV exports defuse formulas; /docs has a CSP and cannot be framed; a short metrics
// token is refused; a revoked key stops working at once in another process on Postgres.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import { startTestServer, usingPostgres, type TestServer } from '../helpers/harness.ts';
import { linkIn, mailText, startSmtpSink } from '../helpers/smtp-sink.ts';
import { createInvite, createOwner, createResetToken } from '../../src/core/accounts/users.ts';
import { AUTH_CACHE_TTL_MS, openAccount, setAccountStatus } from '../../src/core/accounts/accounts.ts';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { buildApp } from '../../src/server/app.ts';
import { createKeyRateLimiter } from '../../src/web/rate-limit.ts';

/** The pre-session cookie and its CSRF token, as the sign-in page gets them. */
async function formHeaders(s: TestServer) {
  const first = await s.request('GET', '/console/api/session');
  return { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token as string };
}

/** A signed-in session: its cookie and CSRF token. */
async function signedIn(s: TestServer, email: string, password: string) {
  const signIn = await s.request('POST', '/console/api/sign-in', { body: { email, password }, headers: await formHeaders(s) });
  assert.equal(signIn.statusCode, 200, signIn.body);
  const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  const csrf = (await s.request('GET', '/console/api/session', { headers: { cookie } })).json().csrf_token as string;
  return { cookie, csrf };
}

const usersOf = (s: TestServer, email: string) => s.runtime.core.store.db.selectFrom('users').select(['id', 'account_id']).where('email', '=', email).execute();

describe('open sign-up without mail', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SIGNUP: 'open', SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000' });
    await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
  });
  after(async () => s.close());

  test('an account made by the operator is not joined; the answer is the same as for a new email; nothing signs in', async () => {
    const victim = await openAccount(s.runtime.core.store, 'victim@example.com', 50_00);
    const attack = await s.request('POST', '/console/api/signup', { body: { email: 'Victim@Example.com', password: 'attacker chosen pass' }, headers: await formHeaders(s) });
    const fresh = await s.request('POST', '/console/api/signup', { body: { email: 'newcomer@example.com', password: 'newcomer chosen pass' }, headers: await formHeaders(s) });
    assert.equal(attack.statusCode, 200, attack.body);
    assert.equal(fresh.statusCode, attack.statusCode);
    assert.deepEqual(attack.json(), fresh.json());
    assert.deepEqual(attack.json(), { signed_in: false, mailed: false });
    for (const res of [attack, fresh]) assert.ok(!String(res.headers['set-cookie'] ?? '').includes('sightline_session'), 'sign-up starts no session');
    assert.deepEqual(await usersOf(s, 'victim@example.com'), [], 'no user joined the victim account');
    const refused = await s.request('POST', '/console/api/sign-in', { body: { email: 'victim@example.com', password: 'attacker chosen pass' }, headers: await formHeaders(s) });
    assert.equal(refused.statusCode, 401);
    // The new email's account is its own, and its user signs in with the password chosen.
    const { cookie } = await signedIn(s, 'newcomer@example.com', 'newcomer chosen pass');
    const me = (await s.request('GET', '/console/api/session', { headers: { cookie } })).json();
    assert.notEqual(me.account.id, victim.account.id);
    // A second sign-up for an email that has a user: same answer, the user's password unchanged.
    const again = await s.request('POST', '/console/api/signup', { body: { email: 'newcomer@example.com', password: 'another password here' }, headers: await formHeaders(s) });
    assert.deepEqual(again.json(), fresh.json());
    assert.equal((await s.request('POST', '/console/api/sign-in', { body: { email: 'newcomer@example.com', password: 'another password here' }, headers: await formHeaders(s) })).statusCode, 401);
    // The operator's account reaches its owner through a reset link (sightline users reset-link).
    const issued = await createResetToken(s.runtime.core.store, 'victim@example.com');
    const reset = await s.request('POST', '/console/api/password/reset', { body: { token: issued!.token, password: 'the real owner pass' }, headers: await formHeaders(s) });
    assert.equal(reset.statusCode, 200, reset.body);
    const owned = await usersOf(s, 'victim@example.com');
    assert.deepEqual(owned.map((u) => u.account_id), [victim.account.id]);
  });

  test('an invitation for an account the CLI made opens that account (an invitation proves the email)', async () => {
    const made = await openAccount(s.runtime.core.store, 'invited-cli@example.com', 3_00);
    const invite = await createInvite(s.runtime.core.store, 'open', 'invited-cli@example.com', 0, 'test');
    const accepted = await s.request('POST', '/console/api/invitations/accept', { body: { token: invite.token, password: 'invited user passphrase' }, headers: await formHeaders(s) });
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.deepEqual((await usersOf(s, 'invited-cli@example.com')).map((u) => u.account_id), [made.account.id]);
  });

  test('owner set-up does not join an account the CLI made either', async () => {
    const fresh = await startTestServer();
    try {
      await openAccount(fresh.runtime.core.store, 'first@example.com');
      const res = await fresh.request('POST', '/console/api/setup', { body: { email: 'first@example.com', password: 'owner passphrase ok' }, headers: await formHeaders(fresh) });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().detail.error, 'invalid_request');
      assert.deepEqual(await usersOf(fresh, 'first@example.com'), []);
    } finally {
      await fresh.close();
    }
  });

  test('password policy: short, whitespace, repeated, runs and common passwords are refused with a reason', async () => {
    const cases: [string, string][] = [
      ['short', 'too_short'],
      ['          ', 'trivial'],
      ['aaaaaaaaaaaa', 'trivial'],
      ['abcabcabcabc', 'trivial'],
      ['1234567890', 'trivial'],
      ['9876543210', 'trivial'],
      ['abcdefghijkl', 'trivial'],
      ['password123', 'common'],
      ['Qwertyuiop', 'common'],
      ['iloveyou12', 'common'],
    ];
    for (const [password, reason] of cases) {
      const res = await s.request('POST', '/console/api/signup', { body: { email: 'policy@example.com', password }, headers: await formHeaders(s) });
      assert.equal(res.statusCode, 400, `${JSON.stringify(password)}: ${res.body}`);
      assert.equal(res.json().detail.error, 'weak_password');
      assert.equal(res.json().detail.reason, reason, password);
      assert.ok(res.json().detail.message.length > 10);
    }
    assert.deepEqual(await usersOf(s, 'policy@example.com'), []);
    // The same policy on a password change and a reset.
    const { cookie, csrf } = await signedIn(s, 'owner@example.com', 'owner passphrase ok');
    const change = await s.request('POST', '/console/api/password/change', { body: { current_password: 'owner passphrase ok', new_password: '1234567890' }, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(change.json().detail.reason, 'trivial');
    const issued = await createResetToken(s.runtime.core.store, 'owner@example.com');
    const reset = await s.request('POST', '/console/api/password/reset', { body: { token: issued!.token, password: 'password1234' }, headers: await formHeaders(s) });
    assert.equal(reset.json().detail.error, 'weak_password');
    assert.equal(reset.json().detail.reason, 'common');
    const ok = await s.request('POST', '/console/api/signup', { body: { email: 'policy@example.com', password: 'seven tired owls at dawn' }, headers: await formHeaders(s) });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test('password links: a newer link, a reset and a password change each end the older ones', async () => {
    await openAccount(s.runtime.core.store, 'links@example.com');
    const use = async (token: string, password: string) =>
      s.request('POST', '/console/api/password/reset', { body: { token, password }, headers: await formHeaders(s) });
    const first = (await createResetToken(s.runtime.core.store, 'links@example.com'))!.token;
    const second = (await createResetToken(s.runtime.core.store, 'links@example.com'))!.token;
    assert.equal((await use(first, 'first link password')).json().detail.error, 'invalid_token', 'a newer link ends the older');
    assert.equal((await use(second, 'second link password')).statusCode, 200);
    assert.equal((await use(second, 'second link again pw')).json().detail.error, 'invalid_token', 'used once');
    // A link issued, then the password changed while signed in: the link is dead.
    const pending = (await createResetToken(s.runtime.core.store, 'links@example.com'))!.token;
    const { cookie, csrf } = await signedIn(s, 'links@example.com', 'second link password');
    const changed = await s.request('POST', '/console/api/password/change', { body: { current_password: 'second link password', new_password: 'changed while signed in' }, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await use(pending, 'stolen link password')).json().detail.error, 'invalid_token', 'a change ends outstanding links');
    // No link of the email is left usable after a reset.
    await createResetToken(s.runtime.core.store, 'links@example.com');
    const last = (await createResetToken(s.runtime.core.store, 'links@example.com'))!.token;
    assert.equal((await use(last, 'reset once more pw')).statusCode, 200);
    const open = await s.runtime.core.store.db.selectFrom('auth_tokens').select('id').where('email', '=', 'links@example.com').where('used_at', 'is', null).execute();
    assert.deepEqual(open, []);
  });

  test('a suspended account makes no keys in the console; answers with secrets or CSRF tokens are not stored', async () => {
    const acct = await openAccount(s.runtime.core.store, 'keys@example.com');
    const issued = await createResetToken(s.runtime.core.store, 'keys@example.com');
    await s.request('POST', '/console/api/password/reset', { body: { token: issued!.token, password: 'keys user passphrase' }, headers: await formHeaders(s) });
    const { cookie, csrf } = await signedIn(s, 'keys@example.com', 'keys user passphrase');
    const session = await s.request('GET', '/console/api/session', { headers: { cookie } });
    assert.equal(session.headers['cache-control'], 'no-store');
    assert.equal((await s.request('GET', '/console/api/session')).headers['cache-control'], 'no-store', 'the pre-session token too');
    for (const kind of ['api', 'mcp']) {
      const made = await s.request('POST', '/console/api/keys', { body: { name: `k ${kind}`, kind }, headers: { cookie, 'x-csrf-token': csrf } });
      assert.equal(made.statusCode, 200, made.body);
      assert.ok(made.json().api_key);
      assert.equal(made.headers['cache-control'], 'no-store');
    }
    await setAccountStatus(s.runtime.core.store.db, acct.account.id, 'suspended');
    const refused = await s.request('POST', '/console/api/keys', { body: { name: 'after suspension' }, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal(refused.json().detail.error, 'account_suspended');
    const mcp = await s.request('POST', '/console/api/keys', { body: { name: 'mcp after', kind: 'mcp' }, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(mcp.json().detail.error, 'account_suspended');
    const keys = (await s.request('GET', '/console/api/keys', { headers: { cookie } })).json().keys;
    assert.equal(keys.filter((k: { name: string }) => /after/.test(k.name)).length, 0);
    await setAccountStatus(s.runtime.core.store.db, acct.account.id, 'active');
  });

  test('/docs: a CSP of its own files, no framing; the page and its files still load', async () => {
    const page = await s.request('GET', '/docs');
    const html = page.statusCode === 302 ? await s.request('GET', String(page.headers.location)) : page;
    assert.equal(html.statusCode, 200);
    for (const res of [html, await s.request('GET', '/docs/static/swagger-ui-bundle.js'), await s.request('GET', '/docs/static/swagger-initializer.js')]) {
      assert.equal(res.statusCode, 200);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /default-src 'none'/);
    }
    assert.equal(html.headers['x-frame-options'], 'DENY');
  });
});

describe('open sign-up and password reset with mail', () => {
  test('sign-up answers alike for a known and a new email; the mail proves the address; a slow SMTP server does not slow the answer', async () => {
    // The sink holds every mail until released: an answer that waited for its mail never comes.
    const sink = await startSmtpSink({ hold: true });
    const s = await startTestServer({ SIGHTLINE_SIGNUP: 'open', SIGHTLINE_SMTP_URL: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true` });
    try {
      await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
      const victim = await openAccount(s.runtime.core.store, 'victim@example.com');
      // Over a real socket, as a browser sends it (the mail task starts when the response closes).
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(s.app.server.address() as { port: number }).port}`;
      const timed = async (path: string, body: object) => {
        const headers = await formHeaders(s);
        const res = await fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } });
        const json = await res.json();
        return { res: { statusCode: res.status, body: JSON.stringify(json), json: () => json, setCookie: res.headers.get('set-cookie') }, mailsThen: sink.mails.length };
      };
      // Reset: the answer comes before the (slow) mail, which still arrives.
      const known = await timed('/console/api/password/forgot', { email: 'owner@example.com' });
      const unknown = await timed('/console/api/password/forgot', { email: 'nobody@example.com' });
      assert.deepEqual(known.res.json(), { mailed: true });
      assert.deepEqual(unknown.res.json(), known.res.json());
      assert.equal(known.mailsThen, 0, 'answered while the mail server held the mail');
      sink.release();
      await sink.waitFor(1);
      assert.match(sink.mails[0]!.to.join(), /owner@example\.com/);
      assert.ok(linkIn(sink.mails[0]!, 'reset'));

      // Sign-up: a known email and a new one get the same answer at once; each gets its mail.
      sink.hold();
      const attack = await timed('/console/api/signup', { email: 'victim@example.com', password: 'attacker chosen pass' });
      const fresh = await timed('/console/api/signup', { email: 'fresh@example.com' });
      assert.equal(attack.res.statusCode, 200, attack.res.body);
      assert.deepEqual(attack.res.json(), fresh.res.json());
      assert.deepEqual(attack.res.json(), { signed_in: false, mailed: true });
      assert.deepEqual([attack.mailsThen, fresh.mailsThen], [1, 1], 'answered while the mail server held the mails');
      assert.equal(attack.res.setCookie, null, 'no session');
      sink.release();
      await sink.waitFor(3);
      const toVictim = sink.mails.find((m) => m.to.join().includes('victim@example.com'))!;
      const toFresh = sink.mails.find((m) => m.to.join().includes('fresh@example.com'))!;
      assert.match(mailText(toVictim), /has one already/);
      assert.match(mailText(toFresh), /Choose your password/);
      // The attacker's password opens nothing; the victim's account has no user until its owner uses the link.
      assert.deepEqual(await usersOf(s, 'victim@example.com').then((u) => u.filter((x) => x.account_id !== victim.account.id)), []);
      assert.equal((await s.request('POST', '/console/api/sign-in', { body: { email: 'victim@example.com', password: 'attacker chosen pass' }, headers: await formHeaders(s) })).statusCode, 401);
      const owner = await s.request('POST', '/console/api/password/reset', { body: { token: linkIn(toVictim, 'reset'), password: 'victim owns this one' }, headers: await formHeaders(s) });
      assert.equal(owner.statusCode, 200, owner.body);
      assert.equal(owner.json().signed_in, true);
      assert.deepEqual((await usersOf(s, 'victim@example.com')).map((u) => u.account_id), [victim.account.id]);
      // The new email's link finishes its sign-up: its own account, signed in.
      const finished = await s.request('POST', '/console/api/password/reset', { body: { token: linkIn(toFresh, 'reset'), password: 'fresh user passphrase' }, headers: await formHeaders(s) });
      assert.equal(finished.statusCode, 200, finished.body);
      const [freshUser] = await usersOf(s, 'fresh@example.com');
      assert.notEqual(freshUser!.account_id, victim.account.id);
    } finally {
      await s.close();
      await sink.close();
    }
  });
});

describe('CSV exports', () => {
  test('cells that start like a formula get a leading quote in CSV; JSON Lines keeps them raw', async () => {
    const s = await startTestServer();
    try {
      const { key } = await s.account({ credits: 20 });
      const prompts = ['=HYPERLINK("https://evil.example","x")', '+1+1 best tools', '-2+3 anvils', '@SUM(A1) tools', 'plain prompt'];
      const created = await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme.example', target_entity: 'Acme', prompts, platforms: ['deepseek'] } });
      assert.equal(created.statusCode, 200, created.body);
      await s.waitForRun(key, created.json().run_id);
      const csv = await s.request('GET', `/v1/visibility/runs/${created.json().run_id}/export?format=csv`, { key });
      assert.equal(csv.statusCode, 200);
      for (const p of prompts.slice(0, 4)) assert.ok(csv.body.includes(`'${p}`) || csv.body.includes(`"'${p.replace(/"/g, '""')}`), `escaped: ${p}\n${csv.body.slice(0, 400)}`);
      assert.ok(!/(^|,)=HYPERLINK/m.test(csv.body) && !/(^|,)"=HYPERLINK/m.test(csv.body));
      assert.ok(/,plain prompt,/.test(csv.body), 'other cells as they are');
      const jsonl = await s.request('GET', `/v1/visibility/runs/${created.json().run_id}/export?format=jsonl`, { key });
      const rows = jsonl.body.trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(rows.map((r) => r.prompt).sort(), [...prompts].sort());
    } finally {
      await s.close();
    }
  });
});

describe('SIGHTLINE_METRICS_TOKEN', () => {
  test('shorter than 32 characters: the configuration is refused and `sightline serve` does not start', async () => {
    assert.throws(() => loadConfig({ SIGHTLINE_METRICS_TOKEN: 'short-secret' }), /SIGHTLINE_METRICS_TOKEN: must be at least 32 characters/);
    assert.equal(loadConfig({ SIGHTLINE_METRICS_TOKEN: 'x'.repeat(32) }).SIGHTLINE_METRICS_TOKEN, 'x'.repeat(32));
    assert.equal(loadConfig({ SIGHTLINE_METRICS_TOKEN: '' }).SIGHTLINE_METRICS_TOKEN, undefined, 'empty is unset');
    const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
    const run = promisify(execFile)(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...process.env, SIGHTLINE_METRICS_TOKEN: 'too-short', DATABASE_URL: 'sqlite::memory:' }, timeout: 60_000 });
    const failed = await run.then(() => undefined, (err: { code?: number; stderr?: string }) => err);
    assert.ok(failed, 'serve must not start');
    assert.notEqual(failed.code, 0);
    assert.match(String(failed.stderr), /SIGHTLINE_METRICS_TOKEN: must be at least 32 characters/);
  });
});

describe('key revocation across processes', () => {
  test(usingPostgres ? 'Postgres: a key revoked in one process is refused by another at once (LISTEN/NOTIFY)' : `SQLite: a key revoked in one process is refused by another within ${AUTH_CACHE_TTL_MS} ms`, async () => {
    const a = await startTestServer({}, { worker: false });
    // A second process's server on the same database: its own runtime, auth cache and listener.
    const config = loadConfig({ SIGHTLINE_LOG_LEVEL: 'silent', DATABASE_URL: a.runtime.core.config.DATABASE_URL });
    const runtime = await openRuntime(config);
    const limiter = await createKeyRateLimiter({ perMinute: 600, handle: runtime.handle });
    const b = await buildApp({ core: runtime.core, rateLimiter: limiter });
    try {
      const { key } = await a.account();
      const keyId = (await a.runtime.core.store.db.selectFrom('api_keys').select('id').executeTakeFirstOrThrow()).id;
      const onB = () => b.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${key}` } });
      assert.equal((await onB()).statusCode, 200, 'B has the key cached now');
      const { revokeKey } = await import('../../src/core/accounts/accounts.ts');
      await revokeKey(a.runtime.core.store.db, keyId);
      const started = Date.now();
      let status = (await onB()).statusCode;
      while (status === 200 && Date.now() - started < AUTH_CACHE_TTL_MS + 1000) {
        await new Promise((r) => setTimeout(r, 10));
        status = (await onB()).statusCode;
      }
      const took = Date.now() - started;
      assert.equal(status, 401);
      if (usingPostgres) assert.ok(took < 500, `B refused the key after ${took} ms (the cache's TTL is ${AUTH_CACHE_TTL_MS} ms)`);
      else assert.ok(took <= AUTH_CACHE_TTL_MS + 200, `${took} ms`);
    } finally {
      await b.close();
      await limiter.close();
      await runtime.close();
      await a.close();
    }
  });
});

describe('per-account caps on keys and webhook endpoints', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_MAX_KEYS_PER_ACCOUNT: '3', SIGHTLINE_MAX_WEBHOOKS_PER_ACCOUNT: '2', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000' });
    await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
  });
  after(async () => s.close());

  test('one key or token over SIGHTLINE_MAX_KEYS_PER_ACCOUNT is 409 limit_reached; a revoked one frees its place', async () => {
    await openAccount(s.runtime.core.store, 'capped@example.com'); // comes with its default key
    const issued = await createResetToken(s.runtime.core.store, 'capped@example.com');
    await s.request('POST', '/console/api/password/reset', { body: { token: issued!.token, password: 'capped user passphrase' }, headers: await formHeaders(s) });
    const { cookie, csrf } = await signedIn(s, 'capped@example.com', 'capped user passphrase');
    const make = (name: string, kind = 'api') => s.request('POST', '/console/api/keys', { body: { name, kind }, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal((await make('second')).statusCode, 200);
    const third = await make('third', 'mcp');
    assert.equal(third.statusCode, 200);
    for (const kind of ['api', 'mcp']) {
      const refused = await make(`fourth ${kind}`, kind);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().detail.error, 'limit_reached');
      assert.equal(refused.json().detail.limit, 3);
      assert.match(refused.json().detail.message, /3 active API keys and MCP tokens.*revoke one/);
    }
    const keys = (await s.request('GET', '/console/api/keys', { headers: { cookie } })).json().keys;
    assert.equal(keys.length, 3);
    const revoked = await s.request('POST', `/console/api/keys/${third.json().key_id}/revoke`, { headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal((await make('after revoking')).statusCode, 200);
  });

  test('one webhook endpoint over SIGHTLINE_MAX_WEBHOOKS_PER_ACCOUNT is 409 limit_reached; a deleted one frees its place', async () => {
    const { key } = await s.account();
    const other = await s.account();
    const create = (k: string, path: string) => s.request('POST', '/v1/webhooks', { key: k, body: { url: `http://127.0.0.1:9/${path}`, events: ['*'] } });
    const first = await create(key, 'a');
    assert.equal(first.statusCode, 200, first.body);
    assert.equal((await create(key, 'b')).statusCode, 200);
    const refused = await create(key, 'c');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.deepEqual([refused.json().detail.error, refused.json().detail.limit], ['limit_reached', 2]);
    assert.equal((await s.request('GET', '/v1/webhooks', { key })).json().webhooks.length, 2);
    assert.equal((await create(other.key, 'a')).statusCode, 200, 'the cap is per account');
    await s.request('DELETE', `/v1/webhooks/${first.json().id}`, { key });
    assert.equal((await create(key, 'c')).statusCode, 200);
  });

  // Two API processes on one database (two runtimes, two pools), creating at the same instant:
  // the count and the insert are one step, so the cap holds exactly, on SQLite and on Postgres.
  test('parallel creates from two processes stop exactly at the cap, the rest 409 limit_reached', async () => {
    const config = loadConfig({ SIGHTLINE_LOG_LEVEL: 'silent', DATABASE_URL: s.runtime.core.config.DATABASE_URL, SIGHTLINE_MAX_KEYS_PER_ACCOUNT: '3', SIGHTLINE_MAX_WEBHOOKS_PER_ACCOUNT: '2', SIGHTLINE_FETCH_ALLOW: '127.0.0.1' });
    const runtime = await openRuntime(config);
    const limiter = await createKeyRateLimiter({ perMinute: 600, handle: runtime.handle });
    const b = await buildApp({ core: runtime.core, rateLimiter: limiter });
    const N = 12;
    const statuses = async (send: (app: typeof b, i: number) => Promise<LightMyRequestResponse>) => {
      const answers = await Promise.all(Array.from({ length: N }, (_, i) => send(i % 2 ? b : s.app, i)));
      for (const a of answers) if (a.statusCode !== 200) assert.equal(a.json().detail.error, 'limit_reached', a.body);
      return answers.map((a) => a.statusCode).sort();
    };
    try {
      const { accountId, key } = await s.account();
      const hooks = await statuses((app, i) => app.inject({ method: 'POST', url: '/v1/webhooks', headers: { authorization: `Bearer ${key}` }, payload: { url: `http://127.0.0.1:9/${i}`, events: ['*'] } }));
      assert.deepEqual(hooks, [...Array(2).fill(200), ...Array(N - 2).fill(409)]);
      const endpoints = await s.runtime.core.store.db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', accountId).execute();
      assert.equal(endpoints.length, 2);

      await openAccount(s.runtime.core.store, 'racing@example.com'); // comes with its default key: 2 places left
      const issued = await createResetToken(s.runtime.core.store, 'racing@example.com');
      await s.request('POST', '/console/api/password/reset', { body: { token: issued!.token, password: 'racing user passphrase' }, headers: await formHeaders(s) });
      const { cookie, csrf } = await signedIn(s, 'racing@example.com', 'racing user passphrase');
      const keys = await statuses((app, i) => app.inject({ method: 'POST', url: '/console/api/keys', headers: { cookie, 'x-csrf-token': csrf }, payload: { name: `key ${i}` } }));
      assert.deepEqual(keys, [...Array(2).fill(200), ...Array(N - 2).fill(409)]);
      const active = await s.runtime.core.store.db.selectFrom('api_keys').innerJoin('accounts', 'accounts.id', 'api_keys.account_id').select('api_keys.id').where('accounts.email', '=', 'racing@example.com').where('revoked_at', 'is', null).execute();
      assert.equal(active.length, 3);
    } finally {
      await b.close();
      await limiter.close();
      await runtime.close();
    }
  });
});
