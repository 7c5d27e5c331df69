// Accounts and keys in core (src/core/accounts/accounts.ts), on a real database: raw keys only in
// createKey's answer, the hash and prefix stored, authentication by surface, revocation and
// suspension, scopes, and the all-or-nothing openAccount.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  API_KEY_PREFIX,
  MCP_KEY_PREFIX,
  accountIdByEmail,
  authenticate,
  authenticateCached,
  createAccount,
  createKey,
  getAccount,
  hashKey,
  openAccount,
  requireScope,
  revokeKey,
  setAccountStatus,
} from '../../../src/core/accounts/accounts.ts';
import { READ_ONLY_SCOPES, SCOPES } from '../../../src/core/accounts/scopes.ts';
import { AppError, type ErrorCode } from '../../../src/core/errors.ts';
import { openFreshDatabase } from '../../helpers/harness.ts';

const rejectsWith = (p: Promise<unknown>, code: ErrorCode) =>
  assert.rejects(p, (e: unknown) => e instanceof AppError && e.code === code);

describe('core accounts and keys', () => {
  let fresh: Awaited<ReturnType<typeof openFreshDatabase>>;
  before(async () => {
    fresh = await openFreshDatabase();
  });
  after(() => fresh.close());
  const db = () => fresh.store.db;

  test('an account is kept under its normalised email, once', async () => {
    const account = await createAccount(db(), '  Ada@Example.COM ');
    assert.equal(account.email, 'ada@example.com');
    assert.match(account.id, /^acct_/);
    assert.equal(account.status, 'active');
    assert.equal(await accountIdByEmail(db(), 'ADA@example.com'), account.id);
    assert.deepEqual(await getAccount(db(), account.id), account);
    await rejectsWith(createAccount(db(), 'ada@example.com'), 'invalid_request');
    await rejectsWith(createAccount(db(), 'not an email'), 'invalid_request');
    await rejectsWith(accountIdByEmail(db(), 'nobody@example.com'), 'not_found');
    await rejectsWith(getAccount(db(), 'acct_missing'), 'not_found');
  });

  test('a key is shown once: the database keeps its sha256 and a display prefix, never the key', async () => {
    const { id } = await createAccount(db(), 'keys@example.com');
    const key = await createKey(db(), id, { name: 'ci' });
    assert.ok(key.api_key.startsWith(API_KEY_PREFIX));
    assert.equal(key.api_key.length, API_KEY_PREFIX.length + 40);
    assert.equal(key.key_prefix, key.api_key.slice(0, API_KEY_PREFIX.length + 6));
    const row = await db().selectFrom('api_keys').selectAll().where('id', '=', key.key_id).executeTakeFirstOrThrow();
    assert.equal(row.key_hash, hashKey(key.api_key));
    assert.ok(!JSON.stringify(row).includes(key.api_key), 'the raw key is not stored');
    assert.equal(row.name, 'ci');
    assert.deepEqual(JSON.parse(row.scopes), ['*'], 'a default key stores every scope, now and later');
    await rejectsWith(createKey(db(), 'acct_missing'), 'not_found');
  });

  test('scopes: default, read-only, chosen; unknown scopes are refused', async () => {
    const { id } = await createAccount(db(), 'scopes@example.com');
    const full = await authenticate(db(), (await createKey(db(), id)).api_key, 'api');
    assert.deepEqual([...full.scopes].sort(), [...SCOPES].sort());
    const ro = await authenticate(db(), (await createKey(db(), id, { readOnly: true })).api_key, 'api');
    assert.deepEqual([...ro.scopes].sort(), [...READ_ONLY_SCOPES].sort());
    assert.throws(() => requireScope(ro, 'visibility:runs:create'), (e: unknown) => e instanceof AppError && e.code === 'missing_scope' && e.extra.required_scope === 'visibility:runs:create');
    requireScope(ro, 'runs:read');
    const chosen = await createKey(db(), id, { scopes: ['runs:read', 'runs:read', 'tests:read'] });
    assert.deepEqual(chosen.scopes, ['runs:read', 'tests:read']);
    await rejectsWith(createKey(db(), id, { scopes: ['runs:read', 'runs:write'] }), 'invalid_request');
  });

  test('authentication: API keys only on the API, MCP tokens only on MCP, malformed tokens before any lookup', async () => {
    const { id } = await createAccount(db(), 'surface@example.com');
    const api = await createKey(db(), id);
    const mcp = await createKey(db(), id, { kind: 'mcp' });
    assert.ok(mcp.api_key.startsWith(MCP_KEY_PREFIX));
    assert.equal(mcp.name, 'MCP token');
    const p = await authenticate(db(), api.api_key, 'api');
    assert.deepEqual({ accountId: p.accountId, keyId: p.keyId, keyPrefix: p.keyPrefix, kind: p.kind }, { accountId: id, keyId: api.key_id, keyPrefix: api.key_prefix, kind: 'api' });
    assert.equal((await authenticate(db(), mcp.api_key, 'mcp')).kind, 'mcp');
    await rejectsWith(authenticate(db(), mcp.api_key, 'api'), 'mcp_token_not_allowed');
    await rejectsWith(authenticate(db(), api.api_key, 'mcp'), 'api_key_not_allowed');
    await rejectsWith(authenticate(db(), undefined, 'api'), 'unauthorized');
    await rejectsWith(authenticate(db(), `${API_KEY_PREFIX}short`, 'api'), 'unauthorized');
    await rejectsWith(authenticate(db(), `${API_KEY_PREFIX}${'x'.repeat(40)}`, 'api'), 'unauthorized');
    assert.equal(authenticateCached(db(), api.api_key, 'api')?.keyId, api.key_id, 'a verified key is served from the cache');
    assert.equal(authenticateCached(db(), 'garbage', 'api'), undefined);
  });

  test('revoking a key and suspending an account take effect at once through this module', async () => {
    const { id } = await createAccount(db(), 'revoke@example.com');
    const a = await createKey(db(), id);
    const b = await createKey(db(), id);
    await authenticate(db(), a.api_key, 'api');
    await authenticate(db(), b.api_key, 'api');
    await revokeKey(db(), a.key_id);
    await revokeKey(db(), a.key_id); // revoking twice is not an error
    assert.equal(authenticateCached(db(), a.api_key, 'api'), undefined, 'the cache forgot the revoked key');
    await rejectsWith(authenticate(db(), a.api_key, 'api'), 'unauthorized');
    await rejectsWith(revokeKey(db(), 'key_missing'), 'not_found');

    await setAccountStatus(db(), id, 'suspended');
    await rejectsWith(authenticate(db(), b.api_key, 'api'), 'account_suspended');
    await setAccountStatus(db(), id, 'active');
    assert.equal((await authenticate(db(), b.api_key, 'api')).accountId, id);
    await rejectsWith(setAccountStatus(db(), 'acct_missing', 'suspended'), 'not_found');
  });

  test('openAccount makes the account, its default key and the grant in one transaction', async () => {
    const opened = await openAccount(fresh.store, 'open@example.com', 12_345);
    assert.equal(opened.available, 12_345);
    assert.equal((await authenticate(db(), opened.key.api_key, 'api')).accountId, opened.account.id);
    // A second open for the same email fails and leaves nothing behind: still one account, one key.
    await rejectsWith(openAccount(fresh.store, 'OPEN@example.com', 500), 'invalid_request');
    const keys = await db().selectFrom('api_keys').select('id').where('account_id', '=', opened.account.id).execute();
    assert.equal(keys.length, 1);
    const none = await openAccount(fresh.store, 'zero@example.com');
    assert.equal(none.available, 0);
  });
});
