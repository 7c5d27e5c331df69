// The owner set-up of an instance with no owner: open to a client on the server's own machine,
// and from anywhere else only with the one-time set-up link `sightline serve` prints. Through the
// real server; "another machine" is a loopback request that says it was forwarded, which must
// not count as local (no traffic leaves loopback).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freshDatabaseUrl, startTestServer, type TestServer } from '../helpers/harness.ts';
import { issueSetupToken, needsOwner } from '../../src/core/accounts/users.ts';

const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
const REMOTE = { 'x-forwarded-for': '203.0.113.7' };
const PASSWORD = 'owner passphrase ok';

async function formHeaders(s: TestServer, extra: Record<string, string> = {}) {
  const first = await s.request('GET', '/console/api/session', { headers: extra });
  return { ...extra, cookie: String(first.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': first.json().csrf_token as string };
}

const setup = async (s: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  s.request('POST', '/console/api/setup', { body: { password: PASSWORD, ...body }, headers: await formHeaders(s, headers) });

describe('owner set-up on a fresh instance', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(async () => s.close());

  test('forwarded (not local) without a link, with a wrong link, or with Forwarded/X-Real-IP: setup_token_required, no owner', async () => {
    const without = await setup(s, { email: 'intruder@example.com' }, REMOTE);
    assert.equal(without.statusCode, 403, without.body);
    assert.equal(without.json().detail.error, 'setup_token_required');
    assert.match(without.json().detail.message, /set-up link that `sightline serve` printed/);
    await issueSetupToken(s.runtime.core.store.db);
    const wrong = await setup(s, { email: 'intruder@example.com', setup_token: 'x'.repeat(43) }, REMOTE);
    assert.equal(wrong.statusCode, 403);
    assert.equal(wrong.json().detail.error, 'setup_token_required');
    assert.match(wrong.json().detail.message, /not valid/);
    for (const h of [{ forwarded: 'for=203.0.113.7' }, { 'x-real-ip': '203.0.113.7' }] as Record<string, string>[]) {
      const res = await setup(s, { email: 'intruder@example.com' }, h);
      assert.equal(res.json().detail.error, 'setup_token_required', JSON.stringify(h));
    }
    assert.equal(await needsOwner(s.runtime.core.store.db), true);
  });

  test('an expired link is refused', async () => {
    const db = s.runtime.core.store.db;
    const token = await issueSetupToken(db);
    await db.updateTable('auth_tokens').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('kind', '=', 'setup').execute();
    const res = await setup(s, { email: 'late@example.com', setup_token: token }, REMOTE);
    assert.equal(res.json().detail.error, 'setup_token_required');
  });

  test('a rebound name (DNS rebinding) from this machine is not local; a new link clears the ended ones', async () => {
    const rebound = await setup(s, { email: 'rebind@example.com' }, { host: 'rebind.attacker.example', origin: 'http://rebind.attacker.example' });
    assert.equal(rebound.statusCode, 403, rebound.body);
    assert.equal(rebound.json().detail.error, 'setup_token_required');
    const db = s.runtime.core.store.db;
    await issueSetupToken(db); // the expired one of the test before goes now
    const rows = await db.selectFrom('auth_tokens').select(['expires_at', 'used_at']).where('kind', '=', 'setup').execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.used_at === null && r.expires_at > new Date().toISOString()), JSON.stringify(rows));
  });

  test('the link works from another machine once; after that, every set-up is signup_closed', async () => {
    const db = s.runtime.core.store.db;
    const token = await issueSetupToken(db);
    const other = await issueSetupToken(db); // another process's start, on the same database
    const ok = await setup(s, { email: 'owner@example.com', setup_token: token }, REMOTE);
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().user.role, 'operator');
    for (const t of [token, other]) {
      const again = await setup(s, { email: 'second@example.com', setup_token: t }, REMOTE);
      assert.equal(again.statusCode, 403);
      assert.equal(again.json().detail.error, 'signup_closed');
    }
    const local = await setup(s, { email: 'third@example.com' });
    assert.equal(local.json().detail.error, 'signup_closed');
    const live = await db.selectFrom('auth_tokens').select('id').where('kind', '=', 'setup').where('used_at', 'is', null).execute();
    assert.deepEqual(live, [], 'every set-up link ended with the owner');
  });
});

