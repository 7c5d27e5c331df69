// Reading visibility runs: status, counts, billing and summary are all derived from the probe
// rows and the run's ledger entry at read time (status is never stored apart from
// the probes). Compact by default; include_probes / include_results add the heavier parts.
import { citationBrand, citationSources, citingProbe, CitationFold, type CitationSources } from './citation-sources.ts';
import { isKeptRun, readRunProbes, RUN_PROBE_COLUMNS } from './run-probes.ts';
import { holdsShared, shareAnswer } from '../freeze.ts';
import { addStepTime, stepClock } from './analysis/step-times.ts';
import { keptRowBytes, readCacheBytes } from './read-cache.ts';
import { chargeState } from '../billing/ledger.ts';
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import { toApiTime } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import type { Executor, Store } from '../../db/store.ts';
import { SummaryFold, visibilityBand, type SummaryProbe, type VisibilitySummary } from './summary.ts';
import { PromptFold, type PromptSummary } from './by-prompt.ts';
import { SurfaceFold, type ComparisonProbe, type compareSurfaces } from './surface-comparison.ts';
import { LocationFold, type LocationProbe, type RunLocation } from './locations.ts';
import { locationSupport } from './catalog.ts';
import type { PlatformName } from '../../platforms/types.ts';
import { AnalysisFold, probeAnalysisFields, putAnswerAnalysisSummary, type answerAnalysisSummary } from './analysis/summary.ts';
import type { summarizeCitationSources } from './citation-sources.ts';
import type { BrandTerms } from './plan.ts';

export { visibilityBand };

export const RUN_STATUSES = ['queued', 'running', 'completed', 'partially_completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface ProbeCounts {
  queued: number;
  running: number;
  succeeded: number;
  errored: number;
  cancelled: number;
  skipped: number;
}

interface Aggregate {
  counts: ProbeCounts;
  startedAt: string | null;
  completedAt: string | null;
}

export function deriveRunStatus(counts: ProbeCounts, probeCount: number, cancelRequested: boolean): RunStatus {
  const active = counts.queued + counts.running;
  if (active > 0) return counts.running > 0 || counts.succeeded + counts.errored > 0 ? 'running' : 'queued';
  if (cancelRequested) return 'cancelled';
  if (counts.succeeded === probeCount) return 'completed';
  if (counts.succeeded === 0) return 'failed';
  return 'partially_completed';
}

/** What aggregate reads of a probe. */
type AggregateProbe = Pick<ProbeRow, 'status' | 'started_at' | 'completed_at'>;

/** A run's probe counts, first start and last completion, from its probes. */
function aggregate(probes: readonly AggregateProbe[]): Aggregate {
  const a: Aggregate = {
    counts: { queued: 0, running: 0, succeeded: 0, errored: 0, cancelled: 0, skipped: 0 },
    startedAt: null,
    completedAt: null,
  };
  for (const p of probes) {
    a.counts[p.status as keyof ProbeCounts]++;
    if (p.started_at && (!a.startedAt || p.started_at < a.startedAt)) a.startedAt = p.started_at;
    if (p.completed_at && (!a.completedAt || p.completed_at > a.completedAt)) a.completedAt = p.completed_at;
  }
  return a;
}

type RunRow = {
  id: string;
  test_id: string;
  source: string;
  engine: string;
  url: string;
  target_entity: string;
  competitors: string;
  brand_terms?: string | null;
  language: string;
  country: string;
  cancel_requested: number;
  prompt_count: number;
  platform_count: number;
  probe_count: number;
  created_at: string;
  /** The run's test's project; null when the test belongs to none (optional: a column of migration 0014). */
  project_id?: string | null;
  amount: number;
  settled_amount: number;
  released_amount: number;
  estimated_amount: number;
};

/**
 * The run rows with their charge and their test's project: one query for any number of runs (the
 * project by the test's primary key, a left join, so a run is read whatever became of its test).
 */
