// Typed configuration from the environment, validated once at start by one zod schema.
// Nothing else in the service reads process.env: composition roots call getConfig() and pass
// values down, so tests can build a server from an explicit config.
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** The checkout's root (where package.json is): the default data directory lives under it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The default database: `sightline.db` in SIGHTLINE_DATA_DIR, or in `data/` under the package
 * root. Not under the working directory: `npx sightline accounts create` run from a subfolder
 * must reach the same database as the server, not quietly start a second one there.
 */
export function defaultDatabaseUrl(env: Record<string, string | undefined>): string {
  const dir = env.SIGHTLINE_DATA_DIR?.trim();
  const dataDir = dir ? (isAbsolute(dir) ? dir : resolve(dir)) : join(PACKAGE_ROOT, 'data');
  return `sqlite:${join(dataDir, 'sightline.db')}`;
}

/** Days to keep something: an integer ≥ 0, where 0 (or `off`) keeps it for good. */
const daysFromEnv = (def: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      if (v.trim().toLowerCase() === 'off') return 0;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 36_500) {
        ctx.addIssue({ code: 'custom', message: 'must be a number of days 0..36500, or off (0 and off keep everything)' });
        return z.NEVER;
      }
      return n;
    });

const intFromEnv = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: max < Number.MAX_SAFE_INTEGER ? `must be an integer ${min}..${max}` : `must be an integer ≥ ${min}` });
        return z.NEVER;
      }
      return n;
    });

/** A switch: on/off (also true/false, yes/no, 1/0), any case; unset or empty is `def`. */
const switchFromEnv = (def: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const word = v?.trim().toLowerCase();
      if (!word) return def;
      if (['on', 'true', 'yes', '1'].includes(word)) return true;
      if (['off', 'false', 'no', '0'].includes(word)) return false;
      ctx.addIssue({ code: 'custom', message: `must be on or off (true/false, yes/no, 1/0 also do); got ${JSON.stringify(v!.slice(0, 40))}` });
      return z.NEVER;
    });

/**
 * An optional URL of a service (Redis, SMTP) whose scheme must be one of `schemes` and which names a
 * host: a typo stops the start instead of failing on first use. The message never repeats the value
 * past its scheme: it may hold a password.
 */
const serviceUrl = (schemes: string[], example: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      let url: URL | undefined;
      try {
        url = new URL(v.trim());
      } catch {
        url = undefined;
      }
      if (!url || !schemes.includes(url.protocol) || !url.hostname) {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v.trim())?.[1];
        const what = url ? (schemes.includes(url.protocol) ? 'names no host' : `${scheme}: is not ${schemes.join(' or ')}`) : scheme ? 'is not a valid URL (percent-encode @ : / ? # in the password)' : 'is not a URL';
        ctx.addIssue({ code: 'custom', message: `${what}; use ${schemes.map((s) => `${s}//`).join(' or ')}…, e.g. ${example}` });
        return z.NEVER;
      }
      return v.trim();
    });

