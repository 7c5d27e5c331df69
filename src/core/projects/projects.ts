
import type { Selectable } from 'kysely';
import type { ProjectsTable } from '../../db/schema.ts';
import { requireScope, type Principal } from '../accounts/accounts.ts';
import type { ActionContext } from '../billing/actions.ts';
import { lockAccount } from '../billing/ledger.ts';
import { AppError } from '../errors.ts';
import { idempotencyPolicy, requestFingerprint } from '../idempotency.ts';
import { checkCap } from '../limits.ts';
import { checkCountry, checkLanguage } from '../locale.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import { formatCredits, parseCredits } from '../money.ts';
import { testSamplePlan, type SamplePlanOptions } from '../tracking/sample-plan.ts';
import { absoluteUrlMessage, normalizeUrl, parseHttpUrl } from '../../lib/url.ts';
import type { Executor, Store } from '../../db/store.ts';
import { nextSlotAfter, parseSchedule } from '../tracking/schedule.ts';
import { checkDefinition, parseBudget, runTrackedTestNow, softDeleteTestRow, type TrackingDeps } from '../tracking/tracked-tests.ts';
import { findTest, foldEntity, getTestRow } from '../tracking/tests.ts';
import { addPrompts, deletePrompt, listPrompts, parsePromptText, type PromptInput } from './prompts.ts';

export interface BrandInput {
  name: string;
  aliases?: string[];
  domains?: string[];
}

export interface Market {
  language: string;
  country: string;
}

export interface ProjectInput {
  name?: string | null;
  url: string;
  brand: BrandInput;
  competitors?: BrandInput[];
  markets?: Market[];
  platforms: string[];
  models?: Record<string, string> | null;
  repeats?: number;
  schedule?: { cron: string; timezone?: string | null } | null;
  monthly_credit_budget?: string | number | null;
  prompts?: PromptInput[];
}

export type ProjectPatch = Partial<Omit<ProjectInput, 'prompts'>>;

/**
 * The project a live idempotency key already made (read with the account locked, so two retries
 * at once make one): its id, or undefined when the key is unused, expired (as runs' keys,
 * SIGHTLINE_IDEMPOTENCY_TTL_SECONDS) or its project deleted; 422 idempotency_key_reused when the
 * key made a project from another request.
 */
async function projectForIdempotencyKey(db: Executor, accountId: string, key: string, fingerprint: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('projects')
    .select(['id', 'created_at', 'idempotency_fingerprint'])
    .where('account_id', '=', accountId)
    .where('idempotency_key', '=', key)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row || row.created_at < new Date(Date.now() - idempotencyPolicy.ttlMs).toISOString()) return undefined;
  if (row.idempotency_fingerprint !== fingerprint) throw new AppError('idempotency_key_reused', undefined, { idempotency_key: key, project_id: row.id });
  return row.id;
}

/** A project's settings as stored: checked and filled in (projectColumns), so nothing is left out. */
export interface StoredProject extends ProjectInput {
  name: string;
  brand: Required<BrandInput>;
  competitors: Required<BrandInput>[];
  markets: Market[];
  platforms: string[];
  models: Record<string, string> | null;
  repeats: number;
  schedule: { cron: string; timezone: string | null } | null;
  monthly_credit_budget: string | null;
}

type ProjectRow = Selectable<ProjectsTable>;

const WRITE_SCOPE = 'visibility:runs:create' as const;

/** A market's key: "en-US". */
export const marketKey = (m: Market) => `${m.language}-${m.country}`;

const cleanList = (xs: readonly string[] | undefined) => [...new Set((xs ?? []).map((x) => x.trim()).filter(Boolean))];

function cleanBrand(b: BrandInput, what: string): Required<BrandInput> {
  const name = b.name?.trim();
  if (!name) throw new AppError('invalid_request', `${what}.name must not be empty.`);
  return { name, aliases: cleanList(b.aliases).filter((a) => foldEntity(a) !== foldEntity(name)), domains: cleanList(b.domains).map((d) => d.toLowerCase()) };
}

