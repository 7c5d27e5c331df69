// Read-only share links of a project's report. A link is `<public url>/share/<token>`: 32 random
// bytes, shown once when the link is made and kept only as its SHA-256, with an expiry (30 days
// by default, 365 at most), a revocation time, and the report it shows fixed at creation (window,
// days of history, topic, market). Whoever holds the link reads that one report and nothing else;
// the link is no key: the API, MCP and the console never accept it.
import { createHash, randomBytes } from 'node:crypto';
import { requireScope, type Principal } from '../accounts/accounts.ts';
import { requireAdminToGrant } from '../accounts/team.ts';
import { AppError } from '../errors.ts';
import { checkCap } from '../limits.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { checkDashboardFilters, DASHBOARD_WINDOWS, dashboardAndRuns, dashboardFilters } from '../projects/dashboard.ts';
import { findProject, lockProject, projectTests } from '../projects/projects.ts';
import { listPrompts } from '../projects/prompts.ts';

const WRITE_SCOPE = 'visibility:runs:create' as const;
export const SHARE_DEFAULT_DAYS = 30;
export const SHARE_MAX_DAYS = 365;
/** Live links (neither revoked nor expired) a project may have; one more is 409 `limit_reached`. */
export const SHARE_MAX_LIVE = 50;
/** A token is 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type ShareWindow = (typeof DASHBOARD_WINDOWS)[number];

export interface ShareInput {
  expires_in_days?: number;
  window?: ShareWindow;
  days?: number;
  topic?: string | null;
  market?: string | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The link a token is shown as. */
