// Operations: `serve` on a taken port exits 1 before starting its worker; SIGTERM shuts down
// gracefully and says so; every request is one structured log line that never holds a key;
// GET /metrics is Prometheus text behind its token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freshDatabaseUrl, startTestServer, type TestServer } from '../helpers/harness.ts';

const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, SIGHTLINE_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

async function waitFor(cond: () => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('serve as a process', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  before(async () => {
    db = await freshDatabaseUrl();
  });
  after(async () => db.drop());

  test('a port that is taken: exit code 1, no worker started', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    const p = start(['serve', '--port', String(port)], { DATABASE_URL: db.url, HOST: '127.0.0.1' });
    const code = await p.exited;
    blocker.close();
    assert.equal(code, 1, p.output());
    assert.match(p.output(), /cannot listen/);
    assert.doesNotMatch(p.output(), /"msg":"job /);
  });

  test('SIGTERM the moment the port is bound (worker and metrics still starting): still graceful, exit 0', async () => {
    const p = start(['serve', '--port', '0'], { DATABASE_URL: db.url, HOST: '127.0.0.1' });
    await waitFor(() => /Server listening at/.test(p.output()), 30_000);
    p.child.kill('SIGTERM');
    assert.equal(await p.exited, 0, p.output());
    assert.match(p.output(), /shutdown complete/);
  });

  test('SIGTERM: graceful shutdown, logged; request lines carry route, status and account, never the key', async () => {
    const p = start(['serve', '--port', '0'], { DATABASE_URL: db.url, HOST: '127.0.0.1' });
    await waitFor(() => /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.test(p.output()));
    const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(p.output())![1];
    const secret = 'svc_api_live_' + 'Z'.repeat(40);
    const res = await fetch(`http://127.0.0.1:${port}/v1/usage`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(res.status, 401);
    await waitFor(() => /"msg":"request"/.test(p.output()));
    p.child.kill('SIGTERM');
    assert.equal(await p.exited, 0, p.output());
    const lines = p.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const request = lines.find((l) => l.msg === 'request');
    assert.equal(request.route, '/v1/usage');
    assert.equal(request.status, 401);
    assert.equal(request.method, 'GET');
    assert.ok(typeof request.ms === 'number' && request.req_id.startsWith('req_'));
    assert.ok(!p.output().includes(secret), 'the key is never logged');
    assert.ok(lines.some((l) => l.msg.startsWith('shutdown started') && l.signal === 'SIGTERM'));
    assert.ok(lines.some((l) => l.msg === 'shutdown complete'));
  });

  test('request lines carry the client address: the socket peer, or X-Forwarded-For only from a trusted proxy', async () => {
    for (const [trust, expected] of [
      ['', '127.0.0.1'],
      ['127.0.0.1', '203.0.113.7'],
    ] as const) {
      const p = start(['serve', '--port', '0', '--no-worker'], { DATABASE_URL: db.url, HOST: '127.0.0.1', SIGHTLINE_TRUST_PROXY: trust });
      await waitFor(() => /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.test(p.output()));
      const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(p.output())![1];
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      assert.equal(res.status, 200);
      await waitFor(() => /"msg":"request"/.test(p.output()));
      p.child.kill('SIGTERM');
      assert.equal(await p.exited, 0, p.output());
      const request = p
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .find((l) => l.msg === 'request');
      assert.equal(request.route, '/healthz');
      assert.equal(request.ip, expected, `SIGHTLINE_TRUST_PROXY=${JSON.stringify(trust)}`);
    }
  });
});

/**
 * POST /v1/visibility/runs whose body arrives in two halves, `gapMs` apart (onFirstHalf sends the
 * signal a moment later, once the server surely has the request's headers): resolves to the status
 * and body it was answered with (or the socket error, when the connection was cut unanswered).
 */
function slowPost(port: string, key: string, onFirstHalf: () => void, gapMs: number): Promise<{ status: number; body: string } | { error: string }> {
  const body = Buffer.from(JSON.stringify({ url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'] }));
  const half = Math.floor(body.length / 2);
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/visibility/runs', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': body.length } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', (err) => resolve({ error: err.message }));
    req.write(body.subarray(0, half), () => {
      onFirstHalf();
      setTimeout(() => req.end(body.subarray(half)), gapMs);
    });
  });
}

describe('SIGTERM with a request in flight (serve --no-worker)', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let key: string;
  const env = () => ({ DATABASE_URL: db.url, HOST: '127.0.0.1', SIGHTLINE_SHUTDOWN_GRACE_MS: '1500', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  before(async () => {
    db = await freshDatabaseUrl();
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'accounts', 'create', '--email', 'ops@example.com', '--credits', '100', '--json'], {
      env: { ...process.env, ...env() },
    });
    key = JSON.parse(stdout).api_key;
  });
  after(async () => db.drop());

  async function serve() {
    const p = start(['serve', '--no-worker', '--port', '0'], env());
    await waitFor(() => /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.test(p.output()));
    return { p, port: /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(p.output())![1]! };
  }

  test('a body that finishes within the grace period: answered as usual, then the database closes; exit 0', async () => {
    const { p, port } = await serve();
    const answer = await slowPost(port, key, () => setTimeout(() => p.child.kill('SIGTERM'), 300), 900);
    assert.equal(await p.exited, 0, p.output());
    assert.ok('status' in answer, `answered: ${JSON.stringify(answer)}`);
    assert.ok(answer.status === 200 || answer.status === 202, answer.body);
    assert.match(p.output(), /shutdown complete/);
    assert.doesNotMatch(p.output(), /internal_error|driver has already been destroyed|did not finish in time/);
  });

  test('a body still arriving when the grace period ends: 503 shutting_down (never a 500); exit 0', async () => {
    const { p, port } = await serve();
    const answer = await slowPost(port, key, () => setTimeout(() => p.child.kill('SIGTERM'), 300), 4000);
    assert.equal(await p.exited, 0, p.output());
    assert.ok('status' in answer, `answered: ${JSON.stringify(answer)}`);
    assert.equal(answer.status, 503, answer.body);
    assert.equal(JSON.parse(answer.body).detail.error, 'shutting_down');
    assert.match(p.output(), /grace period over/);
    assert.match(p.output(), /shutdown complete/);
    assert.doesNotMatch(p.output(), /internal_error|driver has already been destroyed|did not finish in time/);
  });
});

