// Benchmark for AI Visibility runs through the HTTP API (in-process `app.inject`, full Fastify
// stack) with the embedded worker, like `npm start`, on SQLite:
//   (a) create throughput for small runs (2 prompts × 3 platforms) and the time to create one
//       100 × 6 = 600-probe run (worker stopped, so only creation is measured);
//   (b) completion of an N-probe run (default 2,000) on the sandbox engine with a simulated answer
//       latency (default 500 ms), against the ideal probes × latency / concurrency. Target ≤ 1.25×.
//   (c) memory: peak RSS and heap of the completion for a small run (default 500) and the full one.
// With `--engine live` (or `--live`) the same measurements run in live mode: the real drivers
// against fake providers (openai, claude, perplexity) on 127.0.0.1 that answer after a seeded
// random 200–800 ms, 16 in flight per platform; the ideal is then, over platforms, the larger of
// probes × realized mean delay (measured by the fake) / its concurrency and the platform's
// longest single answer (no lane ends before its slowest task; it binds for the 5–40 s tasks).
// The one thing to know: every completion runs in a fresh child process (this script with
// --child), so peak RSS of one size is not inherited by the next; engines are pluggable through
// ENGINES in bench/lib/runs-service.ts (`--engine NAME`).
//
//   npm run bench:runs
//   npm run bench:runs -- --probes 2000 --latency 500 --concurrency 64 --small-probes 500
//   npm run bench:runs -- --json                  # one JSON summary on stdout
//   npm run bench:runs -- --skip-create           # completion and memory only
//   npm run bench:runs -- --skip-create --small-probes 0 --cpu-prof /tmp/runs   # + /tmp/runs-2000.cpuprofile of the completion
//   npm run bench:runs -- --skip-create --small-probes 0 --warm-up 2000   # measure after a first run of 2,000 probes in the same process
//   npm run bench:runs -- --live --skip-create    # live mode: --lane-concurrency 16 --delay-min 200 --delay-max 800 --seed 1
//     live mode adds Google AI Overviews, AI Mode and the ChatGPT app through a fake DataForSEO task
//     flow (--consumer-lane-concurrency 64 --task-min 5000 --task-max 40000 --max-waiting 1000;
//     --no-consumer drops them). A probe waiting for its task holds no lane slot, so for those
//     surfaces the ideal is the longest task, or the waiting capacity (probes × mean task time /
//     --max-waiting) when that is larger.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { API_PLATFORMS as PLATFORMS, type PlatformName } from '../src/platforms/types.ts';
import { fmt, mb, parseArgs, startCpuProfile } from './lib/common.ts';
import { ENGINES, startBenchService, type BenchService } from './lib/runs-service.ts';
import { resetStepTimes, stepTimes } from '../src/core/visibility/analysis/step-times.ts';
import { threadCpu, threadSplit } from './lib/sqlite-times.ts';
import { hostCalibrationMs } from './lib/calibration.ts';