/** A bearer secret anyone can try against /metrics: long enough that guessing it is hopeless. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

const ConfigSchema = z.object({
  /**
   * `sqlite:/path/file.db` or `postgres://…`. Migrations run on start and with `sightline migrate`.
   * @default `sqlite:<data dir>/sightline.db`
   */
  DATABASE_URL: z.string().superRefine((v, ctx) => {
    const problem = databaseUrlProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /**
   * Where the default SQLite file lives. Resolved from the package, not the working directory, so `npx
   * sightline …` run from a subfolder reaches the server's database; `--verbose` on any CLI command
   * prints the database it used. @default `data/` under the package root
   */
  SIGHTLINE_DATA_DIR: z.string().optional(),
  /** Where the API listens (port). */
  PORT: intFromEnv(8080, 0, 65535),
  /** Where the API listens (address). */
  HOST: z.string().optional().default('0.0.0.0'),
  /** Requests per minute per API key (429 with `Retry-After` and `RateLimit-*` headers). */
  SIGHTLINE_RATE_LIMIT_PER_MINUTE: intFromEnv(600, 1),
  /**
   * Active API keys and MCP tokens one account may have (the rate limit is per key, so this also
   * bounds an account's total rate); one more is 409 `limit_reached` in the console. The operator's
   * `sightline keys create` is not limited.
   */
  SIGHTLINE_MAX_KEYS_PER_ACCOUNT: intFromEnv(50, 1),
  /** Webhook endpoints (enabled or disabled) one account may have; one more is 409 `limit_reached`. */
  SIGHTLINE_MAX_WEBHOOKS_PER_ACCOUNT: intFromEnv(20, 1),
  /**
   * Projects (not deleted) one account may have; one more is 409 `limit_reached`. Each holds up to
   * 1,000 prompts and a tracked test per market: the cap bounds what one account can store.
   */
  SIGHTLINE_MAX_PROJECTS_PER_ACCOUNT: intFromEnv(100, 1),
  /**
   * Sites one account may have; one more is 409 `limit_reached`. Each keeps its access logs'
   * rollups and line hashes: the cap bounds what one account can store.
   */
  SIGHTLINE_MAX_SITES_PER_ACCOUNT: intFromEnv(100, 1),
  /**
   * `redis://[:password@]host:6379[/db]` (or `rediss://`): keep rate-limit counters in Redis; otherwise
   * they live in the database, shared by all processes. While Redis cannot be reached, each process
   * limits on its own and logs `rate limit store unavailable` (at most once a minute).
   */
  SIGHTLINE_REDIS_URL: serviceUrl(['redis:', 'rediss:'], 'redis://:password@host:6379/0'),
  /**
   * Hosts, `host:port` pairs or CIDRs the page fetcher may reach although they are not public
   * (intranets, tests), comma-separated. @default empty
   */
  SIGHTLINE_FETCH_ALLOW: z.string().optional().default(''),
  /** `sandbox` (deterministic, locally simulated answers) or `live` (real provider APIs). */
  SIGHTLINE_PLATFORM_ENGINE: z.enum(['sandbox', 'live']).optional().default('sandbox'),
  /**
   * The model catalog: models, prices per probe, default/latest/prior roles. @default
   * `catalog/models.json`
   */
  SIGHTLINE_CATALOG_PATH: z.string().optional(),
  /** Simulated answer latency of the sandbox engine. */
  SIGHTLINE_SANDBOX_LATENCY_MS: intFromEnv(0, 0),
  /**
   * `platform:model` (e.g. `openai:gpt-4o-mini`): the model that judges sentiment and recommendation in
   * `live` mode, through that platform's driver and key; the operator pays for it, users are never
   * billed. Unset: those fields are null (docs/concepts.md, "Answer analysis").
   */
  SIGHTLINE_JUDGE_MODEL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine((v) => v === undefined || /^(openai|perplexity|gemini|grok|claude|deepseek):\S+$/.test(v), {
      message: 'must be platform:model, platform one of openai, perplexity, gemini, grok, claude, deepseek',
    }),
  /** Jobs in flight per worker process overall (probes waiting on a provider's task not counted). */
  SIGHTLINE_WORKER_CONCURRENCY: intFromEnv(32, 1),
  /**
   * Probes per worker process that may wait on a provider's asynchronous task (posted, not ready
   * yet) without holding their platform's slot; past it a waiting probe keeps its slot. 0: every
   * wait keeps its slot.
   */
  SIGHTLINE_WORKER_MAX_WAITING: intFromEnv(1000, 0),
  /**
   * Worker threads that extract big pages (256 KiB of HTML or more) off the event loop, each with a 512
   * MB heap limit (a page that exceeds it answers `extraction_failed`, nothing charged); 0 extracts
   * every page on the calling thread.
   */
  SIGHTLINE_EXTRACT_THREADS: intFromEnv(1, 0),
  /**
   * Console sign-up after the owner: `invite` (by the operator's invitation links), `open` (anyone),
   * `closed` (accounts only from the CLI).
   */
  SIGHTLINE_SIGNUP: z.enum(['invite', 'open', 'closed']).optional().default('invite'),
  /**
   * `smtp(s)://user:pass@host:port`: password-reset and invitation links are mailed (nodemailer). Unset:
   * the operator prints them with `sightline users reset-link` / `users invite`.
   */
  SIGHTLINE_SMTP_URL: serviceUrl(['smtp:', 'smtps:'], 'smtps://user:password@smtp.example.com:465'),
  /**
   * Console sign-in, sign-up and reset attempts per client address per minute (besides the per-email
   * lockout).
   */
  SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: intFromEnv(20, 1),
  /** Share-link pages (report and PDF) per client address per minute: token guesses are counted too. */
  SIGHTLINE_SHARE_LIMIT_PER_MINUTE: intFromEnv(60, 1),
  /**
   * Share-link PDFs per client address per minute, on top of the limit above: a PDF not in the
   * cache costs up to a second of the server's CPU to render.
   */
  SIGHTLINE_SHARE_PDF_LIMIT_PER_MINUTE: intFromEnv(10, 1),
  /**
   * MiB of rendered share-link PDFs kept in memory, one per link, until the report's numbers
   * change; 0 renders every request.
   */
  SIGHTLINE_SHARE_PDF_CACHE_MB: intFromEnv(32, 0),
  /** Sender of password-reset and invitation mail. */
  SIGHTLINE_MAIL_FROM: z.string().optional().default('sightline <no-reply@localhost>'),
  /**
   * The console's public origin (https://sightline.example.com), for links in mail and the links
   * `sightline users reset-link` / `users invite` print (default http://HOST:PORT, localhost for a
   * wildcard HOST; set it where the CLI runs too, or its links name that shell's PORT). https here means Secure `__Host-` cookies and HSTS (docs/operating-security.md).
   */
  SIGHTLINE_PUBLIC_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const origin = publicOrigin(v.trim());
      if (!origin) {
        ctx.addIssue({ code: 'custom', message: `must be the console's public origin, http(s)://host[:port] with no path, query or credentials (e.g. https://sightline.example.com); got ${JSON.stringify(v.slice(0, 100))}` });
        return z.NEVER;
      }
      return origin;
    }),
  /**
   * How often each process that runs a worker looks for due slots of tracked tests; 0 = no scheduler in
   * this process.
   */
  SIGHTLINE_SCHEDULER_INTERVAL_MS: intFromEnv(5000, 0),
  /**
   * Postgres connections per process; keep processes × this + 10 ≤ `max_connections` (docs/operating.md,
   * "Postgres").
   */
  SIGHTLINE_DB_POOL_MAX: intFromEnv(10, 1),
  /**
   * How long a query waits for a free pooled connection (all `SIGHTLINE_DB_POOL_MAX` in use) before
   * the request answers 503 `database_unavailable`; opening a connection has its own timeout.
   */
  SIGHTLINE_DB_POOL_WAIT_MS: intFromEnv(3000, 1),
  /**
   * How long opening one Postgres connection may take (connect, TLS, authentication) before it
   * counts as the database being unreachable. Separate from the wait for a free pooled connection.
   */
  SIGHTLINE_DB_CONNECT_TIMEOUT_MS: intFromEnv(10_000, 1),
  /**
   * Jobs in flight per account across every worker; 0 = no cap (claims stay round-robin over accounts
   * either way).
   */
  SIGHTLINE_ACCOUNT_CONCURRENCY: intFromEnv(0, 0),
  /**
   * A worker's lease on a job (renewed every third of it); a dead worker's jobs are taken over once it
   * runs out.
   */
  SIGHTLINE_JOB_LEASE_MS: intFromEnv(30_000, 100),
  /**
   * A job's time budget: past it the worker's watchdog stops the job and ends it `job_timeout`, its
   * credits released.
   */
  SIGHTLINE_JOB_TIMEOUT_MS: intFromEnv(600_000, 0),
  /** How long an `idempotency_key` is remembered, counted from its run's creation (Stripe: 24 h). */
  SIGHTLINE_IDEMPOTENCY_TTL_SECONDS: intFromEnv(86_400, 1),
  /**
   * Receiving a request's headers; past it the connection is closed (408). See docs/operating.md, "HTTP
   * edge".
   */
  SIGHTLINE_HTTP_HEADERS_TIMEOUT_MS: intFromEnv(10_000, 1),
  /** Receiving the whole request with its body; past it the connection is closed (408). */
  SIGHTLINE_HTTP_REQUEST_TIMEOUT_MS: intFromEnv(30_000, 1),
  /** An idle keep-alive connection between requests. */
  SIGHTLINE_HTTP_KEEPALIVE_TIMEOUT_MS: intFromEnv(5_000, 1),
  /** A socket with no traffic either way. */
  SIGHTLINE_HTTP_IDLE_TIMEOUT_MS: intFromEnv(120_000, 1),
  /** Outbound page fetches at once per process. */
  SIGHTLINE_FETCH_CONCURRENCY: intFromEnv(16, 1),
  /** Outbound page fetches that may wait per process; past that 503 `fetch_capacity`. */
  SIGHTLINE_FETCH_QUEUE: intFromEnv(256, 0),
  /**
   * Outbound page fetches of one account running at once in a process; more wait, up to a quarter of
   * `SIGHTLINE_FETCH_QUEUE`, then 503 `fetch_capacity` for that account only. 0 = no cap.
   */
  SIGHTLINE_FETCH_ACCOUNT_CONCURRENCY: intFromEnv(4, 0),
  /**
   * Serve `GET /metrics` on the API port to `Authorization: Bearer <token>` (at least 32 characters);
   * unset, it is not served there.
   */
  SIGHTLINE_METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v : undefined))
    .refine((v) => v === undefined || v.length >= METRICS_TOKEN_MIN_LENGTH, {
      message: `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters (e.g. openssl rand -hex 32)`,
    }),
  /** Serve `GET /metrics` without auth on a port of its own (worker processes too); 0 = off. */
  SIGHTLINE_METRICS_PORT: intFromEnv(0, 0),
  /** The address of that metrics port (bind it to a private address). */
  SIGHTLINE_METRICS_HOST: z.string().optional().default('127.0.0.1'),
  /**
   * Live mode: once listening, `serve` and `worker` try each configured provider key with the
   * provider's free listing call (what `sightline platforms check` does), in the background, and
   * log and export what they find (docs/operating.md, "Provider keys"); off makes no such call.
   * @default on
   */
  SIGHTLINE_CHECK_KEYS_AT_START: switchFromEnv(true),
  /** Check the keys again every this many hours while the process runs; 0 = at start only. */
  SIGHTLINE_KEY_CHECK_INTERVAL_HOURS: intFromEnv(0, 0, 720),
  /** On SIGTERM/SIGINT, how long running requests and jobs may finish before they are aborted. */
  SIGHTLINE_SHUTDOWN_GRACE_MS: intFromEnv(10_000, 0),
  /**
   * Worker threads that run Content Intelligence analysis (scoring, trends, prompt ideas) off the event
   * loop, one operation per thread at a time, the rest queued; 0 runs it on the calling thread.
   */
  SIGHTLINE_ANALYSIS_THREADS: intFromEnv(1, 0),
  /**
   * Live mode: `platform:model` (e.g. `openai:gpt-5-mini`, model a catalog id or
   * `default`/`latest`/`prior`) that writes trends and prompt ideas through the platform drivers (with
   * web search where the platform has it). Unset, or in sandbox mode: the offline generator. A name that
   * does not resolve stops the start.
   */
  SIGHTLINE_CONTENT_MODEL: z.string().optional(),
  /** pino log level. */
  SIGHTLINE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  /** Webhooks (docs/webhooks.md): the time one delivery attempt may take, connect to last byte. */
  SIGHTLINE_WEBHOOK_TIMEOUT_MS: intFromEnv(15_000, 1),
  /** The waits before each retry of a failed delivery: durations (ms, s, m, h, d), comma-separated. */
  SIGHTLINE_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .default('5s,5m,30m,2h,5h,10h,10h')
    .transform((v, ctx) => {
      const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
      const out: number[] = [];
      for (const item of v.split(',').map((x) => x.trim()).filter(Boolean)) {
        const m = /^(\d+)(ms|s|m|h|d)$/.exec(item);
        if (!m) {
          ctx.addIssue({ code: 'custom', message: `"${item}" is not a duration like 5s, 5m, 2h` });
          return z.NEVER;
        }
        out.push(Number(m[1]) * units[m[2]!]!);
      }
      return out;
    }),
  /** An endpoint failing every delivery for this long is disabled (default 5 days). */
  SIGHTLINE_WEBHOOK_DISABLE_AFTER_MS: intFromEnv(5 * 86_400_000, 0),
  /** Webhook deliveries in flight per worker process. */
  SIGHTLINE_WEBHOOK_CONCURRENCY: intFromEnv(16, 1),
  /** base64 of 32 random bytes: webhook signing secrets are then stored AES-256-GCM encrypted. Unset: stored as issued. */
  SIGHTLINE_WEBHOOK_SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.trim() === '' || Buffer.from(v.trim(), 'base64').length === 32, { message: 'must be base64 of 32 bytes (openssl rand -base64 32)' }),
  /**
   * Reverse proxies whose X-Forwarded-For/-Proto/-Host are believed: comma-separated addresses,
   * CIDRs, or loopback / linklocal / uniquelocal; empty: none (the socket's peer is the client).
   * A request from one of them with an X-Request-Id of 1 to 128 safe characters takes that id.
   */
  SIGHTLINE_TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const entries = (v ?? '').split(',').map((e) => e.trim()).filter(Boolean);
      const bad = entries.filter((e) => !isProxyAddress(e));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `each entry must be an IP address, a CIDR (10.0.0.0/8, fd00::/8) or one of ${PROXY_RANGE_NAMES.join(', ')}; not ${bad.map((b) => JSON.stringify(b.slice(0, 60))).join(', ')}` });
        return z.NEVER;
      }
      return entries;
    }),
  /**
   * The largest access log upload (POST /v1/sites/{id}/logs) one request may carry, in bytes as
   * sent (compressed when gzip); past it 413 `payload_too_large`.
   */
  SIGHTLINE_LOG_UPLOAD_MAX_BYTES: intFromEnv(512 * 1024 * 1024, 1),
  /**
   * What one gzip log upload may unpack to, in bytes; past it 413 `payload_too_large`. (Whatever
   * this says, a gzip upload may not unpack to more than 100 times its compressed size.)
   */
  SIGHTLINE_LOG_UPLOAD_MAX_UNPACKED_BYTES: intFromEnv(4 * 1024 * 1024 * 1024, 1),
  /** A crawler IP ranges file written by `sightline crawlers refresh`; unset = the bundled snapshot (catalog/crawler-ip-ranges.json). */
  SIGHTLINE_CRAWLER_RANGES_PATH: z.string().optional(),
  /** A citation sources file (catalog/citation-sources.json's shape) extending and overriding the bundled one. */
  SIGHTLINE_CITATION_SOURCES_PATH: z.string().optional(),
  /**
   * Memory, MB, for what reads of visibility runs keep between reads (kept probe rows; finished
   * runs' summaries): each within it, estimated, least recently read runs dropped first. 0 keeps
   * nothing: every read is a cold read.
   */
  SIGHTLINE_READ_CACHE_MB: intFromEnv(64, 0),
  /**
   * Days a finished job row (done, failed or cancelled; one per probe, delivery or mail) is kept
   * after it finished; 0 or `off` keeps them for good. Nothing a user sees reads them: run and
   * probe status live on the runs and probes (docs/operating.md, "Retention").
   */
  SIGHTLINE_RETAIN_JOBS_DAYS: daysFromEnv(30),
  /**
   * Days a webhook delivery that ended (succeeded or failed) is kept, with its attempts, after its
   * last change; pending ones are never removed. 0 or `off` keeps them for good. Svix keeps
   * payloads 90 days by default (docs/operating.md, "Retention").
   */
  SIGHTLINE_RETAIN_WEBHOOK_DELIVERIES_DAYS: daysFromEnv(90),
  /**
   * Days a site's log line hashes are kept, by the time of the line (they make a file sent again
   * count nothing twice). An uploaded line older than this can no longer be recognised, so it is
   * not counted (`too_old_lines`). The default outlasts the longest report (365 days); 0 or `off`
   * keeps every hash from now on (lines older than hashes already removed stay refused).
   */
  SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS: daysFromEnv(400),
  /**
   * Days a row of the activity log (one per authenticated request) is kept; 0 or `off` keeps them
   * for good. `GET /v1/activity` is the recent requests: a year is a common audit window
   * (docs/operating.md, "Retention").
   */
  SIGHTLINE_RETAIN_ACTIVITY_DAYS: daysFromEnv(365),
  /**
   * How often each process that runs a worker removes what the settings above let go (and ended
   * sessions and sign-in links a day after they ended), at most 1,000 rows a statement; 0 = no
   * retention sweep in this process.
   */
  SIGHTLINE_RETENTION_SWEEP_INTERVAL_MS: intFromEnv(600_000, 0),
});

