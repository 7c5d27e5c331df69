// checkProviderKeys on the cases the CLI test does not reach: a provider that accepts the
// connection and never answers (the call's timeout makes it unreachable), a 200 that is not the
// provider's reply (a wrong base URL pointing at some other server), a 400 that is not Gemini's
// key refusal, and half a DataForSEO credential. Loopback only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { checkProviderKeys, checksFailed } from '../../src/platforms/keycheck.ts';

describe('checkProviderKeys', () => {
  let server: Server;
  let origin: string;
  const held = new Set<ServerResponse>();
  before(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/hang/')) {
        held.add(res); // never answered
        return;
      }
      if (req.url?.startsWith('/html/')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>a login page</html>');
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  test('no answer in time: unreachable; a 200 page that is not the reply and an unrelated 400: unexpected', async () => {
    const checks = await checkProviderKeys(
      {
        OPENAI_API_KEY: 'sk-hanging-key-0123456789',
        OPENAI_BASE_URL: `${origin}/hang/v1`,
        XAI_API_KEY: 'xai-html-key-0123456789',
        XAI_BASE_URL: `${origin}/html/v1`,
        GEMINI_API_KEY: 'gemini-key-0123456789',
        GEMINI_BASE_URL: `${origin}/v1beta`,
        DATAFORSEO_LOGIN: 'tester@example.com',
      },
      { timeoutMs: 300 },
    );
    const c = Object.fromEntries(checks.map((x) => [x.name, x]));
    assert.equal(c.openai!.status, 'unreachable');
    assert.match(c.openai!.detail!, /no answer within/);
    assert.deepEqual([c.grok!.status, c.grok!.http_status], ['unexpected', 200]);
    assert.deepEqual([c.gemini!.status, c.gemini!.http_status], ['unexpected', 400]);
    assert.equal(c.dataforseo!.status, 'key_refused');
    assert.match(c.dataforseo!.detail!, /only DATAFORSEO_LOGIN is set/);
    assert.equal(checksFailed(checks), true);
    assert.ok(!JSON.stringify(checks).includes('0123456789'), 'no key in the results');
  });

  test('only Perplexity configured: not checkable, nothing sent, not a failure', async () => {
    const checks = await checkProviderKeys({ PERPLEXITY_API_KEY: 'pplx-key-0123456789', PERPLEXITY_BASE_URL: `${origin}/hang` }, { timeoutMs: 300 });
    assert.equal(checks.find((x) => x.name === 'perplexity')!.status, 'not_checkable');
    assert.equal(held.size, 1, 'only the earlier hanging call reached the server');
    assert.equal(checksFailed(checks), false);
  });
});
