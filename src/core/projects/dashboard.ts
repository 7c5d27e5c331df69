// A project's dashboard numbers: over time (7- or 30-day windows) the brand's and each
// competitor's mention rate with its interval, share of voice, sentiment and prominence; a prompt
// × platform matrix for the latest window with the change since the window before; topics rolled
// up; and the prompts where competitors are named and the brand is not. Only comparable runs of
// the project's tests count (tracking/comparable.ts). Every rate carries `n`, the answers it
// rests on, and `thin`: true when n < 10 or the 95% interval is wider than ±0.20.
// The numbers come from each run's per-prompt tallies (rollups.ts), pooled: the same numbers
// summarizeProbes and the answer analysis summary give over the probes, without reading them.
import { createHash } from 'node:crypto';
import { compareProportions, ExactSum, rate, round4, shareOfVoice, wilsonInterval } from '../../lib/stats.ts';
import { prominenceMean } from '../visibility/analysis/summary.ts';
import { pooledEngine, visibilityBand } from '../visibility/summary.ts';
import type { Store } from '../../db/store.ts';
import { toApiTime } from '../../lib/ids.ts';
import { AppError } from '../errors.ts';
import { plannedDefinitionId } from '../tracking/comparable.ts';
import { group } from '../tracking/history.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { addTally, ensureRollups, loadCells, loadSeries, newTally, runTotal, type BrandTallyData, type PromptCells, type PromptSeries } from './rollups.ts';
import { findProject, projectTests, projectTestsWithDefinitions } from './projects.ts';
import { listPrompts } from './prompts.ts';
import { projectSiteActivity } from './site-activity.ts';

/** When a rate is too thin to act on (documented in docs/projects.md). */
export const THIN_EVIDENCE = { min_answers: 10, max_half_width: 0.2 } as const;

export function isThin(n: number, ci: { low: number; high: number } | null): boolean {
  return n < THIN_EVIDENCE.min_answers || ci === null || (ci.high - ci.low) / 2 > THIN_EVIDENCE.max_half_width;
}

export const DASHBOARD_WINDOWS = ['7d', '30d'] as const;

export interface DashboardOptions {
  days: number;
  /** A topic or market the project does not have is a 400 invalid_filter (the API); without it, it only matches nothing (a share link checks its own first: core/reports/shares.ts). */
  strict?: boolean;
  window: (typeof DASHBOARD_WINDOWS)[number];
  topic?: string;
  market?: string;
  catalog: Catalog;
  now?: Date;
  /**
   * Whether the reader may see the account's sites (the key holds sites:read): without it
   * `site_activity` is null, as it is for a project with no site, so a key that may not list the
   * sites does not learn their ids, domains or log counts here. Every caller decides.
   */
  siteActivity: boolean;
}

type Rated = { mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null };
const evidence = (n: number, x: Rated) => ({ n, thin: isThin(n, x.mention_rate_ci) });

type Interval = ReturnType<typeof wilsonInterval>;

/**
 * Tallies pooled over runs (oldest first): what summarizeProbes and the answer analysis would count over their probes.
 * A competitor's rate rests only on the answers of runs that looked for it (a competitor added to
 * a project later is not diluted by the runs before it), and share of voice only on the runs that
 * looked for every competitor listed now: a name nobody looked for was not absent.
 */
class Pool {
  succeeded = 0;
  mentions = 0;
  readonly competitors: Map<string, number>;
  /** Per name: the answers of the runs that looked for it. */
  readonly looked = new Map<string, number>();
  /** Brand and competitor mentions in the runs that looked for every listed competitor. */
  voiceMentions = 0;
  readonly voiceNamed = new Map<string, number>();
  readonly target: BrandTallyData = newTally();
  readonly brands = new Map<string, BrandTallyData>();
  readonly domains = new Map<string, number>();
  private readonly listed: readonly string[];

  constructor(names: readonly string[]) {
    this.listed = names;
    this.competitors = new Map(names.map((c) => [c, 0]));
  }