function runQuery(db: Executor) {
  return db
    .selectFrom('visibility_runs')
    .innerJoin('ledger_entries', 'ledger_entries.id', 'visibility_runs.ledger_entry_id')
    .leftJoin('tests', 'tests.id', 'visibility_runs.test_id')
    .select([
      'visibility_runs.id',
      'visibility_runs.test_id',
      'visibility_runs.source',
      'visibility_runs.engine',
      'visibility_runs.url',
      'visibility_runs.target_entity',
      'visibility_runs.competitors',
      'visibility_runs.brand_terms',
      'visibility_runs.language',
      'visibility_runs.country',
      'visibility_runs.cancel_requested',
      'visibility_runs.prompt_count',
      'visibility_runs.platform_count',
      'visibility_runs.probe_count',
      'visibility_runs.created_at',
      'tests.project_id',
      'ledger_entries.amount',
      'ledger_entries.settled_amount',
      'ledger_entries.released_amount',
      'ledger_entries.estimated_amount',
    ]);
}

type AnalysisSummary = ReturnType<typeof answerAnalysisSummary>;

/**
 * A run's summary as the API shows it: the probe figures, by prompt and by location, and what
 * the add* steps put in place (answer analysis, citation sources, the surface comparison of a
 * single read); their `sentiment` and `prominence` also land on each competitor and platform entry.
 */
export type RunSummaryView = VisibilitySummary & {
  by_prompt: PromptSummary[];
  locations: RunLocation[];
  sentiment?: AnalysisSummary['sentiment'];
  prominence?: AnalysisSummary['prominence'];
  discovered_entities?: AnalysisSummary['discovered_entities'];
  citation_sources?: ReturnType<typeof summarizeCitationSources>;
  surface_comparison?: ReturnType<typeof compareSurfaces>;
};

/** What a summary reads of a probe row. */
type SummaryRow = SummaryProbe & AggregateProbe & ComparisonProbe & LocationProbe & { prompt: string; analysis?: string | null };

/**
 * The summaries of finished runs by run id, with the rows they were built from (shared rows,
 * see readRunProbes) and the citation catalog in use, least recently built evicted first. A
 * finished run's rows never change, so the same rows give the same summary; it is frozen, being
 * handed to every later read. Their estimated heap (keptRowBytes over their rows: a summary and
 * its rows stay in memory together) stays within the read cache's budget (read-cache.ts).
 */
const finishedSummaries = new Map<string, { rows: readonly object[]; catalog: object; summary: RunSummaryView; bytes: number }>();
let finishedSummaryBytes = 0;

/** The finished summaries kept and their estimated bytes; the runs whose prefix folds are kept (tests). */
export function keptSummaryStats(): { finished: string[]; bytes: number; folded: string[] } {
  return { finished: [...finishedSummaries.keys()], bytes: finishedSummaryBytes, folded: [...prefixFolds.keys()] };
}

/**
 * The folds of a run's summary over its finished prefix (the probes from the first on, up to the
 * first one not finished), by run id, least recently used dropped first. A finished probe's row
 * never changes and a kept row is the same object from read to read (readRunProbes), so a read
 * whose rows start with the same objects goes on from the kept folds: it folds the probes
 * finished since into them, then a branch of each over the rest. Folding in the probes' order
 * from the first, it gives what folding every probe afresh gives, at the cost of what changed.
 */
interface PrefixFolds {
  /** The rows folded, the run's first probes, all finished. */
  rows: SummaryRow[];
  /** What the folds depend on besides the rows: the run's competitors, URL and brand terms, and the catalog. */
  inputs: string;
  catalog: CitationSources;
  summary: SummaryFold;
  analysis: AnalysisFold;
  citations: CitationFold;
  prompts: PromptFold;
  locations: LocationFold;
  surfaces: SurfaceFold;
}
const prefixFolds = new Map<string, PrefixFolds>();
/** Runs whose prefix folds are kept (running runs read by clients; a finished run's summary is kept whole instead). */
const PREFIX_FOLD_RUNS = 64;

