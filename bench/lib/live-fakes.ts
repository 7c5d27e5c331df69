// Child process of the live bench engine (bench/lib/live-engine.ts): starts one fake provider
// per platform (test/fakes/providers, real wire formats) on 127.0.0.1, each answering after a
// uniformly random delay drawn from a seeded PRNG, and measures from the server's side how long
// every request really took (request start → response finished, via node's http diagnostics
// channels). The one thing to know: the fakes live in their own process on purpose, so that the
// service's event loop being busy cannot stretch the "provider" delay (which would hide service
// overhead inside the ideal), and their CPU and memory stay out of the service's figures.
//
// Protocol (IPC, started with fork): argv JSON {platforms, delayMinMs, delayMaxMs, seed} →
// sends {type:'ready', env, origins}; on {type:'stats'} → {type:'stats', stats}; on
// {type:'close'} closes the servers and exits.
import dc from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiPlatform as PlatformName } from '../../src/platforms/types.ts';
import { startFakeProvider, type FakeAnswer, type FakeProvider } from '../../test/fakes/providers/index.ts';
import { startFakeDataForSeo } from '../../test/fakes/providers/consumer.ts';

export interface FakesConfig {
  platforms: PlatformName[];
  delayMinMs: number;
  delayMaxMs: number;
  seed: number;
  /**
   * Consumer surfaces served by one fake DataForSEO with its task flow: each posted task is ready
   * after a delay drawn uniformly from [taskMinMs, taskMaxMs] (seeded). Empty: none.
   */
  consumerPlatforms?: string[];
  taskMinMs?: number;
  taskMaxMs?: number;
}

/** DataForSEO API path of each consumer surface the bench uses (as src/platforms/consumer/dataforseo.ts). */
const DFS_API: Record<string, string> = {
  google_ai_overview: 'serp/google/organic',
  google_ai_mode: 'serp/google/ai_mode',
  chatgpt_app: 'ai_optimization/chat_gpt/llm_scraper',
};

export interface PlatformLatency {
  /** Provider requests answered (redirect lookups and unknown paths included, if any). */
  requests: number;
  /** Mean of the delays drawn from the PRNG (what the fake scheduled). */
  drawnMeanMs: number;
  /** Mean measured on the server: request start → response finished (delay + timer lag + I/O). */
  servedMeanMs: number;
  servedP50Ms: number;
  servedP99Ms: number;
  servedMaxMs: number;
  /** Most requests this fake had open at the same time (= the service's effective lane width). */
  maxOpen: number;
  /**
   * Requests open on average between the first request and the last answer (Σ served / span).
   * Below the lane's concurrency means the service did not keep the lane full.
   */
  avgOpen: number;
}

export interface FakesStats {
  platforms: Record<string, PlatformLatency>;
  /** CPU of the fake process per answered request, µs. */
  cpuUsPerRequest: number;
}

