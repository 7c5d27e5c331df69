// The HTML e-mails (an alert and the weekly digest) rendered in Chromium at a desktop mail
// pane's width and a phone's: screenshots for a reviewer, no sideways scroll, no serious or
// critical accessibility violation, escaped names.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { alertMail } from '../../../src/core/webhooks/alert-mail.ts';
import { digestMail, type Digest } from '../../../src/core/webhooks/digest.ts';
import { axeViolations, browserSkip, CHROMIUM, CHROMIUM_FLAGS, horizontalOverflow, SCREENSHOTS } from './browser.ts';

const digest: Digest = {
  week: '2026-11-16',
  from: '2026-11-16T00:00:00Z',
  to: '2026-11-23T00:00:00Z',
  projects: [
    {
      id: 'proj_01example',
      name: 'Acme <CRM> EU',
      brand: 'Acme CRM',
      rate: { mention_rate: 0.42, mention_rate_ci: { low: 0.36, high: 0.48 }, n: 216, thin: false },
      previous: { mention_rate: 0.3, mention_rate_ci: { low: 0.25, high: 0.36 }, n: 216, thin: false },
      change: { change: 0.12, significant: true, p_value: 0.01 },
      competitors_moved: [{ name: 'HubSpot', from: 0.61, to: 0.5, change: -0.11 }],
      prompts_won: [
        { prompt: 'best crm for small agencies with a long name that wraps on a phone screen', mention_rate: 0.83, n: 18 },
        { prompt: 'crm with email sync', mention_rate: 0.67, n: 18 },
      ],
      prompts_lost: [{ prompt: 'cheapest crm', change: -0.22, mention_rate: 0.11, n: 18 }],
      competitors_only: [{ prompt: 'salesforce alternatives', competitors: ['HubSpot', 'Pipedrive'] }],
    },
  ],
  sites: [
    {
      domain: 'acme-crm.example',
      crawler_hits: 1840,
      blocked_hits: 52,
      top_crawlers: [{ name: 'GPTBot', hits: 610, blocked_hits: 52 }, { name: 'ClaudeBot', hits: 420, blocked_hits: 0 }],
      referral_visits: 311,
      referrals: [{ source: 'chatgpt', visits: 240 }, { source: 'perplexity', visits: 71 }],
    },
  ],
};

describe('HTML e-mail in Chromium', { skip: browserSkip() }, () => {
  let context: BrowserContext;
  let profile: string;
  before(async () => {
    profile = mkdtempSync(join(tmpdir(), 'sightline-mail-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    // The mail is loaded as a string: any request it makes would leave the machine, so none may.
    await context.route('**/*', (route) => route.abort());
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  const mails = {
    digest: digestMail(digest, 'https://sightline.example.com'),
    alert: alertMail(
      'tracked_test.changed',
      {
        test_id: 'test_01example',
        name: 'Acme weekly',
        direction: 'up',
        change: 0.12,
        previous: { mention_rate: 0.3 },
        latest: { mention_rate: 0.42 },
        interval: { low: 0.36, high: 0.48 },
        competitors_moved: [{ name: 'HubSpot', change: -0.11 }],
      },
      '2026-11-23T08:00:00.000Z',
      'https://sightline.example.com',
    ),
  };

  for (const [name, mail] of Object.entries(mails)) {
    for (const width of [640, 390]) {
      test(`${name} mail at ${width} px`, async () => {
        const page = await context.newPage();
        await page.setViewportSize({ width, height: 900 });
        await page.setContent(mail.html, { waitUntil: 'load' });
        await page.screenshot({ path: join(SCREENSHOTS, `mail-${name}-${width}.png`), fullPage: true });
        const { scrollWidth, innerWidth } = await horizontalOverflow(page);
        assert.ok(scrollWidth <= innerWidth, `no sideways scroll at ${width} px (${scrollWidth} > ${innerWidth})`);
        assert.deepEqual(await axeViolations(page), []);
        if (name === 'digest') {
          assert.equal(await page.locator('h2').first().textContent(), 'Acme <CRM> EU');
          assert.match((await page.textContent('body')) ?? '', /\+12 pts on the week before \(30%\), beyond the noise/);
        }
        await page.close();
      });
    }
  }
});