export function cleanMarkets(markets: Market[] | undefined): Market[] {
  const list = (markets?.length ? markets : [{ language: 'en', country: 'US' }]).map((m) => ({ language: m.language.trim().toLowerCase(), country: m.country.trim().toUpperCase() }));
  const seen = new Set<string>();
  return list.filter((m) => {
    if (!m.language || !m.country) throw new AppError('invalid_request', 'Every market needs a language and a country, e.g. {"language": "de", "country": "DE"}.');
    checkLanguage(m.language, 'markets[].language');
    checkCountry(m.country, 'markets[].country');
    const k = marketKey(m);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The project's settings as stored, checked. */
function projectColumns(input: ProjectInput) {
  if (!parseHttpUrl(input.url)) throw new AppError('invalid_url', absoluteUrlMessage('url', input.url), { url: input.url });
  const brand = cleanBrand(input.brand, 'brand');
  const competitors = (input.competitors ?? []).map((c, i) => cleanBrand(c, `competitors[${i}]`));
  const schedule = input.schedule ? parseSchedule(input.schedule) : null;
  return {
    name: input.name?.trim() || brand.name,
    url: input.url.trim(),
    brand: JSON.stringify(brand),
    competitors: JSON.stringify(competitors),
    markets: JSON.stringify(cleanMarkets(input.markets)),
    platforms: JSON.stringify([...new Set(input.platforms)]),
    models: input.models && Object.keys(input.models).length ? JSON.stringify(input.models) : null,
    repeats: input.repeats ?? 1,
    schedule_cron: schedule?.cron ?? null,
    schedule_timezone: schedule?.timezone ?? null,
    monthly_credit_budget: parseBudget(input.monthly_credit_budget),
  };
}

function inputOf(row: ProjectRow): StoredProject {
  return {
    name: row.name,
    url: row.url,
    brand: JSON.parse(row.brand) as StoredProject['brand'],
    competitors: JSON.parse(row.competitors) as StoredProject['competitors'],
    markets: JSON.parse(row.markets) as Market[],
    platforms: JSON.parse(row.platforms) as string[],
    models: row.models ? (JSON.parse(row.models) as Record<string, string>) : null,
    repeats: row.repeats,
    schedule: row.schedule_cron ? { cron: row.schedule_cron, timezone: row.schedule_timezone } : null,
    monthly_credit_budget: row.monthly_credit_budget === null ? null : formatCredits(Number(row.monthly_credit_budget)),
  };
}

/** The run definition of a market: every prompt of the library on every platform. */
export function marketDefinition(p: ProjectInput, market: Market, prompts: readonly string[]): Record<string, unknown> {
  return {
    url: p.url,
    target_entity: p.brand.name,
    prompts,
    platforms: p.platforms,
    ...(p.models ? { models: p.models } : {}),
    repeats: p.repeats ?? 1,
    // Aliases and domains go with the names: the matcher counts an alias as the brand, and
    // citations of a brand's domains are its own (or the named competitor's).
    competitors: (p.competitors ?? []).map((c) => (c.aliases?.length || c.domains?.length ? { name: c.name, aliases: c.aliases ?? [], domains: c.domains ?? [] } : c.name)),
    ...(p.brand.aliases?.length ? { target_aliases: p.brand.aliases } : {}),
    ...(p.brand.domains?.length ? { target_domains: p.brand.domains } : {}),
    language: market.language,
    country: market.country,
  };
}

/**
 * The account's project (not deleted), or 404. `forUpdate`: its row stays locked until the
 * surrounding Postgres transaction ends (SQLite's write transactions are serialized already).
 */
export async function findProject(db: Executor, accountId: string, projectId: string, forUpdate = false): Promise<ProjectRow> {
  const row = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .$if(forUpdate, (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `Project ${projectId} not found.`);
  return row;
}

/**
 * The project's row, locked for the rest of the transaction (Postgres; SQLite's write transactions
 * begin IMMEDIATE and are serialized already). Every change of a project or its library takes it
 * first: each reads what it rewrites (the row's columns it merges a patch into, the library its
 * tests' definitions are built from, the tests it updates or inserts per market), so two at the
 * same instant would otherwise each write from what they read before the other committed: a patch
 * lost, a test definition without the prompts an import added, a market's test inserted twice (a
 * 500 on the tests' unique identity), or tests (or a share link) made again for a project just deleted.
 */
export async function lockProject(store: Pick<Store, 'dialect'>, trx: Executor, accountId: string, projectId: string): Promise<ProjectRow> {
  return findProject(trx, accountId, projectId, store.dialect === 'postgres');
}

/** The project's tracked tests (not deleted), one per market. */
export async function projectTests(db: Executor, projectId: string) {
  return projectTestsQuery(db, projectId).execute();
}

/** The project's tracked tests with their stored definitions, in the same one query (the dashboard plans them). */
export async function projectTestsWithDefinitions(db: Executor, projectId: string) {
  return projectTestsQuery(db, projectId).select('definition').execute();
}

function projectTestsQuery(db: Executor, projectId: string) {
  return (
    db
      .selectFrom('tests')
      .select(['id', 'market'])
      .where('project_id', '=', projectId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      // The column is optional in the table type (added by a later migration) but always selected.
      .$narrowType<{ market: string | null }>()
  );
}

/**
 * Brings the project's tests in step with it: one per market with the market's definition, the
 * project's schedule and its budget shared evenly between markets; tests of markets no longer
 * listed are deleted (their runs stay readable). Without prompts there is nothing to run yet: the
 * tests keep no definition and no schedule.
 */
async function syncProjectTests(deps: TrackingDeps, db: Executor, principal: Principal, row: ProjectRow) {
  const p = inputOf(row);
  const prompts = (await listPrompts(db, row.id)).map((x) => x.prompt);
  const markets = p.markets!;
  const existing = new Map((await projectTests(db, row.id)).map((t) => [t.market!, t.id]));
  const budget = row.monthly_credit_budget === null ? null : Math.floor(Number(row.monthly_credit_budget) / markets.length);
  const now = new Date();
  for (const m of markets) {
    const definition = prompts.length ? checkDefinition(deps, 'ai_citations', marketDefinition(p, m, prompts)).definition : null;
    const schedule = definition && row.schedule_cron ? { cron: row.schedule_cron, timezone: row.schedule_timezone ?? 'UTC' } : null;
    const set = {
      name: `${row.name} (${marketKey(m)})`,
      url: p.url,
      url_key: normalizeUrl(p.url),
      target_entity: p.brand.name,
      definition: definition ? JSON.stringify(definition) : null,
      schedule_cron: schedule?.cron ?? null,
      schedule_timezone: schedule?.timezone ?? null,
      next_run_at: schedule ? nextSlotAfter(schedule, now).toISOString() : null,
      monthly_credit_budget: budget,
      key_id: principal.keyId,
    };
    const id = existing.get(marketKey(m));
    existing.delete(marketKey(m));
    if (id) {
      await db.updateTable('tests').set(set).where('id', '=', id).execute();
      continue;
    }
    await db
      .insertInto('tests')
      .values({
        ...set,
        id: newId('test'),
        account_id: row.account_id,
        test_type: 'ai_citations',
        // A project-scoped identity: runs attached by page and brand never land here.
        target_key: `${foldEntity(p.brand.name)} #project:${row.id}:${marketKey(m)}`,
        created_at: nowIso(),
        last_run_at: null,
        paused: 0,
        project_id: row.id,
        market: marketKey(m),
      })
      .execute();
  }
  for (const [, id] of existing) await softDeleteTestRow(db, row.account_id, id);
}

async function renderProject(deps: TrackingDeps, row: ProjectRow) {
  const p = inputOf(row);
  const prompts = await listPrompts(deps.store.db, row.id);
  const topics = new Map<string, number>();
  for (const x of prompts) for (const t of x.topics) topics.set(t, (topics.get(t) ?? 0) + 1);
  const tests = [];
  for (const t of await projectTests(deps.store.db, row.id)) {
    const r = (await getTestRow(deps.store, row.account_id, t.id)).rendered;
    tests.push({ test_id: t.id, market: t.market, next_run_at: r.next_run_at, last_run_at: r.last_run_at, run_count: r.run_count, monthly_credit_budget: r.monthly_credit_budget, credits_used_this_month: r.credits_used_this_month });
  }
  return {
    id: row.id,
    object: 'project',
    ...p,
    competitors: p.competitors ?? [],
    prompt_count: prompts.length,
    topics: [...topics].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([topic, n]) => ({ topic, prompts: n })),
    prompts,
    tests,
    created_at: toApiTime(row.created_at),
    updated_at: toApiTime(row.updated_at),
  };
}

export async function createProject(deps: TrackingDeps, principal: Principal, input: ProjectInput & { idempotency_key?: string | null }) {
  requireScope(principal, WRITE_SCOPE);
  const columns = projectColumns(input);
  const now = nowIso();
  const key = input.idempotency_key ?? null;
  const fingerprint = key === null ? null : requestFingerprint(input);
  let id = newId('proj');
  await deps.store.db.transaction().execute(async (trx) => {
    // With the account locked: a retry under the same key finds the first one's project (two at
    // once: the second waits, then finds it), and two creates at once cannot both see room.
    if (key !== null || deps.maxProjects !== undefined) await lockAccount(deps.store, trx, principal.accountId);
    const made = key === null ? undefined : await projectForIdempotencyKey(trx, principal.accountId, key, fingerprint!);
    if (made) {
      id = made;
      return;
    }
    if (deps.maxProjects !== undefined) {
      const { n } = await trx.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', principal.accountId).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
      checkCap(n, deps.maxProjects, { holder: 'account', things: 'projects', allows: 'this instance allows', advice: 'delete one it no longer uses first.' });
    }
    await trx
      .insertInto('projects')
      .values({ id, account_id: principal.accountId, ...columns, idempotency_key: key, idempotency_fingerprint: fingerprint, created_at: now, updated_at: now, deleted_at: null })
      .execute();
    if (input.prompts?.length) await addPrompts(trx, id, input.prompts);
    await syncProjectTests(deps, trx, principal, await findProject(trx, principal.accountId, id));
  });
  return getProject(deps, principal.accountId, id);
}

export async function getProject(deps: TrackingDeps, accountId: string, projectId: string) {
  return renderProject(deps, await findProject(deps.store.db, accountId, projectId));
}

export async function listProjects(deps: TrackingDeps, accountId: string, limit: number) {
  const rows = await deps.store.db.selectFrom('projects').selectAll().where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('id', 'desc').limit(limit).execute();
  const projects = [];
  for (const r of rows) {
    const { prompts: _p, ...rest } = await renderProject(deps, r);
    projects.push(rest);
  }
  return { object: 'list', projects };
}

export async function updateProject(deps: TrackingDeps, principal: Principal, projectId: string, patch: ProjectPatch) {
  requireScope(principal, WRITE_SCOPE);
  await deps.store.db.transaction().execute(async (trx) => {
    const row = await lockProject(deps.store, trx, principal.accountId, projectId);
    const merged: ProjectInput = { ...inputOf(row), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as ProjectInput;
    await trx.updateTable('projects').set({ ...projectColumns(merged), updated_at: nowIso() }).where('id', '=', projectId).execute();
    await syncProjectTests(deps, trx, principal, await findProject(trx, principal.accountId, projectId));
  });
  return getProject(deps, principal.accountId, projectId);
}

/** Re-plans the project's tests after its library changed (prompts.ts calls it in the same transaction). */
export async function resyncProject(deps: TrackingDeps, db: Executor, principal: Principal, projectId: string) {
  await db.updateTable('projects').set({ updated_at: nowIso() }).where('id', '=', projectId).execute();
  await syncProjectTests(deps, db, principal, await findProject(db, principal.accountId, projectId));
}

export async function deleteProject(deps: TrackingDeps, principal: Principal, projectId: string) {
  requireScope(principal, WRITE_SCOPE);
  await deps.store.db.transaction().execute(async (trx) => {
    await lockProject(deps.store, trx, principal.accountId, projectId);
    const now = nowIso();
    await trx.updateTable('projects').set({ deleted_at: now }).where('id', '=', projectId).execute();
    for (const t of await projectTests(trx, projectId)) await softDeleteTestRow(trx, principal.accountId, t.id);
    // Its share links end with it (they could no longer open anyway): none is left active.
    await trx.updateTable('project_shares').set({ revoked_at: now }).where('project_id', '=', projectId).where('revoked_at', 'is', null).execute();
  });
  return { id: projectId, deleted: true };
}

/** Runs every market's test now, as the caller. */
/**
 * Runs every market's test now, one run each, funded in market order as one run funds its probes:
 * a market the balance no longer covers is skipped (listed with what it needed), never a 402
 * that hides the runs already made and paid for. Only when no market's run can be funded is the
 * answer 402, and then nothing was made or charged. With an idempotency key, market M's run is
 * created with the key `<key>:<M>`: a retry replays the runs made and funds the skipped anew.
 */
export async function runProjectNow(deps: TrackingDeps, principal: Principal, ctx: ActionContext, projectId: string, idempotencyKey?: string) {
  requireScope(principal, WRITE_SCOPE);
  await findProject(deps.store.db, principal.accountId, projectId);
  const tests = await projectTests(deps.store.db, projectId);
  const runs = [];
  const skipped = [];
  let refusal: AppError | undefined;
  for (const t of tests) {
    try {
      // One key a market, so a retry of the whole call replays each market's run, charged once.
      const marketIdempotencyKey = idempotencyKey === undefined ? undefined : `${idempotencyKey}:${t.market ?? t.id}`;
      runs.push({ market: t.market, ...(await runTrackedTestNow(deps, principal, ctx, t.id, marketIdempotencyKey)) });
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'insufficient_credits') throw err;
      refusal ??= err;
      const { required_credits, available_credits } = err.extra as { required_credits: string; available_credits: string };
      skipped.push({ market: t.market, test_id: t.id, reason: 'insufficient_credits' as const, required_credits, available_credits });
    }
  }
  if (refusal && runs.length === 0) throw refusal;
  return { project_id: projectId, runs, skipped };
}

export interface PromptImport {
  prompts?: PromptInput[];
  text?: string;
  format?: 'lines' | 'csv';
  topics?: string[];
}

/** Adds prompts to the library (a list, or pasted lines or CSV) and re-plans the project's tests. */
export async function importProjectPrompts(deps: TrackingDeps, principal: Principal, projectId: string, input: PromptImport) {
  requireScope(principal, WRITE_SCOPE);
  const list: PromptInput[] = (input.prompts ?? []).map((p) => ({ prompt: p.prompt, topics: [...(input.topics ?? []), ...(p.topics ?? [])] }));
  if (input.text !== undefined) list.push(...parsePromptText(input.text, input.format ?? 'lines', input.topics));
  if (list.length === 0) throw new AppError('invalid_request', 'Give prompts (a list) or text (pasted lines or CSV).');
  return deps.store.db.transaction().execute(async (trx) => {
    // Locked first: an import at the same instant waits, then counts this one's prompts (the
    // 1000-prompt limit, and a prompt in both is inserted once).
    await lockProject(deps.store, trx, principal.accountId, projectId);
    const result = await addPrompts(trx, projectId, list);
    await resyncProject(deps, trx, principal, projectId);
    return { project_id: projectId, ...result };
  });
}

/** Removes a prompt from the library and re-plans the project's tests. */
export async function removeProjectPrompt(deps: TrackingDeps, principal: Principal, projectId: string, promptId: string) {
  requireScope(principal, WRITE_SCOPE);
  await deps.store.db.transaction().execute(async (trx) => {
    await lockProject(deps.store, trx, principal.accountId, projectId);
    await deletePrompt(trx, projectId, promptId);
    await resyncProject(deps, trx, principal, projectId);
  });
  return { id: promptId, deleted: true };
}

/**
 * The sample plan of every market's test (tracking/sample-plan.ts) and the project's total
 * credits per month now and as planned.
 */
export async function projectSamplePlan(deps: TrackingDeps, accountId: string, projectId: string, opts: SamplePlanOptions) {
  await findProject(deps.store.db, accountId, projectId);
  const markets: (Awaited<ReturnType<typeof testSamplePlan>> & { market: string | null })[] = [];
  for (const t of await projectTests(deps.store.db, projectId)) {
    const test = await findTest(deps.store.db, accountId, t.id);
    if (!test.definition) continue;
    markets.push({ market: t.market ?? null, ...(await testSamplePlan(deps.store, accountId, t.id, opts)) });
  }
  const total = (pick: (m: (typeof markets)[number]) => string | null): string | null => {
    const values = markets.map(pick);
    return values.some((v) => v === null) || values.length === 0 ? null : formatCredits(values.reduce((a, v) => a + parseCredits(v!), 0));
  };
  return {
    project_id: projectId,
    goal: opts.goal,
    repeats_needed: markets.some((m) => m.repeats_needed === null) ? null : Math.max(0, ...markets.map((m) => m.repeats_needed!)),
    feasible: markets.length > 0 && markets.every((m) => m.feasible),
    current_credits_per_month: total((m) => m.current.credits_per_month),
    planned_credits_per_month: total((m) => m.planned.credits_per_month),
    markets,
  };
}
