// The project dashboard's tallies of a run, one per prompt: what summarizeProbes and the answer
// analysis summary would count over that prompt's probes (succeeded probes, brand mentions, each
// competitor's mentions, cited domains, and per platform the same), kept so that pooling runs
// adds numbers instead of reading and parsing every probe again. A finished run's probes never
// change (the executor only writes queued and running probes), so its tallies are written once,
// the first time the dashboard reads the run, and read from then on; a run still going is
// tallied from its probes at every read and not stored.
// The one thing to know: pooled numbers must be exactly what the probes give, order included:
// a name a competitor list does not hold is listed where its first mention falls (run by run,
// oldest first, then by probe seq), so every tally keeps the seq of its first mention.
import { createHash } from 'node:crypto';
import type { Store } from '../../db/store.ts';
import { definitionId, targetTermsKey, type HistoryProbe } from '../tracking/comparable.ts';
import { foldName } from '../../text/entity-matcher.ts';
import { storedBrandTerms } from '../visibility/citation-sources.ts';
import { parseProbeAnalysis } from '../visibility/analysis/summary.ts';
import { ExactSum } from '../../lib/stats.ts';

/**
 * A brand's answer-analysis tally: [mentioning, positive, neutral, negative, unknown, first-share
 * count, first-share sum, pawc sum], sums as exact partials (ExactSum) so pooled means are exact.
 */
export type BrandTallyData = [number, number, number, number, number, number, number[], number[]];
/** A name's mentions: [name, count, seq of the first mention]. */
export type NameCount = [string, number, number];

export interface PromptSeries {
  probes: number;
  succeeded: number;
  mentions: number;
  competitors: NameCount[];
  target: BrandTallyData;
  brands: [string, BrandTallyData][];
}

/**
 * [platform, seq of its first probe, probes, succeeded, brand mentions, competitor mentions, what
 * was asked of the platform for this prompt (askedDigest of its models, markets and target)].
 */
export type PlatformCell = [string, number, number, number, number, NameCount[], string?];

export interface PromptCells {
  /**
   * What the run asked of this prompt (askedDigest of each probe's platform, model, language,
   * country and target, as a multiset, with the run's brand terms): two windows' change for the
   * prompt is read only where they asked it the same (dashboard.ts).
   */
  asks?: string;
  platforms: PlatformCell[];
  domains: [string, number][];
  /** Cited URLs: [url, domain, answers citing it] (each answer counts a URL once). */
  urls?: [string, string | null, number][];
}

export interface PromptRollup {
  prompt: string;
  seq: number;
  series: PromptSeries;
  cells: PromptCells;
}

const SENTIMENT_INDEX: Record<string, number> = { positive: 1, neutral: 2, negative: 3, unknown: 4 };

/**
 * A digest of what was asked: the sorted multiset of asks (a probe's platform, model, market and
 * target, repeats counted) with the brand terms that decide what counts as a mention. 12 hex
 * digits: a collision between two asks of one prompt is a 2^-48 chance.
 */
export function askedDigest(asks: readonly string[], brandTerms: string): string {
  return createHash('sha256').update(JSON.stringify([brandTerms, [...asks].sort()])).digest('hex').slice(0, 12);
}
export const newTally = (): BrandTallyData => [0, 0, 0, 0, 0, 0, [], []];

function bump(list: Map<string, NameCount>, name: string, seq: number) {
  const e = list.get(name);
  if (e) e[1]++;
  else list.set(name, [name, 1, seq]);
}

/**
 * The per-prompt tallies of one run's probes (in seq order). `brandTerms`: the run's target
 * aliases and domains in a canonical form (tracking/comparable.ts targetTermsKey), part of what
 * each prompt asked.
 */
