// The provider keys checked by `serve` and `worker` once they listen: the free listing calls of
// `sightline platforms check` (src/platforms/keycheck.ts), run in the background so that a slow or
// unreachable provider never delays readiness nor fails the start. What they find goes to the log
// (a warning per key that does not work, one info line for those that do) and to the metric
// sightline_provider_key_status. The one thing to know: it runs only in live mode with a key set
// (the sandbox and every test without a key make no call), and it never throws.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { checkProviderKeys, FAILING, type KeyCheck } from '../platforms/keycheck.ts';
import { getMetrics } from '../ops/metrics.ts';

/** How long one provider's listing call may take before it counts as unreachable. */
export const KEY_CHECK_TIMEOUT_MS = 10_000;

/** The variables that hold a provider credential (a base URL alone is no key). */
const CREDENTIAL_VARIABLES = [
  'OPENAI_API_KEY',
  'PERPLEXITY_API_KEY',
  'GEMINI_API_KEY',
  'XAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'DEEPSEEK_API_KEY',
  'SERPAPI_API_KEY',
  'DATAFORSEO_LOGIN',
  'DATAFORSEO_PASSWORD',
];

export interface KeyCheckLoop {
  /** The check under way (resolves when it is logged; at once when nothing is checked). */
  current: Promise<void>;
  stop(): void;
}

/** True when this process would check keys: live mode, the setting on, and a credential set. */
export function keysToCheck(config: Config): boolean {
  if (!config.SIGHTLINE_CHECK_KEYS_AT_START || config.SIGHTLINE_PLATFORM_ENGINE !== 'live') return false;
  return CREDENTIAL_VARIABLES.some((v) => config.env[v]?.trim());
}

/** One check: every configured key tried, the result logged and set on the metric. Never throws. */
export async function checkKeysOnce(config: Config, log: Logger, opts: { fetch?: typeof fetch } = {}): Promise<KeyCheck[]> {
  let checks: KeyCheck[];
  try {
    checks = await checkProviderKeys(config.env, { fetch: opts.fetch, timeoutMs: KEY_CHECK_TIMEOUT_MS });
  } catch (err) {
    log.warn({ error: (err as Error)?.message }, 'provider key check could not run');
    return [];
  }
  const metrics = getMetrics();
  const ok: string[] = [];
  const unchecked: string[] = [];
  for (const c of checks) {
    if (c.status === 'not_configured') continue;
    metrics.providerKey(c.name, c.status);
    if (c.status === 'ok') ok.push(c.name);
    else if (c.status === 'not_checkable') unchecked.push(c.name);
    else if (FAILING.has(c.status)) {
      // A refused key: the key's variables; an unknown endpoint, no answer or a foreign one: the base URL (or the provider is down).
      const refused = c.status === 'key_refused';
      const fix = c.variables.filter((v) => v.endsWith('_BASE_URL') !== refused).join(' / ');
      log.warn(
        { provider: c.name, status: c.status, http_status: c.http_status ?? null, url: c.url ?? null, check: fix, error: c.detail ?? null },
        refused
          ? `provider key check: ${c.name} refused the key; its probes fail until ${fix} is fixed`
          : `provider key check: ${c.name} ${c.status.replace(/_/g, ' ')}; check ${fix} (or the provider is down)`,
      );
    }
  }
  if (ok.length || unchecked.length) {
    log.info(
      { accepted: ok, not_checkable: unchecked },
      `provider key check: ${ok.length ? `accepted ${ok.join(', ')}` : 'no key accepted'}${unchecked.length ? `; not checkable without a paid call: ${unchecked.join(', ')}` : ''}`,
    );
  }
  return checks;
}

/**
 * Starts the check in the background (nothing awaited by the caller) and, with
 * SIGHTLINE_KEY_CHECK_INTERVAL_HOURS, again every that many hours. Does nothing, and calls no
 * provider, unless keysToCheck says so.
 */
export function startKeyCheck(config: Config, log: Logger, opts: { fetch?: typeof fetch } = {}): KeyCheckLoop {
  if (!keysToCheck(config)) return { current: Promise.resolve(), stop() {} };
  const loop: KeyCheckLoop = { current: checkKeysOnce(config, log, opts).then(() => {}), stop() {} };
  const hours = config.SIGHTLINE_KEY_CHECK_INTERVAL_HOURS;
  if (hours > 0) {
    // Each check ends within KEY_CHECK_TIMEOUT_MS, far inside an hour: checks never overlap.
    const timer = setInterval(() => {
      loop.current = checkKeysOnce(config, log, opts).then(() => {});
    }, hours * 3_600_000);
    timer.unref();
    loop.stop = () => clearInterval(timer);
  }
  return loop;
}
