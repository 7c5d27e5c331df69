// The default database is found the same way from any working directory (the package root's
// data/ or SIGHTLINE_DATA_DIR), and --verbose says which database a command used.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('data directory', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sightline-datadir-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => {
    const e: Record<string, string | undefined> = { ...process.env, ...extra };
    delete e.DATABASE_URL;
    return e as NodeJS.ProcessEnv;
  };

  test('with SIGHTLINE_DATA_DIR, commands run from two working directories use one database and --verbose names it', async () => {
    const data = join(dir, 'data');
    const sub = join(dir, 'project', 'src');
    mkdirSync(sub, { recursive: true });
    const a = await run(process.execPath, [BIN, 'accounts', 'create', '--email', 'one@example.com', '--json', '--verbose'], { cwd: dir, env: env({ SIGHTLINE_DATA_DIR: data }) });
    const expected = `sqlite:${join(data, 'sightline.db')} (SIGHTLINE_DATA_DIR)`;
    assert.match(a.stderr, new RegExp(`database ${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const account = JSON.parse(a.stdout); // --verbose keeps stdout one JSON document
    const b = await run(process.execPath, [BIN, 'credits', 'grant', '--account', account.account_id, '--credits', '5', '--json', '-v'], { cwd: sub, env: env({ SIGHTLINE_DATA_DIR: data }) });
    assert.ok(b.stderr.includes(expected), b.stderr);
    assert.equal(JSON.parse(b.stdout).available_credits, '5.00');
  });

  test("without DATABASE_URL or SIGHTLINE_DATA_DIR the default is the package root's data/sightline.db, from any directory", async () => {
    const expected = `database sqlite:${join(ROOT, 'data', 'sightline.db')} (default data directory)`;
    for (const cwd of [dir, join(ROOT, 'src')]) {
      // A usage error (no --email) after the database is named: nothing is opened or written.
      const res = await run(process.execPath, [BIN, 'accounts', 'create', '--verbose'], { cwd, env: env({}) }).catch((e) => e);
      assert.equal(res.code, 2);
      assert.ok(res.stderr.includes(expected), res.stderr);
    }
  });

  test('a Postgres DATABASE_URL is named without its password', async () => {
    const res = await run(process.execPath, [BIN, 'accounts', 'create', '--verbose'], {
      env: { ...process.env, DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/sightline' },
    }).catch((e) => e);
    assert.ok(res.stderr.includes('database postgres://app:***@db.internal:5432/sightline (DATABASE_URL)'), res.stderr);
    assert.ok(!res.stderr.includes('s3cret'));
  });
});
