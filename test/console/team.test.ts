// Several people in one account, through the real server and database: an admin invites a
// colleague, whose link makes a user in the same account who sees the same projects (no credits
// granted); a member reads the team but cannot invite, change roles, remove or make keys (403);
// the last admin can be neither removed nor demoted (409); a removed person's session is refused
// at once; two admins removing each other at the same instant leave one admin; the routes need
// a session and its CSRF token; the operator invites into an account.
// Team limits: share links and webhook endpoints outlive whoever makes them (as keys do), so a
// signed-in member cannot make one, point one elsewhere or widen what it receives (403
// team_admin_required) while revoking and deleting stay open, and a key an admin made still makes
// them; a suspended account's admin cannot invite, change roles or remove people (403
// account_suspended), an invitation into it waits until it is active again, and the operator still
// invites; a removed person's activity rows still name them. SQLite by default; Postgres when
// DATABASE_URL is set.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { createOwner, createResetToken } from '../../src/core/accounts/users.ts';
import { grantCredits } from '../../src/core/billing/ledger.ts';
import { startSmtpSink } from '../helpers/smtp-sink.ts';

type Headers = Record<string, string>;
const PASSWORD = 'a team member passphrase';

async function formHeaders(s: TestServer): Promise<Headers> {
  const first = await s.request('GET', '/console/api/session');
  return { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token as string };
}

async function signIn(s: TestServer, email: string, password = PASSWORD): Promise<Headers> {
  const res = await s.request('POST', '/console/api/sign-in', { body: { email, password }, headers: await formHeaders(s) });
  assert.equal(res.statusCode, 200, res.body);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const csrf = (await s.request('GET', '/console/api/session', { headers: { cookie } })).json().csrf_token as string;
  return { cookie, 'x-csrf-token': csrf };
}

const tokenOf = (link: string) => new URL(link).hash.replace('#token=', '');