  /**
   * One run's prompts (in seq order): names first mentioned by this run are listed in the order of
   * their first mention. `analysis: false` leaves out sentiment and prominence (counts only).
   * `lookedFor`: the competitors the run looked for (all listed ones when not given).
   */
  addRun(prompts: readonly PromptSeries[], analysis = true, lookedFor?: ReadonlySet<string>) {
    const named = prompts.length === 1 ? prompts[0].competitors : prompts.flatMap((p) => p.competitors).sort((a, b) => a[2] - b[2]);
    for (const [name, count] of named) this.competitors.set(name, (this.competitors.get(name) ?? 0) + count);
    let succeeded = 0;
    let mentions = 0;
    for (const p of prompts) {
      succeeded += p.succeeded;
      mentions += p.mentions;
      if (!analysis) continue;
      addTally(this.target, p.target);
      for (const [name, t] of p.brands) {
        const mine = this.brands.get(name);
        if (mine) addTally(mine, t);
        else this.brands.set(name, addTally(newTally(), t));
      }
    }
    this.succeeded += succeeded;
    this.mentions += mentions;
    for (const name of lookedFor ?? this.listed) this.looked.set(name, (this.looked.get(name) ?? 0) + succeeded);
    if (!lookedFor || this.listed.every((n) => lookedFor.has(n))) {
      this.voiceMentions += mentions;
      for (const [name, count] of named) this.voiceNamed.set(name, (this.voiceNamed.get(name) ?? 0) + count);
    }
  }

  addDomains(domains: readonly [string, number][]) {
    for (const [d, n] of domains) this.domains.set(d, (this.domains.get(d) ?? 0) + n);
  }

  get voice() {
    let total = this.voiceMentions;
    for (const n of this.voiceNamed.values()) total += n;
    return total;
  }

  headline() {
    return { mention_rate: rate(this.mentions, this.succeeded), mention_rate_ci: wilsonInterval(this.mentions, this.succeeded), share_of_voice: shareOfVoice(this.voiceMentions, this.voice) };
  }

  /** Each competitor's rate over the answers that looked for it (`n`). */
  competitorRates() {
    const total = this.voice;
    return [...this.competitors].map(([name, m]) => {
      const n = this.looked.get(name) ?? 0;
      return { name, mentions: m, n, mention_rate: rate(m, n), mention_rate_ci: wilsonInterval(m, n) as Interval, share_of_voice: shareOfVoice(this.voiceNamed.get(name) ?? 0, total) };
    });
  }

  topDomains(count: number) {
    return [...this.domains]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, count)
      .map(([domain, n]) => ({ domain, count: n }));
  }
}

function sentimentOf(t: BrandTallyData | undefined) {
  if (!t || t[0] === 0) return null;
  const n = t[0];
  return { positive: round4(t[1] / n), neutral: round4(t[2] / n), negative: round4(t[3] / n), unknown: round4(t[4] / n) };
}

const prominenceOf = (t: BrandTallyData | undefined) =>
  t ? { first_mention_share: prominenceMean(new ExactSum(t[6]), t[5]), pawc: prominenceMean(new ExactSum(t[7]), t[0]) } : { first_mention_share: null, pawc: null };

/**
 * The move from the window before, from the counts (k/n) as history's comparison computes it,
 * rounded once (the difference of two rounded rates can be 0.0001 off); null without answers on
 * either side.
 */
function rateChange(now: { mentions: number; succeeded: number }, before: { mentions: number; succeeded: number } | undefined) {
  return !before || now.succeeded === 0 || before.succeeded === 0 ? null : round4(now.mentions / now.succeeded - before.mentions / before.succeeded);
}

/** Why a window's brand and competitor rates carry no change from the window before it (null: they do). */
type NotComparableReason = 'no_previous_window' | 'definition_changed' | 'definition_mixed';

/**
 * A window is compared with the window before it only when both asked the same thing (the same
 * non-null `definition_id`): a change of prompts, platforms, markets or competitors is never read
 * as a move.
 */
function notComparableReason(definitionId: string | null, before: { definition_id: string | null } | undefined): NotComparableReason | null {
  return askedAlike(definitionId, before ? before.definition_id : undefined);
}

/**
 * The one rule of comparing what two windows asked (a window's definition id, or what it asked of
 * one prompt or platform: windowAsked): undefined before is no window before; null on either side
 * is a mix; else they compare only when equal.
 */
function askedAlike(now: string | null | undefined, before: string | null | undefined): NotComparableReason | null {
  if (before === undefined) return 'no_previous_window';
  if (now === null || now === undefined || before === null) return 'definition_mixed';
  return now === before ? null : 'definition_changed';
}

