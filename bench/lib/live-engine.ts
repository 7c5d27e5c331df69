// The `live` engine of bench:runs: the service runs with SIGHTLINE_PLATFORM_ENGINE=live, its real
// drivers (AI SDK, provider wire formats) talking to fake providers on 127.0.0.1 that answer
// after a seeded, uniformly random delay (bench/lib/live-fakes.ts, in a child process).
// The one thing to know: only loopback is ever contacted. The fakes listen on 127.0.0.1, the
// drivers' base URLs point there, and the drivers get a fetch that refuses any other host, so
// a driver that ignored its base URL would fail its probes instead of reaching the internet.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { undiciFetch } from '../../src/platforms/live/http.ts';
import type { ApiPlatform, PlatformName } from '../../src/platforms/types.ts';
import type { FakesConfig, FakesStats } from './live-fakes.ts';
import type { EngineFactory, ProviderStats } from './runs-service.ts';

/** The platforms the live bench spreads its probes over (three providers with distinct wire formats). */
export const LIVE_PLATFORMS: readonly ApiPlatform[] = ['openai', 'claude', 'perplexity'];

/**
 * Consumer surfaces the live bench adds (through one fake DataForSEO with its task flow: a task is
 * ready 5–40 s after it was posted). A probe waiting for its task holds no lane slot (up to
 * SIGHTLINE_WORKER_MAX_WAITING waiting probes, `--max-waiting`): the lane (default 64) holds only
 * the post and the fetch.
 */
export const LIVE_CONSUMER_PLATFORMS: readonly PlatformName[] = ['google_ai_overview', 'google_ai_mode', 'chatgpt_app'];

/** True for http(s) URLs whose host is a loopback address literal (127.0.0.0/8 or ::1). */
export function isLoopbackUrl(url: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // Literals only: a name like "localhost" would need a resolver we do not control.
  return url.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

/** A fetch that only reaches loopback; anything else is rejected before a socket is opened, and redirects are not followed. */
export function loopbackOnlyFetch(onRefused?: (url: string) => void): typeof fetch {
  return (input, init) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return Promise.reject(new TypeError(`bench: refused an unparsable URL ${raw}`));
    }
    if (!isLoopbackUrl(url)) {
      onRefused?.(url.origin);
      return Promise.reject(new TypeError(`bench: refused a request to ${url.origin} (only loopback may be contacted)`));
    }
    // A followed redirect would leave this check behind (undici follows it internally), so a
    // redirect is an error unless the caller handles it itself ('manual': its next request
    // comes through here again). Provider APIs do not redirect.
    // Over undiciFetch, as the service's default (src/server/runtime.ts) when no fetch is given.
    return undiciFetch(input, { ...init, redirect: init?.redirect === 'manual' ? 'manual' : 'error' });
  };
}

