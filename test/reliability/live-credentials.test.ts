// An operator switching to live mode learns from `sightline serve` itself which platforms lack
// credentials (and what to set), and a key the provider refuses is logged once, naming the
// platform and the variable to fix, while the users' probes fail uncharged. A real serve process
// on its own database, fake providers at the HTTP boundary. The key check at start is off here:
// what is known comes from the probes (a refusal also sets sightline_provider_key_status).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Fleet, type FleetProcess } from '../helpers/processes.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { runCli } from '../helpers/cli.ts';
import { startFakeProvider, type FakeProvider } from '../fakes/providers/index.ts';

const WRONG_KEY = 'sk-ant-api03-wrong-key-0123456789abcdef';
const METRICS_TOKEN = 'm'.repeat(40);

describe('live mode: misconfigured platforms are named to the operator', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let openai: FakeProvider;
  let claude: FakeProvider;
  let deepseek: FakeProvider;
  let fleet: Fleet;
  let serve: FleetProcess;
  let env: Record<string, string>;
  before(async () => {
    db = await freshDatabaseUrl();
    openai = await startFakeProvider('openai');
    claude = await startFakeProvider('claude');
    deepseek = await startFakeProvider('deepseek');
    env = {
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      SIGHTLINE_LOG_LEVEL: 'info',
      SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
      SIGHTLINE_PLATFORM_ENGINE: 'live',
      SIGHTLINE_JUDGE_MODEL: 'openai:gpt-4o-mini',
      SIGHTLINE_CHECK_KEYS_AT_START: 'off',
      SIGHTLINE_METRICS_TOKEN: METRICS_TOKEN,
      ...openai.env,
      ANTHROPIC_API_KEY: WRONG_KEY,
      ANTHROPIC_BASE_URL: claude.baseUrl,
      // A base URL with a wrong path: every request is the provider's 404.
      DEEPSEEK_API_KEY: deepseek.apiKey,
      DEEPSEEK_BASE_URL: `${deepseek.origin}/api/v9`,
    };
    for (const k of ['GEMINI_API_KEY', 'PERPLEXITY_API_KEY', 'XAI_API_KEY', 'SERPAPI_API_KEY', 'DATAFORSEO_LOGIN', 'DATAFORSEO_PASSWORD']) env[k] = '';
    fleet = new Fleet(env);
    serve = await fleet.startApi('serve', { worker: true });
  });
  after(async () => {
    await fleet.stopAll();
    await Promise.all([openai.close(), claude.close(), deepseek.close()]);
    await db.drop();
  });

  test('the start says which platforms are configured and what each unconfigured one needs', async () => {
    const deadline = Date.now() + 30_000;
    while (!/serve started \(/.test(serve.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const out = serve.output();
    assert.match(out, /platforms \(live\): openai, claude, deepseek configured/);
    assert.match(out, /no credentials, refused as platform_unavailable: perplexity \(PERPLEXITY_API_KEY\), gemini \(GEMINI_API_KEY\), grok \(XAI_API_KEY\), google_ai_overview \(SERPAPI_API_KEY or DATAFORSEO_LOGIN\/DATAFORSEO_PASSWORD\), google_ai_mode \(SERPAPI_API_KEY or DATAFORSEO_LOGIN\/DATAFORSEO_PASSWORD\), copilot \(SERPAPI_API_KEY\), chatgpt_app \(DATAFORSEO_LOGIN\/DATAFORSEO_PASSWORD\)/);
    assert.match(out, /judge: openai:gpt-4o-mini/);
    const started = out.split('\n').find((l) => l.includes('"msg":"serve started"'));
    assert.ok(started, out);
    const line = JSON.parse(started);
    assert.equal(line.engine, 'live');
    assert.deepEqual(line.platforms, ['openai', 'claude', 'deepseek']);
    assert.ok(line.platforms_without_credentials.includes('gemini'));
  });

  async function runOn(platform: string, key: string) {
    const base = `http://127.0.0.1:${serve.port}`;
    const res = await fetch(`${base}/v1/visibility/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://acme.example/', target_entity: 'Acme', prompts: ['best anvils', 'anvil makers', 'cheap anvils'], platforms: [platform] }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const runId = (await res.json()).run_id as string;
    for (;;) {
      const run = await (await fetch(`${base}/v1/visibility/runs/${runId}?include_probes=true`, { headers: { authorization: `Bearer ${key}` } })).json();
      if (!['queued', 'running'].includes(run.status)) return run;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  test('a base URL without its path: probes errored provider_not_found, one log line naming what to check', async () => {
    const created = await runCli(['accounts', 'create', '--email', 'dev@example.com', '--credits', '10', '--json'], { env });
    assert.equal(created.code, 0, created.err);
    const run = await runOn('deepseek', created.json.api_key);
    assert.equal(run.status, 'failed', JSON.stringify(run));
    assert.equal(run.billing.settled_credits, '0.00');
    for (const p of run.probes) assert.equal(p.error.code, 'provider_not_found');
    const lines = serve.output().split('\n').filter((l) => l.includes('"msg":"provider does not know the endpoint or model'));
    assert.equal(lines.length, 1, serve.output());
    const line = JSON.parse(lines[0]!);
    assert.equal(line.platform, 'deepseek');
    assert.equal(line.check, 'DEEPSEEK_BASE_URL and the model id "deepseek-chat"');
  });

  test('a refused key: probes errored and uncharged, one log line naming the platform and the variable', async () => {
    const created = await runCli(['accounts', 'create', '--email', 'op@example.com', '--credits', '50', '--json'], { env });
    assert.equal(created.code, 0, created.err);
    const key = created.json.api_key as string;
    const base = `http://127.0.0.1:${serve.port}`;
    const run = await runOn('claude', key);
    assert.equal(run.status, 'failed', JSON.stringify(run));
    assert.equal(run.billing.settled_credits, '0.00');
    for (const p of run.probes) assert.equal(p.error.code, 'provider_auth_failed');
    const usage = await (await fetch(`${base}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
    assert.equal(usage.credits.available_credit_units, '50.00');

    const refused = serve.output().split('\n').filter((l) => l.includes('"msg":"provider refused the credentials'));
    assert.equal(refused.length, 1, serve.output());
    const line = JSON.parse(refused[0]!);
    assert.equal(line.level, 50);
    assert.equal(line.platform, 'claude');
    assert.equal(line.check, 'ANTHROPIC_API_KEY');
    assert.equal(line.http_status, 401);
    assert.match(line.msg, /claude fails until ANTHROPIC_API_KEY is fixed/);
    assert.ok(!serve.output().includes(WRONG_KEY), 'the refused key is never logged');
    // The metric an operator alerts on says it too, with no check at start.
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    assert.match(metrics, /sightline_provider_key_status\{provider="claude",status="key_refused"\} 1/);
    assert.doesNotMatch(serve.output(), /provider key check/);

    // A user's `doctor` lists what the server can ask, and what it cannot.
    const doctor = await runCli(['doctor', '--json'], { env: { SIGHTLINE_API_URL: base, SIGHTLINE_API_KEY: key } });
    assert.equal(doctor.code, 0, doctor.out);
    const platforms = doctor.json.checks.find((c: any) => c.check === 'platforms');
    assert.match(platforms.detail, /^live: openai, claude, deepseek available; not configured on the server: perplexity, gemini, grok, google_ai_overview/);
  });
});
