// Per-prompt numbers of a run or of pooled runs: for each prompt (in the order the probes were
// asked, so a run's prompt order), how many probes it had, how many succeeded, the brand's mention
// rate with its Wilson interval, share of voice, and the same rate per platform and per competitor.
// It is the run summary of the prompt's own probes (summarizeProbes), so a rate here means exactly
// what it means in the summary: only succeeded probes count.
import { summarizeProbes, type SummaryProbe } from './summary.ts';
import { shareAnswer } from '../freeze.ts';
import { Layered } from '../../lib/layered.ts';

export interface PromptProbe extends SummaryProbe {
  prompt: string;
}

/** The probes grouped by prompt, groups in order of each prompt's first probe. */
export function groupByPrompt<P extends PromptProbe>(probes: readonly P[]): Map<string, P[]> {
  const groups = new Map<string, P[]>();
  for (const p of probes) {
    const list = groups.get(p.prompt);
    if (list) list.push(p);
    else groups.set(p.prompt, [p]);
  }
  return groups;
}

/** One prompt's entry: the summary's headline numbers over that prompt's probes. */
export function promptEntry(prompt: string, probes: readonly SummaryProbe[], competitors: readonly string[]) {
  const s = summarizeProbes(probes, competitors);
  return {
    prompt,
    probes: probes.length,
    succeeded: s.completed_probe_count,
    brand_mentions: s.brand_mentions,
    mention_rate: s.mention_rate,
    mention_rate_ci: s.mention_rate_ci,
    citation_rate: s.citation_rate,
    share_of_voice: s.share_of_voice,
    by_platform: s.by_platform.map((b) => ({
      platform: b.platform,
      mention_rate: b.mention_rate,
      mention_rate_ci: b.mention_rate_ci,
      probes: b.probes,
      succeeded: b.succeeded,
      brand_mentions: b.brand_mentions,
      competitors: b.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate, mentions: c.mentions })),
    })),
    competitors: s.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate, mention_rate_ci: c.mention_rate_ci, mentions: c.mentions })),
    cited_domains: s.cited_domains.slice(0, 10),
  };
}

export type PromptSummary = ReturnType<typeof promptEntry>;

/**
 * Entries already built, by the first row object of their group, with the rows and competitors
 * they were built from: the same row objects (a run's finished probes, kept between reads) give
 * the same entry, so a running run's summary rebuilds only the prompts whose probes changed.
 * Entries are frozen and shared (their JSON text is written once).
 */
const entryOf = new WeakMap<PromptProbe, { rows: readonly PromptProbe[]; competitors: string; entry: PromptSummary }>();

/**
 * Entries of prompts none of whose probes has succeeded yet, by competitors, prompt and the
 * probes' platforms in order: such an entry reads nothing else of its probes (only succeeded
 * probes count), so it is the same while they are queued, running or retried, though a running
 * probe's row is a new object on every read. Cleared when full.
 */
const unansweredEntries = new Map<string, PromptSummary>();
const UNANSWERED_ENTRIES = 8192;

/**
 * Unanswered entries by competitors and platforms only: their prompt aside, the entries of two
 * prompts with the same platforms are the same, so a new prompt's entry is this one with its own
 * prompt (its other parts shared and frozen), not a summary of its probes.
 */
const unansweredShapes = new Map<string, PromptSummary>();

function unansweredEntry(prompt: string, list: readonly PromptProbe[], competitors: readonly string[], names: string): PromptSummary {
  // JSON text of the names and of the prompt is closed (it ends at its own bracket or quote), and
  // platform names are words, so no two inputs give the same key.
  let platforms = '';
  for (const p of list) platforms += ` ${p.platform}`;
  const key = names + JSON.stringify(prompt) + platforms;
  let entry = unansweredEntries.get(key);
  if (!entry) {
    let shape = unansweredShapes.get(names + platforms);
    if (!shape) {
      shape = shareAnswer(promptEntry(prompt, list, competitors));
      if (unansweredShapes.size >= UNANSWERED_ENTRIES) unansweredShapes.clear();
      unansweredShapes.set(names + platforms, shape);
    }
    // `prompt` is the shape's first key, so the entry's keys keep promptEntry's order.
    entry = shareAnswer({ ...shape, prompt });
    if (unansweredEntries.size >= UNANSWERED_ENTRIES) unansweredEntries.clear();
    unansweredEntries.set(key, entry);
  }
  return entry;
}

