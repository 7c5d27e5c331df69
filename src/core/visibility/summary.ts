// A visibility summary from probe rows: mention and citation rates with their Wilson intervals,
// share of voice against the competitors, cited domains and the same per platform. One function
// serves a run's read, a list's compact runs and a tracked test's history (which pools the probes
// of several runs), so a rate means the same thing everywhere. Only succeeded probes count.
import { rate, shareOfVoice, wilsonInterval } from '../../lib/stats.ts';
import { isConsumerPlatform } from '../../platforms/types.ts';
import { topSorted } from '../../lib/top.ts';
import { Layered } from '../../lib/layered.ts';

export function visibilityBand(rate: number | null): string | null {
  if (rate === null) return null;
  if (rate === 0) return 'Invisible';
  if (rate < 0.25) return 'Low';
  if (rate < 0.5) return 'Moderate';
  if (rate < 0.75) return 'Good';
  return 'Strong';
}

/** What a summary reads of a probe (rows as stored: 0/1 flags, JSON text lists). */
export interface SummaryProbe {
  platform: string;
  status: string;
  brand_mentioned: number | null;
  citation_mentioned: number | null;
  competitors: string | null;
  citations: string | null;
  /** Consumer surfaces: 1 when the result carried an AI answer, 0 when not; null for API probes. */
  ai_answer_present?: number | null;
}

interface Tally {
  probes: number;
  succeeded: number;
  mentions: number;
  citations: number;
  /** Succeeded probes whose result carried an AI answer (consumer surfaces). */
  aiAnswers: number;
  competitorMentions: Map<string, number>;
}

const newTally = (competitors: readonly string[]): Tally => ({
  probes: 0,
  succeeded: 0,
  mentions: 0,
  citations: 0,
  aiAnswers: 0,
  competitorMentions: new Map(competitors.map((c) => [c, 0])),
});

function add(t: Tally, p: SummaryProbe, mentioned: readonly string[]) {
  t.probes++;
  if (p.status !== 'succeeded') return;
  t.succeeded++;
  if (p.brand_mentioned === 1) t.mentions++;
  if (p.citation_mentioned === 1) t.citations++;
  if (p.ai_answer_present === 1) t.aiAnswers++;
  for (const c of mentioned) t.competitorMentions.set(c, (t.competitorMentions.get(c) ?? 0) + 1);
}

/** Mentions of the target plus every competitor: the denominator of share of voice. */
const voiceTotal = (t: Tally) => t.mentions + [...t.competitorMentions.values()].reduce((a, b) => a + b, 0);

function competitorEntries(t: Tally) {
  const total = voiceTotal(t);
  return [...t.competitorMentions].map(([name, mentions]) => ({
    name,
    mentions,
    mention_rate: rate(mentions, t.succeeded),
    mention_rate_ci: wilsonInterval(mentions, t.succeeded),
    share_of_voice: shareOfVoice(mentions, total),
  }));
}

/** The headline numbers of a tally: what a run summary, a platform entry and a history point share. */
function headline(t: Tally) {
  const mentionRate = rate(t.mentions, t.succeeded);
  return {
    mention_rate: mentionRate,
    mention_rate_ci: wilsonInterval(t.mentions, t.succeeded),
    visibility_band: visibilityBand(mentionRate),
    citation_rate: rate(t.citations, t.succeeded),
    share_of_voice: shareOfVoice(t.mentions, voiceTotal(t)),
  };
}

const parseList = <T>(json: string | null): T[] => (json ? (JSON.parse(json) as T[]) : []);

/**
 * A succeeded probe's competitor names and distinct cited domains, parsed once per row object:
 * a running run's summary is built again on every read over mostly the same (kept) rows.
 */