/**
 * Whether a read of the kept rows may keep folds and a finished summary: only while the read cache
 * keeps the run's rows (a run dropped from it, or alone past its budget, keeps neither: their rows
 * would be held outside the budget, and the next read's new rows could not reuse them).
 */
function keepsFolds(db: Store['db'], runId: string): boolean {
  if (db.isTransaction) return false;
  if (isKeptRun(db, runId)) return true;
  prefixFolds.delete(runId);
  for (const key of [`read:${runId}`, `compact:${runId}`]) {
    const old = finishedSummaries.get(key);
    if (old) finishedSummaryBytes -= old.bytes;
    finishedSummaries.delete(key);
  }
  return false;
}

function foldedPrefix(run: RunRow, probes: readonly SummaryRow[], competitors: readonly string[], catalog: CitationSources): PrefixFolds {
  const inputs = JSON.stringify([run.competitors, run.url, run.brand_terms ?? null]);
  let f = prefixFolds.get(run.id);
  if (f && (f.catalog !== catalog || f.inputs !== inputs || f.rows.length > probes.length || !f.rows.every((r, i) => r === probes[i]))) f = undefined;
  if (!f) f = freshFolds(run, competitors, catalog, inputs);
  for (let i = f.rows.length; i < probes.length && FINAL_STATUSES.has(probes[i]!.status); i++) {
    foldProbe(f, probes[i]!);
    f.rows.push(probes[i]!);
  }
  prefixFolds.delete(run.id);
  prefixFolds.set(run.id, f);
  if (prefixFolds.size > PREFIX_FOLD_RUNS) prefixFolds.delete(prefixFolds.keys().next().value!);
  return f;
}

/** Folds over no probe yet. */
function freshFolds(run: RunRow, competitors: readonly string[], catalog: CitationSources, inputs = ''): PrefixFolds {
  const brand = citationBrand({ urls: [run.url], competitors, brandTerms: run.brand_terms ? (JSON.parse(run.brand_terms) as BrandTerms) : null });
  return {
    rows: [],
    inputs,
    catalog,
    summary: new SummaryFold(competitors),
    analysis: new AnalysisFold(competitors),
    citations: new CitationFold(brand, catalog),
    prompts: new PromptFold(competitors),
    locations: new LocationFold((p) => locationSupport(p as PlatformName)),
    surfaces: new SurfaceFold(run.target_entity),
  };
}

/** The folds every read takes; the surface comparison, of a single read only, is folded apart. */
type ReadFolds = Pick<PrefixFolds, 'summary' | 'analysis' | 'citations' | 'prompts' | 'locations'>;

function foldProbe(f: ReadFolds & Partial<Pick<PrefixFolds, 'surfaces'>>, p: SummaryRow): void {
  f.summary.add(p);
  f.analysis.add(p);
  if (p.status === 'succeeded') f.citations.add(citingProbe(p));
  f.prompts.add(p);
  f.locations.add(p);
  f.surfaces?.add(p);
}

/**
 * The run's summary: the probe figures, by prompt and by location, answer analysis and citation
 * sources, and for a single read (`withSurfaces`) the surface comparison. `kept`: the rows are
 * the kept rows of readRunProbes, so the folds and the finished summary built from them are
 * kept too; other rows (read in a transaction, or with the answers) would only replace them
 * with what the next poll cannot use.
 */
