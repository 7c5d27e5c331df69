// A project's dashboard numbers: over time (7- or 30-day windows) the brand's and each
// competitor's mention rate with its interval, share of voice, sentiment and prominence; a prompt
// × platform matrix for the latest window with the change since the window before; topics rolled
// up; and the prompts where competitors are named and the brand is not. Only comparable runs of
// the project's tests count (tracking/comparable.ts). Every rate carries `n`, the answers it
// rests on, and `thin`: true when n < 10 or the 95% interval is wider than ±0.20.
import { round4 } from '../../lib/stats.ts';
import type { Store } from '../../db/store.ts';
import { toApiTime } from '../../lib/ids.ts';
import { plannedDefinitionId, splitComparable, type HistoryProbe } from '../tracking/comparable.ts';
import { group, loadVisibilityRuns } from '../tracking/history.ts';
import type { Catalog } from '../visibility/catalog.ts';
import { groupByPrompt, promptEntry } from '../visibility/by-prompt.ts';
import { summarizeProbes } from '../visibility/summary.ts';
import { addAnswerAnalysisSummary } from '../visibility/analysis/summary.ts';
import { findProject, projectTests } from './projects.ts';
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
  window: (typeof DASHBOARD_WINDOWS)[number];
  topic?: string;
  market?: string;
  catalog: Catalog;
  now?: Date;
}

type Rated = { mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null };
const evidence = (n: number, x: Rated) => ({ n, thin: isThin(n, x.mention_rate_ci) });

/** The brand and competitor numbers of a set of probes. */
function brandNumbers(probes: HistoryProbe[], competitors: string[]) {
  const s = addAnswerAnalysisSummary(summarizeProbes(probes, competitors), probes, competitors) as ReturnType<typeof summarizeProbes> & Record<string, any>;
  const n = s.completed_probe_count;
  return {
    brand: { mention_rate: s.mention_rate, mention_rate_ci: s.mention_rate_ci, ...evidence(n, s), share_of_voice: s.share_of_voice, sentiment: s.sentiment ?? null, prominence: s.prominence ?? null },
    competitors: (s.competitors as any[]).map((c) => ({
      name: c.name,
      mention_rate: c.mention_rate,
      mention_rate_ci: c.mention_rate_ci,
      ...evidence(n, c),
      share_of_voice: c.share_of_voice,
      sentiment: c.sentiment ?? null,
      prominence: c.prominence ?? null,
    })),
  };
}

