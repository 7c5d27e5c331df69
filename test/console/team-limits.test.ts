// What an account's people may do beyond the Team page, through the real server and database:
// share links and webhook endpoints outlive whoever makes them (as keys do), so a signed-in member
// cannot make one, point one elsewhere or widen what it receives (403 team_admin_required), while
// revoking and deleting stay open, and a key an admin made still makes them; a suspended
// account's admin cannot invite, change roles or remove people (403 account_suspended), an
// invitation into it cannot be accepted until it is active again, and the operator still invites;
// a removed person's activity rows still name them. SQLite by default; Postgres when DATABASE_URL is set.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { createOwner, createResetToken } from '../../src/core/accounts/users.ts';
import { grantCredits } from '../../src/core/billing/ledger.ts';

type Headers = Record<string, string>;
const PASSWORD = 'a team member passphrase';

async function formHeaders(s: TestServer): Promise<Headers> {
  const first = await s.request('GET', '/console/api/session');
  return { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token as string };
}

async function signIn(s: TestServer, email: string): Promise<Headers> {
  const res = await s.request('POST', '/console/api/sign-in', { body: { email, password: PASSWORD }, headers: await formHeaders(s) });
  assert.equal(res.statusCode, 200, res.body);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const csrf = (await s.request('GET', '/console/api/session', { headers: { cookie } })).json().csrf_token as string;
  return { cookie, 'x-csrf-token': csrf };
}

const tokenOf = (link: string) => new URL(link).hash.replace('#token=', '');

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

  function refusedAsMember(res: { statusCode: number; body: string; json(): any }) {
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(res.json().detail.error, 'team_admin_required');
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

    refusedAsMember(await s.request('POST', `/v1/projects/${projectId}/shares`, { body: {}, headers: member }));
    const hook = { url: 'http://127.0.0.1:9/studio', events: ['run.completed'], project_ids: [projectId] };
    const memberHook = await s.request('POST', '/v1/webhooks', { body: hook, headers: member });
    refusedAsMember(memberHook);
    assert.match(memberHook.json().detail.message, /share links/);
    assert.deepEqual(await counts(), { shares: 0, webhooks: 0 }, 'nothing made');

    const share = await s.request('POST', `/v1/projects/${projectId}/shares`, { body: {}, headers: admin });
    assert.equal(share.statusCode, 200, share.body);
    const made = await s.request('POST', '/v1/webhooks', { body: hook, headers: admin });
    assert.equal(made.statusCode, 200, made.body);
    const id = made.json().id as string;

    // A member cannot send the endpoint elsewhere or widen what it receives...
    for (const body of [{ url: 'http://127.0.0.1:9/elsewhere' }, { events: ['run.completed', 'credits.low'] }, { events: ['*'] }, { project_ids: null }]) {
      refusedAsMember(await s.request('PATCH', `/v1/webhooks/${id}`, { body, headers: member }));
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
