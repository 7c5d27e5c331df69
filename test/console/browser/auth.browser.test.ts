// Console sign-in in a real headless Chromium against a real server: the owner's set-up on a
// fresh instance, sign-out and sign-in, a wrong password and the lockout (the same for an email
// that has no user), CSRF refused, the first password of a CLI-made account through a reset
// link, an invitation, and sign-out everywhere. One browser and one server for the file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openAccount } from '../../../src/core/accounts/accounts.ts';
import { createResetToken, issueSetupToken, MAX_FAILED_LOGINS } from '../../../src/core/accounts/users.ts';
import { axeViolations, startRig, type BrowserRig, browserSkip } from './browser.ts';

const OWNER = { email: 'owner@agency.example', password: 'a long owner passphrase' };

describe('console sign-in in a browser', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  before(async () => {
    rig = await startRig({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '60', SIGHTLINE_PUBLIC_URL: 'http://console.example' });
    page = await rig.open();
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  async function signIn(email: string, password: string) {
    await page.goto('/console/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  async function signOut() {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  }
  /** A fetch from inside the signed-in page, with or without the CSRF token. */
  const fetchFromPage = (path: string, init: { method: string; headers?: Record<string, string>; body?: string }) =>
    page.evaluate(async ({ path, init }) => {
      const res = await fetch(path, { ...init, credentials: 'same-origin' });
      return { status: res.status, body: await res.json() };
    }, { path, init });

  test('a fresh instance offers to create the owner; the owner lands in the console', async () => {
    // SIGHTLINE_PUBLIC_URL is set (a proxy in front): the set-up takes the printed link.
    await page.goto(`/console?setup=${await issueSetupToken(rig.server.runtime.core.store.db)}`);
    await page.getByRole('heading', { name: 'Set up sightline' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await rig.screenshot(page, 'setup-desktop');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Choose a password').fill('short');
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.getByText('Passwords need at least 10 characters').waitFor();
    await page.getByLabel('Choose a password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    assert.match(await page.locator('.who').innerText(), /owner@agency\.example/);
    await page.getByRole('link', { name: 'Operator' }).waitFor();

    const cookies = await rig.context.cookies();
    const session = cookies.find((c) => c.name === 'sightline_session')!;
    assert.ok(session, 'a session cookie');
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, 'Strict');
    assert.equal(session.secure, false, 'Secure only over https');

    // The set-up is once only: a second owner is refused.
    const again = await fetchFromPage('/console/api/setup', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': 'x' }, body: '{}' });
    assert.equal(again.status, 403);
  });

  test('sign out ends the session; signing in again works', async () => {
    const before = (await rig.context.cookies()).find((c) => c.name === 'sightline_session')!.value;
    await signOut();
    // The old cookie no longer works even if replayed.
    const replay = await rig.server.app.inject({ method: 'GET', url: '/v1/usage', headers: { cookie: `sightline_session=${before}` } });
    assert.equal(replay.statusCode, 401);
    await signIn(OWNER.email, OWNER.password);
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
  });

  test('CSRF: the console API and /v1 refuse a cookie-authenticated change without the session token', async () => {
    const noToken = await fetchFromPage('/console/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x' }) });
    assert.equal(noToken.status, 403);
    assert.equal(noToken.body.detail.error, 'csrf_failed');
    const wrong = await fetchFromPage('/v1/visibility/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': 'not-the-token' },
      body: JSON.stringify({ url: 'https://a.example', target_entity: 'A', prompts: ['p'], platforms: ['openai'] }),
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.detail.error, 'csrf_failed');
    // Reads need no token, and the same request with the token goes through.
    assert.equal((await fetchFromPage('/v1/usage', { method: 'GET' })).status, 200);
    const token = (await fetchFromPage('/console/api/session', { method: 'GET' })).body.csrf_token;
    const withToken = await fetchFromPage('/console/api/keys', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ name: 'csrf ok' }) });
    assert.equal(withToken.status, 200);
    // A cross-site request is refused even with a token.
    const cross = await rig.server.app.inject({ method: 'POST', url: '/console/api/sign-out', headers: { 'sec-fetch-site': 'cross-site', 'x-csrf-token': token, cookie: (await rig.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } });
    assert.equal(cross.statusCode, 403);
  });

  test('a wrong password fails; repeated failures lock the email, the same way for an email without a user', async () => {
    await signOut();
    await signIn(OWNER.email, 'not the password at all');
    await page.getByText('The email or password is not right.').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong guess ${i}`);
      const answered = page.waitForResponse((r) => r.url().endsWith('/console/api/sign-in'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.equal((await answered).status(), 401);
      await page.getByRole('button', { name: 'Sign in' }).and(page.locator(':enabled')).waitFor();
    }
    // Locked now: even the right password is refused until the lock expires.
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Too many failed sign-ins for this email').waitFor();
    await rig.screenshot(page, 'sign-in-locked-desktop');

    // An email nobody has answers exactly alike: same error, then the same lock.
    const anon = await csrfClient('10.1.1.1');
    const answers = [];
    for (let i = 0; i <= MAX_FAILED_LOGINS; i++) answers.push(await anon.post('/console/api/sign-in', { email: 'nobody@nowhere.example', password: 'whatever it is' }));
    assert.deepEqual(answers.slice(0, MAX_FAILED_LOGINS).map((a) => [a.statusCode, a.json().detail.error]), Array(MAX_FAILED_LOGINS).fill([401, 'invalid_credentials']));
    assert.deepEqual([answers[MAX_FAILED_LOGINS]!.statusCode, answers[MAX_FAILED_LOGINS]!.json().detail.error], [429, 'login_locked']);

    // The lock ends with a password reset (the operator prints the link: no mail here).
    const issued = await createResetToken(rig.server.runtime.core.store, OWNER.email);
    await page.goto(`/console/reset#token=${issued!.token}`);
    await page.getByLabel('Choose a password').fill(OWNER.password + ' renewed');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    // The link works once.
    const reused = await anon.post('/console/api/password/reset', { token: issued!.token, password: 'another long password' });
    assert.equal(reused.json().detail.error, 'invalid_token');
    OWNER.password += ' renewed';
  });

  test('sign-in forms are limited per client address', async () => {
    const client = await csrfClient('10.2.2.2');
    let last;
    for (let i = 0; i < 61; i++) last = await client.post('/console/api/sign-in', { email: 'x' });
    assert.equal(last!.statusCode, 429);
    assert.equal(last!.json().detail.error, 'rate_limited');
  });

  test('an account made by the CLI gets its first password through a reset link; forgot-password says how without mail', async () => {
    const core = rig.server.runtime.core;
    const { account } = await openAccount(core.store, 'cli-made@agency.example', 500);
    await signOut();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill('cli-made@agency.example');
    await page.getByRole('button', { name: 'Get a password link' }).click();
    await page.getByText('npx sightline users reset-link --email cli-made@agency.example').waitFor();
    const issued = await createResetToken(core.store, 'cli-made@agency.example');
    await page.goto(`/console/reset#token=${issued!.token}`);
    await page.getByLabel('Choose a password').fill('cli user first password');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    assert.match(await page.getByTestId('balance').innerText(), /5\.00 cr/);
    // It acts for the CLI-made account: its runs are that account's.
    const session = await fetchFromPage('/console/api/session', { method: 'GET' });
    assert.equal(session.body.account.id, account.id);
    assert.equal(session.body.user.role, 'member');
    await page.getByRole('link', { name: 'Operator' }).waitFor({ state: 'detached' });
    await signOut();
  });

  test('the operator invites someone; the invitee opens an account with the credits; the operator suspends it', async () => {
    await signIn(OWNER.email, OWNER.password);
    await page.getByRole('link', { name: 'Operator' }).click();
    const ownerAccount = (await fetchFromPage('/console/api/session', { method: 'GET' })).body.account.id;
    // An agency inviting a colleague must not expect a shared workspace: the field says so.
    const hint = await page.getByLabel('Email').getAttribute('aria-describedby');
    assert.match(await page.locator(`#${hint}`).innerText(), /account of their own.*nothing of another account is shared with them.*Into an existing account, they work in it.*share link/);
    await page.getByLabel('Email').fill('new.client@brand.example');
    await page.getByLabel('Starting credits (optional)').fill('25');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    assert.match(link, /^http:\/\/console\.example\/console\/invite#token=/);
    assert.deepEqual(await axeViolations(page), []);
    await signOut();
    await page.goto(link.replace('http://console.example', ''));
    await page.getByText('Your account starts with 25.00 credits.').waitFor();
    await page.getByLabel('Choose a password').fill('invitee password here');
    await page.getByRole('button', { name: 'Open my account' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    assert.match(await page.getByTestId('balance').innerText(), /25\.00 cr/);
    assert.notEqual((await fetchFromPage('/console/api/session', { method: 'GET' })).body.account.id, ownerAccount, 'an account of their own');
    await signOut();

    await signIn(OWNER.email, OWNER.password);
    await page.getByRole('link', { name: 'Operator' }).click();
    const row = page.getByRole('row').filter({ hasText: 'new.client@brand.example' });
    await row.getByRole('button', { name: 'Suspend' }).click();
    await row.getByText('suspended').waitFor();
    await row.getByLabel('Credits to grant to new.client@brand.example').fill('10');
    await row.getByRole('button', { name: 'Grant' }).click();
    await row.getByText('35.00').waitFor();
    await rig.screenshot(page, 'operator-desktop');
  });

  test('changing the password while signed in: the current one is required, other sessions end, this one stays', async () => {
    const otherBrowser = await csrfClient('10.4.4.4');
    assert.equal((await otherBrowser.post('/console/api/sign-in', { email: OWNER.email, password: OWNER.password })).statusCode, 200);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    // A wrong current password is refused and changes nothing.
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not right.').waitFor();
    assert.equal((await otherBrowser.get('/v1/usage')).statusCode, 200, 'a refused change ends no session');
    // A weak new password is refused by the server's rule.
    await page.getByLabel('Current password').fill(OWNER.password);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Passwords need at least 10 characters.').waitFor();
    await page.getByLabel('New password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. 1 other session was signed out.').waitFor();
    assert.equal((await otherBrowser.get('/v1/usage')).statusCode, 401, 'the other session ended');
    await page.reload();
    await page.getByRole('heading', { name: 'Change password' }).waitFor(); // still signed in here
    const fresh = await csrfClient('10.4.4.5');
    assert.equal((await fresh.post('/console/api/sign-in', { email: OWNER.email, password: OWNER.password })).statusCode, 401, 'the old password no longer works');
    assert.equal((await fresh.post('/console/api/sign-in', { email: OWNER.email, password: 'a brand new passphrase' })).statusCode, 200);
    OWNER.password = 'a brand new passphrase';
    await rig.screenshot(page, 'account-password-desktop');
    await page.getByRole('link', { name: 'Operator' }).click();
  });

  test('sign out everywhere ends every session of the user', async () => {
    const otherBrowser = await csrfClient('10.3.3.3');
    const other = await otherBrowser.post('/console/api/sign-in', { email: OWNER.email, password: OWNER.password });
    assert.equal(other.statusCode, 200);
    assert.equal((await otherBrowser.get('/v1/usage')).statusCode, 200);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByText('Another browser').first().waitFor();
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal((await otherBrowser.get('/v1/usage')).statusCode, 401, 'the other session ended too');
  });

  /** A non-browser client that keeps cookies and echoes the CSRF token, from its own address. */
  async function csrfClient(remoteAddress: string) {
    const app = rig.server.app;
    const jar = new Map<string, string>();
    let token = '';
    const keep = (res: { headers: Record<string, unknown> }) => {
      const set = res.headers['set-cookie'];
      for (const c of ([] as string[]).concat((set as string[] | string | undefined) ?? [])) {
        const [pair] = c.split(';');
        const [name, value] = pair!.split('=');
        jar.set(name!, value!);
      }
    };
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url, remoteAddress, headers: { cookie: cookie() } });
      keep(res);
      return res;
    };
    const refreshToken = async () => {
      token = (await get('/console/api/session')).json().csrf_token;
    };
    await refreshToken();
    return {
      get,
      async post(url: string, body: unknown) {
        const res = await app.inject({ method: 'POST', url, remoteAddress, payload: body as object, headers: { cookie: cookie(), 'x-csrf-token': token } });
        keep(res);
        if (res.statusCode === 200) await refreshToken();
        return res;
      },
    };
  }
});
