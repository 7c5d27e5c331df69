// The pure parts of accounts: how scopes are stored and read back (a default key carries scopes
// added later), and password hashing (scrypt with its parameters in the stored form).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkPasswordStrength, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../../../src/core/accounts/passwords.ts';
import { ALL_SCOPES_MARKER, isScope, parseStoredScopes, READ_ONLY_SCOPES, SCOPES, storedScopes } from '../../../src/core/accounts/scopes.ts';
import { AppError } from '../../../src/core/errors.ts';

describe('scopes', () => {
  test('the full set is stored as ["*"] and read back as every scope there is', () => {
    assert.equal(storedScopes([...SCOPES]), JSON.stringify([ALL_SCOPES_MARKER]));
    assert.deepEqual(parseStoredScopes('["*"]'), [...SCOPES]);
  });

  test('a key stored with the original eight scopes carries the scopes added since', () => {
    const original = JSON.stringify(SCOPES.slice(0, 8));
    assert.deepEqual(parseStoredScopes(original), [...SCOPES]);
  });

  test('a chosen list is stored as it is, read back without scopes that no longer exist', () => {
    assert.equal(storedScopes(READ_ONLY_SCOPES), JSON.stringify(READ_ONLY_SCOPES));
    assert.deepEqual(parseStoredScopes('["runs:read","retired:scope"]'), ['runs:read']);
    assert.ok(isScope('sites:write'));
    assert.ok(!isScope('sites:delete'));
  });
});

describe('passwords', () => {
  test('a hash names its parameters and verifies only its password', async () => {
    const stored = await hashPassword('correct horse battery');
    assert.match(stored, /^scrypt\$32768\$8\$3\$[\w-]+\$[\w-]+$/);
    assert.notEqual(await hashPassword('correct horse battery'), stored, 'salted');
    assert.equal(await verifyPassword('correct horse battery', stored), true);
    assert.equal(await verifyPassword('correct horse batterY', stored), false);
    assert.equal(await verifyPassword('x'.repeat(2000), stored), false);
  });

  test('passwords are NFKC-normalised: the same text typed differently verifies', async () => {
    const stored = await hashPassword('ｍａｒｍａｌａｄｅ　ｈｏｒｉｚｏｎ７');
    assert.equal(await verifyPassword('marmalade horizon7', stored), true);
  });

  test('no stored hash (no user) is always false, after the same work', async () => {
    assert.equal(await verifyPassword('anything at all', null), false);
    assert.equal(await verifyPassword('anything at all', 'not-a-hash'), false);
  });

  test('strength: at least MIN_PASSWORD_LENGTH characters (code points), at most 1024', () => {
    assert.throws(() => checkPasswordStrength('x'.repeat(MIN_PASSWORD_LENGTH - 1)), (e: unknown) => e instanceof AppError && e.code === 'weak_password');
    assert.throws(() => checkPasswordStrength('😀'.repeat(MIN_PASSWORD_LENGTH - 1)), (e: unknown) => e instanceof AppError && e.code === 'weak_password');
    checkPasswordStrength('quiet river lantern'.slice(0, MIN_PASSWORD_LENGTH));
    assert.throws(() => checkPasswordStrength('quiet river lantern '.repeat(60)), (e: unknown) => e instanceof AppError && e.code === 'weak_password');
  });
});
