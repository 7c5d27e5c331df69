// A project walked end to end in a real headless Chromium against a real server and worker on the
// sandbox engine: created from the form with two competitors and 12 prompts imported as CSV in 3
// topics, its sample planned, run twice, the dashboard and the prompt × platform matrix read,
// filtered by topic, and a one-off run for the same page kept apart from its numbers. Every
// project page at 1280, 390 and 360 px without sideways scroll and without serious or critical
// axe-core violations; screenshots under test-artifacts/screenshots.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits } from '../../../src/core/billing/ledger.ts';
import { projectTests } from '../../../src/core/projects/projects.ts';
import { axeViolations, horizontalOverflow, SCREENSHOTS, startRig, type BrowserRig, browserSkip, signIn } from './browser.ts';

const OWNER = { email: 'brand@acme.example', password: 'acme brand passphrase' };
const TOPICS = ['pricing', 'agencies', 'integrations'];
const PROMPTS = [
  'crm pricing compared [[sandbox:no-mention]]',
  'cheapest crm for a small team',
  'crm with a free tier',
  'crm discounts for startups [[sandbox:mention]]',
  'best crm for agencies [[sandbox:mention]]',
  'agency crm with invoicing',
  'which crm do agencies use [[sandbox:no-mention]]',
  'crm for a creative agency',
  'crm integrations with gmail',
  'crm with zapier',
  'crm api quality [[sandbox:mention]]',
  'crm for developers',
];
const CSV = 'prompt,topics\n' + PROMPTS.map((p, i) => `"${p}",${TOPICS[Math.floor(i / 4)]}`).join('\n') + '\n';

