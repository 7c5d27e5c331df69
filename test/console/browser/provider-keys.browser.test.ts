// The operator page's "Provider keys" card, in a real Chromium against a real server in live mode
// with fake providers on loopback: after the key check (src/server/key-check.ts, run here as serve
// runs it), a refused key shows as refused with the variable to fix and never the key itself, an
// accepted one as accepted, Perplexity as not checkable; at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { Page } from 'playwright-core';
import { createOwner } from '../../../src/core/accounts/users.ts';
import { checkKeysOnce } from '../../../src/server/key-check.ts';
import { startFakeProvider, type FakeProvider } from '../../fakes/providers/index.ts';
import { browserSkip, checkBothWidths, closeRig, signIn, startRig, type BrowserRig } from './browser.ts';

const OWNER = { email: 'owner@keys.example', password: 'owner keys passphrase' };
const WRONG_KEY = 'sk-wrong-openai-key-console-0123456789';

describe('the provider keys on the operator page', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let openai: FakeProvider;
  let deepseek: FakeProvider;

  before(async () => {
    openai = await startFakeProvider('openai');
    deepseek = await startFakeProvider('deepseek');
    rig = await startRig({ SIGHTLINE_PLATFORM_ENGINE: 'live', ...openai.env, OPENAI_API_KEY: WRONG_KEY, ...deepseek.env, PERPLEXITY_API_KEY: 'pplx-console-key' });
    await createOwner(rig.server.runtime.core.store, OWNER.email, OWNER.password);
    await checkKeysOnce(rig.server.runtime.core.config, pino({ level: 'silent' }));
    page = await rig.open();
  });
  after(async () => {
    await closeRig(rig);
    await Promise.all([openai.close(), deepseek.close()]);
  });

  test('refused, accepted and not checkable, each with what to do', async () => {
    await signIn(page, OWNER);
    await page.goto('/console/operator');
    const card = page.getByRole('region', { name: 'Provider keys' });
    await card.getByRole('row', { name: /openai/ }).waitFor();
    const row = async (provider: string) => (await card.getByRole('row', { name: new RegExp(provider) }).innerText()).replace(/\s+/g, ' ');
    assert.match(await row('openai'), /refused Fix OPENAI_API_KEY Incorrect API key provided: \[REDACTED\]/);
    assert.match(await row('deepseek'), /accepted Nothing\./);
    assert.match(await row('perplexity'), /not checkable No free call/);
    assert.ok(!(await page.content()).includes(WRONG_KEY), 'the key is shown nowhere');
    await checkBothWidths(rig, page, 'operator-provider-keys');
  });
});