function runSummary(run: RunRow, probes: readonly SummaryRow[], withSurfaces: boolean, kept: boolean): RunSummaryView {
  const key = `${withSurfaces ? 'read' : 'compact'}:${run.id}`;
  const catalog = citationSources();
  const known = finishedSummaries.get(key);
  if (known && known.catalog === catalog && known.rows.length === probes.length && known.rows.every((r, i) => r === probes[i])) {
    // Read again: now the most recently read, the last to be dropped.
    finishedSummaries.delete(key);
    finishedSummaries.set(key, known);
    return known.summary;
  }
  const competitors = JSON.parse(run.competitors) as string[];
  // The kept folds of the finished prefix, and a branch of each over the other probes.
  const prefix = kept ? foldedPrefix(run, probes, competitors, catalog) : freshFolds(run, competitors, catalog);
  const folds = {
    summary: prefix.summary.branch(),
    analysis: prefix.analysis.branch(),
    citations: prefix.citations.branch(),
    prompts: prefix.prompts.branch(),
    locations: prefix.locations.branch(),
    surfaces: withSurfaces ? prefix.surfaces.branch() : undefined,
  };
  for (let i = prefix.rows.length; i < probes.length; i++) foldProbe(folds, probes[i]!);
  const summary: RunSummaryView = {
    ...folds.summary.result(),
    by_prompt: folds.prompts.result(),
    locations: folds.locations.result(),
  };
  putAnswerAnalysisSummary(summary, folds.analysis.result());
  // (Every row read here has its prompt, so the per-prompt list of competitor-only sources stays.)
  summary.citation_sources = folds.citations.result();
  const pairs = folds.surfaces?.result() ?? [];
  if (pairs.length) summary.surface_comparison = pairs;
  // Kept per-prompt entries are written as kept JSON (see holdsShared).
  holdsShared(summary);
  holdsShared(summary.by_prompt);
  if (kept && probes.length > 0 && probes.every((p) => FINAL_STATUSES.has(p.status))) {
    prefixFolds.delete(run.id);
    const old = finishedSummaries.get(key);
    if (old) finishedSummaryBytes -= old.bytes;
    finishedSummaries.delete(key);
    let bytes = 0;
    for (const p of probes) bytes += keptRowBytes(p);
    finishedSummaries.set(key, { rows: probes, catalog, summary: shareAnswer(summary), bytes });
    finishedSummaryBytes += bytes;
    while (finishedSummaryBytes > readCacheBytes() && finishedSummaries.size > 0) {
      const [oldest, dropped] = finishedSummaries.entries().next().value!;
      finishedSummaries.delete(oldest);
      finishedSummaryBytes -= dropped.bytes;
    }
  }
  return summary;
}

const FINAL_STATUSES = new Set(['succeeded', 'errored', 'cancelled', 'skipped']);

function renderCompact(run: RunRow, agg: Aggregate, summary: RunSummaryView) {
  const status = deriveRunStatus(agg.counts, run.probe_count, run.cancel_requested === 1);
  const active = agg.counts.queued + agg.counts.running;
  const competitors = JSON.parse(run.competitors) as string[];
  return {
    run_id: run.id,
    object: 'visibility_run',
    status,
    source: run.source,
    engine: run.engine,
    url: run.url,
    target_entity: run.target_entity,
    competitors,
    brand_terms: run.brand_terms ? (JSON.parse(run.brand_terms) as BrandTerms) : null,
    language: run.language,
    country: run.country,
    test_id: run.test_id,
    project_id: run.project_id ?? null,
    created_at: toApiTime(run.created_at),
    started_at: toApiTime(agg.startedAt),
    completed_at: active === 0 ? toApiTime(agg.completedAt ?? run.created_at) : null,
    cancel_requested: run.cancel_requested === 1,
    prompt_count: run.prompt_count,
    platform_count: run.platform_count,
    probe_count: run.probe_count,
    queued_probe_count: run.probe_count - agg.counts.skipped,
    skipped_probe_count: agg.counts.skipped,
    skipped_reason: agg.counts.skipped > 0 ? 'insufficient_credits' : null,
    probe_counts: agg.counts,
    billing: {
      status: chargeState({ kind: 'charge', ...run }),
      estimated_credits: formatCredits(run.estimated_amount),
      reserved_credits: formatCredits(run.amount),
      settled_credits: formatCredits(run.settled_amount),
      released_credits: formatCredits(run.released_amount),
      outstanding_credits: formatCredits(run.amount - run.settled_amount - run.released_amount),
    },
    // The headline numbers at the top level too (reports by URL: a compact visibility
    // run carries overall_score and visibility_band, as a Content Intelligence run carries its band).
    overall_score: summary.overall_score,
    visibility_band: summary.visibility_band,
    summary,
  };
}

