// `npm run bench:logs`: access log reading. (1) Parse and classify generated nginx combined lines
// on one core (CombinedParser + classifyRecord: the product-token crawler match, IP range
// verification, asset and referral checks), in lines per second. (2) Upload a gzip of about
// --gb (1) GiB of log lines in one request to the real server (a child process; SQLite unless --db) and
// sample the server's RSS every 100 ms: its growth over the idle baseline must stay under
// 150 MB. Options: --lines N (parse phase, 1,000,000), --gb N, --parse-only, --trace-memory (every
// 50th memory sample of the server during the upload), --again (the upload sent a second time, every line a duplicate, timed), --db sqlite|postgres (Postgres at BENCH_POSTGRES_URL,
// default the local server). (3) A gzip bomb (--bomb-mb, 200 MB of newlines) sent to the same
// server: the status it gets and the server's CPU until the refusal.
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { classifyRecord } from '../src/core/sites/ingest.ts';
import { crawlerRanges } from '../src/core/sites/ip-ranges.ts';
import { CombinedParser } from '../src/core/sites/log-formats.ts';
import { fmt, mb, parseArgs } from './lib/common.ts';

const args = parseArgs();
const LINES = args.num('--lines', 1_000_000);
const GB = args.num('--gb', 1);
const TRACE = args.flag('--trace-memory');
// --again: the upload sent a second time (every line a duplicate), timed.
const DB = args.opt('--db') === 'postgres' ? 'postgres' : 'sqlite';
const here = new URL('.', import.meta.url).pathname;

const UAS = [
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
];
const REFS = ['-', '-', '-', 'https://www.google.com/', 'https://chatgpt.com/', 'https://news.example.org/story'];
const PATHS = ['/', '/pricing', '/blog/post-1', '/blog/post-2', '/docs/getting-started', '/assets/app.css', '/assets/logo.png', '/about'];
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Line i of a deterministic combined log: mostly browsers, ~4 in 7 user agents are crawlers' at varying rates. */
function line(i: number, t0: number): string {
  const t = new Date(t0 + i * 20);
  const ts = `${String(t.getUTCDate()).padStart(2, '0')}/${MON[t.getUTCMonth()]}/${t.getUTCFullYear()}:${t.toISOString().slice(11, 19)} +0000`;
  const ua = UAS[i % 11 < 3 ? i % 3 : 3 + (i % 4)];
  const ip = `${20 + (i % 200)}.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`;
  return `${ip} - - [${ts}] "GET ${PATHS[i % PATHS.length]}?v=${i % 97} HTTP/1.1" ${i % 29 === 0 ? 403 : 200} ${1000 + (i % 5000)} "${REFS[i % REFS.length]}" "${ua}"`;
}

// ---- (1) parse and classify on one core ------------------------------------------------------
// As the server reads an upload: lines cut from bytes (Buffer → string per line), each parsed and
// classified. The bytes are made first and not timed; hashing and database writes are not part of it.
const t0 = Date.now() - 3 * 86_400_000;
const parts: Buffer[] = [];
for (let i = 0; i < LINES; i += 10_000) parts.push(Buffer.from(Array.from({ length: Math.min(10_000, LINES - i) }, (_, k) => line(i + k, t0) + '\n').join('')));
const text = Buffer.concat(parts);
parts.length = 0;
const parser = new CombinedParser();
const ranges = crawlerRanges();
const readAll = () => {
  let counted = 0;
  for (let start = 0, nl = text.indexOf(10); nl >= 0; start = nl + 1, nl = text.indexOf(10, start)) {
    const r = parser.parse(text.toString('utf8', start, nl));
    if (r && classifyRecord(r, ranges)) counted++;
  }
  return counted;
};
readAll(); // warm-up
// The best of three rounds, in CPU time of this (single-threaded) process: on a shared machine
// wall time says more about the neighbours than about the code; CPU time is what one core spends.
let ms = Infinity;
let wall = Infinity;
let counted = 0;
for (let round = 0; round < 3; round++) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  counted = readAll();
  const used = process.cpuUsage(cpu);
  ms = Math.min(ms, (used.user + used.system) / 1000);
  wall = Math.min(wall, performance.now() - start);
}
console.log(
  `parse+classify (combined, one core): ${fmt(LINES)} lines (${mb(text.length)} MB) in ${fmt(ms)} ms of CPU = ${fmt((LINES / ms) * 1000)} lines/s ` +
    `(wall ${fmt(wall)} ms = ${fmt((LINES / wall) * 1000)} lines/s; ${fmt(counted)} counted: crawler hits and referral visits)`,
);

if (args.flag('--parse-only')) process.exit(0);

// ---- (2) a large gzip upload, server RSS sampled --------------------------------------------
const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-logs-'));
const gzPath = join(dir, 'access.log.gz');
const target = GB * 1024 ** 3;
let raw = 0;
let n = 0;
const genStart = performance.now();
await pipeline(
  Readable.from(
    (function* () {
      while (raw < target) {
        let chunk = '';
        for (let k = 0; k < 2000; k++) chunk += line(n++, t0) + '\n';
        raw += chunk.length;
        yield chunk;
      }
    })(),
  ),
  createGzip({ level: 1 }),
  createWriteStream(gzPath),
);
console.log(`generated ${fmt(n)} lines, ${mb(raw)} MB raw, ${mb(statSync(gzPath).size)} MB gzip in ${fmt((performance.now() - genStart) / 1000, 1)} s`);

