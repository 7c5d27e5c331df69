// The console for someone on a keyboard or a screen reader, in a real Chromium against a real
// server and worker: on every main page one h1 and a title of its own, lang="en", every control
// with an accessible name (Chromium's own accessibility tree), every field hint tied to its field,
// each tab stop with a visible focus ring, and charts with a text alternative; the skip link; a
// refused sign-in marking its fields invalid and pointing them at the error; the new-run form's
// partial-run confirmation taking the focus, closing on Escape and giving the focus back; a new
// API key taking the focus and giving it back; the run page's progress in a live region.
// No axe-core here: these are the checks that matter, written out (axe runs in the other files).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { grantCredits } from '../../../src/core/billing/ledger.ts';
import { startRig, type BrowserRig, browserSkip, signIn, SCREENSHOTS } from './browser.ts';

const OWNER = { email: 'a11y@acme.example', password: 'acme a11y passphrase' };
const NAMED_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'spinbutton', 'slider', 'switch', 'button', 'link']);

/** Controls Chromium computes no accessible name for (its accessibility tree, not a guess). */
async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: any[] };
    return nodes
      .filter((n) => !n.ignored && NAMED_ROLES.has(n.role?.value) && !String(n.name?.value ?? '').trim())
      .map((n) => `${n.role.value} (backend node ${n.backendDOMNodeId})`);
  } finally {
    await cdp.detach();
  }
}

/** What the page is made of, for the structural checks. */
function structure(page: Page) {
  // (No named functions inside: the test runner's transform would wrap them in a helper the page lacks.)
  return page.evaluate(() => {
    const described = new Set([...document.querySelectorAll('[aria-describedby]')].flatMap((el) => el.getAttribute('aria-describedby')!.split(/\s+/)));
    return {
      title: document.title,
      lang: document.documentElement.lang,
      h1: [...document.querySelectorAll('h1')].filter((el) => el.getClientRects().length > 0).length,
      // A field's hint (.field .hint[id]) read with its control.
      loneHints: [...document.querySelectorAll('.field .hint[id]')].filter((el) => !described.has(el.id)).map((el) => el.id),
      // aria-describedby naming an element that is not there.
      danglingRefs: [...described].filter((id) => !document.getElementById(id)),
      // Drawings (canvas, svg) with neither a text alternative nor aria-hidden.
      mute: [...document.querySelectorAll('main canvas, main svg')]
        .filter((el) => !el.closest('[aria-hidden="true"]') && !el.closest('[role="img"][aria-label]'))
        .map((el) => el.outerHTML.slice(0, 80)),
    };
  });
}

/** The first `n` tab stops from the top: what each is and whether its focus ring shows. */
async function tabStops(page: Page, n: number) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.locator('body').focus();
  const stops: { what: string; ring: boolean }[] = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2) || (s.boxShadow !== 'none' && s.boxShadow !== '');
      return { what: `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') || el.textContent || el.id || '').trim().slice(0, 40)}`, ring };
    });
    if (!stop) break;
    stops.push(stop);
  }
  return stops;
}

