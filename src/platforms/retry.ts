// Retry around one driver call: a per-attempt timeout, exponential backoff with full jitter for
// retryable PlatformErrors (429, 5xx, network, timeout), Retry-After honoured, everything else
// thrown at once. Drivers set the AI SDK's own retries to 0, so this is the only retry layer and
// attempts are counted in one place. A caller abort (req.signal) stops everything immediately.
// An admission step (the platform gate) runs before each attempt's timer starts, so time spent
// waiting for a slot or for room in the minute window never counts against the attempt timeout;
// that wait is bounded by the caller's signal alone.

import { PlatformError, type PlatformDriver, type PlatformName, type ProbeAnswer, type ProbeRequest } from './types.ts';
import type { GateSlot, PlatformGate } from './gate.ts';

/**
 * Admission before an attempt: runs fn when allowed; rejects (fn never run) when signal aborts
 * first. fn is given the admitted slot, which a wait on the provider gives back (GateSlot.away).
 */
export type Admit = <T>(fn: (slot?: GateSlot) => Promise<T>, signal: AbortSignal | undefined) => Promise<T>;

export interface RetryPolicy {
  /** Time allowed for one attempt. */
  timeoutMs: number;
  /** Attempts in total (1 = no retry). */
  maxAttempts: number;
  /** First backoff ceiling (default 500 ms); doubles per attempt. */
  baseDelayMs?: number;
  /** Backoff ceiling (default 30 000 ms). A provider's Retry-After is honoured even when longer. */
  maxDelayMs?: number;
  /**
   * Longest Retry-After worth waiting for (default 120 000 ms); a provider asking for more (a daily
   * quota, say) gets its error thrown now instead of a worker sleeping for hours.
   */
  maxRetryAfterMs?: number;
  /**
   * Wraps every attempt (retries included), e.g. the platform gate. The attempt's timeout starts
   * only once admit calls its fn.
   */
  admit?: Admit;
  /** Injectable for tests; must reject when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests: a number in [0, 1). */
  random?: () => number;
  /** Called before each retry (for logs/metrics); the error is already scrubbed. */
  onRetry?: (info: { attempt: number; delayMs: number; error: PlatformError }) => void;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Full-jitter backoff: uniform in [0, min(max, base·2^(attempt-1))]. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** One attempt bounded by timeoutMs, even if the driver ignores its abort signal. */
async function attemptOnce(driver: PlatformDriver, req: ProbeRequest, timeoutMs: number): Promise<ProbeAnswer> {
  const controller = new AbortController();
  // Built when the timer fires, not per attempt: a PlatformError captures a stack trace.
  let timeoutError: PlatformError | undefined;
  const timeout = () =>
    (timeoutError ??= new PlatformError('provider_timeout', `${driver.platform}: no answer within ${timeoutMs} ms.`, {
      retryable: true,
    }));
  // The caller's abort reaches the driver through this attempt's controller: a listener removed
  // when the attempt ends costs a third of AbortSignal.any's composite signal (bench:runs).
  const outer = req.signal;
  const forward = () => controller.abort(outer!.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const signal = controller.signal;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(timeout());
      reject(timeout());
    }, timeoutMs);
  });
  const call = driver.ask({ ...req, signal });
  try {
    return await Promise.race([call, timedOut]);
  } catch (err) {
    // Whatever the driver threw after our timer fired (an AbortError, usually) is the timeout.
    if (controller.signal.aborted && !req.signal?.aborted) throw timeout();
    throw err;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
    call.catch(() => {}); // a call that lost the race must not surface as an unhandled rejection
  }
}

export async function askWithRetry(driver: PlatformDriver, req: ProbeRequest, policy: RetryPolicy): Promise<ProbeAnswer> {
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  const base = policy.baseDelayMs ?? 500;
  const max = policy.maxDelayMs ?? 30_000;
  const sleep = policy.sleep ?? defaultSleep;
  const random = policy.random ?? Math.random;

  // The caller's hook runs once, in the first attempt's admitted slot, just before it is sent.
  let beforeSend = req.beforeSend;
  const send = async (slot?: GateSlot) => {
    if (beforeSend) {
      const hook = beforeSend;
      beforeSend = undefined;
      await hook();
    }
    return attemptOnce(driver, slot ? { ...req, waitOffLane: waitOffSlot(slot, req.waitOffLane) } : req, policy.timeoutMs);
  };
  for (let attempt = 1; ; attempt++) {
    if (req.signal?.aborted) throw abortError(req.signal);
    try {
      return await (policy.admit ? policy.admit(send, req.signal) : send());
    } catch (err) {
      if (req.signal?.aborted) throw abortError(req.signal);
      if (!(err instanceof PlatformError) || !err.retryable || attempt >= maxAttempts) throw err;
      if ((err.retryAfterMs ?? 0) > (policy.maxRetryAfterMs ?? 120_000)) throw err;
      const delayMs = Math.max(backoffDelay(attempt, base, max, random), err.retryAfterMs ?? 0);
      policy.onRetry?.({ attempt, delayMs, error: err });
      await sleep(delayMs, req.signal);
    }
  }
}

/** A wait that gives back the gate's slot, then the caller's lane slot (taken again in reverse order). */
function waitOffSlot(slot: GateSlot, offLane: ProbeRequest['waitOffLane']): NonNullable<ProbeRequest['waitOffLane']> {
  return (wait) => slot.away(offLane ? () => offLane(wait) : wait);
}

/**
 * The composition root's ask: every attempt of a platform passes that platform's gate, and the
 * attempt timer starts when the gate admits it.
 */
export function gatedAsk(
  drivers: Record<PlatformName, PlatformDriver>,
  gate: PlatformGate,
  policyOf: (platform: PlatformName) => Omit<RetryPolicy, 'admit'>,
): (req: ProbeRequest) => Promise<ProbeAnswer> {
  return (req) =>
    askWithRetry(drivers[req.platform], req, {
      ...policyOf(req.platform),
      admit: (fn, signal) => gate.run(req.platform, (slot) => fn(slot), signal),
    });
}
