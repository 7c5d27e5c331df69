// Human output of the user commands, one formatter per command of the table (src/cli/commands.gen.ts),
// each typed by its operation's 200 answer in the generated client, so a field renamed in the API
// fails the type check here. With --json the CLI prints the answer itself instead.
import type { operations } from '../client/schema.d.ts';

/**
 * Lines dated after now (a log written with a wrong time zone or clock; the server decides, by its
 * clock) are counted, but reports end now and show them only once that time has passed: said after
 * the totals, as the console does.
 */
export function futureLinesNote(futureLines: number | undefined, to: string | null | undefined): string {
  return futureLines
    ? `\n${plural(futureLines, 'line')} ${futureLines === 1 ? 'is' : 'are'} dated after now${to ? ` (up to ${to})` : ''}. They are counted, but reports end now and show them only once that time has passed: check the log's time zone or the clock of the server that wrote it.`
    : '';
}

/**
 * Lines dated further back than the server keeps log line hashes (it decides, by its clock and
 * SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS) are not counted: said after the totals, as the console does.
 */
export function tooOldLinesNote(tooOld: number | undefined, from: string | null | undefined): string {
  return tooOld
    ? `\n${plural(tooOld, 'line')} ${tooOld === 1 ? 'is' : 'are'} older than the server keeps log line hashes${from ? ` (from ${from})` : ''}. They are not counted: a copy sent before could no longer be recognised.`
    : '';
}

type Ok<K extends keyof operations> = operations[K] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

/**
 * A list's human output: its rows for stdout, and a note for stderr (that it is empty, how to get
 * the next page), so `sightline visibility list | cut -d' ' -f1` reads run ids only.
 */
export interface Listing {
  rows: string;
  note: string;
}

export interface Formatter {
  operationId: keyof operations;
  human: (answer: never) => string | Listing;
}

const fmt = <K extends keyof operations>(operationId: K, human: (d: Ok<K>) => string | Listing): Formatter => ({ operationId, human: human as Formatter['human'] });

/** Column width for platform names: the longest in the listing (consumer surfaces run to 18 characters). */
const widest = (names: readonly string[], min = 8) => Math.max(min, ...names.map((n) => n.length));

