// Kysely table types: the shape of every row as both SQLite and Postgres store it.
// Timestamps are ISO 8601 UTC strings, JSON is text, booleans are 0/1 integers and credit
// amounts are integer hundredths, so both databases hold exactly the same values.
import type { Generated } from 'kysely';

export interface AccountsTable {
  id: string;
  email: string;
  status: 'active' | 'suspended';
  created_at: string;
  /**
   * Running credit totals (hundredths), changed in the same transaction as every ledger row they
   * sum (src/core/billing/ledger.ts), so a balance is one row read whatever the ledger's length.
   * Postgres returns them as bigint strings.
   */
  credits_granted: Generated<number | string>;
  credits_settled: Generated<number | string>;
  /** Outstanding reservations: charged amounts neither settled nor released yet. */
  credits_reserved: Generated<number | string>;
  grant_count: Generated<number | string>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  kind: 'api' | 'mcp';
  key_hash: string;
  key_prefix: string;
  scopes: string; // JSON array
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * One row per credit movement group: a grant, or a charge (the reservation for one action or
 * run). A charge carries what was reserved, and how much of it has since been settled or
 * released; its state and every balance are derived from these three numbers.
 */
export interface LedgerEntriesTable {
  id: string;
  account_id: string;
  kind: 'grant' | 'charge';
  source: string; // api | mcp | console | cli
  action: string; // e.g. visibility.runs.create, credits.grant
  ref_type: string | null; // visibility_run | ci_run | action
  ref_id: string | null;
  amount: number; // hundredths: granted, or reserved
  settled_amount: number;
  released_amount: number;
  estimated_amount: number; // what the whole request was estimated at (≥ amount for partial funding)
  created_at: string;
  updated_at: string;
}

export interface TestsTable {
  id: string;
  account_id: string;
  test_type: 'ai_citations' | 'content_intelligence';
  name: string;
  url: string;
  url_key: string; // normalized URL
  target_entity: string | null;
  target_key: string; // folded target entity, '' for content tests
  created_at: string;
  last_run_at: string | null;
  /** Tracking (migration 0005): the run create body (JSON) a schedule or "run now" uses. */
  definition: string | null;
  schedule_cron: string | null;
  schedule_timezone: string | null;
  /** The next slot the scheduler will take (ISO UTC); null without a schedule. */
  next_run_at: string | null;
  paused: Generated<number>;
  /** Hundredths per calendar month in the schedule's time zone; null = no budget. */
  monthly_credit_budget: number | string | null;
  /** The key whose scopes scheduled runs act with (created or last updated the schedule). */
  key_id: string | null;
  last_skip: string | null; // JSON {slot, reason, at}
  deleted_at: string | null;
  /** The project whose tracked test this is, and its market ("en-US") (0014); null otherwise. */
  project_id?: string | null;
  market?: string | null;
}

/** One row per due slot of a scheduled test: the exactly-once key and what became of the slot. */
export interface TestSlotsTable {
  test_id: string;
  slot: string; // ISO UTC
  account_id: string;
  status: 'claimed' | 'run' | 'skipped';
  reason: string | null;
  message: string | null;
  run_id: string | null;
  estimated_credits: number | string | null;
  claimed_at: string;
  finished_at: string | null;
}

export interface VisibilityRunsTable {
  id: string;
  account_id: string;
  test_id: string;
  source: string;
  /** 1 when its tracked test started it (schedule or run now), 0 when attached by URL (0010). */
  started_by_test: Generated<number>;
  engine: 'live' | 'sandbox';
  url: string;
  target_entity: string;
  competitors: string; // JSON array
  /** What the run knows of the brands beyond names (aliases, domains), JSON BrandTerms; null when none were given (0018). */
  brand_terms?: string | null;
  language: string;
  country: string;
  idempotency_key: string | null;
  /** sha256 of the create request behind idempotency_key (0007); null on older runs. */
  idempotency_fingerprint: string | null;
  cancel_requested: number;
  prompt_count: number;
  platform_count: number;
  probe_count: number;
  ledger_entry_id: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface VisibilityProbesTable {
  id: string;
  run_id: string;
  account_id: string;
  seq: number;
  prompt: string;
  platform: string;
  model: string;
  engine: 'live' | 'sandbox';
  language: string;
  country: string;
  target_entity: string;
  status: 'queued' | 'running' | 'succeeded' | 'errored' | 'cancelled' | 'skipped';
  price: number; // hundredths
  reported_model: string | null;
  brand_mentioned: number | null;
  text_mentioned: number | null;
  citation_mentioned: number | null;
  mention_position: number | null;
  list_rank: number | null;
  competitors: string | null; // JSON array of names
  citations: string | null; // JSON array
  answer: string | null;
  raw: string | null; // capped JSON
  analysis: string | null; // JSON ProbeAnalysis (core/visibility/analysis/brands.ts), 0006
  error_code: string | null;
  error_message: string | null;
  /**
   * How many times a worker called the platform for this probe: counted when the first request of
   * a call is about to be sent (retries of that request inside the call are not counted), never for
   * a worker that resumes from the checkpoint. More than 1 means the platform was asked again
   * because a worker died (or lost its lease) before the answer was checkpointed.
   */
  attempts: number;
  started_at: string | null;
  completed_at: string | null;
  /**
   * The provider's outcome while the probe is still running: JSON `{ answer }` (raw capped) or
   * `{ failure: { code, message } }`, written (fenced by the job's lease) as soon as the platform
   * answers, before the analysis; null once the probe settles (migration 0009).
   */
  checkpoint: string | null;
  /** 1..N: which ask of the same (prompt, platform) this probe is (migration 0005). */
  repeat: Generated<number>;
  /** 'api' | 'consumer' (migration 0015). */
  surface: Generated<string>;
  /** Consumer surfaces: the SERP or scraping provider that fetched the answer (0015). */
  provider: string | null;
  /** Consumer surfaces: 1 when the result carried an AI answer, 0 when not; null for API probes (0015). */
  ai_answer_present: number | null;
  /** Consumer surfaces: the city the probe was localised to, when one was given (0015). */
  city: string | null;
}

export interface JobsTable {
  id: string;
  kind: string;
  lane: string; // concurrency lane, e.g. the platform
  ref_id: string;
  /** The account the work is for (round-robin claiming, per-account caps); null for older jobs. */
  account_id: string | null;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  /** 1 while the running job waits on its provider and holds no lane slot (0020); claims reset it. */
  waiting: Generated<number>;
}

export interface CiRunsTable {
  id: string;
  account_id: string;
  test_id: string;
  source: string;
  /** 1 when its tracked test started it (schedule or run now), 0 when attached by URL (0010). */
  started_by_test: Generated<number>;
  url: string;
  analysis_depth: 'score' | 'full';
  language: string;
  country: string;
  trends: string | null; // JSON
  idempotency_key: string | null;
  /** sha256 of the create request behind idempotency_key (0007); null on older runs. */
  idempotency_fingerprint: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  price: number;
  ledger_entry_id: string;
  result: string | null; // JSON
  overall_score: number | null;
  overall_band: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface ActivityTable {
  id: string;
  account_id: string;
  key_id: string | null;
  key_prefix: string | null;
  source: string;
  action: string;
  method: string;
  path: string;
  http_status: number;
  status: 'ok' | 'error';
  credits: number; // hundredths charged by this request
  request_id: string;
  created_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger_entries: LedgerEntriesTable;
  tests: TestsTable;
  test_slots: TestSlotsTable;
  visibility_runs: VisibilityRunsTable;
  visibility_probes: VisibilityProbesTable;
  jobs: JobsTable;
  ci_runs: CiRunsTable;
  activity: ActivityTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  login_throttle: LoginThrottleTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  notification_settings: NotificationSettingsTable;
  alert_email_prefs: AlertEmailPrefsTable;
  removed_users: RemovedUsersTable;
  projects: ProjectsTable;
  project_prompts: ProjectPromptsTable;
  project_shares: ProjectSharesTable;
  sites: SitesTable;
  site_log_lines: SiteLogLinesTable;
  site_crawler_hits: SiteCrawlerHitsTable;
  site_referral_visits: SiteReferralVisitsTable;
  digest_weeks: DigestWeeksTable;
  dashboard_rollup_runs: DashboardRollupRunsTable;
  dashboard_rollups: DashboardRollupsTable;
  retention_marks: RetentionMarksTable;
}

/** A weekly digest claimed for an account (src/core/webhooks/digest.ts): once per account and week. */
export interface DigestWeeksTable {
  account_id: string;
  /** The week's first day, YYYY-MM-DD (a Monday, UTC). */
  week: string;
  created_at: string;
}

/** A person who signs in to the console: one email and password, acting for one account. */
export interface UsersTable {
  id: string;
  account_id: string;
  email: string; // normalized (trimmed, lowercased); unique
  /** scrypt$N$r$p$salt$hash, or null until the first password is set through a reset link. */
  password_hash: string | null;
  /** The instance role: 'operator' (the instance owner: sees every account) or 'member'. */
  role: 'operator' | 'member';
  /** The role inside the account: 'admin' (manages the account's people) or 'member' (migration 0027). */
  account_role: Generated<AccountRole>;
  created_at: string;
  password_changed_at: string | null;
}

/** A user's role inside their account (users.account_role). */
export type AccountRole = 'admin' | 'member';

/** A console session: the cookie carries a random token, the row its sha256 (revocable). */
export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  user_agent: string | null;
}

/**
 * One-time tokens sent by link: password resets, invitations, and the owner set-up links
 * `sightline serve` prints while an instance has no owner (email ''). Only the sha256 is stored.
 */
export interface AuthTokensTable {
  id: string;
  kind: 'reset' | 'invite' | 'setup';
  email: string;
  user_id: string | null;
  token_hash: string;
  /** Credits (hundredths) an invitation grants to the account it opens. */
  credits: number;
  /** An invitation into an existing account: the account it joins (null: it opens its own). */
  account_id: string | null;
  /** The account role that invitation gives (null for every other token). */
  account_role: AccountRole | null;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Failed sign-ins per normalized email, whether or not an account has it (no existence leak). */
export interface LoginThrottleTable {
  email: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

/** A webhook endpoint (0012): where an account's events are POSTed, Standard Webhooks signed. */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** 'webhook' (Standard Webhooks JSON) or 'slack' (a Slack incoming webhook, Block Kit message). */
  kind: string;
  events: string; // JSON array of event names, or ["*"]
  description: string | null;
  status: 'enabled' | 'disabled';
  /** The signing secret (whsec_…), or `enc:v1:…` when SIGHTLINE_WEBHOOK_SECRET_KEY encrypts it at rest. */
  secret: string;
  /** When the endpoint started failing every delivery (cleared by a success); disabled after SIGHTLINE_WEBHOOK_DISABLE_AFTER_MS. */
  failing_since: string | null;
  disabled_reason: string | null;
  /** JSON array of project ids the endpoint is limited to (0024); null: every event of the account. */
  project_ids: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** One event an account produced; dedupe_key (unique) makes each event happen once however many processes notice it. */
export interface WebhookEventsTable {
  id: string;
  account_id: string;
  type: string;
  dedupe_key: string;
  data: string; // JSON
  created_at: string;
}

/** One event for one endpoint: the message whose id is `webhook-id` on every attempt. */
export interface WebhookMessagesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  account_id: string;
  event_type: string;
  /** The project the event is about (0024): a run of its tests, one of its tracked tests; null for account events. */
  project_id: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  /** Attempts made so far (manual retries included). */
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One attempt to deliver a message; (message_id, attempt) unique, so one attempt is made once. */
export interface WebhookAttemptsTable {
  message_id: string;
  attempt: number;
  started_at: string;
  finished_at: string | null;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}

/** Per-account alert settings (0012). */
export interface NotificationSettingsTable {
  account_id: string;
  /** credits.low fires when the available balance falls below this (hundredths); null: never. */
  credits_low_threshold: number | string | null;
  /** Set when credits.low fired; cleared by a grant that lifts the balance to the threshold (re-armed). */
  credits_low_fired_at: string | null;
  updated_at: string;
}

/** Which events a console user gets by e-mail (0012); no row: none. */
export interface AlertEmailPrefsTable {
  user_id: string;
  account_id: string;
  events: string; // JSON array of event names, or ["*"]
  updated_at: string;
}

/**
 * Who a removed person was (0028): written when they leave the account, so the activity rows
 * they made (key_id = their user id) still name them by email after their users row is gone.
 */
export interface RemovedUsersTable {
  user_id: string;
  account_id: string;
  email: string;
  removed_at: string;
}

export type { Generated };

/** A brand's workspace (0014): JSON columns hold the brand, competitors, markets, platforms, models. */
export interface ProjectsTable {
  id: string;
  account_id: string;
  name: string;
  url: string;
  brand: string; // JSON {name, aliases, domains}
  competitors: string; // JSON [{name, aliases, domains}]
  markets: string; // JSON [{language, country}]
  platforms: string; // JSON [platform]
  models: string | null; // JSON {platform: model} or null
  repeats: number;
  schedule_cron: string | null;
  schedule_timezone: string | null;
  monthly_credit_budget: number | string | null; // hundredths
  /** The create request's idempotency_key (0025), and a sha256 of the rest of it: a retry replays the project. */
  idempotency_key: string | null;
  idempotency_fingerprint: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A read-only share link of a project's report (0017); the token itself is never stored. */
export interface ProjectSharesTable {
  id: string;
  account_id: string;
  project_id: string;
  /** sha256 of the link's token, hex. */
  token_hash: string;
  /** The report as fixed when the link was made: '7d' | '30d', the days of history, topic and market. */
  report_window: string;
  days: number;
  topic: string | null;
  market: string | null;
  /** The API key (or console user) that made it. */
  created_by: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A prompt of a project's library (0014), with its topics (JSON array of tags). */
export interface ProjectPromptsTable {
  id: string;
  project_id: string;
  prompt: string;
  topics: string;
  created_at: string;
}

/** A web site whose access logs an account uploads (src/core/sites). */
export interface SitesTable {
  id: string;
  account_id: string;
  /** Host name, lowercased, `www.` folded; unique per account. */
  domain: string;
  name: string;
  created_at: string;
}

/** A hash of each log line already counted for a site (idempotent re-upload); the line itself is not kept. */
export interface SiteLogLinesTable {
  site_id: string;
  line_hash: string;
  /** The upload that counted it first (random per upload); null before migration 0022. */
  upload?: number | string | null;
  /** The line's hour (YYYY-MM-DDTHH, UTC): when its hash may go (core/retention.ts); null before migration 0026. */
  hour?: string | null;
}

/** How far back the retention sweep has removed rows, per table (0026; core/retention.ts). */
export interface RetentionMarksTable {
  /** The table, e.g. `site_log_lines`. */
  name: string;
  /** For site_log_lines: the hour (YYYY-MM-DDTHH) before which line hashes may have been removed. */
  value: string;
}

/** AI crawler requests, rolled up per hour (YYYY-MM-DDTHH), crawler, path, status class and verification. */
export interface SiteCrawlerHitsTable {
  site_id: string;
  hour: string;
  crawler: string;
  path: string;
  status_class: '2xx' | '3xx' | '4xx' | '5xx';
  verified: number;
  blocked: number;
  hits: number | string;
  last_seen: string;
}

/** Page visits referred by an AI assistant, rolled up per hour, source and landing page. */
export interface SiteReferralVisitsTable {
  site_id: string;
  hour: string;
  source: string;
  path: string;
  visits: number | string;
}

/** A finished visibility run whose per-prompt rollups are written (0019); the row is written last, with them. */
export interface DashboardRollupRunsTable {
  run_id: string;
  /** The run's definition id (tracking/comparable.ts), from its probes. */
  definition_id: string;
  created_at: string;
}

/** One prompt of a finished run, tallied for the project dashboard (core/projects/rollups.ts) (0019). */
export interface DashboardRollupsTable {
  run_id: string;
  prompt: string;
  /** The seq of the prompt's first probe in the run. */
  seq: number;
  /** JSON: what the series reads (counts, competitor mentions, answer-analysis tallies). */
  series: string;
  /** JSON: what the matrix reads (per platform counts, cited domains). */
  cells: string;
}