/**
 * The brand and competitor numbers of a pool (a window's runs); with `before` (the window before,
 * asking the same), each one's `previous_mention_rate` and `change` from it, else null.
 */
function brandNumbers(pool: Pool, competitors: string[], before: Pool | null) {
  const h = pool.headline();
  const n = pool.succeeded;
  const listed = new Set(competitors);
  const was = before?.competitorRates();
  const move = (now: { mentions: number; succeeded: number }, then: { mentions: number; succeeded: number } | undefined) => ({
    previous_mention_rate: then ? rate(then.mentions, then.succeeded) : null,
    change: rateChange(now, then),
  });
  return {
    brand: {
      mention_rate: h.mention_rate,
      mention_rate_ci: h.mention_rate_ci,
      ...evidence(n, h),
      share_of_voice: h.share_of_voice,
      sentiment: sentimentOf(pool.target),
      prominence: prominenceOf(pool.target),
      ...move(pool, before ?? undefined),
    },
    competitors: pool.competitorRates().map((c) => {
      const t = listed.has(c.name) ? pool.brands.get(c.name) : undefined;
      const then = was?.find((x) => x.name === c.name);
      return {
        name: c.name,
        mention_rate: c.mention_rate,
        mention_rate_ci: c.mention_rate_ci,
        ...evidence(c.n, c),
        share_of_voice: c.share_of_voice,
        sentiment: sentimentOf(t),
        prominence: prominenceOf(t),
        ...move({ mentions: c.mentions, succeeded: c.n }, then && { mentions: then.mentions, succeeded: then.n }),
      };
    }),
  };
}

/**
 * What a window asked of one prompt (or of one platform for it), from each run's digest
 * (rollups.ts askedDigest) and the market (test) it ran for: per market the one digest its runs
 * share, as a set over the markets; null when a market's runs in the window asked it differently.
 * Two windows with the same key asked the prompt the same; as windowDefinition does for a window.
 */
export function windowAsked(asked: readonly (readonly [test: string, digest: string])[]): string | null {
  const byTest = new Map<string, string>();
  for (const [test, digest] of asked) {
    const had = byTest.get(test);
    if (had !== undefined && had !== digest) return null;
    byTest.set(test, digest);
  }
  return JSON.stringify([...new Set(byTest.values())].sort());
}

/** A prompt's numbers over a window: the run summary of its probes, from the tallies of its runs. */
function promptNumbers(runs: readonly { series?: PromptSeries; cells?: PromptCells; looked?: ReadonlySet<string>; test?: string }[], competitors: readonly string[]) {
  const pool = new Pool(competitors);
  // What each run asked of the prompt, and of each platform ('?' for a tally without a digest).
  const asked: [string, string][] = [];
  const platformAsked = new Map<string, [string, string][]>();
  const platforms = new Map<string, { succeeded: number; mentions: number; competitors: Map<string, number>; looked: Map<string, number> }>();
  const urls = new Map<string, { url: string; domain: string | null; count: number }>();
  for (const r of runs) {
    if (r.series) pool.addRun([r.series], false, r.looked);
    if (!r.cells) continue;
    asked.push([r.test ?? '', r.cells.asks ?? '?']);
    pool.addDomains(r.cells.domains);
    for (const [url, domain, count] of r.cells.urls ?? []) {
      const u = urls.get(url);
      if (u) u.count += count;
      else urls.set(url, { url, domain, count });
    }
    for (const [platform, , , succeeded, mentions, named, digest] of r.cells.platforms) {
      const list = platformAsked.get(platform);
      if (list) list.push([r.test ?? '', digest ?? '?']);
      else platformAsked.set(platform, [[r.test ?? '', digest ?? '?']]);
      let b = platforms.get(platform);
      if (!b) platforms.set(platform, (b = { succeeded: 0, mentions: 0, competitors: new Map(competitors.map((c) => [c, 0])), looked: new Map() }));
      b.succeeded += succeeded;
      b.mentions += mentions;
      for (const [name, count] of named) b.competitors.set(name, (b.competitors.get(name) ?? 0) + count);
      for (const name of r.looked ?? competitors) b.looked.set(name, (b.looked.get(name) ?? 0) + succeeded);
    }
  }
  const h = pool.headline();
  return {
    succeeded: pool.succeeded,
    mentions: pool.mentions,
    asked: windowAsked(asked),
    ...h,
    by_platform: [...platforms].map(([platform, b]) => ({
      platform,
      asked: windowAsked(platformAsked.get(platform) ?? []),
      succeeded: b.succeeded,
      mentions: b.mentions,
      mention_rate: rate(b.mentions, b.succeeded),
      mention_rate_ci: wilsonInterval(b.mentions, b.succeeded),
      competitors: [...b.competitors].map(([name, m]) => ({ name, mention_rate: rate(m, b.looked.get(name) ?? 0) })),
    })),
    competitors: pool.competitorRates(),
    cited_domains: pool.topDomains(10),
    // The URLs the answers cited, each counted once an answer, most cited first (top 10).
    cited_urls: [...urls.values()].sort((a, b) => b.count - a.count || a.url.localeCompare(b.url)).slice(0, 10),
  };
}

