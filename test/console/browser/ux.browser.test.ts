// Small frictions a new user met, in a real Chromium against a real server and worker on the
// sandbox engine: a site typed without https:// (acme.example) accepted by the project and run
// forms; on a phone the current section's tab scrolled into view (Alerts, Operator sat past the
// edge); the brand's own name in a chart's interval legend, listed only once a band is drawn; a gap between a row of charts and the
// card under it; "1 prompt in 1 topic", "1 grant" in the singular; the kind of each cited source
// (your site, competitor, review...) on the run page, which the API had and the console did not show;
// a test made by a run says why its Run now is off.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, type BrowserRig, browserSkip, closeRig, horizontalOverflow, ownerWithCredits, signIn, startRig } from './browser.ts';

const OWNER = { email: 'ux@acme.example', password: 'acme ux passphrase here' };

describe('console frictions in a browser', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let accountId: string;

  before(async () => {
    rig = await startRig();
    accountId = await ownerWithCredits(rig, OWNER, 200);
    page = await rig.open();
    await signIn(page, OWNER);
  });
  after(() => closeRig(rig));

  test('a project made for a bare domain, its prompt library and charts read as they should', async () => {
    await page.goto(`${rig.base}/console/projects/new`);
    await page.getByLabel('Project name (optional)').fill('Acme Boards');
    // Typed the way people say it; Enter in the field submits the form later.
    await page.getByLabel('Brand site URL').fill('acme-boards.example');
    await page.getByLabel('Brand name').fill('Acme Boards');
    await page.getByLabel('Competitor 1 name').fill('Globex');
    await page.getByLabel('Prompts to import').fill('best kanban board for agencies [[sandbox:mention]]');
    await page.getByLabel('Topics for all of them (comma-separated, optional)').fill('boards');
    await page.getByLabel('Repeat', { exact: true }).selectOption('none');
    await page.getByTestId('project-cost').getByText('(1 prompt × 2 platforms × 1 repeat × 1 market)').waitFor();
    await page.getByLabel('Brand site URL').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/projects\/proj_/);
    await page.getByRole('link', { name: 'https://acme-boards.example', exact: true }).waitFor();
    await page.getByText('1 prompt in 1 topic: boards (1).').waitFor();
    await page.getByText('Show the prompt', { exact: true }).waitFor();
    assert.match(await page.locator('.page-head').innerText(), /https:\/\/acme-boards\.example · 1 prompt · en-US/);

    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('table', { name: "Runs of the project's tests" }).getByText('completed', { exact: true }).waitFor({ timeout: 90_000 });
    const rate = page.getByRole('region', { name: 'Mention rate over time' });
    await page.getByTestId('p-rate-chart').locator('canvas').waitFor({ timeout: 20_000 });
    // One window draws no band, so the legend does not list one; the interval is in the table.
    await page.getByTestId('p-rate-one').getByText('Its 95% interval is in the table.').waitFor();
    assert.equal(await rate.locator('.legend .swatch.band').count(), 0, 'no band legend for a band not drawn');
    // A week later, a second window: the band is drawn between the two, and the legend names it.
    const projectId = new URL(page.url()).pathname.split('/').at(-1)!;
    const db = rig.server.runtime.core.store.db;
    const tests = await db.selectFrom('tests').select('id').where('project_id', '=', projectId).execute();
    const ago = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await db.updateTable('visibility_runs').set({ created_at: ago }).where('test_id', 'in', tests.map((t) => t.id)).execute();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('table', { name: "Runs of the project's tests" }).getByText('completed', { exact: true }).nth(1).waitFor({ timeout: 90_000 });
    await page.getByTestId('p-rate-one').waitFor({ state: 'detached', timeout: 20_000 });
    // The interval is the brand's: its name as written, not lower-cased.
    await rate.locator('.legend').getByText('95% interval of Acme Boards', { exact: true }).waitFor();
    // The row of charts does not touch the card under it.
    const matrix = page.getByRole('region', { name: 'Prompts × platforms' });
    const chartsBottom = await rate.evaluate((el) => el.getBoundingClientRect().bottom);
    const matrixTop = await matrix.evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(matrixTop - chartsBottom >= 12, `a gap under the charts: ${matrixTop - chartsBottom}px`);
    await rig.screenshot(page, 'ux-project-desktop');
  });

  test('a market that is not one is said in the form, in its words, before anything is sent', async () => {
    await page.goto(`${rig.base}/console/projects/new`);
    await page.getByLabel('Brand site URL').fill('https://harbor-mutual.example/');
    await page.getByLabel('Brand name').fill('Harbor Mutual');
    const markets = page.getByLabel('Markets (language-country, comma-separated)');
    await markets.fill('en-US, english');
    assert.equal(await page.locator('#pf-markets-error').count(), 0, 'not while typing');
    await page.getByLabel('Repeats per prompt × platform').focus();
    const error = page.locator('#pf-markets-error');
    assert.equal(await error.innerText(), '“english” is not a market: write a language and a country, like en-US or de-DE.');
    assert.equal(await markets.getAttribute('aria-invalid'), 'true');
    assert.match((await markets.getAttribute('aria-describedby'))!, /pf-markets-error/);
    // Sent anyway: nothing leaves the page, the field takes the focus, the rest is kept.
    const sent: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/v1/projects') && sent.push(r.url()));
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'pf-markets');
    assert.deepEqual(sent, []);
    assert.equal(new URL(page.url()).pathname, '/console/projects/new');
    assert.equal(await page.getByLabel('Brand name').inputValue(), 'Harbor Mutual');
    await rig.screenshot(page, 'ux-project-bad-market-desktop');
    await markets.fill('en-US, fr-FR');
    await error.waitFor({ state: 'detached' });
    assert.equal(await markets.getAttribute('aria-invalid'), null);
  });

  test('the new-run form takes a page without https:// when the field is left', async () => {
    await page.goto(`${rig.base}/console/runs/new`);
    const url = page.getByLabel('Your page URL');
    await url.fill('www.acme-boards.example/pricing');
    await page.getByLabel('Brand', { exact: true }).focus();
    assert.equal(await url.inputValue(), 'https://www.acme-boards.example/pricing');
    assert.equal(await url.evaluate((el: HTMLInputElement) => el.validity.valid), true);
    // A word that is not an address is left for the browser's check to refuse.
    await url.fill('acme');
    await page.getByLabel('Brand', { exact: true }).focus();
    assert.equal(await url.inputValue(), 'acme');
    assert.equal(await url.evaluate((el: HTMLInputElement) => el.validity.valid), false);
    // An email address is not a page: it does not become https://bob@acme.com.
    await url.fill('bob@acme-boards.example');
    await page.getByLabel('Brand', { exact: true }).focus();
    assert.equal(await url.inputValue(), 'bob@acme-boards.example');
    assert.equal(await url.evaluate((el: HTMLInputElement) => el.validity.valid), false);
  });

  test('on a phone the current section is in view in the sideways-scrolling tabs', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ['/console/alerts', 'Alerts'],
      ['/console/operator', 'Operator'],
      ['/console/projects', 'Projects'],
    ]) {
      await page.goto(`${rig.base}${path}`);
      const tab = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
      await page.waitForFunction((n) => document.querySelector('nav a[aria-current="page"]')?.textContent === n, name);
      const box = await tab.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
      assert.ok(box.left >= 0 && box.right <= 390, `${name} tab in view at 390 px: ${JSON.stringify(box)}`);
      await rig.screenshot(page, `ux-nav-${name.toLowerCase()}-390`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("the run page names each cited domain's kind of source and the share of each kind", async () => {
    const key = await rig.server.key(accountId);
    const created = await rig.server.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme-boards.example/', target_entity: 'Acme Boards', prompts: ['best kanban board [[sandbox:mention]]', 'trello alternatives'], platforms: ['openai', 'claude'], competitors: ['Asana'] },
    });
    assert.equal(created.statusCode, 200, created.body);
    const runId = created.json().run_id;
    await rig.server.waitForRun(key, runId);
    const { summary, test_id: testId } = (await rig.server.request('GET', `/v1/visibility/runs/${runId}`, { key })).json();
    const sources = summary.citation_sources;
    assert.ok(sources.citation_count > 0, 'the sandbox answers cite sources');
    await page.goto(`${rig.base}/console/runs/${runId}`);
    const kinds = page.getByTestId('citation-kinds');
    await kinds.getByText(`By kind of source (${sources.citation_count} citations)`).waitFor();
    const text = await kinds.innerText();
    const names: Record<string, string> = { owned: 'Your site', competitor: 'Competitors', community: 'Community', reference: 'Reference', video: 'Video', review: 'Review sites', news: 'News', other: 'Other' };
    for (const c of sources.citation_share_by_class as { class: string; citations: number; share: number }[]) {
      if (c.citations === 0) assert.ok(!text.includes(names[c.class]!), `${c.class} with no citation is not listed`);
      else assert.match(text, new RegExp(`${names[c.class]}\\s+${Math.round(c.share * 100)}%`), `${c.class}: ${text}`);
    }
    // A domain's row says what kind of source it is ('other' goes untagged).
    const tagged = (sources.citation_share_by_domain as { domain: string; class: string }[]).find((d) => d.class !== 'other');
    assert.ok(tagged, 'some cited domain has a kind');
    const row = page.getByRole('region', { name: 'Cited domains' }).locator('li', { hasText: tagged.domain }).first();
    assert.match(await row.innerText(), new RegExp(`· ${tagged.class === 'owned' ? 'your site' : tagged.class}`));
    await rig.screenshot(page, 'ux-run-desktop');
    // The test the run made has no definition of its own: its page says why Run now is off.
    await page.goto(`${rig.base}/console/tests/${testId}`);
    const runNow = page.getByRole('button', { name: 'Run now' });
    await runNow.waitFor();
    assert.equal(await runNow.isDisabled(), true);
    const why = await runNow.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    assert.match(why, /no definition of its own yet, so it cannot run by itself: Run now is off\. Add a schedule/);
    await page.goto(`${rig.base}/console/runs/${runId}`);
    await kinds.waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    assert.ok(scrollWidth <= innerWidth, `the run page at 390 px scrolls sideways: ${scrollWidth} > ${innerWidth}`);
    assert.deepEqual(await axeViolations(page), [], 'the run page at 390 px');
    await rig.screenshot(page, 'ux-run-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('the account page counts one grant in the singular', async () => {
    await page.goto(`${rig.base}/console/account`);
    await page.getByText('1 grant', { exact: true }).waitFor();
  });
});