describe('teammates in one account', () => {
  let s: TestServer;
  let owner: Headers;
  let accountId: string;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000', SIGHTLINE_SIGNUP: 'closed' });
    accountId = (await createOwner(s.runtime.core.store, 'owner@agency.example', PASSWORD)).account_id;
    await grantCredits(s.runtime.core.store, accountId, 1000);
    owner = await signIn(s, 'owner@agency.example');
  });
  after(async () => s.close());

  const team = (h: Headers) => s.request('GET', '/console/api/team', { headers: h });
  const invite = (h: Headers, email: string, role = 'member') => s.request('POST', '/console/api/team/invitations', { body: { email, role }, headers: h });
  const accept = async (link: string) => s.request('POST', '/console/api/invitations/accept', { body: { token: tokenOf(link), password: PASSWORD }, headers: await formHeaders(s) });
  const personId = async (email: string) => (await s.runtime.core.store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  /** Invites and accepts: the new person's headers, signed in. */
  async function join(email: string, role: 'admin' | 'member', by = owner): Promise<Headers> {
    const sent = await invite(by, email, role);
    assert.equal(sent.statusCode, 200, sent.body);
    const ok = await accept(sent.json().link);
    assert.equal(ok.statusCode, 200, ok.body);
    return signIn(s, email);
  }

  test('an admin invites; the link makes a user in the same account, who sees the same projects and gets no credits', async () => {
    const project = await s.request('POST', '/v1/projects', { body: { name: 'Shared client', url: 'https://client.example', brand: { name: 'Client' }, platforms: ['deepseek'], monthly_credit_budget: null }, headers: owner });
    assert.equal(project.statusCode, 200, project.body);
    const before = await s.request('GET', '/console/api/balance', { headers: owner });

    const sent = await invite(owner, 'Analyst@Agency.example');
    assert.equal(sent.statusCode, 200, sent.body);
    assert.deepEqual({ ...(sent.json() as object), link: undefined }, { email: 'analyst@agency.example', role: 'member', link: undefined, mailed: false, replaced: false });
    const pending = (await team(owner)).json();
    assert.deepEqual(pending.invitations.map((i: { email: string; role: string; invited_by: string }) => [i.email, i.role, i.invited_by]), [['analyst@agency.example', 'member', 'owner@agency.example']]);

    const described = await s.request('POST', '/console/api/invitations/describe', { body: { token: tokenOf(sent.json().link) }, headers: await formHeaders(s) });
    assert.equal(described.statusCode, 200, described.body);
    assert.deepEqual(described.json().joins, { account_email: 'owner@agency.example', role: 'member', invited_by: 'owner@agency.example' });

    // SIGHTLINE_SIGNUP=closed closes new accounts, not a team's invitation.
    const accepted = await accept(sent.json().link);
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(accepted.json().user.account_role, 'member');
    const analyst = await signIn(s, 'analyst@agency.example');
    const session = (await s.request('GET', '/console/api/session', { headers: analyst })).json();
    assert.equal(session.account.id, accountId, 'the same account');
    assert.equal(session.user.account_role, 'member');
    assert.equal(session.user.role, 'member', 'the instance role is apart');
    const projects = (await s.request('GET', '/v1/projects', { headers: analyst })).json();
    assert.deepEqual(
      projects.projects.map((p: { id: string }) => p.id),
      [project.json().id],
    );
    assert.deepEqual((await s.request('GET', '/console/api/balance', { headers: analyst })).json(), before.json(), 'one balance, nothing granted');

    const people = (await team(analyst)).json();
    assert.deepEqual(people.people.map((p: { email: string; role: string }) => [p.email, p.role]), [['owner@agency.example', 'admin'], ['analyst@agency.example', 'member']]);
    assert.ok(people.people[1].last_active_at, 'signed in: last active');
    assert.deepEqual(people.invitations, []);
    assert.equal((await accept(sent.json().link)).json().detail.error, 'invalid_token', 'a used link');

    // The activity log names who did what.
    const activity = (await s.request('GET', '/v1/activity?kind=actions&limit=50', { headers: owner })).json().items as { action: string; user_email: string | null }[];
    assert.ok(activity.some((a) => a.action === 'console.team.invite' && a.user_email === 'owner@agency.example'), JSON.stringify(activity.slice(0, 5)));
  });

  test('a member reads the team but cannot invite, change a role, remove or make keys (403)', async () => {
    const member = await join('member@agency.example', 'member');
    const ownerId = await personId('owner@agency.example');
    // The refusal says what only an admin does, this request's thing, and whom to ask.
    for (const [res, what] of [
      [await invite(member, 'friend@agency.example'), /invites people, changes their role and removes them/],
      [await s.request('POST', `/console/api/team/people/${ownerId}/role`, { body: { role: 'member' }, headers: member }), /changes their role/],
      [await s.request('POST', `/console/api/team/people/${ownerId}/remove`, { headers: member }), /removes them/],
      [await s.request('POST', '/console/api/keys', { body: { name: 'mine' }, headers: member }), /generates API keys and MCP tokens \(you may revoke them\)/],
    ] as const) {
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(res.json().detail.error, 'team_admin_required');
      assert.match(res.json().detail.message, /^Only an admin of this account /);
      assert.match(res.json().detail.message, what);
      assert.match(res.json().detail.message, /Ask an admin \(the console's Team page lists them\)\.$/);
    }
    const sent = (await invite(owner, 'pending@agency.example')).json();
    const pendingId = (await team(owner)).json().invitations.find((i: { email: string }) => i.email === 'pending@agency.example').id;
    const revoke = await s.request('POST', `/console/api/team/invitations/${pendingId}/revoke`, { headers: member });
    assert.equal(revoke.statusCode, 403);
    assert.equal((await team(member)).statusCode, 200);

    // The admin revokes it: the link stops working.
    const revoked = await s.request('POST', `/console/api/team/invitations/${pendingId}/revoke`, { headers: owner });
    assert.equal(revoked.statusCode, 200, revoked.body);
    assert.equal((await accept(sent.link)).json().detail.error, 'invalid_token');
    assert.equal((await s.request('POST', `/console/api/team/invitations/${pendingId}/revoke`, { headers: owner })).statusCode, 404);
  });

  test('an email that has a user, or is another account’s, is refused; an expired link too', async () => {
    const taken = await invite(owner, 'member@agency.example');
    assert.equal(taken.statusCode, 400);
    assert.match(taken.json().detail.message, /has a user already/);
    await s.account({ email: 'cli-made@other.example' });
    const other = await invite(owner, 'cli-made@other.example');
    assert.equal(other.statusCode, 400);
    assert.match(other.json().detail.message, /email of another account/);

    const sent = (await invite(owner, 'late@agency.example')).json();
    await s.runtime.core.store.db.updateTable('auth_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('email', '=', 'late@agency.example').execute();
    assert.equal((await accept(sent.link)).json().detail.error, 'invalid_token');
  });

  test('the last admin can be neither removed nor demoted (409 last_admin); with a second admin they can', async () => {
    const ownerId = await personId('owner@agency.example');
    const demote = await s.request('POST', `/console/api/team/people/${ownerId}/role`, { body: { role: 'member' }, headers: owner });
    assert.equal(demote.statusCode, 409, demote.body);
    assert.equal(demote.json().detail.error, 'last_admin');
    const self = await s.request('POST', `/console/api/team/people/${ownerId}/remove`, { headers: owner });
    assert.ok([403, 409].includes(self.statusCode), self.body);

    const memberId = await personId('member@agency.example');
    const promoted = await s.request('POST', `/console/api/team/people/${memberId}/role`, { body: { role: 'admin' }, headers: owner });
    assert.deepEqual(promoted.json(), { user_id: memberId, role: 'admin' });
    const member = await signIn(s, 'member@agency.example');
    const back = await s.request('POST', `/console/api/team/people/${memberId}/role`, { body: { role: 'member' }, headers: member });
    assert.equal(back.statusCode, 200, 'an admin may step down while another admin stays');
    const again = await s.request('POST', `/console/api/team/people/${ownerId}/role`, { body: { role: 'member' }, headers: owner });
    assert.equal(again.json().detail.error, 'last_admin');
  });

  test("a removed person's session is refused at once; the account's keys stay", async () => {
    const leaving = await join('leaving@agency.example', 'admin');
    const key = await s.request('POST', '/console/api/keys', { body: { name: 'made by leaving' }, headers: leaving });
    assert.equal(key.statusCode, 200, key.body);
    assert.equal((await s.request('GET', '/v1/usage', { headers: leaving })).statusCode, 200);
    const id = await personId('leaving@agency.example');
    // A schedule set from the console acts as the person who set it.
    const scheduled = await s.request('POST', '/v1/projects', {
      body: { name: 'Scheduled by leaving', url: 'https://sched.example', brand: { name: 'Sched' }, platforms: ['deepseek'], schedule: { cron: '0 6 * * 1', timezone: 'UTC' }, monthly_credit_budget: null },
      headers: leaving,
    });
    assert.equal(scheduled.statusCode, 200, scheduled.body);
    const testIds = (scheduled.json().tests as { test_id: string }[]).map((t) => t.test_id);
    const actors = async () => (await s.runtime.core.store.db.selectFrom('tests').select('key_id').where('id', 'in', testIds).execute()).map((t) => t.key_id);
    assert.deepEqual(await actors(), testIds.map(() => id));
    const ownerId = await personId('owner@agency.example');
    const removed = await s.request('POST', `/console/api/team/people/${id}/remove`, { headers: owner });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(removed.json().sessions_ended, 2, 'accepting signed in, and so did signIn');
    assert.equal((await s.request('GET', '/v1/usage', { headers: leaving })).statusCode, 401);
    assert.equal((await s.request('GET', '/console/api/session', { headers: leaving })).json().signed_in, false);
    assert.equal((await team(leaving)).statusCode, 401);
    const signInAgain = await s.request('POST', '/console/api/sign-in', { body: { email: 'leaving@agency.example', password: PASSWORD }, headers: await formHeaders(s) });
    assert.equal(signInAgain.statusCode, 401);
    const keys = (await s.request('GET', '/console/api/keys', { headers: owner })).json().keys as { name: string; revoked_at: string | null }[];
    assert.equal(keys.find((k) => k.name === 'made by leaving')?.revoked_at, null, 'the key belongs to the account');
    assert.deepEqual(await actors(), testIds.map(() => ownerId), 'the schedule runs on as the admin who removed them');
    // Removed: the activity rows keep the user id and, from the row the removal left, the email.
    const activity = (await s.request('GET', '/v1/activity?kind=actions&limit=100', { headers: owner })).json().items as { user_id: string | null; user_email: string | null }[];
    assert.ok(activity.some((a) => a.user_id === id && a.user_email === 'leaving@agency.example'));
    assert.equal((await s.request('POST', `/console/api/team/people/${id}/remove`, { headers: owner })).statusCode, 404);
  });

  test("a removed person whose email is the account's gets no password link back in; an invitation brings them back", async () => {
    const store = s.runtime.core.store;
    await s.account({ email: 'boss@client.example' });
    const first = await createResetToken(store, 'boss@client.example');
    assert.ok(first, 'the first password of a CLI-made account');
    const reset = await s.request('POST', '/console/api/password/reset', { body: { token: first.token, password: PASSWORD }, headers: await formHeaders(s) });
    assert.equal(reset.json().user.account_role, 'admin');
    const boss = await signIn(s, 'boss@client.example');
    const deputy = await join('deputy@client.example', 'admin', boss);
    const bossId = await personId('boss@client.example');
    assert.equal((await s.request('POST', `/console/api/team/people/${bossId}/remove`, { headers: deputy })).statusCode, 200);
    assert.equal(await createResetToken(store, 'boss@client.example'), null);
    const back = await invite(deputy, 'boss@client.example', 'member');
    assert.equal(back.statusCode, 200, back.body);
    assert.equal((await accept(back.json().link)).statusCode, 200);
    assert.equal((await store.db.selectFrom('users').select('account_role').where('email', '=', 'boss@client.example').executeTakeFirstOrThrow()).account_role, 'member');
  });

  test('the instance owner cannot be removed from their account, even by another admin', async () => {
    const admin = await join('second-admin@agency.example', 'admin');
    const res = await s.request('POST', `/console/api/team/people/${await personId('owner@agency.example')}/remove`, { headers: admin });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().detail.error, 'forbidden');
  });

  test('two admins removing each other at the same instant leave one admin', async () => {
    for (let round = 0; round < 4; round++) {
      const a = await join(`race-a${round}@agency.example`, 'admin');
      const b = await join(`race-b${round}@agency.example`, 'admin');
      // Only these two are admins of their own account: a fresh account per round.
      const idA = await personId(`race-a${round}@agency.example`);
      const idB = await personId(`race-b${round}@agency.example`);
      await s.runtime.core.store.db.updateTable('users').set({ account_role: 'member' }).where('account_id', '=', accountId).where('id', 'not in', [idA, idB]).execute();
      const [ra, rb] = await Promise.all([
        s.request('POST', `/console/api/team/people/${idB}/remove`, { headers: a }),
        s.request('POST', `/console/api/team/people/${idA}/remove`, { headers: b }),
      ]);
      const codes = [ra.statusCode, rb.statusCode].sort();
      assert.equal(codes.filter((c) => c === 200).length, 1, `${ra.body} ${rb.body}`);
      assert.ok([401, 409].includes(codes[1]!), `${ra.body} ${rb.body}`);
      const admins = await s.runtime.core.store.db.selectFrom('users').select('id').where('account_id', '=', accountId).where('account_role', '=', 'admin').execute();
      assert.equal(admins.length, 1);
      // Demoting each other at once: the same.
      const c = await join(`race-c${round}@agency.example`, 'admin', ra.statusCode === 200 ? a : b);
      const survivor = ra.statusCode === 200 ? a : b;
      const idSurvivor = ra.statusCode === 200 ? idA : idB;
      const idC = await personId(`race-c${round}@agency.example`);
      const [da, db] = await Promise.all([
        s.request('POST', `/console/api/team/people/${idC}/role`, { body: { role: 'member' }, headers: survivor }),
        s.request('POST', `/console/api/team/people/${idSurvivor}/role`, { body: { role: 'member' }, headers: c }),
      ]);
      assert.equal([da.statusCode, db.statusCode].filter((x) => x === 200).length, 1, `${da.body} ${db.body}`);
      const left = await s.runtime.core.store.db.selectFrom('users').select('id').where('account_id', '=', accountId).where('account_role', '=', 'admin').execute();
      assert.equal(left.length, 1);
      // Put the owner back as the admin for the next round.
      await s.runtime.core.store.db.updateTable('users').set({ account_role: 'admin' }).where('email', '=', 'owner@agency.example').execute();
    }
  });

  test('every team route needs a session, and each change its CSRF token', async () => {
    const id = await personId('owner@agency.example');
    const changes: [string, Record<string, unknown> | undefined][] = [
      ['/console/api/team/invitations', { email: 'x@agency.example', role: 'member' }],
      ['/console/api/team/invitations/tok_nope/revoke', undefined],
      [`/console/api/team/people/${id}/role`, { role: 'admin' }],
      [`/console/api/team/people/${id}/remove`, undefined],
    ];
    assert.equal((await s.request('GET', '/console/api/team')).statusCode, 401);
    for (const [url, body] of changes) {
      const anonymous = await s.request('POST', url, { body, headers: await formHeaders(s) });
      assert.equal(anonymous.statusCode, 401, `${url}: ${anonymous.body}`);
      const noCsrf = await s.request('POST', url, { body, headers: { cookie: owner.cookie! } });
      assert.equal(noCsrf.statusCode, 403, `${url}: ${noCsrf.body}`);
      assert.equal(noCsrf.json().detail.error, 'csrf_failed');
    }
  });

  test('the operator invites into an existing account with a role; --role without an account is refused', async () => {
    const other = await s.account({ email: 'client@other.example' });
    const res = await s.request('POST', '/console/api/operator/invitations', { body: { email: 'helper@other.example', account_id: other.accountId, role: 'admin' }, headers: owner });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().account_id, other.accountId);
    const ok = await accept(res.json().link);
    assert.equal(ok.statusCode, 200, ok.body);
    const row = await s.runtime.core.store.db.selectFrom('users').select(['account_id', 'account_role']).where('email', '=', 'helper@other.example').executeTakeFirstOrThrow();
    assert.deepEqual(row, { account_id: other.accountId, account_role: 'admin' });
    const bad = await s.request('POST', '/console/api/operator/invitations', { body: { email: 'x@other.example', role: 'admin' }, headers: owner });
    assert.equal(bad.statusCode, 400);
    const credits = await s.request('POST', '/console/api/operator/invitations', { body: { email: 'y@other.example', account_id: other.accountId, credits: 5 }, headers: owner });
    assert.equal(credits.statusCode, 400);
    assert.match(credits.json().detail.message, /grants no credits/);
    const accounts = (await s.request('GET', '/console/api/operator/accounts', { headers: owner })).json().accounts as { id: string; users: { email: string; account_role: string }[] }[];
    assert.deepEqual(accounts.find((a) => a.id === other.accountId)!.users.map((u) => [u.email, u.account_role]), [['helper@other.example', 'admin']]);
  });
});