type ProbeRow = {
  id: string;
  seq: number;
  repeat: number;
  prompt: string;
  platform: string;
  model: string;
  engine: string;
  language: string;
  country: string;
  target_entity: string;
  status: string;
  price: number;
  reported_model: string | null;
  brand_mentioned: number | null;
  text_mentioned: number | null;
  citation_mentioned: number | null;
  mention_position: number | null;
  list_rank: number | null;
  competitors: string | null;
  citations: string | null;
  error_code: string | null;
  error_message: string | null;
  attempts: number;
  started_at: string | null;
  completed_at: string | null;
  answer?: string | null;
  raw?: string | null;
  analysis?: string | null;
  surface: string;
  provider: string | null;
  ai_answer_present: number | null;
  city: string | null;
};

const bool = (v: number | null) => (v === null ? null : v === 1);

/** A cited source as a probe stores it. */
export interface ProbeCitation {
  title?: string | null;
  url: string;
  domain: string;
}

/** A probe as the API shows it; `answer` with results, `raw` with the raw provider answer. */
export type ProbeView = {
  probe_id: string;
  seq: number;
  prompt: string;
  repeat: number;
  platform: string;
  model: string;
  reported_model: string | null;
  engine: string;
  language: string;
  country: string;
  city: string | null;
  surface: string;
  provider: string | null;
  ai_answer_present: boolean | null;
  target_entity: string;
  status: string;
  brand_mentioned: boolean | null;
  text_mentioned: boolean | null;
  citation_mentioned: boolean | null;
  mention_position: number | null;
  list_rank: number | null;
  competitors: string[];
  citations: ProbeCitation[];
  error: { code: string; message: string | null } | null;
  attempts: number;
  started_at: string | null;
  completed_at: string | null;
  credits: { reserved: string; settled: string; released: string };
  answer?: string | null;
  raw?: unknown;
} & ReturnType<typeof probeAnalysisFields>;

function renderProbe(p: ProbeRow, opts: { results: boolean; raw: boolean }): ProbeView {
  const funded = p.status !== 'skipped';
  const out: ProbeView = {
    probe_id: p.id,
    seq: p.seq,
    prompt: p.prompt,
    repeat: p.repeat,
    platform: p.platform,
    model: p.model,
    reported_model: p.reported_model,
    engine: p.engine,
    language: p.language,
    country: p.country,
    city: p.city,
    surface: p.surface,
    provider: p.provider,
    ai_answer_present: bool(p.ai_answer_present),
    target_entity: p.target_entity,
    status: p.status,
    brand_mentioned: bool(p.brand_mentioned),
    text_mentioned: bool(p.text_mentioned),
    citation_mentioned: bool(p.citation_mentioned),
    mention_position: p.mention_position,
    list_rank: p.list_rank,
    competitors: p.competitors ? (JSON.parse(p.competitors) as string[]) : [],
    citations: p.citations ? (JSON.parse(p.citations) as ProbeCitation[]) : [],
    ...probeAnalysisFields(p),
    error: p.error_code ? { code: p.error_code, message: p.error_message } : null,
    attempts: p.attempts,
    started_at: toApiTime(p.started_at),
    completed_at: toApiTime(p.completed_at),
    credits: {
      reserved: formatCredits(funded ? p.price : 0),
      settled: formatCredits(p.status === 'succeeded' ? p.price : 0),
      released: formatCredits(p.status === 'errored' || p.status === 'cancelled' ? p.price : 0),
    },
  };
  if (opts.results) out.answer = p.answer ?? null;
  if (opts.raw) out.raw = p.raw ? (JSON.parse(p.raw) as unknown) : null;
  return out;
}

const PROBE_COLUMNS = RUN_PROBE_COLUMNS;

