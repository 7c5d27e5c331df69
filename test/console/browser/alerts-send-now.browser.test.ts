// The Alerts page in a real Chromium: a delivery that failed and waits an hour for its next
// scheduled attempt offers "Send now" (not a "Sending" label that suggests something is under
// way); once the receiver is fixed, "Send now" delivers the same message, signed, at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startReceiver, until, type Receiver } from '../../helpers/webhook-receiver.ts';
import { browserSkip, checkBothWidths, closeRig, ownerWithCredits, signIn, startRig, type BrowserRig } from './browser.ts';

const OWNER = { email: 'owner@send-now.example', password: 'owner send now passphrase' };

describe('the Alerts page: a delivery waiting for its retry', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let rx: Receiver;
  let page: Page;
  let key: string;
  let healthy = false;
  const api = async (method: string, path: string, body?: unknown) => (await rig.server.request(method, path, { key, body })).json();

  before(async () => {
    rx = await startReceiver();
    rx.answer = () => ({ status: healthy ? 200 : 503 });
    // The first attempt fails; the next one is an hour away.
    rig = await startRig({ SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: '1h', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    key = await rig.server.key(await ownerWithCredits(rig, OWNER, 100));
    page = await rig.open();
    await signIn(page, OWNER);
  });
  after(async () => {
    await closeRig(rig);
    await rx.close();
  });

  test('"Send now" delivers a pending message at once', async () => {
    const hook = await api('POST', '/v1/webhooks', { url: rx.url('/hook'), events: ['run.completed'] });
    await api('POST', '/v1/visibility/runs', { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['openai'] });
    await rx.waitFor(1, (r) => r.path === '/hook');

    await page.goto('/console/alerts');
    // crawler.blocked is sent for user-triggered crawlers too (ChatGPT-User, …), not search ones only.
    await page.getByText('Site logs show an AI search or user-triggered crawler refused on a page robots.txt allows').first().waitFor();
    await page.getByTestId('endpoint').getByRole('button', { name: 'Show deliveries' }).click();
    const log = page.getByTestId(`deliveries-${hook.id}`);
    const sendNow = log.getByRole('button', { name: /^Send now: run\.completed msg_\w+$/ });
    await until(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      return (await sendNow.count()) === 1;
    });
    assert.match(await log.innerText(), /pending/);
    assert.doesNotMatch(await log.innerText(), /Sending/);
    await checkBothWidths(rig, page, 'alerts-send-now');

    healthy = true;
    await sendNow.click();
    await page.getByText('queued to be sent now instead of at its next scheduled attempt').waitFor();
    await log.locator('.badge.succeeded').waitFor({ timeout: 15_000 });
    const hits = rx.received.filter((r) => r.path === '/hook');
    assert.equal(hits.length, 2);
    assert.equal(hits[1]!.headers['webhook-id'], hits[0]!.headers['webhook-id']);
  });
});
