// The answer-analysis parts of a probe and of a run summary (docs/concepts.md), from
// probe rows, for every reader of probes: the run read, MCP, and exports and history (tracking),
// which call these same functions on their own probe rows.
// The one thing to know: a summary's sentiment shares and prominence means are over the probes
// that mention the brand (for the target: brand_mentioned, citations included); probes analysed
// before this existed (analysis null) are left out of them, never counted as zeros.
import { foldName } from '../../../text/entity-matcher.ts';
import type { BrandEntry, ProbeAnalysis } from './brands.ts';
import { ExactSum, round4 } from '../../../lib/stats.ts';
import { topSorted } from '../../../lib/top.ts';
import { Layered } from '../../../lib/layered.ts';

/** What these functions read of a probe row. */
export interface AnalysisProbeRow {
  platform: string;
  status: string;
  /** The stored JSON (visibility_probes.analysis), or null. */
  analysis?: string | null;
}

/**
 * Parsed analyses by their stored JSON, the oldest evicted first (8,192 of about 2 KB each). A probe's analysis
 * never changes once written, and runs are read again and again while clients poll them (every
 * summary parses every probe's analysis), so a hit saves a JSON.parse per probe per read
 * (bench:runs polls the run list every 100 ms). Callers must not mutate what they get.
 */
const parsed = new Map<string, ProbeAnalysis>();
const PARSED_CACHE_SIZE = 8192;

export function parseProbeAnalysis(raw: string | null | undefined): ProbeAnalysis | null {
  if (!raw) return null;
  const hit = parsed.get(raw);
  if (hit) return hit;
  let value: ProbeAnalysis;
  try {
    value = JSON.parse(raw) as ProbeAnalysis;
  } catch {
    return null;
  }
  parsed.set(raw, value);
  if (parsed.size > PARSED_CACHE_SIZE) parsed.delete(parsed.keys().next().value!);
  return value;
}

/** The probe's `brands`, `judge` and `judge_error` (brands null when the probe has no analysed answer). */
export function probeAnalysisFields(row: Pick<AnalysisProbeRow, 'status' | 'analysis'>) {
  const a = row.status === 'succeeded' ? parseProbeAnalysis(row.analysis) : null;
  return { brands: a ? a.brands : null, judge: a?.judge ?? null, judge_error: a?.judge_error ?? null };
}


export interface SentimentShares {
  positive: number;
  neutral: number;
  negative: number;
  unknown: number;
}

export interface Prominence {
  first_mention_share: number | null;
  pawc: number | null;
}

/** A prominence mean: the exact sum over `count` values, divided and rounded; null without values. */
export const prominenceMean = (sum: ExactSum, count: number) => (count ? round4(sum.value() / count) : null);

class BrandTally {
  mentioning = 0;
  sentiment = { positive: 0, neutral: 0, negative: 0, unknown: 0 };
  firstShares = new ExactSum();
  firstShareCount = 0;
  pawcs = new ExactSum();

  /** A tally with the same counts and sums, to go on from apart from this one. */
  clone(): BrandTally {
    const t = new BrandTally();
    t.mentioning = this.mentioning;
    t.sentiment = { ...this.sentiment };
    t.firstShares = new ExactSum([...this.firstShares.partials]);
    t.firstShareCount = this.firstShareCount;
    t.pawcs = new ExactSum([...this.pawcs.partials]);
    return t;
  }

  add(b: BrandEntry) {
    if (!b.mentioned) return;
    this.mentioning++;
    this.sentiment[b.sentiment ?? 'unknown']++;
    if (b.first_mention_share !== null) {
      this.firstShares.add(b.first_mention_share);
      this.firstShareCount++;
    }
    this.pawcs.add(b.pawc);
  }

  sentimentShares(): SentimentShares | null {
    if (this.mentioning === 0) return null;
    const n = this.mentioning;
    const s = this.sentiment;
    return { positive: round4(s.positive / n), neutral: round4(s.neutral / n), negative: round4(s.negative / n), unknown: round4(s.unknown / n) };
  }

  // Means over exact sums: the same whatever order the probes are pooled in (a project's
  // dashboard adds stored per-prompt sums, core/projects/rollups.ts).
  prominence(): Prominence {
    return { first_mention_share: prominenceMean(this.firstShares, this.firstShareCount), pawc: prominenceMean(this.pawcs, this.mentioning) };
  }
}

export interface DiscoveredEntity {
  name: string;
  mentions: number;
  platforms: string[];
}

export interface AnswerAnalysisSummary {
  sentiment: SentimentShares | null;
  prominence: Prominence;
  competitors: Map<string, { sentiment: SentimentShares | null; prominence: Prominence }>;
  by_platform: Map<string, { sentiment: SentimentShares | null; prominence: Prominence }>;
  discovered_entities: DiscoveredEntity[];
}

export const MAX_DISCOVERED_ENTITIES = 25;

/**
 * An analysis's discovered entities as [folded key, name], first name of each key, once per
 * parsed analysis (parsed analyses are kept, see parseProbeAnalysis, and a running run's summary
 * is built again on every read).
 */
