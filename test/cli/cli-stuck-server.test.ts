// The CLI against a server that takes a request and never answers (a stuck server or proxy): a
// command gives up after SIGHTLINE_TIMEOUT seconds with exit 7 and says what to do, and Ctrl-C
// stops a `logs ingest` upload at once instead of being swallowed, and a `--watch` saying which run
// goes on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.ts';

describe('CLI against a server that never answers', () => {
  let server: Server;
  let base = '';
  let dir = '';
  /** Resolves the next time a request reaches the stuck server. */
  let arrived: () => void = () => {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sightline-stuck-'));
    server = createServer((req, res) => {
      req.resume();
      arrived();
      // An export that starts, then stalls: the first line, then nothing.
      if (req.url?.includes('/export')) {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write('run_id,probe_id\n');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(join(dir, 'access.log'), '1.2.3.4 - - [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"\n');
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const env = { SIGHTLINE_API_KEY: 'svc_api_live_x' };

  test('a silent server ends a command after SIGHTLINE_TIMEOUT seconds: exit 7, what to do, one JSON document', async () => {
    const cli = (...args: string[]) =>
      runCli(args, { env: { ...env, SIGHTLINE_API_URL: base, SIGHTLINE_CONFIG: join(dir, 'config.json'), SIGHTLINE_TIMEOUT: '1' } });
    const read = await cli('usage', '--json');
    assert.equal(read.code, 7, read.err);
    assert.equal(read.json.error, 'timeout');
    assert.match(read.err, /no answer from the server in 1 s \(.*SIGHTLINE_TIMEOUT=SECONDS/);
    assert.doesNotMatch(read.err, /may have carried/, 'a read changed nothing');

    const queued = await cli('visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', 'best anvils', '--platform', 'openai');
    assert.equal(queued.code, 7, queued.err);
    assert.match(queued.err, /may have carried the request out all the same.*--idempotency-key/, 'a create abandoned may still have happened');

    const stalled = await cli('visibility', 'export', 'vis_1', '--format', 'csv');
    assert.equal(stalled.code, 7, stalled.err);
    assert.equal(stalled.out, 'run_id,probe_id\n', 'what came before the silence was written');
    assert.match(stalled.err, /no answer from the server in 1 s/);

    const upload = await cli('logs', 'ingest', join(dir, 'access.log'), '--site', 'site_1');
    assert.equal(upload.code, 7, upload.err);

    const doctor = await cli('doctor', '--json');
    assert.equal(doctor.code, 7);
    assert.match(doctor.json.checks[0].detail, /no answer from the server in 1 s/);

    const bad = await runCli(['usage'], { env: { ...env, SIGHTLINE_API_URL: base, SIGHTLINE_CONFIG: join(dir, 'config.json'), SIGHTLINE_TIMEOUT: 'soon' } });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /SIGHTLINE_TIMEOUT takes seconds/);
  });

  test('Ctrl-C stops a logs ingest upload (exit 130), not only a --follow', async () => {
    const file = join(dir, 'access.log');
    const child = spawn(process.execPath, [BIN, 'logs', 'ingest', file, '--site', 'site_1'], {
      env: { ...process.env, ...env, SIGHTLINE_API_URL: base, SIGHTLINE_CONFIG: join(dir, 'config.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    await new Promise<void>((resolve) => (arrived = resolve));
    child.kill('SIGINT');
    // A guard, not a measure: a CLI that swallowed the signal would wait on the server for ever.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const end = await exited;
    clearTimeout(guard);
    assert.ok(end.signal === 'SIGINT' || end.code === 130, `ended by the signal, not waiting for the answer: ${JSON.stringify(end)}`);
  });
});

describe('CLI watching a run that does not end', () => {
  let server: Server;
  let base = '';
  let polled: () => void = () => {};
  const run = {
    run_id: 'vis_watched',
    status: 'running',
    probe_count: 2,
    queued_probe_count: 2,
    skipped_probe_count: 0,
    reserved_credits: '4.00',
    skipped_reason: null,
    probe_counts: { succeeded: 1 },
    billing: { settled_credits: '2.00', reserved_credits: '4.00' },
  };
  before(async () => {
    // A stand-in server: the run is queued, then running for as long as it is asked.
    server = createServer((req, res) => {
      req.resume();
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET') polled();
      res.end(JSON.stringify(req.method === 'POST' ? { ...run, status: 'queued' } : run));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('Ctrl-C during --watch exits 130 and names the run that goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sightline-watch-'));
    const child = spawn(process.execPath, [BIN, 'visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', 'best anvils', '--platform', 'openai', '--watch'], {
      env: { ...process.env, SIGHTLINE_API_URL: base, SIGHTLINE_API_KEY: 'svc_api_live_x', SIGHTLINE_CONFIG: join(dir, 'config.json'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => (polled = resolve));
    child.kill('SIGINT');
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await exited;
    clearTimeout(guard);
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 130, err);
    assert.match(err, /stopped watching run vis_watched; it goes on \(`sightline visibility status vis_watched`, or `sightline visibility cancel vis_watched`\)/);
  });
});
