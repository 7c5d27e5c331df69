// A tracked test's history (docs/concepts.md): its series over the last `days`, one point per
// run (`window=run`) or per pooled window (`7d`, `30d`: the probes of every run created in the
// window counted together, so rates rest on more probes and their intervals narrow), the slots
// that were skipped and why, and a comparison of the latest point with the one before: the
// change and whether it is larger than the noise (a two-proportion z-test at 95%, stats.ts).
// Windows are anchored at the time of the read: the latest window ends now.
import { addCitationSourcesSummary, storedBrandTerms } from '../visibility/citation-sources.ts';
import { round4 } from '../../lib/stats.ts';
import type { Store } from '../../db/store.ts';
import { toApiTime } from '../../lib/ids.ts';
import { pooledEngine, summarizeProbes } from '../visibility/summary.ts';
import { addAnswerAnalysisSummary } from '../visibility/analysis/summary.ts';
import { findTest } from './tests.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { promptCsvRows, summarizeByPrompt } from '../visibility/by-prompt.ts';
import { latestComparison, plannedDefinitionId, splitComparable, type HistoryProbe } from './comparable.ts';
import type { BrandTerms } from '../visibility/plan.ts';

export const HISTORY_WINDOWS = ['run', '7d', '30d'] as const;
export type HistoryWindow = (typeof HISTORY_WINDOWS)[number];
const WINDOW_MS: Record<Exclude<HistoryWindow, 'run'>, number> = { '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

/** The Content Intelligence components a history point carries, read from a run's stored result. */
export const CI_COMPONENTS = ['content_depth', 'content_freshness', 'sufficiency_score', 'freshness_score'] as const;

interface RunRef {
  id: string;
  created_at: string;
}

/** Groups runs (oldest first) into points: one per run, or one per window ending at `now`. */
/**
 * Runs pooled by window counted back from `now`. With `since` (the horizon `days` reads from), a
 * window reaching past it starts at the horizon: runs before it were not read, so the oldest
 * point does not claim a span it does not hold (days=27 with 30d windows: 27 days, not 30).
 */
export function group<R extends RunRef>(runs: R[], window: HistoryWindow, now: Date, since?: string): { start: string; end: string; runs: R[] }[] {
  if (window === 'run') return runs.map((r) => ({ start: r.created_at, end: r.created_at, runs: [r] }));
  const width = WINDOW_MS[window];
  const buckets = new Map<number, R[]>();
  for (const r of runs) {
    const index = Math.floor((now.getTime() - Date.parse(r.created_at)) / width);
    const list = buckets.get(index) ?? [];
    list.push(r);
    buckets.set(index, list);
  }
  return [...buckets]
    .sort((a, b) => b[0] - a[0])
    .map(([index, list]) => ({
      start: new Date(Math.max(now.getTime() - (index + 1) * width, since ? Date.parse(since) : -Infinity)).toISOString(),
      end: new Date(now.getTime() - index * width).toISOString(),
      runs: list,
    }));
}

export const HISTORY_INCLUDES = ['comparable', 'all'] as const;

export interface HistoryOptions {
  days: number;
  window: HistoryWindow;
  now?: Date;
  /** `all` pools every attached run, one-off runs of other definitions included. */
  include?: (typeof HISTORY_INCLUDES)[number];
  /** Plans the test's definition to its definition id. */
  catalog: Catalog;
}

export async function testHistory(store: Store, accountId: string, testId: string, opts: HistoryOptions) {
  const test = await findTest(store.db, accountId, testId);
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - opts.days * 86_400_000).toISOString();
  const skipped = (
    await store.db
      .selectFrom('test_slots')
      .select(['slot', 'reason', 'message'])
      .where('test_id', '=', testId)
      .where('status', '=', 'skipped')
      .where('slot', '>=', since)
      .orderBy('slot')
      .execute()
  ).map((s) => ({ slot: toApiTime(s.slot), reason: s.reason, message: s.message }));
  const base = { test_id: test.id, test_type: test.test_type, window: opts.window, days: opts.days };
  if (test.test_type === 'ai_citations') return { ...base, include: opts.include ?? 'comparable', ...(await visibilitySeries(store, test, since, opts, now)), skipped };
  return { ...base, ...(await contentSeries(store, testId, since, opts.window, now)), skipped };
}