describe('GET /metrics', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_METRICS_TOKEN: 'metrics-secret-0123456789abcdef0123' });
  });
  after(async () => s.close());

  test('Prometheus text behind its token: requests per route, queue, credits, job outcomes', async () => {
    const { key } = await s.account({ credits: 10 });
    const run = await s.request('POST', '/v1/visibility/runs', {
      key,
      body: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['q'], platforms: ['openai'] },
    });
    await s.waitForRun(key, run.json().run_id);
    assert.equal((await s.request('GET', '/metrics')).statusCode, 401);
    assert.equal((await s.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong-secret!' } })).statusCode, 401);
    const res = await s.request('GET', '/metrics', { headers: { authorization: 'Bearer metrics-secret-0123456789abcdef0123' } });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/plain/);
    const text = res.body;
    assert.match(text, /sightline_http_requests_total\{method="POST",route="\/v1\/visibility\/runs",status="200"\} \d+/);
    assert.match(text, /sightline_http_request_duration_seconds_bucket/);
    assert.match(text, /sightline_jobs_total\{kind="visibility.probe",lane="openai",outcome="done"\} \d+/);
    assert.match(text, /sightline_provider_call_duration_seconds_count\{platform="openai",outcome="ok"\} \d+/);
    assert.match(text, /sightline_credits_hundredths\{state="settled"\} \d+/);
    assert.match(text, /process_resident_memory_bytes/);
  });
});