export function rollupProbes(probes: readonly HistoryProbe[], brandTerms = ''): PromptRollup[] {
  type Acc = {
    prompt: string;
    seq: number;
    probes: number;
    succeeded: number;
    mentions: number;
    competitors: Map<string, NameCount>;
    target: BrandTallyData;
    brands: Map<string, BrandTallyData>;
    platforms: Map<string, { seq: number; probes: number; succeeded: number; mentions: number; competitors: Map<string, NameCount>; asks: string[] }>;
    asks: string[];
    domains: Map<string, number>;
    urls: Map<string, [string, string | null, number]>;
  };
  const byPrompt = new Map<string, Acc>();
  for (const p of probes) {
    let r = byPrompt.get(p.prompt);
    if (!r) {
      r = { prompt: p.prompt, seq: p.seq, probes: 0, succeeded: 0, mentions: 0, competitors: new Map(), target: newTally(), brands: new Map(), platforms: new Map(), asks: [], domains: new Map(), urls: new Map() };
      byPrompt.set(p.prompt, r);
    }
    let pl = r.platforms.get(p.platform);
    if (!pl) {
      pl = { seq: p.seq, probes: 0, succeeded: 0, mentions: 0, competitors: new Map(), asks: [] };
      r.platforms.set(p.platform, pl);
    }
    // What was asked counts every probe planned, skipped or failed ones too (as a definition does).
    const market = `${p.model}\u0000${p.language}\u0000${p.country.toUpperCase()}\u0000${foldName(p.target_entity)}`;
    r.asks.push(`${p.platform}\u0000${market}`);
    pl.asks.push(market);
    r.probes++;
    pl.probes++;
    if (p.status !== 'succeeded') continue;
    r.succeeded++;
    pl.succeeded++;
    if (p.brand_mentioned === 1) {
      r.mentions++;
      pl.mentions++;
    }
    for (const name of p.competitors ? (JSON.parse(p.competitors) as string[]) : []) {
      bump(r.competitors, name, p.seq);
      bump(pl.competitors, name, p.seq);
    }
    const seen = new Set<string>();
    const seenUrls = new Set<string>();
    for (const c of p.citations ? (JSON.parse(p.citations) as { url?: string; domain?: string }[]) : []) {
      if (c.domain && !seen.has(c.domain)) {
        seen.add(c.domain);
        r.domains.set(c.domain, (r.domains.get(c.domain) ?? 0) + 1);
      }
      if (c.url && !seenUrls.has(c.url)) {
        seenUrls.add(c.url);
        const u = r.urls.get(c.url);
        if (u) u[2]++;
        else r.urls.set(c.url, [c.url, c.domain ?? null, 1]);
      }
    }
    const a = parseProbeAnalysis(p.analysis);
    if (!a) continue;
    for (const b of a.brands) {
      if (!b.mentioned) continue;
      let t: BrandTallyData;
      if (b.role === 'target') t = r.target;
      else {
        const known = r.brands.get(b.name);
        t = known ?? newTally();
        if (!known) r.brands.set(b.name, t);
      }
      t[0]++;
      (t[SENTIMENT_INDEX[b.sentiment ?? 'unknown']] as number)++;
      if (b.first_mention_share !== null) {
        t[5]++;
        new ExactSum(t[6]).add(b.first_mention_share);
      }
      new ExactSum(t[7]).add(b.pawc);
    }
  }
  return [...byPrompt.values()].map((r) => ({
    prompt: r.prompt,
    seq: r.seq,
    series: { probes: r.probes, succeeded: r.succeeded, mentions: r.mentions, competitors: [...r.competitors.values()], target: r.target, brands: [...r.brands] },
    cells: {
      asks: askedDigest(r.asks, brandTerms),
      platforms: [...r.platforms].map(([platform, x]) => [platform, x.seq, x.probes, x.succeeded, x.mentions, [...x.competitors.values()], askedDigest(x.asks, brandTerms)] as PlatformCell),
      domains: [...r.domains],
      urls: [...r.urls.values()],
    },
  }));
}

const PROBE_COLUMNS = ['run_id', 'seq', 'prompt', 'platform', 'model', 'language', 'country', 'target_entity', 'status', 'brand_mentioned', 'citation_mentioned', 'competitors', 'citations', 'analysis', 'ai_answer_present'] as const;

export interface RolledRun {
  id: string;
  competitors: string;
  brand_terms?: string | null;
}

