// The Sites pages in a real Chromium against a real server: a site is added, two generated
// access logs are uploaded from the browser (the known scenario of test/helpers/access-logs.ts,
// and ten days of GPTBot and OAI-SearchBot hits for the per-day bars), the upload summary and
// both reports are read against the counts the scenario was written with, the window changes,
// the site is deleted. At 1280 and 390 px: no sideways scroll, no serious or critical axe
// violation; screenshots in test-artifacts/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { IP, logText, render, UA, type LogEvent } from '../../helpers/access-logs.ts';
import { until } from '../../helpers/webhook-receiver.ts';
import { axeViolations, horizontalOverflow, startRig, type BrowserRig, browserSkip, signIn } from './browser.ts';

const OWNER = { email: 'owner@sites.example', password: 'owner sites passphrase' };
const DOMAIN = 'shop.example';
const DAY = 86_400_000;

/** Ten days: GPTBot day d (d = 0 today … 9) fetches d + 1 times; OAI-SearchBot is refused (403) on days 2 and 5. */
function tenDays(now: number) {
  const events: LogEvent[] = [];
  for (let d = 0; d < 10; d++) {
    for (let i = 0; i <= d; i++) events.push({ ip: IP.gptbot, time: now - d * DAY - 4 * 3_600_000 - i * 60_000, method: 'GET', host: DOMAIN, path: `/guide/${i}`, status: 200, ua: UA.gptbot });
    if (d === 2 || d === 5) events.push({ ip: IP.searchbot, time: now - d * DAY - 5 * 3_600_000, method: 'GET', host: DOMAIN, path: '/pricing', status: 403, ua: UA.searchbot });
  }
  return events.map(render.combined).join('\n') + '\n';
}

