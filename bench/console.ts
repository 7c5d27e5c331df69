// Benchmark: the console's first paint of a big project's dashboard in Chromium. A real server
// and worker on a temp SQLite database (the browser tests' rig), a project of --prompts prompts
// (default 250, in 5 topics) on 4 platforms × 2 repeats in 2 markets (2,000 probes a market a
// run), run --runs times (default 3) on the sandbox engine, each run moved a week back so the
// dashboard has that many weekly windows. Then, --loads times (default 5) in a fresh tab:
//   - FCP: Chromium's first-contentful-paint of /console/projects/{id} (the page shell);
//   - when the dashboard's API answer had arrived in the page;
//   - painted: from navigation start to the first frame with the brand table and the matrix's
//     first 60 rows (the page paints those first, the rest a frame later), and to all rows;
//   each with the browser cache disabled (cold) and enabled (warm); and the dashboard API's own
//   time (GET /v1/projects/{id}/dashboard, in-process). Target: painted ≤ 1.5 s.
//
//   npm run bench:console
//   npm run bench:console -- --prompts 250 --runs 3 --loads 5
import type { Page } from 'playwright-core';
import { createOwner } from '../src/core/accounts/users.ts';
import { grantCredits } from '../src/core/billing/ledger.ts';
import { projectTests } from '../src/core/projects/projects.ts';
import { startRig } from '../test/console/browser/browser.ts';
import { fmt, parseArgs } from './lib/common.ts';

const args = parseArgs();
const promptCount = args.num('--prompts', 250);
const runCount = args.num('--runs', 3);
const loads = args.num('--loads', 5);
const OWNER = { email: 'bench@acme.example', password: 'bench console passphrase' };
const TOPICS = ['pricing', 'agencies', 'integrations', 'security', 'support'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const rig = await startRig({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  try {
    const store = rig.server.runtime.core.store;
    const accountId = (await createOwner(store, OWNER.email, OWNER.password)).account_id;
    await grantCredits(store, accountId, 10_000_000);
    const key = await rig.server.key(accountId);
    const prompts = Array.from({ length: promptCount }, (_, i) => ({ prompt: `which crm is best for use case ${i}`, topics: [TOPICS[i % TOPICS.length]] }));
    const created = await rig.server.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://acme-crm.example/',
        brand: { name: 'Acme CRM', aliases: ['Acme'], domains: ['acme-crm.example'] },
        competitors: ['HubSpot', 'Pipedrive', 'Salesforce', 'Zoho'].map((name) => ({ name })),
        markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }],
        platforms: ['openai', 'perplexity', 'gemini', 'claude'],
        repeats: 2,
        prompts,
      },
    });
    if (created.statusCode !== 200) throw new Error(created.body);
    const projectId = created.json().id as string;
    const seedStart = performance.now();
    let probes = 0;
    for (let r = 0; r < runCount; r++) {
      const run = (await rig.server.request('POST', `/v1/projects/${projectId}/runs`, { key, body: {} })).json();
      for (const x of run.runs) probes += (await rig.server.waitForRun(key, x.run_id, 600_000)).probe_count ?? 0;
      // Every run so far a week further back: one weekly window per run.
      const db = store.db;
      for (const t of await projectTests(db, projectId)) {
        for (const row of await db.selectFrom('visibility_runs').select(['id', 'created_at']).where('test_id', '=', t.id).execute()) {
          await db.updateTable('visibility_runs').set({ created_at: new Date(Date.parse(row.created_at) - 7 * 86_400_000).toISOString() }).where('id', '=', row.id).execute();
        }
      }
    }
    console.log(`seeded: ${promptCount} prompts, ${runCount} runs × 2 markets, ${fmt(probes)} probes in ${fmt((performance.now() - seedStart) / 1000, 1)} s`);

    const api: number[] = [];
    for (let i = 0; i < loads; i++) {
      const t0 = performance.now();
      const res = await rig.server.request('GET', `/v1/projects/${projectId}/dashboard`, { key });
      if (res.statusCode !== 200) throw new Error(res.body);
      api.push(performance.now() - t0);
    }

    const page = await rig.open();
    await page.goto('/console/sign-in');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    await page.close();

    const measure = async (cold: boolean) => {
      const fcp: number[] = [];
      const first: number[] = [];
      const ready: number[] = [];
      const answered: number[] = [];
      for (let i = 0; i < loads; i++) {
        const tab: Page = await rig.context.newPage();
        if (cold) await (await rig.context.newCDPSession(tab)).send('Network.setCacheDisabled', { cacheDisabled: true });
        // Timed inside the page: the first animation frame after the brand table and every
        // matrix row are in the document (a locator's polling would add its own delay).
        // (A string: tsx would wrap a function's inner functions in helpers the page lacks.)
        await tab.addInitScript(`(() => {
          const n = ${promptCount};
          const first = Math.min(n, 60);
          const done = () => {
            const tables = [...document.querySelectorAll('table')];
            const named = (text) => tables.find((t) => t.caption && t.caption.textContent === text);
            const matrix = named('Prompt × platform matrix');
            return !!named('Brand and competitors in the latest window') && !!matrix ? matrix.tBodies[0].rows.length : 0;
          };
          const observer = new MutationObserver(() => {
            const rows = done();
            if (!window.__first && rows >= first) {
              window.__first = -1;
              requestAnimationFrame(() => (window.__first = performance.now()));
            }
            if (!window.__ready && rows >= n) {
              window.__ready = -1;
              observer.disconnect();
              requestAnimationFrame(() => (window.__ready = performance.now()));
            }
          });
          document.addEventListener('DOMContentLoaded', () => observer.observe(document.body, { childList: true, subtree: true }));
        })()`);
        await tab.goto(`/console/projects/${projectId}`, { waitUntil: 'commit' });
        await tab.waitForFunction(() => (window as any).__ready > 0, undefined, { timeout: 60_000 }).catch(async (e) => {
          console.log(await tab.evaluate(() => [(window as any).__ready, [...document.querySelectorAll('caption')].map((c) => c.textContent)]));
          throw e;
        });
        ready.push(await tab.evaluate(() => (window as any).__ready));
        first.push(await tab.evaluate(() => (window as any).__first));
        // When the dashboard's answer had arrived: the rest is the page's own work.
        answered.push(await tab.evaluate(() => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.includes('/dashboard?'))?.responseEnd ?? Number.NaN));
        fcp.push(await tab.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
        if (args.flag('--trace') && i === 0) {
          const entries = await tab.evaluate(() => performance.getEntriesByType('resource').map((e) => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round((e as PerformanceResourceTiming).responseEnd)]));
          for (const [name, start, end] of entries) console.log(`  ${String(start).padStart(5)} → ${String(end).padStart(5)} ms  ${name}`);
        }
        await tab.close();
      }
      return { fcp: median(fcp), first: median(first), ready: median(ready), answered: median(answered) };
    };
    const cold = await measure(true);
    const warm = await measure(false);
    console.log(`dashboard API (in-process), median of ${loads}: ${fmt(median(api))} ms`);
    for (const [label, m] of [['cold cache', cold], ['warm cache', warm]] as const) {
      console.log(
        `${label}: FCP ${fmt(m.fcp)} ms; dashboard answered ${fmt(m.answered)} ms; painted with its first ${Math.min(promptCount, 60)} matrix rows ${fmt(m.first)} ms (target ≤ 1,500 ms); all ${promptCount} rows ${fmt(m.ready)} ms`,
      );
    }
  } finally {
    await rig.close();
  }
}

await main();
