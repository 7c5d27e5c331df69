// In a real headless Chromium: the API reference at /docs renders under its Content-Security-
// Policy (no violation reported), and open sign-up in the console neither signs in nor tells
// whether the email had an account: it says to sign in, and the new user then does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openAccount } from '../../../src/core/accounts/accounts.ts';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { startRig, type BrowserRig } from './browser.ts';

describe('security in a browser', () => {
  let rig: BrowserRig;
  before(async () => {
    rig = await startRig({ SIGHTLINE_SIGNUP: 'open', SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '100' });
    await createOwner(rig.server.runtime.core.store, 'owner@agency.example', 'a long owner passphrase');
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  test('/docs renders its operations with no CSP violation', async () => {
    const page = await rig.open();
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    const res = await page.goto('/docs');
    assert.match(String(res?.headers()['content-security-policy']), /frame-ancestors 'none'/);
    await page.locator('.swagger-ui .info .title').waitFor();
    assert.match(await page.locator('.swagger-ui .info .title').innerText(), /sightline API/);
    await page.locator('.opblock').first().waitFor();
    assert.ok((await page.locator('.opblock').count()) > 10);
    assert.deepEqual(violations, []);
    await rig.screenshot(page, 'docs-under-csp');
    await page.close();
  });

  test('sign-up: the same page for a known and a new email, no session; the new user then signs in', async () => {
    await openAccount(rig.server.runtime.core.store, 'taken@agency.example', 500);
    const page = await rig.open();
    const texts: string[] = [];
    for (const email of ['taken@agency.example', 'newcomer@agency.example']) {
      await page.goto('/console/sign-up');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Choose a password').fill('a newcomer passphrase');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Now sign in' }).waitFor();
      texts.push((await page.locator('.card').innerText()).replace(email, 'EMAIL'));
      const session = await page.evaluate(async () => (await fetch('/console/api/session')).json());
      assert.equal(session.signed_in, false);
    }
    assert.equal(texts[0], texts[1], 'nothing on the page tells the two apart');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('newcomer@agency.example');
    await page.getByLabel('Password', { exact: true }).fill('a newcomer passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    await page.close();
  });
});
