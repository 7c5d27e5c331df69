// The project dashboard from its per-run tallies (rollups) gives exactly what it gave when it
// pooled the probes themselves: the probe-reading dashboard is kept here as the reference and
// both read the same real sandbox runs of a project (two markets, three topics, a competitor
// added between runs so pooled runs hold different lists, runs spread over two windows, a one-off
// run of the same page), each window with the change from the one before when both asked the
// same, for 7d and 30d, by topic and by market; the first read writes the
// tallies of runs that have none, the second reads them back. Settling a project's run writes
// its tallies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { isThin, projectDashboard, THIN_EVIDENCE, windowDefinition, type DashboardOptions } from '../../../src/core/projects/dashboard.ts';
import { round4 } from '../../../src/lib/stats.ts';
import type { Store } from '../../../src/db/store.ts';
import { toApiTime } from '../../../src/lib/ids.ts';
import { plannedDefinitionId, splitComparable, type HistoryProbe } from '../../../src/core/tracking/comparable.ts';
import { group, loadVisibilityRuns } from '../../../src/core/tracking/history.ts';
import { groupByPrompt, promptEntry } from '../../../src/core/visibility/by-prompt.ts';
import { summarizeProbes } from '../../../src/core/visibility/summary.ts';
import { addAnswerAnalysisSummary } from '../../../src/core/visibility/analysis/summary.ts';
import { findProject, projectTests } from '../../../src/core/projects/projects.ts';
import { listPrompts } from '../../../src/core/projects/prompts.ts';
import { storedBrandTerms } from '../../../src/core/visibility/citation-sources.ts';
import { foldName } from '../../../src/text/entity-matcher.ts';

type Rated = { mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null };
const evidence = (n: number, x: Rated) => ({ n, thin: isThin(n, x.mention_rate_ci) });

/** Which competitors each run looked for (its stored list). */
type LookedFor = Map<string, Set<string>>;

/** The probes of runs that looked for `name`; with no name, of runs that looked for every one listed. */
function lookedSubset(probes: readonly HistoryProbe[], looked: LookedFor, competitors: readonly string[], name?: string) {
  return probes.filter((p) => {
    const names = looked.get(p.run_id) ?? new Set<string>();
    return name === undefined ? competitors.every((c) => names.has(c)) : names.has(name);
  });
}

/**
 * The brand and competitor numbers of a set of probes: the brand over every answer, each
 * competitor over the answers of runs that looked for it, share of voice over the runs that looked
 * for every competitor listed now.
 */
function brandNumbers(probes: HistoryProbe[], competitors: string[], looked: LookedFor) {
  const summary = (list: readonly HistoryProbe[]) => addAnswerAnalysisSummary(summarizeProbes(list, competitors), list, competitors) as ReturnType<typeof summarizeProbes> & Record<string, any>;
  const s = summary(probes);
  const voice = summarizeProbes(lookedSubset(probes, looked, competitors), competitors);
  const n = s.completed_probe_count;
  return {
    brand: { mention_rate: s.mention_rate, mention_rate_ci: s.mention_rate_ci, ...evidence(n, s), share_of_voice: voice.share_of_voice, sentiment: s.sentiment ?? null, prominence: s.prominence ?? null, counts: { k: s.brand_mentions, n } },
    competitors: (s.competitors as any[]).map((all) => {
      const mine = summary(lookedSubset(probes, looked, competitors, all.name));
      const c = (mine.competitors as any[]).find((x) => x.name === all.name);
      const v = voice.competitors.find((x) => x.name === all.name);
      return {
        name: all.name,
        mention_rate: c.mention_rate,
        mention_rate_ci: c.mention_rate_ci,
        ...evidence(mine.completed_probe_count, c),
        share_of_voice: v ? v.share_of_voice : voice.share_of_voice === null ? null : 0,
        sentiment: c.sentiment ?? null,
        prominence: c.prominence ?? null,
        counts: { k: c.mentions as number, n: mine.completed_probe_count },
      };
    }),
  };
}

