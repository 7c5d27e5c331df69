// SSRF defence end to end: loopback spellings, names resolving to loopback, mixed DNS answers,
// DNS rebinding. Every URL here points at loopback (most at the fixture server's own port), so
// a defence that failed would hit the fixture server, which the tests then see in its request
// log; nothing can ever leave the machine. Injected resolvers only ever answer loopback or
// addresses that are refused before any connect.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  FetchError,
  fetchRetryable,
  fetchPage,
  parseFetchAllowlist,
  type HostResolver,
  type ResolvedAddress,
} from '../../../src/core/pages/fetch/index.ts';
import { startFixtureServer, type FixtureServer } from '../../helpers/fixture-server.ts';

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof FetchError, `not a FetchError: ${String(e)}`);
    return e.code;
  }
}

/** A resolver that answers from a script, one answer per call (the last repeats), and counts calls. */
function scriptedResolver(...answers: ResolvedAddress[][]): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (hostname: string) => {
    calls.push(hostname);
    return answers[Math.min(calls.length - 1, answers.length - 1)]!;
  };
  return Object.assign(fn, { calls });
}

const LOOPBACK: ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }];

describe('fetchPage SSRF defence', () => {
  let server: FixtureServer;

  before(async () => {
    server = await startFixtureServer({
      '/': { headers: { 'content-type': 'text/html' }, body: '<title>fixture</title>' },
      '/same-host-hop': { redirect: '/' },
    });
  });
  after(() => server.close());

  it('refuses every loopback spelling without an allowlist, never connecting', async () => {
    const spellings = [
      '127.0.0.1',
      '127.1',
      '127.0.1',
      '2130706433',
      '0x7f000001',
      '0x7f.1',
      '0177.0.0.1',
      '0177.1',
      '127.0.0.1.',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '0.0.0.0',
      '0',
      '[::]',
    ];
    for (const host of spellings) {
      for (const scheme of ['http', 'https']) {
        const url = `${scheme}://${host}:${server.port}/`;
        assert.equal(await code(fetchPage(url)), 'blocked_address', url);
      }
    }
    assert.equal(server.requests.length, 0);
  });

  it('refuses a made-up name that resolves to loopback, and allows it when allowlisted', async () => {
    const url = `http://intranet.test:${server.port}/`;
    assert.equal(await code(fetchPage(url, { lookup: scriptedResolver(LOOPBACK) })), 'blocked_address');
    assert.equal(server.requests.length, 0);

    // Allowlisted by address, by host:port, by name and by CIDR: each lets it through.
    for (const spec of ['127.0.0.1', `127.0.0.1:${server.port}`, 'intranet.test', `intranet.test:${server.port}`, '127.0.0.0/8']) {
      const page = await fetchPage(url, { allow: parseFetchAllowlist(spec), lookup: scriptedResolver(LOOPBACK) });
      assert.equal(page.body, '<title>fixture</title>', spec);
    }
    // The Host header names the host, not the pinned address.
    assert.equal(server.requests.at(-1)!.headers.host, `intranet.test:${server.port}`);
    // An allowlist for another port or name does not.
    for (const spec of ['127.0.0.1:1', 'other.test', '10.0.0.0/8']) {
      assert.equal(await code(fetchPage(url, { allow: parseFetchAllowlist(spec), lookup: scriptedResolver(LOOPBACK) })), 'blocked_address', spec);
    }
  });

  it('refuses a name when any one of its addresses is not allowed', async () => {
    // A public answer first and a loopback one after: the OS may use either, so refuse outright.
    const before = server.requests.length;
    const lookup = scriptedResolver([
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    assert.equal(await code(fetchPage(`http://mixed.test:${server.port}/`, { lookup })), 'blocked_address');
    const lookup6 = scriptedResolver([
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      { address: '::ffff:127.0.0.1', family: 6 },
    ]);
    assert.equal(await code(fetchPage(`http://mixed6.test:${server.port}/`, { lookup: lookup6 })), 'blocked_address');
    // Resolver answers that are not addresses at all are refused too.
    const junk = scriptedResolver([{ address: 'localhost', family: 4 }]);
    assert.equal(await code(fetchPage(`http://junk.test:${server.port}/`, { lookup: junk })), 'blocked_address');
    assert.equal(server.requests.length, before);
  });

  it('pins the checked address: a rebinding resolver cannot redirect the connection', async () => {
    // First answer: the allowlisted 127.0.0.1. Every later answer: 127.0.0.2, which is not
    // allowlisted and where nothing listens. If the connection re-resolved the name, it would
    // get 127.0.0.2 and fail; it succeeds only by using the pinned, checked address.
    const allow = parseFetchAllowlist('127.0.0.1');
    const lookup = scriptedResolver(LOOPBACK, [{ address: '127.0.0.2', family: 4 }]);
    const page = await fetchPage(`http://rebind.test:${server.port}/`, { allow, lookup });
    assert.equal(page.body, '<title>fixture</title>');
    assert.deepEqual(lookup.calls, ['rebind.test'], 'resolved exactly once, by the fetcher');
  });

  it('re-resolves and re-checks every redirect hop, even to the same host', async () => {
    // The first hop resolves to the allowlisted address; the redirect hop's answer has moved
    // to 127.0.0.2, which is not allowlisted: refused before connecting.
    const allow = parseFetchAllowlist('127.0.0.1');
    const lookup = scriptedResolver(LOOPBACK, [{ address: '127.0.0.2', family: 4 }]);
    const before = server.hits('/');
    assert.equal(await code(fetchPage(`http://hop.test:${server.port}/same-host-hop`, { allow, lookup })), 'blocked_address');
    assert.deepEqual(lookup.calls, ['hop.test', 'hop.test']);
    assert.equal(server.hits('/'), before, 'the refused hop was never requested');
  });

  it('allows IPv4 loopback by allowlist but still refuses ::1 not on it', async () => {
    const allow = parseFetchAllowlist(`127.0.0.1:${server.port}`);
    const ok = await fetchPage(`http://0x7f000001:${server.port}/`, { allow });
    assert.equal(ok.finalUrl, `http://127.0.0.1:${server.port}/`);
    assert.equal(await code(fetchPage(`http://[::1]:${server.port}/`, { allow })), 'blocked_address');
  });

  it('refuses a name that does not resolve exactly like a name of a private address; a failing resolver is a network error, a hanging one a timeout', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    };
    const refusal = async (url: string, lookup: HostResolver) => {
      const err = await fetchPage(url, { lookup }).catch((e: FetchError) => e);
      assert.ok(err instanceof FetchError, url);
      return { code: err.code, message: err.message, status: err.status, retryable: fetchRetryable(err.code, err.status), json: JSON.stringify(err) };
    };
    const missing = await refusal('http://nowhere.test/', failing);
    assert.equal(missing.code, 'blocked_address');
    assert.equal(missing.retryable, false, 'a name that does not exist fails the same way again');
    assert.doesNotMatch(missing.message, /getaddrinfo|ENOTFOUND/, 'no internals in the message');
    // The same answer for no address at all, and for a name of an address that is not public
    // (loopback, so a broken guard could reach nothing beyond this machine).
    assert.deepEqual(await refusal('http://nowhere.test/', async () => []), missing);
    assert.deepEqual(await refusal('http://nowhere.test/', scriptedResolver(LOOPBACK)), missing);
    // A resolver's temporary failure is a network error that may pass.
    const flaky: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN flaky.test'), { code: 'EAI_AGAIN' });
    };
    const again = (await fetchPage('http://flaky.test/', { lookup: flaky }).catch((e: FetchError) => e)) as FetchError;
    assert.equal(again.code, 'network');
    assert.equal(fetchRetryable(again.code, again.status), true);
    const hanging: HostResolver = () => new Promise(() => {});
    assert.equal(await code(fetchPage('http://slow-dns.test/', { lookup: hanging, connectTimeoutMs: 50 })), 'timeout');
  });
});