const args = parseArgs();
const probes = args.num('--probes', 2000);
const smallProbes = args.num('--small-probes', 500);
const latencyMs = args.num('--latency', 500);
// Live mode adds three consumer lanes of 64 (see bench/lib/live-engine.ts), so its default is their sum with the API lanes.
const concurrency = args.num('--concurrency', args.flag('--live') && !args.flag('--no-consumer') ? 3 * 16 + 3 * 64 : 64);
const creates = args.num('--creates', 300);
const engineName = args.flag('--live') ? 'live' : (args.opt('--engine') ?? 'sandbox');
const laneArg = args.opt('--lane-concurrency');
const engineOpts = {
  concurrency,
  laneConcurrency: laneArg === undefined ? undefined : args.num('--lane-concurrency', 0),
  delayMinMs: args.num('--delay-min', 200),
  delayMaxMs: args.num('--delay-max', 800),
  seed: args.num('--seed', 1),
  consumer: !args.flag('--no-consumer'),
  consumerLaneConcurrency: args.num('--consumer-lane-concurrency', 64),
  taskMinMs: args.num('--task-min', 5_000),
  taskMaxMs: args.num('--task-max', 40_000),
  maxWaiting: args.num('--max-waiting', 1000),
};
// How the bench waits for the run, as a client would: by default the way `sightline … --watch`
// does (the run's own read every 500 ms); `--poll list --poll-ms 100` is the old, heavier loop
// (the run list, ten times a second). The polls' server work is inside the CPU figure.
const pollMode = args.opt('--poll') ?? 'run';
if (pollMode !== 'run' && pollMode !== 'list') throw new Error(`--poll run|list, not ${pollMode}`);
const pollMs = args.num('--poll-ms', pollMode === 'run' ? 500 : 100);
const asJson = args.flag('--json');
// A run of this many probes (other prompts) before the measured one, in the same child process:
// the measured run then costs what a probe costs a server that has run for a while (JIT-compiled
// code, word lists and dictionaries loaded), not what the first probes of a fresh process cost.
const warmUp = args.num('--warm-up', 0);
const cpuProfFile = args.opt('--cpu-prof'); // profile of the completion phase: the parent hands each child FILE-<probes>.cpuprofile
const log = (line: string) => (asJson ? process.stderr : process.stdout).write(line + '\n');
const TERMINAL = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);
const RUN_URL = 'https://www.example.com/crm';

if (!ENGINES[engineName]) throw new Error(`unknown --engine ${engineName} (known: ${Object.keys(ENGINES).join(', ')})`);

/**
 * The main thread's (event loop's) on-CPU and run-queue-wait time so far, ms, from
 * /proc/self/schedstat (Linux; undefined elsewhere). Waiting for a CPU while runnable is what
 * other load on the machine costs this process, separately from what the process itself uses.
 */
