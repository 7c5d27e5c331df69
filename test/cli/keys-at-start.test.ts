// The provider keys checked by `serve` and `worker` at start (src/server/key-check.ts), through the
// real bin against local fakes of the providers (loopback only): a refused key gives a warning line
// and sightline_provider_key_status says key_refused, a good key says ok, the check runs after
// listening (/readyz answers while a provider still holds its answer), and with no key, in the
// sandbox or with SIGHTLINE_CHECK_KEYS_AT_START=off no provider is called.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startKeyCheck } from '../../src/server/key-check.ts';
import { Fleet, type FleetProcess } from '../helpers/processes.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';

/** Every credential variable unset, so the machine's own environment never leaks into a case. */
const CLEAR = Object.fromEntries(
  ['OPENAI', 'PERPLEXITY', 'GEMINI', 'XAI', 'ANTHROPIC', 'DEEPSEEK', 'SERPAPI']
    .flatMap((p) => [`${p}_API_KEY`, `${p}_BASE_URL`])
    .concat(['DATAFORSEO_LOGIN', 'DATAFORSEO_PASSWORD', 'DATAFORSEO_BASE_URL', 'SIGHTLINE_JUDGE_MODEL', 'SIGHTLINE_CHECK_KEYS_AT_START', 'SIGHTLINE_KEY_CHECK_INTERVAL_HOURS'])
    .map((k) => [k, undefined]),
) as unknown as Record<string, string>;

const METRICS_TOKEN = 'k'.repeat(40);
const WRONG_OPENAI_KEY = 'sk-wrong-openai-key-at-start-0123456789';

/** The JSON log lines a process wrote so far. */
function logLines(p: FleetProcess): Array<Record<string, any>> {
  return p
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);
}