const parsedOf = new WeakMap<SummaryProbe, { mentioned: string[]; domains: string[] }>();
function parsedProbe(p: SummaryProbe) {
  let v = parsedOf.get(p);
  if (!v) {
    const domains = new Set<string>();
    for (const c of parseList<{ domain?: string }>(p.citations)) if (c.domain) domains.add(c.domain);
    v = { mentioned: parseList<string>(p.competitors), domains: [...domains] };
    parsedOf.set(p, v);
  }
  return v;
}

const cloneTally = (t: Tally): Tally => ({ ...t, competitorMentions: new Map(t.competitorMentions) });

/**
 * The summary's tallies, folded one probe at a time (in the probes' order: competitor names and
 * platforms are listed in the order first seen). A fold can branch (see Layered): a run read
 * again while it runs keeps the fold of its finished prefix and continues a branch over the rest.
 */
export class SummaryFold {
  private readonly all: Tally;
  private readonly platforms: Map<string, Tally>;
  private readonly domains: Layered<string, number>;

  constructor(
    private readonly competitors: readonly string[],
    from?: SummaryFold,
  ) {
    this.all = from ? cloneTally(from.all) : newTally(competitors);
    this.platforms = from ? new Map([...from.platforms].map(([k, t]) => [k, cloneTally(t)])) : new Map();
    this.domains = from ? from.domains.branch() : new Layered();
  }

  /** A fold that goes on from this one's state; adding to it leaves this one unchanged. */
  branch(): SummaryFold {
    return new SummaryFold(this.competitors, this);
  }

  add(p: SummaryProbe): void {
    const parsed = p.status === 'succeeded' ? parsedProbe(p) : null;
    const mentioned = parsed ? parsed.mentioned : [];
    add(this.all, p, mentioned);
    let pt = this.platforms.get(p.platform);
    if (!pt) this.platforms.set(p.platform, (pt = newTally(this.competitors)));
    add(pt, p, mentioned);
    if (!parsed) return;
    for (const domain of parsed.domains) this.domains.set(domain, (this.domains.get(domain) ?? 0) + 1);
  }

  result() {
    const all = this.all;
    const top = headline(all);
    return {
      ...top,
      overall_score: top.mention_rate,
      brand_mentions: all.mentions,
      citation_mentions: all.citations,
      completed_probe_count: all.succeeded,
      competitors: competitorEntries(all),
      cited_domains: topSorted(this.domains, 50, (a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([domain, count]) => ({ domain, count })),
      by_platform: [...this.platforms].map(([platform, t]) => ({
        platform,
        probes: t.probes,
        succeeded: t.succeeded,
        brand_mentions: t.mentions,
        ...headline(t),
        competitors: competitorEntries(t),
        // Consumer surfaces: the share of succeeded probes whose result showed an AI answer at all.
        ...(isConsumerPlatform(platform)
          ? { ai_answer_rate: rate(t.aiAnswers, t.succeeded), ai_answer_rate_ci: wilsonInterval(t.aiAnswers, t.succeeded) }
          : {}),
      })),
    };
  }
}

/**
 * The summary of `probes` against `competitors` (the run's list; names a probe reports that are
 * not in it are counted too, so pooled runs with different lists lose nothing).
 */
export function summarizeProbes(probes: readonly SummaryProbe[], competitors: readonly string[]) {
  const fold = new SummaryFold(competitors);
  for (const p of probes) fold.add(p);
  return fold.result();
}

export type VisibilitySummary = ReturnType<typeof summarizeProbes>;

/**
 * The engine that answered a set of runs, as one word: "sandbox" or "live" when every run agrees,
 * "mixed" when not, null for no runs. A figure pooled from runs says it, as each run does, so
 * simulated rates are never read as real ones.
 */
export function pooledEngine(engines: readonly string[]): 'sandbox' | 'live' | 'mixed' | null {
  if (engines.length === 0) return null;
  const sandbox = engines.filter((e) => e === 'sandbox').length;
  return sandbox === engines.length ? 'sandbox' : sandbox === 0 ? 'live' : 'mixed';
}