function mainThreadSched(): { cpuMs: number; waitMs: number } | undefined {
  try {
    const [cpuNs, waitNs] = readFileSync('/proc/self/schedstat', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isFinite(cpuNs) && Number.isFinite(waitNs) ? { cpuMs: cpuNs / 1e6, waitMs: waitNs / 1e6 } : undefined;
  } catch {
    return undefined;
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// ---------------------------------------------------------------------------------------------
// (a) creation

export interface CreateResult {
  small_runs: number;
  small_in_flight: number;
  small_runs_per_s: number;
  small_probes_per_s: number;
  small_p50_ms: number;
  small_p99_ms: number;
  large_probes: number;
  large_platforms: number;
  large_create_ms: number[];
}

async function postRun(service: BenchService, body: unknown): Promise<number> {
  const t0 = performance.now();
  const res = await service.request('POST', '/v1/visibility/runs', body);
  if (res.status !== 200 && res.status !== 201 && res.status !== 202) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
  return performance.now() - t0;
}

export async function benchCreate(): Promise<CreateResult> {
  const engine = await ENGINES[engineName]({ ...engineOpts, latencyMs: 0 });
  const service = await startBenchService(engine, { concurrency, worker: false });
  const platforms = engine.platforms ?? PLATFORMS;
  try {
    const small = (i: number) => ({
      url: RUN_URL,
      target_entity: 'Acme CRM',
      prompts: [`best crm for startups ${i}`, `top sales tools ${i}`],
      platforms: engine.platforms ? platforms.slice(0, 3) : ['openai', 'perplexity', 'gemini'],
    });
    for (let i = 0; i < 20; i++) await postRun(service, small(i)); // warm-up (JIT, statement cache)
    const inFlight = 8;
    const latencies: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < creates) latencies.push(await postRun(service, small(next++)));
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const prompts = Array.from({ length: 100 }, (_, i) => `which crm should a ${i}-person team choose`);
    const large: number[] = [];
    for (let i = 0; i < 3; i++) large.push(await postRun(service, { url: RUN_URL, target_entity: 'Acme CRM', prompts, platforms: [...platforms] }));
    return {
      small_runs: creates,
      small_in_flight: inFlight,
      small_runs_per_s: creates / seconds,
      small_probes_per_s: (creates * 6) / seconds,
      small_p50_ms: percentile(latencies, 50),
      small_p99_ms: percentile(latencies, 99),
      large_probes: prompts.length * platforms.length,
      large_platforms: platforms.length,
      large_create_ms: large.map((ms) => Math.round(ms)),
    };
  } finally {
    await service.close();
  }
}

// ---------------------------------------------------------------------------------------------
// (b)+(c) completion and memory, one run per fresh process

export interface CompletionResult {
  engine: string;
  probes: number;
  /** Sandbox: the fixed latency; live: the nominal mean delay of the fakes. */
  latency_ms: number;
  concurrency: number;
  lane_concurrency: number;
  /** Platforms the probes were spread over, with their configured concurrency and probe counts. */
  platform_concurrency: Record<string, number>;
  probes_per_platform: Record<string, number>;
  /** Mean answer latency per platform used for the ideal (live: measured by the fake provider). */
  mean_latency_ms: Record<string, number>;
  /** The ideal with the nominal latency (equal to ideal_ms for the sandbox). */
  nominal_ideal_ms: number;
  /** Platforms whose waits hold no lane slot, and the waiting capacity (see engine.offLane). */
  off_lane?: { platforms: string[]; max_waiting: number };
  /** The ideal from work alone (probes × mean / lane), without the longest-answer bound. */
  work_ideal_ms?: number;
  provider?: { lines: string[]; detail: unknown };
  /** The engine's own description of its configuration (live: the fakes and the lane env). */
  engine_config?: string;
  max_in_flight_seen: number;
  status: string;
  succeeded: number;
  create_ms: number;
  wall_ms: number;
  /** CPU time of the whole process during the run, per probe (µs): high values mean CPU-bound. */
  cpu_us_per_probe: number;
  /** Probes of the run completed in the same process before the measured one (--warm-up). */
  warm_up_probes?: number;
  /** Time per probe (µs) in each answer-analysis step and in run summaries read by the polls; `other` is the rest of the CPU (HTTP, database, worker, platform). */
  steps_us_per_probe: Record<string, number>;
  /** SQLite statements per probe by kind (count, µs), from the service's connection: see bench/lib/sqlite-times.ts. */
  statements_per_probe?: Record<string, { n: number; us: number }>;
  /** CPU per probe (µs) of the event loop's thread and of the process's other threads (V8's GC and compiler, the WAL checkpoints). */
  threads_us_per_probe?: { main: number; others: number };
  /** CPU of one read of the finished run (GET /v1/visibility/runs/{id}), ms, and its answer's size in bytes. */
  finished_read_cpu_ms?: number;
  finished_read_bytes?: number;
  /** Event-loop thread during the run (Linux): share of the wall time on a CPU, and runnable but waiting for one. */
  main_thread_on_cpu_pct?: number;
  main_thread_runqueue_wait_pct?: number;
  ideal_ms: number;
  ratio: number;
  baseline_rss_mb: number;
  peak_rss_mb: number;
  baseline_heap_mb: number;
  peak_heap_mb: number;
  /** Heap right after the run, after a forced GC: near the baseline means the peak was garbage, not retention. */
  heap_after_gc_mb: number;
}

/**
 * GETs a URL as the polling client does and keeps only the first 400 bytes of the answer (as
 * Latin-1: the status and ids are ASCII) and its size. The answer is taken as a stream of the
 * chunks the server wrote, so light-my-request neither joins them into one buffer nor decodes that
 * into a string: client work that a real socket would leave to the client, not the server.
 */
async function readHead(service: BenchService, url: string): Promise<{ statusCode: number; head: string; bytes: number }> {
  const res = await service.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${service.key}` }, payloadAsStream: true });
  let head = '';
  let bytes = 0;
  for await (const chunk of res.stream() as AsyncIterable<Buffer>) {
    if (head.length < 400) head += chunk.subarray(0, 400 - head.length).toString('latin1');
    bytes += chunk.length;
  }
  return { statusCode: res.statusCode, head, bytes };
}

/** Creates one run of `n` probes spread over every platform and waits for it; measures memory. */
export async function runCompletion(n: number): Promise<CompletionResult> {
  const engine = await ENGINES[engineName]({ ...engineOpts, latencyMs });
  const service = await startBenchService(engine, { concurrency, worker: true });
  const platforms = engine.platforms ?? PLATFORMS;
  const worker = service.core.startWorker(); // idempotent: the running worker
  try {
    if (warmUp > 0) {
      const { body: warm } = await service.request('POST', '/v1/visibility/runs', {
        url: RUN_URL,
        target_entity: 'Acme CRM',
        competitors: ['Globex', 'Initech'],
        probes: Array.from({ length: warmUp }, (_, i) => ({ prompt: `which crm do teams pick, warm-up ${i}`, platform: platforms[i % platforms.length] })),
      });
      while (!TERMINAL.has((await service.request('GET', `/v1/visibility/runs/${warm.run_id}`)).body.status)) await new Promise((r) => setTimeout(r, 500));
    }
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    let maxInFlight = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
      maxInFlight = Math.max(maxInFlight, worker.activeCount);
    }, 20);
    const body = {
      url: RUN_URL,
      target_entity: 'Acme CRM',
      competitors: ['Globex', 'Initech'],
      probes: Array.from({ length: n }, (_, i) => ({ prompt: `best crm tools for teams, variant ${i}`, platform: platforms[i % platforms.length] })),
    };
    resetStepTimes();
    service.statements?.reset();
    const threads0 = threadCpu();
    const cpu0 = process.cpuUsage();
    const sched0 = mainThreadSched();
    const t0 = performance.now();
    const created = await service.request('POST', '/v1/visibility/runs', body);
    const createMs = performance.now() - t0;
    if (created.status >= 300) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
    const stopProfile = cpuProfFile ? await startCpuProfile() : undefined;
    // Poll as a client does (see --poll). The client only needs the status, which both answers
    // give near their start: it is read from the first bytes, so the bench's own decoding and
    // parsing of a large answer (the summary has an entry per prompt) does not count as the
    // server's CPU.
    let status = '';
    const pollUrl = pollMode === 'run' ? `/v1/visibility/runs/${created.body.run_id}` : '/v1/visibility/runs?limit=1';
    for (;;) {
      const res = await readHead(service, pollUrl);
      const head = res.head;
      const ids = /"run_id":"([^"]+)"/.exec(head);
      status = /"status":"([^"]+)"/.exec(head)?.[1] ?? '';
      if (res.statusCode !== 200 || ids?.[1] !== created.body.run_id || !status) throw new Error(`unexpected poll answer: ${head.slice(0, 200)}`);
      if (TERMINAL.has(status)) break;
      await new Promise((r) => setTimeout(r, pollMs));
    }
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const threads = threadSplit(threads0, threadCpu());
    const steps = stepTimes();
    const statements = new Map(service.statements?.byKind ?? []);
    const sqliteMs = [...statements.values()].reduce((sum, s) => sum + s.ms, 0);
    if (statements.size > 0) steps.sqlite = sqliteMs;
    const sched1 = mainThreadSched();
    clearInterval(sampler);
    gc?.();
    const heapAfterGc = process.memoryUsage().heapUsed;
    const run = (await service.request('GET', `/v1/visibility/runs/${created.body.run_id}`)).body;
    // What one more read of the finished run costs the server (a client or a page reading it
    // again): CPU per read over 10 reads, and the answer's size.
    const readUrl = `/v1/visibility/runs/${created.body.run_id}`;
    const readCpu0 = process.cpuUsage();
    let readBytes = 0;
    for (let i = 0; i < 10; i++) readBytes = (await readHead(service, readUrl)).bytes;
    const readCpu = process.cpuUsage(readCpu0);
    if (stopProfile) {
      await stopProfile(cpuProfFile!);
      log(`CPU profile of the completion phase (${n} probes) written to ${cpuProfFile}`);
    }
    const provider = await engine.providerStats?.();
    const nominalMs = provider?.nominalLatencyMs ?? latencyMs;
    const perPlatform = Object.fromEntries(platforms.map((p) => [p, 0])) as Record<string, number>;
    for (const probe of body.probes) perPlatform[probe.platform]++;
    const meanMs = Object.fromEntries(platforms.map((p) => [p, provider?.meanLatencyMs[p] ?? latencyMs])) as Record<string, number>;
    const laneOf = Object.fromEntries(platforms.map((p) => [p, service.platformConcurrency[p]])) as Record<string, number>;
    // Lanes run in parallel, so the slowest lane sets the pace; the overall worker limit is a
    // second bound (it binds for the sandbox, where 6 lanes of 11 exceed 64 in flight). A lane
    // also cannot finish before its slowest single answer (the classic makespan lower bound:
    // max(work / capacity, longest job)). That third bound matters for consumer surfaces, whose
    // tasks are ready 5–40 s after posting: with fewer tasks than lane slots the work bound
    // alone is far below anything a scheduler could reach.
    // A platform whose probes wait off their lane (engine.offLane: the consumer surfaces' task
    // wait holds no slot) is bound by neither its lane nor the overall limit but by the waiting
    // capacity: all its probes' waits / maxWaiting (its post and fetch, a few ms against the
    // fake, are left out).
    const longest = (p: PlatformName) => provider?.maxLatencyMs?.[p] ?? 0;
    const offLane = new Set<PlatformName>(engine.offLane?.platforms ?? []);
    const inLane = platforms.filter((p) => !offLane.has(p));
    const ideal = (mean: (p: PlatformName) => number, withLongest: boolean) =>
      Math.max(
        ...platforms.map((p) =>
          Math.max(offLane.has(p) ? 0 : (perPlatform[p] * mean(p)) / laneOf[p], withLongest && perPlatform[p] > 0 ? longest(p) : 0),
        ),
        inLane.reduce((sum, p) => sum + perPlatform[p] * mean(p), 0) / concurrency,
        engine.offLane ? [...offLane].reduce((sum, p) => sum + (perPlatform[p] ?? 0) * mean(p), 0) / engine.offLane.maxWaiting : 0,
      );
    const idealMs = ideal((p) => meanMs[p], true);
    const workIdealMs = ideal((p) => meanMs[p], false);
    return {
      engine: engine.name,
      probes: n,
      latency_ms: nominalMs,
      concurrency,
      lane_concurrency: laneOf[platforms[0]],
      platform_concurrency: laneOf,
      probes_per_platform: perPlatform,
      mean_latency_ms: meanMs,
      nominal_ideal_ms: Math.round(ideal(() => nominalMs, false)),
      ...(engine.offLane ? { off_lane: { platforms: [...engine.offLane.platforms], max_waiting: engine.offLane.maxWaiting } } : {}),
      ...(provider ? { provider: { lines: provider.lines, detail: provider.detail } } : {}),
      ...(engine.describe ? { engine_config: engine.describe() } : {}),
      max_in_flight_seen: maxInFlight,
      status: run.status,
      succeeded: run.probe_counts?.succeeded ?? -1,
      create_ms: Math.round(createMs),
      wall_ms: Math.round(wallMs),
      cpu_us_per_probe: Math.round((cpu.user + cpu.system) / n),
      ...(warmUp > 0 ? { warm_up_probes: warmUp } : {}),
      steps_us_per_probe: stepSplit(steps, (cpu.user + cpu.system) / 1000, n),
      ...(statements.size > 0
        ? {
            statements_per_probe: Object.fromEntries(
              [...statements]
                .sort((a, b) => b[1].ms - a[1].ms)
                .map(([kind, s]) => [kind, { n: Number((s.n / n).toFixed(2)), us: Math.round((s.ms * 1000) / n) }]),
            ),
          }
        : {}),
      ...(threads ? { threads_us_per_probe: { main: Math.round((threads.main * 1000) / n), others: Math.round((threads.others * 1000) / n) } } : {}),
      ...(sched0 && sched1
        ? {
            main_thread_on_cpu_pct: Math.round((100 * (sched1.cpuMs - sched0.cpuMs)) / wallMs),
            main_thread_runqueue_wait_pct: Math.round((100 * (sched1.waitMs - sched0.waitMs)) / wallMs),
          }
        : {}),
      finished_read_cpu_ms: Number(((readCpu.user + readCpu.system) / 1000 / 10).toFixed(1)),
      finished_read_bytes: readBytes,
      ideal_ms: Math.round(idealMs),
      work_ideal_ms: Math.round(workIdealMs),
      ratio: Number((wallMs / idealMs).toFixed(3)),
      baseline_rss_mb: Number(mb(base.rss)),
      peak_rss_mb: Number(mb(peakRss)),
      baseline_heap_mb: Number(mb(base.heapUsed)),
      peak_heap_mb: Number(mb(peakHeap)),
      heap_after_gc_mb: Number(mb(heapAfterGc)),
    };
  } finally {
    await service.close();
  }
}

/** Per-probe µs of each step, and `other`: the process's CPU not spent in a timed step. */
function stepSplit(steps: Record<string, number>, cpuMs: number, n: number): Record<string, number> {
  const out: Record<string, number> = {};
  let timed = 0;
  for (const [step, ms] of Object.entries(steps)) {
    out[step] = Math.round((ms * 1000) / n);
    timed += ms;
  }
  out.other = Math.round(((cpuMs - timed) * 1000) / n);
  return out;
}

function completionInChild(n: number): Promise<CompletionResult> {
  const script = fileURLToPath(import.meta.url);
  const childArgs = [
    '--expose-gc', '--import', 'tsx', script, '--child', '--probes', String(n), '--latency', String(latencyMs), '--concurrency', String(concurrency),
    '--engine', engineName, '--poll', pollMode, '--poll-ms', String(pollMs), '--delay-min', String(engineOpts.delayMinMs), '--delay-max', String(engineOpts.delayMaxMs),
    '--seed', String(engineOpts.seed), ...(engineOpts.laneConcurrency !== undefined ? ['--lane-concurrency', String(engineOpts.laneConcurrency)] : []),
    '--consumer-lane-concurrency', String(engineOpts.consumerLaneConcurrency), '--task-min', String(engineOpts.taskMinMs), '--task-max', String(engineOpts.taskMaxMs),
    '--max-waiting', String(engineOpts.maxWaiting), '--warm-up', String(warmUp),
    ...(engineOpts.consumer ? [] : ['--no-consumer']),
    // One profile per completion size: --cpu-prof FILE writes FILE-<probes>.cpuprofile.
    ...(cpuProfFile && !args.flag('--child') ? ['--cpu-prof', `${cpuProfFile.replace(/\.cpuprofile$/, '')}-${n}.cpuprofile`] : []),
  ];
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, childArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`completion child for ${n} probes exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()!));
    });
  });
}