const entityKeysOf = new WeakMap<ProbeAnalysis, [string, string][]>();
function entityKeys(a: ProbeAnalysis): [string, string][] {
  let keys = entityKeysOf.get(a);
  if (!keys) {
    const seen = new Set<string>();
    keys = [];
    for (const name of a.entities ?? []) {
      const key = foldName(name);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      keys.push([key, name]);
    }
    entityKeysOf.set(a, keys);
  }
  return keys;
}

type EntityTally = { name: string; mentions: number; platforms: Set<string> };
const cloneEntity = (e: EntityTally): EntityTally => ({ name: e.name, mentions: e.mentions, platforms: new Set(e.platforms) });
const cloneTallies = (m: Map<string, BrandTally>) => new Map([...m].map(([k, t]) => [k, t.clone()]));

/**
 * The run-level additions folded one probe at a time, in the probes' order (an entity is listed
 * under the first name seen for it). A fold can branch (see Layered and SummaryFold).
 */
export class AnalysisFold {
  private readonly target: BrandTally;
  private readonly perCompetitor: Map<string, BrandTally>;
  private readonly perPlatform: Map<string, BrandTally>;
  private readonly entities: Layered<string, EntityTally>;

  constructor(competitors: readonly string[], from?: AnalysisFold) {
    this.target = from ? from.target.clone() : new BrandTally();
    this.perCompetitor = from ? cloneTallies(from.perCompetitor) : new Map(competitors.map((c) => [c, new BrandTally()]));
    this.perPlatform = from ? cloneTallies(from.perPlatform) : new Map();
    this.entities = from ? from.entities.branch(cloneEntity) : new Layered(undefined, cloneEntity);
  }

  /** A fold that goes on from this one's state; adding to it leaves this one unchanged. */
  branch(): AnalysisFold {
    return new AnalysisFold([], this);
  }

  add(p: AnalysisProbeRow): void {
    if (!this.perPlatform.has(p.platform)) this.perPlatform.set(p.platform, new BrandTally());
    if (p.status !== 'succeeded') return;
    const a = parseProbeAnalysis(p.analysis);
    if (!a) return;
    for (const b of a.brands) {
      if (b.role === 'target') {
        this.target.add(b);
        this.perPlatform.get(p.platform)!.add(b);
      } else this.perCompetitor.get(b.name)?.add(b);
    }
    for (const [key, name] of entityKeys(a)) {
      const e = this.entities.own(key) ?? { name, mentions: 0, platforms: new Set<string>() };
      e.mentions++;
      e.platforms.add(p.platform);
      this.entities.set(key, e);
    }
  }

  result(): AnswerAnalysisSummary {
    return {
      sentiment: this.target.sentimentShares(),
      prominence: this.target.prominence(),
      competitors: new Map([...this.perCompetitor].map(([name, t]) => [name, { sentiment: t.sentimentShares(), prominence: t.prominence() }])),
      by_platform: new Map([...this.perPlatform].map(([platform, t]) => [platform, { sentiment: t.sentimentShares(), prominence: t.prominence() }])),
      discovered_entities: topSorted(this.entities.values(), MAX_DISCOVERED_ENTITIES, (x, y) => y.mentions - x.mentions || x.name.localeCompare(y.name)).map(
        (e) => ({ name: e.name, mentions: e.mentions, platforms: [...e.platforms].sort() }),
      ),
    };
  }
}

/** The run-level additions, from the run's probe rows and its competitors (as given). */
export function answerAnalysisSummary(probes: readonly AnalysisProbeRow[], competitors: readonly string[]): AnswerAnalysisSummary {
  const fold = new AnalysisFold(competitors);
  for (const p of probes) fold.add(p);
  return fold.result();
}

/**
 * Adds the answer-analysis fields to a run summary in place: `sentiment`, `prominence` and
 * `discovered_entities` on the summary, and `sentiment` and `prominence` on each of its
 * `competitors` (by name) and `by_platform` (by platform) entries, whatever else they hold.
 */
export function addAnswerAnalysisSummary(summary: Record<string, unknown>, probes: readonly AnalysisProbeRow[], competitors: readonly string[]) {
  return putAnswerAnalysisSummary(summary, answerAnalysisSummary(probes, competitors));
}

/** addAnswerAnalysisSummary with the additions already computed (an AnalysisFold's result). */
export function putAnswerAnalysisSummary(summary: Record<string, unknown>, s: AnswerAnalysisSummary) {
  summary.sentiment = s.sentiment;
  summary.prominence = s.prominence;
  for (const entry of (summary.competitors ?? []) as Record<string, unknown>[]) {
    Object.assign(entry, s.competitors.get(entry.name as string) ?? { sentiment: null, prominence: { first_mention_share: null, pawc: null } });
  }
  for (const entry of (summary.by_platform ?? []) as Record<string, unknown>[]) {
    Object.assign(entry, s.by_platform.get(entry.platform as string) ?? { sentiment: null, prominence: { first_mention_share: null, pawc: null } });
  }
  summary.discovered_entities = s.discovered_entities;
  return summary;
}
