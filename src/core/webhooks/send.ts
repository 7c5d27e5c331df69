// One HTTP attempt of a webhook delivery: POST the body to the endpoint, connecting only to the
// addresses the page fetcher's address policy accepted for its host at this very attempt (the
// socket's lookup is pinned to them, so a DNS answer that changes in between cannot steer it
// elsewhere), no redirect followed (a 3xx is a failure), one time limit from DNS to the last
// byte. Only a 2xx is a success.
import { Agent } from 'undici';
import { checkOutboundTarget, isFetchError, type FetchAllowlist, type HostResolver } from '../pages/fetch/index.ts';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  /** Why the attempt failed, for the delivery log (never the receiver's body). */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  allow: FetchAllowlist;
  lookup?: HostResolver;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** undici's own limits (set to the attempt's limit too): whichever fires first, it is the timeout. */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The receiver's answer is read up to this many bytes and dropped (only its status matters). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export async function postOnce(url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<AttemptResult> {
  const started = Date.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null): AttemptResult => ({ ok, statusCode, error, durationMs: Date.now() - started });
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let agent: Agent | null = null;
  try {
    const target = await Promise.race([
      checkOutboundTarget(url, { allow: opts.allow, lookup: opts.lookup, timeoutMs: opts.timeoutMs }),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
    agent = new Agent({ connect: { lookup: target.connectLookup, timeout: opts.timeoutMs }, connections: 1, pipelining: 0 });
    const res = await agent.request({
      origin: target.url.origin,
      path: target.url.pathname + target.url.search,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'sightline-webhooks/1', ...headers },
      body,
      signal,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
    await res.body.dump({ limit: MAX_RESPONSE_BYTES, signal }).catch(() => {});
    if (signal.aborted) return done(false, null, `timeout: no complete answer within ${opts.timeoutMs} ms`);
    const code = res.statusCode;
    if (code >= 200 && code < 300) return done(true, code, null);
    if (code >= 300 && code < 400) return done(false, code, `redirect not followed (HTTP ${code})`);
    return done(false, code, `HTTP ${code}`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (timeout.aborted || UNDICI_TIMEOUTS.has(code ?? '')) return done(false, null, `timeout: no complete answer within ${opts.timeoutMs} ms`);
    if (opts.signal?.aborted) throw opts.signal.reason ?? err; // the worker is stopping: not an attempt outcome
    if (isFetchError(err)) return done(false, null, `${err.code}: ${err.message}`);
    return done(false, null, `network: ${code ?? (err as Error).message ?? 'connection failed'}`);
  } finally {
    agent?.destroy().catch(() => {});
  }
}
