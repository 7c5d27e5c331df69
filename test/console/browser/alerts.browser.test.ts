// The Alerts page in a real Chromium against a real server: a webhook endpoint on a receiver on
// 127.0.0.1 is added (its secret shown once and matching what the receiver can verify), a run's
// run.completed message fails every scheduled attempt and shows as failed in the delivery log
// with its attempts, "Send again" delivers it once the receiver answers 200; events are edited,
// the endpoint disabled and deleted, a Slack destination added, the credits.low threshold set and
// the owner's e-mail choice given the weekly digest. At 1280 and 390 px: no sideways scroll, no
// serious or critical axe violation; screenshots in test-artifacts/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits } from '../../../src/core/billing/ledger.ts';
import { startReceiver, until, type Receiver } from '../../helpers/webhook-receiver.ts';
import { axeViolations, horizontalOverflow, startRig, type BrowserRig, browserSkip, signIn } from './browser.ts';

const OWNER = { email: 'owner@alerts.example', password: 'owner alerts passphrase' };

describe('the Alerts page', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let rx: Receiver;
  let page: Page;
  let key: string;
  let accountId: string;
  let healthy = false;
  const api = async (method: string, path: string, body?: unknown) => (await rig.server.request(method, path, { key, body })).json();

  before(async () => {
    rx = await startReceiver();
    // The receiver fails until the test says otherwise: one retry 100 ms later, then failed.
    rx.answer = () => ({ status: healthy ? 200 : 503 });
    rig = await startRig({ SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '100ms', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    await grantCredits(rig.server.runtime.core.store, accountId, 100_00);
    key = await rig.server.key(accountId);
    page = await rig.open();
    page.on('dialog', (d) => d.accept());
    await signIn(page, OWNER);
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
    await rx.close();
  });

  /** Screenshots, axe and the sideways-scroll check at 1280 and 390 px, back to 1280 after. */
  async function bothWidths(name: string) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      const o = await horizontalOverflow(page);
      assert.ok(o.scrollWidth <= o.innerWidth, `${name} at ${width}px scrolls sideways: ${o.scrollWidth} > ${o.innerWidth}`);
      assert.deepEqual(await axeViolations(page), [], `${name} at ${width}px`);
      await rig.screenshot(page, `${name}-${width === 1280 ? 'desktop' : '390'}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  test('an endpoint: the secret once, a failed delivery with its attempts, sent again and delivered', async () => {
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    await page.getByText('No destinations yet').waitFor();
    await bothWidths('alerts-empty');

    await page.getByLabel('Endpoint URL').fill(rx.url('/console-hook'));
    await page.getByLabel('Note (optional)').fill('ops receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByTestId('webhook-secret-value').inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    await bothWidths('alerts-secret');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });
    // Shown once: the page and the API never show it again.
    assert.equal((await page.content()).includes(secret), false);
    const [hook] = (await api('GET', '/v1/webhooks')).webhooks;
    assert.deepEqual([hook.url, hook.events, hook.description, hook.secret], [rx.url('/console-hook'), ['run.completed', 'tracked_test.changed'], 'ops receiver', undefined]);

    // A run finishes: its run.completed message fails both attempts.
    const run = await api('POST', '/v1/visibility/runs', { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils [[sandbox:mention]]'], platforms: ['openai'] });
    await rx.waitFor(2, (r) => r.path === '/console-hook');
    const card = page.getByTestId('endpoint');
    await card.getByRole('button', { name: 'Show deliveries' }).click();
    const log = page.getByTestId(`deliveries-${hook.id}`);
    await until(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      return (await log.locator('.badge.failed').count()) === 1;
    });
    assert.match(await log.innerText(), /run\.completed/);
    assert.match(await log.innerText(), /503/);
    await log.getByText('2 attempts').click();
    assert.equal(await log.locator('ol.attempt-list li').count(), 2);
    await bothWidths('alerts-delivery-failed');

    // The receiver is fixed; "Send again" delivers the same message (same webhook-id), signed.
    healthy = true;
    await log.getByRole('button', { name: /^Send again: run\.completed msg_\w+$/ }).click();
    await page.getByText('queued to be sent again').waitFor();
    await log.locator('.badge.succeeded').waitFor({ timeout: 15_000 });
    const hits = rx.received.filter((r) => r.path === '/console-hook');
    assert.equal(hits.length, 3);
    assert.equal(hits[2]!.headers['webhook-id'], hits[0]!.headers['webhook-id']);
    const payload = new Webhook(secret).verify(hits[2]!.body, hits[2]!.headers as Record<string, string>) as { type: string; data: { run_id: string } };
    assert.deepEqual([payload.type, payload.data.run_id], ['run.completed', run.run_id]);
    await log.getByText('3 attempts').waitFor();
    await bothWidths('alerts-delivery-succeeded');
  });

  test('events edited, the endpoint disabled and deleted; a Slack destination added', async () => {
    // A client project: the endpoint is limited to its events (an agency's channel per client).
    const client = await api('POST', '/v1/projects', { name: 'StrideFit', url: 'https://stridefit.example/', brand: { name: 'StrideFit' }, platforms: ['deepseek'] });
    await page.reload();
    const card = page.getByTestId('endpoint');
    await card.getByTestId('endpoint-projects').getByText('every project and the account').waitFor();
    await card.getByRole('button', { name: 'Edit events and projects' }).click();
    await card.getByLabel(/^credits\.low/).check();
    await card.getByLabel(/^tracked_test\.changed/).uncheck();
    await card.getByLabel(/^Only these projects/).check();
    assert.equal(await card.getByRole('button', { name: 'Save' }).isDisabled(), true, 'limited to no project: nothing to save');
    await card.getByLabel(/^StrideFit/).check();
    // credits.low is the account's: a destination limited to projects is told it will not get it.
    assert.match(await card.locator('[data-testid$="-account-events"]').innerText(), /^credits\.low is an account event: limited to projects, this destination will not get it\.$/);
    await bothWidths('alerts-edit-projects');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Events: run.completed, credits.low').waitFor();
    await card.getByTestId('endpoint-projects').getByText('StrideFit').waitFor();
    const saved = (await api('GET', '/v1/webhooks')).webhooks[0];
    assert.deepEqual([saved.events, saved.project_ids], [['run.completed', 'credits.low'], [client.id]]);
    // Back to every event of the account.
    await card.getByRole('button', { name: 'Edit events and projects' }).click();
    await card.getByLabel(/^Every event of the account/).check();
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByTestId('endpoint-projects').getByText('every project and the account').waitFor();
    assert.equal((await api('GET', '/v1/webhooks')).webhooks[0].project_ids, null);

    await card.getByRole('button', { name: 'Disable' }).click();
    await card.getByText('Disabled: disabled by a user').waitFor();
    assert.equal((await api('GET', '/v1/webhooks')).webhooks[0].status, 'disabled');
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.getByRole('button', { name: 'Disable' }).waitFor();

    await page.getByLabel(/Slack channel/).check();
    await page.getByLabel('Slack incoming-webhook URL').fill(rx.url('/slack'));
    await page.getByLabel('All events').first().check();
    await page.getByRole('button', { name: 'Add Slack channel' }).click();
    // Slack checks no signature: no secret to copy, a confirmation instead.
    await page.getByText(`Slack channel added: ${rx.url('/slack')}`).waitFor();
    assert.equal(await page.getByTestId('webhook-secret').count(), 0);
    await page.getByTestId('endpoint').nth(1).waitFor();
    const slack = (await api('GET', '/v1/webhooks')).webhooks.find((w: { format: string }) => w.format === 'slack');
    assert.deepEqual([slack.url, slack.events], [rx.url('/slack'), ['*']]);
    await bothWidths('alerts-destinations');

    await page.getByTestId('endpoint').filter({ hasText: '/console-hook' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('endpoint').filter({ hasText: '/console-hook' }).waitFor({ state: 'detached' });
    assert.deepEqual((await api('GET', '/v1/webhooks')).webhooks.map((w: { id: string }) => w.id), [slack.id]);
  });

  test('the low-credit threshold and the weekly digest by e-mail', async () => {
    // A threshold the API refuses says what is wrong and what is allowed, in the form's words.
    for (const bad of ['-5', '1e9']) {
      await page.getByLabel('Threshold in credits').fill(bad);
      await page.getByRole('button', { name: 'Save threshold' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'The threshold must be' });
      await alert.waitFor();
      assert.equal(
        (await alert.innerText()).trim(),
        'The threshold must be a number of credits written in digits, from 0 to 999999999999.99 with at most two decimals, like "25.00"',
        bad,
      );
    }
    await bothWidths('alerts-threshold-refused');
    await page.getByLabel('Threshold in credits').fill('25');
    await page.getByRole('button', { name: 'Save threshold' }).click();
    await page.getByTestId('credits-low-state').getByText('Armed at 25.00 credits.').waitFor();
    const choice = page.getByTestId('email-choice').filter({ hasText: OWNER.email });
    await choice.getByLabel(/^digest\.weekly/).check();
    await choice.getByLabel(/^credits\.low/).check();
    await choice.getByRole('button', { name: `Save for ${OWNER.email}` }).click();
    await choice.getByText('Saved').waitFor();
    const settings = await api('GET', '/v1/notification-settings');
    assert.equal(settings.credits_low_threshold, '25.00');
    assert.deepEqual(settings.email_alerts.find((e: { email: string }) => e.email === OWNER.email).events.sort(), ['credits.low', 'digest.weekly']);
    // Read again from the server: the page shows what was saved.
    await page.reload();
    await page.getByTestId('email-choice').first().waitFor();
    assert.equal(await page.getByTestId('email-choice').filter({ hasText: OWNER.email }).getByLabel(/^digest\.weekly/).isChecked(), true);
    assert.equal(await page.getByLabel('Threshold in credits').inputValue(), '25.00');
    await bothWidths('alerts-settings');
  });

  test('a long e-mail address wraps its "Save for" button: no sideways scroll at 390 px', async () => {
    const email = `agency.account.manager.for.enterprise.clients@${'very-long-subdomain.'.repeat(2)}example.com`;
    const now = new Date().toISOString();
    await rig.server.runtime.core.store.db
      .insertInto('users')
      .values({ id: 'usr_longmail', account_id: accountId, email, password_hash: null, role: 'member', created_at: now, password_changed_at: null })
      .execute();
    await page.reload();
    const button = page.getByTestId('email-choice').filter({ hasText: email }).getByRole('button', { name: `Save for ${email}` });
    await button.waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    const o = await horizontalOverflow(page);
    assert.ok(o.scrollWidth <= o.innerWidth, `alerts at 390px scrolls sideways: ${o.scrollWidth} > ${o.innerWidth}`);
    const box = (await button.boundingBox())!;
    assert.ok(box.x + box.width <= 390, `the button ends at ${box.x + box.width} px`);
    await rig.screenshot(page, 'alerts-long-email-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
