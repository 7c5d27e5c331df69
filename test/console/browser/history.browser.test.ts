// What a marketer's walkthrough found in the history charts, in a real Chromium against a real
// server and worker on the sandbox engine: a chart of a single run or window says it is not a
// trend yet, and a tracked test whose prompts changed marks the change in its charts (a dashed
// line, the lines broken there), names each point's set in the tables and says why no latest
// change is shown; a project's brand card shows the server's change once two windows asked the same. Screenshots at 1280 and 390 px, without sideways scroll or axe violations.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type BrowserRig, browserSkip, checkBothWidths, closeRig, ownerWithCredits, signIn, startRig } from './browser.ts';

const OWNER = { email: 'history@northwind.example', password: 'northwind history passphrase' };
const DEFINITION = {
  url: 'https://northwind-coffee.example/',
  target_entity: 'Northwind Coffee',
  competitors: ['Lavazza'],
  prompts: ['best espresso beans [[sandbox:mention]]', 'fair trade coffee brands'],
  platforms: ['openai'],
};

describe('history charts in a browser', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let key: string;

  before(async () => {
    rig = await startRig();
    const accountId = await ownerWithCredits(rig, OWNER, 100);
    key = await rig.server.key(accountId);
    page = await rig.open();
    await signIn(page, OWNER);
  });
  after(() => closeRig(rig));

  async function runTest(testId: string) {
    const run = await rig.server.request('POST', `/v1/tests/${testId}/runs`, { key, body: {} });
    assert.equal(run.statusCode, 200, run.body);
    await rig.server.waitForRun(key, run.json().run_id);
  }

  /** A project of DEFINITION's page, brand and prompts on ChatGPT, with `settings` besides. */
  async function createProject(settings: Record<string, unknown>) {
    const body = { url: DEFINITION.url, brand: { name: 'Northwind Coffee' }, platforms: ['openai'], prompts: DEFINITION.prompts.map((prompt) => ({ prompt })), ...settings };
    const res = await rig.server.request('POST', '/v1/projects', { key, body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  }

  const checkWidths = (name: string) => checkBothWidths(rig, page, `history-${name}`);

  test('one run is not a trend; a change of prompts is marked, not joined, and no change is claimed across it', async () => {
    const t = (await rig.server.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', name: 'Northwind espresso', definition: DEFINITION } })).json();
    await runTest(t.id);
    await page.goto(`/console/tests/${t.id}`);
    const rate = page.getByRole('region', { name: 'Mention rate over time' });
    await rate.locator('canvas').waitFor();
    await page.getByTestId('rate-one').getByText('One run so far, so no trend yet: the line starts with the next run.').waitFor();
    assert.match((await page.getByTestId('rate-chart').getAttribute('aria-label'))!, /^Mention rate over time: 1 point; latest/);
    assert.equal(await page.getByTestId('definition-changed').count(), 0);
    assert.equal(await page.getByText('Latest change', { exact: true }).count(), 0, 'nothing to compare yet');
    await checkWidths('test-one-run');

    // A second run of the same prompts, then a prompt added: the third run asked something else.
    await runTest(t.id);
    const patched = await rig.server.request('PATCH', `/v1/tests/${t.id}`, { key, body: { definition: { ...DEFINITION, prompts: [...DEFINITION.prompts, 'coffee for a moka pot'] } } });
    assert.equal(patched.statusCode, 200, patched.body);
    await runTest(t.id);
    await page.reload();
    await rate.locator('canvas').waitFor();
    await page.getByTestId('definition-changed').waitFor();
    await page.getByTestId('rate-breaks').waitFor();
    // One break, between the second run and the third, where the lines stop.
    const history = (await rig.server.request('GET', `/v1/tests/${t.id}/history`, { key })).json();
    const ends = history.points.map((p: { end: string }) => Date.parse(p.end) / 1000);
    const breaks = (await page.getByTestId('rate-chart').getAttribute('data-breaks'))!.split(',').map(Number);
    assert.equal(breaks.length, 1);
    assert.ok(breaks[0] >= ends[1] && breaks[0] <= ends[2], `the break at ${breaks[0]} lies between ${ends[1]} and ${ends[2]}`);
    assert.equal(await page.getByTestId('rate-one').count(), 0);
    // No change is claimed across the two prompt sets, and the card says why.
    const card = page.getByText('Latest change', { exact: true }).locator('..');
    assert.match(await card.innerText(), /—[\s\S]*no earlier point asked what the latest one asked/);
    // The table names each point's set; the third run is set 2.
    await rate.getByText('Show the numbers').click();
    const rows = rate.getByRole('table', { name: 'Mention rate over time' }).locator('tbody tr');
    assert.equal(await rows.count(), 3);
    assert.deepEqual(
      await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLTableRowElement).cells[1].textContent)),
      ['set 1', 'set 1', 'set 2'],
    );
    // Every chart of the page carries the same mark.
    for (const id of ['sov', 'comp-rate']) await page.getByTestId(`${id}-breaks`).waitFor();
    // On a phone the table's caption spans its card, not a sliver beside it a word a line.
    await checkBothWidths(rig, page, 'history-test-prompts-changed', async () => {
      const [caption, table] = await rate.getByRole('table').evaluate((t) => [t.querySelector('caption')!.getBoundingClientRect(), t.getBoundingClientRect()].map((r) => r.width));
      assert.ok(caption >= table * 0.9, `the caption is ${caption} px wide in a table of ${table} px`);
    });

    // A fourth run of the new set: the change is measured again, between the two runs of set 2.
    await runTest(t.id);
    await page.reload();
    await page.getByTestId('definition-changed').waitFor();
    await card.getByText(/pts/).waitFor();
    assert.doesNotMatch(await card.innerText(), /no earlier point/);
  });

  test("a project's dashboard of one window says its charts are not a trend yet", async () => {
    const p = await createProject({ competitors: [{ name: 'Lavazza' }] });
    const runs = await rig.server.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} });
    assert.equal(runs.statusCode, 200, runs.body);
    for (const r of runs.json().runs) await rig.server.waitForRun(key, r.run_id);
    await page.goto(`/console/projects/${p.id}`);
    await page.getByTestId('p-rate-chart').locator('canvas').waitFor();
    await page.getByTestId('p-rate-one').getByText('One window so far, so no trend yet: the line starts with the next window.').waitFor();
    await page.getByTestId('p-sov-one').waitFor();
    // Its text alternative counts in the singular too.
    assert.match((await page.getByTestId('p-rate-chart').getAttribute('aria-label'))!, /^Mention rate over time: 1 window; latest/);
    // The numbers behind it as a spreadsheet, in the windows chosen: every prompt, every platform.
    const csv = page.getByTestId('csv-links').getByRole('link', { name: 'Download CSV' });
    await page.getByLabel('Windows', { exact: true }).selectOption('30d');
    const href = (await csv.getAttribute('href'))!;
    assert.equal(href, `/v1/tests/${p.tests[0].test_id}/history?window=30d&days=90&format=csv`);
    const sheet = await page.request.get(href);
    assert.equal(sheet.status(), 200);
    const text = await sheet.text();
    assert.match(text, /^start,end,series,/);
    for (const prompt of DEFINITION.prompts) assert.ok(text.includes(`prompt:${prompt}|platform:openai`), prompt);
    await checkWidths('project-one-window');

    // The projects list says the project's latest figure, its band, that it is simulated, and
    // that there is no earlier week to compare with, from the server (the list's `glance`).
    await page.goto('/console/projects');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: p.name }) });
    await row.getByText('sandbox', { exact: true }).waitFor();
    const cells = await row.locator('td').allInnerTexts();
    const g = (await rig.server.request('GET', '/v1/projects', { key })).json().projects.find((x: { id: string }) => x.id === p.id).glance;
    assert.match(cells.join(' | '), new RegExp(`${Math.round(g.mention_rate * 100)}%.*n=${g.n}`, 's'));
    assert.match(cells.join(' | '), /no comparable earlier week/);
    await checkWidths('projects-list-glance');
  });

  test("a project's dashboard marks where its prompts changed, as a tracked test's charts do", async () => {
    const p = await createProject({ name: 'Northwind prompts changed' });
    const runProject = async () => {
      const runs = await rig.server.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} });
      assert.equal(runs.statusCode, 200, runs.body);
      for (const r of runs.json().runs) await rig.server.waitForRun(key, r.run_id);
      return runs.json().runs.map((r: { run_id: string }) => r.run_id) as string[];
    };
    const first = await runProject();
    // The first run a week and more ago, then a prompt added: this week's run asks something else.
    const ago = new Date(Date.now() - 9 * 86_400_000).toISOString();
    await rig.server.runtime.core.store.db.updateTable('visibility_runs').set({ created_at: ago }).where('id', 'in', first).execute();
    const added = await rig.server.request('POST', `/v1/projects/${p.id}/prompts`, { key, body: { prompts: [{ prompt: 'coffee for a moka pot' }] } });
    assert.equal(added.statusCode, 200, added.body);
    await runProject();
    const d = (await rig.server.request('GET', `/v1/projects/${p.id}/dashboard`, { key })).json();
    assert.equal(d.series.length, 2);
    const history = (await rig.server.request('GET', `/v1/tests/${p.tests[0].test_id}/history?window=7d`, { key })).json();
    assert.deepEqual(d.series.map((x: { definition_id: string }) => x.definition_id), history.points.map((x: { definition_id: string }) => x.definition_id), "the test's own definition ids");
    assert.notEqual(d.series[0].definition_id, d.series[1].definition_id);

    await page.goto(`/console/projects/${p.id}`);
    const rate = page.getByRole('region', { name: 'Mention rate over time' });
    await rate.locator('canvas').waitFor();
    await page.getByTestId('p-definition-changed').waitFor();
    for (const id of ['p-rate', 'p-sov']) await page.getByTestId(`${id}-breaks`).waitFor();
    const breaks = (await page.getByTestId('p-rate-chart').getAttribute('data-breaks'))!.split(',').map(Number);
    const ends = d.series.map((x: { end: string }) => Date.parse(x.end) / 1000);
    assert.equal(breaks.length, 1);
    assert.ok(breaks[0] > ends[0] && breaks[0] < ends[1], 'between the two windows');
    await rate.getByText('Show the numbers').click();
    const rows = rate.getByRole('table', { name: 'Mention rate over time' }).locator('tbody tr');
    assert.deepEqual(await rows.evaluateAll((trs) => trs.map((tr) => (tr as HTMLTableRowElement).cells[1].textContent)), ['set 1', 'set 2']);
    // No move is claimed across the change: the server says so (not_comparable_reason).
    assert.equal(d.series[1].not_comparable_reason, 'definition_changed');
    assert.equal(d.series[1].brand.change, null);
    const entities = page.getByRole('table', { name: 'Brand and competitors in the latest window' });
    const brandRow = entities.locator('tbody tr').first();
    assert.match(await brandRow.innerText(), /the window before asked something else/);
    await checkWidths('project-prompts-changed');

    // A week later the same prompts run again: that window is compared with the one before,
    // which asked the same, and the brand card shows the server's change.
    const db = rig.server.runtime.core.store.db;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await db.updateTable('visibility_runs').set({ created_at: daysAgo(16) }).where('id', 'in', first).execute();
    await db.updateTable('visibility_runs').set({ created_at: daysAgo(9) }).where('id', 'not in', first).where('test_id', '=', p.tests[0].test_id).execute();
    await runProject();
    const again = (await rig.server.request('GET', `/v1/projects/${p.id}/dashboard`, { key })).json();
    assert.deepEqual(again.series.map((x: { not_comparable_reason: string | null }) => x.not_comparable_reason), ['no_previous_window', 'definition_changed', null]);
    const change = again.series[2].brand.change as number;
    assert.equal(typeof change, 'number');
    await page.goto(`/console/projects/${p.id}`);
    await entities.waitFor();
    const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
    assert.match(await brandRow.innerText(), new RegExp(`\\${sign}${Math.abs(Math.round(change * 100))} pts`));
    assert.doesNotMatch(await entities.innerText(), /asked something else/);
    await page.getByText(/compared with/).waitFor();
    await checkWidths('project-change-compared');
  });

  test("the sample planner's month under a budget says what the budget stops", async () => {
    // 2 prompts × ChatGPT (2 credits) = 4 credits a run, daily: 28–31 runs, 112–124 credits a
    // month; a budget of 40 credits pays for 10 of them.
    const p = await createProject({ schedule: { cron: '0 6 * * *', timezone: 'UTC' }, monthly_credit_budget: '40.00' });
    await page.goto(`/console/projects/${p.id}`);
    const plan = page.getByTestId('plan');
    const now = plan.getByText('Credits a month now', { exact: true }).locator('..');
    await now.getByText('the budget of 40.00 cr covers 10 runs a month; later ones are skipped').waitFor();
    assert.match(await now.innerText(), /about 1\d\d\.\d\d cr/, 'the schedule\'s month, as the form says it');
    await plan.getByText('Credits a month as planned', { exact: true }).locator('..').getByText(/covers \d+ runs? a month; later ones are skipped/).waitFor();
    await checkWidths('project-plan-budget');
  });
});
