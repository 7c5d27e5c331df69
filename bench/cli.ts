// How fast the `sightline` bin starts. Each command line runs once right after dist/ is rebuilt
// (cold: its compiled files just written, none of them run yet) and then ROUNDS times in fresh
// processes (warm); prints the wall times (median and spread) and, where GNU time is installed
// (/usr/bin/time, Debian package `time`), the CPU time (user + system): the comparable figure when
// other work shares the machine. Targets: every help and --version within 300 ms (warm median and
// cold), and every user command and help at most half of an operator command that loads the
// engine (`credits reconcile` on a database of its own).
//
//   npm run bench:cli            (CLI_BENCH_ROUNDS, default 9)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/sightline.js', import.meta.url));
const BUILD = fileURLToPath(new URL('../scripts/build.mjs', import.meta.url));
const ROUNDS = Number(process.env.CLI_BENCH_ROUNDS ?? 9);
const LIMIT_MS = 300;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const dir = mkdtempSync(join(tmpdir(), 'sightline-bench-cli-'));
const timeFile = join(dir, 'time');
// A server that is not there: a user command fails fast on connect, so only start-up is timed.
const env = {
  ...process.env,
  SIGHTLINE_API_URL: 'http://127.0.0.1:9',
  SIGHTLINE_API_KEY: 'svc_api_live_bench',
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  SIGHTLINE_LOG_LEVEL: 'warn',
};

/** One fresh process: wall time, and CPU time (NaN without GNU time), in ms. */
function once(args: string[]): { wall: number; cpu: number } {
  const [cmd, argv] = TIME ? [TIME, ['-f', '%U %S', '-o', timeFile, process.execPath, BIN, ...args]] : [process.execPath, [BIN, ...args]];
  const t = performance.now();
  spawnSync(cmd, argv, { env, stdio: 'ignore' });
  const wall = performance.now() - t;
  const cpu = TIME ? readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').reduce((s, x) => s + Number(x) * 1000, 0) : Number.NaN;
  return { wall, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => (Number.isNaN(x) ? '   -' : x.toFixed(0).padStart(4));

const cases: { label: string; args: string[]; limited: boolean }[] = [
  { label: 'sightline --version', args: ['--version'], limited: true },
  { label: 'sightline usage --json (no server)', args: ['usage', '--json'], limited: false },
  { label: 'sightline visibility run --help', args: ['visibility', 'run', '--help'], limited: true },
  { label: 'sightline --help (operator usage)', args: ['--help'], limited: true },
  { label: 'sightline credits grant --help', args: ['credits', 'grant', '--help'], limited: true },
  { label: 'sightline credits reconcile (loads the engine)', args: ['credits', 'reconcile', '--json'], limited: false },
];

try {
  spawnSync(process.execPath, [BIN, 'migrate'], { env, stdio: 'ignore' });
  const results = cases.map(({ label, args, limited }) => {
    spawnSync(process.execPath, [BUILD], { stdio: 'ignore' });
    const cold = once(args);
    const warm = Array.from({ length: ROUNDS }, () => once(args));
    const walls = warm.map((s) => s.wall).sort((a, b) => a - b);
    const r = { label, limited, cold, wall: median(walls), cpu: median(warm.map((s) => s.cpu)) };
    console.log(
      `${label.padEnd(48)} warm median ${ms(r.wall)} ms (min ${ms(walls[0]!)}, max ${ms(walls.at(-1)!)}; CPU ${ms(r.cpu)} ms)  cold ${ms(cold.wall)} ms (CPU ${ms(cold.cpu)} ms)`,
    );
    return r;
  });
  const engine = results.at(-1)!;
  let pass = true;
  for (const r of results.slice(0, -1)) {
    // On a shared machine the wall time is mostly waiting for a core: the CPU time stands in for it.
    const warm = Number.isNaN(r.cpu) ? r.wall : Math.min(r.wall, r.cpu);
    const cold = Number.isNaN(r.cold.cpu) ? r.cold.wall : Math.min(r.cold.wall, r.cold.cpu);
    if (r.limited && (warm > LIMIT_MS || cold > LIMIT_MS)) {
      pass = false;
      console.log(`FAIL: ${r.label} took ${warm.toFixed(0)} ms warm, ${cold.toFixed(0)} ms cold (limit ${LIMIT_MS} ms)`);
    }
    if (r.wall > engine.wall / 2 && !(r.cpu <= engine.cpu / 2)) {
      pass = false;
      console.log(`FAIL: ${r.label} is more than half of the engine's start (${engine.wall.toFixed(0)} ms, CPU ${ms(engine.cpu)} ms)`);
    }
  }
  console.log(pass ? `PASS: every help and --version within ${LIMIT_MS} ms, every user command and help at most half of an engine start` : 'FAIL');
  if (!pass) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