describe('team limits', () => {
  let s: TestServer;
  let operator: Headers;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000', SIGHTLINE_FETCH_ALLOW: '127.0.0.1', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
    const owner = await createOwner(s.runtime.core.store, 'owner@instance.example', PASSWORD);
    await grantCredits(s.runtime.core.store, owner.account_id, 100);
    operator = await signIn(s, 'owner@instance.example');
  });
  after(async () => s.close());

  const accept = async (link: string) => s.request('POST', '/console/api/invitations/accept', { body: { token: tokenOf(link), password: PASSWORD }, headers: await formHeaders(s) });
  const invite = (h: Headers, email: string, role = 'member') => s.request('POST', '/console/api/team/invitations', { body: { email, role }, headers: h });
  const personId = async (email: string) => (await s.runtime.core.store.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  /** A CLI-made account whose admin set their password (no operator), with its API key. */
  async function accountWithAdmin(email: string): Promise<{ accountId: string; key: string; admin: Headers }> {
    const made = await s.account({ email, credits: 100 });
    const link = await createResetToken(s.runtime.core.store, email);
    const reset = await s.request('POST', '/console/api/password/reset', { body: { token: link!.token, password: PASSWORD }, headers: await formHeaders(s) });
    assert.equal(reset.statusCode, 200, reset.body);
    return { ...made, admin: await signIn(s, email) };
  }

  async function join(by: Headers, email: string, role: 'admin' | 'member' = 'member'): Promise<Headers> {
    const sent = await invite(by, email, role);
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal((await accept(sent.json().link)).statusCode, 200);
    return signIn(s, email);
  }

  function refusedAsMember(res: { statusCode: number; body: string; json(): any }, what: RegExp) {
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().detail.error, 'team_admin_required');
    assert.match(res.json().detail.message, what);
  }

  test("a member's session cannot make a share link or a webhook endpoint; an admin's can; the member revokes and deletes", async () => {
    const { accountId, admin } = await accountWithAdmin('lead@studio.example');
    const member = await join(admin, 'writer@studio.example');
    const project = await s.request('POST', '/v1/projects', { body: { name: 'Client', url: 'https://client.example', brand: { name: 'Client' }, platforms: ['deepseek'], monthly_credit_budget: null }, headers: member });
    assert.equal(project.statusCode, 200, 'a member does everything else: projects too');
    const projectId = project.json().id as string;
    const db = s.runtime.core.store.db;
    const counts = async () => ({
      shares: (await db.selectFrom('project_shares').select('id').where('account_id', '=', accountId).execute()).length,
      webhooks: (await db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', accountId).execute()).length,
    });

    refusedAsMember(await s.request('POST', `/v1/projects/${projectId}/shares`, { body: {}, headers: member }), /^Only an admin of this account makes share links \(you may revoke them\)\./);
    const hook = { url: 'http://127.0.0.1:9/studio', events: ['run.completed'], project_ids: [projectId] };
    const memberHook = await s.request('POST', '/v1/webhooks', { body: hook, headers: member });
    refusedAsMember(memberHook, /^Only an admin of this account adds webhook endpoints and Slack channels\./);
    assert.deepEqual(await counts(), { shares: 0, webhooks: 0 }, 'nothing made');

    const share = await s.request('POST', `/v1/projects/${projectId}/shares`, { body: {}, headers: admin });
    assert.equal(share.statusCode, 200, share.body);
    const made = await s.request('POST', '/v1/webhooks', { body: hook, headers: admin });
    assert.equal(made.statusCode, 200, made.body);
    const id = made.json().id as string;

    // A member cannot send the endpoint elsewhere or widen what it receives...
    for (const body of [{ url: 'http://127.0.0.1:9/elsewhere' }, { events: ['run.completed', 'credits.low'] }, { events: ['*'] }, { project_ids: null }]) {
      refusedAsMember(await s.request('PATCH', `/v1/webhooks/${id}`, { body, headers: member }), /sends an endpoint to another URL, more event types or more projects/);
    }
    assert.equal((await s.request('GET', `/v1/webhooks/${id}`, { headers: admin })).json().url, 'http://127.0.0.1:9/studio', 'unchanged');
    // ...but may describe it, turn it off and on, or send it less.
    for (const body of [{ description: 'the client channel' }, { status: 'disabled' }, { status: 'enabled' }, { url: 'http://127.0.0.1:9/studio', events: ['run.completed'], project_ids: [projectId] }]) {
      const res = await s.request('PATCH', `/v1/webhooks/${id}`, { body, headers: member });
      assert.equal(res.statusCode, 200, `${JSON.stringify(body)}: ${res.body}`);
    }
    const wide = await s.request('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/all', events: ['*'] }, headers: admin });
    const narrowed = await s.request('PATCH', `/v1/webhooks/${wide.json().id}`, { body: { events: ['credits.low'], project_ids: [projectId] }, headers: member });
    assert.equal(narrowed.statusCode, 200, narrowed.body);

    // Revoking and deleting only remove access: open to members.
    const revoked = await s.request('DELETE', `/v1/projects/${projectId}/shares/${share.json().id}`, { headers: member });
    assert.equal(revoked.statusCode, 200, revoked.body);
    const deleted = await s.request('DELETE', `/v1/webhooks/${id}`, { headers: member });
    assert.equal(deleted.statusCode, 200, deleted.body);
  });

  test("a member's session sets their own e-mail alerts only; an admin and a key set anyone's", async () => {
    const { key, admin } = await accountWithAdmin('chief@mail.example');
    const member = await join(admin, 'crew@mail.example');
    const set = (who: { headers?: Headers; key?: string }, email: string, events: string[]) => s.request('PATCH', '/v1/notification-settings', { ...who, body: { email_alerts: [{ email, events }] } });
    const choices = async () => Object.fromEntries(((await s.request('GET', '/v1/notification-settings', { key })).json().email_alerts as { email: string; events: string[] }[]).map((e) => [e.email, e.events]));

    assert.equal((await set({ headers: member }, 'Crew@mail.example', ['credits.low'])).statusCode, 200, 'their own, in any case');
    const other = await set({ headers: member }, 'chief@mail.example', []);
    refusedAsMember(other, /^Only an admin of this account changes another person's e-mail alerts \(you choose your own\)\./);
    const mixed = await s.request('PATCH', '/v1/notification-settings', { headers: member, body: { email_alerts: [{ email: 'crew@mail.example', events: [] }, { email: 'chief@mail.example', events: ['*'] }] } });
    refusedAsMember(mixed, /another person's e-mail alerts/);
    assert.deepEqual(await choices(), { 'chief@mail.example': [], 'crew@mail.example': ['credits.low'] }, 'a refused request changed nothing');

    assert.equal((await set({ headers: admin }, 'crew@mail.example', ['run.completed'])).statusCode, 200);
    assert.equal((await set({ key }, 'chief@mail.example', ['*'])).statusCode, 200);
    assert.deepEqual(await choices(), { 'chief@mail.example': ['*'], 'crew@mail.example': ['run.completed'] });
    // The threshold stays the member's to set (it only decides when credits.low is sent).
    assert.equal((await s.request('PATCH', '/v1/notification-settings', { headers: member, body: { credits_low_threshold: '5.00' } })).statusCode, 200);
  });

  test('a key an admin made still makes share links and webhook endpoints', async () => {
    const { key: firstKey, admin } = await accountWithAdmin('boss@keys.example');
    const made = await s.request('POST', '/console/api/keys', { body: { name: 'automation' }, headers: admin });
    assert.equal(made.statusCode, 200, made.body);
    const project = await s.request('POST', '/v1/projects', { key: firstKey, body: { name: 'Keyed', url: 'https://keyed.example', brand: { name: 'Keyed' }, platforms: ['deepseek'], monthly_credit_budget: null } });
    for (const key of [firstKey, made.json().api_key as string]) {
      const share = await s.request('POST', `/v1/projects/${project.json().id}/shares`, { key, body: {} });
      assert.equal(share.statusCode, 200, share.body);
      const hook = await s.request('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/keyed', events: ['*'] } });
      assert.equal(hook.statusCode, 200, hook.body);
      const moved = await s.request('PATCH', `/v1/webhooks/${hook.json().id}`, { key, body: { url: 'http://127.0.0.1:9/moved' } });
      assert.equal(moved.statusCode, 200, moved.body);
    }
  });

  test("a suspended account's admin cannot invite, change a role or remove anyone; its invitations wait; the operator still invites", async () => {
    const { accountId, admin } = await accountWithAdmin('head@paused.example');
    await join(admin, 'staff@paused.example');
    const pending = await invite(admin, 'later@paused.example');
    assert.equal(pending.statusCode, 200);
    const staffId = await personId('staff@paused.example');
    const suspend = await s.request('POST', `/console/api/operator/accounts/${accountId}/suspend`, { headers: operator });
    assert.equal(suspend.statusCode, 200, suspend.body);

    for (const res of [
      await invite(admin, 'new@paused.example'),
      await s.request('POST', `/console/api/team/people/${staffId}/role`, { body: { role: 'admin' }, headers: admin }),
      await s.request('POST', `/console/api/team/people/${staffId}/remove`, { headers: admin }),
      await accept(pending.json().link),
    ]) {
      assert.equal(res.statusCode, 403, res.body);
      assert.equal(res.json().detail.error, 'account_suspended');
    }
    const people = await s.runtime.core.store.db.selectFrom('users').select(['email', 'account_role']).where('account_id', '=', accountId).orderBy('email').execute();
    assert.deepEqual(people, [{ email: 'head@paused.example', account_role: 'admin' }, { email: 'staff@paused.example', account_role: 'member' }], 'nobody came, left or changed');
    assert.equal((await s.request('GET', '/console/api/team', { headers: admin })).statusCode, 200, 'the team is still readable');

    const byOperator = await s.request('POST', '/console/api/operator/invitations', { body: { email: 'helper@paused.example', account_id: accountId, role: 'member' }, headers: operator });
    assert.equal(byOperator.statusCode, 200, byOperator.body);

    // Active again: the pending link works (it was not used up by the refusal).
    assert.equal((await s.request('POST', `/console/api/operator/accounts/${accountId}/unsuspend`, { headers: operator })).statusCode, 200);
    const accepted = await accept(pending.json().link);
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal((await s.request('POST', `/console/api/team/people/${staffId}/remove`, { headers: admin })).statusCode, 200);
  });

  test("a removed person's activity rows still name them by email", async () => {
    const { admin } = await accountWithAdmin('chief@gone.example');
    const leaving = await join(admin, 'leaver@gone.example');
    const project = await s.request('POST', '/v1/projects', { body: { name: 'Left behind', url: 'https://left.example', brand: { name: 'Left' }, platforms: ['deepseek'], monthly_credit_budget: null }, headers: leaving });
    assert.equal(project.statusCode, 200, project.body);
    const id = await personId('leaver@gone.example');
    assert.equal((await s.request('POST', `/console/api/team/people/${id}/remove`, { headers: admin })).statusCode, 200);
    const items = (await s.request('GET', '/v1/activity?kind=actions&limit=100', { headers: admin })).json().items as { action: string; user_id: string | null; user_email: string | null }[];
    const theirs = items.filter((i) => i.user_id === id);
    assert.ok(theirs.some((i) => i.action === 'projects.create'), JSON.stringify(items.slice(0, 5)));
    assert.deepEqual([...new Set(theirs.map((i) => i.user_email))], ['leaver@gone.example']);
  });
});

describe('team invitations by mail', () => {
  test('with SIGHTLINE_SMTP_URL the invitation is mailed, naming who invites and the role; the link is in the answer too', async () => {
    const sink = await startSmtpSink();
    const s = await startTestServer({ SIGHTLINE_SMTP_URL: `smtp://127.0.0.1:${sink.port}?ignoreTLS=true`, SIGHTLINE_PUBLIC_URL: 'https://sightline.agency.example', SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000' });
    try {
      await createOwner(s.runtime.core.store, 'lead@agency.example', PASSWORD);
      const lead = await signIn(s, 'lead@agency.example');
      const sent = await s.request('POST', '/console/api/team/invitations', { body: { email: 'writer@agency.example', role: 'admin' }, headers: lead });
      assert.equal(sent.statusCode, 200, sent.body);
      assert.equal(sent.json().mailed, true);
      await sink.waitFor(1);
      const mail = sink.mails[0]!;
      assert.match(mail.to.join(), /writer@agency\.example/);
      const text = mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      assert.match(text, /lead@agency\.example invited you to join their account on sightline as an admin/);
      assert.ok(text.includes(sent.json().link), 'the same link');
    } finally {
      await s.close();
      await sink.close();
    }
  });
});
