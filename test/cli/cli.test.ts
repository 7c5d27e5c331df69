// The `sightline` bin as an operator uses it: --json prints exactly one JSON document, and the
// accounts, keys and credits it creates work against the API.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { loadConfig } from '../../src/config.ts';
import { getUsage } from '../../src/core/reports/usage.ts';
import { sql } from 'kysely';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

describe('sightline CLI', () => {
  let db: { url: string; drop: () => Promise<void> };
  const cli = async (...args: string[]) => {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: db.url } });
    return { stdout, stderr };
  };
  const json = async (...args: string[]) => {
    const { stdout } = await cli(...args, '--json');
    return JSON.parse(stdout); // throws unless stdout is exactly one JSON document
  };
  /** The account's usage as GET /v1/usage reports it, read through the core on the same database. */
  const usageOf = async (accountId: string) => {
    const runtime = await openRuntime(loadConfig({ DATABASE_URL: db.url, SIGHTLINE_LOG_LEVEL: 'silent' }));
    try {
      return await getUsage(runtime.core.store, accountId, 5);
    } finally {
      await runtime.close();
    }
  };
  before(async () => {
    db = await freshDatabaseUrl();
  });
  after(async () => db.drop());

  test('migrate, accounts create, keys create, credits grant, suspend and revoke', async () => {
    await cli('migrate');
    const acct = await json('accounts', 'create', '--email', 'Ops@Example.com', '--credits', '25');
    assert.match(acct.account_id, /^acct_/);
    assert.equal(acct.email, 'ops@example.com');
    assert.match(acct.api_key, /^svc_api_live_[0-9A-Za-z]{32,}$/);
    assert.equal(acct.available_credits, '25.00');

    const ro = await json('keys', 'create', '--account', acct.account_id, '--name', 'dashboard', '--read-only');
    assert.deepEqual(ro.scopes, ['tests:read', 'runs:read']);
    const custom = await json('keys', 'create', '--account', acct.account_id, '--scopes', 'runs:read,pages:content:serialize');
    assert.deepEqual(custom.scopes, ['runs:read', 'pages:content:serialize']);
    // By email as well (the console owner's account has no id to copy), in any case.
    const mcp = await json('keys', 'create', '--email', 'OPS@example.com', '--mcp');
    assert.match(mcp.api_key, /^svc_mcp_live_/);

    const grant = await json('credits', 'grant', '--account', acct.account_id, '--credits', '2.5');
    assert.equal(grant.available_credits, '27.50');
    assert.equal(grant.top_up, false);
    // By email (the console owner's account has no id to copy): the same account, any case.
    const byEmail = await json('credits', 'grant', '--email', 'OPS@example.com', '--credits', '1');
    assert.equal(byEmail.account_id, acct.account_id);
    assert.equal(byEmail.available_credits, '28.50');
    // A top-up records bought credits: 250 (5.00 EUR) at least; an operator grant has no minimum.
    await assert.rejects(
      cli('credits', 'grant', '--account', acct.account_id, '--credits', '249.99', '--top-up'),
      (err: { code: number; stderr: string }) => err.code === 1 && /at least 250\.00 credits/.test(err.stderr),
    );
    // One grant is at most 10,000,000.00 credits (a ledger row is a 32-bit integer of hundredths
    // on Postgres); an amount past 2^53 hundredths is not a credit amount at all.
    await assert.rejects(
      cli('credits', 'grant', '--account', acct.account_id, '--credits', '10000000.01'),
      (err: { code: number; stderr: string }) => err.code === 1 && /at most 10000000\.00 credits/.test(err.stderr),
    );
    await assert.rejects(
      cli('credits', 'grant', '--account', acct.account_id, '--credits', '90071992547409.93'),
      (err: { code: number; stderr: string }) => err.code !== 0 && /too large/.test(err.stderr),
    );
    const topUp = await json('credits', 'grant', '--account', acct.account_id, '--credits', '250', '--top-up');
    assert.equal(topUp.top_up, true);
    assert.equal(topUp.available_credits, '278.50');
    const usage = await usageOf(acct.account_id);
    assert.equal(usage.recent[0].action, 'credits.top_up');
    assert.equal(usage.recent[0].credits, '250.00');
    assert.equal(usage.recent[1].action, 'credits.grant');

    const suspended = await json('accounts', 'suspend', '--email', 'ops@example.com');
    assert.equal(suspended.status, 'suspended');
    const active = await json('accounts', 'unsuspend', '--account', acct.account_id);
    assert.equal(active.status, 'active');
    const revoked = await json('keys', 'revoke', '--key', ro.key_id);
    assert.equal(revoked.revoked, true);
  });

  test('credits reconcile recomputes balances from the ledger and reports what it corrected', async () => {
    const acct = await json('accounts', 'create', '--email', 'reconcile@example.com', '--credits', '40');
    const clean = await json('credits', 'reconcile');
    assert.deepEqual(clean.corrected, []);
    assert.ok(clean.accounts_checked >= 1);
    // Totals gone wrong, as a writer from before migration 0003 would leave them.
    const runtime = await openRuntime(loadConfig({ DATABASE_URL: db.url, SIGHTLINE_LOG_LEVEL: 'silent' }));
    try {
      await sql`update accounts set credits_reserved = credits_reserved + 1500 where id = ${acct.account_id}`.execute(runtime.core.store.db);
    } finally {
      await runtime.close();
    }
    assert.equal((await usageOf(acct.account_id)).credits.available_credit_units, '25.00');
    const fixed = await json('credits', 'reconcile');
    assert.deepEqual(fixed.corrected, [{ account_id: acct.account_id, available_before: '25.00', available_after: '40.00' }]);
    assert.equal((await usageOf(acct.account_id)).credits.available_credit_units, '40.00');
  });

  test('an operator command\'s --help is its own usage, not the whole list', async () => {
    const { stdout } = await cli('credits', 'grant', '--help');
    assert.match(stdout, /^Usage:\n {2}sightline credits grant --account ID\|--email ADDRESS --credits N/);
    assert.match(stdout, /--top-up: bought credits/);
    assert.doesNotMatch(stdout, /accounts create|visibility run/);
  });

  test('usage errors exit 2 and say what is wrong; unknown accounts exit 1', async () => {
    await assert.rejects(cli('keys', 'create'), (err: { code: number; stderr: string }) => err.code === 2 && /--account ID or --email ADDRESS/.test(err.stderr));
    await assert.rejects(cli('frobnicate'), (err: { code: number }) => err.code === 2);
    await assert.rejects(cli('credits', 'grant', '--account', 'acct_nope', '--credits', '5'), (err: { code: number; stderr: string }) => err.code === 1 && /not found/.test(err.stderr));
    await assert.rejects(cli('credits', 'grant', '--email', 'nobody@example.com', '--credits', '5'), (err: { code: number; stderr: string }) => err.code === 1 && /no account with email nobody@example\.com/.test(err.stderr));
    await assert.rejects(cli('credits', 'grant', '--credits', '5'), (err: { code: number; stderr: string }) => err.code === 2 && /--account ID or --email ADDRESS/.test(err.stderr));
  });
});
