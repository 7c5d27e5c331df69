// What a marketer's walkthrough found in the history charts, in a real Chromium against a real
// server and worker on the sandbox engine: a chart of a single run or window says it is not a
// trend yet. Screenshots at 1280 and 390 px, without sideways scroll or axe violations.
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

  const checkWidths = (name: string) => checkBothWidths(rig, page, `history-${name}`);

  test('a tracked test of one run says it is not a trend yet', async () => {
    const t = (await rig.server.request('POST', '/v1/tests', { key, body: { test_type: 'ai_citations', name: 'Northwind espresso', definition: DEFINITION } })).json();
    await runTest(t.id);
    await page.goto(`/console/tests/${t.id}`);
    const rate = page.getByRole('region', { name: 'Mention rate over time' });
    await rate.locator('canvas').waitFor();
    await page.getByTestId('rate-one').getByText('One run so far, so no trend yet: the line starts with the next run.').waitFor();
    assert.equal(await page.getByText('Latest change', { exact: true }).count(), 0, 'nothing to compare yet');
    await checkWidths('test-one-run');
  });

  test("a project's dashboard of one window says its charts are not a trend yet", async () => {
    const project = await rig.server.request('POST', '/v1/projects', {
      key,
      body: {
        url: DEFINITION.url,
        brand: { name: 'Northwind Coffee' },
        competitors: [{ name: 'Lavazza' }],
        platforms: ['openai'],
        prompts: DEFINITION.prompts.map((prompt) => ({ prompt })),
      },
    });
    assert.equal(project.statusCode, 200, project.body);
    const p = project.json();
    const runs = await rig.server.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} });
    assert.equal(runs.statusCode, 200, runs.body);
    for (const r of runs.json().runs) await rig.server.waitForRun(key, r.run_id);
    await page.goto(`/console/projects/${p.id}`);
    await page.getByTestId('p-rate-chart').locator('canvas').waitFor();
    await page.getByTestId('p-rate-one').getByText('One window so far, so no trend yet: the line starts with the next window.').waitFor();
    await page.getByTestId('p-sov-one').waitFor();
    await checkWidths('project-one-window');
  });
});