/**
 * The definition id a test's stored definition plans to, remembered per catalog (planning 1,000
 * prompts on several platforms and hashing them is most of a cached read otherwise).
 */
const plannedIds = new WeakMap<Catalog, Map<string, string | null>>();
function plannedId(definition: string | null, catalog: Catalog): string | null {
  if (definition === null) return null;
  let ids = plannedIds.get(catalog);
  if (!ids) plannedIds.set(catalog, (ids = new Map()));
  let id = ids.get(definition);
  if (id === undefined) {
    id = plannedDefinitionId(definition, catalog);
    if (ids.size >= 256) ids.delete(ids.keys().next().value!);
    ids.set(definition, id);
  }
  return id;
}

type PromptNumbers = ReturnType<typeof promptNumbers>;

/** Per-prompt numbers of recent windows of finished runs, by competitor list and run ids (least recently read evicted first). */
const windowCache = new Map<string, Map<string, PromptNumbers>>();
const WINDOW_CACHE_SIZE = 64;

/**
 * The dashboard's topic and market as the project keeps them: a topic trimmed and in lower case,
 * a market written "en-us" or "en_US" as the project's en-US. With `strict`, one the project does
 * not have is a 400 invalid_filter naming the allowed values, not an empty dashboard.
 */
export function dashboardFilters(
  library: readonly { topics: readonly string[] }[],
  tests: readonly { market: string | null }[],
  opts: { topic?: string | null; market?: string | null; strict?: boolean },
): { topic: string | undefined; market: string | undefined } {
  const topic = opts.topic == null ? undefined : opts.topic.trim().toLowerCase();
  const topics = [...new Set(library.flatMap((p) => p.topics))].sort();
  if (opts.strict && topic !== undefined && !topics.includes(topic)) {
    throw new AppError('invalid_filter', topics.length ? `topic must be one of the project's topics: ${topics.join(', ')}.` : 'topic: the project has no topics yet.', { parameter: 'topic', allowed: topics });
  }
  const markets = [...new Set(tests.map((t) => t.market).filter((m): m is string => m !== null))].sort();
  const key = (m: string) => m.trim().replace('_', '-').toLowerCase();
  const asked = opts.market == null ? undefined : opts.market;
  const market = asked === undefined ? undefined : (markets.find((m) => key(m) === key(asked)) ?? (opts.strict ? undefined : asked));
  if (opts.strict && asked !== undefined && market === undefined) {
    throw new AppError('invalid_filter', `market must be one of the project's markets: ${markets.join(', ')}.`, { parameter: 'market', allowed: markets });
  }
  return { topic, market };
}

/** Checks a dashboard's topic and market against the project (see dashboardFilters). */
export async function checkDashboardFilters(store: Store, projectId: string, filters: { topic?: string | null; market?: string | null }) {
  return dashboardFilters(await listPrompts(store.db, projectId), await projectTests(store.db, projectId), { ...filters, strict: true });
}

/**
 * The comparable runs of tests since `since` (oldest first): started by their test, or with the
 * test's definition (tracking/comparable.ts), read in one query for all the tests; with the
 * competitors each run looked for, each run's definition id and the tallies of runs still going.
 */
