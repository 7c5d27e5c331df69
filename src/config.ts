// Typed configuration from the environment, validated once at start by one zod schema.
// Nothing else in the service reads process.env: composition roots call getConfig() and pass
// values down, so tests can build a server from an explicit config.
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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

const intFromEnv = (def: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `must be an integer ≥ ${min}` });
        return z.NEVER;
      }
      return n;
    });

const ConfigSchema = z.object({
  /** Default: sqlite:<SIGHTLINE_DATA_DIR or the package root's data/>/sightline.db (see defaultDatabaseUrl). */
  DATABASE_URL: z.string(),
  SIGHTLINE_DATA_DIR: z.string().optional(),
  PORT: intFromEnv(8080, 0),
  HOST: z.string().optional().default('0.0.0.0'),
  SIGHTLINE_RATE_LIMIT_PER_MINUTE: intFromEnv(600, 1),
  SIGHTLINE_REDIS_URL: z.string().optional(),
  SIGHTLINE_FETCH_ALLOW: z.string().optional().default(''),
  SIGHTLINE_PLATFORM_ENGINE: z.enum(['sandbox', 'live']).optional().default('sandbox'),
  SIGHTLINE_CATALOG_PATH: z.string().optional(),
  SIGHTLINE_SANDBOX_LATENCY_MS: intFromEnv(0, 0),
  /** The judge of sentiment and recommendation in live mode, `platform:model` (e.g. openai:gpt-4o-mini); unset: none. */
  SIGHTLINE_JUDGE_MODEL: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine((v) => v === undefined || /^(openai|perplexity|gemini|grok|claude|deepseek):\S+$/.test(v), {
      message: 'must be platform:model, platform one of openai, perplexity, gemini, grok, claude, deepseek',
    }),
  SIGHTLINE_WORKER_CONCURRENCY: intFromEnv(32, 1),
  /** Worker threads that extract big pages (≥ 256 KiB of HTML) off the event loop; 0 = none. */
  SIGHTLINE_EXTRACT_THREADS: intFromEnv(1, 0),
  /** Who may open an account in the console after the owner: by invitation, anyone, or nobody. */
  SIGHTLINE_SIGNUP: z.enum(['invite', 'open', 'closed']).optional().default('invite'),
  /** SMTP transport for password-reset and invitation mail (smtp(s)://user:pass@host:port); unset: links are printed by the CLI. */
  SIGHTLINE_SMTP_URL: z.string().optional(),
  /** Console sign-in, sign-up and reset attempts per client address per minute (besides the per-email lockout). */
  SIGHTLINE_SIGNIN_LIMIT_PER_MINUTE: intFromEnv(20, 1),
  SIGHTLINE_MAIL_FROM: z.string().optional().default('sightline <no-reply@localhost>'),
  /** The address users reach the console at, for links in mail (default http://localhost:PORT). */
  SIGHTLINE_PUBLIC_URL: z.string().url().optional(),
  /** How often each worker process's scheduler looks for due slots of tracked tests; 0 = no scheduler in this process. */
  SIGHTLINE_SCHEDULER_INTERVAL_MS: intFromEnv(5000, 0),
  /** Postgres connections per process; keep N processes × this + 10 ≤ max_connections (README). */
  SIGHTLINE_DB_POOL_MAX: intFromEnv(10, 1),
  /** How long a query waits for a free pooled connection before answering 503 database_unavailable. */
  SIGHTLINE_DB_POOL_WAIT_MS: intFromEnv(3000, 1),
  /** Jobs in flight per account across every worker; 0 = no cap (fair round-robin still applies). */
  SIGHTLINE_ACCOUNT_CONCURRENCY: intFromEnv(0, 0),
  /** A worker's lease on a job it runs (renewed every third of it); a dead worker's jobs come back after it. */
  SIGHTLINE_JOB_LEASE_MS: intFromEnv(30_000, 100),
  /** A job's time budget, enforced by the worker's watchdog (the job is given up, its credits released). */
  SIGHTLINE_JOB_TIMEOUT_MS: intFromEnv(600_000, 0),
  /** How long an idempotency_key is remembered, from its run's creation (Stripe: 24 h). */
  SIGHTLINE_IDEMPOTENCY_TTL_SECONDS: intFromEnv(86_400, 1),
  /** HTTP edge timeouts (README "HTTP edge"). */
  SIGHTLINE_HTTP_HEADERS_TIMEOUT_MS: intFromEnv(10_000, 1),
  SIGHTLINE_HTTP_REQUEST_TIMEOUT_MS: intFromEnv(30_000, 1),
  SIGHTLINE_HTTP_KEEPALIVE_TIMEOUT_MS: intFromEnv(5_000, 1),
  SIGHTLINE_HTTP_IDLE_TIMEOUT_MS: intFromEnv(120_000, 1),
  /** Outbound page fetches at once per process, and how many may wait before 503 fetch_capacity. */
  SIGHTLINE_FETCH_CONCURRENCY: intFromEnv(16, 1),
  SIGHTLINE_FETCH_QUEUE: intFromEnv(256, 0),
  /** Outbound page fetches of one account running at once in a process (more wait, up to a quarter of the queue); 0 = no cap. */
  SIGHTLINE_FETCH_ACCOUNT_CONCURRENCY: intFromEnv(4, 0),
  /** GET /metrics on the API port needs `Authorization: Bearer <token>`; unset, it is not served there. */
  SIGHTLINE_METRICS_TOKEN: z.string().optional(),
  /** Serve GET /metrics (no auth) on this port of its own; 0 = off. */
  SIGHTLINE_METRICS_PORT: intFromEnv(0, 0),
  SIGHTLINE_METRICS_HOST: z.string().optional().default('127.0.0.1'),
  /** How long SIGTERM/SIGINT waits for running jobs and requests before aborting them. */
  SIGHTLINE_SHUTDOWN_GRACE_MS: intFromEnv(10_000, 0),
  /** Worker threads that run Content Intelligence analysis (scoring, trends, prompt ideas) off the event loop; 0 = none. */
  SIGHTLINE_ANALYSIS_THREADS: intFromEnv(1, 0),
  /** Live mode: the model (platform:model, e.g. openai:gpt-5-mini) that writes trends and prompt ideas; unset = the offline generator. */
  SIGHTLINE_CONTENT_MODEL: z.string().optional(),
  SIGHTLINE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),
  /** A crawler IP ranges file written by `sightline crawlers refresh`; unset = the bundled snapshot (catalog/crawler-ip-ranges.json). */
  SIGHTLINE_CRAWLER_RANGES_PATH: z.string().optional(),
  /** A citation sources file (catalog/citation-sources.json's shape) extending and overriding the bundled one. */
  SIGHTLINE_CITATION_SOURCES_PATH: z.string().optional(),
});

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
