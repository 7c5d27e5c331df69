// The balance in the console, in a real Chromium against a real server: the owner of a fresh
// instance (docs/getting-started.md) is told their balance is zero and led to the grant form; the
// header follows a grant, a cancelled run and the tab regaining focus without a page change; the
// header's background balance reads leave no usage.read rows in the activity log while explicit
// actions still do; a member with no credits is told to ask the operator.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createResetToken, resetPassword } from '../../../src/core/accounts/users.ts';
import { getBalance, grantCredits } from '../../../src/core/billing/ledger.ts';
import { axeViolations, startRig, type BrowserRig, browserSkip, signIn } from './browser.ts';

const OWNER = { email: 'owner@balance.example', password: 'owner balance passphrase' };
const MEMBER = { email: 'member@balance.example', password: 'member balance passphrase' };

describe('the balance in the console', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let accountId: string;
  const header = () => page.getByTestId('balance');
  const core = () => rig.server.runtime.core;

  before(async () => {
    // Two probes at a time, so a run of six has queued probes for a cancel to release.
    rig = await startRig({ SIGHTLINE_WORKER_CONCURRENCY: '2' });
    page = await rig.open();
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  /** Screenshots at 1280 and 390 px wide, back to 1280 after. */
  async function bothWidths(name: string) {
    await rig.screenshot(page, `${name}-desktop`);
    await page.setViewportSize({ width: 390, height: 844 });
    await rig.screenshot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  test('the owner of a fresh instance has 0.00 credits: the runs page and the form say so and lead to the grant form', async () => {
    await page.goto('/console');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Choose a password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create owner account' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    accountId = await page.evaluate(async () => (await (await fetch('/console/api/session')).json()).account.id);
    await header().getByText('0.00 cr').waitFor();
    const note = page.getByTestId('zero-balance');
    await note.waitFor();
    assert.match(await note.innerText(), /Your balance is 0\.00 credits, so no run can start\. As the operator of this instance you grant them yourself/);
    assert.deepEqual(await axeViolations(page), []);
    await bothWidths('runs-zero-balance-operator');

    await page.getByRole('link', { name: 'New visibility run' }).click();
    await page.getByRole('heading', { name: 'New visibility run' }).waitFor();
    await note.waitFor();
    await rig.screenshot(page, 'new-run-zero-balance-operator-desktop');

    // The link opens the Operator page at the owner's own grant form, ready to type in.
    await note.getByRole('link', { name: 'grant credits to your account' }).click();
    await page.waitForURL(`**/console/operator#grant-${accountId}`);
    await page.waitForFunction((id) => document.activeElement?.id === id, `grant-${accountId}`);
  });

  test('a grant: confirmed on the page, and the header shows the new balance without a page change', async () => {
    const url = page.url();
    const field = page.locator(`#grant-${accountId}`);
    // Refused: said beside the form, nothing granted.
    await field.fill('99999999');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Not granted' });
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /Not granted: .*credits/);
    assert.equal(await header().innerText(), '0.00 cr');

    await field.fill('200');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    const confirmation = page.getByTestId('grant-confirmation');
    await confirmation.waitFor();
    assert.equal(await confirmation.innerText(), `Granted 200.00 credits to your account (${OWNER.email}). Your balance is now 200.00 credits.`);
    await header().getByText('200.00 cr').waitFor();
    assert.equal(page.url(), url, 'no navigation');
    await page.getByRole('row').filter({ hasText: OWNER.email }).getByText('200.00').first().waitFor();
    assert.equal(await refusal.count(), 0, 'the refusal is gone');
    assert.deepEqual(await axeViolations(page), []);
    await bothWidths('operator-granted');

    // With credits the runs page no longer shows the note.
    await page.getByRole('link', { name: 'Visibility', exact: true }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    await page.getByText('No visibility runs yet').waitFor();
    assert.equal(await page.getByTestId('zero-balance').count(), 0);
  });

  test('the header follows a run queued and cancelled, and credits granted elsewhere once the tab regains focus', async () => {
    await page.goto('/console/runs/new');
    await page.getByLabel('Your page URL').fill('https://acme.example/');
    await page.getByLabel('Brand').fill('Acme');
    await page.getByLabel('One prompt per line').fill('slow one [[sandbox:delay=20000]]\nslow two [[sandbox:delay=20000]]\nslow three [[sandbox:delay=20000]]');
    await page.getByRole('button', { name: 'Queue 6 probes for 12.00 cr' }).click();
    await page.waitForURL(/\/console\/runs\/vis_/);
    await header().getByText('188.00 cr').waitFor();
    // Cancelling releases the queued probes' credits (those not yet running; how many have started
    // depends on the workers): the header rises on this page to what the ledger holds.
    const url = page.url();
    await page.getByRole('button', { name: 'Cancel queued probes' }).click();
    let available = 188_00;
    for (const deadline = Date.now() + 20_000; available === 188_00 && Date.now() < deadline; ) {
      available = (await getBalance(core().store.db, accountId)).available;
      if (available === 188_00) await page.waitForTimeout(100);
    }
    assert.ok(available > 188_00 && available <= 200_00, `the cancel released credits (available ${available})`);
    await header().getByText(`${(available / 100).toFixed(2)} cr`).waitFor();
    assert.equal(page.url(), url, 'no navigation');

    // Credits granted by someone else (the CLI) show when the user comes back to the tab.
    const before = Number.parseFloat(await header().innerText());
    await grantCredits(core().store, accountId, 50_00);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await header().getByText(`${(before + 50).toFixed(2)} cr`).waitFor();
  });

  test('the header\'s balance reads are not activity; the actions the user took are', async () => {
    for (let round = 0; round < 2; round++) {
      for (const link of ['Content', 'Tracked tests', 'API keys', 'Account', 'Operator', 'Visibility']) {
        await page.getByRole('link', { name: link, exact: true }).click();
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
      }
    }
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await page.waitForLoadState('networkidle');
    const { items } = await core().activity.list(accountId, { limit: 100, kind: 'all' });
    const actions = items.map((i) => i.action);
    assert.equal(actions.filter((a) => a === 'usage.read').length, 0, actions.join(', '));
    for (const done of ['console.operator.credits.grant', 'visibility.runs.create', 'visibility.runs.cancel']) assert.ok(actions.includes(done), `${done} in ${actions.join(', ')}`);

    // The account page's list shows the same: no usage.read among its rows.
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByLabel('Rows').selectOption('100');
    const activity = page.getByRole('table', { name: 'Recent requests' });
    await activity.getByText('Credits granted').first().waitFor();
    assert.doesNotMatch(await activity.innerText(), /usage\.read/);
    assert.match(await page.locator('.stats').first().innerText(), /Available\s+\d+\.\d\d/i);
  });

  test('a member with no credits is told to ask the operator (no link to a page they cannot open)', async () => {
    await rig.server.account({ email: MEMBER.email });
    const issued = await createResetToken(core().store, MEMBER.email);
    await resetPassword(core().store, issued!.token, MEMBER.password);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, MEMBER, { open: false });
    await header().getByText('0.00 cr').waitFor();
    const note = page.getByTestId('zero-balance');
    await note.waitFor();
    assert.match(await note.innerText(), /Your balance is 0\.00 credits, so no run can start\. Ask the operator of this instance to grant you credits\./);
    assert.equal(await note.getByRole('link').count(), 0);
    await bothWidths('runs-zero-balance-member');
  });
});