async function comparableRuns(store: Store, tests: readonly { id: string; definition: string | null }[], since: string, catalog: Catalog) {
  const runs: { id: string; test_id: string; created_at: string; engine: string }[] = [];
  const lookedFor = new Map<string, ReadonlySet<string>>();
  const planned = new Map(tests.map((t) => [t.id, plannedId(t.definition, catalog)]));
  const loaded = [];
  const ids = [...planned.keys()];
  for (let i = 0; i < ids.length; i += 500) {
    loaded.push(
      ...(await store.db
        .selectFrom('visibility_runs')
        .select(['id', 'test_id', 'created_at', 'competitors', 'brand_terms', 'started_by_test', 'engine'])
        .where('test_id', 'in', ids.slice(i, i + 500))
        .where('created_at', '>=', since)
        .orderBy('created_at')
        .orderBy('id')
        .execute()),
    );
  }
  const { definitionOf, pending } = await ensureRollups(store, loaded);
  for (const r of loaded) {
    const testDefinition = planned.get(r.test_id) ?? null;
    if (testDefinition === null || Number(r.started_by_test) === 1 || definitionOf.get(r.id) === testDefinition) {
      runs.push({ id: r.id, test_id: r.test_id, created_at: r.created_at, engine: r.engine });
      lookedFor.set(r.id, new Set(JSON.parse(r.competitors) as string[]));
    }
  }
  runs.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  return { runs, lookedFor, pending, definitionOf };
}

/** The view a project list's figures are read in: the dashboard's default (7-day windows over 90 days). */
export const GLANCE_VIEW = { window: '7d', days: 90 } as const;

/**
 * What a window's runs asked (its `definition_id`): the one definition its runs share; for runs
 * of several markets each asking one thing, an id of that set of definitions (`def_` and 16 hex
 * digits of a sha256 over them, sorted); null when a market's runs in it asked different things.
 */
export function windowDefinition(runs: readonly { id: string; test_id: string }[], definitionOf: ReadonlyMap<string, string>): string | null {
  const asked = new Map<string, string>();
  for (const r of runs) {
    const d = definitionOf.get(r.id);
    if (d === undefined || (asked.has(r.test_id) && asked.get(r.test_id) !== d)) return null;
    asked.set(r.test_id, d);
  }
  const ids = [...new Set(asked.values())].sort();
  if (ids.length <= 1) return ids[0] ?? null;
  return `def_${createHash('sha256').update(JSON.stringify(ids)).digest('hex').slice(0, 16)}`;
}

/**
 * Each project's latest figures, for a list of projects: the brand's mention rate in the latest
 * window of the dashboard's default view (GLANCE_VIEW), with its interval, band, n and thin flag,
 * the engine that answered it, and the change from the most recent earlier window that asked the
 * same (every market the same prompts, platforms and competitors) with the two-proportion z-test
 * tracked tests' comparisons use; a window whose runs are still going is not compared yet. Read
 * for the whole list at once: one query for the tests, one for their runs, one for the runs'
 * definitions and one for the tallies of the (at most two) windows read per project (a query per
 * 100 runs, kept in memory after); a run's tallies are written once, when a list or a dashboard
 * first reads it finished.
 */