export async function projectDashboard(store: Store, accountId: string, projectId: string, opts: DashboardOptions) {
  const project = await findProject(store.db, accountId, projectId);
  const competitors = (JSON.parse(project.competitors) as { name: string }[]).map((c) => c.name);
  const library = await listPrompts(store.db, projectId);
  const topicsOf = new Map(library.map((p) => [p.prompt, p.topics]));
  const inTopic = (prompt: string) => !opts.topic || (topicsOf.get(prompt) ?? []).includes(opts.topic.trim().toLowerCase());
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - opts.days * 86_400_000).toISOString();

  // The comparable runs of every market's test (or the one market asked for).
  const runs: { id: string; created_at: string }[] = [];
  const probesOf = new Map<string, HistoryProbe[]>();
  const tests = (await projectTests(store.db, projectId)).filter((t) => !opts.market || t.market === opts.market);
  for (const t of tests) {
    const definition = (await store.db.selectFrom('tests').select('definition').where('id', '=', t.id).executeTakeFirstOrThrow()).definition;
    const loaded = await loadVisibilityRuns(store, t.id, since);
    const { comparable } = splitComparable(loaded.runs, loaded.probesOf, plannedDefinitionId(definition, opts.catalog));
    for (const r of comparable) {
      runs.push(r);
      probesOf.set(r.id, (loaded.probesOf.get(r.id) ?? []).filter((p) => inTopic(p.prompt)));
    }
  }
  runs.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const periods = group(runs, opts.window, now).map((g) => ({ start: g.start, end: g.end, runs: g.runs, probes: g.runs.flatMap((r) => probesOf.get(r.id) ?? []) }));
  const series = periods.map((p) => ({ start: toApiTime(p.start), end: toApiTime(p.end), run_ids: p.runs.map((r) => r.id), ...brandNumbers(p.probes, competitors) }));

  const latest = periods.at(-1);
  const previous = periods.at(-2);
  const previousCells = new Map<string, ReturnType<typeof promptEntry>>();
  if (previous) for (const [prompt, list] of groupByPrompt(previous.probes)) previousCells.set(prompt, promptEntry(prompt, list, competitors));
  const latestByPrompt = latest ? groupByPrompt(latest.probes) : new Map<string, HistoryProbe[]>();
  const change = (now: number | null, before: number | null | undefined) => (now === null || before === null || before === undefined ? null : round4(now - before));
  const matrix = library
    .filter((p) => inTopic(p.prompt))
    .map(({ prompt, topics }) => {
      const e = promptEntry(prompt, latestByPrompt.get(prompt) ?? [], competitors);
      const before = previousCells.get(prompt);
      return {
        prompt,
        topics,
        mention_rate: e.mention_rate,
        mention_rate_ci: e.mention_rate_ci,
        ...evidence(e.succeeded, e),
        previous_mention_rate: before?.mention_rate ?? null,
        change: change(e.mention_rate, before?.mention_rate),
        platforms: e.by_platform.map((b) => {
          const was = before?.by_platform.find((x) => x.platform === b.platform);
          return {
            platform: b.platform,
            mention_rate: b.mention_rate,
            mention_rate_ci: b.mention_rate_ci,
            ...evidence(b.succeeded, b),
            previous_mention_rate: was?.mention_rate ?? null,
            previous_n: was?.succeeded ?? null,
            change: change(b.mention_rate, was?.mention_rate),
            competitors: b.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate })),
          };
        }),
        competitors: e.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate, mention_rate_ci: c.mention_rate_ci, ...evidence(e.succeeded, c) })),
        cited_domains: e.cited_domains,
      };
    });

  // Topics rolled up over the latest window (a prompt counts in each of its topics).
  const topicNames = [...new Set(library.flatMap((p) => p.topics))].filter((t) => !opts.topic || t === opts.topic.trim().toLowerCase()).sort();
  const topics = topicNames.map((topic) => {
    const probes = (latest?.probes ?? []).filter((p) => (topicsOf.get(p.prompt) ?? []).includes(topic));
    const e = promptEntry(topic, probes, competitors);
    return { topic, prompts: library.filter((p) => p.topics.includes(topic)).length, mention_rate: e.mention_rate, mention_rate_ci: e.mention_rate_ci, ...evidence(e.succeeded, e), share_of_voice: e.share_of_voice };
  });

  // Prompts where competitors are named and the brand is not (latest window).
  const competitorsOnly = matrix
    .filter((m) => m.n > 0 && m.mention_rate === 0 && m.competitors.some((c) => (c.mention_rate ?? 0) > 0))
    .map((m) => ({ prompt: m.prompt, topics: m.topics, n: m.n, thin: m.thin, competitors: m.competitors.filter((c) => (c.mention_rate ?? 0) > 0).map((c) => ({ name: c.name, mention_rate: c.mention_rate })) }));

  return {
    project_id: projectId,
    window: opts.window,
    days: opts.days,
    topic: opts.topic ?? null,
    market: opts.market ?? null,
    thin_evidence: THIN_EVIDENCE,
    latest_period: latest ? { start: toApiTime(latest.start), end: toApiTime(latest.end) } : null,
    previous_period: previous ? { start: toApiTime(previous.start), end: toApiTime(previous.end) } : null,
    series,
    matrix,
    topics,
    competitors_named_brand_absent: competitorsOnly,
    // What the brand's own site logs say over the same span (null: no site of the brand's domains).
    site_activity: await projectSiteActivity(store.db, accountId, { url: project.url, domains: (JSON.parse(project.brand) as { domains?: string[] }).domains ?? [] }, new Date(since), now),
  };
}