/**
 * The definition id of each run, writing the tallies of every finished run that has none yet
 * (from its probes, once). Runs still going are tallied in memory: `pending` holds their tallies.
 */
export async function ensureRollups(store: Store, runs: readonly RolledRun[]): Promise<{ definitionOf: Map<string, string>; pending: Map<string, PromptRollup[]> }> {
  const definitionOf = new Map<string, string>();
  const pending = new Map<string, PromptRollup[]>();
  const ids = runs.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await store.db.selectFrom('dashboard_rollup_runs').select(['run_id', 'definition_id']).where('run_id', 'in', ids.slice(i, i + 500)).execute();
    for (const r of rows) definitionOf.set(r.run_id, r.definition_id);
  }
  for (const run of runs) {
    if (definitionOf.has(run.id)) continue;
    const probes = (await store.db.selectFrom('visibility_probes').select(PROBE_COLUMNS).where('run_id', '=', run.id).orderBy('seq').execute()) as HistoryProbe[];
    const id = definitionId(probes, JSON.parse(run.competitors) as string[], storedBrandTerms(run.brand_terms));
    definitionOf.set(run.id, id);
    const rollups = rollupProbes(probes, targetTermsKey(storedBrandTerms(run.brand_terms)));
    if (probes.some((p) => p.status === 'queued' || p.status === 'running')) {
      pending.set(run.id, rollups);
      continue;
    }
    await store.db.transaction().execute(async (trx) => {
      // Another reader may have written them meanwhile: the same numbers, so the first one stays.
      const done = await trx.selectFrom('dashboard_rollup_runs').select('run_id').where('run_id', '=', run.id).executeTakeFirst();
      if (done) return;
      const values = rollups.map((r) => ({ run_id: run.id, prompt: r.prompt, seq: r.seq, series: JSON.stringify(r.series), cells: JSON.stringify(r.cells) }));
      for (let i = 0; i < values.length; i += 200) {
        await trx
          .insertInto('dashboard_rollups')
          .values(values.slice(i, i + 200))
          .onConflict((oc) => oc.columns(['run_id', 'prompt']).doNothing())
          .execute();
      }
      await trx
        .insertInto('dashboard_rollup_runs')
        .values({ run_id: run.id, definition_id: id, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.column('run_id').doNothing())
        .execute();
    });
  }
  return { definitionOf, pending };
}

export interface RunSeries {
  /** The run's prompts in seq order. */
  prompts: { prompt: string; seq: number; series: PromptSeries }[];
  /** Every prompt of the run pooled (names in the order of their first mention). */
  total: PromptSeries;
}

/** The tallies of every prompt of a run pooled into one, as PromptSeries (names by first mention). */
export function runTotal(prompts: readonly { series: PromptSeries }[]): PromptSeries {
  const names = new Map<string, NameCount>();
  for (const c of prompts.flatMap((p) => p.series.competitors).sort((a, b) => a[2] - b[2])) {
    const e = names.get(c[0]);
    if (e) e[1] += c[1];
    else names.set(c[0], [...c]);
  }
  const total: PromptSeries = { probes: 0, succeeded: 0, mentions: 0, competitors: [...names.values()], target: newTally(), brands: [] };
  const brands = new Map<string, BrandTallyData>();
  for (const { series: p } of prompts) {
    total.probes += p.probes;
    total.succeeded += p.succeeded;
    total.mentions += p.mentions;
    addTally(total.target, p.target);
    for (const [name, t] of p.brands) {
      const mine = brands.get(name);
      if (mine) addTally(mine, t);
      else brands.set(name, addTally(newTally(), t));
    }
  }
  total.brands = [...brands];
  return total;
}

/** Adds a tally into another (sums exactly). */
export function addTally(into: BrandTallyData, t: BrandTallyData): BrandTallyData {
  for (let i = 0; i < 6; i++) (into[i] as number) += t[i] as number;
  new ExactSum(into[6]).addAll(t[6]);
  new ExactSum(into[7]).addAll(t[7]);
  return into;
}

