// Access log uploads that go wrong, against a real server process (an unhandled stream error would
// end it, and the fleet says so): a gzip upload cut off mid-body, a chunked gzip body past the
// configured size, a gzip bomb and an upload past the configured unpacked size. Each time the
// process still answers /readyz, and a cut-off upload keeps only whole batches, so sending the
// file again counts every line once. Also a visibility export whose rows fail mid-export.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.ts';
import { freshDatabaseUrl } from '../helpers/harness.ts';
import { Fleet, type FleetProcess } from '../helpers/processes.ts';
import { IP, render, UA } from '../helpers/access-logs.ts';

const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_BYTES = 1024 * 1024;
const MAX_UNPACKED_BYTES = 4 * 1024 * 1024;

describe('access log uploads cut off or too large, against a real process', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let fleet: Fleet;
  let api: FleetProcess;
  let handle: DatabaseHandle;
  let key: string;
  const env = () => ({
    DATABASE_URL: db.url,
    SIGHTLINE_LOG_LEVEL: 'warn',
    SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
    SIGHTLINE_LOG_UPLOAD_MAX_BYTES: String(MAX_BYTES),
    SIGHTLINE_LOG_UPLOAD_MAX_UNPACKED_BYTES: String(MAX_UNPACKED_BYTES),
  });
  const url = (path: string) => `http://127.0.0.1:${api.port}${path}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(url(path), { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, json: await res.json() };
  };
  /** The process is alive, answers /readyz, and no process of the fleet exited unasked. */
  const stillServing = async () => {
    const ready = await fetch(url('/readyz'));
    assert.equal(ready.status, 200, await ready.text());
    assert.deepEqual(fleet.crashed().map((p) => `${p.name}: ${JSON.stringify(p.unexpectedExit)}\n${p.output()}`), []);
  };
  const newSite = async (domain: string) => {
    const res = await call('POST', '/v1/sites', { domain });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json as { id: string; domain: string };
  };
  const crawlerHits = async (siteId: string) => {
    const report = (await call('GET', `/v1/sites/${siteId}/crawlers?days=30`)).json;
    return report.crawlers.reduce((n: number, c: { hits: number }) => n + c.hits, 0) as number;
  };
  /** `count` GPTBot hits a second apart, each line different. */
  const gptLines = (domain: string, count: number) => {
    const t0 = Math.floor((Date.now() - 2 * 86_400_000) / 1000) * 1000;
    let text = '';
    for (let i = 0; i < count; i++) text += `${render.combined({ ip: IP.gptbot, time: t0 + i * 1000, method: 'GET', host: domain, path: `/p/${i}`, status: 200, ua: UA.gptbot })}\n`;
    return text;
  };
  /** A POST of `chunks` with Transfer-Encoding: chunked (no Content-Length); stops sending once answered. */
  const postChunked = (path: string, chunks: Buffer[]) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = httpRequest(url(path), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/gzip' } }, (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
        res.on('error', reject);
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      (async () => {
        for (const c of chunks) {
          if (answered) return;
          if (!req.write(c)) await new Promise((r) => req.once('drain', r));
          await sleep(1);
        }
        req.end();
      })().catch(() => {});
    });

  before(async () => {
    db = await freshDatabaseUrl();
    fleet = new Fleet(env());
    api = await fleet.startApi('api', { worker: true });
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'accounts', 'create', '--email', 'logs@example.com', '--credits', '100', '--json'], { env: { ...process.env, ...env() } });
    key = JSON.parse(stdout).api_key;
    handle = openDatabase(db.url);
  });
  after(async () => {
    await fleet.stopAll();
    await handle.close();
    await db.drop();
  });

  test('a gzip upload cut off 1000 bytes short of its Content-Length: the process lives; only whole batches count, and the file sent again counts each line once', async () => {
    const site = await newSite('dropped.example');
    const { credits } = (await call('GET', '/v1/usage')).json;
    const lines = 15_000;
    const gz = gzipSync(gptLines(site.domain, lines));
    assert.ok(gz.length < MAX_BYTES, `${gz.length} bytes`);
    const socket = connect(api.port!, '127.0.0.1');
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.on('error', () => {});
    socket.write(
      `POST /v1/sites/${site.id}/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/gzip\r\nContent-Length: ${gz.length}\r\n\r\n`,
    );
    socket.write(gz.subarray(0, gz.length - 1000));
    // The server writes 5,000 counted lines a transaction: wait for the first, then hang up.
    const deadline = Date.now() + 20_000;
    while ((await crawlerHits(site.id)) === 0) {
      assert.ok(Date.now() < deadline, 'no batch was written');
      await sleep(50);
    }
    await sleep(300);
    socket.destroy();
    await sleep(300);
    await stillServing();

    // A batch the server was writing when the client hung up may still commit: read what was kept
    // once the count has stood still for a second.
    let kept = await crawlerHits(site.id);
    for (let still = 0; still < 5; ) {
      await sleep(200);
      const now = await crawlerHits(site.id);
      still = now === kept ? still + 1 : 0;
      kept = now;
    }
    assert.ok(kept > 0 && kept < lines && kept % 5000 === 0, `kept ${kept}`);
    const again = await fetch(url(`/v1/sites/${site.id}/logs`), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/gzip' }, body: gz });
    assert.equal(again.status, 200);
    const sum = await again.json();
    assert.deepEqual({ lines: sum.lines, duplicates: sum.duplicates, ai_crawler_hits: sum.ai_crawler_hits }, { lines, duplicates: kept, ai_crawler_hits: lines - kept });
    assert.equal(await crawlerHits(site.id), lines);
    // Uploads are free: nothing was reserved or charged.
    const usage = (await call('GET', '/v1/usage')).json;
    assert.deepEqual(usage.credits, { ...credits, active_grant_count: usage.credits.active_grant_count });
    assert.deepEqual(usage.recent.map((r: { kind: string }) => r.kind), ['grant']);
  });

  test('a chunked gzip body past SIGHTLINE_LOG_UPLOAD_MAX_BYTES: 413 payload_too_large, and the process lives', async () => {
    const site = await newSite('chunked.example');
    // Readable lines first (the format is recognised), then bytes gzip cannot shrink.
    const gz = gzipSync(Buffer.concat([Buffer.from(gptLines(site.domain, 60)), randomBytes(2 * MAX_BYTES)]));
    assert.ok(gz.length > MAX_BYTES);
    const chunks: Buffer[] = [];
    for (let at = 0; at < gz.length; at += 64 * 1024) chunks.push(gz.subarray(at, at + 64 * 1024));
    const res = await postChunked(`/v1/sites/${site.id}/logs`, chunks);
    assert.equal(res.status, 413, res.body);
    assert.deepEqual(JSON.parse(res.body).detail, { error: 'payload_too_large', message: 'A log upload is at most 1 MiB per request (as sent); split the file.' });
    await stillServing();
    // Whatever was read was whole batches or nothing: here fewer than 5,000 lines, nothing.
    assert.equal(await crawlerHits(site.id), 0);
  });

  test('a gzip bomb (32 MiB of newlines in 32 KB) is refused by its ratio, quickly', async () => {
    const site = await newSite('bomb.example');
    const gz = gzipSync(Buffer.concat([Buffer.from(gptLines(site.domain, 60)), Buffer.alloc(32 * 1024 * 1024, 10)]));
    assert.ok(gz.length < 64 * 1024, `${gz.length} bytes`);
    const started = Date.now();
    const res = await fetch(url(`/v1/sites/${site.id}/logs`), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/gzip' }, body: gz });
    assert.equal(res.status, 413);
    assert.deepEqual((await res.json()).detail, {
      error: 'payload_too_large',
      message: 'The gzip upload unpacks to more than 100 times its size, which no access log does; send it uncompressed or split it.',
    });
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    await stillServing();
  });

  test('a gzip upload that unpacks past SIGHTLINE_LOG_UPLOAD_MAX_UNPACKED_BYTES: 413, whole batches kept', async () => {
    const site = await newSite('unpacked.example');
    const raw = Buffer.from(gptLines(site.domain, 30_000));
    assert.ok(raw.length > MAX_UNPACKED_BYTES, `${raw.length} bytes`);
    const gz = gzipSync(raw);
    assert.ok(gz.length < MAX_BYTES && raw.length / gz.length < 100, `${gz.length} bytes`);
    const res = await fetch(url(`/v1/sites/${site.id}/logs`), { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/gzip' }, body: gz });
    assert.equal(res.status, 413);
    assert.deepEqual((await res.json()).detail, { error: 'payload_too_large', message: 'A gzip log upload unpacks to at most 4 MiB per request; split the file.' });
    assert.equal((await crawlerHits(site.id)) % 5000, 0);
    await stillServing();
  });

  test('a visibility export whose rows fail midway ends cut off; the process lives', async () => {
    const created = await call('POST', '/v1/visibility/runs', { url: 'https://export.example', target_entity: 'Export', prompts: ['a', 'b', 'c'], platforms: ['openai'] });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const runId = created.json.run_id as string;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const run = (await call('GET', `/v1/visibility/runs/${runId}`)).json;
      if (['completed', 'partially_completed', 'failed'].includes(run.status)) break;
      assert.ok(Date.now() < deadline, `run still ${run.status}`);
      await sleep(100);
    }
    // The second probe's stored citations no longer parse: the rows fail after the first.
    const probes = await handle.db.selectFrom('visibility_probes').select(['id', 'seq']).where('run_id', '=', runId).orderBy('seq').execute();
    assert.equal(probes.length, 3);
    await handle.db.updateTable('visibility_probes').set({ citations: '{not json' }).where('id', '=', probes[1].id).execute();
    for (const format of ['csv', 'jsonl']) {
      const res = await fetch(url(`/v1/visibility/runs/${runId}/export?format=${format}`), { headers: { authorization: `Bearer ${key}` } });
      const body = await res.text().then((t) => t, () => null);
      // Cut off: the transfer fails, or (had it not) it lacks the rows from the second on.
      if (body !== null) assert.ok(!body.includes(probes[2].id), `${format}: ${body.slice(0, 500)}`);
      await stillServing();
    }
  });
});
