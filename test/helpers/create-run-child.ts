// A process that creates paid runs for tests: opens the database named by DATABASE_URL and makes
// `count` concurrent visibility-run creates and `count` Content Intelligence-run creates, all
// with the idempotency keys and bodies given, for the account in argv[2]; prints the run ids.
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/server/runtime.ts';
import { createVisibilityRun } from '../../src/core/visibility/runs.ts';
import type { CreateRunInput } from '../../src/core/visibility/plan.ts';

const [accountId, count, visibilityBody, ciBody] = [process.argv[2]!, Number(process.argv[3]), JSON.parse(process.argv[4]!), JSON.parse(process.argv[5]!)];
const runtime = await openRuntime(loadConfig({ ...process.env, SIGHTLINE_LOG_LEVEL: 'silent', SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' }), { migrate: false });
const ctx = () => ({ accountId, source: 'api', requestId: `req_child_${process.pid}`, credits: 0 });
const [visibility, ci] = await Promise.all([
  Promise.all(Array.from({ length: count }, () => createVisibilityRun(runtime.core.visibility, ctx(), visibilityBody as CreateRunInput))),
  Promise.all(Array.from({ length: count }, () => runtime.core.content.createRun(ctx(), ciBody))),
]);
await runtime.close();
process.stdout.write(JSON.stringify({ visibility: visibility.map((r) => r.run_id), ci: ci.map((r) => r.run_id) }));