type Counted = { counts: { k: number; n: number } } & Record<string, unknown>;

/**
 * Each window's brand and competitors with the change from the window before, written out here
 * from the counts: compared only when both windows have the same non-null definition id.
 */
function withChanges(windows: ({ definition_id: string | null; brand: Counted; competitors: (Counted & { name: string })[] } & Record<string, unknown>)[]) {
  const strip = ({ counts: _, ...rest }: Counted) => rest;
  return windows.map((w, i) => {
    const before = windows[i - 1];
    const reason = !before ? 'no_previous_window' : w.definition_id === null || before.definition_id === null ? 'definition_mixed' : w.definition_id !== before.definition_id ? 'definition_changed' : null;
    const move = (now: Counted, then: Counted | undefined) => {
      const was = reason === null ? then : undefined;
      return {
        previous_mention_rate: was && was.counts.n > 0 ? round4(was.counts.k / was.counts.n) : null,
        change: was && was.counts.n > 0 && now.counts.n > 0 ? round4(now.counts.k / now.counts.n - was.counts.k / was.counts.n) : null,
      };
    };
    const { brand, competitors, ...rest } = w;
    return {
      ...rest,
      not_comparable_reason: reason,
      brand: { ...strip(brand), ...move(brand, before?.brand) },
      competitors: competitors.map((c) => ({ ...strip(c), ...move(c, before?.competitors.find((x) => x.name === c.name)) })),
    };
  });
}

/** A prompt's entry with each competitor's rate over the runs that looked for it. */
function lookedEntry(prompt: string, probes: readonly HistoryProbe[], competitors: string[], looked: LookedFor) {
  const e = promptEntry(prompt, probes, competitors);
  const of = (list: readonly HistoryProbe[], name: string) => promptEntry(prompt, lookedSubset(list, looked, competitors, name), competitors);
  return {
    ...e,
    share_of_voice: promptEntry(prompt, lookedSubset(probes, looked, competitors), competitors).share_of_voice,
    competitors: e.competitors.map((c) => {
      const mine = of(probes, c.name);
      const x = mine.competitors.find((y) => y.name === c.name)!;
      return { ...x, n: mine.succeeded };
    }),
    by_platform: e.by_platform.map((b) => ({
      ...b,
      competitors: b.competitors.map((c) => {
        const onPlatform = of(probes, c.name).by_platform.find((y) => y.platform === b.platform);
        return { ...c, mention_rate: onPlatform?.competitors.find((y) => y.name === c.name)?.mention_rate ?? null };
      }),
    })),
  };
}