/**
 * One probe of a run with its full answer, citations and analysis: what an agent reads after a
 * run without pulling every answer of the run (include_results). 404 unless both the run and the
 * probe belong to the account.
 */
export async function getVisibilityProbe(store: Store, accountId: string, runId: string, probeId: string) {
  const p = (await store.db
    .selectFrom('visibility_probes')
    .select(PROBE_COLUMNS)
    .select(['answer'])
    .where('id', '=', probeId)
    .where('run_id', '=', runId)
    .where('account_id', '=', accountId)
    .executeTakeFirst()) as ProbeRow | undefined;
  if (!p) throw new AppError('not_found', `Probe ${probeId} of visibility run ${runId} not found.`);
  return { run_id: runId, ...renderProbe(p, { results: true, raw: false }) };
}

export async function getVisibilityRun(
  store: Store,
  accountId: string,
  runId: string,
  opts: { includeProbes?: boolean; includeResults?: boolean; includeRaw?: boolean } = {},
) {
  // The probes are read before the ledger totals: a probe's status and its credit movement commit
  // together, so counts that show a terminal run always come with final billing. One read gives
  // the counts, the summary and the probe list.
  const withResults = !!(opts.includeResults || opts.includeRaw);
  let probes: ProbeRow[];
  if (withResults) {
    let q = store.db.selectFrom('visibility_probes').select(PROBE_COLUMNS).select(['answer']).where('run_id', '=', runId);
    if (opts.includeRaw) q = q.select(['raw']);
    probes = (await q.orderBy('seq').execute()) as ProbeRow[];
  } else {
    probes = await readRunProbes<ProbeRow>(store.db, runId);
  }
  const run = await runQuery(store.db)
    .where('visibility_runs.id', '=', runId)
    .where('visibility_runs.account_id', '=', accountId)
    .executeTakeFirst();
  if (!run) throw new AppError('not_found', `Visibility run ${runId} not found.`);
  const t0 = stepClock();
  const out: ReturnType<typeof renderCompact> & { probes?: ProbeView[] } = renderCompact(run, aggregate(probes), runSummary(run, probes, true, !withResults && keepsFolds(store.db, runId)));
  addStepTime('summary', t0);
  if (opts.includeProbes || withResults) {
    out.probes = probes.map((p) => renderProbe(p, { results: withResults, raw: !!opts.includeRaw }));
  }
  return holdsShared(out);
}

/** Compact runs by id, in the order given (for lists, saved tests and reports). */
export async function compactVisibilityRuns(db: Executor, runIds: string[]) {
  if (runIds.length === 0) return [];
  // The page's probes, before the ledger totals (see getVisibilityRun): counts, and the summary's
  // competitors, cited domains and per-platform rates as on the single read (a list
  // holds compact runs, and a compact run's summary has them).
  const probesOf = new Map<string, SummaryRow[]>();
  for (const id of new Set(runIds)) probesOf.set(id, await readRunProbes<SummaryRow>(db, id));
  const rows = await runQuery(db).where('visibility_runs.id', 'in', runIds).execute();
  const t0 = stepClock();
  const byId = new Map(
    rows.map((r) => {
      const own = probesOf.get(r.id) ?? [];
      return [r.id, holdsShared(renderCompact(r, aggregate(own), runSummary(r, own, false, keepsFolds(db, r.id))))];
    }),
  );
  addStepTime('summary', t0);
  return runIds.map((id) => byId.get(id)!).filter(Boolean);
}

export const RUN_SOURCES = ['api', 'console', 'mcp', 'schedule'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];
export const RUN_SORTS = ['newest', 'oldest'] as const;
export type RunSort = (typeof RUN_SORTS)[number];

export interface RunListFilters {
  status?: RunStatus;
  source?: RunSource;
  platform?: string;
  projectId?: string;
  /** Words matched, case-insensitively, against the brand, the page URL and the prompts. */
  search?: string;
  sort?: RunSort;
}

