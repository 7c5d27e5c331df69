// `sightline platforms check` through the real bin against local fakes of the providers (loopback
// only): each fake answers its provider's free listing call in the provider's wire format and a
// wrong key the way that provider refuses it (401, Gemini's 400 API_KEY_INVALID, DataForSEO's
// 40100). Covers ok, refused, an unknown endpoint (404), an unreachable provider (a closed port),
// not configured, and that no key ever shows in what the command prints.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { runCli } from '../helpers/cli.ts';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';
import { startFakeDataForSeo, startFakeSerpApi, SERPAPI_TEST_KEY, DATAFORSEO_TEST_PASSWORD, type FakeConsumerProvider } from '../fakes/providers/consumer.ts';

const API = ['openai', 'perplexity', 'gemini', 'grok', 'claude', 'deepseek'] as const;

/** Every credential variable unset, so the machine's own environment never leaks into a case. */
const CLEAR: Record<string, undefined> = Object.fromEntries(
  ['OPENAI', 'PERPLEXITY', 'GEMINI', 'XAI', 'ANTHROPIC', 'DEEPSEEK', 'SERPAPI']
    .flatMap((p) => [`${p}_API_KEY`, `${p}_BASE_URL`])
    .concat(['DATAFORSEO_LOGIN', 'DATAFORSEO_PASSWORD', 'DATAFORSEO_BASE_URL', 'SIGHTLINE_JUDGE_MODEL', 'SIGHTLINE_PLATFORM_ENGINE'])
    .map((k) => [k, undefined]),
);

const check = (env: Record<string, string | undefined>, json = true) =>
  runCli(['platforms', 'check', ...(json ? ['--json'] : [])], { env: { ...CLEAR, DATABASE_URL: 'sqlite::memory:', ...env } });

