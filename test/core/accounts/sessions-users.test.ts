// Console users and sessions in core (src/core/accounts/users.ts, sessions.ts), on a real
// database: the owner, sign-in and its lockout, sessions that resolve, end and end everywhere.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount } from '../../../src/core/accounts/accounts.ts';
import { createSession, csrfMatches, listSessions, resolveSession, revokeSession, revokeUserSessions } from '../../../src/core/accounts/sessions.ts';
import { createOwner, MAX_FAILED_LOGINS, needsOwner, signIn, signUp, signUpEmail } from '../../../src/core/accounts/users.ts';
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

  test('sign-up follows the mode and never joins an account that already has the email', async () => {
    assert.throws(() => signUpEmail('invite', 'a@example.com'), (e: unknown) => e instanceof AppError && e.code === 'signup_closed');
    assert.throws(() => signUpEmail('closed', 'a@example.com'), (e: unknown) => e instanceof AppError && e.code === 'signup_closed');
    assert.equal(signUpEmail('open', 'A@Example.com'), 'a@example.com');
    await createAccount(db(), 'cli-made@example.com');
    assert.deepEqual(await signUp(fresh.store, 'cli-made@example.com', 'an attacker password'), { created: false });
    await rejectsWith(signIn(db(), 'cli-made@example.com', 'an attacker password'), 'invalid_credentials');
    assert.deepEqual(await signUp(fresh.store, 'new-user@example.com', 'a long enough password'), { created: true });
    const member = await signIn(db(), 'new-user@example.com', 'a long enough password');
    assert.equal(member.role, 'member');
    assert.deepEqual(await signUp(fresh.store, 'new-user@example.com', 'another long password'), { created: false });
  });

  test('sign-in: right password in, wrong one refused, and the email locks after repeated failures', async () => {
    await signUp(fresh.store, 'lock@example.com', 'the right password');
    assert.equal((await signIn(db(), 'LOCK@example.com', 'the right password')).email, 'lock@example.com');
    await rejectsWith(signIn(db(), 'lock@example.com', 'a wrong password'), 'invalid_credentials');
    await rejectsWith(signIn(db(), 'nobody@example.com', 'a wrong password'), 'invalid_credentials');
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) await rejectsWith(signIn(db(), 'lock@example.com', 'a wrong password'), 'invalid_credentials');
    await rejectsWith(signIn(db(), 'lock@example.com', 'the right password'), 'login_locked');
  });

  test('a session resolves by its token until it is revoked; signing out everywhere keeps one if asked', async () => {
    await signUp(fresh.store, 'sessions@example.com', 'a long enough password');
    const user = await signIn(db(), 'sessions@example.com', 'a long enough password');
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
