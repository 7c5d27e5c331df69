// A server published under a path (a proxy that serves sightline at https://host/sightline/):
// `doctor` checks it at that path, as every other command's requests (the typed client) do. Before,
// it resolved /healthz against the URL and asked the host's root, failing a working set-up.
// A URL where no sightline answers (404) is one failed `url` check that says so, not a "cannot
// reach the server" about JSON that did not parse.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('CLI doctor against a server under a path prefix', () => {
  const srv = serverForCli();
  let proxy: Server;
  let prefixed = '';
  const asked: string[] = [];
  before(async () => {
    // A loopback stand-in for the proxy: /sightline/… goes to the server, anything else is 404.
    proxy = createServer((req, res) => {
      asked.push(req.url ?? '');
      if (!req.url?.startsWith('/sightline/')) {
        res.writeHead(404).end('not here');
        req.resume();
        return;
      }
      const target = new URL(req.url.slice('/sightline'.length), srv.base);
      const upstream = request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    prefixed = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/sightline`;
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  });

  test('every check passes at the prefixed URL, and no request leaves the prefix', async () => {
    const { key } = await srv.s.account({ credits: 5 });
    for (const url of [prefixed, `${prefixed}/`]) {
      asked.length = 0;
      const r = await runCli(['doctor', '--json'], { env: { SIGHTLINE_API_URL: url, SIGHTLINE_API_KEY: key } });
      assert.equal(r.code, 0, `${url}: ${r.out}${r.err}`);
      assert.ok(r.json.checks.every((c: { ok: boolean }) => c.ok), JSON.stringify(r.json.checks));
      assert.ok(asked.length > 0 && asked.every((u) => u.startsWith('/sightline/')), asked.join(' '));
    }
  });

  test('a URL where no sightline answers (the proxy without the path, a wrong path): one clear url failure', async () => {
    const { key } = await srv.s.account({ credits: 5 });
    const root = prefixed.slice(0, -'/sightline'.length);
    for (const url of [root, `${prefixed}/v1`]) {
      const r = await runCli(['doctor', '--json'], { env: { SIGHTLINE_API_URL: url, SIGHTLINE_API_KEY: key } });
      assert.equal(r.code, 7, `${url}: ${r.out}${r.err}`);
      assert.equal(r.json.checks.length, 1, JSON.stringify(r.json.checks));
      assert.equal(r.json.checks[0].check, 'url');
      assert.equal(r.json.checks[0].ok, false);
      assert.match(r.json.checks[0].detail, /answers 404 to GET \/healthz: no sightline server there; check SIGHTLINE_API_URL/);
      const human = await runCli(['doctor'], { env: { SIGHTLINE_API_URL: url, SIGHTLINE_API_KEY: key } });
      assert.equal(human.code, 7);
      assert.doesNotMatch(human.out, /cannot reach|not valid JSON/);
    }
  });
});