describe('the Sites pages', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let key: string;
  let siteId: string;
  const api = async (path: string) => (await rig.server.request('GET', path, { key })).json();

  before(async () => {
    rig = await startRig({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    const accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    key = await rig.server.key(accountId);
    page = await rig.open();
    page.on('dialog', (d) => d.accept());
    await signIn(page, OWNER);
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  async function bothWidths(name: string) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      const o = await horizontalOverflow(page);
      assert.ok(o.scrollWidth <= o.innerWidth, `${name} at ${width}px scrolls sideways: ${o.scrollWidth} > ${o.innerWidth}`);
      assert.deepEqual(await axeViolations(page), [], `${name} at ${width}px`);
      // A shown table caption sits above the table's first row (the header row on wide screens),
      // never under it.
      const captionsBelow = await page.evaluate(() =>
        [...document.querySelectorAll('table')].flatMap((t) => {
          const cap = t.querySelector('caption');
          if (!cap || cap.classList.contains('visually-hidden') || cap.getBoundingClientRect().height === 0) return [];
          const first = [...t.querySelectorAll('tr')].find((r) => r.getBoundingClientRect().height > 2);
          return first && cap.getBoundingClientRect().bottom > first.getBoundingClientRect().top + 1 ? [cap.textContent] : [];
        }),
      );
      assert.deepEqual(captionsBelow, [], `${name} at ${width}px: captions drawn under their first row`);
      await rig.screenshot(page, `${name}-${width === 1280 ? 'desktop' : '390'}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function upload(name: string, text: string) {
    await page.getByLabel('Log file').setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const summary = page.getByTestId('upload-summary');
    await summary.waitFor();
    return summary;
  }
  const stat = async (scope: ReturnType<Page['getByTestId']>, label: string) => (await scope.locator('.stat').filter({ hasText: label }).locator('.value').innerText()).trim();

  test('a site is added and listed; its page opens', async () => {
    await page.getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await page.getByText('No sites yet').waitFor();
    await bothWidths('sites-empty');
    await page.getByLabel('Domain').fill('https://www.Shop.example/welcome');
    await page.getByLabel('Name (optional)').fill('Shop');
    await page.getByRole('button', { name: 'Add site' }).click();
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    siteId = page.url().split('/').pop()!;
    assert.match(siteId, /^site_/);
    assert.equal((await api(`/v1/sites/${siteId}`)).domain, DOMAIN);
    await page.getByText('No AI crawler in this window').waitFor();
    await page.getByText('No visits from AI assistants in this window').waitFor();
  });

  test('uploads from the browser: the summary, then the crawler and referral reports', async () => {
    const scenario = logText('combined', DOMAIN);
    // One crawler line twice in the file: the site's first upload, so nothing was sent before.
    const body = scenario.body + scenario.body.split('\n').find((l) => l.includes('GPTBot')) + '\n';
    let summary = await upload('access.log', body);
    assert.match(await summary.innerText(), /as combined/);
    assert.equal(await stat(summary, 'Requests read'), String(scenario.requests + 1));
    assert.equal(await stat(summary, 'AI crawler hits'), '17');
    assert.equal(await stat(summary, 'AI referral visits'), '5');
    assert.equal(await stat(summary, 'Skipped'), '2');
    const counted = summary.locator('.stat').filter({ hasText: 'Already counted' });
    assert.equal(await stat(summary, 'Already counted'), '1');
    assert.match(await counted.innerText(), /1 repeated within this file/);
    assert.doesNotMatch(await counted.innerText(), /before|earlier/);
    await bothWidths('sites-upload-repeated-line');
    // The same file again: nothing counts twice (its 17 + 5 counted lines, and the copy, are known).
    summary = await upload('access.log', body);
    await counted.locator('.value').getByText('23').waitFor();
    assert.match(await counted.innerText(), /23 sent in an earlier upload/);
    assert.doesNotMatch(await counted.innerText(), /within this file/);

    const days = tenDays(Date.now());
    summary = await upload('ten-days.log', days);
    await summary.locator('.stat').filter({ hasText: 'AI crawler hits' }).locator('.value').getByText('57').waitFor(); // 55 GPTBot + 2 OAI-SearchBot

    // A slow link: the progress bar moves while the file is sent. Ordinary visitors only, so the
    // reports below stay as they are.
    const plain = Array.from({ length: 3000 }, (_, i) =>
      render.combined({ ip: IP.browser, time: Date.now() - 3 * 3_600_000 - i * 1000, method: 'GET', host: DOMAIN, path: `/catalogue/item-${i}`, status: 200, ua: UA.browser }),
    ).join('\n');
    const cdp = await rig.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await page.getByLabel('Log file').setInputFiles({ name: 'visitors.log', mimeType: 'text/plain', buffer: Buffer.from(plain) });
    await page.getByRole('button', { name: 'Upload' }).click();
    const bar = page.getByRole('progressbar', { name: 'Upload' });
    await bar.waitFor();
    await until(async () => Number((await bar.getAttribute('aria-valuenow').catch(() => '0')) ?? 0) > 0, 10_000);
    await page.getByTestId('upload-summary').waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    assert.equal(await stat(page.getByTestId('upload-summary'), 'Requests read'), '3,000');
    assert.equal(await bar.count(), 0);

    const crawlers = page.getByTestId('crawlers-report');
    await crawlers.getByTestId('crawler').filter({ hasText: 'GPTBot' }).locator('dd strong').first().getByText('64', { exact: true }).waitFor(); // 9 + 55
    const report = await api(`/v1/sites/${siteId}/crawlers`);
    const gpt = report.crawlers.find((c: { name: string }) => c.name === 'GPTBot');
    const card = crawlers.getByTestId('crawler').filter({ hasText: 'GPTBot' });
    assert.match(await card.innerText(), /2 unverified/);
    // ClaudeBot's 3 hits cannot be checked (Anthropic publishes no ranges): said so, never counted
    // as coming from elsewhere; the Unverified card holds GPTBot's 2 spoofed hits only.
    const claude = crawlers.getByTestId('crawler').filter({ hasText: 'ClaudeBot' });
    assert.equal(await claude.getByTestId('unverifiable').innerText(), 'cannot be checked: Anthropic publishes no IP ranges for its crawlers.');
    assert.doesNotMatch(await claude.innerText(), /unverified/);
    const unverifiedCard = crawlers.locator('.stat').filter({ hasText: 'Unverified' });
    assert.equal(await stat(crawlers, 'Unverified'), '2');
    assert.match(await unverifiedCard.innerText(), /5 more cannot be checked/); // ClaudeBot 3 + Claude-User 2
    assert.match(await card.innerText(), /2 refused/);
    // The bars: one per day with hits, labelled with the totals.
    assert.equal(await card.locator('svg.daybars rect.ok').count(), gpt.daily.length);
    assert.match((await card.locator('svg.daybars').getAttribute('aria-label'))!, /^GPTBot hits per day: 64 over 31 days, most on \d{4}-\d\d-\d\d \(\d+\), 2 refused\.$/);
    // Grouped by role: search and user crawlers before training ones.
    const headings = await crawlers.locator('h3').allInnerTexts();
    assert.deepEqual(headings.map((h) => h.split(' crawlers')[0]), ['Search', 'User-triggered', 'Training']);
    const search = crawlers.getByTestId('crawler').filter({ hasText: 'OAI-SearchBot' });
    assert.match(await search.innerText(), /3 refused/); // the scenario's 429 and the two 403s
    assert.equal(await search.locator('svg.daybars rect.refused').count(), 3);
    await card.locator('summary', { hasText: 'Top pages of GPTBot' }).click();
    assert.match(await card.locator('table').innerText(), /\/pricing/);

    const referrals = page.getByTestId('referrals-report');
    const chatgpt = referrals.getByTestId('referral-source').filter({ hasText: 'ChatGPT' });
    assert.match(await chatgpt.innerText(), /3 visits/);
    assert.match(await chatgpt.locator('table').innerText(), /\/pricing\s+2/);
    assert.equal(await referrals.getByTestId('referral-source').count(), 3);
    await bothWidths('site-reports');

    // A shorter window: the ten-day hits older than 7 days drop out.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await crawlers.getByTestId('crawler').filter({ hasText: 'GPTBot' }).locator('svg.daybars[aria-label*="over 8 days"]').waitFor();
    const week = (await api(`/v1/sites/${siteId}/crawlers?days=7`)).crawlers.find((c: { name: string }) => c.name === 'GPTBot');
    await crawlers.getByTestId('crawler').filter({ hasText: 'GPTBot' }).locator('dd strong').first().getByText(String(week.hits), { exact: true }).waitFor();
    assert.ok(week.hits < 64);

    // A line dated tomorrow (a log with a wrong time zone): counted, and the summary says the
    // reports, which end now, do not show it yet. A log of the past says nothing of the kind.
    assert.equal(await page.getByTestId('upload-future').count(), 0);
    const tomorrow = render.combined({ ip: IP.gptbot, time: Date.now() + DAY, method: 'GET', host: DOMAIN, path: '/later', status: 200, ua: UA.gptbot });
    summary = await upload('skewed.log', tomorrow + '\n');
    assert.match(await page.getByTestId('upload-future').innerText(), /^1 line is dated after now \(up to .+\)\. They are counted, but the reports below end now/);
    assert.equal(await stat(summary, 'AI crawler hits'), '1');

    // A line older than the server keeps log line hashes (400 days by default): not counted, and
    // the summary says so. The other uploads said nothing of the kind.
    assert.equal(await page.getByTestId('upload-too-old').count(), 0);
    const ancient = render.combined({ ip: IP.gptbot, time: Date.now() - 500 * DAY, method: 'GET', host: DOMAIN, path: '/ancient', status: 200, ua: UA.gptbot });
    summary = await upload('ancient.log', ancient + '\n');
    assert.match(await page.getByTestId('upload-too-old').innerText(), /^1 line is older than this server keeps log line hashes \(from .+\)\. They are not counted/);
    assert.equal(await stat(summary, 'AI crawler hits'), '0');
  });

  test('the list shows the site; deleting it removes it', async () => {
    await page.getByRole('link', { name: '← All sites' }).click();
    await page.getByRole('link', { name: 'Shop' }).waitFor();
    await bothWidths('sites-list');
    await page.getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('button', { name: 'Delete site' }).click();
    await page.getByText('No sites yet').waitFor();
    assert.deepEqual((await api('/v1/sites')).sites, []);
  });
});