const dash = (v: unknown) => (v === null || v === undefined ? '—' : String(v));
/** An API time to the minute, in UTC as the API gives it ("2026-11-27 20:14Z"). */
const minute = (iso: string | null | undefined) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z` : '—'.padEnd(17));
/** `1 probe`, `2 probes`: a count with its noun, in the singular for one. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Rows for stdout; `empty` a note on stderr when there are none. */
const lines = (rows: string[], empty: string): Listing => ({ rows: rows.join('\n'), note: rows.length ? '' : empty });

/** The schedule, budget and month lines of an estimate (a project's or a tracked test's: the same figures). */
function scheduleCostLines(d: Ok<'testsEstimate'> | Ok<'projectsEstimate'>): string[] {
  const r = d.runs_per_month;
  return [
    r && d.credits_per_month
      ? `scheduled ${d.schedule!.cron} (${d.schedule!.timezone}): ${r.fewest === r.busiest ? plural(r.busiest, 'run') : `${r.fewest}–${r.busiest} runs`} a month, ${d.credits_per_month.average} credits on average, ${d.credits_per_month.busiest} in the busiest month`
      : 'not scheduled: runs only when started',
    d.monthly_credit_budget === null
      ? d.budget_for_every_run === null ? 'no budget' : `no budget; ${d.budget_for_every_run} would pay for every run`
      : `budget ${d.monthly_credit_budget}${d.runs_within_budget_per_month === null ? '' : `: pays for ${plural(d.runs_within_budget_per_month, 'run')} a month`}${d.budget_for_every_run === null ? '' : ` (${d.budget_for_every_run} pays for every run)`}`,
    ...(d.months ?? []).map((m) => `  ${m.month}  ${plural(m.scheduled_runs, 'run').padStart(9)}${m.runs_within_budget === null || m.runs_within_budget === m.scheduled_runs ? '' : `, ${m.runs_within_budget} within budget`}  ${m.credits} credits`),
  ];
}

/** A run's probes done of all, status and credits: the progress line and the status read share it. */
export function probeCounts(run: { probe_count: number; probe_counts: Record<string, number> }): { done: number; total: number } {
  const c = run.probe_counts;
  return { done: (c.succeeded ?? 0) + (c.errored ?? 0) + (c.cancelled ?? 0) + (c.skipped ?? 0), total: run.probe_count };
}

type VisibilityRun = Ok<'visibilityRunsRead'>;
type CiRun = Ok<'contentIntelligenceRunsRead'>;

/** A 0..1 rate as a whole percentage ("83%"), "—" while there is none. */
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);
/** A 95% interval as " (95% CI 44–97%)", or nothing. */
const interval = (ci: { low: number; high: number } | null | undefined) => (ci ? ` (95% CI ${Math.round(ci.low * 100)}–${Math.round(ci.high * 100)}%)` : '');

export function visibilityRunLine(run: VisibilityRun): string {
  const { done, total } = probeCounts(run);
  const s = run.summary;
  const answers = s.completed_probe_count ? `, ${s.brand_mentions} of ${s.completed_probe_count} answers` : '';
  return [
    `run ${run.run_id} ${run.status}: ${done}/${total} probes, ${run.billing.settled_credits} of ${run.billing.reserved_credits} credits settled`,
    `mention rate ${pct(s.mention_rate)}${interval(s.mention_rate_ci)}${answers} (${run.visibility_band ?? 'no answers'})`,
  ].join('\n');
}

/** The run's summary beyond the headline: per platform, citations, share of voice, competitors, cited domains. */
function visibilitySummary(run: VisibilityRun): string[] {
  const s = run.summary;
  if (!s.completed_probe_count) return [];
  const out = [`citation rate ${pct(s.citation_rate)}${s.share_of_voice === undefined || s.share_of_voice === null ? '' : `, share of voice ${pct(s.share_of_voice)}`}`];
  if (s.by_platform.length) {
    out.push('by platform:');
    const w = widest(s.by_platform.map((b) => b.platform));
    for (const b of s.by_platform) out.push(`  ${b.platform.padEnd(w)} ${pct(b.mention_rate).padStart(4)}${interval(b.mention_rate_ci)} over ${plural(b.probes, 'probe')}${b.visibility_band ? ` (${b.visibility_band})` : ''}`);
  }
  if (s.competitors.length) {
    out.push('competitors:');
    for (const c of s.competitors) out.push(`  ${c.name.padEnd(20)} ${pct(c.mention_rate).padStart(4)} mentioned${c.share_of_voice === undefined || c.share_of_voice === null ? '' : `, share of voice ${pct(c.share_of_voice)}`}`);
  }
  if (s.cited_domains.length) out.push(`cited domains: ${s.cited_domains.slice(0, 8).map((d) => `${d.domain} (${d.count})`).join(', ')}`);
  return out;
}

export function ciRunLine(run: Pick<CiRun, 'run_id' | 'status' | 'analysis_depth' | 'overall_score' | 'overall_band' | 'billing' | 'error' | 'url'>): string {
  const score = run.overall_score === null ? '' : `, score ${run.overall_score} (${dash(run.overall_band)})`;
  const error = run.error ? `, ${run.error.code}: ${dash(run.error.message)}` : '';
  return `run ${run.run_id} ${run.status} (${run.analysis_depth}) ${run.url}${score}${error}; ${run.billing.settled_credits} of ${run.billing.reserved_credits} credits settled`;
}

/** With --include-result: the analysis's summary and its recommendations, as `ci score` shows them. */
function ciResultLines(result: Record<string, unknown> | null | undefined): string[] {
  if (!result) return [];
  const score = (result.score && typeof result.score === 'object' ? result.score : result) as {
    overall?: { summary?: string };
    recommendations?: { priority: string; title: string; expected_impact: number }[];
  };
  return [
    ...(score.overall?.summary ? ['', score.overall.summary] : []),
    ...(score.recommendations ?? []).map((r) => `  ${r.priority.padEnd(6)} ${r.title} (+${r.expected_impact})`),
  ];
}

function testLine(t: Ok<'testsUpdate'>): string {
  const schedule = t.schedule ? `, ${t.schedule.cron} ${t.schedule.timezone}${t.paused ? ' (paused)' : ''}, next ${dash(t.next_run_at)}` : t.paused ? ', paused' : ', on demand';
  const budget = t.monthly_credit_budget ? `, budget ${t.credits_used_this_month} of ${t.monthly_credit_budget} credits this month` : '';
  const skip = t.last_skip ? `\nlast skipped ${t.last_skip.slot}: ${t.last_skip.reason}` : '';
  return `${t.id} ${t.name} (${t.test_type}) ${t.url}${schedule}${budget}${skip}`;
}

/** A run of a saved test: a visibility run's score is its mention rate (0..1), a Content Intelligence run's 0..100. */
function runScoreLine(testType: string, r: { run_id: string; status: string; overall_score?: number | null; visibility_band?: string | null; overall_band?: string | null }): string {
  const score =
    testType === 'ai_citations'
      ? `mention rate ${pct(r.overall_score)} ${r.visibility_band ?? ''}`
      : `score ${r.overall_score === null || r.overall_score === undefined ? '—' : `${Math.round(r.overall_score)}/100`} ${r.overall_band ?? ''}`;
  return `${r.run_id}  ${r.status.padEnd(19)} ${score}`.trimEnd();
}

/** The latest change of a history against the point before, and whether it is larger than the noise. */
function comparisonLine(c: Record<string, unknown> | null | undefined): string[] {
  if (!c || typeof c.change !== 'number') return [];
  const change = c.change as number;
  // A visibility history compares mention rates (0..1, said in percentage points), a content one scores.
  const rate = typeof c.latest === 'object' && c.latest !== null && 'mention_rate' in c.latest;
  const amount = `${change >= 0 ? '+' : '−'}${rate ? `${Math.round(Math.abs(change) * 100)} points` : Math.abs(change)}`;
  return [`latest change ${amount}: ${c.change_significant ? 'significant (larger than the noise)' : 'within the noise'}`];
}

/** One history point: a visibility rate with its 95% interval and answer count, or a content score. */
function pointLine(p: Record<string, unknown>): string {
  if (p.overall_score !== undefined) return `score ${dash(p.overall_score)} (${String(p.overall_band ?? 'no result')})`;
  return `mention rate ${pct(p.mention_rate as number | null)}${interval(p.mention_rate_ci as { low: number; high: number } | null)} over ${plural(Number(p.succeeded ?? 0), 'answer')}`;
}

/** A change of rate in percentage points: "+12 pts", "−3 pts", "±0 pts". */
const points = (change: number) => `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(Math.round(change * 100))} pts`;

/** Why a dashboard window's rates carry no change from the window before (nothing for the first window). */
const NOT_COMPARABLE: Record<string, string> = {
  definition_changed: 'no change: the window before asked something else',
  definition_mixed: 'no change: runs in this window or the one before asked different things',
};

/** A project in one line: name, brand, markets, prompts and tests. */
function projectLine(p: { id: string; name: string; brand: { name: string }; markets: { language: string; country: string }[]; prompt_count: number; tests: unknown[] }): string {
  return `${p.id} ${p.name} (${p.brand.name}): ${p.markets.map((m) => `${m.language}-${m.country}`).join(', ')}; ${plural(p.prompt_count, 'prompt')}, ${plural(p.tests.length, 'test')}`;
}

/**
 * What a project asks and when: competitors, platforms and repeats, the schedule with each market's
 * next run, the budget with what each market used this month. `schedule`, the budget and the
 * tests' times are open (passthrough) fields of the answer, read as the API documents them.
 */
function projectSettings(p: { competitors: { name: string }[]; platforms: string[]; repeats: number; prompt_count: number; tests: { market: string | null; [key: string]: unknown }[]; [key: string]: unknown }): string[] {
  const schedule = p.schedule as { cron: string; timezone: string } | null | undefined;
  const budget = p.monthly_credit_budget as string | null | undefined;
  const markets = p.tests.map((t) => {
    const next = t.next_run_at as string | null | undefined;
    const used = t.credits_used_this_month as string | undefined;
    return `  ${t.market ?? '—'}: ${schedule ? (next ? `next run ${minute(next)}` : p.prompt_count === 0 ? 'no run scheduled: no prompts yet' : 'no run scheduled') : 'runs when started'}${used === undefined ? '' : `, ${used} credits used this month`}`;
  });
  return [
    `  competitors: ${p.competitors.length ? p.competitors.map((c) => c.name).join(', ') : 'none'}`,
    `  platforms: ${p.platforms.join(', ')}; ${plural(p.repeats, 'ask')} per prompt and platform`,
    `  schedule: ${schedule ? `${schedule.cron} (${schedule.timezone})` : 'none, runs only when started'}; budget: ${budget ? `${budget} credits a month` : 'none'}`,
    ...markets,
  ];
}

/** A listed project's latest week (its `glance`): rate, interval, n, simulated or not, and the change. */
function glanceText(g: { latest_period: unknown; mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null; n: number; thin: boolean; engine: string | null; change: number | null; change_significant: boolean | null; complete: boolean }): string {
  if (!g.latest_period) return 'no runs in 90 days';
  const ci = g.mention_rate_ci ? ` (${pct(g.mention_rate_ci.low)}–${pct(g.mention_rate_ci.high)})` : '';
  const notes = [`n=${g.n}`, g.thin ? 'thin' : null, g.engine === 'sandbox' ? 'sandbox' : g.engine === 'mixed' ? 'partly sandbox' : null].filter(Boolean).join(', ');
  const change =
    g.change === null
      ? g.complete
        ? 'no comparable earlier week'
        : 'a run still going'
      : `${points(g.change)} ${g.change_significant ? 'significant' : 'within the noise'}`;
  return `latest week ${pct(g.mention_rate)}${ci}, ${notes}; ${change}`;
}

function listPage<T>(rows: T[], line: (r: T) => string, next: string | null | undefined, empty: string): Listing {
  const page = lines(rows.map(line), empty);
  return next && rows.length ? { ...page, note: `more: --starting-after ${next}` } : page;
}

const siteLine = (s: { id: string; domain: string; name: string }) => `${s.id}  ${s.domain}${s.name !== s.domain ? ` (${s.name})` : ''}`;

export const FORMATTERS: Record<string, Formatter> = {
  usage: fmt('usageRead', (d) =>
    [
      `available ${d.credits.available_credit_units}, reserved ${d.credits.reserved_credit_units}, used ${d.credits.used_credit_units} credits`,
      ...d.recent.map((r) => `  ${r.time}  ${r.credits.padStart(8)}  ${r.action} (${r.status}, ${r.source})${r.run_id ? ` ${r.run_id}` : ''}`),
    ].join('\n'),
  ),
  activity: fmt('activityRead', (d) =>
    listPage(
      d.items,
      // Who: the key's prefix, or the console user by email (their id once removed from the account).
      (i) => `${i.created_at}  ${String(i.http_status)}  ${i.method.padEnd(6)} ${i.action.padEnd(34)} ${i.credits.padStart(6)}  ${i.source}${i.key_prefix ? `  ${i.key_prefix}…` : i.user_email || i.user_id ? `  ${i.user_email ?? i.user_id}` : ''}`,
      d.next_starting_after,
      'no activity',
    ),
  ),
  'visibility models': fmt('visibilityModelsList', (d) =>
    Object.entries(d.platforms)
      .flatMap(([p, models], _i, all) =>
        models.map((m) => `${p.padEnd(widest(all.map(([name]) => name)))} ${m.id.padEnd(28)} ${m.credits_per_probe.padStart(6)} credits${m.default ? '  (default)' : ''}${m.available ? '' : '  unavailable'}`),
      )
      .join('\n'),
  ),
  'visibility estimate': fmt(
    'visibilityRunsEstimate',
    (d) =>
      `${plural(d.probe_count, 'probe')}, ${d.estimated_credits} credits; available ${d.available_credits}; a run now would queue ${d.fundable_probe_count} (${d.would_be_status}) and reserve ${d.would_reserve_credits}`,
  ),
  'visibility run': fmt(
    'visibilityRunsCreate',
    (d) => `run ${d.run_id} ${d.status}: ${d.queued_probe_count}/${d.probe_count} probes, ${d.reserved_credits} credits reserved${d.skipped_reason ? ` (${d.skipped_probe_count} skipped: ${d.skipped_reason})` : ''}`,
  ),
  'visibility list': fmt('visibilityRunsList', (d) =>
    listPage(
      d.runs,
      (r) => `${r.run_id}  ${minute(r.created_at)}  ${r.status.padEnd(19)} ${pct(r.summary.mention_rate).padStart(4)}  ${r.target_entity}  ${r.url}`,
      d.next_starting_after,
      'no runs',
    ),
  ),
  'visibility status': fmt('visibilityRunsRead', (run) => {
    const w = widest((run.probes ?? []).map((p) => p.platform));
    const probes = (run.probes ?? []).map(
      (p) => `  ${p.probe_id}  ${p.platform.padEnd(w)} ${p.status.padEnd(9)} ${p.brand_mentioned === null ? '—' : p.brand_mentioned ? 'mentioned' : 'not mentioned'}  ${p.prompt}`,
    );
    // The project (a market's tracked test) the run belongs to, for whoever reports per client.
    const project = run.project_id ? [`project ${run.project_id}, test ${dash(run.test_id)}`] : [];
    return [visibilityRunLine(run), ...project, ...visibilitySummary(run), ...(probes.length ? ['probes:', ...probes] : [])].join('\n');
  }),
  'visibility probe': fmt('visibilityProbesRead', (p) =>
    [
      `${p.probe_id} ${p.platform}/${p.model} (${p.engine}) ${p.status}: ${p.brand_mentioned ? `${p.target_entity} mentioned` : p.brand_mentioned === false ? `${p.target_entity} not mentioned` : 'no answer'}`,
      `prompt: ${p.prompt}`,
      // How the reader's rule read each brand (its evidence), and what the judge said of it.
      ...(p.brands ?? []).map((b) => {
        const e = b.evidence;
        const how = e ? ` (${e.rule} "${e.text}"${e.judged ? `, judged ${e.verdict}` : e.ambiguous ? ', ambiguous' : ''})` : '';
        return `  ${b.name}${b.role === 'target' ? ' (you)' : ''}: ${b.mentioned ? 'named' : 'not named'}${how}${b.sentiment ? `, ${b.sentiment}` : ''}${b.recommended ? ', recommended' : ''}`;
      }),
      ...(p.error ? [`error: ${p.error.code} ${dash(p.error.message)}`] : []),
      ...(p.answer ? ['', p.answer, ''] : []),
      ...p.citations.map((c) => `  [${c.domain}] ${c.url}`),
    ].join('\n'),
  ),
  'visibility cancel': fmt('visibilityRunsCancel', (run) => `run ${run.run_id} ${run.status}; released ${run.billing.released_credits} credits`),
  'visibility export': fmt('visibilityRunsExport', (d) => String(d)),
  'visibility suggest-prompts': fmt('visibilityPromptsSuggest', (d) =>
    [`${d.brand ?? d.url} (${d.industry}), ${d.billing.credits} credits`, ...d.suggestions.map((s) => `  ${s.funnel_stage.padEnd(13)} ${s.prompt}`)].join('\n'),
  ),
  'tests list': fmt('testsList', (d) => lines(d.tests.map((t) => `${t.id}  ${t.test_type.padEnd(20)} ${t.paused ? 'paused ' : ''}${t.name}`), 'no tests')),
  'tests show': fmt('testsRead', (t) => [testLine(t), ...t.runs.map((r) => `  ${runScoreLine(t.test_type, r)}`)].join('\n')),
  'tests create': fmt('testsCreate', testLine),
  'tests update': fmt('testsUpdate', testLine),
  'tests schedule': fmt('testsUpdate', testLine),
  'tests pause': fmt('testsUpdate', (t) => `${t.id} paused`),
  'tests resume': fmt('testsUpdate', (t) => `${t.id} ${t.paused ? 'paused' : 'active'}${t.next_run_at ? `, next run ${t.next_run_at}` : ''}`),
  'tests delete': fmt('testsDelete', (d) => `${d.id} deleted (its runs stay readable)`),
  'tests run': fmt('testsRunsCreate', (r) => `run ${r.run_id} ${r.status} for ${r.test_id}`),
  'tests history': fmt('testsHistory', (d) =>
    [
      `${d.test_id} (${d.window})`,
      ...d.points.map((p) => `  ${String(p.start)}  ${pointLine(p)}`),
      ...d.skipped.map((k) => `  ${String(k.slot)}  skipped: ${String(k.reason)}`),
      ...comparisonLine((d as { comparison?: Record<string, unknown> | null }).comparison),
      ...(d.other_runs?.length ? [`${d.other_runs.length} run(s) of another definition left out (one-off runs; --include all pools them): ${d.other_runs.map((r) => r.run_id).join(', ')}`] : []),
    ].join('\n'),
  ),
  'projects create': fmt('projectsCreate', (p) => [projectLine(p), ...projectSettings(p)].join('\n')),
  'projects list': fmt('projectsList', (d) => lines(d.projects.map((p) => `${projectLine(p)}; ${glanceText(p.glance)}`), 'no projects')),
  'projects show': fmt('projectsRead', (p) =>
    [projectLine(p), ...projectSettings(p), 'prompts:', ...p.prompts.map((x) => `  ${x.id}  ${x.prompt}${x.topics.length ? `  [${x.topics.join(', ')}]` : ''}`)].join('\n'),
  ),
  'projects update': fmt('projectsUpdate', (p) => [projectLine(p), ...projectSettings(p)].join('\n')),
  'projects delete': fmt('projectsDelete', (d) => `${d.id} deleted (its runs stay readable)`),
  'projects prompts': fmt('projectsPromptsImport', (d) => `${d.added} added, ${d.duplicates} already there; ${plural(d.prompt_count, 'prompt')} in ${d.project_id}`),
  'projects remove-prompt': fmt('projectsPromptsDelete', (d) => `${d.id} removed`),
  'projects run': fmt('projectsRunsCreate', (d) =>
    lines(
      [
        ...d.runs.map((r) => `run ${r.run_id} for ${dash(r.market)} (${r.test_id})`),
        ...d.skipped.map((m) => `${dash(m.market)} not run: ${m.required_credits} credits needed, ${m.available_credits} left (${m.reason})`),
      ],
      'no tests to run: add prompts first',
    ),
  ),
  'projects dashboard': fmt('projectsDashboard', (d) =>
    [
      ...(d.sandbox_run_count > 0 ? [`sandbox engine: ${d.sandbox_run_count} of ${plural(d.run_count, 'run')} answered by simulation, not by the AI platforms`] : []),
      ...d.series.flatMap((p) => {
        const b = p.brand as typeof p.brand & { mention_rate_ci: { low: number; high: number } | null; n: number; thin: boolean; share_of_voice?: number | null };
        const why = p.not_comparable_reason && NOT_COMPARABLE[p.not_comparable_reason];
        const moved = b.change !== null ? `; ${points(b.change)} from the window before` : why ? `; ${why}` : '';
        return [
          `  ${minute(String(p.start))} → ${minute(String(p.end))}  mention rate ${pct(b.mention_rate)}${interval(b.mention_rate_ci)} over ${plural(Number(b.n ?? 0), 'answer')}${b.thin ? ' (thin)' : ''}${b.share_of_voice == null ? '' : `, share of voice ${pct(b.share_of_voice)}`}${moved}`,
          ...(p.competitors.length ? [`    competitors: ${p.competitors.map((c) => `${c.name} ${pct(c.mention_rate)}${c.change === null ? '' : ` (${points(c.change)})`}`).join(', ')}`] : []),
        ];
      }),
      'prompts (latest window):',
      ...d.matrix.map((m) => `  ${pct(m.mention_rate as number | null).padStart(4)} n=${String(m.n).padEnd(4)}${m.thin ? ' thin' : '     '}  ${m.prompt}`),
      ...(d.competitors_named_brand_absent.length ? ['competitors named, you not:', ...d.competitors_named_brand_absent.map((g) => `  ${g.prompt}`)] : []),
    ].join('\n'),
  ),
  'projects plan': fmt('projectsSamplePlan', (d) =>
    [
      `${d.project_id}: ${d.repeats_needed === null ? 'no number of repeats reaches this goal' : `${d.repeats_needed} repeats per prompt × platform per run needed`}${d.feasible ? '' : ' (not reachable within 10 repeats per run in every market)'}`,
      `credits per month ${dash(d.current_credits_per_month)} now, ${dash(d.planned_credits_per_month)} planned`,
      ...d.markets.map((m) => `  ${dash(m.market)}  ${dash(m.repeats_needed)} repeats needed, ${m.planned.credits_per_run} credits per run`),
    ].join('\n'),
  ),
  'projects estimate': fmt('projectsEstimate', (d) =>
    [
      `one run of every market: ${d.credits_per_run} credits (${plural(d.probes_per_run, 'probe')}: ${plural(d.prompt_count, 'prompt')} × ${plural(d.market_count, 'market')})`,
      ...scheduleCostLines(d),
    ].join('\n'),
  ),
  'tests estimate': fmt('testsEstimate', (d) =>
    [`one run: ${d.credits_per_run} credits (${d.probes_per_run === null ? 'a Content Intelligence run' : plural(d.probes_per_run, 'probe')})`, ...scheduleCostLines(d)].join('\n'),
  ),
  'tests plan': fmt('testsSamplePlan', (d) =>
    [
      `${d.test_id}: ${d.repeats_needed === null ? 'no number of repeats reaches this goal' : `${d.repeats_needed} repeats per prompt × platform per run needed`}${d.feasible ? '' : ` (a run asks at most ${String(d.max_repeats)}; pool runs with --window 7d or 30d, or widen the goal)`}`,
      `credits per run ${d.current.credits_per_run} now, ${d.planned.credits_per_run} at ${String(d.repeats_recommended)} repeats; per month ${dash(d.current.credits_per_month)} now, ${dash(d.planned.credits_per_month)} planned`,
      ...d.cells.map((c, _i, all) => `  ${String(c.platform).padEnd(widest(all.map((x) => String(x.platform))))} ${dash(c.repeats_per_run).padStart(5)}  ${c.prompt}`),
    ].join('\n'),
  ),
  'reports by-url': fmt('reportsByUrlRead', (d) =>
    lines(
      d.matches.flatMap((m) => [
        `${m.test.id} ${m.test.name} (${m.test.test_type})`,
        ...m.runs.map((r) => `  ${runScoreLine(m.test.test_type, r)}`),
      ]),
      `no reports for ${d.url} in ${d.days} days`,
    ),
  ),
  'reports share': fmt('projectsSharesCreate', (d) =>
    [`${d.url}`, `share ${d.id}: the report of ${d.project_id} (${d.window}${d.topic ? `, topic ${d.topic}` : ''}${d.market ? `, ${d.market}` : ''}) until ${d.expires_at}`, 'the link is shown only now; its PDF: add /report.pdf'].join('\n'),
  ),
  'reports shares': fmt('projectsSharesList', (d) =>
    lines(
      d.shares.map(
        (x) =>
          `${x.id}  ${x.status.padEnd(7)}  until ${x.expires_at}  ${x.window}${x.topic ? ` topic ${x.topic}` : ''}${x.market ? ` ${x.market}` : ''}${x.report_status === 'topic_gone' ? '  (topic gone: the link shows no report)' : x.report_status === 'market_gone' ? '  (market gone: the link shows no report)' : ''}`,
      ),
      `no share links for ${d.project_id}`,
    ),
  ),
  'reports revoke': fmt('projectsSharesRevoke', (d) => `${d.id} revoked: the link no longer opens`),
  'page serialize': fmt('pagesContentSerialize', ({ serialization: s }) =>
    [
      s.content_view,
      '',
      `— ${s.final_url}: chars ${s.content_view_offset}..${s.content_view_offset + s.content_view_chars} of ${s.total_chars}${s.next_offset === null ? '' : `; more: --offset ${s.next_offset}`}`,
    ].join('\n'),
  ),
  trends: fmt('contentIntelligenceTrendsDiscover', (d) =>
    [`${d.url} (${d.industry}), ${d.billing.credits} credits`, ...d.trends.map((t) => `  ${String(t.relevance).padStart(3)}  ${t.name}: ${t.action}`)].join('\n'),
  ),
  'ci score': fmt('contentIntelligenceContentScore', (d) =>
    [
      `${d.url}: ${d.overall_score} (${d.overall_band}), ${d.billing.credits} credits`,
      `depth ${d.content_depth.score} (${d.content_depth.band}), freshness ${d.content_freshness.score} (${d.content_freshness.band})`,
      ...d.recommendations.map((r) => `  ${r.priority.padEnd(6)} ${r.title} (+${r.expected_impact})`),
    ].join('\n'),
  ),
  'ci run': fmt('contentIntelligenceRunsCreate', (d) => `run ${d.run_id} ${d.status} (${d.analysis_depth}): ${d.reserved_credits} credits reserved`),
  'ci list': fmt('contentIntelligenceRunsList', (d) => listPage(d.runs, ciRunLine, d.next_starting_after, 'no runs')),
  'sites create': fmt('sitesCreate', siteLine),
  'sites list': fmt('sitesList', (d) => lines(d.sites.map(siteLine), 'no sites')),
  'sites show': fmt('sitesRead', siteLine),
  'sites delete': fmt('sitesDelete', (d) => `${d.id} deleted with its log data`),
  'sites crawlers': fmt('sitesCrawlers', (d) =>
    lines(
      d.crawlers.flatMap((c) => [
        `${c.name.padEnd(18)} ${c.role.padEnd(8)} ${String(c.hits).padStart(7)} hits (${c.verifiable === false ? 'none verifiable: the vendor publishes no IP ranges' : `${c.verified_hits} verified, ${c.unverified_hits} not`}), ${c.blocked_hits} blocked, last ${c.last_seen}`,
        ...c.top_paths.slice(0, 3).map((p) => `    ${String(p.hits).padStart(7)}  ${p.path}${p.blocked_hits ? ` (${p.blocked_hits} blocked)` : ''}`),
      ]),
      `no AI crawlers in the logs from ${d.from} to ${d.to}`,
    ),
  ),
  'sites referrals': fmt('sitesReferrals', (d) =>
    lines(
      d.sources.flatMap((s) => [`${s.source.padEnd(11)} ${String(s.visits).padStart(7)} visits`, ...s.top_landing_pages.slice(0, 3).map((p) => `    ${String(p.visits).padStart(7)}  ${p.path}`)]),
      `no AI referral visits from ${d.from} to ${d.to}`,
    ),
  ),
  'logs ingest': fmt('sitesLogsUpload', (d) => `${d.lines} lines (${d.format}): ${d.ai_crawler_hits} AI crawler hits, ${d.ai_referral_visits} AI referral visits, ${d.duplicates} duplicates, ${d.skipped} skipped${d.hint ? `\n${d.hint}` : ''}${futureLinesNote(d.future_lines, d.to)}${tooOldLinesNote(d.too_old_lines, d.from)}`),
  'ci status': fmt('contentIntelligenceRunsRead', (run) => [ciRunLine(run), ...ciResultLines((run as { result?: Record<string, unknown> | null }).result)].join('\n')),
  'webhooks create': fmt('webhooksCreate', (w) => [webhookLine(w), ...(w.secret ? [`signing secret (shown only now): ${w.secret}`] : [])].join('\n')),
  'webhooks list': fmt('webhooksList', (d) => lines(d.webhooks.map(webhookLine), 'no webhooks')),
  'webhooks get': fmt('webhooksGet', webhookLine),
  'webhooks update': fmt('webhooksUpdate', webhookLine),
  'webhooks enable': fmt('webhooksUpdate', webhookLine),
  'webhooks disable': fmt('webhooksUpdate', webhookLine),
  'webhooks delete': fmt('webhooksDelete', (d) => `${d.id} deleted`),
  'webhooks deliveries': fmt('webhooksDeliveriesList', (d) => lines(d.deliveries.map(deliveryLine), 'no deliveries')),
  'webhooks retry': fmt('webhooksDeliveriesRetry', deliveryLine),
  'webhooks settings': fmt('notificationsSettingsGet', alertSettingsLine),
  'webhooks set-threshold': fmt('notificationsSettingsUpdate', alertSettingsLine),
};

function webhookLine(w: Ok<'webhooksGet'>): string {
  return `${w.id}  ${w.status.padEnd(8)} ${w.url}  ${w.events.join(',')}${w.project_ids ? ` projects ${w.project_ids.join(',')}` : ''}${w.format === 'slack' ? ' (slack)' : ''}${w.disabled_reason ? ` [${w.disabled_reason}]` : ''}`;
}

function deliveryLine(d: Ok<'webhooksDeliveriesRetry'>): string {
  const next = d.next_attempt_at ? `, next ${d.next_attempt_at}` : '';
  return `${d.id}  ${d.event.padEnd(21)} ${d.status.padEnd(9)} ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}, last ${dash(d.last_status_code)}${d.last_error ? ` (${d.last_error})` : ''}${next}`;
}

function alertSettingsLine(d: Ok<'notificationsSettingsGet'>): string {
  const credits = d.credits_low_threshold === null ? 'credits.low: off' : `credits.low below ${d.credits_low_threshold} credits (${d.credits_low_armed ? 'armed' : 'fired; re-armed by a grant'})`;
  return [credits, ...d.email_alerts.map((u) => `  ${u.email}: ${u.events.length ? u.events.join(', ') : 'no e-mail alerts'}`)].join('\n');
}