/**
 * Why DATABASE_URL cannot be used, or undefined when it can: `sqlite:` with a path (or
 * `:memory:`), or a postgres:// (postgresql://) URL that parses. The message never repeats the
 * value past its scheme: it may hold a password.
 */
export function databaseUrlProblem(url: string): string | undefined {
  const usage = 'use sqlite:/path/file.db or postgres://user:password@host:5432/database';
  if (url.startsWith('sqlite:')) return url.length > 'sqlite:'.length ? undefined : `names no file; ${usage}`;
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      const u = new URL(url);
      return u.hostname || u.pathname.length > 1 ? undefined : `names no host or database; ${usage}`;
    } catch {
      return `is not a valid URL (check the characters of the password: percent-encode @ : / ? #); ${usage}`;
    }
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  return `${scheme ? `${scheme}: is not a supported database` : 'is not a database URL'}; ${usage}`;
}

/** Names proxy-addr (Fastify's trustProxy) knows for whole ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  if (!entry.includes('/')) return ipaddr.isValid(entry);
  const [addr, bits] = entry.split('/') as [string, string];
  if (!ipaddr.isValid(addr) || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (ipaddr.parse(addr).kind() === 'ipv4' ? 32 : 128);
}

/** `value` as an origin (scheme, host, port) when it is an http(s) URL with nothing else; else undefined. */
function publicOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  return url.origin;
}

export type Config = z.infer<typeof ConfigSchema> & {
  /** The whole environment, for the platform drivers' per-provider settings. */
  env: Record<string, string | undefined>;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse({ ...env, DATABASE_URL: env.DATABASE_URL?.trim() || defaultDatabaseUrl(env) });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return { ...parsed.data, env };
}

let cached: Config | undefined;
export function getConfig(): Config {
  cached ??= loadConfig();
  return cached;
}

/** Every variable the schema reads, in its order (docs/configuration.md is generated from it). */
export function configKeys(): string[] {
  return Object.keys(ConfigSchema.shape);
}
