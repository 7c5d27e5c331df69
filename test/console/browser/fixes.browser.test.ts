// The console fixes a marketer asked for, in a real Chromium against a real server: the runs list
// with search, filters, sort and paging; the run page with answers grouped by prompt, collapsed,
// with repeat labels and the per-prompt numbers; screenshots at 1280 and 390 px without sideways
// scroll.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits, lockAccount, releaseCharge, reserveCharge } from '../../../src/core/billing/ledger.ts';
import { type BrowserRig, browserSkip, checkBothWidths, closeRig, SCREENSHOTS, signIn, startRig } from './browser.ts';

const OWNER = { email: 'fixes@acme.example', password: 'acme fixes passphrase here' };

describe('console fixes in a browser', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let accountId: string;
  let key: string;
  const runIds: string[] = [];

  const checkWidths = (name: string) =>
    // The first screen at 390 px, and the middle of the page, as a phone shows them.
    checkBothWidths(rig, page, `fixes-${name}`, async () => {
      await page.screenshot({ path: `${SCREENSHOTS}fixes-${name}-390-top.png` });
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
      await page.screenshot({ path: `${SCREENSHOTS}fixes-${name}-390-middle.png` });
    });

  before(async () => {
    rig = await startRig();
    accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    await grantCredits(rig.server.runtime.core.store, accountId, 500 * 100);
    key = await rig.server.key(accountId);
    const mk = async (target: string, url: string, prompts: string[], platforms: string[], repeats = 1) => {
      const res = await rig.server.request('POST', '/v1/visibility/runs', { key, body: { url, target_entity: target, prompts, platforms, competitors: ['Rival'], repeats } });
      assert.equal(res.statusCode, 200, res.body);
      runIds.push(res.json().run_id);
    };
    // 22 small runs (more than a page), then one big run: 3 prompts × 3 platforms × 3 asks.
    for (let i = 0; i < 22; i++) await mk(i % 2 ? 'Globex' : 'Acme', `https://site${i}.example/`, [`question ${i} [[sandbox:mention]]`], [i % 3 ? 'deepseek' : 'openai']);
    await mk('Acme', 'https://acme.example/', ['best project tool for agencies [[sandbox:mention]]', 'acme alternatives', 'project software pricing'], ['openai', 'perplexity', 'deepseek'], 3);
    for (const id of runIds) await rig.server.waitForRun(key, id);
    page = await rig.open();
    await signIn(page, OWNER);
  });
  after(() => closeRig(rig));

  test('runs list: search, filters, sort and paging, with platform, source and time columns', async () => {
    const rows = page.locator('table tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 20);
    const first = await rows.first().innerText();
    assert.match(first, /ChatGPT, Perplexity, DeepSeek|ChatGPT, DeepSeek, Perplexity|DeepSeek/);
    assert.match(first, /API/);
    assert.match(first, /\+ 2 more/);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    // The label changes first; the page's rows follow when its read has answered.
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3);
    assert.equal(await rows.count(), 3);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1').waitFor();
    await page.getByLabel('Search').fill('globex');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 11);
    await page.getByLabel('Platform').selectOption('openai');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 4);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Sort').selectOption('oldest');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 9);
    assert.match(await rows.first().innerText(), /question 0/);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No run matches').waitFor();
    // The filters live in the address: a reload (or a shared link) opens the same list.
    await page.waitForFunction(() => location.search.includes('status=failed'));
    assert.match(page.url(), /[?&]platform=openai(&|$)/);
    assert.match(page.url(), /[?&]sort=oldest(&|$)/);
    await page.reload();
    await page.getByText('No run matches').waitFor();
    assert.equal(await page.getByLabel('Status').inputValue(), 'failed');
    assert.equal(await page.getByLabel('Platform').inputValue(), 'openai');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Platform').selectOption('');
    await page.getByLabel('Sort').selectOption('newest');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 20);
    assert.equal(new URL(page.url()).search, '', 'no filter left in the address');
    await checkWidths('runs');
  });

  test('run page: answers grouped by prompt, collapsed, with repeat labels and per-prompt numbers', async () => {
    const big = runIds[runIds.length - 1];
    await page.goto(`/console/runs/${big}`);
    await page.getByTestId('run-status').getByText('completed', { exact: true }).waitFor();
    const groups = page.getByTestId('prompt-group');
    assert.equal(await groups.count(), 3);
    assert.equal(await page.locator('details.answer').count(), 27);
    assert.equal(await page.locator('details.answer[open]').count(), 0, 'answers start collapsed');
    const firstGroup = await groups.first().innerText();
    assert.match(firstGroup, /best project tool for agencies/);
    assert.match(firstGroup, /Mentioned in \d+ of 9 answers/);
    assert.match(firstGroup, /ChatGPT \d+%/);
    assert.match(firstGroup, /ask 3 of 3/);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`# 27-answer run page: ${height} px tall at 1280 px, collapsed`);
    assert.ok(height < 6000, `run page is ${height} px tall`);
    await page.locator('details.answer summary').first().click();
    await page.locator('details.answer[open] .text').first().waitFor();
    await page.getByRole('button', { name: 'Expand all answers' }).click();
    assert.equal(await page.locator('details.answer[open]').count(), 27);
    await page.getByRole('button', { name: 'Collapse all answers' }).click();
    assert.equal(await page.locator('details.answer[open]').count(), 0);
    await page.getByLabel('Platform', { exact: true }).selectOption('deepseek');
    assert.equal(await page.locator('details.answer').count(), 9);
    await page.getByLabel('Platform', { exact: true }).selectOption('all');
    await checkWidths('run');
    await page.setViewportSize({ width: 390, height: 844 });
    console.log(`# 27-answer run page: ${await page.evaluate(() => document.documentElement.scrollHeight)} px tall at 390 px, collapsed`);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('phones: the header and sandbox banner stay short; the account page names actions', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/console/account');
    await page.getByRole('heading', { name: 'Credit ledger' }).waitFor();
    const top = await page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().top);
    console.log(`# header and banner at 390 px: ${Math.round(top)} px of 844`);
    assert.ok(top < 844 / 5, `the page starts ${top} px down`);
    const ledger = page.getByRole('table', { name: 'Ledger entries, newest first' });
    await ledger.getByText('Visibility run', { exact: true }).first().waitFor();
    assert.doesNotMatch(await ledger.innerText(), /visibility\.runs\.create/);
    // No word split across lines in the ledger's cells: each text node's words fit its line.
    const split = await page.evaluate(() => {
      const out: string[] = [];
      for (const td of document.querySelectorAll('table td')) {
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const text = n.textContent ?? '';
          for (const m of text.matchAll(/[A-Za-z]{4,}/g)) {
            const r = document.createRange();
            r.setStart(n, m.index!);
            r.setEnd(n, m.index! + m[0].length);
            if (r.getClientRects().length > 1) out.push(m[0]);
          }
        }
      }
      return out;
    });
    assert.deepEqual(split, [], 'words broken across lines');
    await checkWidths('account');
  });

  test('walkthrough fixes: run markets, a released charge, sentiment to 100%, a long test URL, the test form\'s budget', async () => {
    // Runs of one brand in two markets read apart in the list: each row says its market.
    for (const [language, country] of [['en', 'US'], ['de', 'DE']]) {
      const res = await rig.server.request('POST', '/v1/visibility/runs', {
        key,
        body: { url: 'https://northwind.example/', target_entity: 'Northwind', prompts: ['best coffee subscription'], platforms: ['openai'], language, country },
      });
      assert.equal(res.statusCode, 200, res.body);
      await rig.server.waitForRun(key, res.json().run_id);
    }
    await page.goto('/console/runs');
    await page.getByLabel('Search').fill('Northwind');
    const markets = page.getByTestId('run-market');
    // The search applies after a pause in typing: wait for the list of the two runs.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-market"]').length === 2);
    assert.deepEqual((await markets.allInnerTexts()).sort(), ['de-DE', 'en-US']);
    await checkWidths('runs-markets');

    // A charge released in full moved no credit: 0.00, without a minus sign.
    const store = rig.server.runtime.core.store;
    await store.db.transaction().execute(async (trx) => {
      await lockAccount(store, trx, accountId);
      const r = await reserveCharge(trx, { accountId, source: 'api', action: 'visibility.runs.create', refType: 'test', refId: 'walkthrough', items: [300] });
      await releaseCharge(trx, r.entryId, 300);
    });
    await page.goto('/console/account');
    const ledger = page.getByRole('table', { name: 'Ledger entries, newest first' });
    const released = ledger.locator('tbody tr', { hasText: 'released' }).first();
    await released.waitFor();
    assert.equal((await released.locator('td[data-label="Credits"]').innerText()).trim(), '0.00');
    assert.doesNotMatch(await ledger.innerText(), /−0\.00/);

    // Sentiment parts sum to 100 (largest remainder): 75/0/12.5/12.5 is 75/0/13/12, not 75/0/13/13.
    const said = await page.evaluate(async () => {
      const ui = await import('/console/assets/js/ui.js' as string);
      return ui.sentimentText({ positive: 0.75, neutral: 0, negative: 0.125, unknown: 0.125 });
    });
    assert.equal(said, '75% positive, 0% neutral, 13% negative, 12% not judged');
    await page.goto(`/console/runs/${runIds[runIds.length - 1]}`);
    const tone = page.getByTestId('sentiment');
    await tone.waitFor();
    const parts = [...(await tone.innerText()).matchAll(/(\d+)%/g)].map((m) => Number(m[1]));
    assert.equal(parts.reduce((a, b) => a + b, 0), 100, await tone.innerText());

    // A tracked test with a long page URL: its page does not scroll sideways at 390 px.
    const long = 'https://northwindcoffee.example/shop/subscriptions/whole-bean-coffee-of-the-month-club';
    const made = await rig.server.request('POST', '/v1/tests', {
      key,
      body: { test_type: 'ai_citations', name: 'Northwind long page', definition: { url: long, target_entity: 'Northwind', prompts: ['coffee club'], platforms: ['openai'] }, schedule: null },
    });
    assert.equal(made.statusCode, 200, made.body);
    await page.goto(`/console/tests/${made.json().id}`);
    await page.getByRole('link', { name: long }).waitFor();
    await checkWidths('test-long-url');

    // The tracked-test form warns when the budget pays for fewer runs than the schedule holds:
    // daily runs of 8.00 credits (2 prompts × 2 platforms × 2.00) under a budget of 10.
    await page.goto('/console/tests/new');
    await page.getByLabel('Page URL').fill('https://northwind.example/');
    await page.getByLabel('Brand', { exact: true }).fill('Northwind');
    await page.getByLabel('Prompts, one per line').fill('best coffee subscription\ncoffee gift ideas');
    await page.getByLabel('Repeat', { exact: true }).selectOption('daily');
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByLabel('Monthly budget (credits, optional)').fill('10');
    await page.getByText('One run costs 8.00 credits').waitFor();
    const monthly = page.locator('[data-testid="test-monthly"][aria-busy="false"]');
    await monthly.getByText('The budget of 10 credits covers 1 run a month; later ones are skipped.').waitFor();
    assert.match(await monthly.innerText(), /^Daily, that is 28–31 runs and about 2\d\d\.\d\d credits a month \(248\.00 in the busiest month\)\. The budget of 10 credits covers 1 run a month; later ones are skipped\.$/);
    await page.getByLabel('Monthly budget (credits, optional)').fill('');
    await monthly.getByText('No budget is set, so nothing caps it.').waitFor();
    await page.getByLabel('Monthly budget (credits, optional)').fill('10');
    await monthly.getByText('covers 1 run a month').waitFor();
    await checkWidths('test-form-budget');
  });
});
