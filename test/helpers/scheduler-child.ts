// A scheduler process for tests: opens the database named by DATABASE_URL, ticks its scheduler
// `ticks` times with the clock fixed at argv[2], and prints what it claimed, ran and skipped.
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { Scheduler } from '../../src/core/tracking/scheduler.ts';

const clock = new Date(process.argv[2]);
const ticks = Number(process.argv[3] ?? 3);
const runtime = await openRuntime(loadConfig({ ...process.env, SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }), { migrate: false });
const scheduler = new Scheduler(runtime.core.tracking, { now: () => clock, onError: (err) => process.stderr.write(`${String(err)}\n`) });
const total = { claimed: 0, runs: 0, skipped: 0 };
for (let i = 0; i < ticks; i++) {
  const r = await scheduler.tick();
  total.claimed += r.claimed;
  total.runs += r.runs;
  total.skipped += r.skipped;
}
await runtime.close();
process.stdout.write(JSON.stringify(total));