export async function projectGlances(store: Store, projectIds: readonly string[], catalog: Catalog, now = new Date()) {
  const since = new Date(now.getTime() - GLANCE_VIEW.days * 86_400_000).toISOString();
  const tests: { id: string; project_id: string | null; definition: string | null; last_run_at: string | null }[] = [];
  for (let i = 0; i < projectIds.length; i += 500) {
    tests.push(
      ...(await store.db
        .selectFrom('tests')
        .select(['id', 'project_id', 'definition', 'last_run_at'])
        .where('project_id', 'in', projectIds.slice(i, i + 500))
        .where('deleted_at', 'is', null)
        .$narrowType<{ project_id: string | null }>()
        .execute()),
    );
  }
  const { runs, lookedFor, pending, definitionOf } = await comparableRuns(store, tests, since, catalog);
  const projectOf = new Map(tests.map((t) => [t.id, t.project_id]));
  const runsOf = new Map<string, typeof runs>();
  for (const r of runs) {
    const id = projectOf.get(r.test_id)!;
    const list = runsOf.get(id);
    if (list) list.push(r);
    else runsOf.set(id, [r]);
  }
  type Window = { runs: typeof runs; start: string; end: string; complete: boolean };
  const windows = new Map<string, { latest?: Window; previous?: Window }>();
  for (const id of projectIds) {
    const periods = group(runsOf.get(id) ?? [], GLANCE_VIEW.window, now, since).map((p) => ({ ...p, complete: !p.runs.some((r) => pending.has(r.id)), definition_id: windowDefinition(p.runs, definitionOf) }));
    const latest = periods.at(-1);
    const previous = latest?.complete && latest.definition_id !== null ? periods.slice(0, -1).findLast((p) => p.complete && p.definition_id === latest.definition_id) : undefined;
    windows.set(id, { latest, previous });
  }
  const read = [...windows.values()].flatMap((w) => [...(w.latest?.runs ?? []), ...(w.previous?.runs ?? [])]).map((r) => r.id);
  const seriesOf = await loadSeries(
    store,
    read.filter((id) => !pending.has(id)),
  );
  for (const [id, list] of pending) seriesOf.set(id, { prompts: list, total: runTotal(list) });
  const tally = (period: { runs: readonly { id: string }[] } | undefined) => {
    if (!period) return null;
    const pool = new Pool([]);
    for (const r of period.runs) {
      const s = seriesOf.get(r.id);
      if (s) pool.addRun([s.total], false, lookedFor.get(r.id));
    }
    return pool;
  };
  const out = new Map<string, ProjectGlance>();
  for (const id of projectIds) {
    const { latest, previous } = windows.get(id)!;
    const pool = tally(latest);
    const before = tally(previous);
    const h = pool?.headline();
    const test = pool && before ? compareProportions(before.mentions, before.succeeded, pool.mentions, pool.succeeded) : null;
    const lastRun = tests.filter((t) => t.project_id === id).map((t) => t.last_run_at).filter((x): x is string => x !== null).sort().at(-1);
    out.set(id, {
      window: GLANCE_VIEW.window,
      days: GLANCE_VIEW.days,
      latest_period: latest ? { start: toApiTime(latest.start), end: toApiTime(latest.end) } : null,
      run_count: latest?.runs.length ?? 0,
      complete: latest?.complete ?? true,
      engine: pooledEngine(latest?.runs.map((r) => r.engine) ?? []),
      mention_rate: h?.mention_rate ?? null,
      mention_rate_ci: h?.mention_rate_ci ?? null,
      visibility_band: visibilityBand(h?.mention_rate ?? null),
      n: pool?.succeeded ?? 0,
      thin: isThin(pool?.succeeded ?? 0, h?.mention_rate_ci ?? null),
      previous_period: previous ? { start: toApiTime(previous.start), end: toApiTime(previous.end) } : null,
      previous_mention_rate: before?.headline().mention_rate ?? null,
      change: test?.change ?? null,
      change_significant: test?.change_significant ?? null,
      p_value: test?.p_value ?? null,
      last_run_at: lastRun ? toApiTime(lastRun) : null,
    });
  }
  return out;
}

export interface ProjectGlance {
  window: '7d';
  days: number;
  latest_period: { start: string; end: string } | null;
  run_count: number;
  complete: boolean;
  engine: 'sandbox' | 'live' | 'mixed' | null;
  mention_rate: number | null;
  mention_rate_ci: { low: number; high: number } | null;
  visibility_band: string | null;
  n: number;
  thin: boolean;
  previous_period: { start: string; end: string } | null;
  previous_mention_rate: number | null;
  change: number | null;
  change_significant: boolean | null;
  p_value: number | null;
  last_run_at: string | null;
}

/**
 * The dashboard, saying which engine answered the runs behind it, as every run and probe does:
 * `engine` "sandbox" or "live" when all runs agree, "mixed" when not, null without runs; with
 * run_count and sandbox_run_count. Simulated rates are never read as real ones.
 */
export async function projectDashboard(store: Store, accountId: string, projectId: string, opts: DashboardOptions) {
  const { dashboard, engine } = await dashboardAndRuns(store, accountId, projectId, opts);
  return { ...dashboard, engine: engine.label, run_count: engine.runs, sandbox_run_count: engine.sandbox_runs };
}