/** mulberry32: small, fast, and good enough to make delay sequences reproducible per seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Answers shaped like real ones for "best crm tools for teams": a ranked list that mentions the
// run's target (Acme CRM) in most variants, competitors, and several citations including the
// run's own URL, so brand/competitor/citation analysis does its normal amount of work.
const CITES = [
  { url: 'https://www.example.com/crm', title: 'Acme CRM — pipelines for small teams' },
  { url: 'https://reviews.example.org/best-crm-2026', title: 'The best CRM software of 2026' },
  { url: 'https://www.globex.example/sales-cloud', title: 'Globex Sales Cloud' },
  { url: 'https://news.example.net/crm-market-report', title: 'CRM market report' },
  { url: 'https://initech.example/crm/pricing', title: 'Initech CRM pricing' },
  { url: 'https://forum.example.com/t/which-crm-for-a-10-person-team', title: 'Which CRM for a 10-person team?' },
];
const ANSWERS: FakeAnswer[] = [
  {
    text:
      'For small and mid-sized sales teams, these CRM tools come up most often in reviews:\n\n' +
      '1. **Globex Sales Cloud**: the broadest feature set, strong reporting, but expensive at scale.\n' +
      '2. **Acme CRM**: simple pipelines, fast setup and fair per-seat pricing; popular with startups.\n' +
      '3. **Initech CRM**: good automation and integrations, steeper learning curve.\n' +
      '4. **Pipedrive**: visual deal pipeline, limited marketing features.\n\n' +
      'If your team is under 20 people and wants to be productive in a day, Acme CRM or Pipedrive are the usual picks; ' +
      'larger teams with complex processes tend to choose Globex.',
    citations: CITES.slice(0, 5),
  },
  {
    text:
      'Top CRM tools for teams in 2026:\n\n' +
      '- Acme CRM — frequently recommended for its clean interface and email sync (see acme reviews).\n' +
      '- Initech CRM — strong workflow automation.\n' +
      '- Globex Sales Cloud — enterprise-grade, highly customisable.\n\n' +
      'Most comparisons rate Acme CRM best for ease of use and Globex best for customisation.',
    citations: [CITES[1]!, CITES[0]!, CITES[5]!],
  },
  {
    text:
      'Popular CRM choices for teams include Globex Sales Cloud, Initech CRM and HubSpot. ' +
      'Globex leads on analytics, Initech on automation, and HubSpot offers a generous free tier. ' +
      'Evaluate them on pipeline management, integrations with your email and calendar, and per-seat cost.',
    citations: [CITES[2]!, CITES[3]!, CITES[4]!],
  },
];

export async function startFakes(cfg: FakesConfig) {
  const cpu0 = process.cpuUsage();
  const byPort = new Map<number, PlatformName>();
  const drawn: Record<string, number[]> = {};
  const served: Record<string, number[]> = {};
  const open: Record<string, { now: number; max: number; first: number; last: number }> = {};
  const startedAt = new WeakMap<IncomingMessage, number>();
  const portOf = (socket: Socket | undefined) => (socket ? byPort.get(socket.localPort ?? -1) : undefined);

  const onStart = (m: unknown) => {
    const { request, socket } = m as { request: IncomingMessage; socket: Socket };
    const p = portOf(socket);
    if (!p) return;
    startedAt.set(request, performance.now());
    const o = open[p]!;
    o.max = Math.max(o.max, ++o.now);
    if (o.first < 0) o.first = performance.now();
  };
  const onFinish = (m: unknown) => {
    const { request, socket } = m as { request: IncomingMessage; response: ServerResponse; socket: Socket };
    const t0 = startedAt.get(request);
    const p = portOf(socket);
    if (t0 === undefined || !p) return;
    const t = performance.now();
    served[p]!.push(t - t0);
    open[p]!.now--;
    open[p]!.last = t;
  };
  dc.subscribe('http.server.request.start', onStart);
  dc.subscribe('http.server.response.finish', onFinish);

  const fakes: FakeProvider[] = [];
  for (const [i, platform] of cfg.platforms.entries()) {
    // One PRNG per platform (seed + index): a platform's delay sequence does not depend on how
    // requests interleave across platforms, so runs with the same seed are comparable.
    const rand = mulberry32(cfg.seed + i * 0x9e3779b9);
    drawn[platform] = [];
    served[platform] = [];
    open[platform] = { now: 0, max: 0, first: -1, last: -1 };
    const fake = await startFakeProvider(platform, (_req, index) => {
      const delayMs = cfg.delayMinMs + rand() * (cfg.delayMaxMs - cfg.delayMinMs);
      drawn[platform]!.push(delayMs);
      return { delayMs, answer: ANSWERS[index % ANSWERS.length] };
    });
    byPort.set(Number(new URL(fake.origin).port), platform);
    fakes.push(fake);
  }
  const env = Object.assign({}, ...fakes.map((f) => f.env)) as Record<string, string>;
  const origins = fakes.map((f) => f.origin);

  // Consumer surfaces: one fake DataForSEO; the time until a task is ready is drawn per task and
  // recorded per surface (the probe's provider latency is that wait, not an HTTP request's).
  const consumer = cfg.consumerPlatforms ?? [];
  const taskDrawn: Record<string, number[]> = Object.fromEntries(consumer.map((p) => [p, []]));
  let dfs: Awaited<ReturnType<typeof startFakeDataForSeo>> | undefined;
  if (consumer.length) {
    const rand = mulberry32(cfg.seed + 0x51f15eed);
    const lo = cfg.taskMinMs ?? 5_000;
    const hi = cfg.taskMaxMs ?? 40_000;
    dfs = await startFakeDataForSeo({ taskLatencyMs: () => lo + rand() * (hi - lo) });
    Object.assign(env, dfs.env);
    origins.push(dfs.origin);
    for (const p of consumer) env[`SIGHTLINE_${p.toUpperCase()}_PROVIDER`] = 'dataforseo';
  }
  const consumerStats = (): Record<string, PlatformLatency> => {
    if (!dfs) return {};
    for (const p of consumer) taskDrawn[p] = [];
    for (const t of dfs.tasks.values()) {
      const p = consumer.find((c) => DFS_API[c] === t.api);
      if (p) taskDrawn[p]!.push(t.readyAt - t.postedAt);
    }
    return Object.fromEntries(
      consumer.map((p) => {
        const xs = taskDrawn[p]!;
        const m = round(mean(xs));
        return [p, { requests: xs.length, drawnMeanMs: m, servedMeanMs: m, servedP50Ms: round(pct(xs, 50)), servedP99Ms: round(pct(xs, 99)), servedMaxMs: round(Math.max(0, ...xs)), maxOpen: 0, avgOpen: 0 }];
      }),
    );
  };

  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const pct = (xs: number[], p: number) => {
    if (!xs.length) return 0;
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  };
  const round = (n: number) => Number(n.toFixed(1));
  return {
    env,
    origins,
    stats(): FakesStats {
      const platforms: Record<string, PlatformLatency> = {};
      let total = 0;
      for (const p of cfg.platforms) {
        const s = served[p]!;
        total += s.length;
        platforms[p] = {
          requests: s.length,
          drawnMeanMs: round(mean(drawn[p]!)),
          servedMeanMs: round(mean(s)),
          servedP50Ms: round(pct(s, 50)),
          servedP99Ms: round(pct(s, 99)),
          servedMaxMs: round(Math.max(0, ...s)),
          maxOpen: open[p]!.max,
          avgOpen: s.length ? round(s.reduce((a, b) => a + b, 0) / (open[p]!.last - open[p]!.first)) : 0,
        };
      }
      Object.assign(platforms, consumerStats());
      const cpu = process.cpuUsage(cpu0);
      return { platforms, cpuUsPerRequest: total ? Math.round((cpu.user + cpu.system) / total) : 0 };
    },
    async close() {
      dc.unsubscribe('http.server.request.start', onStart);
      dc.unsubscribe('http.server.response.finish', onFinish);
      await Promise.all([...fakes.map((f) => f.close()), dfs?.close()]);
    },
  };
}

// Run as the child of bench/lib/live-engine.ts.
if (process.send && process.argv[2] === '--fakes') {
  const cfg = JSON.parse(process.argv[3]!) as FakesConfig;
  const fakes = await startFakes(cfg);
  process.on('message', async (msg: { type: string }) => {
    if (msg.type === 'stats') process.send!({ type: 'stats', stats: fakes.stats() });
    if (msg.type === 'close') {
      await fakes.close();
      process.disconnect();
      process.exit(0);
    }
  });
  // The parent died without saying close: do not linger.
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', env: fakes.env, origins: fakes.origins });
}