/** The URLs the succeeded answers cited, each counted once an answer, most cited first (top 10). */
function citedUrls(probes: readonly HistoryProbe[]): { url: string; domain: string | null; count: number }[] {
  const counts = new Map<string, { url: string; domain: string | null; count: number }>();
  for (const p of probes) {
    if (p.status !== 'succeeded' || !p.citations) continue;
    const seen = new Set<string>();
    for (const c of JSON.parse(p.citations) as { url?: string; domain?: string }[]) {
      if (!c.url || seen.has(c.url)) continue;
      seen.add(c.url);
      const entry = counts.get(c.url) ?? { url: c.url, domain: c.domain ?? null, count: 0 };
      entry.count++;
      counts.set(c.url, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.url.localeCompare(b.url)).slice(0, 10);
}

async function referenceDashboard(store: Store, accountId: string, projectId: string, opts: DashboardOptions) {
  const project = await findProject(store.db, accountId, projectId);
  const competitors = (JSON.parse(project.competitors) as { name: string }[]).map((c) => c.name);
  const library = await listPrompts(store.db, projectId);
  const topicsOf = new Map(library.map((p) => [p.prompt, p.topics]));
  const inTopic = (prompt: string) => !opts.topic || (topicsOf.get(prompt) ?? []).includes(opts.topic.trim().toLowerCase());
  const now = opts.now ?? new Date();
  const since = new Date(now.getTime() - opts.days * 86_400_000).toISOString();

  // The comparable runs of every market's test (or the one market asked for).
  const runs: { id: string; created_at: string; engine: string; test_id: string; brand_terms?: string | null }[] = [];
  const definitions = new Map<string, string>();
  const probesOf = new Map<string, HistoryProbe[]>();
  const looked: LookedFor = new Map();
  const tests = (await projectTests(store.db, projectId)).filter((t) => !opts.market || t.market === opts.market);
  for (const t of tests) {
    const definition = (await store.db.selectFrom('tests').select('definition').where('id', '=', t.id).executeTakeFirstOrThrow()).definition;
    const loaded = await loadVisibilityRuns(store, t.id, since);
    const { comparable, definitionOf } = splitComparable(loaded.runs, loaded.probesOf, plannedDefinitionId(definition, opts.catalog));
    for (const r of comparable) {
      runs.push({ ...r, test_id: t.id });
      definitions.set(r.id, definitionOf.get(r.id)!);
      looked.set(r.id, new Set(JSON.parse(r.competitors) as string[]));
      probesOf.set(r.id, (loaded.probesOf.get(r.id) ?? []).filter((p) => inTopic(p.prompt)));
    }
  }
  runs.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const periods = group(runs, opts.window, now, since).map((g) => ({ start: g.start, end: g.end, runs: g.runs, probes: g.runs.flatMap((r) => probesOf.get(r.id) ?? []) }));
  const series = withChanges(periods.map((p) => ({ start: toApiTime(p.start), end: toApiTime(p.end), run_ids: p.runs.map((r) => r.id), definition_id: windowDefinition(p.runs, definitions), ...brandNumbers(p.probes, competitors, looked) })));

  const latest = periods.at(-1);
  const previous = periods.at(-2);
  // What a window asked of a prompt (or of one platform for it), read from the probes: per market
  // (test), the multiset of asks of each run (platform, model, language, country, target, and the
  // run's target aliases and domains); a market whose runs asked differently mixes (null).
  const askedIn = (period: (typeof periods)[number] | undefined, prompt: string, platform?: string): string | null | undefined => {
    if (!period) return undefined;
    const byTest = new Map<string, string>();
    for (const r of period.runs) {
      const probes = (probesOf.get(r.id) ?? []).filter((p) => p.prompt === prompt && (platform === undefined || p.platform === platform));
      if (!probes.length) continue;
      const terms = storedBrandTerms(r.brand_terms);
      const asks = JSON.stringify([
        terms && (terms.target_aliases.length || terms.target_domains.length) ? [terms.target_aliases.map(foldName).sort(), [...terms.target_domains].sort()] : null,
        probes.map((p) => [platform === undefined ? p.platform : '', p.model, p.language, p.country.toUpperCase(), foldName(p.target_entity)].join('|')).sort(),
      ]);
      if (byTest.has(r.test_id) && byTest.get(r.test_id) !== asks) return null;
      byTest.set(r.test_id, asks);
    }
    return JSON.stringify([...new Set(byTest.values())].sort());
  };
  const reasonOf = (now: string | null | undefined, before: string | null | undefined) =>
    before === undefined ? 'no_previous_window' : now === null || now === undefined || before === null ? 'definition_mixed' : now === before ? null : 'definition_changed';
  const previousCells = new Map<string, ReturnType<typeof lookedEntry>>();
  if (previous) for (const [prompt, list] of groupByPrompt(previous.probes)) previousCells.set(prompt, lookedEntry(prompt, list, competitors, looked));
  const latestByPrompt = latest ? groupByPrompt(latest.probes) : new Map<string, HistoryProbe[]>();
  // From the counts (k/n), rounded once, as history's comparison.
  const change = (now: { brand_mentions: number; succeeded: number }, before: { brand_mentions: number; succeeded: number } | undefined) =>
    !before || now.succeeded === 0 || before.succeeded === 0 ? null : round4(now.brand_mentions / now.succeeded - before.brand_mentions / before.succeeded);
  const matrix = library
    .filter((p) => inTopic(p.prompt))
    .map(({ prompt, topics }) => {
      const e = lookedEntry(prompt, latestByPrompt.get(prompt) ?? [], competitors, looked);
      const seen = previousCells.get(prompt);
      const reason = reasonOf(askedIn(latest, prompt) ?? '[]', seen ? askedIn(previous, prompt) : undefined);
      const before = reason === null ? seen : undefined;
      return {
        prompt,
        topics,
        mention_rate: e.mention_rate,
        mention_rate_ci: e.mention_rate_ci,
        ...evidence(e.succeeded, e),
        previous_mention_rate: before?.mention_rate ?? null,
        change: change(e, before),
        not_comparable_reason: reason,
        platforms: e.by_platform.map((b) => {
          const had = seen?.by_platform.find((x) => x.platform === b.platform);
          const was = had && reasonOf(askedIn(latest, prompt, b.platform), askedIn(previous, prompt, b.platform)) === null ? had : undefined;
          return {
            platform: b.platform,
            mention_rate: b.mention_rate,
            mention_rate_ci: b.mention_rate_ci,
            ...evidence(b.succeeded, b),
            previous_mention_rate: was?.mention_rate ?? null,
            previous_n: was?.succeeded ?? null,
            change: change(b, was),
            competitors: b.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate })),
          };
        }),
        competitors: e.competitors.map((c) => ({ name: c.name, mention_rate: c.mention_rate, mention_rate_ci: c.mention_rate_ci, ...evidence(c.n, c) })),
        cited_domains: e.cited_domains,
        cited_urls: citedUrls(latestByPrompt.get(prompt) ?? []),
      };
    });

  // Topics rolled up over the latest window (a prompt counts in each of its topics).
  const topicNames = [...new Set(library.flatMap((p) => p.topics))].filter((t) => !opts.topic || t === opts.topic.trim().toLowerCase()).sort();
  const topics = topicNames.map((topic) => {
    const probes = (latest?.probes ?? []).filter((p) => (topicsOf.get(p.prompt) ?? []).includes(topic));
    const e = lookedEntry(topic, probes, competitors, looked);
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
    topic: opts.topic?.trim().toLowerCase() ?? null,
    market: opts.market ?? null,
    thin_evidence: THIN_EVIDENCE,
    latest_period: latest ? { start: toApiTime(latest.start), end: toApiTime(latest.end) } : null,
    previous_period: previous ? { start: toApiTime(previous.start), end: toApiTime(previous.end) } : null,
    series,
    matrix,
    topics,
    competitors_named_brand_absent: competitorsOnly,
    engine: runs.length === 0 ? null : runs.every((r) => r.engine === 'sandbox') ? 'sandbox' : runs.every((r) => r.engine !== 'sandbox') ? 'live' : 'mixed',
    run_count: runs.length,
    sandbox_run_count: runs.filter((r) => r.engine === 'sandbox').length,
  };
}

