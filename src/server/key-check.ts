// The provider keys checked by `serve` and `worker` once they listen: the free listing calls of
// `sightline platforms check` (src/platforms/keycheck.ts), run in the background so that a slow or
// unreachable provider never delays readiness nor fails the start. What they find goes to the log
// (a warning per key that does not work, one info line for those that do) and to the metric
// sightline_provider_key_status, and the operator's console page reads the latest state of this
// process (probes update it too). The one thing to know: it runs only in live mode with a key set
// (the sandbox and every test without a key make no call), and it never throws.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { checkProviderKeys, FAILING, type KeyCheck } from '../platforms/keycheck.ts';
import { getMetrics } from '../ops/metrics.ts';
import { PLATFORM_ENV_PREFIX } from '../platforms/registry.ts';
import { API_PLATFORMS } from '../platforms/types.ts';

/** How long one provider's listing call may take before it counts as unreachable. */
export const KEY_CHECK_TIMEOUT_MS = 10_000;

/** The variables that hold a provider credential (a base URL alone is no key). */
const CREDENTIAL_VARIABLES = [
  ...API_PLATFORMS.map((p) => `${PLATFORM_ENV_PREFIX[p]}_API_KEY`),
  'SERPAPI_API_KEY',
  'DATAFORSEO_LOGIN',
  'DATAFORSEO_PASSWORD',
];

/** What this process knows of one provider key (the operator console shows it). */
export interface KnownProviderKey {
  provider: string;
  status: KeyCheck['status'];
  /** Where it was learned: the listing call (`check`) or a probe the provider answered or refused. */
  source: 'check' | 'probe';
  at: string;
  http_status?: number;
  /** The variables to fix, and the provider's words without the key (from a check). */
  check?: string;
  detail?: string;
}

const known = new Map<string, KnownProviderKey>();

/** The key state of this process, one entry per provider that has a key, in the check's order. */
export function knownProviderKeys(): KnownProviderKey[] {
  return [...known.values()];
}

function record(entry: KnownProviderKey): void {
  known.set(entry.provider, entry);
  getMetrics().providerKey(entry.provider, entry.status);
}

/** A probe's verdict on a key: answered (`ok`) or refused (`key_refused`); an unchanged ok is not rewritten. */
export function recordProbeKeyStatus(provider: string, status: 'ok' | 'key_refused'): void {
  const before = known.get(provider);
  if (status === 'ok' && before?.status === 'ok') return;
  record({ provider, status, source: 'probe', at: new Date().toISOString() });
}

/** The variables to fix: a refused key's own, else the base URL (an unknown endpoint, no answer, a foreign one). */
function toFix(c: KeyCheck): string {
  const refused = c.status === 'key_refused';
  return c.variables.filter((v) => v.endsWith('_BASE_URL') !== refused).join(' / ');
}

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
  const at = new Date().toISOString();
  const ok: string[] = [];
  const unchecked: string[] = [];
  for (const c of checks) {
    if (c.status === 'not_configured') continue;
    const failing = FAILING.has(c.status);
    record({
      provider: c.name,
      status: c.status,
      source: 'check',
      at,
      ...(c.http_status !== undefined && { http_status: c.http_status }),
      // The detail without its "(fix …)": `check` says it.
      ...(failing && { check: toFix(c), detail: c.detail?.replace(/\s*\(fix [^)]*\)$/, '') }),
    });
    if (c.status === 'ok') ok.push(c.name);
    else if (c.status === 'not_checkable') unchecked.push(c.name);
    else if (failing) {
      const refused = c.status === 'key_refused';
      const fix = toFix(c);
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