function reportCompletion(r: CompletionResult) {
  if (r.engine_config) log(`engine     ${r.engine_config}`);
  if (r.provider) {
    const platforms = Object.keys(r.platform_concurrency);
    const off = new Set(r.off_lane?.platforms ?? []);
    const realized = platforms
      .map((p) => `${p} ${fmt(r.probes_per_platform[p])} × ${r.mean_latency_ms[p]} ms / ${off.has(p) ? `${r.off_lane!.max_waiting} waiting (off its lane)` : r.platform_concurrency[p]}`)
      .join(', ');
    log(
      `completion ${fmt(r.probes)} probes over ${platforms.length} platforms, nominal ${r.latency_ms} ms, ${r.concurrency} in flight overall (max seen ${r.max_in_flight_seen}): ` +
        `wall ${fmt(r.wall_ms / 1000, 2)} s, ideal ${fmt(r.ideal_ms / 1000, 2)} s, ratio ${r.ratio.toFixed(2)}× (target ≤ 1.25×) — ${r.status} (${fmt(r.succeeded)} succeeded), create ${r.create_ms} ms, CPU ${fmt(r.cpu_us_per_probe)} µs/probe`,
    );
    log(
      `ideal      max over platforms of max(probes × realized mean / concurrency, longest answer) (${realized}) = ${fmt(r.ideal_ms / 1000, 2)} s ` +
        `(work alone ${fmt((r.work_ideal_ms ?? r.ideal_ms) / 1000, 2)} s, ratio ${(r.wall_ms / (r.work_ideal_ms ?? r.ideal_ms)).toFixed(2)}×); ` +
        `with the nominal ${r.latency_ms} ms: ${fmt(r.nominal_ideal_ms / 1000, 2)} s (ratio ${(r.wall_ms / r.nominal_ideal_ms).toFixed(2)}×)`,
    );
    for (const line of r.provider.lines) log(line);
  } else {
    log(
      `completion ${fmt(r.probes)} probes × ${r.latency_ms} ms / ${r.concurrency} in flight (lanes ${r.lane_concurrency}/platform, max seen ${r.max_in_flight_seen}): ` +
        `wall ${fmt(r.wall_ms / 1000, 2)} s, ideal ${fmt(r.ideal_ms / 1000, 2)} s, ratio ${r.ratio.toFixed(2)}× (target ≤ 1.25×) — ${r.status} (${fmt(r.succeeded)} succeeded), create ${r.create_ms} ms, CPU ${fmt(r.cpu_us_per_probe)} µs/probe`,
    );
  }
  if (r.warm_up_probes) log(`warm-up    measured after a run of ${fmt(r.warm_up_probes)} probes in the same process (--warm-up)`);
  if (r.steps_us_per_probe) {
    const order = ['mentions', 'prominence', 'brands', 'entities', 'judge', 'summary', 'sqlite', 'other'];
    const parts = order.filter((k) => r.steps_us_per_probe[k] !== undefined).map((k) => `${k} ${fmt(r.steps_us_per_probe[k])}`);
    log(
      `steps      CPU per probe by step (µs): ${parts.join(', ')} (summary: the run summaries the polls read; sqlite: SQLite's own statement work; ` +
        `other: HTTP, Kysely, worker, platform simulation, V8's background threads)`,
    );
  }
  if (r.threads_us_per_probe) {
    log(
      `threads    CPU per probe by thread (µs): event loop ${fmt(r.threads_us_per_probe.main)}, other threads ${fmt(r.threads_us_per_probe.others)} ` +
        `(V8's garbage collector and compiler, the WAL checkpoints)`,
    );
  }
  if (r.statements_per_probe) {
    const all = Object.values(r.statements_per_probe);
    const parts = Object.entries(r.statements_per_probe)
      .filter(([, s]) => s.n >= 0.01)
      .map(([kind, s]) => `${kind} ${s.n} (${fmt(s.us)} µs)`);
    log(
      `sqlite     ${all.reduce((sum, s) => sum + s.n, 0).toFixed(2)} statements a probe, ${fmt(all.reduce((sum, s) => sum + s.us, 0))} µs: ${parts.join(', ')}`,
    );
  }
  if (r.finished_read_cpu_ms !== undefined) {
    log(`read       the finished run read again: ${fmt(r.finished_read_cpu_ms, 1)} ms of CPU per read, ${fmt(r.finished_read_bytes ?? 0)} bytes`);
  }
  if (r.main_thread_on_cpu_pct !== undefined) {
    log(
      `event loop ${r.main_thread_on_cpu_pct}% of the wall time on a CPU, ${r.main_thread_runqueue_wait_pct}% runnable but waiting for a CPU (other load), ` +
        `${Math.max(0, 100 - r.main_thread_on_cpu_pct - r.main_thread_runqueue_wait_pct!)}% idle (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`,
    );
  }
  log(
    `memory     ${fmt(r.probes)} probes: peak RSS ${r.peak_rss_mb} MB (baseline ${r.baseline_rss_mb} MB), ` +
      `peak heap ${r.peak_heap_mb} MB (baseline ${r.baseline_heap_mb} MB, ${r.heap_after_gc_mb} MB after the run and a GC)`,
  );
}

