// `sightline login` / `logout` and profiles against a running server: the key is checked before it
// is saved and never printed; the file is 0600 in a 0700 directory; SIGHTLINE_API_URL and
// SIGHTLINE_API_KEY override a profile; --profile overrides SIGHTLINE_PROFILE.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('user CLI: login, logout, profiles', () => {
  const srv = serverForCli();
  let home: string;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'sightline-login-'));
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  /** A config home of its own per test, as XDG_CONFIG_HOME. */
  let n = 0;
  const configHome = () => join(home, `cfg${n++}`);
  const cli = (xdg: string, args: string[], env: Record<string, string> = {}, input?: string) => runCli(args, { env: { XDG_CONFIG_HOME: xdg, ...env }, input });

  test('login checks the key, saves it 0600 in a 0700 directory, never prints it; commands then use the profile', async () => {
    const { key } = await srv.s.account({ credits: 7 });
    const xdg = configHome();
    const login = await cli(xdg, ['login', '--url', srv.base, '--json'], {}, `${key}\n`);
    assert.equal(login.code, 0, login.err);
    const file = join(xdg, 'sightline', 'config.json');
    assert.deepEqual(login.json, { profile: 'default', api_url: srv.base, config_path: file, available_credits: '7.00', missing_scopes: [] });
    assert.ok(!login.out.includes(key) && !login.err.includes(key), 'the key is never printed');
    const human = await cli(xdg, ['login', '--url', srv.base], {}, key);
    assert.match(human.out, /logged in to .* as profile default \(7\.00 credits available\)/);
    assert.ok(!human.out.includes(key) && !human.err.includes(key));
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(xdg, 'sightline')).mode & 0o777, 0o700);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { profiles: { default: { api_url: srv.base, api_key: key } } });

    const usage = await cli(xdg, ['usage', '--json']);
    assert.equal(usage.code, 0, usage.err);
    assert.equal(usage.json.credits.available_credit_units, '7.00');
    const doctor = await cli(xdg, ['doctor', '--json']);
    assert.equal(doctor.code, 0);
    assert.match(doctor.json.checks.find((c: any) => c.check === 'api_key').detail, /from profile default/);

    const logout = await cli(xdg, ['logout', '--json']);
    assert.deepEqual(logout.json, { profile: 'default', removed: true });
    const gone = await cli(xdg, ['usage', '--json']);
    assert.equal(gone.code, 3);
    assert.equal(gone.json.error, 'missing_api_key');
    assert.match(gone.err, /sightline login/);
  });

  test('a bad key, an MCP token or an unreachable server is refused and nothing is saved; a saved profile stays', async () => {
    const xdg = configHome();
    const file = join(xdg, 'sightline', 'config.json');
    const bad = await cli(xdg, ['login', '--url', srv.base, '--json'], {}, 'svc_api_live_' + 'z'.repeat(40));
    assert.equal(bad.code, 3);
    assert.equal(bad.json.error, 'unauthorized');
    assert.equal(existsSync(file), false, 'a refused key is not saved');
    const down = await cli(xdg, ['login', '--url', 'http://127.0.0.1:9', '--json'], {}, 'svc_api_live_' + 'z'.repeat(40));
    assert.equal(down.code, 7);
    assert.equal(existsSync(file), false);
    const empty = await cli(xdg, ['login', '--url', srv.base, '--json'], {}, '\n');
    assert.equal(empty.code, 2);

    const { accountId, key } = await srv.s.account({ credits: 2 });
    assert.equal((await cli(xdg, ['login', '--url', srv.base], {}, key)).code, 0);
    const mcp = await srv.s.key(accountId, { kind: 'mcp' });
    const refused = await cli(xdg, ['login', '--url', srv.base, '--json'], {}, mcp);
    assert.equal(refused.code, 3);
    assert.equal(refused.json.error, 'mcp_token_not_allowed');
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).profiles.default.api_key, key, 'the earlier profile is kept');
  });

  test('a valid key without runs:read is saved, says what it cannot do and exits 0; doctor accepts it', async () => {
    const { accountId } = await srv.s.account({ credits: 3 });
    const narrow = await srv.s.key(accountId, { scopes: ['visibility:runs:create'] });
    const xdg = configHome();
    const file = join(xdg, 'sightline', 'config.json');
    const login = await cli(xdg, ['login', '--url', srv.base, '--json'], {}, narrow);
    assert.equal(login.code, 0, login.out + login.err);
    assert.equal(login.json.available_credits, null);
    assert.equal(login.json.missing_scopes.length, 1);
    assert.equal(login.json.missing_scopes[0].scope, 'runs:read');
    assert.ok(login.json.missing_scopes[0].commands.includes('usage') && login.json.missing_scopes[0].commands.includes('visibility status'));
    assert.ok(!login.json.missing_scopes[0].commands.includes('visibility run'), 'a command the key may use is not listed');
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).profiles.default.api_key, narrow, 'the key is saved');
    const human = await cli(xdg, ['login', '--url', srv.base], {}, narrow);
    assert.equal(human.code, 0);
    assert.match(human.out, /logged in to .* as profile default \(credits not readable with this key\)/);
    assert.match(human.out, /the key lacks the scope runs:read; these commands will be refused: usage, /);
    assert.ok(!human.out.includes('keys create') && !human.err.includes('keys create'), 'no operator command');

    const doctor = await cli(xdg, ['doctor', '--json']);
    assert.equal(doctor.code, 0, doctor.out);
    const check = doctor.json.checks.find((c: any) => c.check === 'api_key');
    assert.equal(check.ok, true);
    assert.match(check.detail, /^accepted \(from profile default\); the key lacks the scope runs:read/);
    const text = await cli(xdg, ['doctor']);
    assert.equal(text.code, 0);
    assert.match(text.out, /^ok {3}api_key/m);
    assert.doesNotMatch(text.out, /FAIL/);

    // A refusal for a scope names the console, not an operator command.
    const usage = await cli(xdg, ['usage', '--json']);
    assert.equal(usage.code, 3);
    assert.equal(usage.json.error, 'missing_scope');
    assert.match(usage.json.hint, /console's API keys page/);
  });

  test('precedence: SIGHTLINE_API_KEY and SIGHTLINE_API_URL over the profile, --profile over SIGHTLINE_PROFILE over "default"', async () => {
    const a = await srv.s.account({ credits: 5 });
    const b = await srv.s.account({ credits: 9 });
    const xdg = configHome();
    assert.equal((await cli(xdg, ['login', '--url', srv.base, '--profile', 'a'], {}, a.key)).code, 0);
    assert.equal((await cli(xdg, ['--profile', 'b', 'login', '--url', srv.base], {}, b.key)).code, 0);
    const credits = async (args: string[], env: Record<string, string> = {}) => {
      const r = await cli(xdg, ['usage', '--json', ...args], env);
      return r.code === 0 ? r.json.credits.available_credit_units : r.code;
    };
    assert.equal(await credits([]), 3, 'no "default" profile: no key');
    assert.equal(await credits(['--profile', 'a']), '5.00');
    assert.equal(await credits([], { SIGHTLINE_PROFILE: 'b' }), '9.00');
    assert.equal(await credits(['--profile', 'a'], { SIGHTLINE_PROFILE: 'b' }), '5.00');
    assert.equal(await credits(['--profile', 'a'], { SIGHTLINE_API_KEY: b.key }), '9.00', 'the key from the environment wins');
    assert.equal(await credits(['--profile', 'a'], { SIGHTLINE_API_URL: 'http://127.0.0.1:9' }), 7, 'the URL from the environment wins');
    const explicit = join(home, 'explicit.json');
    assert.equal((await cli(xdg, ['login', '--url', srv.base, '--profile', 'a'], { SIGHTLINE_CONFIG: explicit }, a.key)).code, 0);
    assert.equal(statSync(explicit).mode & 0o777, 0o600, 'SIGHTLINE_CONFIG names the file');
    assert.deepEqual((await cli(xdg, ['logout', '--profile', 'a', '--json'])).json, { profile: 'a', removed: true });
    assert.equal(await credits(['--profile', 'a']), 3);
    assert.equal(await credits(['--profile', 'b']), '9.00', 'other profiles stay');
  });
});