/** The dashboard, and how many of the runs behind it the sandbox engine answered (a shared report says so). */
export async function dashboardAndRuns(store: Store, accountId: string, projectId: string, opts: DashboardOptions) {
  const project = await findProject(store.db, accountId, projectId);
  const competitors = (JSON.parse(project.competitors) as { name: string }[]).map((c) => c.name);
  const library = await listPrompts(store.db, projectId);
  const topicsOf = new Map(library.map((p) => [p.prompt, p.topics]));
  const allTests = await projectTestsWithDefinitions(store.db, projectId);
  const { topic, market } = dashboardFilters(library, allTests, opts);
  const inTopic = (prompt: string) => !topic || (topicsOf.get(prompt) ?? []).includes(topic);
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - opts.days * 86_400_000).toISOString();

  const tests = allTests.filter((t) => !market || t.market === market);
  const { runs, lookedFor, pending, definitionOf } = await comparableRuns(store, tests, since, opts.catalog);
  const periods = group(runs, opts.window, now, since);
  const stored = runs.map((r) => r.id).filter((id) => !pending.has(id));
  const seriesOf = await loadSeries(store, stored);
  for (const [id, list] of pending) seriesOf.set(id, { prompts: list, total: runTotal(list) });
  const promptsOf = (runId: string) => (seriesOf.get(runId)?.prompts ?? []).filter((p) => inTopic(p.prompt));
  // Without a topic a run counts as a whole: its prompts pooled once (RunSeries.total).
  const runSeries = (runId: string): PromptSeries[] => {
    const s = seriesOf.get(runId);
    if (!s) return [];
    return topic ? promptsOf(runId).map((p) => p.series) : [s.total];
  };
  const pools = periods.map((p) => {
    const pool = new Pool(competitors);
    for (const r of p.runs) pool.addRun(runSeries(r.id), true, lookedFor.get(r.id));
    // What the window's runs asked, as a tracked test's points say it; null when they differ.
    return { pool, definition_id: windowDefinition(p.runs, definitionOf) };
  });
  const series = periods.map((p, i) => {
    const { pool, definition_id } = pools[i];
    const before = pools[i - 1];
    const reason = notComparableReason(definition_id, before);
    const numbers = brandNumbers(pool, competitors, reason === null ? before.pool : null);
    return { start: toApiTime(p.start), end: toApiTime(p.end), run_ids: p.runs.map((r) => r.id), definition_id, not_comparable_reason: reason, ...numbers };
  });

  const latest = periods.at(-1);
  const previous = periods.at(-2);
  // The matrix's tallies: each prompt's, run by run, over the latest window and the one before.
  // Each prompt's numbers over a window, from the tallies of the window's runs (every prompt:
  // a topic only picks among them). A window of finished runs always gives the same numbers for
  // the same competitor list, so they are kept (windowCache) until the window's runs change.
  const windowNumbers = async (period: typeof latest): Promise<Map<string, PromptNumbers>> => {
    if (!period) return new Map();
    const ids = period.runs.map((r) => r.id);
    const finished = !ids.some((id) => pending.has(id));
    const key = JSON.stringify([competitors, ids]);
    const hit = finished ? windowCache.get(key) : undefined;
    if (hit) {
      windowCache.delete(key);
      windowCache.set(key, hit);
      return hit;
    }
    const cellsOf = await loadCells(
      store,
      ids.filter((id) => !pending.has(id)),
    );
    for (const id of ids) {
      const list = pending.get(id);
      if (list) cellsOf.set(id, new Map(list.map((r) => [r.prompt, r.cells])));
    }
    const byPrompt = new Map<string, { series?: PromptSeries; cells?: PromptCells; looked?: ReadonlySet<string>; test: string }[]>();
    for (const { id, test_id } of period.runs) {
      const cells = cellsOf.get(id) ?? new Map<string, PromptCells>();
      for (const p of seriesOf.get(id)?.prompts ?? []) {
        const list = byPrompt.get(p.prompt) ?? [];
        list.push({ series: p.series, cells: cells.get(p.prompt), looked: lookedFor.get(id), test: test_id });
        byPrompt.set(p.prompt, list);
      }
    }
    const numbers = new Map([...byPrompt].map(([prompt, list]) => [prompt, promptNumbers(list, competitors)]));
    if (finished) {
      windowCache.set(key, numbers);
      if (windowCache.size > WINDOW_CACHE_SIZE) windowCache.delete(windowCache.keys().next().value!);
    }
    return numbers;
  };
  const previousCells = await windowNumbers(previous);
  const latestNumbers = await windowNumbers(latest);
  const matrix = library
    .filter((p) => inTopic(p.prompt))
    .map(({ prompt, topics }) => {
      const e = latestNumbers.get(prompt) ?? promptNumbers([], competitors);
      // The window before counts only where it asked the prompt the same (platforms, models,
      // markets, repeats and brand terms): a platform added moves the pooled rate by itself.
      const seen = previousCells.get(prompt);
      const reason = askedAlike(e.asked, seen?.asked);
      const before = reason === null ? seen : undefined;
      return {
        prompt,
        topics,
        mention_rate: e.mention_rate,
        mention_rate_ci: e.mention_rate_ci,
        ...evidence(e.succeeded, e),
        previous_mention_rate: before?.mention_rate ?? null,
        change: rateChange(e, before),
        not_comparable_reason: reason,
        platforms: e.by_platform.map((b) => {
          // A platform's cell compares where that platform was asked the prompt the same.
          const had = seen?.by_platform.find((x) => x.platform === b.platform);
          const was = had && askedAlike(b.asked, had.asked) === null ? had : undefined;
          return {
            platform: b.platform,
            mention_rate: b.mention_rate,
            mention_rate_ci: b.mention_rate_ci,
            ...evidence(b.succeeded, b),
            previous_mention_rate: was?.mention_rate ?? null,
            previous_n: was?.succeeded ?? null,
            change: rateChange(b, was),
            competitors: b.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate })),
          };
        }),
        competitors: e.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate, mention_rate_ci: c.mention_rate_ci, ...evidence(c.n, c) })),
        cited_domains: e.cited_domains,
        cited_urls: e.cited_urls,
      };
    });

  // Topics rolled up over the latest window (a prompt counts in each of its topics).
  const topicNames = [...new Set(library.flatMap((p) => p.topics))].filter((t) => !topic || t === topic).sort();
  // Each topic's prompts, and each latest run's series by topic, indexed in one pass: a scan of
  // the library and of every run per topic costs topics × prompts (20,000 × 1,000 within limits).
  const promptsIn = new Map<string, number>();
  for (const p of library) for (const t of new Set(p.topics)) promptsIn.set(t, (promptsIn.get(t) ?? 0) + 1);
  const latestByTopic = (latest?.runs ?? []).map((r) => {
    const byTopic = new Map<string, PromptSeries[]>();
    for (const p of promptsOf(r.id)) {
      for (const t of new Set(topicsOf.get(p.prompt) ?? [])) {
        const list = byTopic.get(t);
        if (list) list.push(p.series);
        else byTopic.set(t, [p.series]);
      }
    }
    return { id: r.id, byTopic };
  });
  const topics = topicNames.map((topic) => {
    const pool = new Pool(competitors);
    for (const r of latestByTopic) pool.addRun(r.byTopic.get(topic) ?? [], false, lookedFor.get(r.id));
    const e = pool.headline();
    return { topic, prompts: promptsIn.get(topic) ?? 0, mention_rate: e.mention_rate, mention_rate_ci: e.mention_rate_ci, ...evidence(pool.succeeded, e), share_of_voice: e.share_of_voice };
  });

  // Prompts where competitors are named and the brand is not (latest window).
  const competitorsOnly = matrix
    .filter((m) => m.n > 0 && m.mention_rate === 0 && m.competitors.some((c) => (c.mention_rate ?? 0) > 0))
    .map((m) => ({ prompt: m.prompt, topics: m.topics, n: m.n, thin: m.thin, competitors: m.competitors.filter((c) => (c.mention_rate ?? 0) > 0).map((c) => ({ name: c.name, mention_rate: c.mention_rate })) }));

  const dashboard = {
    project_id: projectId,
    window: opts.window,
    days: opts.days,
    topic: topic ?? null,
    market: market ?? null,
    thin_evidence: THIN_EVIDENCE,
    latest_period: latest ? { start: toApiTime(latest.start), end: toApiTime(latest.end) } : null,
    previous_period: previous ? { start: toApiTime(previous.start), end: toApiTime(previous.end) } : null,
    series,
    matrix,
    topics,
    competitors_named_brand_absent: competitorsOnly,
    // What the brand's own site logs say over the same span (null: no site of the brand's
    // domains, or a reader without sites:read).
    site_activity: !opts.siteActivity ? null : await projectSiteActivity(store.db, accountId, { url: project.url, domains: (JSON.parse(project.brand) as { domains?: string[] }).domains ?? [] }, new Date(since), now),
  };
  return { dashboard, engine: { runs: runs.length, sandbox_runs: runs.filter((r) => r.engine === 'sandbox').length, label: pooledEngine(runs.map((r) => r.engine)) } };
}