/** A test's visibility runs created since `since` (oldest first) and their probes in asking order. */
export async function loadVisibilityRuns(store: Store, testId: string, since: string) {
  const runs = await store.db
    .selectFrom('visibility_runs')
    .select(['id', 'created_at', 'competitors', 'brand_terms', 'source', 'started_by_test', 'url', 'engine'])
    .where('test_id', '=', testId)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const probesOf = new Map<string, HistoryProbe[]>();
  const ids = runs.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await store.db
      .selectFrom('visibility_probes')
      .select(['run_id', 'seq', 'prompt', 'platform', 'model', 'language', 'country', 'target_entity', 'status', 'brand_mentioned', 'citation_mentioned', 'competitors', 'citations', 'analysis', 'ai_answer_present'])
      .where('run_id', 'in', ids.slice(i, i + 500))
      .orderBy('run_id')
      .orderBy('seq')
      .execute();
    for (const p of rows) {
      const list = probesOf.get(p.run_id) ?? [];
      list.push(p);
      probesOf.set(p.run_id, list);
    }
  }
  return { runs, probesOf };
}

/** The brand terms of several runs in one: every domain any of them knew (null when none had terms). */
function pooledTerms(list: (BrandTerms | null)[]): BrandTerms | null {
  const known = list.filter((t): t is BrandTerms => t !== null);
  if (known.length === 0) return null;
  const competitors = new Map<string, { name: string; aliases: string[]; domains: string[] }>();
  for (const t of known) {
    for (const c of t.competitors) {
      const e = competitors.get(c.name) ?? { name: c.name, aliases: [], domains: [] };
      e.aliases = [...new Set([...e.aliases, ...c.aliases])];
      e.domains = [...new Set([...e.domains, ...c.domains])];
      competitors.set(c.name, e);
    }
  }
  return {
    target_aliases: [...new Set(known.flatMap((t) => t.target_aliases))],
    target_domains: [...new Set(known.flatMap((t) => t.target_domains))],
    competitors: [...competitors.values()],
  };
}

async function visibilitySeries(store: Store, test: { id: string; definition: string | null }, since: string, opts: HistoryOptions, now: Date) {
  const testId = test.id;
  const { runs, probesOf } = await loadVisibilityRuns(store, testId, since);
  // Like with like: the runs the test started, and runs made elsewhere with the test's definition.
  const split = splitComparable(runs, probesOf, plannedDefinitionId(test.definition, opts.catalog));
  const pooled = opts.include === 'all' ? runs : split.comparable;
  const points = group(pooled, opts.window, now, since).map((g) => {
    const competitors = [...new Set(g.runs.flatMap((r) => JSON.parse(r.competitors) as string[]))];
    const probes = g.runs.flatMap((r) => probesOf.get(r.id) ?? []);
    // Sentiment, prominence and discovered entities (answer analysis) over the same probes.
    const s = addAnswerAnalysisSummary(summarizeProbes(probes, competitors), probes, competitors) as ReturnType<typeof summarizeProbes> & Record<string, unknown>;
    const definitions = [...new Set(g.runs.map((r) => split.definitionOf.get(r.id)!))];
    addCitationSourcesSummary(s, probes, { urls: [...new Set(g.runs.map((r) => r.url))], competitors, brandTerms: pooledTerms(g.runs.map((r) => storedBrandTerms(r.brand_terms))) });
    return {
      start: toApiTime(g.start),
      end: toApiTime(g.end),
      run_ids: g.runs.map((r) => r.id),
      // sandbox, live or mixed: whether the point's answers were simulated.
      engine: pooledEngine(g.runs.map((r) => r.engine)),
      // The definition every run of the point shares; null when the point pools several.
      definition_id: definitions.length === 1 ? definitions[0] : null,
      // False while a probe of its runs is still queued or running: its rates may still move.
      complete: !probes.some((p) => p.status === 'queued' || p.status === 'running'),
      probe_count: probes.length,
      succeeded: s.completed_probe_count,
      brand_mentions: s.brand_mentions,
      mention_rate: s.mention_rate,
      mention_rate_ci: s.mention_rate_ci,
      citation_rate: s.citation_rate,
      visibility_band: s.visibility_band,
      share_of_voice: s.share_of_voice,
      by_platform: s.by_platform,
      competitors: s.competitors,
      cited_domains: s.cited_domains.slice(0, 10),
      citation_sources: s.citation_sources,
      sentiment: s.sentiment,
      prominence: s.prominence,
      by_prompt: summarizeByPrompt(probes, competitors),
    };
  });
  return { points, comparison: latestComparison(points), other_runs: opts.include === 'all' ? [] : split.others, definition_id: split.testDefinition };
}

/** A component's score from a stored result: `{score}` objects and plain numbers alike. */
function componentScore(result: Record<string, unknown>, name: string): number | null {
  const v = result[name];
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { score?: unknown }).score === 'number') return (v as { score: number }).score;
  return null;
}