/** Waits (polling the output, no deadline of its own beyond the test's) until a log line matches. */
async function logLine(p: FleetProcess, match: (l: Record<string, any>) => boolean): Promise<Record<string, any>> {
  for (;;) {
    const found = logLines(p).find(match);
    if (found) return found;
    if (p.unexpectedExit) throw new Error(`exited:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const metrics = async (p: FleetProcess) =>
  (await fetch(`http://127.0.0.1:${p.port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

describe('provider keys checked at start', () => {
  let db: { url: string; drop: () => Promise<void> };
  let openai: FakeProvider;
  let deepseek: FakeProvider;
  const fleets: Fleet[] = [];
  const fleet = (env: Record<string, string>) => {
    const f = new Fleet({ ...CLEAR, DATABASE_URL: db.url, SIGHTLINE_METRICS_TOKEN: METRICS_TOKEN, SIGHTLINE_LOG_LEVEL: 'info', ...env });
    fleets.push(f);
    return f;
  };
  before(async () => {
    db = await freshDatabaseUrl();
    openai = await startFakeProvider('openai');
    deepseek = await startFakeProvider('deepseek');
  });
  after(async () => {
    for (const f of fleets) await f.stopAll();
    await Promise.all([openai.close(), deepseek.close()]);
    await db.drop();
  });

  test('serve: ready before the providers answer; a refused key warns and is key_refused, a good one ok', async () => {
    const held = deepseek.holdListings();
    const f = fleet({ SIGHTLINE_PLATFORM_ENGINE: 'live', ...openai.env, OPENAI_API_KEY: WRONG_OPENAI_KEY, ...deepseek.env });
    const serve = await f.startApi('serve');
    // The check is under way and DeepSeek has not answered it: the server is ready all the same.
    await held.received;
    const ready = await fetch(`http://127.0.0.1:${serve.port}/readyz`);
    assert.equal(ready.status, 200);
    assert.doesNotMatch(await metrics(serve), /sightline_provider_key_status\{provider="deepseek"/);
    assert.match(serve.output(), /keys: being checked now/);
    held.release();

    const warn = await logLine(serve, (l) => l.msg?.startsWith('provider key check: openai'));
    assert.equal(warn.level, 40);
    assert.deepEqual([warn.provider, warn.status, warn.http_status, warn.check, warn.role], ['openai', 'key_refused', 401, 'OPENAI_API_KEY', 'serve']);
    assert.match(warn.msg, /refused the key; its probes fail until OPENAI_API_KEY is fixed/);
    const info = await logLine(serve, (l) => l.msg?.startsWith('provider key check: accepted'));
    assert.equal(info.level, 30);
    assert.deepEqual(info.accepted, ['deepseek']);
    assert.ok(!logLines(serve).some((l) => l.msg?.startsWith('provider key check:') && l.provider === 'deepseek'), 'no warning for the accepted key');
    // The fake quotes the wrong key back, as OpenAI does: it never reaches the log.
    assert.ok(!serve.output().includes(WRONG_OPENAI_KEY), 'the key was logged');

    const text = await metrics(serve);
    assert.match(text, /sightline_provider_key_status\{provider="openai",status="key_refused"\} 1/);
    assert.match(text, /sightline_provider_key_status\{provider="deepseek",status="ok"\} 1/);
    assert.doesNotMatch(text, /provider="(grok|claude|gemini|perplexity|serpapi|dataforseo)"/, 'keys not configured have no series');
    assert.equal(openai.requests.filter((r) => r.path === '/v1/models').length, 1);
    await f.stopAll();
  });

  test('worker: checks the keys it holds, the same way', async () => {
    const f = fleet({ SIGHTLINE_PLATFORM_ENGINE: 'live', ...openai.env, OPENAI_API_KEY: WRONG_OPENAI_KEY });
    const worker = f.start('worker', ['worker']);
    const warn = await logLine(worker, (l) => l.msg?.startsWith('provider key check: openai'));
    assert.deepEqual([warn.role, warn.status], ['worker', 'key_refused']);
    await f.stopAll();
  });

  test('no call without a key, in the sandbox, or with SIGHTLINE_CHECK_KEYS_AT_START=off', async () => {
    const seen = () => openai.requests.length + deepseek.requests.length;
    const before = seen();
    const cases: Record<string, string>[] = [
      // Live, base URLs set but no key: nothing to check.
      { SIGHTLINE_PLATFORM_ENGINE: 'live', OPENAI_BASE_URL: openai.baseUrl, DEEPSEEK_BASE_URL: deepseek.baseUrl },
      // The sandbox (the default engine) does not use the keys.
      { ...openai.env, ...deepseek.env },
      // Switched off.
      { SIGHTLINE_PLATFORM_ENGINE: 'live', ...openai.env, ...deepseek.env, SIGHTLINE_CHECK_KEYS_AT_START: 'off' },
    ];
    for (const env of cases) {
      const f = fleet(env);
      const serve = await f.startApi('serve');
      assert.equal((await fetch(`http://127.0.0.1:${serve.port}/readyz`)).status, 200);
      assert.doesNotMatch(serve.output(), /keys: being checked now/);
      assert.doesNotMatch(await metrics(serve), /sightline_provider_key_status\{/);
      await f.stopAll();
      assert.ok(!logLines(serve).some((l) => l.msg?.startsWith('provider key check')), serve.output());
    }
    assert.equal(seen(), before, 'a provider was called');
  });

  test('SIGHTLINE_KEY_CHECK_INTERVAL_HOURS: checked again every that many hours, until stopped', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', SIGHTLINE_PLATFORM_ENGINE: 'live', ...deepseek.env, SIGHTLINE_KEY_CHECK_INTERVAL_HOURS: '2' });
    const listings = () => deepseek.requests.filter((r) => r.path === '/models').length;
    const before = listings();
    const loop = startKeyCheck(config, pino({ level: 'silent' }));
    await loop.current;
    assert.equal(listings(), before + 1, 'checked at start');
    t.mock.timers.tick(2 * 3_600_000);
    await loop.current;
    assert.equal(listings(), before + 2, 'checked again two hours later');
    loop.stop();
    t.mock.timers.tick(4 * 3_600_000);
    await loop.current;
    assert.equal(listings(), before + 2, 'not after stop');
  });

  test('the setting is on or off, anything else stops the start', () => {
    const base = { DATABASE_URL: 'sqlite::memory:' };
    assert.equal(loadConfig(base).SIGHTLINE_CHECK_KEYS_AT_START, true);
    assert.equal(loadConfig({ ...base, SIGHTLINE_CHECK_KEYS_AT_START: 'OFF' }).SIGHTLINE_CHECK_KEYS_AT_START, false);
    assert.equal(loadConfig({ ...base, SIGHTLINE_CHECK_KEYS_AT_START: 'false' }).SIGHTLINE_CHECK_KEYS_AT_START, false);
    assert.equal(loadConfig({ ...base, SIGHTLINE_CHECK_KEYS_AT_START: ' on ' }).SIGHTLINE_CHECK_KEYS_AT_START, true);
    assert.throws(() => loadConfig({ ...base, SIGHTLINE_CHECK_KEYS_AT_START: 'sometimes' }), /SIGHTLINE_CHECK_KEYS_AT_START: must be on or off/);
    assert.throws(() => loadConfig({ ...base, SIGHTLINE_KEY_CHECK_INTERVAL_HOURS: '-1' }), /SIGHTLINE_KEY_CHECK_INTERVAL_HOURS/);
  });
});
