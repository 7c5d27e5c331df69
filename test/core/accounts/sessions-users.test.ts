// Console users and sessions in core (src/core/accounts/users.ts, sessions.ts), on a real
// database: the owner, sign-in and its lockout, sessions that resolve, end and end everywhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { createSession, csrfMatches, listSessions, resolveSession, revokeSession, revokeUserSessions } from '../../../src/core/accounts/sessions.ts';
import { createOwner, MAX_FAILED_LOGINS, needsOwner, signIn, signUp } from '../../../src/core/accounts/users.ts';
import { AppError, type ErrorCode } from '../../../src/core/errors.ts';
import { openFreshDatabase } from '../../helpers/harness.ts';

const rejectsWith = (p: Promise<unknown>, code: ErrorCode) =>
  assert.rejects(p, (e: unknown) => e instanceof AppError && e.code === code);

describe('core users and sessions', () => {
  let fresh: Awaited<ReturnType<typeof openFreshDatabase>>;
  before(async () => {
    fresh = await openFreshDatabase();
  });
  after(() => fresh.close());
  const db = () => fresh.store.db;

  test('the first owner is the operator; there is only one', async () => {
    assert.equal(await needsOwner(db()), true);
    const owner = await createOwner(fresh.store, 'Owner@Example.com', 'a long enough password');
    assert.deepEqual({ email: owner.email, role: owner.role }, { email: 'owner@example.com', role: 'operator' });
    assert.equal(await needsOwner(db()), false);
    await rejectsWith(createOwner(fresh.store, 'second@example.com', 'a long enough password'), 'signup_closed');
    await rejectsWith(createOwner(fresh.store, 'weak@example.com', 'short'), 'weak_password');
  });

  test('sign-up follows the mode; a user joins the account the CLI made for the same email', async () => {
    await rejectsWith(signUp(fresh.store, 'invite', 'a@example.com', 'a long enough password'), 'signup_closed');
    await rejectsWith(signUp(fresh.store, 'closed', 'a@example.com', 'a long enough password'), 'signup_closed');
    const account = await createAccount(db(), 'cli-made@example.com');
    const member = await signUp(fresh.store, 'open', 'cli-made@example.com', 'a long enough password');
    assert.equal(member.account_id, account.id);
    assert.equal(member.role, 'member');
    await rejectsWith(signUp(fresh.store, 'open', 'cli-made@example.com', 'a long enough password'), 'invalid_request');
  });

  test('sign-in: right password in, wrong one refused, and the email locks after repeated failures', async () => {
    await signUp(fresh.store, 'open', 'lock@example.com', 'the right password');
    assert.equal((await signIn(db(), 'LOCK@example.com', 'the right password')).email, 'lock@example.com');
    await rejectsWith(signIn(db(), 'lock@example.com', 'a wrong password'), 'invalid_credentials');
    await rejectsWith(signIn(db(), 'nobody@example.com', 'a wrong password'), 'invalid_credentials');
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) await rejectsWith(signIn(db(), 'lock@example.com', 'a wrong password'), 'invalid_credentials');
    await rejectsWith(signIn(db(), 'lock@example.com', 'the right password'), 'login_locked');
  });

  test('a session resolves by its token until it is revoked; signing out everywhere keeps one if asked', async () => {
    const user = await signUp(fresh.store, 'open', 'sessions@example.com', 'a long enough password');
    const one = await createSession(db(), user.id, 'test-agent');
    const two = await createSession(db(), user.id, undefined);
    const three = await createSession(db(), user.id, undefined);
    const resolved = await resolveSession(db(), one.token);
    assert.deepEqual(
      { userId: resolved?.userId, accountId: resolved?.accountId, sessionId: resolved?.sessionId, csrf: resolved?.csrfToken },
      { userId: user.id, accountId: user.account_id, sessionId: one.sessionId, csrf: one.csrfToken },
    );
    assert.equal(await resolveSession(db(), 'not-a-token'), undefined);
    assert.equal(await resolveSession(db(), undefined), undefined);
    assert.equal((await listSessions(db(), user.id)).length, 3);

    await revokeSession(db(), one.sessionId);
    assert.equal(await resolveSession(db(), one.token), undefined);
    assert.equal(await revokeUserSessions(db(), user.id, three.sessionId), 1, 'only the second was still open besides the kept one');
    assert.equal(await resolveSession(db(), two.token), undefined);
    assert.equal((await resolveSession(db(), three.token))?.sessionId, three.sessionId);
  });

  test('the CSRF token matches only itself', () => {
    assert.equal(csrfMatches('abc123', 'abc123'), true);
    assert.equal(csrfMatches('abc123', 'abc124'), false);
    assert.equal(csrfMatches('abc123', 'abc12'), false);
    assert.equal(csrfMatches('abc123', undefined), false);
  });
});