function request<T>(child: ChildProcess, msg: { type: string }, reply: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string } & Record<string, unknown>) => {
      if (m.type !== reply) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number | null) => reject(new Error(`fake providers exited (${code}) before answering ${msg.type}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (msg.type !== 'ready') child.send(msg);
  });
}

export const liveEngine: EngineFactory = async ({
  concurrency,
  laneConcurrency = 16,
  delayMinMs = 200,
  delayMaxMs = 800,
  seed = 1,
  consumer = true,
  consumerLaneConcurrency = 64,
  taskMinMs = 5_000,
  taskMaxMs = 40_000,
  maxWaiting = 1000,
}) => {
  const apiPlatforms = [...LIVE_PLATFORMS];
  const consumerPlatforms = consumer ? [...LIVE_CONSUMER_PLATFORMS] : [];
  const platforms: PlatformName[] = [...apiPlatforms, ...consumerPlatforms];
  const lanes = laneConcurrency * apiPlatforms.length + consumerLaneConcurrency * consumerPlatforms.length;
  if (concurrency < lanes) {
    // The overall limit would bind before the per-platform lanes, and the ideal would be a different one.
    throw new Error(
      `live engine: --concurrency ${concurrency} is below the sum of the lanes (${apiPlatforms.length} × ${laneConcurrency}` +
        (consumerPlatforms.length ? ` + ${consumerPlatforms.length} × ${consumerLaneConcurrency} consumer` : '') +
        ` = ${lanes}); pass --concurrency ${lanes} or --no-consumer`,
    );
  }
  if (!(delayMinMs >= 0 && delayMaxMs >= delayMinMs)) throw new Error(`live engine: need 0 ≤ delay min ≤ delay max (got ${delayMinMs}–${delayMaxMs})`);
  if (!(taskMinMs >= 0 && taskMaxMs >= taskMinMs)) throw new Error(`live engine: need 0 ≤ task min ≤ task max (got ${taskMinMs}–${taskMaxMs})`);
  const cfg: FakesConfig = { platforms: apiPlatforms, delayMinMs, delayMaxMs, seed, consumerPlatforms, taskMinMs, taskMaxMs };
  const child = fork(fileURLToPath(new URL('./live-fakes.ts', import.meta.url)), ['--fakes', JSON.stringify(cfg)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await request<{ env: Record<string, string>; origins: string[] }>(child, { type: 'ready' }, 'ready');
  for (const value of [...ready.origins, ...Object.entries(ready.env).filter(([k]) => k.endsWith('_BASE_URL')).map(([, v]) => v)]) {
    if (!isLoopbackUrl(new URL(value))) {
      child.kill();
      throw new Error(`live engine: fake provider URL ${value} is not loopback`);
    }
  }
  const refused = new Set<string>();
  const laneEnv = Object.fromEntries([
    ...apiPlatforms.map((p) => [`SIGHTLINE_${p.toUpperCase()}_CONCURRENCY`, String(laneConcurrency)]),
    ...consumerPlatforms.map((p) => [`SIGHTLINE_${p.toUpperCase()}_CONCURRENCY`, String(consumerLaneConcurrency)]),
  ]);
  const nominal = (delayMinMs + delayMaxMs) / 2;
  let closed = false;

  return {
    name: 'live (fake providers)',
    platforms,
    // The shared tasks_ready poller asks every second: the wait past a task's readiness is ~0.5 s on average.
    env: { SIGHTLINE_PLATFORM_ENGINE: 'live', SIGHTLINE_DATAFORSEO_POLL_MS: '1000', SIGHTLINE_WORKER_MAX_WAITING: String(maxWaiting), ...ready.env, ...laneEnv },
    offLane: consumerPlatforms.length && maxWaiting > 0 ? { platforms: consumerPlatforms, maxWaiting } : undefined,
    fetch: loopbackOnlyFetch((origin) => refused.add(origin)),
    describe: () =>
      `fakes ${apiPlatforms.join(', ')} on 127.0.0.1 (own process), delay uniform ${delayMinMs}–${delayMaxMs} ms (seed ${seed}, nominal mean ${nominal} ms); ` +
      (consumerPlatforms.length
        ? `consumer ${consumerPlatforms.join(', ')} via fake DataForSEO task flow, task ready after uniform ${taskMinMs}–${taskMaxMs} ms, tasks_ready polled every 1000 ms, ` +
          `SIGHTLINE_WORKER_MAX_WAITING=${maxWaiting} (a wait holds no lane slot); `
        : '') +
      `${Object.entries(laneEnv)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}, SIGHTLINE_WORKER_CONCURRENCY=${concurrency}`,
    async providerStats(): Promise<ProviderStats> {
      const { stats } = await request<{ stats: FakesStats }>(child, { type: 'stats' }, 'stats');
      const lines = Object.entries(stats.platforms).map(
        ([p, s]) =>
          `provider   ${p.padEnd(10)} ${s.requests} requests, drawn mean ${s.drawnMeanMs} ms, served mean ${s.servedMeanMs} ms ` +
          `(p50 ${s.servedP50Ms}, p99 ${s.servedP99Ms}, max ${s.servedMaxMs}), open max ${s.maxOpen} / avg ${s.avgOpen}`,
      );
      lines.push(`provider   fake process CPU ${stats.cpuUsPerRequest} µs/request; non-loopback requests refused: ${refused.size ? [...refused].join(', ') : 'none'}`);
      return {
        meanLatencyMs: Object.fromEntries(Object.entries(stats.platforms).map(([p, s]) => [p, s.servedMeanMs])),
        maxLatencyMs: Object.fromEntries(Object.entries(stats.platforms).map(([p, s]) => [p, s.servedMaxMs])),
        nominalLatencyMs: nominal,
        lines,
        detail: { ...stats, delay_min_ms: delayMinMs, delay_max_ms: delayMaxMs, seed, refused: [...refused] },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
      if (child.connected) child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
};
