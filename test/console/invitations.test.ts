// Invitations through the real server, as the operator makes them in the console: inviting an
// email again replaces its pending invitation (the old link stops working, the answer says so);
// an email that has a user is refused with a clear 400; invitations sent at once leave exactly
// one pending, and that one is accepted. SQLite by default; Postgres when DATABASE_URL is set.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import { createOwner } from '../../src/core/accounts/users.ts';

async function formHeaders(s: TestServer) {
  const first = await s.request('GET', '/console/api/session');
  return { cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token as string };
}

const tokenOf = (link: string) => new URL(link).hash.replace('#token=', '');

describe('operator invitations', () => {
  let s: TestServer;
  let operator: Record<string, string>;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: '1000' });
    await createOwner(s.runtime.core.store, 'owner@example.com', 'owner passphrase ok');
    const signIn = await s.request('POST', '/console/api/sign-in', { body: { email: 'owner@example.com', password: 'owner passphrase ok' }, headers: await formHeaders(s) });
    assert.equal(signIn.statusCode, 200, signIn.body);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const csrf = (await s.request('GET', '/console/api/session', { headers: { cookie } })).json().csrf_token as string;
    operator = { cookie, 'x-csrf-token': csrf };
  });
  after(async () => s.close());

  const invite = (email: string, credits?: number) =>
    s.request('POST', '/console/api/operator/invitations', { body: { email, ...(credits ? { credits } : {}) }, headers: operator });
  const accept = async (token: string) =>
    s.request('POST', '/console/api/invitations/accept', { body: { token, password: 'invited user passphrase' }, headers: await formHeaders(s) });
  const pendingFor = async (email: string) =>
    ((await s.request('GET', '/console/api/operator/accounts', { headers: operator })).json().invitations as { email: string; credits: string }[]).filter((i) => i.email === email);

  test('a second invitation replaces the pending one: the old link stops working, the new one opens the account', async () => {
    const first = await invite('twice@example.com', 3);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().replaced, false);
    const second = await invite('Twice@Example.com', 5);
    assert.equal(second.statusCode, 200, second.body);
    assert.equal(second.json().replaced, true);
    assert.deepEqual((await pendingFor('twice@example.com')).map((i) => i.credits), ['5.00']);

    const old = await accept(tokenOf(first.json().link));
    assert.equal(old.statusCode, 400, old.body);
    assert.equal(old.json().detail.error, 'invalid_token');
    const describedOld = await s.request('POST', '/console/api/invitations/describe', { body: { token: tokenOf(first.json().link) }, headers: await formHeaders(s) });
    assert.notEqual(describedOld.statusCode, 200);

    const ok = await accept(tokenOf(second.json().link));
    assert.equal(ok.statusCode, 200, ok.body);
    const users = await s.runtime.core.store.db.selectFrom('users').select('account_id').where('email', '=', 'twice@example.com').execute();
    assert.equal(users.length, 1);
    const balance = await s.runtime.core.store.db.selectFrom('ledger_entries').select('amount').where('account_id', '=', users[0]!.account_id).where('kind', '=', 'grant').execute();
    assert.deepEqual(balance.map((b) => Number(b.amount)), [500], 'the replacing invitation’s credits, once');
    assert.deepEqual(await pendingFor('twice@example.com'), []);
  });

  test('an invitation for an email that has a user is refused with a clear error', async () => {
    const res = await invite('owner@example.com');
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().detail.error, 'invalid_request');
    assert.match(res.json().detail.message, /owner@example\.com has a user already/);
    assert.deepEqual(await pendingFor('owner@example.com'), []);
  });

  test('invitations sent at once leave exactly one pending, and it is the one that works', async () => {
    const sent = await Promise.all(Array.from({ length: 6 }, () => invite('parallel@example.com')));
    for (const r of sent) assert.equal(r.statusCode, 200, r.body);
    assert.equal(sent.filter((r) => !r.json().replaced).length, 1);
    assert.equal((await pendingFor('parallel@example.com')).length, 1);
    const results = [];
    for (const r of sent) results.push((await accept(tokenOf(r.json().link))).statusCode);
    assert.deepEqual(results.filter((c) => c === 200).length, 1);
    assert.deepEqual(results.filter((c) => c !== 200), Array(5).fill(400));
  });
});
