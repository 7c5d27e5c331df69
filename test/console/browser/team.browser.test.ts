// The Team page in a real Chromium against a real server: the owner invites a colleague and sees
// the invitation pending; the link's page says which account and who invites; the colleague
// joins and sees the team read-only (and no key form, no share-link form, no form to add an alert
// destination, each saying why; they still revoke links and pause destinations; they set their own
// e-mail alerts, not the owner's); a role changed
// while their console is open shows at their next click, and so does their session ending; the
// owner removes them, and the activity log names what the admin made; a suspended account's admin
// sees why its team cannot change, and pages that cannot load say why. Screenshots at
// 1280 and 390 px (test-artifacts/screenshots/team-*), axe-core on each.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { setAccountStatus } from '../../../src/core/accounts/accounts.ts';
import { setTeamRole } from '../../../src/core/accounts/team.ts';
import { browserSkip, checkBothWidths, closeRig, ownerWithCredits, signIn, startRig, type BrowserRig } from './browser.ts';

const OWNER = { email: 'owner@team.example', password: 'owner team passphrase' };
const COLLEAGUE = { email: 'colleague@team.example', password: 'colleague team passphrase' };

describe('the Team page', { skip: browserSkip() }, () => {
  let rig: BrowserRig;
  let page: Page;
  let link = '';
  let projectId = '';
  before(async () => {
    rig = await startRig({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '100', SIGHTLINE_FETCH_ALLOW: '127.0.0.1' });
    const accountId = await ownerWithCredits(rig, OWNER, 50);
    // What an admin made: a project with a share link, and an alert destination.
    const key = await rig.server.key(accountId);
    const project = await rig.server.request('POST', '/v1/projects', { key, body: { name: 'Team client', url: 'https://team-client.example', brand: { name: 'Team client' }, platforms: ['deepseek'], monthly_credit_budget: null } });
    projectId = project.json().id;
    assert.equal((await rig.server.request('POST', `/v1/projects/${projectId}/shares`, { key, body: {} })).statusCode, 200);
    assert.equal((await rig.server.request('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/team', events: ['*'] } })).statusCode, 200);
    page = await rig.open();
    page.on('dialog', (d) => void d.accept());
  });
  after(async () => closeRig(rig));

  test('the owner invites a colleague and sees the invitation pending', async () => {
    await signIn(page, OWNER);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    await page.getByLabel('Email').fill(COLLEAGUE.email);
    await page.getByLabel('Role', { exact: true }).selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    link = await page.getByTestId('team-link').inputValue();
    assert.match(link, /\/console\/invite#token=[\w-]{40,}$/);
    const pending = page.locator('section', { has: page.getByRole('heading', { name: 'Pending invitations' }) });
    await pending.getByText(COLLEAGUE.email).waitFor();
    assert.match(await pending.innerText(), /Member[\s\S]*owner@team\.example/);
    await checkBothWidths(rig, page, 'team-admin');
  });

  test('the link says which account and who invites; the colleague joins and sees the team read-only', async () => {
    await page.goto(`/console/invite#token=${new URL(link).hash.replace('#token=', '')}`);
    await page.getByRole('heading', { name: 'Join your team on sightline' }).waitFor();
    assert.match(await page.locator('main').innerText(), /owner@team\.example invites you to join the account of owner@team\.example as a member/);
    await checkBothWidths(rig, page, 'team-invite');
    await page.getByLabel('Choose a password').fill(COLLEAGUE.password);
    await page.getByRole('button', { name: 'Join the account' }).click();
    await page.getByRole('heading', { name: 'AI Visibility' }).waitFor();
    assert.match(await page.locator('.who').innerText(), /colleague@team\.example/);

    await page.getByRole('link', { name: 'Team' }).click();
    const people = page.locator('section', { has: page.getByRole('heading', { name: 'People' }) });
    await people.getByText(OWNER.email).waitFor();
    assert.match(await people.innerText(), /colleague@team\.example\s*\(you\)/);
    assert.equal(await page.getByRole('button', { name: 'Invite' }).count(), 0, 'no invitation form for a member');
    assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 0, 'no remove button for a member');
    await checkBothWidths(rig, page, 'team-member');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Only an admin of this account generates keys').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Generate' }).count(), 0);

    // Share links and alert destinations outlive whoever makes them: admins only, said on the page.
    await page.goto(`/console/projects/${projectId}`);
    const share = page.getByTestId('share');
    await share.getByText('Only an admin of this account makes share links').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Make a share link' }).count(), 0);
    // The links' list loads after the card's sentence: wait for it before counting.
    await share.getByRole('button', { name: /^Revoke/ }).first().waitFor();
    assert.equal(await share.getByRole('button', { name: /^Revoke/ }).count(), 1, 'a member still revokes');
    await checkBothWidths(rig, page, 'team-member-share', async () => share.scrollIntoViewIfNeeded());
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByTestId('admins-add').getByText('Only an admin of this account adds destinations').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add endpoint' }).count(), 0);
    await page.getByTestId('endpoint').getByRole('button', { name: 'Disable' }).waitFor();
    // Their own e-mail choice is a form; the owner's is listed, theirs to change (403 otherwise).
    await page.getByRole('button', { name: `Save for ${COLLEAGUE.email}` }).waitFor();
    assert.equal(await page.getByRole('button', { name: `Save for ${OWNER.email}` }).count(), 0);
    assert.match(await page.getByRole('heading', { name: "Your colleagues' choices" }).locator('..').innerText(), /owner@team\.example\s*· no e-mail/);
    await checkBothWidths(rig, page, 'team-member-alerts');
  });

  test("a role changed while the colleague's console is open shows at their next click; so does their session ending", async () => {
    const store = rig.server.runtime.core.store;
    const owner = await store.db.selectFrom('users').select(['id', 'account_id']).where('email', '=', OWNER.email).executeTakeFirstOrThrow();
    const colleague = await store.db.selectFrom('users').select('id').where('email', '=', COLLEAGUE.email).executeTakeFirstOrThrow();
    const actor = { userId: owner.id, accountId: owner.account_id, accountRole: 'admin' as const };
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Only an admin of this account generates keys').waitFor();
    // The page was loaded as a member; the owner makes them admin meanwhile: no reload needed.
    await setTeamRole(store, actor, colleague.id, 'admin');
    await nav.getByRole('link', { name: 'Projects' }).click();
    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Generate' }).waitFor();
    // And back: no Generate button left to press that would then be refused.
    await setTeamRole(store, actor, colleague.id, 'member');
    await nav.getByRole('link', { name: 'Projects' }).click();
    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByText('Only an admin of this account generates keys').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Generate' }).count(), 0);

    // Their sessions end under the open page (as a removal ends them): the sign-in page says why.
    await store.db.deleteFrom('sessions').where('user_id', '=', colleague.id).execute();
    await nav.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Your session ended').waitFor();
    assert.match(await page.locator('main').innerText(), /an admin removed you from the account/);
    await checkBothWidths(rig, page, 'team-session-ended');
  });

  test('the owner removes the colleague: gone from the list', async () => {
    await signIn(page, OWNER, { open: false });
    await page.goto('/console/team');
    const people = page.locator('section', { has: page.getByRole('heading', { name: 'People' }) });
    await people.getByText(COLLEAGUE.email).waitFor();
    await page.getByRole('button', { name: `Remove ${COLLEAGUE.email}` }).click();
    await page.getByText(`${COLLEAGUE.email} was removed from the account.`).waitFor();
    assert.doesNotMatch(await people.locator('table').innerText(), /colleague@team\.example/);
    await checkBothWidths(rig, page, 'team-removed');
    // The activity log names each action in words, the share link the admin made among them.
    await page.goto('/console/account');
    const activity = page.locator('table', { hasText: 'Person removed (console)' });
    await activity.waitFor();
    assert.match(await activity.innerText(), /Share link made/);
    assert.doesNotMatch(await activity.innerText(), /Projects shares|Console [a-z]/);
  });

  test("a suspended account's admin sees why the team cannot change, and no form", async () => {
    const store = rig.server.runtime.core.store;
    const { id } = await store.db.selectFrom('accounts').select('id').where('email', '=', OWNER.email).executeTakeFirstOrThrow();
    await setAccountStatus(store.db, id, 'suspended');
    try {
      await page.goto('/console/team');
      await page.getByText('While this account is suspended nobody can be invited').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Invite' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 0);
      await checkBothWidths(rig, page, 'team-suspended');
      // The pages built on the /v1 API (every call refused) say why instead of loading forever
      // beside forms that fail; keys, team and account stay open.
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Projects' }).click();
      await page.getByRole('heading', { name: 'This account is suspended' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'New project' }).count(), 0);
      await checkBothWidths(rig, page, 'team-suspended-projects');
      await nav.getByRole('link', { name: 'API keys' }).click();
      await page.getByText('While this account is suspended no key or token can be generated').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Generate' }).count(), 0);
      await nav.getByRole('link', { name: 'Account' }).click();
      await page.getByText('The account is suspended.').waitFor();
      assert.doesNotMatch(await page.locator('main').innerText(), /Loading/);
    } finally {
      await setAccountStatus(store.db, id, 'active');
    }
  });
});