// ---------------------------------------------------------------------------------------------

if (args.flag('--child')) {
  const result = await runCompletion(probes);
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}

const latencyText = engineName === 'live' ? `fake provider delay ${engineOpts.delayMinMs}–${engineOpts.delayMaxMs} ms (seed ${engineOpts.seed})` : `latency ${latencyMs} ms`;
log(`bench:runs — engine ${engineName}, SQLite, embedded worker, concurrency ${concurrency} overall, ${latencyText}, poll ${pollMode === 'run' ? 'the run' : 'the run list'} every ${pollMs} ms`);
const summary: Record<string, unknown> = {
  bench: 'runs',
  date: new Date().toISOString(),
  node: process.version,
  engine: engineName,
  concurrency,
  ...(engineName === 'live'
    ? { delay_min_ms: engineOpts.delayMinMs, delay_max_ms: engineOpts.delayMaxMs, seed: engineOpts.seed, lane_concurrency: engineOpts.laneConcurrency ?? 16 }
    : { latency_ms: latencyMs }),
};
// The host's speed, to place these figures beside other hosts' (bench/lib/calibration.ts).
summary.calibration_ms = hostCalibrationMs();
log(`host       calibration ${fmt(summary.calibration_ms as number, 1)} ms: CPU of a fixed pure-JS workload (loop, JSON, regex; best of 7; lower is faster)`);
if (!args.flag('--skip-create')) {
  const c = await benchCreate();
  summary.create = c;
  log(
    `create     ${c.small_runs} runs of 2 prompts × 3 platforms, ${c.small_in_flight} in flight: ${fmt(c.small_runs_per_s, 1)} runs/s ` +
      `(${fmt(c.small_probes_per_s)} probes/s), p50 ${c.small_p50_ms.toFixed(1)} ms, p99 ${c.small_p99_ms.toFixed(1)} ms`,
  );
  log(`create     one ${c.large_probes}-probe run (100 prompts × ${c.large_platforms} platforms): ${c.large_create_ms.join(' / ')} ms (3 tries)`);
}
let pass = true;
if (!args.flag('--skip-completion')) {
  const sizes = smallProbes > 0 && smallProbes !== probes ? [smallProbes, probes] : [probes];
  const results: CompletionResult[] = [];
  for (const n of sizes) {
    const r = await completionInChild(n);
    reportCompletion(r);
    results.push(r);
  }
  summary.completion = results;
  const full = results[results.length - 1];
  pass = full.ratio <= 1.25 && full.status === 'completed';
  if (results.length === 2) {
    const [a, b] = results;
    log(
      `memory     growth ${fmt(a.probes)} → ${fmt(b.probes)} probes: peak RSS ${(b.peak_rss_mb - a.peak_rss_mb).toFixed(1)} MB, ` +
        `peak heap ${(b.peak_heap_mb - a.peak_heap_mb).toFixed(1)} MB`,
    );
  }
  log(`completion target (≤ 1.25× ideal): ${pass ? 'PASS' : 'FAIL'}`);
}
summary.pass = pass;
if (asJson) process.stdout.write(JSON.stringify(summary) + '\n');
process.exit(pass ? 0 : 1);