describe('a project in the console', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let accountId: string;
  const visited: Record<string, string> = {};

  before(async () => {
    rig = await startRig();
    accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    await grantCredits(rig.server.runtime.core.store, accountId, 500 * 100);
    page = await rig.open();
    await signIn(page, OWNER);
  });
  /** Moves the project's runs so far `days` back in time (the runs' own created_at). */
  async function backdateRuns(projectId: string, days: number) {
    const db = rig.server.runtime.core.store.db;
    for (const t of await projectTests(db, projectId)) {
      for (const r of await db.selectFrom('visibility_runs').select(['id', 'created_at']).where('test_id', '=', t.id).execute()) {
        const created_at = new Date(Date.parse(r.created_at) - days * 86_400_000).toISOString();
        await db.updateTable('visibility_runs').set({ created_at }).where('id', '=', r.id).execute();
      }
    }
  }

  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  test('create a project with competitors and 12 prompts in 3 topics, plan, run twice, read the dashboard and the matrix, filter by topic, a one-off run kept apart', async () => {
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByText('No projects yet').waitFor();
    visited['projects-empty'] = '/console/projects';
    await page.getByRole('link', { name: 'New project' }).first().click();
    await page.getByLabel('Project name (optional)').fill('Acme CRM');
    await page.getByLabel('Brand site URL').fill('https://acme-crm.example/');
    await page.getByLabel('Brand name').fill('Acme CRM');
    await page.getByLabel('Brand aliases (comma-separated)').fill('Acme');
    await page.getByLabel('Brand domains (comma-separated)').fill('acme-crm.example');
    await page.getByLabel('Competitor 1 name').fill('HubSpot');
    await page.getByLabel('Competitor 1 domains').fill('hubspot.com');
    await page.getByRole('button', { name: 'Add a competitor' }).click();
    await page.getByLabel('Competitor 2 name').fill('Pipedrive');
    await page.getByLabel('Competitor 2 aliases').fill('Pipe Drive');
    await page.getByText('CSV with a prompt and a topics column').click();
    await page.getByLabel('Prompts to import').fill(CSV);
    // Weekly by default: the server's estimate says the runs and cost of a month (4 or 5 Mondays
    // of 48 credits), and without a budget a button sets one to the busiest month's.
    const monthly = page.getByTestId('project-monthly');
    // (The form quotes as soon as it opens, for no prompts yet: wait for the fresh answer.)
    await page.locator('[data-testid="project-monthly"][aria-busy="false"]', { hasText: '240.00 in the busiest' }).waitFor();
    await monthly.getByText('Weekly, that is 4–5 runs and about').waitFor();
    assert.match(await monthly.innerText(), /about 2\d\d\.\d\d credits a month \(240\.00 in the busiest month\)/);
    await monthly.getByText('No budget is set, so nothing caps it.').waitFor();
    // The button's budget pays for the busiest month: five Mondays of 48 credits.
    await monthly.getByRole('button', { name: 'Set the budget to 240' }).click();
    assert.equal(await page.getByLabel('Monthly budget (credits, optional)').inputValue(), '240');
    // The last answer is dimmed (aria-busy) for at least the 250 ms before the new one is asked.
    await page.locator('[data-testid="project-monthly"][aria-busy="true"]').waitFor();
    await page.locator('[data-testid="project-monthly"][aria-busy="false"]').waitFor();
    assert.equal(await monthly.getByText('skipped').count(), 0, 'a budget that covers every run says nothing more');
    await page.getByLabel('Monthly budget (credits, optional)').fill('100');
    await monthly.getByText('The budget of 100 credits covers 2 runs a month; later ones are skipped.').waitFor();
    await page.getByLabel('Monthly budget (credits, optional)').fill('0');
    await monthly.getByText('The budget of 0 credits covers no run: every scheduled run is skipped.').waitFor();
    await rig.screenshot(page, 'project-new-budget-desktop');
    await page.getByLabel('Repeat', { exact: true }).selectOption('none');
    await monthly.waitFor({ state: 'detached' });
    await page.getByLabel('Monthly budget (credits, optional)').fill('400');
    // 12 prompts × 2 platforms (the default ChatGPT and Perplexity, 2 credits each) × 1 repeat × 1 market.
    await page.getByTestId('project-cost').getByText('48.00 credits').waitFor();
    await rig.screenshot(page, 'project-new-desktop');
    visited['project-new'] = '/console/projects/new';
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/console\/projects\/proj_/);
    const projectPath = new URL(page.url()).pathname;
    const projectId = projectPath.split('/').at(-1)!;
    await page.getByRole('heading', { name: 'Acme CRM', level: 1 }).waitFor();
    await page.getByText('12 prompts in 3 topics').waitFor();
    await page.getByText('No finished runs in this period').waitFor();

    // Plan before spending: before any run every rate is assumed at 50%.
    const plan = page.getByTestId('plan');
    await plan.getByText('Repeats needed').waitFor();
    await page.getByLabel('Goal').selectOption({ label: 'Each rate within ±10 points' });
    await page.getByLabel('For', { exact: true }).selectOption('overall');
    await page.getByLabel('A period compared is').selectOption('run');
    // ±10 points at 50% needs 93 answers; 24 cells a run → 4 repeats.
    await plan.getByText('4', { exact: true }).waitFor();
    await rig.screenshot(page, 'project-planned-desktop');

    for (let n = 1; n <= 2; n++) {
      await page.getByRole('button', { name: 'Run now' }).click();
      await page.getByText('Runs queued, one per market.').waitFor();
      const runs = page.getByRole('table', { name: "Runs of the project's tests" });
      await runs
        .getByText('completed', { exact: true })
        .nth(n - 1)
        .waitFor({ timeout: 90_000 });
      // The first run moved 8 days back: the dashboard's weekly windows then hold one run each,
      // so the latest window has a previous one to change from (waiting a week is not an option).
      if (n === 1) await backdateRuns(projectId, 8);
    }

    // The dashboard: brand and competitors with n, the chart and its table, the matrix.
    const entities = page.getByRole('table', { name: 'Brand and competitors in the latest window' });
    await entities.getByText('HubSpot').waitFor({ timeout: 20_000 });
    await entities.getByText('Pipedrive').waitFor();
    // The table may still hold the read taken while the run was going (n=6 when a quarter of its
    // answers were in); the page reads the dashboard again once the run ends: wait for that read.
    await entities.getByText('n=24').first().waitFor({ timeout: 20_000 });
    assert.match(await entities.innerText(), /n=24/, 'the latest window: one run of 24 answers');
    assert.match(await entities.innerText(), /pts/, 'the change since the previous window');
    await page.getByTestId('p-rate-chart').locator('canvas').waitFor();
    const rateSection = page.getByRole('region', { name: 'Mention rate over time' });
    await rateSection.getByText('Show the numbers').click();
    assert.equal(await rateSection.getByRole('table').locator('tbody tr').count(), 2, 'two weekly windows');
    const matrix = page.getByRole('table', { name: 'Prompt × platform matrix' });
    await matrix.locator('tbody tr').nth(11).waitFor();
    assert.equal(await matrix.locator('tbody tr').count(), 12);
    const forced = matrix.locator('tbody tr', { hasText: 'crm api quality' });
    // 1 run × 2 platforms: 2 answers (1 a platform), both naming the brand, thin (fewer than 10), unchanged.
    assert.match(await forced.innerText(), /100%[\s\S]*n=2[\s\S]*thin[\s\S]*±0 pts[\s\S]*n=1/);
    // The domains and URLs its answers cited, behind one click.
    await forced.locator('details.cited summary').click();
    // The list is built when opened: wait for it rather than counting at once.
    await forced.locator('details.cited a[href^="https://"]').first().waitFor();
    assert.ok((await forced.locator('details.cited a[href^="https://"]').count()) > 0, 'cited URLs listed');
    const never = matrix.locator('tbody tr', { hasText: 'crm pricing compared' });
    assert.match(await never.innerText(), /0%[\s\S]*n=2/);
    await page.getByRole('heading', { name: 'Competitors named, you are not' }).waitFor();
    await page.getByRole('heading', { name: 'Topics' }).waitFor();
    const topics = page.getByRole('table', { name: 'Topics in the latest window' });
    assert.equal(await topics.locator('tbody tr').count(), 3);
    await rig.screenshot(page, 'project-dashboard-desktop');

    // Filter by topic: only its four prompts, and the series over them.
    await page.getByLabel('Topic', { exact: true }).selectOption('integrations');
    await page.getByTestId('topic-filter-note').waitFor();
    await matrix.locator('tbody tr').nth(3).waitFor();
    assert.equal(await matrix.locator('tbody tr').count(), 4);
    assert.match(await entities.innerText(), /n=8/);
    await page.getByLabel('Topic', { exact: true }).selectOption('');
    await matrix.locator('tbody tr').nth(11).waitFor();

    // A one-off run for the same page and brand: listed apart, never in the project's numbers.
    const key = await rig.server.key(accountId);
    const oneOff = (
      await rig.server.request('POST', '/v1/visibility/runs', {
        key,
        body: { url: 'https://acme-crm.example/', target_entity: 'Acme CRM', prompts: ['crm api quality [[sandbox:mention]]'], platforms: ['gemini'] },
      })
    ).json();
    await rig.server.waitForRun(key, oneOff.run_id);
    await page.reload();
    const apart = page.getByRole('table', { name: "Runs kept apart from the project's numbers" });
    await apart.getByText('a one-off run for this page').waitFor();
    assert.equal(await apart.locator(`a[href="/console/runs/${oneOff.run_id}"]`).count(), 1);
    await entities.getByText('HubSpot').waitFor();
    assert.match(await entities.innerText(), /n=24/, 'the one-off run is not pooled');
    const tracked = page.getByRole('table', { name: "Runs of the project's tests" });
    assert.equal(await tracked.locator(`a[href="/console/runs/${oneOff.run_id}"]`).count(), 0);
    await rig.screenshot(page, 'project-apart-desktop');

    // A run of the project's tests names its project, linked; the one-off run names none.
    const trackedHref = await tracked.locator('a[href^="/console/runs/"]').first().getAttribute('href');
    await page.goto(trackedHref!);
    await page.getByTestId('run-project').waitFor();
    assert.equal(await page.getByTestId('run-project').getAttribute('href'), `/console/projects/${projectId}`);
    await rig.screenshot(page, 'run-in-project-desktop');
    await page.goto(`/console/runs/${oneOff.run_id}`);
    await page.getByTestId('run-status').waitFor();
    assert.equal(await page.getByTestId('run-project').count(), 0);
    await page.goto(`/console/projects/${projectId}`);

    // The brand's own site logs beside the numbers: a refused GPTBot and a ChatGPT referral.
    const site = (await rig.server.request('POST', '/v1/sites', { key, body: { domain: 'acme-crm.example' } })).json();
    const stamp = new Date().toUTCString().replace(/^\w+, (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1/$2/$3:$4 +0000');
    const log = [
      `203.0.113.9 - - [${stamp}] "GET /pricing HTTP/1.1" 403 120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"`,
      `198.51.100.4 - - [${stamp}] "GET /features HTTP/1.1" 200 5120 "https://chatgpt.com/" "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15"`,
    ].join('\n');
    assert.equal(
      (await rig.server.request('POST', `/v1/sites/${site.id}/logs`, { key, body: `${log}\n`, headers: { 'content-type': 'text/plain' } })).statusCode,
      200,
    );
    await page.reload();
    const activity = page.getByTestId('site-activity');
    await activity.waitFor();
    assert.match(await activity.getByRole('table', { name: 'AI crawlers on your site' }).innerText(), /GPTBot\s+1\s+1/);
    assert.match(await activity.getByRole('table', { name: 'Visits referred by AI assistants' }).innerText(), /ChatGPT\s+1/, 'the referrer by its display name');
    await activity.scrollIntoViewIfNeeded();
    await rig.screenshot(page, 'project-site-activity-desktop');

    // A project priced by a model set through the API: its settings quote the run as the server
    // prices it, 12 prompts × (GPT-5.1 at 5.00 + Perplexity's default at 2.00).
    assert.equal((await rig.server.request('PATCH', `/v1/projects/${projectId}`, { key, body: { models: { openai: 'gpt-5.1' } } })).statusCode, 200);
    await page.goto(`/console/projects/${projectId}/edit`);
    await page.locator('[data-testid="project-cost"][aria-busy="false"]').getByText('84.00 credits').waitFor();

    // A market's test page says it belongs to the project and sends its changes there: no Edit
    // or Delete of its own (the API refuses them).
    const marketTest = (await rig.server.request('GET', `/v1/projects/${projectId}`, { key })).json().tests[0];
    await page.goto(`/console/tests/${marketTest.test_id}`);
    const note = page.getByTestId('test-of-project');
    await note.waitFor();
    assert.match(await note.innerText(), new RegExp(`the ${marketTest.market} market of a project`));
    assert.equal(await page.getByRole('link', { name: 'Project settings' }).getAttribute('href'), `/console/projects/${projectId}/edit`);
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Edit', exact: true }).count(), 0);
    await rig.screenshot(page, 'project-market-test-desktop');

    // The list says the latest week and its change against the week before, which asked the same,
    // in the server's figures (the list's glance).
    await page.goto('/console/projects');
    const glance = (await rig.server.request('GET', '/v1/projects', { key })).json().projects[0].glance;
    assert.ok(glance.previous_period, 'two weeks of runs that asked the same');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Acme CRM' }) });
    await row.getByText(`n=${glance.n}`).waitFor();
    assert.match(await row.innerText(), glance.change_significant ? /significant/ : /within the noise/);
    visited['projects'] = '/console/projects';
    visited['project'] = projectPath;
    visited['project-settings'] = `/console/projects/${projectId}/edit`;
  });

  test('share the report with a client: a link made, copied, opened at 390 px, its PDF, revoked; the planner and the form say the same month', async () => {
    const projectPath = visited['project']!;
    const projectId = projectPath.split('/').at(-1)!;
    await page.goto(projectPath);
    const share = page.getByTestId('share');
    await share.getByRole('button', { name: 'Make a share link' }).click();
    const input = share.locator('#share-url');
    await input.waitFor();
    const url = await input.inputValue();
    assert.match(url, /\/share\/[A-Za-z0-9_-]{20,}$/);
    assert.equal(await share.getByRole('link', { name: 'Download the PDF' }).getAttribute('href'), `${url}/report.pdf`);
    await share.getByRole('button', { name: 'Copy link' }).waitFor();
    const links = share.getByRole('table', { name: 'Share links of this project, newest first' });
    await links.getByText('active', { exact: true }).waitFor();
    assert.equal(await links.locator('tbody tr').count(), 1);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      await share.scrollIntoViewIfNeeded();
      const { scrollWidth, innerWidth } = await horizontalOverflow(page);
      assert.ok(scrollWidth <= innerWidth, `project page with a share link at ${width} px scrolls sideways: ${scrollWidth} > ${innerWidth}`);
      assert.deepEqual(await axeViolations(page), [], `share section at ${width} px`);
      await share.screenshot({ path: `${SCREENSHOTS}project-share-${width === 390 ? '390' : 'desktop'}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The shared page, as a client opens it: platforms by their display names, no sideways
    // scroll at phone width, the phone's own chart (readable labels), and its PDF.
    const path = new URL(url).pathname;
    const client = await rig.open(390);
    assert.equal((await client.goto(path))!.status(), 200);
    const head = (await client.locator('table.matrix thead').textContent()) ?? '';
    assert.match(head, /ChatGPT/);
    assert.match(head, /Perplexity/);
    assert.doesNotMatch(head, /openai|perplexity/);
    for (const width of [390, 1280]) {
      await client.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      const { scrollWidth, innerWidth } = await horizontalOverflow(client);
      assert.ok(scrollWidth <= innerWidth, `shared report at ${width} px scrolls sideways: ${scrollWidth} > ${innerWidth}`);
      assert.equal(await client.locator('svg.chart.narrow').isVisible(), width === 390, `the phone's chart at ${width} px`);
      assert.equal(await client.locator('svg.chart.wide').isVisible(), width !== 390, `the wide chart at ${width} px`);
      await rig.screenshot(client, `share-report-${width === 390 ? '390' : 'desktop'}`);
    }
    // The phone's chart labels print at 11 px or more (the wide chart scaled down printed 4 px).
    await client.setViewportSize({ width: 390, height: 844 });
    const label = await client.locator('svg.chart.narrow text').first().evaluate((t) => (t as unknown as SVGTextElement).getBoundingClientRect().height);
    assert.ok(label >= 11, `chart label ${label} px tall`);
    const pdf = await client.request.get(`${path}/report.pdf`);
    assert.equal(pdf.status(), 200);
    assert.equal(pdf.headers()['content-type'], 'application/pdf');

    // Revoked from the console: the link answers 404 at once.
    page.once('dialog', (d) => d.accept());
    await links.getByRole('button', { name: /^Revoke the link made/ }).click();
    await links.getByText('revoked', { exact: true }).waitFor();
    assert.equal((await client.goto(path))!.status(), 404);
    await client.close();

    // The sample planner and the project form say a month's cost in the same words and figures.
    assert.equal((await rig.server.request('PATCH', `/v1/projects/${projectId}`, { key: await rig.server.key(accountId), body: { schedule: { cron: '0 6 * * 1', timezone: 'UTC' } } })).statusCode, 200);
    await page.goto(projectPath);
    const now = page.getByTestId('plan').locator('.stat', { hasText: 'Credits a month now' });
    await now.getByText(/in the busiest month/).waitFor();
    const planned = /about (\d+\.\d\d) cr\s+(\d+\.\d\d) in the busiest month/.exec(await now.innerText());
    assert.ok(planned, await now.innerText());
    await page.goto(`${projectPath}/edit`);
    const form = page.locator('[data-testid="project-monthly"][aria-busy="false"]');
    await form.getByText(/in the busiest month/).waitFor();
    const said = /about (\d+\.\d\d) credits a month \((\d+\.\d\d) in the busiest month\)/.exec(await form.innerText());
    assert.ok(said, await form.innerText());
    assert.deepEqual([said[1], said[2]], [planned[1], planned[2]], 'the form and the planner: the same average and busiest month');
  });

  test('every project page: no sideways scroll at 1280, 390 and 360 px, no serious or critical axe violation, screenshots', async () => {
    for (const [name, path] of Object.entries(visited)) {
      if (name === 'projects-empty') continue;
      for (const width of [1280, 390, 360]) {
        await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
        await page.goto(path);
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
        if (name === 'project') await page.getByTestId('p-rate-chart').locator('canvas').waitFor();
        const { scrollWidth, innerWidth } = await horizontalOverflow(page);
        assert.ok(scrollWidth <= innerWidth, `${name} at ${width} px scrolls sideways: ${scrollWidth} > ${innerWidth}`);
        const violations = await axeViolations(page);
        assert.deepEqual(violations, [], `${name} at ${width} px: ${JSON.stringify(violations, null, 1)}`);
        await rig.screenshot(page, `${name}-${width === 1280 ? 'desktop' : width}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