/** A prompt's entry: the one built from the same rows before, else a new one. */
function entryFor(prompt: string, list: readonly PromptProbe[], competitors: readonly string[], names: string): PromptSummary {
  const known = entryOf.get(list[0]!);
  if (known && known.competitors === names && known.rows.length === list.length && known.rows.every((r, i) => r === list[i])) return known.entry;
  const entry = list.every((p) => p.status !== 'succeeded')
    ? unansweredEntry(prompt, list, competitors, names)
    : shareAnswer(promptEntry(prompt, list, competitors));
  entryOf.set(list[0]!, { rows: list, competitors: names, entry });
  return entry;
}

/**
 * The probes grouped by prompt, as a fold that branches (see SummaryFold): a run's finished
 * prefix is grouped once, with the entries of its prompts, and each read goes on over the other
 * probes on a branch, building only the entries of the prompts those probes belong to.
 */
export class PromptFold {
  private readonly groups: Layered<string, PromptProbe[]>;
  /** The prompts this fold added probes to (a branch takes the other prompts' entries from its base). */
  private readonly touched = new Set<string>();
  /** Entries built of this fold's groups, dropped when a group grows. */
  private readonly entries = new Map<string, PromptSummary>();
  private readonly names: string;

  constructor(
    private readonly competitors: readonly string[],
    private readonly from?: PromptFold,
  ) {
    this.groups = from ? from.groups.branch() : new Layered(undefined, (list) => list.slice());
    this.names = from ? from.names : JSON.stringify(competitors);
  }

  /** A fold that goes on from this one's state; adding to it leaves this one unchanged. */
  branch(): PromptFold {
    return new PromptFold(this.competitors, this);
  }

  add(p: PromptProbe): void {
    const list = this.groups.own(p.prompt);
    if (list) list.push(p);
    else this.groups.set(p.prompt, [p]);
    this.touched.add(p.prompt);
    this.entries.delete(p.prompt);
  }

  private entry(prompt: string, list: readonly PromptProbe[]): PromptSummary {
    if (this.from && !this.touched.has(prompt)) return this.from.entry(prompt, list);
    let entry = this.entries.get(prompt);
    if (!entry) this.entries.set(prompt, (entry = entryFor(prompt, list, this.competitors, this.names)));
    return entry;
  }

  /** One entry per prompt, in the order the prompts were first asked. */
  result(): PromptSummary[] {
    return this.groups.entries().map(([prompt, list]) => this.entry(prompt, list));
  }
}

/** `by_prompt` of a summary: one entry per prompt, in the order the prompts were first asked. */
export function summarizeByPrompt(probes: readonly PromptProbe[], competitors: readonly string[]): PromptSummary[] {
  const fold = new PromptFold(competitors);
  for (const p of probes) fold.add(p);
  return fold.result();
}

/**
 * CSV rows for the per-prompt entries of a history point (series `prompt:<text>`, and
 * `prompt:<text>|platform:<name>` per platform), beside the point's own `base` columns.
 */
export function promptCsvRows(base: Record<string, unknown>, entries: readonly PromptSummary[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const line = (series: string, x: { probes: number; succeeded: number; mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null }) => ({
    ...base,
    series,
    probe_count: x.probes,
    succeeded: x.succeeded,
    mention_rate: x.mention_rate,
    mention_rate_ci_low: x.mention_rate_ci?.low ?? null,
    mention_rate_ci_high: x.mention_rate_ci?.high ?? null,
  });
  for (const e of entries) {
    rows.push({ ...line(`prompt:${e.prompt}`, e), citation_rate: e.citation_rate, share_of_voice: e.share_of_voice });
    for (const b of e.by_platform) rows.push(line(`prompt:${e.prompt}|platform:${b.platform}`, b));
  }
  return rows;
}