/**
 * Parsed tallies of finished runs by run id, the least recently read evicted first once they hold
 * more than ROLLUP_CACHE_PROMPTS prompts. Stored tallies never change, so a dashboard read again
 * and again parses each run once per process. Callers must not mutate what they get.
 */
const seriesCache = new Map<string, RunSeries>();
const cellsCache = new Map<string, Map<string, PromptCells>>();
const ROLLUP_CACHE_PROMPTS = 30_000;
const held = { series: 0, cells: 0 };

function remember<V>(cache: Map<string, V>, key: keyof typeof held, id: string, value: V, size: (v: V) => number) {
  cache.set(id, value);
  held[key] += size(value);
  while (held[key] > ROLLUP_CACHE_PROMPTS && cache.size > 1) {
    const [oldest, v] = cache.entries().next().value!;
    cache.delete(oldest);
    held[key] -= size(v);
  }
}

function recall<V>(cache: Map<string, V>, id: string): V | undefined {
  const v = cache.get(id);
  if (v !== undefined) {
    cache.delete(id);
    cache.set(id, v);
  }
  return v;
}

/** The stored series tallies of `runIds` (finished runs) by run. */
export async function loadSeries(store: Store, runIds: readonly string[]): Promise<Map<string, RunSeries>> {
  const out = new Map<string, RunSeries>();
  const missing: string[] = [];
  for (const id of runIds) {
    const hit = recall(seriesCache, id);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  const read = new Map<string, { prompt: string; seq: number; series: PromptSeries }[]>();
  for (let i = 0; i < missing.length; i += 100) {
    const rows = await store.db.selectFrom('dashboard_rollups').select(['run_id', 'prompt', 'seq', 'series']).where('run_id', 'in', missing.slice(i, i + 100)).execute();
    for (const r of rows) {
      const list = read.get(r.run_id) ?? [];
      list.push({ prompt: r.prompt, seq: Number(r.seq), series: JSON.parse(r.series) as PromptSeries });
      read.set(r.run_id, list);
    }
  }
  for (const [id, prompts] of read) {
    prompts.sort((a, b) => a.seq - b.seq);
    const value = { prompts, total: runTotal(prompts) };
    out.set(id, value);
    remember(seriesCache, 'series', id, value, (v) => v.prompts.length);
  }
  return out;
}

/** The stored matrix tallies of `runIds` (finished runs) by run, by prompt. */
export async function loadCells(store: Store, runIds: readonly string[]): Promise<Map<string, Map<string, PromptCells>>> {
  const out = new Map<string, Map<string, PromptCells>>();
  const missing: string[] = [];
  for (const id of runIds) {
    const hit = recall(cellsCache, id);
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  const read = new Map<string, Map<string, PromptCells>>();
  for (let i = 0; i < missing.length; i += 100) {
    const rows = await store.db.selectFrom('dashboard_rollups').select(['run_id', 'prompt', 'cells']).where('run_id', 'in', missing.slice(i, i + 100)).execute();
    for (const r of rows) {
      const m = read.get(r.run_id) ?? new Map<string, PromptCells>();
      m.set(r.prompt, JSON.parse(r.cells) as PromptCells);
      read.set(r.run_id, m);
    }
  }
  for (const [id, m] of read) {
    out.set(id, m);
    remember(cellsCache, 'cells', id, m, (v) => v.size);
  }
  return out;
}

/**
 * Writes a finished run's tallies when its test belongs to a project, so that the dashboard's
 * first read after a run does not tally it (run once per settled tracked run, beside the check
 * for a significant change). Nothing happens for other runs, or when they are written already.
 */
export async function rollupFinishedRun(store: Store, runId: string): Promise<void> {
  const run = await store.db
    .selectFrom('visibility_runs')
    .innerJoin('tests', 'tests.id', 'visibility_runs.test_id')
    .select(['visibility_runs.id', 'visibility_runs.competitors', 'visibility_runs.brand_terms'])
    .where('visibility_runs.id', '=', runId)
    .where('tests.project_id', 'is not', null)
    .executeTakeFirst();
  if (run) await ensureRollups(store, [run]);
}