describe('owner set-up behind a proxy', () => {
  /** One raw HTTP request over a real loopback socket, as a proxy on this machine would send it. */
  function raw(port: number, lines: string[], body: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write([...lines, `content-length: ${Buffer.byteLength(body)}`, '', body].join('\r\n')));
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('error', reject);
      socket.on('end', () => {
        const [head, ...rest] = data.split('\r\n\r\n');
        resolve({ status: Number(head!.split(' ')[1]), body: JSON.parse(rest.join('\r\n\r\n')) });
      });
    });
  }
  const payload = (extra: Record<string, unknown> = {}) => JSON.stringify({ email: 'owner@example.com', password: PASSWORD, ...extra });

  test("nginx's default proxy_pass (HTTP/1.0, Host 127.0.0.1:PORT, no forwarding header) is not local; a request asking for another port is not either", async () => {
    const s = await startTestServer({}, { worker: false });
    try {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (s.app.server.address() as AddressInfo).port;
      const { cookie, 'x-csrf-token': csrf } = await formHeaders(s);
      const asNginx = await raw(port, ['POST /console/api/setup HTTP/1.0', `host: 127.0.0.1:${port}`, 'connection: close', 'content-type: application/json', `cookie: ${cookie}`, `x-csrf-token: ${csrf}`], payload());
      assert.equal(asNginx.status, 403, JSON.stringify(asNginx.body));
      assert.equal(asNginx.body.detail.error, 'setup_token_required');
      const otherPort = await raw(port, ['POST /console/api/setup HTTP/1.1', 'host: localhost', 'connection: close', 'content-type: application/json', `cookie: ${cookie}`, `x-csrf-token: ${csrf}`], payload());
      assert.equal(otherPort.body.detail.error, 'setup_token_required', 'Host: localhost (port 80) is not this server on its port');
      assert.equal(await needsOwner(s.runtime.core.store.db), true);
      // The browser on this machine, straight to the port (HTTP/1.1, Host with the port): local.
      const local = await raw(port, ['POST /console/api/setup HTTP/1.1', `host: localhost:${port}`, 'connection: close', 'content-type: application/json', `cookie: ${cookie}`, `x-csrf-token: ${csrf}`], payload());
      assert.equal(local.status, 200, JSON.stringify(local.body));
    } finally {
      await s.close();
    }
  });

  for (const env of [{ SIGHTLINE_PUBLIC_URL: 'http://console.example' }, { SIGHTLINE_TRUST_PROXY: '127.0.0.1' }] as Record<string, string>[]) {
    test(`${Object.keys(env)[0]} set: no request is local, not even one straight to the port; the link works`, async () => {
      const s = await startTestServer(env, { worker: false });
      try {
        await s.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (s.app.server.address() as AddressInfo).port;
        const { cookie, 'x-csrf-token': csrf } = await formHeaders(s);
        const head = ['POST /console/api/setup HTTP/1.1', `host: 127.0.0.1:${port}`, 'connection: close', 'content-type: application/json', `cookie: ${cookie}`, `x-csrf-token: ${csrf}`];
        const direct = await raw(port, head, payload());
        assert.equal(direct.status, 403, JSON.stringify(direct.body));
        assert.equal(direct.body.detail.error, 'setup_token_required');
        assert.match(direct.body.detail.message, /behind a proxy \(SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY is set\).*set-up link/);
        const forwarded = await setup(s, { email: 'owner@example.com' }, { 'x-forwarded-for': '127.0.0.1' });
        assert.equal(forwarded.json().detail.error, 'setup_token_required', 'a proxy resolving the client to loopback does not count either');
        const token = await issueSetupToken(s.runtime.core.store.db);
        const withLink = await raw(port, head, payload({ setup_token: token }));
        assert.equal(withLink.status, 200, JSON.stringify(withLink.body));
      } finally {
        await s.close();
      }
    });
  }
});

