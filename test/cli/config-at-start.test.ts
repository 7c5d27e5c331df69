// A wrong setting stops `serve` and `worker` at start with one line naming the variable (exit 1,
// no stack, no password echoed), rather than a stack trace or a failure on first use: a Redis or
// SMTP URL that is not one, and files named by SIGHTLINE_CATALOG_PATH,
// SIGHTLINE_CITATION_SOURCES_PATH and SIGHTLINE_CRAWLER_RANGES_PATH that cannot be read (the
// last one used to answer every log upload and crawler report 500). A Redis URL that parses but
// cannot be reached starts (each process limits on its own) and says so in one JSON log line,
// not ioredis' unstructured "Unhandled error event" stacks on stderr several times a second.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';

const exec = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('configuration checked at start', () => {
  let dir: string;
  let dbUrl: string;
  const env = (extra: Record<string, string>): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: dbUrl, SIGHTLINE_LOG_LEVEL: 'warn', ...extra };
    for (const k of ['SIGHTLINE_REDIS_URL', 'SIGHTLINE_SMTP_URL', 'SIGHTLINE_CATALOG_PATH', 'SIGHTLINE_CITATION_SOURCES_PATH', 'SIGHTLINE_CRAWLER_RANGES_PATH']) {
      if (!(k in extra)) delete e[k];
    }
    return e;
  };
  const bin = async (args: string[], extra: Record<string, string>): Promise<Outcome> => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { env: env(extra), timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const x = err as { code: number; stdout: string; stderr: string };
      return { code: x.code, stdout: x.stdout, stderr: x.stderr };
    }
  };
  const refused = (out: Outcome, pattern: RegExp) => {
    assert.equal(out.code, 1, out.stderr);
    const lines = out.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${out.stderr}`);
    assert.match(lines[0]!, /^sightline: Invalid configuration: /);
    assert.match(lines[0]!, pattern);
    assert.doesNotMatch(out.stderr, /\n\s+at |s3cret/);
    assert.doesNotMatch(out.stdout, /serve started|worker started/);
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sightline-config-'));
    dbUrl = `sqlite:${join(dir, 's.db')}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('Redis and SMTP URLs are checked by the schema, never echoing a password', () => {
    const base = { DATABASE_URL: 'sqlite::memory:' };
    assert.equal(loadConfig({ ...base, SIGHTLINE_REDIS_URL: 'redis://:s3cret@cache.internal:6379/2' }).SIGHTLINE_REDIS_URL, 'redis://:s3cret@cache.internal:6379/2');
    assert.equal(loadConfig({ ...base, SIGHTLINE_REDIS_URL: ' rediss://cache.internal ' }).SIGHTLINE_REDIS_URL, 'rediss://cache.internal');
    assert.equal(loadConfig({ ...base, SIGHTLINE_REDIS_URL: '' }).SIGHTLINE_REDIS_URL, undefined);
    assert.equal(loadConfig({ ...base, SIGHTLINE_SMTP_URL: 'smtps://mailer:s3cret@smtp.example.com:465' }).SIGHTLINE_SMTP_URL, 'smtps://mailer:s3cret@smtp.example.com:465');
    const problem = (vars: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...vars });
      } catch (err) {
        return (err as Error).message;
      }
      assert.fail(`accepted ${JSON.stringify(vars)}`);
    };
    assert.match(problem({ SIGHTLINE_REDIS_URL: 'cache.internal:6379' }), /SIGHTLINE_REDIS_URL: cache\.internal: is not redis: or rediss:/);
    assert.match(problem({ SIGHTLINE_REDIS_URL: 'http://u:s3cret@cache.internal' }), /SIGHTLINE_REDIS_URL: http: is not redis: or rediss:/);
    assert.match(problem({ SIGHTLINE_REDIS_URL: 'redis://' }), /SIGHTLINE_REDIS_URL: names no host/);
    assert.match(problem({ SIGHTLINE_SMTP_URL: 'smtp.example.com' }), /SIGHTLINE_SMTP_URL: is not a URL; use smtp:\/\/ or smtps:\/\//);
    assert.match(problem({ SIGHTLINE_SMTP_URL: 'smtps://mailer:s3cr#t@smtp.example.com' }), /SIGHTLINE_SMTP_URL: /);
    const secrets: Record<string, string>[] = [{ SIGHTLINE_REDIS_URL: 'http://u:s3cret@cache.internal' }, { SIGHTLINE_SMTP_URL: 'mailto://mailer:s3cret@smtp.example.com' }];
    for (const vars of secrets) {
      assert.doesNotMatch(problem(vars), /s3cret/);
    }
  });

  test('serve and worker refuse a bad setting in one line that names it', async () => {
    const notJson = join(dir, 'not-json.json');
    writeFileSync(notJson, 'ranges\n');
    const cases: [Record<string, string>, RegExp][] = [
      [{ SIGHTLINE_SMTP_URL: 'garbage' }, /SIGHTLINE_SMTP_URL: is not a URL/],
      [{ SIGHTLINE_REDIS_URL: 'redis-host' }, /SIGHTLINE_REDIS_URL: is not a URL/],
      [{ SIGHTLINE_CATALOG_PATH: join(dir, 'missing.json') }, /SIGHTLINE_CATALOG_PATH: cannot use the file it names: ENOENT/],
      [{ SIGHTLINE_CITATION_SOURCES_PATH: join(dir, 'missing.json') }, /SIGHTLINE_CITATION_SOURCES_PATH: cannot use the file it names: ENOENT/],
      [{ SIGHTLINE_CRAWLER_RANGES_PATH: join(dir, 'missing.json') }, /SIGHTLINE_CRAWLER_RANGES_PATH: cannot use the file it names: ENOENT/],
      [{ SIGHTLINE_CRAWLER_RANGES_PATH: notJson }, /SIGHTLINE_CRAWLER_RANGES_PATH: cannot use the file it names: .*not valid JSON/],
      [{ SIGHTLINE_PROBE_TIMEOUT_MS: 'soon' }, /SIGHTLINE_PROBE_TIMEOUT_MS must be an integer/],
    ];
    for (const [vars, pattern] of cases) refused(await bin(['serve', '--port', '0'], vars), pattern);
    refused(await bin(['worker'], { SIGHTLINE_CRAWLER_RANGES_PATH: join(dir, 'missing.json') }), /SIGHTLINE_CRAWLER_RANGES_PATH/);
  });

  test('a Redis that cannot be reached: requests are answered, one JSON warning, no ioredis stacks', async () => {
    const created = await bin(['accounts', 'create', '--email', 'redis@example.com', '--credits', '1', '--json'], {});
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout).api_key as string;
    // A port that was free a moment ago: nothing answers there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));

    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-worker'], {
      env: env({ SIGHTLINE_REDIS_URL: `redis://:s3cret@127.0.0.1:${closedPort}`, SIGHTLINE_LOG_LEVEL: 'info', HOST: '127.0.0.1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 60_000;
      let port: number | undefined;
      while (!port && Date.now() < deadline) {
        port = Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]) || undefined;
        if (!port) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(port, `the server started:\n${stdout}\n${stderr}`);
      for (let i = 0; i < 3; i++) {
        const res: Response = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(res.status, 200);
        assert.ok(res.headers.get('ratelimit-limit'), 'still limited (per process)');
      }
      await new Promise((r) => setTimeout(r, 1500)); // ioredis retries its connection meanwhile
      const warnings = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; level: number; store?: string })
        .filter((l) => l.msg.startsWith('rate limit store unavailable'));
      assert.equal(warnings.length, 1, stdout);
      assert.equal(warnings[0]!.level, 40);
      assert.equal(warnings[0]!.store, 'redis');
      assert.doesNotMatch(stderr + stdout, /Unhandled error event|s3cret/);
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
    }
  });
});