const server = spawn(process.execPath, ['--import', 'tsx', join(here, 'lib', 'logs-server.ts'), DB], { stdio: ['pipe', 'pipe', 'inherit', 'ipc'] });
/** The server's own memory samples (process.memoryUsage every 100 ms), while the upload runs. */
let recording = false;
const samples: NodeJS.MemoryUsage[] = [];
let lastSample: NodeJS.MemoryUsage | null = null;
server.on('message', (m) => {
  lastSample = m as NodeJS.MemoryUsage;
  if (!recording) return;
  samples.push(lastSample);
  if (TRACE && samples.length % 50 === 0) {
    const x = lastSample;
    console.log(`  ${fmt(samples.length / 10)} s: rss ${mb(x.rss)}, heap ${mb(x.heapUsed)}/${mb(x.heapTotal)}, external ${mb(x.external)} (array buffers ${mb(x.arrayBuffers)}) MB`);
  }
});
const info = await new Promise<{ port: number; key: string; site: string; pid: number }>((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`logs-server exited with ${code}`)));
  createInterface({ input: server.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
});
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${info.pid}/status`, 'utf8'))![1]) * 1024;
// The baseline: the server after one small upload (code paths loaded, caches warm).
const url = `http://127.0.0.1:${info.port}/v1/sites/${info.site}/logs`;
const headers = { authorization: `Bearer ${info.key}`, 'content-type': 'application/gzip' };
await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: line(0, t0) + '\n' }).then((r) => r.json());
await new Promise((r) => setTimeout(r, 500));
const baseline = rss();
const baselineUsage = lastSample!;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 100);
recording = true;
const upStart = performance.now();
const res = await fetch(url, { method: 'POST', headers, body: Readable.toWeb(createReadStream(gzPath)) as ReadableStream, duplex: 'half' } as RequestInit);
const summary = await res.json();
const upSeconds = (performance.now() - upStart) / 1000;
clearInterval(sampler);
recording = false;
peak = Math.max(peak, rss());
console.log(`upload: HTTP ${res.status} in ${fmt(upSeconds, 1)} s (${fmt(n / upSeconds)} lines/s end to end): ${JSON.stringify(summary)}`);
console.log(`server RSS: baseline ${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${mb(peak - baseline)} MB (${peak - baseline < 150 * 1024 * 1024 ? 'under' : 'OVER'} 150 MB)`);
if (samples.length) {
  // What the RSS was made of: the server's sample with the highest RSS, and each part's own maximum.
  const top = samples.reduce((a, b) => (b.rss > a.rss ? b : a));
  const max = (k: keyof NodeJS.MemoryUsage) => mb(Math.max(...samples.map((x) => x[k])));
  const split = (x: NodeJS.MemoryUsage) =>
    `rss ${mb(x.rss)}, V8 heap used ${mb(x.heapUsed)} of ${mb(x.heapTotal)}, external ${mb(x.external)} (array buffers ${mb(x.arrayBuffers)}), ` +
    `rest (code, native: SQLite, zlib, stacks) ${mb(x.rss - x.heapTotal - x.external)}`;
  console.log(`server memory at idle (MB): ${split(baselineUsage)}`);
  console.log(`server memory at its highest RSS sample (MB): ${split(top)}`);
  console.log(`maxima over ${fmt(samples.length)} samples (MB): heap used ${max('heapUsed')}, heap total ${max('heapTotal')}, external ${max('external')}, array buffers ${max('arrayBuffers')}`);
}
if (args.flag('--again')) {
  // The same file a second time: every counted line is a duplicate, and the reader asks which
  // of them this upload had counted itself (none: all were sent before).
  const againStart = performance.now();
  const again = await fetch(url, { method: 'POST', headers, body: Readable.toWeb(createReadStream(gzPath)) as ReadableStream, duplex: 'half' } as RequestInit);
  const againSummary = await again.json();
  const againSeconds = (performance.now() - againStart) / 1000;
  console.log(`the same upload again: HTTP ${again.status} in ${fmt(againSeconds, 1)} s (${fmt(n / againSeconds)} lines/s end to end): ${JSON.stringify(againSummary)}`);
}

// ---- (3) a gzip bomb: refused by the unpacked-size limits, in server CPU --------------------
// --bomb-mb (200) MB of newlines, gzipped to about 0.1% of that, sent as one upload. Before the
// limits the server unpacked and scanned all of it; now it stops once the output passes 100 times
// the compressed bytes read (docs/sites.md). The server's CPU is read from /proc (utime + stime).
const BOMB_MB = args.num('--bomb-mb', 200);
const bomb = await new Promise<Buffer>((resolve, reject) => {
  const chunks: Buffer[] = [];
  const gz = createGzip({ level: 9 });
  gz.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  const mib = Buffer.alloc(1024 * 1024, 10);
  for (let i = 0; i < BOMB_MB; i++) gz.write(mib);
  gz.end();
});
const ticks = () => {
  const f = readFileSync(`/proc/${info.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (100 a second on Linux)
};
const cpuBefore = ticks();
const bombStart = performance.now();
const refused = await fetch(url, { method: 'POST', headers, body: new Uint8Array(bomb) });
const refusal = await refused.json();
const bombSeconds = (performance.now() - bombStart) / 1000;
console.log(
  `gzip bomb: ${fmt(BOMB_MB)} MB of newlines in ${fmt(bomb.length / 1024)} KB gzip: HTTP ${refused.status} ${refusal?.detail?.error ?? ''} in ${fmt(bombSeconds, 2)} s, ` +
    `server CPU ${fmt((ticks() - cpuBefore) * 10)} ms`,
);
server.stdin!.end();
await new Promise((r) => server.once('exit', r));
rmSync(dir, { recursive: true, force: true });