const byName = (json: { checks: Array<{ name: string }> }) => Object.fromEntries(json.checks.map((c) => [c.name, c])) as Record<string, any>;

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('sightline platforms check', () => {
  const fakes = {} as Record<(typeof API)[number], FakeProvider>;
  let serpapi: FakeConsumerProvider;
  let dataforseo: FakeConsumerProvider;
  let env: Record<string, string>;
  before(async () => {
    for (const p of API) fakes[p] = await startFakeProvider(p);
    serpapi = await startFakeSerpApi();
    dataforseo = await startFakeDataForSeo();
    env = Object.assign({}, ...Object.values(fakes).map((f) => f.env), serpapi.env, dataforseo.env);
  });
  after(async () => {
    await Promise.all([...Object.values(fakes).map((f) => f.close()), serpapi.close(), dataforseo.close()]);
  });

  test('every configured key accepted: ok, Perplexity not checkable, the judge through its platform, exit 0', async () => {
    const res = await check({ ...env, SIGHTLINE_JUDGE_MODEL: 'claude:claude-sonnet-4-5', SIGHTLINE_PLATFORM_ENGINE: 'live' });
    assert.equal(res.code, 0, res.err + res.out);
    assert.equal(res.json.ok, true);
    assert.equal(res.json.engine, 'live');
    const c = byName(res.json);
    for (const name of ['openai', 'gemini', 'grok', 'claude', 'deepseek', 'serpapi', 'dataforseo'])
      assert.equal(c[name].status, 'ok', `${name}: ${JSON.stringify(c[name])}`);
    assert.equal(c.perplexity.status, 'not_checkable');
    assert.equal(fakes.perplexity.requests.length, 0, 'nothing billable is sent to Perplexity');
    assert.equal(c.judge.status, 'ok');
    assert.match(c.judge.detail, /claude:claude-sonnet-4-5/);
    // Each provider was asked its listing, authenticated the way it wants.
    assert.equal(c.openai.url, `${fakes.openai.baseUrl}/models`);
    const claudeReq = fakes.claude.requests.at(-1)!;
    assert.deepEqual([claudeReq.method, claudeReq.path, claudeReq.headers['anthropic-version']], ['GET', '/v1/models', '2023-06-01']);
    assert.equal(fakes.gemini.requests.at(-1)!.headers['x-goog-api-key'], fakes.gemini.apiKey);
    assert.equal(fakes.deepseek.requests.at(-1)!.path, '/models');
    assert.equal(serpapi.requests.at(-1)!.path, '/account.json');
    assert.equal(dataforseo.requests.at(-1)!.path, '/v3/appendix/user_data');
    // The SerpApi key travels in the query string: the URL shown leaves it out.
    assert.equal(c.serpapi.url, `${serpapi.origin}/account.json`);
    assert.ok(!res.out.includes(SERPAPI_TEST_KEY));
  });

  test('wrong keys: refused with the variable to fix, exit 1, and no key in the output', async () => {
    const wrong = {
      ...env,
      OPENAI_API_KEY: 'sk-wrong-openai-key-0123456789',
      GEMINI_API_KEY: 'wrong-gemini-key-0123456789',
      ANTHROPIC_API_KEY: 'wrong-anthropic-key-0123456789',
      SERPAPI_API_KEY: 'wrong-serpapi-key-0123456789',
      DATAFORSEO_PASSWORD: 'wrong-dfs-password-0123456789',
    };
    for (const json of [true, false]) {
      const res = await check(wrong, json);
      assert.equal(res.code, 1, res.err + res.out);
      for (const secret of [
        wrong.OPENAI_API_KEY,
        wrong.GEMINI_API_KEY,
        wrong.ANTHROPIC_API_KEY,
        wrong.SERPAPI_API_KEY,
        wrong.DATAFORSEO_PASSWORD,
        DATAFORSEO_TEST_PASSWORD,
      ]) {
        assert.ok(!res.out.includes(secret) && !res.err.includes(secret), `a key was printed: ${res.out}${res.err}`);
      }
      if (!json) {
        assert.match(res.out, /openai\s+key refused/);
        assert.match(res.out, /fix OPENAI_API_KEY/);
        continue;
      }
      assert.equal(res.json.ok, false);
      const c = byName(res.json);
      assert.deepEqual([c.openai.status, c.openai.http_status], ['key_refused', 401]);
      // The fake OpenAI quotes the key back, as OpenAI does: the detail carries it redacted.
      assert.match(c.openai.detail, /\[REDACTED\]/);
      assert.match(c.openai.detail, /OPENAI_API_KEY/);
      assert.deepEqual([c.gemini.status, c.gemini.http_status], ['key_refused', 400]);
      assert.deepEqual([c.claude.status, c.claude.http_status], ['key_refused', 401]);
      assert.deepEqual([c.serpapi.status, c.serpapi.http_status], ['key_refused', 401]);
      assert.match(c.serpapi.detail, /SERPAPI_API_KEY/);
      assert.deepEqual([c.dataforseo.status, c.dataforseo.http_status], ['key_refused', 401]);
      assert.match(c.dataforseo.detail, /DATAFORSEO_LOGIN \/ DATAFORSEO_PASSWORD/);
      // The right keys still pass next to the wrong ones.
      assert.equal(c.grok.status, 'ok');
      assert.equal(c.deepseek.status, 'ok');
    }
  });

  test('a base URL without the listing path is an unknown endpoint (404); a closed port is unreachable', async () => {
    const port = await closedPort();
    const res = await check({
      OPENAI_API_KEY: fakes.openai.apiKey,
      OPENAI_BASE_URL: `${fakes.openai.origin}/wrong/v1`,
      XAI_API_KEY: fakes.grok.apiKey,
      XAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    });
    assert.equal(res.code, 1, res.err + res.out);
    const c = byName(res.json);
    assert.deepEqual([c.openai.status, c.openai.http_status], ['endpoint_unknown', 404]);
    assert.match(c.openai.detail, /OPENAI_BASE_URL/);
    assert.equal(c.grok.status, 'unreachable');
    assert.match(c.grok.detail, /ECONNREFUSED|cannot reach/);
    assert.ok(!res.out.includes(fakes.openai.apiKey) && !res.out.includes(fakes.grok.apiKey));
    assert.equal(c.claude.status, 'not_configured');
  });

  test('nothing configured: every platform listed as not configured, exit 0', async () => {
    const res = await check({});
    assert.equal(res.code, 0, res.err + res.out);
    const c = byName(res.json);
    for (const name of [...API, 'serpapi', 'dataforseo']) assert.equal(c[name].status, 'not_configured', name);
    assert.match(c.openai.detail, /OPENAI_API_KEY is not set/);
    assert.equal(c.judge, undefined);
    const human = await check({}, false);
    assert.equal(human.code, 0);
    assert.match(human.out, /grok\s+not configured\s+XAI_API_KEY is not set/);
    assert.match(human.out, /SIGHTLINE_PLATFORM_ENGINE is sandbox/);
  });

  test('a judge whose platform has no key fails the check (the server would not start)', async () => {
    const res = await check({ SIGHTLINE_JUDGE_MODEL: 'openai:gpt-4o-mini' });
    assert.equal(res.code, 1, res.err + res.out);
    assert.equal(byName(res.json).judge.status, 'not_configured');
  });
});
