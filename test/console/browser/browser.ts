/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// One headless Chromium (Debian's package, driven by playwright-core) and one real server on a
// loopback port, shared by the tests of a file. Screenshots go to test-artifacts/screenshots
// (ignored by git) for a reviewer; axe-core runs inside the page.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits } from '../../../src/core/billing/ledger.ts';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { assertBrowser, CHROMIUM } from '../../helpers/prerequisites.ts';

export { browserSkip, CHROMIUM } from '../../helpers/prerequisites.ts';
export const SCREENSHOTS = new URL('../../../test-artifacts/screenshots/', import.meta.url).pathname;
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

export interface BrowserRig {
  server: TestServer;
  base: string;
  /** The browser, on a fresh profile (--user-data-dir of its own): one cookie jar for the file. */
  context: BrowserContext;
  /** A new page at the given width. */
  open(width?: number): Promise<Page>;
  screenshot(page: Page, name: string): Promise<void>;
  /** Requests the pages made to any other host (refused): must stay empty. */
  foreign: string[];
  /** Uncaught errors in the pages' scripts: must stay empty. */
  pageErrors: string[];
  close(): Promise<void>;
}

export async function startRig(env: Record<string, string> = {}): Promise<BrowserRig> {
  assertBrowser();
  const server = await startTestServer(env);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const profile = mkdtempSync(join(tmpdir(), 'sightline-chromium-'));
  // Playwright passes the profile directory as --user-data-dir itself (it refuses the flag in args).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    baseURL: base,
    viewport: { width: 1280, height: 900 },
  });
  const foreign: string[] = [];
  const pageErrors: string[] = [];
  // No request may leave the instance (no CDN, no fonts from elsewhere): recorded and refused.
  await context.route((url) => !url.href.startsWith(base), (route) => {
    foreign.push(route.request().url());
    return route.abort();
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    server,
    base,
    context,
    foreign,
    pageErrors,
    async open(width = 1280) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      page.on('pageerror', (err) => pageErrors.push(`${page.url()}: ${err.message}`));
      return page;
    },
    async screenshot(page, name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await server.close();
    },
  };
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; help: string; nodes: string[] }[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as any).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')) }));
  });
  return result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
}

/** Whether the page scrolls sideways at its current width. */
export async function horizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/** Closes the rig once no request left the instance and no page's script failed. */
export async function closeRig(rig: BrowserRig): Promise<void> {
  assert.deepEqual(rig.foreign, [], 'no request left the instance');
  assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
  await rig.close();
}

/** The instance's owner, made in the rig's database with `credits` granted: its account id. */
export async function ownerWithCredits(rig: BrowserRig, who: { email: string; password: string }, credits: number): Promise<string> {
  const accountId = (await createOwner(rig.server.runtime.core.store, who.email, who.password)).account_id;
  await grantCredits(rig.server.runtime.core.store, accountId, credits * 100);
  return accountId;
}

/**
 * The page as it is at 1280 and at 390 px: no sideways scroll, no serious or critical axe-core
 * violation, a full-page screenshot `<name>-desktop` / `<name>-390`; `atPhone` runs at 390 px
 * after it (more screenshots). The page is left at 1280 px.
 */
export async function checkBothWidths(rig: BrowserRig, page: Page, name: string, atPhone?: () => Promise<void>): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await page.waitForTimeout(150);
    const { scrollWidth, innerWidth } = await horizontalOverflow(page);
    assert.ok(scrollWidth <= innerWidth, `${name} at ${width} px scrolls sideways: ${scrollWidth} > ${innerWidth}`);
    assert.deepEqual(await axeViolations(page), [], `${name} at ${width} px`);
    await rig.screenshot(page, `${name}-${width === 390 ? '390' : 'desktop'}`);
    if (width === 390 && atPhone) await atPhone();
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Signs in through the console's form and waits for the first page after it. */
export async function signIn(page: Page, who: { email: string; password: string }, { open = true } = {}): Promise<void> {
  if (open) await page.goto('/console/sign-in');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
}
