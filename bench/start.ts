// How fast `sightline serve` is ready: wall time from spawning the bin to the first 200 from
// /readyz, on a fresh SQLite database each time (migrations included), with the compiled
// JavaScript in dist/ and with the TypeScript through tsx (SIGHTLINE_NO_DIST=1). Prints the
// median and spread of each. The compiled start must be the faster one.
//
//   npm run bench:start          (START_BENCH_ROUNDS, default 7)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/sightline.js', import.meta.url));
const ROUNDS = Number(process.env.START_BENCH_ROUNDS ?? 7);
const PORT = 18_000 + (process.pid % 1000);

async function startOnce(noDist: boolean): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-start-'));
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, PORT: String(PORT), HOST: '127.0.0.1', SIGHTLINE_LOG_LEVEL: 'warn', SIGHTLINE_NO_DIST: noDist ? '1' : '0' };
  const t = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], { env, stdio: 'ignore' });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/readyz`).then((r) => r.ok, () => false);
      if (ok) return performance.now() - t;
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
      if (performance.now() - t > 60_000) throw new Error('serve not ready after 60 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url))], { stdio: 'inherit' });
const results: Record<string, number> = {};
for (const [label, noDist] of [['compiled (dist/)', false], ['TypeScript via tsx', true]] as const) {
  await startOnce(noDist); // warm the file cache (and tsx's transform cache)
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) ms.push(await startOnce(noDist));
  ms.sort((a, b) => a - b);
  results[label] = ms[Math.floor(ms.length / 2)]!;
  console.log(`sightline serve → /readyz 200, ${label.padEnd(20)} median ${results[label]!.toFixed(0).padStart(5)} ms  (min ${ms[0]!.toFixed(0)}, max ${ms[ms.length - 1]!.toFixed(0)}, ${ROUNDS} runs)`);
}
const pass = results['compiled (dist/)']! < results['TypeScript via tsx']!;
console.log(`${pass ? 'PASS' : 'FAIL'}: the compiled start is ${(results['TypeScript via tsx']! / results['compiled (dist/)']!).toFixed(1)}× as fast as tsx`);
if (!pass) process.exitCode = 1;