export function shareUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/share/${token}`;
}

interface ShareRow {
  id: string;
  project_id: string;
  report_window: string;
  days: number;
  topic: string | null;
  market: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/**
 * What the report of a link shows now: `ok`, or `topic_gone` / `market_gone` when the topic or
 * market it was made with is no longer the project's (its prompts deleted, the market removed).
 * Such a link opens a page saying so, never an empty report (as making one is refused).
 */
export type ShareReportStatus = 'ok' | 'topic_gone' | 'market_gone';

/** The project's topics and markets, to tell whether a link's report still exists. */
async function projectFilters(store: Store, projectId: string) {
  return { library: await listPrompts(store.db, projectId), tests: await projectTests(store.db, projectId) };
}

function reportStatus(filters: Awaited<ReturnType<typeof projectFilters>>, r: { topic: string | null; market: string | null }): ShareReportStatus {
  try {
    dashboardFilters(filters.library, filters.tests, { topic: r.topic, market: r.market, strict: true });
    return 'ok';
  } catch (err) {
    return goneStatus(err);
  }
}

/** The status a dashboard's refusal of a link's topic or market means; any other error is thrown on. */
function goneStatus(err: unknown): Exclude<ShareReportStatus, 'ok'> {
  if (err instanceof AppError && err.code === 'invalid_filter' && (err.extra.parameter === 'topic' || err.extra.parameter === 'market')) {
    return err.extra.parameter === 'market' ? 'market_gone' : 'topic_gone';
  }
  throw err;
}

function renderShare(r: ShareRow, now = new Date(), report: ShareReportStatus = 'ok') {
  const status = r.revoked_at ? 'revoked' : r.expires_at <= now.toISOString() ? 'expired' : 'active';
  return {
    id: r.id,
    project_id: r.project_id,
    window: r.report_window,
    days: r.days,
    topic: r.topic,
    market: r.market,
    status,
    report_status: report,
    created_at: toApiTime(r.created_at),
    expires_at: toApiTime(r.expires_at),
    revoked_at: toApiTime(r.revoked_at),
  };
}

/** A new link (admins only from a session: it outlives whoever makes it, see requireAdminToGrant). */
export async function createShare(store: Store, principal: Principal, projectId: string, input: ShareInput, publicUrl: string) {
  requireScope(principal, WRITE_SCOPE);
  requireAdminToGrant(principal, 'makes share links (you may revoke them)');
  await findProject(store.db, principal.accountId, projectId);
  const expiresInDays = input.expires_in_days ?? SHARE_DEFAULT_DAYS;
  if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > SHARE_MAX_DAYS) {
    throw new AppError('invalid_request', `expires_in_days must be a whole number from 1 to ${SHARE_MAX_DAYS}.`, { parameter: 'expires_in_days' });
  }
  // A topic or market the project does not have would share an empty report: refused (400). One
  // that stops being the project's later is no empty report either: the link says so (reportStatus).
  const filters = await checkDashboardFilters(store, projectId, { topic: input.topic?.trim() || null, market: input.market?.trim() || null });
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const row: ShareRow & { account_id: string; token_hash: string; created_by: string | null } = {
    id: newId('shr'),
    account_id: principal.accountId,
    project_id: projectId,
    token_hash: hashToken(token),
    report_window: input.window ?? '7d',
    days: input.days ?? 90,
    topic: filters.topic ?? null,
    market: filters.market ?? null,
    created_by: principal.keyId,
    created_at: nowIso(),
    expires_at: new Date(now.getTime() + expiresInDays * 86_400_000).toISOString(),
    revoked_at: null,
  };
  // Inserted with the project locked, as a project's deletion locks it: a delete at the same
  // instant either waits for this link (and revokes it with the project) or goes first, and this
  // answers 404. Never a live link of a deleted project.
  await store.db.transaction().execute(async (trx) => {
    await lockProject(store, trx, principal.accountId, projectId);
    // Counted under the same lock: two links asked for at once cannot both see room.
    const { n } = await trx
      .selectFrom('project_shares')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', row.created_at)
      .executeTakeFirstOrThrow();
    checkCap(n, SHARE_MAX_LIVE, { holder: 'project', things: 'live share links', allows: 'a project may have', advice: 'revoke one it no longer needs first.' });
    await trx.insertInto('project_shares').values(row).execute();
  });
  // The token is in this answer only: the server keeps its hash.
  return { ...renderShare(row, now), token, url: shareUrl(publicUrl, token) };
}

export async function listShares(store: Store, accountId: string, projectId: string) {
  await findProject(store.db, accountId, projectId);
  const rows = await store.db
    .selectFrom('project_shares')
    .select(['id', 'project_id', 'report_window', 'days', 'topic', 'market', 'created_at', 'expires_at', 'revoked_at'])
    .where('project_id', '=', projectId)
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .execute();
  const now = new Date();
  const filters = rows.some((r) => r.topic !== null || r.market !== null) ? await projectFilters(store, projectId) : null;
  return { object: 'list', project_id: projectId, shares: rows.map((r) => renderShare(r, now, filters ? reportStatus(filters, r) : 'ok')) };
}

/** Revokes a link at once (its page answers 404 from the next request); revoking twice is a no-op. */
export async function revokeShare(store: Store, principal: Principal, projectId: string, shareId: string) {
  requireScope(principal, WRITE_SCOPE);
  await findProject(store.db, principal.accountId, projectId);
  const found = await store.db
    .selectFrom('project_shares')
    .select('id')
    .where('id', '=', shareId)
    .where('project_id', '=', projectId)
    .where('account_id', '=', principal.accountId)
    .executeTakeFirst();
  if (!found) throw new AppError('not_found', `Share ${shareId} not found.`);
  await store.db.updateTable('project_shares').set({ revoked_at: nowIso() }).where('id', '=', shareId).where('revoked_at', 'is', null).execute();
  return { id: shareId, revoked: true as const };
}

/** What a valid link opens: the share, its project's names, and the account it belongs to. */
export interface OpenShare {
  id: string;
  accountId: string;
  projectId: string;
  projectName: string;
  url: string;
  brand: string;
  window: ShareWindow;
  days: number;
  topic: string | null;
  market: string | null;
  expiresAt: string;
}

/**
 * The share a token opens, or null: unknown, malformed, expired, revoked, its project deleted or
 * its account gone or suspended are all the same null, decided by one query. The token is looked
 * up by its SHA-256, so no comparison of secret strings happens here: an attacker timing the
 * lookup learns about a hash of their own guess, not about any stored token, and a constant-time
 * compare would protect nothing.
 */
export async function openShare(store: Store, token: string, now = new Date()): Promise<OpenShare | null> {
  if (!TOKEN_PATTERN.test(token)) {
    // Hashed and queried all the same: a malformed token takes the path of an unknown one.
    token = '';
  }
  const row = await store.db
    .selectFrom('project_shares as s')
    .innerJoin('projects as p', 'p.id', 's.project_id')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['s.id', 's.account_id', 's.project_id', 's.report_window', 's.days', 's.topic', 's.market', 's.expires_at', 'p.name', 'p.url', 'p.brand'])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now.toISOString())
    .where('p.deleted_at', 'is', null)
    .whereRef('p.account_id', '=', 's.account_id')
    .where('a.status', '=', 'active')
    .executeTakeFirst();
  if (!row || !token) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    projectId: row.project_id,
    projectName: row.name,
    url: row.url,
    brand: (JSON.parse(row.brand) as { name: string }).name,
    window: (DASHBOARD_WINDOWS as readonly string[]).includes(row.report_window) ? (row.report_window as ShareWindow) : '7d',
    days: row.days,
    topic: row.topic,
    market: row.market,
    expiresAt: toApiTime(row.expires_at),
  };
}

/** What a share shows now: its report, or only why it has none (its topic or market is gone). */
export type ShareView = { status: 'ok'; report: ShareReport } | { status: Exclude<ShareReportStatus, 'ok'> };

/**
 * The report a share shows: the project's dashboard as fixed when the link was made, and how
 * many of the runs behind it the sandbox engine answered (simulated answers, labelled as such
 * on the page and the PDF as in the console). A topic or market the project no longer has is
 * found by the dashboard's own read of the prompts and tests (strict filters), so a view reads
 * them once; it answers the status instead of an empty report.
 */
export async function shareReport(store: Store, catalog: Catalog, share: OpenShare, now = new Date()): Promise<ShareView> {
  let read: Awaited<ReturnType<typeof dashboardAndRuns>>;
  try {
    read = await dashboardAndRuns(store, share.accountId, share.projectId, {
      days: share.days,
      window: share.window,
      topic: share.topic ?? undefined,
      market: share.market ?? undefined,
      strict: true,
      catalog,
      now,
      // A share shows the visibility report only: the link is made with visibility:runs:create and
      // opened by anyone holding it, so the account's sites and their logs stay out of it.
      siteActivity: false,
    });
  } catch (err) {
    return { status: goneStatus(err) };
  }
  return { status: 'ok', report: { share, dashboard: read.dashboard, engine: read.engine, generatedAt: toApiTime(now.toISOString()) } };
}

export interface ShareReport {
  share: OpenShare;
  dashboard: Awaited<ReturnType<typeof dashboardAndRuns>>['dashboard'];
  engine: Awaited<ReturnType<typeof dashboardAndRuns>>['engine'];
  generatedAt: string;
}