function serveWith(dbUrl: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-worker'], { env: { ...process.env, DATABASE_URL: dbUrl, HOST: '127.0.0.1', SIGHTLINE_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const waitFor = async (re: RegExp) => {
    const deadline = Date.now() + 30_000;
    while (!re.test(out)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${re}: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return re.exec(out)!;
  };
  return { child, exited, waitFor, output: () => out };
}

describe('`sightline serve` on an instance with no owner', () => {
  test('behind a proxy (SIGHTLINE_TRUST_PROXY) it says the link is needed from everywhere; a request from this machine needs it too', async () => {
    const db = await freshDatabaseUrl();
    try {
      const proc = serveWith(db.url, { SIGHTLINE_TRUST_PROXY: '127.0.0.1' });
      try {
        const [, port, token] = await proc.waitFor(/http:\/\/(?:localhost|127\.0\.0\.1):(\d+)\/console#setup=([A-Za-z0-9_-]{43})/);
        assert.match(proc.output(), /runs behind a proxy .* needs this one-time set-up link, from any machine/);
        assert.doesNotMatch(proc.output(), /On this machine, open/);
        const base = `http://127.0.0.1:${port}`;
        const session = await fetch(`${base}/console/api/session`);
        const headers = { 'content-type': 'application/json', cookie: String(session.headers.get('set-cookie')).split(';')[0]!, 'x-csrf-token': (await session.json()).csrf_token };
        const refused = await fetch(`${base}/console/api/setup`, { method: 'POST', headers, body: JSON.stringify({ email: 'owner@example.com', password: PASSWORD }) });
        assert.equal(refused.status, 403);
        assert.equal((await refused.json()).detail.error, 'setup_token_required');
        const ok = await fetch(`${base}/console/api/setup`, { method: 'POST', headers, body: JSON.stringify({ email: 'owner@example.com', password: PASSWORD, setup_token: token }) });
        assert.equal(ok.status, 200, await ok.clone().text());
      } finally {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
    } finally {
      await db.drop();
    }
  });

  test('prints a set-up link that works from another machine, and no link once the owner exists', async () => {
    const db = await freshDatabaseUrl();
    const serve = () => serveWith(db.url);
    try {
      const first = serve();
      const [, port, token] = await first.waitFor(/http:\/\/(?:localhost|127\.0\.0\.1):(\d+)\/console#setup=([A-Za-z0-9_-]{43})/);
      assert.match(first.output(), /On this machine, open http:\/\/(?:localhost|127\.0\.0\.1):\d+\/console/);
      const base = `http://127.0.0.1:${port}`;
      const session = await fetch(`${base}/console/api/session`, { headers: REMOTE });
      const headers = { ...REMOTE, 'content-type': 'application/json', cookie: String(session.headers.get('set-cookie')).split(';')[0]!, 'x-csrf-token': (await session.json()).csrf_token };
      const refused = await fetch(`${base}/console/api/setup`, { method: 'POST', headers, body: JSON.stringify({ email: 'owner@example.com', password: PASSWORD }) });
      assert.equal(refused.status, 403);
      const ok = await fetch(`${base}/console/api/setup`, { method: 'POST', headers, body: JSON.stringify({ email: 'owner@example.com', password: PASSWORD, setup_token: token }) });
      assert.equal(ok.status, 200, await ok.clone().text());
      first.child.kill('SIGTERM');
      await first.exited;

      const second = serve();
      await second.waitFor(/Server listening at/);
      await new Promise((r) => setTimeout(r, 500));
      second.child.kill('SIGTERM');
      await second.exited;
      assert.doesNotMatch(second.output(), /setup=|No owner yet/);
    } finally {
      await db.drop();
    }
  });
});
