// Benchmark for webhook deliveries: N events (default 10,000), each delivered to an endpoint on a
// local receiver (127.0.0.1) by the embedded worker, as `npm start` runs it. Events are emitted
// one per transaction (as a run's last probe or a skipped slot emits them), paced at --rate per
// second (default 500; 0 = all at once). Reports deliveries per second, the time from each event
// to its first attempt reaching the receiver (p50, p99, max; target p99 ≤ 2 s), and checks that
// every message arrived exactly once with a valid signature.
// The one thing to know: the database is a fresh temp SQLite file (or a new Postgres database,
// dropped afterwards), never ./data.
//
//   npm run bench:webhooks
//   npm run bench:webhooks -- --db postgres --events 10000 --rate 500 --concurrency 16
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/server/runtime.ts';
import { createEndpoint } from '../src/core/webhooks/endpoints.ts';
import { emitEvent } from '../src/core/webhooks/events.ts';
import { startReceiver } from '../test/helpers/webhook-receiver.ts';
import { fmt, freshBenchDb, parseArgs, seedAccount } from './lib/common.ts';

const args = parseArgs();
const kind = (args.opt('--db') ?? 'sqlite') as 'sqlite' | 'postgres';
const N = args.num('--events', 10_000);
const rate = args.num('--rate', 500);
const concurrency = args.num('--concurrency', 16);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main() {
  const db = await freshBenchDb(kind, 'webhooks');
  const rx = await startReceiver();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: db.url,
    SIGHTLINE_LOG_LEVEL: 'silent',
    SIGHTLINE_SCHEDULER_INTERVAL_MS: '0',
    SIGHTLINE_FETCH_ALLOW: '127.0.0.1',
    SIGHTLINE_WEBHOOK_CONCURRENCY: String(concurrency),
  });
  const rt = await openRuntime(config);
  try {
    const { accountId } = await seedAccount(rt.core.store, 0);
    const wh = await createEndpoint(rt.core.webhooks, accountId, { url: rx.url('/bench'), events: ['*'] });
    // Signatures are checked as each request arrives: the timestamp is the attempt's, and the
    // library (rightly) refuses timestamps older than five minutes.
    const verifier = new Webhook(wh.secret!);
    let badSignatures = 0;
    const payloads = new Set<number>();
    rx.answer = (r) => {
      try {
        payloads.add((verifier.verify(r.body, r.headers as Record<string, string>) as { data: { n: number } }).data.n);
      } catch {
        badSignatures++;
      }
      return { status: 200 };
    };
    rt.core.startWorker();
    const started = Date.now();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      if (rate > 0) {
        const due = started + (i * 1000) / rate;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      await rt.core.store.db.transaction().execute((trx) =>
        emitEvent(trx, { accountId, type: 'credits.low', dedupeKey: `bench:${i}`, data: { n: i, available_credits: '1.00', threshold: '5.00' } }),
      );
    }
    const emitted = Date.now();
    await rx.waitFor(N, () => true, Math.max(120_000, N * 50));
    const finished = Date.now();
    const cpu = process.cpuUsage(cpu0);
    // Let stragglers (duplicates, if there were any) arrive before counting.
    await new Promise((r) => setTimeout(r, 1000));

    const created = new Map(
      (await rt.core.store.db.selectFrom('webhook_messages').innerJoin('webhook_events', 'webhook_events.id', 'webhook_messages.event_id').select(['webhook_messages.id', 'webhook_events.created_at']).execute()).map((r) => [
        r.id,
        Date.parse(r.created_at),
      ]),
    );
    const seen = new Map<string, number>();
    const latencies: number[] = [];
    for (const r of rx.received) {
      const id = String(r.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (seen.get(id) === 1) latencies.push(r.at - created.get(id)!);
    }
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    latencies.sort((a, b) => a - b);
    const seconds = (finished - started) / 1000;
    const lines = [
      `webhooks bench (${kind}, ${fmt(N)} events at ${rate > 0 ? `${fmt(rate)}/s` : 'once'}, ${concurrency} deliveries in flight, one worker)`,
      `  emitted in ${fmt((emitted - started) / 1000, 1)} s; all delivered after ${fmt(seconds, 1)} s: ${fmt(N / seconds, 0)} deliveries/s`,
      `  event → first attempt: p50 ${fmt(pct(latencies, 50))} ms, p99 ${fmt(pct(latencies, 99))} ms, max ${fmt(latencies.at(-1) ?? NaN)} ms`,
      `  received ${fmt(rx.received.length)} requests for ${fmt(seen.size)} messages: ${duplicates} duplicated, ${N - payloads.size} missing, ${badSignatures} bad signatures`,
      `  process CPU ${fmt((cpu.user + cpu.system) / 1e6, 1)} s (user ${fmt(cpu.user / 1e6, 1)} s, system ${fmt(cpu.system / 1e6, 1)} s)`,
    ];
    console.log(lines.join('\n'));
    if (duplicates || badSignatures || payloads.size !== N) process.exitCode = 1;
  } finally {
    await rt.close({ graceMs: 1000 });
    await rx.close();
    await db.drop();
  }
}

await main();
