// The sites CLI through the real bin and a real server on a loopback port: `logs ingest` sends a
// file (plain and .gz) in pieces, `--follow` reads lines appended to a growing file until it is
// interrupted, and `crawlers refresh` downloads the vendors' range files from a local fake that
// speaks their published shape ({creationTime, prefixes: [{ipv4Prefix}|{ipv6Prefix}]}).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BIN, runCli, serverForCli } from '../helpers/cli.ts';
import { startTestServer } from '../helpers/harness.ts';
import { render, scenario } from '../helpers/access-logs.ts';

const dir = mkdtempSync(join(tmpdir(), 'sightline-sites-'));

describe('sites CLI: logs ingest', () => {
  const ctx = serverForCli();
  let env: Record<string, string>;
  let siteId: string;
  before(async () => {
    const { key } = await ctx.s.account();
    env = { SIGHTLINE_API_URL: ctx.base, SIGHTLINE_API_KEY: key, SIGHTLINE_FOLLOW_POLL_MS: '100' };
    const created = await runCli(['sites', 'create', 'cli.example', '--json'], { env });
    assert.equal(created.code, 0, created.err);
    siteId = created.json.id;
  });

  test('a file, then the same file gzipped: counted once', async () => {
    const lines = scenario('cli.example').events.map(render.combined);
    const file = join(dir, 'access.log');
    writeFileSync(file, lines.join('\n') + '\n');
    const first = await runCli(['logs', 'ingest', file, '--site', siteId, '--json'], { env });
    assert.equal(first.code, 0, first.err);
    assert.deepEqual([first.json.format, first.json.lines, first.json.ai_crawler_hits, first.json.ai_referral_visits], ['combined', 28, 17, 5]);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file)));
    const again = await runCli(['logs', 'ingest', `${file}.gz`, '--site', siteId, '--json'], { env });
    assert.equal(again.code, 0, again.err);
    assert.deepEqual([again.json.ai_crawler_hits, again.json.duplicates], [0, 22]);
    const human = await runCli(['sites', 'crawlers', siteId], { env });
    assert.match(human.out, /GPTBot\s+training\s+9 hits \(7 verified, 2 not\), 2 blocked/);
    assert.match(human.out, /ClaudeBot\s+training\s+3 hits \(none verifiable: the vendor publishes no IP ranges\)/);
    // A log of no known format: the message names the CLI's own option, not only the API's query.
    writeFileSync(join(dir, 'odd.log'), 'hello world\nfoo bar\n');
    const odd = await runCli(['logs', 'ingest', join(dir, 'odd.log'), '--site', siteId], { env });
    assert.equal(odd.code, 1, odd.err);
    assert.match(odd.err, /could not be recognised from its first lines: name it .*`--format` of `sightline logs ingest`/);
    const missing = await runCli(['logs', 'ingest', join(dir, 'nope.log'), '--site', siteId, '--json'], { env });
    assert.equal(missing.code, 2);
    assert.equal(missing.json.error, 'read_failed');
  });

  test('--follow reads appended lines (a partial line waits for its end) until interrupted', async () => {
    const site = (await runCli(['sites', 'create', 'follow.example', '--json'], { env })).json;
    const lines = scenario('follow.example').events.map(render.combined);
    const file = join(dir, 'growing.log');
    writeFileSync(file, lines.slice(0, 5).join('\n') + '\n');
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) childEnv[k] = v;
    const child = spawn(process.execPath, [BIN, 'logs', 'ingest', file, '--site', site.id, '--follow', '--json'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const crawlerHits = async () => {
      const r = await ctx.s.request('GET', `/v1/sites/${site.id}/crawlers`, { key: env.SIGHTLINE_API_KEY });
      return r.json().crawlers.reduce((n: number, c: { hits: number }) => n + c.hits, 0);
    };
    const until = async (want: number) => {
      for (let i = 0; i < 100 && (await crawlerHits()) !== want; i++) await new Promise((r) => setTimeout(r, 100));
      return crawlerHits();
    };
    assert.equal(await until(5), 5);
    // Half a line first: nothing new until its end arrives.
    appendFileSync(file, lines[5].slice(0, 20));
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await crawlerHits(), 5);
    appendFileSync(file, lines[5].slice(20) + '\n' + lines.slice(6).join('\n') + '\n');
    assert.equal(await until(17), 17);
    child.kill('SIGINT');
    const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
    assert.equal(code, 0, err);
    const totals = JSON.parse(out);
    assert.equal(totals.lines, 28);
    assert.equal(totals.ai_crawler_hits, 17);
  });
});

describe('crawlers refresh against a local fake of the vendors', () => {
  let fake: Server;
  let mirror: string;
  const served: string[] = [];
  before(async () => {
    fake = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url === '/gptbot.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ creationTime: '2026-11-27T00:00:00.000000', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }, { ipv6Prefix: '2001:db8::/32' }] }));
      } else if (req.url === '/searchbot.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"prefixes": "not a list"}');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    mirror = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => fake.close(() => r())));

  test('updates what the fake serves, keeps the rest, and the server verifies with the new file', async () => {
    const output = join(dir, 'ranges.json');
    const res = await runCli(['crawlers', 'refresh', '--output', output, '--json'], { env: { SIGHTLINE_CRAWLER_RANGES_MIRROR: mirror, DATABASE_URL: 'sqlite::memory:' } });
    assert.equal(res.code, 0, res.err);
    assert.equal(res.json.updated, 1);
    const byName = Object.fromEntries(res.json.crawlers.map((c: { crawler: string }) => [c.crawler, c]));
    assert.deepEqual([byName.GPTBot.status, byName.GPTBot.prefixes], ['updated', 2]);
    assert.equal(byName['OAI-SearchBot'].status, 'kept');
    assert.match(byName['OAI-SearchBot'].error, /prefixes/);
    assert.equal(byName.Googlebot.status, 'kept');
    assert.ok(served.includes('/static/search/apis/ipranges/googlebot.json'));
    const file = JSON.parse(readFileSync(output, 'utf8'));
    assert.deepEqual(file.crawlers.GPTBot.prefixes, ['192.0.2.0/24', '2001:db8::/32']);
    assert.equal(file.crawlers.GPTBot.source, 'https://openai.com/gptbot.json');
    assert.ok(file.crawlers['OAI-SearchBot'].prefixes.length > 10);

    const s = await startTestServer({ SIGHTLINE_CRAWLER_RANGES_PATH: output });
    try {
      const { key } = await s.account();
      const site = (await s.request('POST', '/v1/sites', { key, body: { domain: 'ranges.example' } })).json();
      const lines = ['192.0.2.9', '2001:db8::5', '20.171.206.5'].map((ip) => render.combined({ ...scenario('ranges.example').events[0], ip })).join('\n');
      const up = await s.request('POST', `/v1/sites/${site.id}/logs`, { key, body: lines, headers: { 'content-type': 'text/plain' } });
      assert.equal(up.json().ai_crawler_hits, 3);
      const gpt = (await s.request('GET', `/v1/sites/${site.id}/crawlers`, { key })).json().crawlers[0];
      assert.deepEqual([gpt.verified_hits, gpt.unverified_hits], [2, 1]);
    } finally {
      await s.close();
    }

    const none = await runCli(['crawlers', 'refresh', '--json'], { env: { SIGHTLINE_CRAWLER_RANGES_MIRROR: mirror, DATABASE_URL: 'sqlite::memory:', SIGHTLINE_CRAWLER_RANGES_PATH: '' } });
    assert.equal(none.code, 2);
  });
});
