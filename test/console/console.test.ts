// The console surface over HTTP (the browser tests drive the pages): the page and its files
// (strict CSP, gzip, ETag), the session cookie acting on /v1 as the console source, the console
// API refusing requests without a session, password-reset mail through a real SMTP exchange,
// and the CLI printing reset and invitation links.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { freshDatabaseUrl, startTestServer, type TestServer } from '../helpers/harness.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';
import { createInvite, createOwner, createResetToken, resetPassword } from '../../src/core/accounts/users.ts';
import { setAccountStatus } from '../../src/core/accounts/accounts.ts';
import { grantCredits } from '../../src/core/billing/ledger.ts';

/** Signs in through the console API (CSRF double submit) and returns the cookie header and token. */
async function signedIn(s: TestServer, email: string, password: string) {
  const first = await s.request('GET', '/console/api/session');
  const pre = String(first.headers['set-cookie']).split(';')[0]!;
  const signIn = await s.request('POST', '/console/api/sign-in', { body: { email, password }, headers: { cookie: pre, 'x-csrf-token': first.json().csrf_token } });
  assert.equal(signIn.statusCode, 200, signIn.body);
  const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  const csrf = (await s.request('GET', '/console/api/session', { headers: { cookie } })).json().csrf_token;
  return { cookie, csrf };
}

