// The share link's PDF and the event loop: how long the server's main thread is held, at most,
// while a report's PDF is rendered. The real server and a fresh SQLite database in this process
// (requests through app.inject), the PDF cache off so every request renders; a large project (400
// prompts with 20 topics each, 200 topics: the library at its limits) and a small one (10 prompts).
// For each render: the request's wall time, the longest gap between two turns of a setImmediate
// ticker, and the most CPU time the main thread spent between two turns (Linux: the thread's own
// counter in /proc/thread-self/schedstat). The CPU figure is the one to read on a busy machine:
// a wall gap also counts the time the thread waited for a core. The first render of the process
// is reported apart (pdfkit and the fonts load then).
//
// PASS when no later render holds the main thread for more than 15 ms of CPU in one turn.
//
//   npm run bench:share              (SHARE_BENCH_RENDERS, default 3 of each after the first)
//   npm run bench:share -- --first small    (the process's first render is the small report)
//   npm run bench:share -- --in-process     (no thread: rendered on the event loop, as before)
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../test/helpers/harness.ts';
import { MAX_PROJECT_TOPICS, MAX_PROMPT_TOPICS } from '../src/core/projects/prompts.ts';

const RENDERS = Number(process.env.SHARE_BENCH_RENDERS ?? 3);
const inProcess = process.argv.includes('--in-process');
const firstSmall = process.argv.includes('--first') && process.argv[process.argv.indexOf('--first') + 1] === 'small';

const s = await startTestServer(
  {
    SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
    SIGHTLINE_SHARE_PDF_CACHE_MB: '0',
    SIGHTLINE_SHARE_PDF_LIMIT_PER_MINUTE: '100000',
    SIGHTLINE_SHARE_LIMIT_PER_MINUTE: '100000',
  },
  {
    worker: false,
    app: { sharePdf: { threads: inProcess ? 0 : 1 } },
  },
);
console.log(`share PDFs rendered ${inProcess ? 'on the event loop (--in-process)' : 'in a worker thread'}`);
const { key } = await s.account({ credits: 0 });

async function shareOf(name: string, count: number, topics: number): Promise<string> {
  const prompts = Array.from({ length: count }, (_, i) => ({
    prompt: `which customer relationship manager suits a small agency best, case ${i}`,
    topics: Array.from({ length: topics }, (_, j) => `a rather long topic name ${(i + j) % MAX_PROJECT_TOPICS}`),
  }));
  const p = (
    await s.request('POST', '/v1/projects', { key, body: { name, url: 'https://acme.example/', brand: { name: 'Acme' }, platforms: ['openai'], prompts } })
  ).json();
  const share = (await s.request('POST', `/v1/projects/${p.id}/shares`, { key, body: {} })).json();
  return share.token as string;
}
const large = await shareOf('Large', 400, MAX_PROMPT_TOPICS);
const small = await shareOf('Small', 10, 2);

const SCHEDSTAT = '/proc/thread-self/schedstat';
/** This thread's CPU time so far (ms), or 0 where the kernel does not say. */
const threadCpu = existsSync(SCHEDSTAT) ? () => Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6 : () => 0;

async function render(token: string) {
  let done = false;
  let longest = 0;
  let mostCpu = 0;
  const ticker = (async () => {
    let last = performance.now();
    let lastCpu = threadCpu();
    while (!done) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const now = performance.now();
      const cpu = threadCpu();
      longest = Math.max(longest, now - last);
      mostCpu = Math.max(mostCpu, cpu - lastCpu);
      last = now;
      lastCpu = cpu;
    }
  })();
  const t = performance.now();
  const res = await s.request('GET', `/share/${token}/report.pdf`);
  const wall = performance.now() - t;
  done = true;
  await ticker;
  if (res.statusCode !== 200) throw new Error(`report.pdf answered ${res.statusCode}: ${res.body}`);
  return { wall, longest, mostCpu, bytes: res.rawPayload.length };
}

const line = (label: string, r: Awaited<ReturnType<typeof render>>) =>
  console.log(
    `${label.padEnd(24)} wall ${r.wall.toFixed(0).padStart(5)} ms   longest gap ${r.longest.toFixed(1).padStart(6)} ms   most main-thread CPU in one turn ${r.mostCpu.toFixed(1).padStart(6)} ms   ${(r.bytes / 1024).toFixed(0)} KiB`,
  );

/** Target: no later render holds the main thread for more CPU than this in one turn (schedstat counts in scheduler ticks, ~4 ms). */
const TARGET_MS = 15;
let worstCpu = 0;

line(`first render (${firstSmall ? 'small' : 'large'})`, await render(firstSmall ? small : large));
for (const [name, token] of [
  ['large', large],
  ['small', small],
] as const) {
  const runs: Awaited<ReturnType<typeof render>>[] = [];
  for (let i = 0; i < RENDERS; i++) runs.push(await render(token));
  for (const [i, r] of runs.entries()) line(`later render ${name} #${i + 1}`, r);
  const worst = (k: 'longest' | 'mostCpu') => Math.max(...runs.map((r) => r[k])).toFixed(1);
  console.log(`${name}, later renders: longest gap ${worst('longest')} ms, most main-thread CPU in one turn ${worst('mostCpu')} ms`);
  worstCpu = Math.max(worstCpu, ...runs.map((r) => r.mostCpu));
}
if (!existsSync(SCHEDSTAT)) console.log('no /proc/thread-self/schedstat here: main-thread CPU not measured, no verdict');
else {
  const pass = worstCpu <= TARGET_MS;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}: the main thread's most CPU in one turn during a later render is ${worstCpu.toFixed(1)} ms (target ≤ ${TARGET_MS} ms)`,
  );
  if (!pass) process.exitCode = 1;
}
await s.close();
