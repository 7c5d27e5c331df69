// The owner set-up from another machine in a real headless Chromium: the browser's requests carry
// X-Forwarded-For (a loopback request that says it was forwarded is not local), so the set-up page
// needs the one-time link; opened with it, the owner is created. One browser and one server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { issueSetupToken } from '../../../src/core/accounts/users.ts';
import { startRig, type BrowserRig, browserSkip } from './browser.ts';

const OWNER = { email: 'owner@agency.example', password: 'a long owner passphrase' };

describe('owner set-up from another machine in a browser', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  before(async () => {
    rig = await startRig();
    page = await rig.open();
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.7' });
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  async function fillAndSubmit() {
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Choose a password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner account' }).click();
  }

  test('without the link: refused, and the page says where the link is', async () => {
    await page.goto('/console');
    await page.getByRole('heading', { name: 'Set up sightline' }).waitFor();
    await fillAndSubmit();
    await page.getByRole('alert').getByText('needs the set-up link that `sightline serve` printed').waitFor();
    await page.getByText('or open the console on the server itself, through localhost').waitFor();
    assert.equal(await page.getByText('set-up link').count(), 1, 'the page says it once');
  });

  test('?setup= from the link: the owner is created and lands in the console', async () => {
    const token = await issueSetupToken(rig.server.runtime.core.store.db);
    await page.goto(`/console?setup=${token}`);
    await page.getByRole('heading', { name: 'Set up sightline' }).waitFor();
    await fillAndSubmit();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    assert.match(await page.locator('.who').innerText(), /owner@agency\.example/);
    assert.doesNotMatch(page.url(), /setup=/, 'the token leaves the address bar');
  });

  test('once the owner exists, a fresh link sets up no one', async () => {
    const token = await issueSetupToken(rig.server.runtime.core.store.db);
    const res = await rig.server.app.inject({ method: 'POST', url: '/console/api/setup', headers: { 'x-forwarded-for': '203.0.113.7' }, payload: { email: 'x@example.com', password: OWNER.password, setup_token: token } });
    assert.notEqual(res.statusCode, 200, 'an owner exists: no set-up, link or not');
  });
});
