// The console as a user meets it, in a real headless Chromium against a real server and worker:
// a key generated, shown once, used against the API and revoked; a run queued from the form and
// its page updating itself to completed; a partly funded run's confirmation; a Content
// Intelligence report from a loopback fixture site; the account page; every main page at 390 px
// without sideways scroll, axe-core without serious or critical violations, the first load's
// size, and screenshots (desktop and 390 px) under test-artifacts/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits } from '../../../src/core/billing/ledger.ts';
import type { FixtureServer } from '../../helpers/fixture-server.ts';
import { serveFixtureSite } from '../../http/content-sites.ts';
import { axeViolations, horizontalOverflow, startRig, type BrowserRig, browserSkip, signIn } from './browser.ts';

const OWNER = { email: 'marketing@acme.example', password: 'acme marketing passphrase' };

describe('the console in a browser', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let site: FixtureServer;
  let accountId: string;
  const visited: Record<string, string> = {};

  const grant = (credits: number) => grantCredits(rig.server.runtime.core.store, accountId, credits * 100);

  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    rig = await startRig({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` });
    accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    page = await rig.open();
    await signIn(page, OWNER);
    visited['runs'] = '/console/runs';
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
    await site.close();
  });

  test('API section: a key is shown once, works against the API, and stops working when revoked', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('No keys yet').waitFor();
    await page.getByLabel('Name').fill('Reporting script');
    await page.getByRole('button', { name: 'Generate' }).click();
    const secret = await page.getByTestId('secret-value').inputValue();
    assert.match(secret, /^svc_api_live_[0-9A-Za-z]{40}$/);
    await page.getByText('this is the only time it is shown').waitFor();
    await page.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    await rig.screenshot(page, 'key-shown-once-desktop');
    // Used against the API: it acts for this account.
    assert.equal((await rig.server.request('GET', '/v1/usage', { key: secret })).statusCode, 200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    // Listed by prefix; the secret is nowhere in the page any more, nor after a reload.
    const row = page.getByRole('row').filter({ hasText: 'Reporting script' });
    await row.getByText(secret.slice(0, 19)).waitFor();
    await page.reload();
    await row.waitFor();
    assert.equal((await page.content()).includes(secret), false);
    assert.match(await row.innerText(), /Full access/);

    // Read-only and MCP: the scopes hold; the MCP token comes with a client configuration.
    await page.getByLabel('Name').fill('Dashboard (read-only)');
    await page.getByLabel(/Read-only/).check();
    await page.getByRole('button', { name: 'Generate' }).click();
    const readOnly = await page.getByTestId('secret-value').inputValue();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    const refused = await rig.server.request('POST', '/v1/visibility/runs', { key: readOnly, body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['p'], platforms: ['openai'] } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().detail.error, 'missing_scope');

    await page.getByLabel('Name').fill('Claude Desktop');
    await page.getByLabel('Kind').selectOption('mcp');
    await page.getByRole('button', { name: 'Generate' }).click();
    const mcp = await page.getByTestId('secret-value').inputValue();
    assert.match(mcp, /^svc_mcp_live_/);
    const config = JSON.parse(await page.getByLabel('MCP client configuration').inputValue());
    assert.deepEqual(config.mcpServers.sightline, { type: 'http', url: `${rig.base}/mcp`, headers: { Authorization: `Bearer ${mcp}` } });
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // Revoked: refused at once.
    page.once('dialog', (d) => d.accept());
    await row.getByRole('button', { name: 'Revoke Reporting script' }).click();
    await row.getByText('revoked', { exact: true }).waitFor();
    const after = await rig.server.request('GET', '/v1/usage', { key: secret });
    assert.equal(after.statusCode, 401);
    visited['keys'] = '/console/keys';
  });

  test('a run queued from the form: exact cost first, then a page that updates itself to completed', async () => {
    await grant(8);
    await page.getByRole('link', { name: 'Visibility', exact: true }).click();
    await page.getByRole('link', { name: 'Create your first run' }).click();
    await page.getByLabel('Your page URL').fill('https://acme.example/');
    await page.getByLabel('Brand').fill('Acme');
    await page.getByLabel('Competitors').fill('Rival');
    await page.getByLabel('One prompt per line').fill('best project tool for agencies [[sandbox:mention]] [[sandbox:delay=1500]]\nacme alternatives [[sandbox:delay=1500]]');
    // The listing's models and prices, and the exact cost: 2 prompts × ChatGPT and Perplexity at 2.00.
    await page.getByLabel('ChatGPT model').waitFor();
    assert.match(await page.getByLabel('ChatGPT model').innerText(), /GPT-5 mini with web search — 2\.00 cr\/probe \(default\)/);
    await page.getByText('2 prompts × 2 platforms').waitFor();
    assert.match(await page.locator('.stats').innerText(), /8\.00 cr[\s\S]*covers the whole run/);
    // Repeats multiply the probes (prompt, then platform, then repeat), priced the same way.
    await page.getByLabel('Ask each prompt').selectOption('2');
    await page.getByRole('button', { name: 'Queue 8 probes for 16.00 cr' }).waitFor();
    await page.getByLabel('Ask each prompt').selectOption('1');
    await rig.screenshot(page, 'new-run-desktop');
    visited['new-run'] = '/console/runs/new';
    await page.getByRole('button', { name: 'Queue 4 probes for 8.00 cr' }).click();
    await page.waitForURL(/\/console\/runs\/vis_/);
    const runPath = new URL(page.url()).pathname;
    // While probes run the page shows progress, then reaches completed by itself (no reload).
    await page.getByTestId('run-progress').getByText(/this page updates itself/).waitFor();
    assert.match(await page.getByTestId('run-status').innerText(), /queued|running/);
    await page.getByTestId('run-status').getByText('completed', { exact: true }).waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('run-progress').innerText(), /4 of 4 probes finished\. Credits: 8\.00 reserved, 8\.00 settled, 0\.00 released/);
    assert.match(await page.getByTestId('mention-rate').innerText(), /\d+%/);
    // Answers with the brand marked, per platform.
    assert.ok((await page.locator('mark.hl-brand').count()) > 0, 'the brand is highlighted in the answers');
    assert.equal(await page.locator('details.answer').count(), 4);
    // Answers are Markdown, shown rendered: lists and emphasis as elements, no raw markup left.
    assert.ok((await page.locator('details.answer .text').locator('li, strong').count()) > 0, 'Markdown lists and emphasis are rendered');
    assert.doesNotMatch((await page.locator('details.answer .text').allInnerTexts()).join('\n'), /\*\*/);
    // Each answer says how the reader's rule read the brand (its recorded evidence).
    assert.match((await page.getByTestId('mention-evidence').allTextContents()).join('\n'), /How it was read: .*\b(named|not named) \(/);
    await page.getByRole('button', { name: 'Expand all answers' }).click();
    await page.getByTestId('mention-evidence').first().waitFor();
    await rig.screenshot(page, 'run-answers-desktop');
    await page.getByRole('button', { name: 'Collapse all answers' }).click();
    await page.getByRole('heading', { name: 'Share of voice' }).waitFor();
    // The answer analysis: sentiment shares, labelled simulated in the sandbox.
    assert.match(await page.getByTestId('answer-analysis').innerText(), /No answer mentions you yet|positive, .* neutral, .* negative.*\(simulated\)/);
    const run = (await rig.server.app.inject({ method: 'GET', url: `/v1/visibility/runs/${runPath.split('/').pop()}`, headers: { cookie: await cookieHeader() } })).json();
    assert.equal(run.source, 'console', 'queued as the console surface');
    assert.equal(run.probe_count, 4);
    visited['run'] = runPath;
    // The run's probes as CSV, through the same session.
    const csv = await page.evaluate(async (href) => {
      const res = await fetch(href);
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    }, (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!);
    assert.equal(csv.status, 200);
    assert.match(csv.type ?? '', /text\/csv/);
    assert.equal(parseCsv(csv.text, { columns: true }).length, 4, 'one row per probe');
    await rig.screenshot(page, 'run-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await rig.screenshot(page, 'run-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    // The runs list shows it with its status.
    await page.getByRole('link', { name: 'Visibility', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'Acme' }).getByText('completed').waitFor();
  });

  test('a partly funded run is confirmed first: how many probes run, which are skipped; none funded is refused', async () => {
    await grant(7);
    await page.goto('/console/runs/new');
    await page.getByLabel('Your page URL').fill('https://acme.example/');
    await page.getByLabel('Brand').fill('Acme');
    await page.getByLabel('One prompt per line').fill('first prompt\nsecond prompt\nthird prompt');
    await page.getByText('3 prompts × 2 platforms').waitFor();
    await page.getByText('Your balance covers 3 of 6 probes').waitFor();
    await page.getByRole('button', { name: 'Queue 6 probes for 12.00 cr' }).click();
    const confirm = page.getByTestId('partial-confirm');
    await confirm.waitFor();
    const text = await confirm.innerText();
    assert.match(text, /3 probes will run for 6\.00 credits/);
    assert.match(text, /3 will be skipped/);
    assert.match(text, /Perplexity: “second prompt”/);
    assert.match(text, /ChatGPT: “third prompt”/);
    assert.match(text, /Perplexity: “third prompt”/);
    assert.deepEqual(await axeViolations(page), []);
    await rig.screenshot(page, 'partial-confirm-desktop');
    await page.getByRole('button', { name: 'Run 3 probes' }).click();
    await page.waitForURL(/\/console\/runs\/vis_/);
    await page.getByText('3 probes were skipped for lack of credits.').waitFor();
    await page.getByTestId('run-status').getByText(/completed/).waitFor({ timeout: 60_000 });

    // 1.00 left: not even the first 2.00 probe fits.
    await page.goto('/console/runs/new');
    await page.getByLabel('Your page URL').fill('https://acme.example/');
    await page.getByLabel('Brand').fill('Acme');
    await page.getByLabel('One prompt per line').fill('one more prompt');
    await page.getByText('Your balance covers none of this run.').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Queue 2 probes/ }).isDisabled(), true);
  });

  test('a Content Intelligence report: scores with bands, ranked fixes, trend coverage, the crawler audit, prompt ideas to a run', async () => {
    await grant(6);
    // The site's own access log: GPTBot refused on the guide, although robots.txt allows it.
    const key = await rig.server.key(accountId);
    const logSite = (await rig.server.request('POST', '/v1/sites', { key, body: { domain: `127.0.0.1:${site.port}` } })).json();
    const stamp = new Date().toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
    const log = `203.0.113.9 - - [${stamp}] "GET /blog/project-management-guide HTTP/1.1" 403 120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"\n`;
    assert.equal((await rig.server.request('POST', `/v1/sites/${logSite.id}/logs`, { key, body: log, headers: { 'content-type': 'text/plain' } })).statusCode, 200);
    await page.getByRole('link', { name: 'Content', exact: true }).click();
    await page.getByText('No analyses yet').waitFor();
    await page.getByRole('link', { name: 'Analyse a page' }).first().click();
    await page.getByLabel('Page URL').fill(site.url('/blog/project-management-guide'));
    await page.getByRole('button', { name: 'Analyse for 6.00 cr' }).click();
    await page.waitForURL(/\/console\/content\/ci_/);
    visited['report'] = new URL(page.url()).pathname;
    visited['content'] = '/console/content';
    await page.getByTestId('ci-status').getByText('completed').waitFor({ timeout: 60_000 });
    assert.match(await page.getByTestId('ci-overall').innerText(), /^\d+$/);
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor();
    // Priorities read as urgency (high red, medium amber, low grey), never as a "Good" band; +1 is one point.
    const recs = page.getByRole('region', { name: 'Recommendations' });
    assert.equal(await recs.locator('.badge.Good, .badge.Fair, .badge.Poor').count(), 0);
    assert.ok((await recs.locator('.badge.priority-high, .badge.priority-medium, .badge.priority-low').count()) > 0);
    assert.doesNotMatch(await recs.innerText(), /\+1 points/);
    // Gains overlap: each reads "up to +N", and the note bounds their sum by what is left to 100.
    assert.match(await recs.innerText(), /up to \+\d+ points?/);
    const overall = Number(await page.getByTestId('ci-overall').innerText());
    assert.match(await page.getByTestId('gains-note').innerText(), new RegExp(`at most ${100 - overall} points`));
    // Depth and sufficiency are one number: one tile. Score bars take their band's colour.
    assert.match(await page.locator('.stats').innerText(), /Depth and sufficiency/i);
    assert.ok((await page.locator('.bar.band-Strong, .bar.band-Good, .bar.band-Fair, .bar.band-Poor').count()) > 0);
    await page.getByRole('heading', { name: 'AI-readiness audit' }).waitFor();
    const crawlers = page.getByRole('table', { name: 'Whether each AI crawler may fetch the page' });
    assert.ok((await crawlers.getByRole('row').count()) > 2, 'one row per AI crawler');
    // The checks do not repeat the crawler table, and read as names, not ids.
    assert.doesNotMatch(await page.getByTestId('audit-checks').innerText(), /ai.crawler/i);
    assert.doesNotMatch((await page.getByTestId('audit-checks').locator('strong').allInnerTexts()).join('|'), /_/);
    // What the logs say beside robots.txt.
    assert.match(await page.getByTestId('audit-log-evidence').innerText(), /GPTBot was refused on 1 of 1 requests for \/blog\/project-management-guide in the last 7 days although robots\.txt allows it/);
    await page.getByTestId('audit-log-evidence').scrollIntoViewIfNeeded();
    await rig.screenshot(page, 'content-audit-log-evidence-desktop');
    await page.getByRole('heading', { name: 'Components' }).waitFor();
    assert.equal(await page.locator('pre').count(), 0, 'no raw JSON');
    await rig.screenshot(page, 'content-report-desktop');
    // The report leads to the page's saved test, where analyses before and after an edit compare.
    const run = await (await rig.server.request('GET', `/v1/content-intelligence/runs/${visited['report'].split('/').pop()}`, { key })).json();
    assert.match(run.test_id, /^test_/);
    assert.equal(await page.getByTestId('ci-history-link').getAttribute('href'), `/console/tests/${run.test_id}`);
    assert.equal(await page.getByTestId('ci-history-link').innerText(), 'Compare with earlier analyses of this page');
    // Prompt ideas become a visibility run, prefilled.
    const ideas = page.getByRole('region', { name: 'Prompt ideas' });
    await ideas.getByRole('button', { name: /^Check \d+ prompts? in a visibility run$/ }).click();
    await page.waitForURL(/\/console\/runs\/new$/);
    assert.equal(await page.getByLabel('Your page URL').inputValue(), site.url('/blog/project-management-guide'));
    assert.ok((await page.getByLabel('One prompt per line').inputValue()).split('\n').length >= 1);
  });

  test('account: balance, reservations, the ledger and the activity log with filters', async () => {
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Credit ledger' }).waitFor();
    const ledger = page.getByRole('table', { name: 'Ledger entries, newest first' });
    await ledger.getByText('Credits granted').first().waitFor();
    await page.getByLabel('Show').selectOption('reserved');
    await page.getByText('No open reservations').waitFor();
    await page.getByLabel('Show').selectOption('charge');
    // Actions by name, not by id (the id stays in the tooltip).
    await ledger.getByText('Visibility run', { exact: true }).first().waitFor();
    assert.doesNotMatch(await ledger.innerText(), /visibility\.runs\.create/);
    await page.getByLabel('Kind').selectOption('visibility');
    const activity = page.getByRole('table', { name: 'Recent requests' });
    await activity.getByText('Visibility run', { exact: true }).first().waitFor();
    assert.match(await activity.innerText(), /Console/);
    visited['account'] = '/console/account';
  });

  test('a tracked test: created with a schedule and budget, run now twice, its charts drawn from real history with their tables, paused and edited', async () => {
    await grant(20);
    await page.getByRole('link', { name: 'Tracked tests' }).click();
    await page.getByRole('link', { name: 'New tracked test' }).first().click();
    await page.getByLabel('Name (optional)').fill('Acme weekly');
    await page.getByLabel('Page URL').fill('https://acme.example/pricing');
    await page.getByLabel('Brand', { exact: true }).fill('Acme');
    await page.getByLabel('Competitors (comma-separated)').fill('Rival');
    await page.getByLabel('Prompts, one per line').fill('best project tool [[sandbox:mention]]\nacme alternatives');
    await page.getByLabel('Repeat', { exact: true }).selectOption('weekly');
    await page.getByLabel('Day', { exact: true }).selectOption('1');
    await page.getByLabel('Time', { exact: true }).fill('06:00');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    // Day, Time and Time zone stand in one row: the same height (a time input is taller by default).
    const boxes = await Promise.all(['Day', 'Time', 'Time zone'].map((label) => page.getByLabel(label, { exact: true }).boundingBox()));
    assert.deepEqual(new Set(boxes.map((b) => b!.height)).size, 1, JSON.stringify(boxes));
    assert.deepEqual(new Set(boxes.map((b) => b!.y)).size, 1, JSON.stringify(boxes));
    await page.getByTestId('adopt-note').getByText('Runs you already made for this page and brand join this test').waitFor();
    await page.getByLabel('Monthly budget (credits, optional)').fill('50');
    await page.getByText('One run costs 8.00 credits').waitFor();
    await rig.screenshot(page, 'test-new-desktop');
    await page.getByRole('button', { name: 'Create tracked test' }).click();
    await page.waitForURL(/\/console\/tests\/test_/);
    const testPath = new URL(page.url()).pathname;
    await page.getByText('Every Monday at 06:00 (Europe/Berlin)').waitFor();
    await page.getByText('of a 50.00 budget').waitFor();
    await page.getByText('No finished runs in this period').waitFor();

    // Runs made earlier for this page joined the test (kept apart from its numbers): count the
    // completed rows before each "Run now" and wait for one more.
    const runs = page.getByRole('table', { name: 'Runs of this test' });
    const completedRows = async () => ((await runs.count()) ? runs.getByText('completed', { exact: true }).count() : 0);
    for (let n = 1; n <= 2; n++) {
      const before = await completedRows();
      await page.getByRole('button', { name: 'Run now' }).click();
      await page.getByText('Run queued.').waitFor();
      await runs.getByText('completed', { exact: true }).nth(before).waitFor({ timeout: 60_000 });
    }
    // The chart is drawn (uPlot's canvas) and its numbers are in a table: one row per run.
    const chart = page.getByTestId('rate-chart');
    await chart.locator('canvas').waitFor();
    await page.getByTestId('sov-chart').locator('canvas').waitFor();
    // Two runs seconds apart on an axis sized to them (not days of empty future): spread out.
    // (The history is polled: wait until the chart holds both runs, not only the first one.)
    const range = async () => (await chart.getAttribute('data-x-range'))!.split(',').map(Number);
    // The table is in a closed <details> until "Show the numbers": its second row attached is enough.
    await page.getByRole('table', { name: 'Mention rate over time', includeHidden: true }).locator('tbody tr').nth(1).waitFor({ state: 'attached', timeout: 30_000 });
    const [lo, hi] = await range();
    assert.ok(hi - lo <= 7200, `the time axis spans ${hi - lo} s`);
    assert.ok(hi < Date.now() / 1000 + 600, 'the time axis ends near the last run');
    await page.getByTestId('comp-rate-chart').locator('canvas').waitFor();
    const rateSection = page.getByRole('region', { name: 'Mention rate over time' });
    await rateSection.getByText('Show the numbers').click();
    const table = rateSection.getByRole('table', { name: 'Mention rate over time' });
    assert.equal(await table.locator('tbody tr').count(), 2);
    assert.match(await table.innerText(), /50%[\s\S]*\d+%–\d+%/);
    assert.match(await table.innerText(), /\d{1,2}:\d\d/, 'each point with its time, not only its day');
    assert.match(await page.getByText('This month').locator('..').innerText(), /16\.00 cr/);
    await rig.screenshot(page, 'test-charts-desktop');
    visited['test'] = testPath;
    visited['tests'] = '/console/tests';

    await page.getByRole('button', { name: 'Pause schedule' }).click();
    await page.getByText('Schedule paused').waitFor();
    await page.getByRole('button', { name: 'Resume schedule' }).waitFor();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Repeat', { exact: true }).selectOption('daily');
    await page.getByLabel('Time', { exact: true }).fill('07:30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(new RegExp(testPath + '$'));
    await page.getByRole('button', { name: 'Resume schedule' }).click();
    await page.getByText('Daily at 07:30 (Europe/Berlin)').waitFor();
  });

  test('every main page: no sideways scroll at 390 px, no serious or critical axe violation, screenshots at both widths', async () => {
    visited['operator'] = '/console/operator';
    for (const [name, path] of Object.entries(visited)) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
        await page.goto(path);
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
        const { scrollWidth, innerWidth } = await horizontalOverflow(page);
        assert.ok(scrollWidth <= innerWidth, `${name} at ${width} px scrolls sideways: ${scrollWidth} > ${innerWidth}`);
        const violations = await axeViolations(page);
        assert.deepEqual(violations, [], `${name} at ${width} px: ${JSON.stringify(violations, null, 1)}`);
        await rig.screenshot(page, `${name}-${width === 390 ? '390' : 'desktop'}`);
      }
      // The narrowest phones too (360 px): still no sideways scroll.
      await page.setViewportSize({ width: 360, height: 780 });
      const narrow = await horizontalOverflow(page);
      assert.ok(narrow.scrollWidth <= narrow.innerWidth, `${name} at 360 px scrolls sideways: ${narrow.scrollWidth}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('first load: under 150 KB of compressed JavaScript and CSS, all from the instance', async () => {
    const fresh = await rig.context.newPage();
    // Nothing from the cache: every file is transferred as on a first visit.
    await (await rig.context.newCDPSession(fresh)).send('Network.setCacheDisabled', { cacheDisabled: true });
    const sizes: Promise<number>[] = [];
    const files: string[] = [];
    fresh.on('response', (response) => {
      if (!['script', 'stylesheet'].includes(response.request().resourceType())) return;
      assert.equal(response.status(), 200, response.url());
      files.push(new URL(response.url()).pathname);
      // Sent gzipped (content-length is the compressed size).
      sizes.push(response.allHeaders().then((h) => (assert.equal(h['content-encoding'], 'gzip'), Number(h['content-length']))));
    });
    await fresh.goto('/console/runs');
    await fresh.locator('main h1').waitFor();
    await fresh.waitForLoadState('networkidle');
    const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    assert.ok(files.includes('/console/assets/vendor/preact.mjs') && files.includes('/console/assets/app.css'), files.join(' '));
    assert.ok(bytes > 10_000 && bytes < 150 * 1024, `first load JS+CSS: ${bytes} bytes compressed`);
    console.log(`# first load of /console/runs: ${bytes} bytes of compressed JavaScript and CSS`);
    await fresh.close();
  });

  async function cookieHeader() {
    return (await rig.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  }
});
