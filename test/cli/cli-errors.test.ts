// The `sightline` bin when something is wrong: usage errors are caught before anything is written
// (exit 2, one line on stderr), failures exit 1, and with --json stdout still holds exactly one
// JSON document ({"error", "message"}). `accounts create` creates account, key and grant or nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { openDatabase } from '../../src/db/connection.ts';

const exec = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('sightline CLI failures', () => {
  let db: { url: string; drop: () => Promise<void> };
  /** Runs the bin and resolves with its exit code and output, whatever the code. */
  const cli = async (...args: string[]): Promise<Outcome> => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: db.url } });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const ok = async (...args: string[]) => {
    const out = await cli(...args, '--json');
    assert.equal(out.code, 0, out.stderr);
    return JSON.parse(out.stdout);
  };
  /** A usage error: exit 2, one line on stderr naming the problem, no stack trace. */
  const usageError = (out: Outcome, pattern: RegExp) => {
    assert.equal(out.code, 2, `exit code; stderr: ${out.stderr}`);
    const lines = out.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${out.stderr}`);
    assert.match(lines[0], pattern);
    assert.doesNotMatch(out.stderr, /\n\s+at /);
  };
  const withDb = async <T>(fn: (handle: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> => {
    const handle = openDatabase(db.url);
    try {
      return await fn(handle);
    } finally {
      await handle.close();
    }
  };
  const accountsWithEmail = (email: string) =>
    withDb(async ({ db: k }) => {
      const accounts = await k.selectFrom('accounts').select('id').where('email', '=', email).execute();
      const keys = await k.selectFrom('api_keys').innerJoin('accounts', 'accounts.id', 'api_keys.account_id').select('api_keys.id').where('accounts.email', '=', email).execute();
      return { accounts: accounts.length, keys: keys.length };
    });

  before(async () => {
    db = await freshDatabaseUrl();
  });
  after(async () => db.drop());

  test('migrate --json prints one document naming the migrations applied', async () => {
    const first = await ok('migrate');
    assert.ok(Array.isArray(first.applied) && first.applied.length > 0, JSON.stringify(first));
    assert.ok(first.applied.every((m: unknown) => typeof m === 'string'));
    const again = await ok('migrate');
    assert.deepEqual(again.applied, []);
    const human = await cli('migrate');
    assert.equal(human.code, 0);
    assert.match(human.stdout, /up to date/);
  });

  test('accounts create over the grant cap creates nothing, and the retry succeeds', async () => {
    const email = 'cap@example.com';
    const failed = await cli('accounts', 'create', '--email', email, '--credits', '10000000.01');
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /at most 10000000\.00 credits/);
    assert.deepEqual(await accountsWithEmail(email), { accounts: 0, keys: 0 });

    const failedJson = await cli('accounts', 'create', '--email', email, '--credits', '10000000.01', '--json');
    assert.equal(failedJson.code, 1);
    assert.deepEqual(JSON.parse(failedJson.stdout), { error: 'invalid_request', message: 'A grant is at most 10000000.00 credits; got 10000000.01.' });
    assert.deepEqual(await accountsWithEmail(email), { accounts: 0, keys: 0 });

    const acct = await ok('accounts', 'create', '--email', email, '--credits', '10000000');
    assert.match(acct.api_key, /^svc_api_live_/);
    assert.equal(acct.available_credits, '10000000.00');
    assert.deepEqual(await accountsWithEmail(email), { accounts: 1, keys: 1 });
  });

  test('accounts create whose grant fails in storage leaves no account behind', async () => {
    const email = 'refused@example.com';
    const postgres = db.url.startsWith('postgres');
    // The ledger refuses this account's grant: the write fails after account and key exist.
    await withDb(async ({ db: k }) => {
      if (postgres) {
        await sql`create function refuse_grant() returns trigger language plpgsql as $$
          begin
            if (select email from accounts where id = new.account_id) = ${sql.lit(email)} then raise exception 'grant refused'; end if;
            return new;
          end $$`.execute(k);
        await sql`create trigger refuse_grant before insert on ledger_entries for each row execute function refuse_grant()`.execute(k);
      } else {
        await sql`create trigger refuse_grant before insert on ledger_entries
          when (select email from accounts where id = new.account_id) = ${sql.lit(email)}
          begin select raise(abort, 'grant refused'); end`.execute(k);
      }
    });
    const failed = await cli('accounts', 'create', '--email', email, '--credits', '5', '--json');
    assert.equal(failed.code, 1);
    const doc = JSON.parse(failed.stdout);
    assert.equal(doc.error, 'internal_error');
    assert.match(doc.message, /grant refused/);
    assert.deepEqual(await accountsWithEmail(email), { accounts: 0, keys: 0 });

    await withDb(async ({ db: k }) => {
      await sql`drop trigger refuse_grant${postgres ? sql` on ledger_entries` : sql``}`.execute(k);
    });
    const acct = await ok('accounts', 'create', '--email', email, '--credits', '5');
    assert.equal(acct.available_credits, '5.00');
  });

  test('keys create refuses an empty --scopes and --read-only with --scopes', async () => {
    const acct = await ok('accounts', 'create', '--email', 'scopes@example.com');
    const before = await withDb(({ db: k }) => k.selectFrom('api_keys').select('id').where('account_id', '=', acct.account_id).execute());
    for (const scopes of ['', ',', ' , ']) {
      usageError(await cli('keys', 'create', '--account', acct.account_id, `--scopes=${scopes}`), /--scopes needs at least one scope/);
    }
    usageError(await cli('keys', 'create', '--account', acct.account_id, '--scopes', ','), /--scopes needs at least one scope/);
    usageError(await cli('keys', 'create', '--account', acct.account_id, '--read-only', '--scopes', 'runs:read'), /--read-only and --scopes/);
    usageError(await cli('keys', 'create', '--account', acct.account_id, '--scopes', 'runs:read,runs:write'), /unknown scope in --scopes: runs:write/);
    const json = await cli('keys', 'create', '--account', acct.account_id, '--read-only', '--scopes', 'tests:read', '--json');
    assert.equal(json.code, 2);
    assert.equal(JSON.parse(json.stdout).error, 'usage_error');
    const afterKeys = await withDb(({ db: k }) => k.selectFrom('api_keys').select('id').where('account_id', '=', acct.account_id).execute());
    assert.equal(afterKeys.length, before.length, 'no key was issued');
    // The valid forms still work.
    assert.deepEqual((await ok('keys', 'create', '--account', acct.account_id, '--scopes', ' runs:read , ')).scopes, ['runs:read']);
    assert.deepEqual((await ok('keys', 'create', '--account', acct.account_id, '--read-only')).scopes, ['tests:read', 'runs:read']);
  });

  test('bad flags and flag values are one-line usage errors (exit 2), with --json one error document', async () => {
    usageError(await cli('accounts', 'create', '--email'), /missing value for --email/);
    usageError(await cli('accounts', 'create', '--email', '--credits', '5'), /missing value for --email/);
    usageError(await cli('accounts', 'create', '--email', 'neg@example.com', '--credits', '-5'), /invalid --credits: -5/);
    usageError(await cli('accounts', 'create', '--email', 'neg@example.com', '--credits=-5'), /invalid --credits/);
    usageError(await cli('accounts', 'create', '--email', 'dec@example.com', '--credits', '1.239'), /invalid --credits: not a credit amount: "1\.239"/);
    usageError(await cli('accounts', 'create', '--email', 'x@example.com', '--frobnicate'), /unknown flag --frobnicate/);
    usageError(await cli('keys', 'create', '--account', 'acct_x', '--credits', '5'), /--credits does not apply to keys create/);
    usageError(await cli('credits', 'grant', '--account', 'acct_x', '--credits', '0'), /more than 0/);
    usageError(await cli('credits', 'grant', '--account', 'acct_x', '--credits', 'abc'), /invalid --credits/);
    usageError(await cli('serve', '--port', 'http'), /invalid --port/);
    usageError(await cli('migrate', 'now'), /unexpected argument: now/);
    usageError(await cli('accounts', 'delete'), /unknown command: accounts delete/);
    usageError(await cli(), /missing command/);
    assert.deepEqual(await accountsWithEmail('neg@example.com'), { accounts: 0, keys: 0 });
    assert.deepEqual(await accountsWithEmail('dec@example.com'), { accounts: 0, keys: 0 });
    assert.deepEqual(await accountsWithEmail('x@example.com'), { accounts: 0, keys: 0 });

    for (const args of [
      ['accounts', 'create', '--email', '--json'],
      ['accounts', 'create', '--json', '--email'],
      ['accounts', 'create', '--email', 'neg@example.com', '--credits', '1.239', '--json'],
      ['accounts', 'create', '--email', 'neg@example.com', '--json', '--bogus'],
      ['frobnicate', '--json'],
    ]) {
      const out = await cli(...args);
      assert.equal(out.code, 2, args.join(' '));
      const doc = JSON.parse(out.stdout); // exactly one JSON document
      assert.equal(doc.error, 'usage_error');
      assert.equal(typeof doc.message, 'string');
      assert.equal(out.stderr.trimEnd().split('\n').length, 1);
    }
  });

  test('a failing command with --json prints one error document and exits 1', async () => {
    const out = await cli('credits', 'grant', '--account', 'acct_nope', '--credits', '5', '--json');
    assert.equal(out.code, 1);
    const doc = JSON.parse(out.stdout);
    assert.equal(doc.error, 'not_found');
    assert.match(doc.message, /acct_nope/);
    const revoke = await cli('keys', 'revoke', '--key', 'key_nope', '--json');
    assert.equal(revoke.code, 1);
    assert.equal(JSON.parse(revoke.stdout).error, 'not_found');
    const human = await cli('accounts', 'suspend', '--account', 'acct_nope');
    assert.equal(human.code, 1);
    assert.equal(human.stdout, '');
    assert.match(human.stderr, /^sightline: account acct_nope not found\n$/);
  });
});

describe('a database the command cannot use: one line naming it (never its password), exit 1', () => {
  const bin = async (args: string[], env: Record<string, string>): Promise<Outcome> => {
    const e: NodeJS.ProcessEnv = { ...process.env, ...env };
    if (!env.DATABASE_URL) delete e.DATABASE_URL;
    try {
      const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { env: e, timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const x = err as { code: number; stdout: string; stderr: string };
      return { code: x.code, stdout: x.stdout, stderr: x.stderr };
    }
  };
  const oneLine = (out: Outcome, pattern: RegExp) => {
    assert.equal(out.code, 1, out.stderr);
    const lines = out.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${out.stderr}`);
    assert.match(lines[0]!, pattern);
    assert.doesNotMatch(out.stderr, /\n\s+at |s3cret/);
  };

  test('nothing listens at the Postgres port: serve, worker and migrate say so in one line', async () => {
    for (const args of [['migrate'], ['worker'], ['serve', '--port', '0']]) {
      const out = await bin(args, { DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:1/sightline', SIGHTLINE_LOG_LEVEL: 'silent' });
      oneLine(out, /^sightline: cannot use the database postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/sightline \(DATABASE_URL\): .*ECONNREFUSED.*Check DATABASE_URL/);
    }
  });

  test('a metrics port serve cannot listen on ends the start, and is not blamed on the database', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const dir = mkdtempSync(join(tmpdir(), 'sightline-port-'));
      const out = await bin(['serve', '--port', '0'], { DATABASE_URL: `sqlite:${join(dir, 's.db')}`, HOST: '127.0.0.1', SIGHTLINE_METRICS_PORT: port, SIGHTLINE_METRICS_HOST: '127.0.0.1', SIGHTLINE_LOG_LEVEL: 'fatal' });
      assert.match(out.stdout + out.stderr, /EADDRINUSE.*cannot listen for metrics/);
      assert.equal(out.code, 1, out.stderr);
      assert.doesNotMatch(out.stderr, /cannot use the database/);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      taken.close();
    }
  });

  test('a DATABASE_URL or PORT that does not parse stops the start with a message naming it', async () => {
    oneLine(await bin(['migrate'], { DATABASE_URL: 'mysql://app:s3cret@db/x' }), /Invalid configuration: DATABASE_URL: mysql: is not a supported database/);
    oneLine(await bin(['serve'], { DATABASE_URL: 'sqlite::memory:', PORT: '99999' }), /Invalid configuration: PORT: must be an integer 0\.\.65535/);
  });

  test('an operator command on a database sightline never set up refuses it and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sightline-nodb-'));
    try {
      const out = await bin(['credits', 'grant', '--email', 'ops@example.com', '--credits', '100'], { SIGHTLINE_DATA_DIR: dir });
      oneLine(out, new RegExp(`the database sqlite:${join(dir, 'sightline.db').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(SIGHTLINE_DATA_DIR\\) is not a sightline database: the file does not exist.*DATABASE_URL`));
      assert.deepEqual(readdirSync(dir), [], 'no database file was created');
      // An existing but empty database (Postgres, or a SQLite file nobody migrated) is refused too.
      const empty = await freshDatabaseUrl();
      try {
        const json = await bin(['keys', 'revoke', '--key', 'key_x', '--json'], { DATABASE_URL: empty.url });
        assert.equal(json.code, 1);
        assert.equal(JSON.parse(json.stdout).error, 'database_not_set_up');
        // accounts create may set one up (the first account can come before the server ran).
        assert.equal((await bin(['accounts', 'create', '--email', 'first@example.com', '--json'], { DATABASE_URL: empty.url })).code, 0);
        assert.equal((await bin(['credits', 'grant', '--email', 'first@example.com', '--credits', '5', '--json'], { DATABASE_URL: empty.url })).code, 0);
      } finally {
        await empty.drop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
