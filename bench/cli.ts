// How fast the `sightline` bin starts: a user command (which loads only commander, the typed
// client and the derived command table) against an operator command's help (which loads the
// engine, as every user command did before src/cli/main.ts split them), each run ROUNDS times in
// a fresh process; prints the median and the spread of the wall times. Target: every user
// command's median at most half the operator command's (it loads none of the engine).
//
//   npm run bench:cli            (CLI_BENCH_ROUNDS, default 9)
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/sightline.js', import.meta.url));
const ROUNDS = Number(process.env.CLI_BENCH_ROUNDS ?? 9);
// A server that is not there: the user command fails fast on connect, so only start-up is timed.
const env = { ...process.env, SIGHTLINE_API_URL: 'http://127.0.0.1:9', SIGHTLINE_API_KEY: 'svc_api_live_bench' };

function time(args: string[]): number[] {
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    spawnSync(process.execPath, [BIN, ...args], { env, stdio: 'ignore' });
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b);
}

const cases: [string, string[]][] = [
  ['sightline --version', ['--version']],
  ['sightline usage --json (no server)', ['usage', '--json']],
  ['sightline visibility run --help', ['visibility', 'run', '--help']],
  ['sightline --help (operator, loads the engine)', ['--help']],
];
time(['--version']); // warm tsx's transform cache
const medians = cases.map(([label, args]) => {
  const ms = time(args);
  const median = ms[Math.floor(ms.length / 2)];
  console.log(`${label.padEnd(48)} median ${median.toFixed(0).padStart(5)} ms  (min ${ms[0].toFixed(0)}, max ${ms[ms.length - 1].toFixed(0)}, ${ROUNDS} runs)`);
  return median;
});
const operator = medians[medians.length - 1];
const slowest = Math.max(...medians.slice(0, -1));
const pass = slowest <= operator / 2;
console.log(`${pass ? 'PASS' : 'FAIL'}: the slowest user command's median is ${((slowest / operator) * 100).toFixed(0)}% of the operator command's (target ≤ 50%)`);
if (!pass) process.exitCode = 1;