const mean = (xs: number[]) => (xs.length === 0 ? null : round4(xs.reduce((a, b) => a + b, 0) / xs.length));

async function contentSeries(store: Store, testId: string, since: string, window: HistoryWindow, now: Date) {
  const runs = await store.db
    .selectFrom('ci_runs')
    .select(['id', 'created_at', 'status', 'overall_score', 'overall_band', 'result'])
    .where('test_id', '=', testId)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const points = group(runs, window, now, since).map((g) => {
    const done = g.runs.filter((r) => r.status === 'completed' && r.overall_score !== null);
    const results = done.map((r) => (r.result ? (JSON.parse(r.result) as Record<string, unknown>) : {}));
    const components: Record<string, number | null> = {};
    for (const c of CI_COMPONENTS) components[c] = mean(results.map((r) => componentScore(r, c)).filter((x): x is number => x !== null));
    const overall = mean(done.map((r) => Number(r.overall_score)));
    return {
      start: toApiTime(g.start),
      end: toApiTime(g.end),
      run_ids: g.runs.map((r) => r.id),
      completed_runs: done.length,
      overall_score: overall,
      // One run: its own band; a pooled window: the band of the mean score.
      overall_band: done.length === 1 ? done[0].overall_band : overall === null ? null : scoreBand(overall),
      ...components,
    };
  });
  const [previous, latest] = points.filter((p) => p.overall_score !== null).slice(-2);
  const comparison =
    previous && latest
      ? {
          previous: { start: previous.start, end: previous.end, overall_score: previous.overall_score },
          latest: { start: latest.start, end: latest.end, overall_score: latest.overall_score },
          change: round4(latest.overall_score! - previous.overall_score!),
          // A score is one measurement, not a sample of asks: there is no noise model to test against.
          change_significant: null,
        }
      : null;
  return { points, comparison };
}

/** Content score bands (docs/concepts.md). */
function scoreBand(score: number): string {
  if (score < 40) return 'Poor';
  if (score < 60) return 'Fair';
  if (score < 80) return 'Good';
  return 'Strong';
}

/** The history as CSV rows: one per point and series (the whole, each platform, each competitor). */
export function historyCsvRows(history: Awaited<ReturnType<typeof testHistory>>): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const p of history.points as Record<string, any>[]) {
    const base = { start: p.start, end: p.end, run_ids: (p.run_ids as string[]).join('; '), definition_id: p.definition_id ?? null, engine: p.engine ?? null };
    if (history.test_type !== 'ai_citations') {
      rows.push({ ...base, series: 'all', overall_score: p.overall_score, overall_band: p.overall_band, ...Object.fromEntries(CI_COMPONENTS.map((c) => [c, p[c]])) });
      continue;
    }
    const line = (series: string, x: Record<string, any>) => ({
      ...base,
      series,
      probe_count: x.probe_count ?? x.probes ?? null,
      succeeded: x.succeeded ?? null,
      mention_rate: x.mention_rate,
      mention_rate_ci_low: x.mention_rate_ci?.low ?? null,
      mention_rate_ci_high: x.mention_rate_ci?.high ?? null,
      citation_rate: x.citation_rate ?? null,
      visibility_band: x.visibility_band ?? null,
      share_of_voice: x.share_of_voice,
    });
    rows.push(line('all', p));
    for (const b of p.by_platform) rows.push(line(`platform:${b.platform}`, b));
    for (const c of p.competitors) rows.push(line(`competitor:${c.name}`, { ...c, succeeded: p.succeeded }));
    rows.push(...promptCsvRows(base, p.by_prompt ?? []));
  }
  for (const r of ('other_runs' in history ? history.other_runs : []) ?? []) {
    rows.push({ start: r.created_at, end: r.created_at, run_ids: r.run_id, definition_id: r.definition_id, series: `other_run:${r.source}` });
  }
  for (const s of history.skipped) rows.push({ start: s.slot, end: s.slot, run_ids: '', series: 'skipped', skip_reason: s.reason });
  return rows;
}

export const HISTORY_CSV_COLUMNS = {
  ai_citations: ['start', 'end', 'series', 'run_ids', 'probe_count', 'succeeded', 'mention_rate', 'mention_rate_ci_low', 'mention_rate_ci_high', 'citation_rate', 'visibility_band', 'share_of_voice', 'skip_reason', 'definition_id', 'engine'],
  content_intelligence: ['start', 'end', 'series', 'run_ids', 'overall_score', 'overall_band', ...CI_COMPONENTS, 'skip_reason'],
} as const;