/**
 * A run's status as SQL, the same rule as deriveRunStatus over its probe rows, so a status
 * filter narrows the ids before any summary is built.
 */
const runStatusSql = sql<string>`(select case
    when coalesce(sum(case when p.status in ('queued', 'running') then 1 else 0 end), 0) > 0 then
      case when coalesce(sum(case when p.status in ('running', 'succeeded', 'errored') then 1 else 0 end), 0) > 0 then 'running' else 'queued' end
    when visibility_runs.cancel_requested = 1 then 'cancelled'
    when coalesce(sum(case when p.status = 'succeeded' then 1 else 0 end), 0) = visibility_runs.probe_count then 'completed'
    when coalesce(sum(case when p.status = 'succeeded' then 1 else 0 end), 0) = 0 then 'failed'
    else 'partially_completed' end
  from visibility_probes p where p.run_id = visibility_runs.id)`;

const likeEscape = (s: string) => s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listVisibilityRuns(
  store: Store,
  accountId: string,
  opts: { limit: number; startingAfter?: string } & RunListFilters,
) {
  if (opts.startingAfter !== undefined) {
    const cursor = await store.db
      .selectFrom('visibility_runs')
      .select('id')
      .where('id', '=', opts.startingAfter)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!cursor) throw new AppError('invalid_cursor', undefined, { starting_after: opts.startingAfter });
  }
  const oldest = opts.sort === 'oldest';
  // Every filter is SQL over the run rows, so only the page's runs are summarised.
  let q = store.db.selectFrom('visibility_runs').select('visibility_runs.id').where('visibility_runs.account_id', '=', accountId);
  if (opts.startingAfter) q = q.where('visibility_runs.id', oldest ? '>' : '<', opts.startingAfter);
  if (opts.status) q = q.where(runStatusSql, '=', opts.status);
  if (opts.source) q = q.where('visibility_runs.source', '=', opts.source);
  if (opts.platform) {
    const platform = opts.platform;
    q = q.where(({ exists, selectFrom }) =>
      exists(selectFrom('visibility_probes as pp').select('pp.id').whereRef('pp.run_id', '=', 'visibility_runs.id').where('pp.platform', '=', platform)),
    );
  }
  if (opts.projectId) {
    const projectId = opts.projectId;
    q = q.where('visibility_runs.test_id', 'in', (eb) =>
      eb.selectFrom('tests').select('tests.id').where('tests.project_id', '=', projectId).where('tests.account_id', '=', accountId),
    );
  }
  for (const word of (opts.search ?? '').split(/\s+/).filter(Boolean).slice(0, 8)) {
    const pattern = `%${likeEscape(word)}%`;
    q = q.where(({ or, exists, selectFrom }) =>
      or([
        sql<boolean>`lower(visibility_runs.target_entity) like ${pattern} escape '\\'`,
        sql<boolean>`lower(visibility_runs.url) like ${pattern} escape '\\'`,
        exists(
          selectFrom('visibility_probes as sp')
            .select('sp.id')
            .whereRef('sp.run_id', '=', 'visibility_runs.id')
            .where(sql<boolean>`lower(sp.prompt) like ${pattern} escape '\\'`),
        ),
      ]),
    );
  }
  const ids = (await q.orderBy('visibility_runs.id', oldest ? 'asc' : 'desc').limit(opts.limit + 1).execute()).map((r) => r.id);
  const hasMore = ids.length > opts.limit;
  const page = await compactVisibilityRuns(store.db, ids.slice(0, opts.limit));
  return holdsShared({ object: 'list', runs: holdsShared(page), has_more: hasMore, next_starting_after: hasMore ? page[page.length - 1].run_id : null });
}

export async function runIdsForTest(db: Executor, testId: string, limit: number, sinceIso?: string) {
  let q = db.selectFrom('visibility_runs').select('id').where('test_id', '=', testId);
  if (sinceIso) q = q.where('created_at', '>=', sinceIso);
  return (await q.orderBy('id', 'desc').limit(limit).execute()).map((r) => r.id);
}