describe('project dashboard from rollups', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ SIGHTLINE_SCHEDULER_INTERVAL_MS: '0' });
  });
  after(async () => s.close());

  test('the same numbers as pooling the probes, before and after the tallies are written', async () => {
    const { accountId, key } = await s.account({ credits: 5000 });
    const prompts = [
      { prompt: 'best crm for agencies', topics: ['agencies'] },
      { prompt: 'crm for a small agency [[sandbox:mention]]', topics: ['agencies', 'pricing'] },
      { prompt: 'cheapest crm [[sandbox:no-mention]]', topics: ['pricing'] },
      { prompt: 'crm with free tier', topics: ['pricing'] },
      { prompt: 'crm integrations with gmail', topics: ['integrations'] },
      { prompt: 'crm for developers', topics: ['integrations'] },
    ];
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://acme-crm.example/',
        brand: { name: 'Acme CRM', aliases: ['Acme'], domains: ['acme-crm.example'] },
        competitors: [{ name: 'HubSpot', domains: ['hubspot.com'] }, { name: 'Pipedrive' }, { name: 'Salesforce' }],
        markets: [{ language: 'en', country: 'US' }, { language: 'de', country: 'DE' }],
        platforms: ['deepseek', 'openai', 'gemini'],
        repeats: 2,
        prompts,
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const runProject = async () => {
      const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
      for (const r of run.runs) await s.waitForRun(key, r.run_id, 60_000);
      return run.runs.map((r: any) => r.run_id as string);
    };
    const first = await runProject();
    const patched = await s.request('PATCH', `/v1/projects/${p.id}`, { key, body: { competitors: [{ name: 'HubSpot', domains: ['hubspot.com'] }, { name: 'Pipedrive' }] } });
    assert.equal(patched.statusCode, 200, patched.body);
    const second = await runProject();
    await runProject();
    const fourth = await runProject();
    const oneOff = (await s.request('POST', '/v1/visibility/runs', { key, body: { url: 'https://acme-crm.example/', target_entity: 'Acme CRM', prompts: ['best crm for agencies'], platforms: ['gemini'] } })).json();
    await s.waitForRun(key, oneOff.run_id);
    // Settling a project's run writes its tallies (a job); the one-off run has none.
    const db = s.runtime.core.store.db;
    const rolledCount = async () => (await db.selectFrom('dashboard_rollup_runs').select('run_id').execute()).length;
    for (let waited = 0; (await rolledCount()) < 8 && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    assert.equal(await rolledCount(), 8, 'the eight project runs tallied when they settled');
    // The first runs as if they had settled before tallies existed: the first read writes them.
    await db.deleteFrom('dashboard_rollups').where('run_id', 'in', first).execute();
    await db.deleteFrom('dashboard_rollup_runs').where('run_id', 'in', first).execute();
    // Spread the runs over windows: the first ones 9 days ago, the second ones 40 days ago, the
    // fourth 16 days ago (asking what the second asked: a window compared with the one before).
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', 'in', first).execute();
    await db.updateTable('visibility_runs').set({ created_at: ago(40) }).where('id', 'in', second).execute();
    await db.updateTable('visibility_runs').set({ created_at: ago(16) }).where('id', 'in', fourth).execute();

    const store = s.runtime.core.store;
    const catalog = s.runtime.core.catalog;
    const now = new Date();
    const cases: Omit<DashboardOptions, 'catalog' | 'now' | 'siteActivity'>[] = [];
    for (const window of ['7d', '30d'] as const) {
      for (const topic of [undefined, 'pricing', 'Integrations']) for (const market of [undefined, 'de-DE']) cases.push({ days: 90, window, topic, market });
    }
    cases.push({ days: 20, window: '7d' });
    let compared = 0;
    for (const round of ['writes the tallies', 'reads them back']) {
      for (const c of cases) {
        const expected = await referenceDashboard(store, accountId, p.id, { ...c, catalog, now, siteActivity: false });
        const { site_activity: _, ...actual } = await projectDashboard(store, accountId, p.id, { ...c, catalog, now, siteActivity: false });
        assert.deepEqual(actual, expected, `${round}: ${JSON.stringify(c)}`);
        compared++;
      }
    }
    assert.equal(compared, 2 * cases.length);
    const d = await projectDashboard(store, accountId, p.id, { days: 90, window: '7d', catalog, now, siteActivity: false });
    assert.ok(d.series.length >= 4, 'runs in four windows');
    assert.deepEqual(
      d.series.map((x) => x.not_comparable_reason),
      ['no_previous_window', null, 'definition_changed', 'definition_changed'],
      'the window of the fourth runs is compared with the one of the second runs, which asked the same',
    );
    assert.equal(typeof d.series[1].brand.change, 'number');
    assert.equal(d.series.at(-1)!.brand.change, null);
    assert.equal(d.series.at(-1)!.brand.previous_mention_rate, null);
    assert.deepEqual(d.series.at(-1)!.competitors.map((x) => x.name), ['HubSpot', 'Pipedrive']);
    assert.ok(d.series.some((x) => x.competitors.some((c) => c.name === 'Salesforce')), 'a name only some runs listed is pooled too');
    const rolled = await db.selectFrom('dashboard_rollup_runs').select('run_id').execute();
    assert.equal(rolled.length, 8, 'the tallies of the eight project runs, written once');
  });

  test('a run still going is tallied from its probes at each read and stored only once finished', async () => {
    const { accountId, key } = await s.account({ credits: 2000 });
    const created = await s.request('POST', '/v1/projects', {
      key,
      body: {
        url: 'https://going.example/',
        brand: { name: 'Going CRM' },
        competitors: [{ name: 'HubSpot' }],
        markets: [{ language: 'en', country: 'US' }],
        platforms: ['deepseek', 'openai'],
        repeats: 2,
        prompts: [{ prompt: 'crm that keeps going [[sandbox:mention]]', topics: ['a'] }, { prompt: 'crm that stops [[sandbox:no-mention]]', topics: ['a'] }, { prompt: 'crm for a team' }],
      },
    });
    assert.equal(created.statusCode, 200, created.body);
    const p = created.json();
    const run = (await s.request('POST', `/v1/projects/${p.id}/runs`, { key, body: {} })).json();
    const runId = run.runs[0].run_id as string;
    await s.waitForRun(key, runId, 60_000);
    const db = s.runtime.core.store.db;
    const rolled = async () => !!(await db.selectFrom('dashboard_rollup_runs').select('run_id').where('run_id', '=', runId).executeTakeFirst());
    for (let waited = 0; !(await rolled()) && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    // Put the run back in the middle of its work: its tallies gone, half its probes not answered yet.
    await db.deleteFrom('dashboard_rollups').where('run_id', '=', runId).execute();
    await db.deleteFrom('dashboard_rollup_runs').where('run_id', '=', runId).execute();
    const probes = await db.selectFrom('visibility_probes').select(['id', 'seq', 'status']).where('run_id', '=', runId).orderBy('seq').execute();
    const later = probes.filter((x) => x.seq % 2 === 1).map((x) => x.id);
    assert.ok(later.length >= 3);
    await db.updateTable('visibility_probes').set({ status: 'running' }).where('id', 'in', later).execute();

    const store = s.runtime.core.store;
    const catalog = s.runtime.core.catalog;
    const now = new Date();
    const read = async () => {
      const expected = await referenceDashboard(store, accountId, p.id, { days: 30, window: '7d', catalog, now, siteActivity: false });
      const { site_activity: _, ...actual } = await projectDashboard(store, accountId, p.id, { days: 30, window: '7d', catalog, now, siteActivity: false });
      assert.deepEqual(actual, expected);
      return actual;
    };
    const midway = await read();
    assert.equal(midway.series.at(-1)!.brand.n, probes.length - later.length, 'only the answered probes count');
    await read();
    assert.equal(await rolled(), false, 'nothing stored while probes are still running');

    // The probes finish: the next read counts them all and stores the tallies.
    await db.updateTable('visibility_probes').set({ status: 'succeeded' }).where('id', 'in', later).execute();
    const finished = await read();
    assert.equal(finished.series.at(-1)!.brand.n, probes.length);
    assert.equal(await rolled(), true, 'stored once every probe has finished');
    assert.deepEqual(await read(), finished, 'read back from the stored tallies');
  });
});