describe('web console over HTTP', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => s.close());

  test('the page: strict CSP with no inline allowance but the import map hash; deep links get the page', async () => {
    for (const path of ['/console', '/console/runs/vis_x', '/console/keys']) {
      const res = await s.request('GET', path);
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /<title>sightline console<\/title>/);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
      assert.match(csp, /frame-ancestors 'none'/);
    }
    assert.equal((await s.request('GET', '/')).statusCode, 302);
    const unknownApi = await s.request('GET', '/console/api/nothing-here');
    assert.equal(unknownApi.statusCode, 404);
    assert.equal(unknownApi.json().detail.error, 'not_found');
  });

  test('files: gzipped on request, revalidated by ETag, nothing outside the asset list', async () => {
    const plain = await s.request('GET', '/console/assets/vendor/preact.mjs');
    assert.equal(plain.statusCode, 200);
    assert.match(String(plain.headers['content-type']), /text\/javascript/);
    const gz = await s.app.inject({ method: 'GET', url: '/console/assets/vendor/preact.mjs', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.rawPayload).toString('utf8'), plain.body);
    assert.ok(gz.rawPayload.length < plain.rawPayload.length / 2);
    const again = await s.request('GET', '/console/assets/vendor/preact.mjs', { headers: { 'if-none-match': String(plain.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.equal((await s.request('GET', '/console/assets/../../config.ts')).statusCode, 404);
    assert.equal((await s.request('GET', '/console/assets/nothing.js')).statusCode, 404);
  });

  test('a session cookie acts on /v1 for the user\'s account as the console source; CSRF is needed to change anything', async () => {
    const owner = await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
    const { cookie, csrf } = await signedIn(s, 'owner@example.com', 'owner passphrase ok');
    const usage = await s.request('GET', '/v1/usage', { headers: { cookie } });
    assert.equal(usage.statusCode, 200);
    const body = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'] };
    await grantCredits(s.runtime.core.store, owner.account_id, 1000);
    const refused = await s.request('POST', '/v1/visibility/runs', { body, headers: { cookie } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().detail.error, 'csrf_failed');
    const created = await s.request('POST', '/v1/visibility/runs', { body, headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(created.statusCode, 200, created.body);
    const run = (await s.request('GET', `/v1/visibility/runs/${created.json().run_id}`, { headers: { cookie } })).json();
    assert.equal(run.source, 'console');
    const items = (await s.request('GET', '/v1/activity?kind=visibility', { headers: { cookie } })).json().items;
    assert.equal(items[0].source, 'console');
    assert.equal(items[0].key_prefix, null, 'a session, not a key');
    // A bearer key wins over a cookie: API clients never depend on cookies.
    const { key } = await s.account({ credits: 1 });
    const withKey = await s.request('GET', '/v1/usage', { key, headers: { cookie } });
    assert.equal(withKey.json().credits.available_credit_units, '1.00');
    // A suspended account's session is refused on /v1 like its keys.
    await setAccountStatus(s.runtime.core.store.db, owner.account_id, 'suspended');
    assert.equal((await s.request('GET', '/v1/usage', { headers: { cookie } })).json().detail.error, 'account_suspended');
    await setAccountStatus(s.runtime.core.store.db, owner.account_id, 'active');
  });

  test('a key that says x-sightline-surface: console is still the API: recorded as api, one idempotency scope', async () => {
    const { key, accountId } = await s.account({ credits: 10 });
    const body = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['deepseek'], idempotency_key: 'same' };
    const claimed = await s.request('POST', '/v1/visibility/runs', { key, body, headers: { 'x-sightline-surface': 'console' } });
    const plain = await s.request('POST', '/v1/visibility/runs', { key, body });
    assert.equal(claimed.statusCode, 200, claimed.body);
    assert.equal(claimed.json().run_id, plain.json().run_id, 'the same request of the same key: one run');
    const run = (await s.request('GET', `/v1/visibility/runs/${claimed.json().run_id}`, { key })).json();
    assert.equal(run.source, 'api');
    const items = (await s.runtime.core.activity.list(accountId, { limit: 10, kind: 'visibility' })).items;
    assert.ok(items.length >= 2);
    assert.deepEqual([...new Set(items.map((i) => i.source))], ['api']);
  });

  test('the console reads the balance without an activity row; /v1/usage still records usage.read for a session and a key', async () => {
    const owner = await s.account({ email: 'balance-reader@example.com', credits: 12.5 });
    const issued = await createResetToken(s.runtime.core.store, 'balance-reader@example.com');
    await resetPassword(s.runtime.core.store, issued!.token, 'balance reader password');
    const { cookie } = await signedIn(s, 'balance-reader@example.com', 'balance reader password');
    assert.equal((await s.request('GET', '/console/api/balance')).statusCode, 401);
    const usageReads = async () => (await s.runtime.core.activity.list(owner.accountId, { limit: 100, kind: 'all' })).items.filter((i) => i.action === 'usage.read');
    for (let i = 0; i < 3; i++) {
      const balance = await s.request('GET', '/console/api/balance', { headers: { cookie } });
      assert.equal(balance.statusCode, 200);
      assert.deepEqual(balance.json().credits, (await s.request('GET', '/v1/usage', { key: owner.key })).json().credits);
      assert.equal(balance.json().credits.available_credit_units, '12.50');
    }
    const rows = await s.runtime.core.activity.list(owner.accountId, { limit: 100, kind: 'all' });
    assert.deepEqual(rows.items.map((i) => i.path).filter((p) => p.startsWith('/console/')), [], 'no console balance read recorded');
    assert.equal((await usageReads()).length, 3, 'each key read of /v1/usage recorded');
    await s.request('GET', '/v1/usage', { headers: { cookie } });
    const reads = await usageReads();
    assert.equal(reads.length, 4);
    assert.equal(reads[0]!.source, 'console', 'a session reading /v1/usage is recorded as before');
  });

  test('console endpoints need a session, and operator endpoints the operator', async () => {
    assert.equal((await s.request('GET', '/console/api/keys')).statusCode, 401);
    assert.equal((await s.request('GET', '/console/api/operator/accounts')).statusCode, 401);
    await s.account({ email: 'member@example.com' });
    const issued = await createResetToken(s.runtime.core.store, 'member@example.com');
    await resetPassword(s.runtime.core.store, issued!.token, 'member password ok');
    const { cookie } = await signedIn(s, 'member@example.com', 'member password ok');
    assert.equal((await s.request('GET', '/console/api/keys', { headers: { cookie } })).statusCode, 200);
    const op = await s.request('GET', '/console/api/operator/accounts', { headers: { cookie } });
    assert.equal(op.statusCode, 403);
    assert.equal(op.json().detail.error, 'forbidden');
  });
});

describe('a schedule set from the console', () => {
  test('runs as the user who set it (the session has no key): source schedule, not skipped as key_revoked', async () => {
    const s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    try {
      const owner = await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
      await grantCredits(s.runtime.core.store, owner.account_id, 50_00);
      const { cookie, csrf } = await signedIn(s, 'owner@example.com', 'owner passphrase ok');
      const created = await s.request('POST', '/v1/tests', {
        headers: { cookie, 'x-csrf-token': csrf },
        body: { test_type: 'ai_citations', definition: { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best tools'], platforms: ['deepseek'] }, schedule: { cron: '0 * * * *' } },
      });
      assert.equal(created.statusCode, 200, created.body);
      const test = created.json();
      const now = new Date(Date.parse(test.next_run_at) + 30_000);
      const { Scheduler } = await import('../../src/core/tracking/scheduler.ts');
      await new Scheduler(s.runtime.core.tracking, { now: () => now }).tick();
      const slots = await s.runtime.core.store.db.selectFrom('test_slots').selectAll().where('test_id', '=', test.id).execute();
      assert.deepEqual(slots.map((x) => [x.status, x.reason]), [['run', null]]);
      const runs = await s.runtime.core.store.db.selectFrom('visibility_runs').select(['source']).where('test_id', '=', test.id).execute();
      assert.deepEqual(runs.map((r) => r.source), ['schedule']);
    } finally {
      await s.close();
    }
  });
});

describe('sign-up modes', () => {
  test('open: anyone signs up; invite (the default): sign-up refused, invitations work; closed: neither', async () => {
    const open = await startTestServer({ SIGHTLINE_SIGNUP: 'open' });
    const invite = await startTestServer();
    const closed = await startTestServer({ SIGHTLINE_SIGNUP: 'closed' });
    try {
      const formHeaders = async (s: TestServer) => {
        const first = await s.request('GET', '/console/api/session');
        return { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token };
      };
      const body = { email: 'someone@example.com', password: 'a fine passphrase' };
      for (const s of [open, invite, closed]) await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
      const opened = await open.request('POST', '/console/api/signup', { body, headers: await formHeaders(open) });
      assert.equal(opened.statusCode, 200, opened.body);
      assert.deepEqual(opened.json(), { signed_in: false, mailed: false });
      const entered = await open.request('POST', '/console/api/sign-in', { body, headers: await formHeaders(open) });
      assert.equal(entered.json().user.role, 'member');
      const refused = await invite.request('POST', '/console/api/signup', { body, headers: await formHeaders(invite) });
      assert.equal(refused.json().detail.error, 'signup_closed');
      assert.ok((await createInvite(invite.runtime.core.store, 'invite', 'someone@example.com', 0, 'test')).token);
      await assert.rejects(createInvite(closed.runtime.core.store, 'closed', 'someone@example.com', 0, 'test'), /closed/);
      assert.equal((await closed.request('POST', '/console/api/signup', { body, headers: await formHeaders(closed) })).json().detail.error, 'signup_closed');
    } finally {
      await open.close();
      await invite.close();
      await closed.close();
    }
  });
});

describe('password reset by mail and the operator CLI', () => {
  test('with SIGHTLINE_SMTP_URL the reset link is mailed; the answer is the same for an unknown email', async () => {
    const sink = await startSmtpSink();
    const s = await startTestServer({ SIGHTLINE_SMTP_URL: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true`, SIGHTLINE_PUBLIC_URL: 'https://sightline.agency.example' });
    try {
      await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
      const first = await s.request('GET', '/console/api/session');
      const headers = { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token };
      const known = await s.request('POST', '/console/api/password/forgot', { body: { email: 'Owner@Example.com' }, headers });
      const unknown = await s.request('POST', '/console/api/password/forgot', { body: { email: 'nobody@example.com' }, headers });
      assert.deepEqual(known.json(), { mailed: true });
      assert.deepEqual(unknown.json(), known.json());
      await sink.waitFor(1); // sent after the answer
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(sink.mails.length, 1);
      assert.match(sink.mails[0]!.to.join(), /owner@example\.com/);
      const link = /https:\/\/sightline\.agency\.example\/console\/reset#token=([\w-]+)/.exec(sink.mails[0]!.data.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
      assert.ok(link, sink.mails[0]!.data);
      const reset = await s.request('POST', '/console/api/password/reset', { body: { token: link[1], password: 'brand new passphrase' }, headers });
      assert.equal(reset.statusCode, 200, reset.body);
    } finally {
      await s.close();
      await sink.close();
    }
  });

  test('sightline users reset-link and users invite print one-time links', async () => {
    const db = await freshDatabaseUrl();
    const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
    const cli = async (...args: string[]) =>
      JSON.parse((await promisify(execFile)(process.execPath, [BIN, ...args, '--json'], { env: { ...process.env, DATABASE_URL: db.url, SIGHTLINE_PUBLIC_URL: 'https://console.example' } })).stdout);
    try {
      await cli('migrate');
      await cli('accounts', 'create', '--email', 'ops@example.com');
      const reset = await cli('users', 'reset-link', '--email', 'ops@example.com');
      assert.match(reset.link, /^https:\/\/console\.example\/console\/reset#token=[\w-]{40,}$/);
      const invite = await cli('users', 'invite', '--email', 'new@example.com', '--credits', '5');
      assert.match(invite.link, /^https:\/\/console\.example\/console\/invite#token=/);
      assert.equal(invite.credits, '5.00');
      assert.deepEqual([invite.account_id, invite.role], [null, 'admin'], 'a new account, its admin');
      const accountId = (await cli('accounts', 'create', '--email', 'team@example.com')).account_id as string;
      const joins = await cli('users', 'invite', '--email', 'colleague@example.com', '--account', accountId, '--role', 'admin');
      assert.deepEqual([joins.account_id, joins.role, joins.credits], [accountId, 'admin', '0.00']);
      const member = await cli('users', 'invite', '--email', 'helper@example.com', '--account', accountId);
      assert.equal(member.role, 'member', 'member by default');
      await assert.rejects(cli('users', 'invite', '--email', 'x@example.com', '--role', 'admin'), /--role needs --account/);
      await assert.rejects(cli('users', 'invite', '--email', 'x@example.com', '--account', accountId, '--credits', '5'), /--credits does not apply with --account/);
      await assert.rejects(cli('users', 'invite', '--email', 'x@example.com', '--account', 'acc_nope'), /account acc_nope not found/);
      await assert.rejects(cli('users', 'reset-link', '--email', 'nobody@example.com'), /no account or user has the email/);
    } finally {
      await db.drop();
    }
  });

  test('without SIGHTLINE_PUBLIC_URL a printed link uses HOST and PORT and says its origin is a guess', async () => {
    const db = await freshDatabaseUrl();
    const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
    const { SIGHTLINE_PUBLIC_URL: _u, PORT: _p, HOST: _h, ...base } = process.env;
    const run = async (env: Record<string, string>, ...args: string[]) => {
      const r = await promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...base, DATABASE_URL: db.url, ...env } });
      return { out: r.stdout, err: r.stderr };
    };
    try {
      await run({}, 'migrate');
      await run({}, 'accounts', 'create', '--email', 'ops@example.com');
      const plain = await run({}, 'users', 'reset-link', '--email', 'ops@example.com', '--json');
      assert.match(JSON.parse(plain.out).link, /^http:\/\/localhost:8080\/console\/reset#token=/);
      assert.match(plain.err, /SIGHTLINE_PUBLIC_URL is not set, so the link starts with http:\/\/localhost:8080 \(HOST and PORT of this shell; PORT defaults to 8080\)/);
      const port = await run({ PORT: '18555' }, 'users', 'reset-link', '--email', 'ops@example.com');
      assert.match(port.out, /^http:\/\/localhost:18555\/console\/reset#token=/m, 'the port the server would listen on');
      const host = await run({ PORT: '18555', HOST: '127.0.0.1' }, 'users', 'invite', '--email', 'new@example.com', '--json');
      assert.match(JSON.parse(host.out).link, /^http:\/\/127\.0\.0\.1:18555\/console\/invite#token=/, 'a bound address stands for localhost');
      assert.match(host.err, /set SIGHTLINE_PUBLIC_URL to its address/);
      const set = await run({ SIGHTLINE_PUBLIC_URL: 'https://console.example' }, 'users', 'reset-link', '--email', 'ops@example.com');
      assert.equal(set.err, '', 'no note when the origin is set');
    } finally {
      await db.drop();
    }
  });
});
