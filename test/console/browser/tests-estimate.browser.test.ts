// The tracked-test form's price, in a real Chromium against a real server: one run's price and
// the month figures are the server's quote (POST /v1/tests/estimate, the figures the API answers
// for the same body), dimmed while the quote for changed settings is on its way; a test whose
// definition names a non-default model is priced at that model (the form keeps it); a Content
// Intelligence test is quoted too; a schedule the server refuses is said before the form is sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page, Route } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits } from '../../../src/core/billing/ledger.ts';
import { startRig, type BrowserRig, browserSkip, signIn } from './browser.ts';

const OWNER = { email: 'estimate@acme.example', password: 'acme estimate passphrase' };

describe('the tracked-test form quotes from the server', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let accountId: string;
  let key: string;
  const asked: string[] = [];

  before(async () => {
    rig = await startRig();
    accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    await grantCredits(rig.server.runtime.core.store, accountId, 500 * 100);
    key = await rig.server.key(accountId);
    page = await rig.open();
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/v1\/(tests|projects)\/estimate$/.test(new URL(r.url()).pathname)) asked.push(new URL(r.url()).pathname);
    });
    await signIn(page, OWNER);
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  const quote = async (body: Record<string, unknown>) => {
    const res = await rig.server.request('POST', '/v1/tests/estimate', { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const cost = () => page.locator('[data-testid="test-cost"][aria-busy="false"]');
  const monthly = () => page.locator('[data-testid="test-monthly"][aria-busy="false"]');

  test('a visibility test: the run and the months are the server figures, dimmed while stale', async () => {
    await page.goto('/console/tests/new');
    await page.getByLabel('Page URL').fill('https://northwind.example/');
    await page.getByLabel('Brand', { exact: true }).fill('Northwind');
    await page.getByLabel('Prompts, one per line').fill('best coffee subscription\ncoffee gift ideas');
    await page.getByLabel('Repeat', { exact: true }).selectOption('daily');
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByLabel('Monthly budget (credits, optional)').fill('10');
    const definition = { url: 'https://northwind.example/', target_entity: 'Northwind', prompts: ['best coffee subscription', 'coffee gift ideas'], platforms: ['openai', 'perplexity'], competitors: [] };
    const e = await quote({ test_type: 'ai_citations', definition, schedule: { cron: '0 6 * * *', timezone: 'UTC' }, monthly_credit_budget: '10' });
    await cost().getByText(`One run costs ${e.credits_per_run} credits (2 prompts × 2 platforms × 1 repeat).`).waitFor();
    await monthly().getByText(`${e.credits_per_month.busiest} in the busiest month`).waitFor();
    assert.match(await monthly().innerText(), new RegExp(`covers ${e.runs_within_budget_per_month} runs? a month; later ones are skipped\\.$`));
    assert.ok(asked.includes('/v1/tests/estimate'), 'the form asked the tests estimate');
    assert.ok(!asked.includes('/v1/projects/estimate'), 'and not the project estimate');

    // Held on its way, the quote for a third prompt leaves the last figures dimmed and busy.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const hold = async (route: Route) => {
      await held;
      // The form aborts a quote a newer one replaces; such a route is already finished.
      await route.continue().catch(() => {});
    };
    await page.route('**/v1/tests/estimate', hold);
    await page.getByLabel('Prompts, one per line').fill('best coffee subscription\ncoffee gift ideas\ndecaf beans');
    const stale = page.locator('[data-testid="test-cost"][aria-busy="true"].muted');
    await stale.waitFor();
    await page.locator('[data-testid="test-monthly"][aria-busy="true"]').waitFor();
    assert.match(await stale.innerText(), new RegExp(`One run costs ${e.credits_per_run.replace('.', '\\.')} credits`), 'the last figure stays, dimmed');
    release();
    await page.unroute('**/v1/tests/estimate', hold);
    const e3 = await quote({ test_type: 'ai_citations', definition: { ...definition, prompts: [...definition.prompts, 'decaf beans'] }, schedule: { cron: '0 6 * * *', timezone: 'UTC' }, monthly_credit_budget: '10' });
    assert.notEqual(e3.credits_per_run, e.credits_per_run);
    await cost().getByText(`One run costs ${e3.credits_per_run} credits (3 prompts`).waitFor();

    // A cron the server refuses is said before the form is sent, in the server's words.
    await page.getByLabel('Repeat', { exact: true }).selectOption('cron');
    await page.getByLabel('Cron expression').fill('every day');
    await page.locator('[data-testid="test-monthly"] .note.warn').waitFor();
    assert.match(await page.getByTestId('test-monthly').innerText(), /cron/i);
  });

  test('a test with a chosen model is quoted at that model; saving keeps it', async () => {
    const definition = { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils'], platforms: ['openai'], models: { openai: 'latest' } };
    const made = await rig.server.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', name: 'Acme anvils', definition, schedule: { cron: '0 6 * * 1', timezone: 'UTC' } } });
    assert.equal(made.statusCode, 200, made.body);
    const e = await quote({ test_type: 'ai_citations', definition: { ...definition, competitors: [] }, schedule: { cron: '0 6 * * 1', timezone: 'UTC' } });
    const listing = (await rig.server.request('GET', '/v1/visibility/models', { key })).json();
    const atDefault = Number(listing.platforms.openai.find((m: any) => m.default).credits_per_probe).toFixed(2);
    assert.notEqual(e.credits_per_run, atDefault, 'the chosen model is not the default price');
    await page.goto(`/console/tests/${made.json().id}/edit`);
    await cost().getByText(`One run costs ${e.credits_per_run} credits (1 prompt × 1 platform × 1 repeat).`).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/console/tests/${made.json().id}`);
    const saved = (await rig.server.request('GET', `/v1/tests/${made.json().id}`, { key })).json();
    assert.deepEqual(saved.definition.models, { openai: 'latest' });
  });

  test('a Content Intelligence test is quoted by the server too', async () => {
    await page.goto('/console/tests/new');
    await page.getByLabel('Content Intelligence').check();
    await page.getByLabel('Page URL').fill('https://northwind.example/guide');
    await page.getByLabel(/^Full, with trends/).check();
    await page.getByLabel('Repeat', { exact: true }).selectOption('monthly');
    await page.getByLabel('Time zone').fill('UTC');
    const e = await quote({ test_type: 'content_intelligence', definition: { url: 'https://northwind.example/guide', analysis_depth: 'full' }, schedule: { cron: '0 6 1 * *', timezone: 'UTC' } });
    assert.equal(e.credits_per_run, '6.00');
    await cost().getByText('One run costs 6.00 credits.').waitFor();
    await monthly().getByText(`Monthly, that is 1 run and ${e.credits_per_month.busiest} credits a month.`).waitFor();
  });
});
