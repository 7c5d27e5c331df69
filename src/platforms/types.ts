// The one interface every AI platform driver implements. A driver knows nothing of runs,
// credits or storage: a prompt goes in, an answer with citations comes out. Retry, pacing and
// concurrency live around the driver (src/platforms/retry.ts and the worker), so every driver
// only has to classify its failures with PlatformError.

export const API_PLATFORMS = ['openai', 'perplexity', 'gemini', 'grok', 'claude', 'deepseek'] as const;
/**
 * Consumer surfaces: the answers people read in the products, fetched through SERP and scraping
 * providers (src/platforms/consumer). They sit behind the same driver interface as the APIs.
 */
export const CONSUMER_PLATFORMS = ['google_ai_overview', 'google_ai_mode', 'copilot', 'chatgpt_app'] as const;
export const PLATFORMS = [...API_PLATFORMS, ...CONSUMER_PLATFORMS] as const;
export type PlatformName = (typeof PLATFORMS)[number];
export type ApiPlatform = (typeof API_PLATFORMS)[number];
export type ConsumerPlatform = (typeof CONSUMER_PLATFORMS)[number];
export type Surface = 'api' | 'consumer';

export function isConsumerPlatform(p: string): p is ConsumerPlatform {
  return (CONSUMER_PLATFORMS as readonly string[]).includes(p);
}

export function surfaceOf(p: string): Surface {
  return isConsumerPlatform(p) ? 'consumer' : 'api';
}

export type Engine = 'live' | 'sandbox';

export interface ProbeRequest {
  platform: PlatformName;
  /** Catalog model id (what the API shows and stores). */
  modelId: string;
  /** The provider's own model name for modelId (from the catalog's provider_model). */
  providerModel: string;
  prompt: string;
  /** BCP 47 language, e.g. "en", "de". */
  language: string;
  /** ISO 3166-1 alpha-2 market, e.g. "US", "DE". */
  country: string;
  /** A city within the country, for providers that localise below the country (consumer surfaces). */
  city?: string | null;
  targetEntity: string;
  /** The URL being evaluated (the sandbox sometimes cites its domain). */
  targetUrl: string;
  competitors: string[];
  /**
   * Which ask of the same probe this is (1..N when a run repeats its probes). Live drivers ignore
   * it (a real assistant varies by itself); the sandbox seeds its answer with it.
   */
  repeat?: number;
  signal?: AbortSignal;
  /**
   * Called once per ask, right before its first request is sent (after the platform's gate admitted
   * it; retries inside the ask do not call it again): the probe counts the call here. If it
   * rejects, nothing is sent and the ask rejects with its error.
   */
  beforeSend?: () => Promise<void>;
  /**
   * The probe's asynchronous provider task (post, wait until ready, fetch), for drivers that have
   * one: the task this probe already posted (resumed, never posted again: it was paid for), and
   * where a newly posted task is recorded before the wait begins.
   */
  task?: ProviderTaskCheckpoint;
  /**
   * Runs a wait on the provider (a posted task not ready yet) without holding capacity: the
   * platform's slot and the worker's lane slot are given back for the wait and taken again before
   * the result is fetched. Without it the wait simply runs.
   */
  waitOffLane?: <T>(wait: () => Promise<T>) => Promise<T>;
}

/** Where a probe keeps the id of the provider task it posted (see ProbeRequest.task). */
export interface ProviderTaskCheckpoint {
  /** The task posted earlier for this probe (by this worker or one that died), or null. */
  readonly posted: string | null;
  /** Records a task just posted, durably, before waiting on it; rejects when the probe's claim was lost. */
  record(taskId: string): Promise<void>;
}

export interface Citation {
  title: string | null;
  /** The URL as the provider gave it, minus tracking parameters (utm_*, …) and `#:~:text=` fragments. */
  url: string;
  /** Registrable host of the real target (lowercase, no "www."), also when url is a redirect link. */
  domain: string;
  /** When url is a redirect link (e.g. Gemini grounding), the real target URL if it is known. */
  resolved_url?: string | null;
}

export interface ProbeAnswer {
  text: string;
  citations: Citation[];
  /** The concrete model the provider reports having used. */
  model: string;
  engine: Engine;
  /** Provider response (or a summary of it) for audit; callers cap its size before storing. */
  raw: unknown;
  usage?: { input_tokens?: number; output_tokens?: number };
  /**
   * Consumer surfaces only: false when the provider's result carried no AI answer (text is then
   * empty and citations empty; the probe still succeeds). Undefined for API platforms.
   */
  aiAnswerPresent?: boolean;
  /** Consumer surfaces only: the SERP or scraping provider that fetched the answer. */
  provider?: string;
}

/**
 * A classified driver failure. retryable: 429, 5xx, timeouts and network errors.
 * Not retryable: 400/401/403/404, content refusals, malformed responses.
 */
export class PlatformError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly httpStatus: number | null;
  constructor(
    code: string,
    message: string,
    opts: { retryable?: boolean; retryAfterMs?: number | null; httpStatus?: number | null; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'PlatformError';
    this.code = code;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.httpStatus = opts.httpStatus ?? null;
  }
}

export interface PlatformDriver {
  readonly platform: PlatformName;
  readonly engine: Engine;
  /** Consumer surfaces: the provider serving it (null when none is configured); API platforms: absent. */
  readonly provider?: string | null;
  /** False when the driver cannot run (e.g. live mode without an API key). */
  available(): boolean;
  ask(req: ProbeRequest): Promise<ProbeAnswer>;
}

/** Asks one platform; the composition root wraps the drivers with its retry and pacing policy. */
export type AskPlatform = (req: ProbeRequest) => Promise<ProbeAnswer>;