describe('accessibility of the console', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let accountId: string;
  let key: string;
  const pages: Record<string, string> = {};

  before(async () => {
    rig = await startRig();
    accountId = (await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password)).account_id;
    await grantCredits(rig.server.runtime.core.store, accountId, 200 * 100);
    key = await rig.server.key(accountId);
    const api = async (method: string, path: string, body: unknown) => {
      const res = await rig.server.request(method, path, { key, body });
      assert.ok(res.statusCode < 300, `${path}: ${res.body}`);
      return res.json();
    };
    const run = await api('POST', '/v1/visibility/runs', { url: 'https://acme.example/', target_entity: 'Acme', competitors: ['Rival'], prompts: ['best anvils [[sandbox:mention]]'], platforms: ['openai'] });
    await rig.server.waitForRun(key, run.run_id, 60_000);
    const made = await api('POST', '/v1/tests', { test_type: 'ai_citations', name: 'Acme anvils', definition: { url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils [[sandbox:mention]]'], platforms: ['openai'] }, schedule: null });
    const testRun = await api('POST', `/v1/tests/${made.id}/runs`, {});
    await rig.server.waitForRun(key, testRun.run_id, 60_000);
    const site = await api('POST', '/v1/sites', { domain: 'acme.example' });
    const project = await api('POST', '/v1/projects', {
      name: 'Acme', url: 'https://acme.example/', brand: { name: 'Acme', domains: ['acme.example'] }, competitors: [{ name: 'Rival' }],
      markets: [{ language: 'en', country: 'US' }], platforms: ['openai'], prompts: [{ prompt: 'best anvils [[sandbox:mention]]' }],
    });
    const projectRun = await api('POST', `/v1/projects/${project.id}/runs`, {});
    await rig.server.waitForRun(key, projectRun.runs[0].run_id, 60_000);
    Object.assign(pages, {
      runs: '/console/runs', 'new run': '/console/runs/new', run: `/console/runs/${run.run_id}`,
      content: '/console/content', 'new content run': '/console/content/new',
      tests: '/console/tests', test: `/console/tests/${made.id}`, 'test form': `/console/tests/${made.id}/edit`,
      projects: '/console/projects', project: `/console/projects/${project.id}`, 'project settings': `/console/projects/${project.id}/edit`,
      'new project': '/console/projects/new', 'not found': '/console/no-such-page',
      sites: '/console/sites', site: `/console/sites/${site.id}`, keys: '/console/keys', team: '/console/team', account: '/console/account', operator: '/console/operator',
    });
    page = await rig.open();
  });
  after(async () => {
    assert.deepEqual(rig.foreign, [], 'no request left the instance');
    assert.deepEqual(rig.pageErrors, [], 'no script error in any page');
    await rig.close();
  });

  test('set-up and sign-in: named fields, one h1, a title each; a refused sign-in marks both fields and points them at the error', async () => {
    const seen = new Set<string>();
    for (const path of ['/console/sign-in', '/console/forgot']) {
      await page.goto(path);
      await page.locator('h1').waitFor();
      const s = await structure(page);
      assert.equal(s.lang, 'en');
      assert.equal(s.h1, 1, path);
      assert.ok(!seen.has(s.title), `${path}: title “${s.title}” repeated`);
      seen.add(s.title);
      assert.deepEqual(await unnamedControls(page), [], path);
    }
    try {
      await page.goto('/console/sign-in');
      await page.getByLabel('Email').fill(OWNER.email);
      await page.getByLabel('Password', { exact: true }).fill('not the passphrase');
      // From the keyboard: the button, disabled while it waits, drops the focus and gets it back.
      const button = page.getByRole('button', { name: 'Sign in' });
      await button.focus();
      await page.keyboard.press('Enter');
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.equal(await alert.getAttribute('id'), 'form-error');
      await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 2000 }).catch(() => undefined);
      assert.equal(await button.evaluate((el) => el === document.activeElement), true, 'the focus is back on the button, not on <body>');
      for (const field of [page.getByLabel('Email'), page.getByLabel('Password', { exact: true })]) {
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
        assert.match((await field.getAttribute('aria-describedby')) ?? '', /\bform-error\b/);
      }
      await rig.screenshot(page, 'a11y-sign-in-refused');
    } finally {
      // The other tests need the session whatever happened here.
      await signIn(page, OWNER);
    }
  });

  test('the skip link is the first tab stop, shows when focused and leads into the main content', async () => {
    await page.goto('/console/runs');
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.equal(await skip.evaluate((el) => el === document.activeElement), true);
    const box = (await skip.boundingBox())!;
    assert.ok(box.x >= 0 && box.y >= 0 && box.width > 20, `the skip link is on screen when focused: ${JSON.stringify(box)}`);
    await page.screenshot({ path: `${SCREENSHOTS}a11y-focus-skip-link.png`, clip: { x: 0, y: 0, width: 640, height: 120 } });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement?.closest('main')), true, 'the next tab stop is inside <main>');
  });

  test('every main page: one h1, its own title, named controls, hints tied to fields, drawings with text, a visible focus ring on each tab stop', async () => {
    const titles = new Map<string, string>();
    for (const [name, path] of Object.entries(pages)) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
        await page.goto(path);
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle');
        const s = await structure(page);
        assert.equal(s.lang, 'en', name);
        assert.equal(s.h1, 1, `${name}: one h1`);
        assert.deepEqual(s.loneHints, [], `${name}: hints no field points at`);
        assert.deepEqual(s.danglingRefs, [], `${name}: aria-describedby naming nothing`);
        assert.deepEqual(s.mute, [], `${name}: drawings without a text alternative`);
        assert.deepEqual(await unnamedControls(page), [], `${name} at ${width} px: controls without a name`);
        if (width === 1280) {
          assert.ok(![...titles.values()].includes(s.title), `${name}: title “${s.title}” is also ${[...titles].find(([, t]) => t === s.title)?.[0]}'s`);
          titles.set(name, s.title);
          const stops = await tabStops(page, 40);
          assert.ok(stops.length >= 5, `${name}: ${stops.length} tab stops`);
          const bare = stops.filter((t) => !t.ring);
          assert.deepEqual(bare, [], `${name}: tab stops without a visible focus ring`);
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('focus rings as a keyboard user sees them (screenshots)', async () => {
    await page.goto('/console/runs/new');
    await page.locator('main h1').waitFor();
    await page.getByRole('link', { name: 'Visibility' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.screenshot({ path: `${SCREENSHOTS}a11y-focus-nav.png`, clip: { x: 0, y: 0, width: 1280, height: 90 } });
    await page.getByLabel('Your page URL').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await page.locator('main').screenshot({ path: `${SCREENSHOTS}a11y-focus-field.png` });
    const first = page.getByRole('checkbox').first();
    await first.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.equal(await first.evaluate((el) => el.matches(':focus-visible')), true);
    await page.getByRole('region', { name: 'Platforms and models' }).screenshot({ path: `${SCREENSHOTS}a11y-focus-checkbox.png` });

    // On a phone the sections are a row that scrolls sideways and clips what overflows it: each
    // link reached with Tab, its focus ring included, is whole inside the row.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/console/keys');
    await page.locator('main h1').waitFor();
    await page.locator('body').focus();
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab'); // the brand
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').count();
    for (let i = 0; i < links; i++) {
      await page.keyboard.press('Tab');
      await page.waitForTimeout(50);
      const fit = await page.evaluate(() => {
        const a = document.activeElement as HTMLElement;
        const nav = a.closest('nav')!.getBoundingClientRect();
        const r = a.getBoundingClientRect();
        const s = getComputedStyle(a);
        const ring = Math.max(0, parseFloat(s.outlineWidth) + parseFloat(s.outlineOffset));
        return { link: a.textContent, inside: r.left - ring >= nav.left - 0.5 && r.right + ring <= nav.right + 0.5 && r.top - ring >= nav.top - 0.5 && r.bottom + ring <= nav.bottom + 0.5 };
      });
      assert.ok(fit.inside, `${fit.link}: its focus ring is clipped by the scrolling row`);
      if (i === links - 2) await page.screenshot({ path: `${SCREENSHOTS}a11y-focus-nav-390.png`, clip: { x: 0, y: 0, width: 390, height: 120 } });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('the partial-run confirmation takes the focus, closes on Escape and gives the focus back to its button', async () => {
    // 30 prompts × 2 platforms × 3 repeats at 2.00 each pass the ~196 credits left: partly funded.
    await page.goto('/console/runs/new');
    await page.getByLabel('Your page URL').fill('https://acme.example/');
    await page.getByLabel('Brand', { exact: true }).fill('Acme');
    await page.getByLabel('One prompt per line').fill(Array.from({ length: 30 }, (_, i) => `anvil question ${i + 1}`).join('\n'));
    await page.getByLabel('Ask each prompt').selectOption('3');
    await page.getByText('does not cover the whole run').waitFor();
    const submit = page.getByRole('button', { name: /^Queue \d+ probes/ });
    await submit.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Queue a partial run?' });
    await dialog.waitFor();
    assert.equal(await dialog.evaluate((el) => el.contains(document.activeElement)), true, 'the focus is in the confirmation');
    await dialog.screenshot({ path: `${SCREENSHOTS}a11y-focus-confirm.png` });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The focus comes back once the dialog's close has rendered: wait for it, not a fixed moment.
    const focusedBack = async () => {
      for (let waited = 0; waited < 5_000; waited += 50) {
        if (await submit.evaluate((el) => el === document.activeElement)) return true;
        await new Promise((r) => setTimeout(r, 50));
      }
      return false;
    };
    assert.equal(await focusedBack(), true, 'the focus is back on the button');
    // "Go back" gives it back too.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Go back' }).click();
    assert.equal(await focusedBack(), true, '"Go back" gives the focus back to the button');
  });

  test('a new API key takes the focus, and "I have copied it" gives it back to the form', async () => {
    await page.goto('/console/keys');
    await page.getByLabel('Name').fill('Keyboard script');
    await page.getByLabel('Name').press('Enter');
    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    assert.equal(await secret.evaluate((el) => el === document.activeElement), true, 'the secret has the focus');
    await page.getByRole('button', { name: 'I have copied it' }).press('Enter');
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.getByLabel('Name').evaluate((el) => el === document.activeElement), true, 'back on the Name field');
  });

  test('a run page says its progress in a live region; a test page has its charts as tables', async () => {
    await page.goto(pages.run!);
    const progress = page.getByTestId('run-progress');
    await progress.waitFor();
    assert.equal(await progress.getAttribute('aria-live'), 'polite');
    await page.goto(pages.test!);
    const chart = page.getByTestId('rate-chart');
    await chart.locator('canvas').waitFor({ timeout: 20_000 });
    assert.equal(await chart.getAttribute('role'), 'img');
    assert.match((await chart.getAttribute('aria-label')) ?? '', /Mention rate over time: .+/);
    await page.getByRole('table', { name: 'Mention rate over time', includeHidden: true }).waitFor({ state: 'attached' });
  });
});
