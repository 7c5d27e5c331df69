// The one registry of error codes. The core throws AppError values; the HTTP error handler
// (src/web/errors.ts) renders them as {"detail": {"error", "message", ...extra}} with
// the status listed here. Schema failures (422) are rendered separately as a detail list.

export const ERROR_CODES = {
  invalid_url: { status: 400, message: 'The url is not a valid http(s) URL.' },
  invalid_target_entity: { status: 400, message: 'target_entity must not be empty.' },
  invalid_probe_mode: {
    status: 400,
    message: 'Describe probes either with prompts and platforms, or with probes: exactly one of the two.',
  },
  unsupported_model: { status: 400, message: 'The model is not selectable for that platform.' },
  model_platform_not_requested: { status: 400, message: 'models names a platform that is not in platforms.' },
  duplicate_model_platform: { status: 400, message: 'Two keys in models resolve to the same platform.' },
  model_required: { status: 400, message: 'A models entry is empty; omit the key to use the default model.' },
  models_map_requires_prompt_platform_matrix: {
    status: 400,
    message: 'models can only be combined with prompts and platforms; set model on each probe instead.',
  },
  invalid_html: { status: 400, message: 'html is empty or not HTML.' },
  unsupported_extraction_mode: { status: 400, message: 'extraction_mode must be one of ssr, csr, full.' },
  platform_unavailable: { status: 400, message: 'The platform is not available on this server.' },
  invalid_cursor: { status: 400, message: 'starting_after does not match a run visible to this account.' },
  invalid_filter: { status: 400, message: 'A filter parameter names a value that does not exist.' },
  invalid_request: { status: 400, message: 'The request is invalid.' },
  invalid_token: { status: 400, message: 'This link is invalid, used or expired; ask for a new one.' },
  weak_password: { status: 400, message: 'Passwords need at least 10 characters.' },
  wrong_password: { status: 400, message: 'The current password is not right.' },
  invalid_schedule: { status: 400, message: 'The schedule needs a valid five-field cron expression and an IANA time zone.' },
  fetch_blocked: { status: 400, message: 'The URL points at an address this server may not fetch (not public: private, loopback, link-local), or its host name does not exist (one answer for both); its operator can allow a host with SIGHTLINE_FETCH_ALLOW (hosts, host:port pairs or CIDRs).' },
  unauthorized: { status: 401, message: 'Missing or invalid API key.' },
  mcp_token_not_allowed: { status: 401, message: 'MCP tokens are accepted only by the MCP endpoint.' },
  api_key_not_allowed: { status: 401, message: 'API keys are not accepted by the MCP endpoint; use an MCP token (svc_mcp_live_…, `sightline keys create --mcp`).' },
  invalid_credentials: { status: 401, message: 'The email or password is not right.' },
  insufficient_credits: { status: 402, message: 'Not enough credits for this action.' },
  missing_scope: { status: 403, message: 'The API key lacks the scope this endpoint requires.' },
  account_suspended: { status: 403, message: 'The account is suspended.' },
  csrf_failed: { status: 403, message: 'The request lacks this session\'s CSRF token; reload the page and try again.' },
  signup_closed: { status: 403, message: 'Sign-up is not open on this instance; ask its operator for an invitation.' },
  forbidden: { status: 403, message: 'This needs the operator role.' },
  setup_token_required: {
    status: 403,
    message: 'Setting up the owner from another machine needs the set-up link that `sightline serve` printed when it started (…/console#setup=…); or open the console on the server itself, through localhost.',
  },
  team_admin_required: {
    status: 403,
    message: "Managing this account's people (invitations, roles, removals), and making what outlives a person's access (API keys and MCP tokens, share links, webhook endpoints and where they send), needs the admin role in the account.",
  },
  not_found: { status: 404, message: 'Not found.' },
  webhook_disabled: { status: 409, message: 'The webhook endpoint is disabled; enable it (status "enabled") before retrying its deliveries.' },
  webhook_event_unsubscribed: { status: 409, message: 'The webhook endpoint no longer subscribes to this delivery\'s event type; add it to the endpoint\'s events before retrying.' },
  limit_reached: { status: 409, message: 'The account has as many of these as this instance allows (API keys and MCP tokens, webhook endpoints, projects, sites, or live share links of a project); revoke or delete one first.' },
  last_admin: { status: 409, message: 'The account needs at least one admin: make another person admin before removing or demoting this one.' },
  payload_too_large: { status: 413, message: 'The request body is larger than 1 MiB.' },
  uri_too_long: { status: 414, message: 'A path parameter is longer than 100 characters; no id is that long.' },
  unsupported_media_type: { status: 415, message: 'Request bodies must be JSON (Content-Type: application/json).' },
  method_not_allowed: { status: 405, message: 'This MCP server is stateless: use POST /mcp.' },
  idempotency_key_reused: {
    status: 422,
    message: 'This idempotency_key was already used with a different request; use a new key for a different request.',
  },
  rate_limited: { status: 429, message: 'Rate limit exceeded for this API key.' },
  login_locked: { status: 429, message: 'Too many failed sign-ins for this email; try again later or reset the password.' },
  extraction_failed: { status: 500, message: 'The page could not be fetched or extracted.' },
  provider_failed: { status: 500, message: 'The AI provider failed.' },
  internal_error: { status: 500, message: 'Unexpected server error.' },
  credit_storage_unavailable: { status: 503, message: 'Credit storage is temporarily unavailable.' },
  database_unavailable: { status: 503, message: 'The database is temporarily unavailable; retry shortly.' },
  fetch_capacity: { status: 503, message: 'Too many page fetches in progress; retry shortly.' },
  shutting_down: { status: 503, message: 'The server is shutting down and stopped this request; retry (another instance answers, or this one once restarted).' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  constructor(code: ErrorCode, message?: string, extra: Record<string, unknown> = {}) {
    super(message ?? ERROR_CODES[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.extra = extra;
  }
}

/** A 422 raised by the core for a field that breaks a declared bound (rendered like schema errors). */
export class FieldError extends Error {
  readonly loc: (string | number)[];
  readonly type: string;
  constructor(loc: (string | number)[], msg: string, type = 'value_error') {
    super(msg);
    this.name = 'FieldError';
    this.loc = loc;
    this.type = type;
  }
}

/** Several 422 details at once (a nested body checked by the core, e.g. a tracked test's definition). */
export class ValidationFailed extends Error {
  constructor(readonly detail: { loc: (string | number)[]; msg: string; type: string }[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
    this.name = 'ValidationFailed';
  }
}
