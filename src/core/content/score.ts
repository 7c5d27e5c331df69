// The content score: measured signals → named score points → components and the overall score,
// and recommendations whose gain is measured by scoring the page again with the change made.
//
// What earns points is what the GEO study (Aggarwal et al., KDD 2024: citing sources, quotations
// and statistics raised visibility in generative answers by up to 40%; keyword stuffing did not
// help) and the search engines' own guidance (Google's "helpful, reliable, people-first content":
// clear authorship, dates, sourcing) say matters. Word count earns nothing: no engine publishes a
// length preference, and padding a page to a length dilutes the passages an assistant quotes.
//
// The one thing to know: every point of the overall score is one entry of `score_breakdown`
// (signal, component, points, max, evidence), so the overall score is the rounded sum of the
// entries; each page type has its own weights (0 = the signal does not apply, so a shop's
// product page is never told to add an author byline). A recommendation's `expected_impact` is
// the overall score of the page with its signal fixed minus the score now.
//
// The rule tables (rewards, penalties, weights per page type, the schema each type should declare)
// are in score-rules.ts and the recommendations' text in score-advice.ts; this module applies them
// and does no I/O: a PageDocument in, a ContentScore out.
import type { PageDocument } from '../pages/document.ts';
import { bandOf, clampScore } from './bands.ts';
import { isVagueWord } from './questions.ts';
import { ADVICE, q, type RuleContext } from './score-advice.ts';
import { ACTIONS, BLOCKED_CAP, PENALTIES, REWARDS, w, type ScoreFacts } from './score-rules.ts';
import { isGenericTitle, measureSignals, stripSiteName } from './signals.ts';
import { normalizeLang, type Lang } from './text.ts';
import { cap, fieldTopics, suppliedTopics, topicAdvice, type FieldTopic } from './trends.ts';
import type { Component, ContentScore, CrawlFacts, Priority, Recommendation, ScorePoint, TrendCoverage } from './types.ts';

export type { Component, ScoreFacts, ScorePoint };
export { BLOCKED_CAP, EXPECTED_SCHEMA, PENALTIES, REWARDS } from './score-rules.ts';

export interface ScoreExtras {
  /** Response headers of the page (Last-Modified is a weak freshness fallback; X-Robots-Tag). */
  headers?: Record<string, string>;
  /** Clock for freshness; defaults to the current time. */
  now?: Date;
  language?: string | null;
  /** Trends to measure coverage of. Strings or {name}. Without them, the page's own topics are used. */
  trends?: (string | { name: string })[] | null;
  trendSource?: 'supplied' | 'discovered';
  /** Same-site pages that define the page's field (used when trends are not supplied). */
  related?: PageDocument[];
  /** Crawl access (robots.txt, page directives): blocked search crawlers cap the overall score. */
  crawl?: CrawlFacts | null;
  /** false: the HTML was supplied, not fetched, so crawler access is unknown (components.access null, not a pass). */
  liveSite?: boolean;
}

export interface Tally {
  overall: number;
  /** The unrounded sum of the points (after the cap): gains are measured on it. */
  sum: number;
  points: ScorePoint[];
  components: Record<Component, number>;
}

/** Named points of one set of facts. Pure: the same facts always give the same points. */
export function tally(f: ScoreFacts): Tally {
  const type = f.s.page_type;
  const applicable = REWARDS.filter((r) => w(type, r.weights) > 0);
  const total = applicable.reduce((a, r) => a + w(type, r.weights), 0);
  const scale = 100 / total;
  const round1 = (n: number) => Math.round(n * 10) / 10;
  const points: ScorePoint[] = [];
  for (const r of applicable) {
    const max = round1(w(type, r.weights) * scale);
    points.push({ signal: r.signal, component: r.component, label: r.label, points: round1(max * Math.max(0, Math.min(1, r.value(f)))), max, evidence: r.evidence(f) });
  }
  for (const p of PENALTIES) {
    const weight = w(type, p.weights);
    const sev = weight ? p.severity(f) : 0;
    if (sev > 0) points.push({ signal: p.signal, component: p.component, label: p.label, points: -round1(weight * sev), max: 0, evidence: p.evidence(f) });
  }
  let sum = points.reduce((a, p) => a + p.points, 0);
  const c = f.crawl;
  // Internal search results and archives are meant to be noindex (Google's own advice): no cap.
  const noindex = c && type !== 'listing' ? c.noindex : [];
  if (c && (c.blocked_search.length || noindex.length)) {
    const why = [
      c.blocked_search.length ? `robots.txt blocks ${c.blocked_search.join(', ')}` : '',
      noindex.length ? `noindex for ${noindex.join(', ')}` : '',
    ].filter(Boolean).join('; ');
    const cut = round1(Math.min(0, BLOCKED_CAP - sum));
    points.push({ signal: 'crawl_access', component: 'access', label: `Search and user-triggered AI crawlers can read the page (else at most ${BLOCKED_CAP})`, points: cut, max: 0, evidence: `${why}: assistants that search the web cannot fetch or index it.` });
    sum += cut;
  }
  const components = {} as Record<Component, number>;
  for (const comp of ['citability', 'structure', 'trust', 'freshness', 'metadata', 'depth', 'access'] as Component[]) {
    const mine = points.filter((p) => p.component === comp);
    const max = mine.reduce((a, p) => a + p.max, 0);
    const got = mine.reduce((a, p) => a + p.points, 0);
    // A component with nothing to earn on this page type (access always) is full unless penalised.
    components[comp] = clampScore(max > 0 ? (100 * got) / max : 100 + got * 3);
  }
  return { overall: clampScore(sum), sum: Math.max(0, Math.min(100, sum)), points, components };
}

function clone(f: ScoreFacts): ScoreFacts {
  return structuredClone(f);
}

function priorityOf(impact: number): Priority {
  return impact >= 8 ? 'high' : impact >= 4 ? 'medium' : 'low';
}

interface Fix {
  signal: string;
  component: Component;
  apply(f: ScoreFacts): void;
}

/** Each action that would raise the score, with the gain measured by scoring the fixed facts. */
function recommend(f: ScoreFacts, now: Tally, ctx: RuleContext, coverage: TrendCoverage[]): Recommendation[] {
  const out: (Recommendation & { order: number })[] = [];
  const push = (fixes: Fix[], order: number, title?: string, text?: string) => {
    const fixed = clone(f);
    for (const x of fixes) x.apply(fixed);
    const { signal, component } = fixes[0]!;
    // Measured on the unrounded sums, so a fix worth 0.8 points is +1, not lost to rounding.
    const gain = Math.round(tally(fixed).sum - now.sum);
    // Blocked crawlers are always reported: below the cap the gain is 0 today, but the cap
    // keeps every other fix from counting until they are let in.
    if (gain <= 0 && signal !== 'crawl_access') return;
    const advice = ADVICE[signal]!;
    const also = new Set(fixes.slice(1).map((x) => x.signal));
    out.push({
      priority: signal === 'crawl_access' ? 'high' : priorityOf(gain),
      title: title ?? (typeof advice.title === 'string' ? advice.title : advice.title(ctx, also)),
      recommendation: text ?? advice.text(ctx, also),
      expected_impact: gain,
      signal,
      signals: fixes.map((x) => x.signal),
      component,
      order,
    });
  };
  const fixes: Fix[] = [];
  if (now.points.some((p) => p.signal === 'crawl_access')) {
    fixes.push({ signal: 'crawl_access', component: 'access', apply: (x) => ((x.crawl!.blocked_search = []), (x.crawl!.noindex = [])) });
  }
  for (const p of PENALTIES) if (now.points.some((x) => x.signal === p.signal)) fixes.push({ signal: p.signal, component: p.component, apply: p.fix });
  for (const r of REWARDS) {
    const point = now.points.find((x) => x.signal === r.signal);
    if (point && point.points < point.max && r.signal !== 'trend_coverage') fixes.push({ signal: r.signal, component: r.component, apply: r.fix });
  }
  // One recommendation per action: a signal joins the first fix of its group.
  const actions: Fix[][] = [];
  for (const x of fixes) {
    const group = ACTIONS.find((g) => g.includes(x.signal));
    const joined = group && actions.find((a) => group.includes(a[0]!.signal));
    if (joined) joined.push(x);
    else actions.push([x]);
  }
  actions.forEach((a, i) => push(a, i));
  coverage.forEach((cv, i) => {
    if (cv.coverage >= 40) return;
    push([{ signal: 'trend_gap', component: 'depth', apply: (x) => void (x.coverage[i] = 100) }], 100 + i, `Cover "${cv.trend}"`, cv.action);
  });
  out.sort((a, b) => b.expected_impact - a.expected_impact || a.order - b.order);
  return out.map(({ order: _o, ...r }) => r);
}

/**
 * What the summary says the page is about: its leading keyphrase, unless that is a lone everyday
 * word ("tool"), where the title says it better ("project management tips").
 */
function summaryTopic(topic: string, doc: PageDocument, lang: Lang): string {
  // Capitalised words are lowered, acronyms and mixed-case names kept: "CRM for accounting
  // firms", not "crm for accounting firms".
  const title = doc.title && !isGenericTitle(doc.title) ? stripSiteName(doc.title).trim().replace(/[\p{L}\p{N}'’-]+/gu, (w) => (/^\p{Lu}\p{Ll}*$/u.test(w) ? w.toLowerCase() : w)) : '';
  return isVagueWord(topic, lang) && title ? title : topic;
}

/** A title inside a sentence: "Cover "API token"" → "cover "API token""; only its first letter
 * is lowered, so acronyms and trend names keep their case. */
function lowerFirst(title: string): string {
  return /^[A-Z][a-z]/.test(title) ? title[0]!.toLowerCase() + title.slice(1) : title;
}

export function scoreDocument(doc: PageDocument, extras: ScoreExtras = {}): ContentScore {
  const s = measureSignals(doc, { headers: extras.headers, now: extras.now, language: extras.language });
  const lang = s.language;
  const topic = s.keyphrases[0]?.phrase ?? (doc.title && !isGenericTitle(doc.title) ? stripSiteName(doc.title).toLowerCase() : 'this topic');

  // --- trend coverage
  const supplied = extras.trends && extras.trends.length ? suppliedTopics(extras.trends, lang) : null;
  const topics: FieldTopic[] = supplied ?? fieldTopics({ page: doc, related: extras.related ?? [] }, lang, 5);
  const related = supplied ? [] : extras.related ?? [];
  // Worded as discover_trends words them (topicAdvice); a supplied trend is not the main topic.
  const coverage: TrendCoverage[] = topicAdvice(doc, related, topics, lang, { main: !supplied, asked: normalizeLang(doc.language) === lang }).map((a) => a.coverage);

  const crawl = extras.crawl ?? null;
  const live = extras.liveSite !== false;
  const facts: ScoreFacts = { s, coverage: coverage.map((c) => c.coverage), crawl };
  const t = tally(facts);
  const overall = t.overall;
  const ctx: RuleContext = { s, doc, topic, lang, crawl };
  const recommendations = recommend(facts, t, ctx, coverage);

  const notesOf = (comp: Component) => t.points.filter((p) => p.component === comp).map((p) => `${p.label}: ${p.points}/${p.max} (${p.evidence})`);
  // The depth component ("sufficiency"): is what the page says enough to answer from? Structure,
  // evidence and topic coverage, never length.
  const depthParts = t.points.filter((p) => ['depth', 'structure', 'citability'].includes(p.component));
  const depthMax = depthParts.reduce((a, p) => a + p.max, 0);
  const depth = clampScore(depthMax ? (100 * depthParts.reduce((a, p) => a + p.points, 0)) / depthMax : 0);
  const fresh = t.components.freshness;

  const parts: [string, number][] = [
    ['citability', t.components.citability],
    ['structure', t.components.structure],
    ['trust', t.components.trust],
    ['freshness', fresh],
    ['metadata', t.components.metadata],
    ['trend coverage', t.components.depth],
    // Last, so a tie goes to a component the page's content earned; named as the console names it.
    // Left out for supplied HTML: nothing checked the live site, so it is neither strong nor weak.
    ...(live ? [['crawler access', t.components.access] as [string, number]] : []),
  ];
  const best = [...parts].sort((a, b) => b[1] - a[1])[0]!;
  const worst = [...parts].sort((a, b) => a[1] - b[1])[0]!;
  const summary =
    `${bandOf(overall)} (${overall}/100) ${s.page_type} page about ${q(summaryTopic(topic, doc, lang))}. ` +
    `Strongest: ${best[0]} (${best[1]}); weakest: ${worst[0]} (${worst[1]}). ` +
    (recommendations.length
      ? `${recommendations.length} recommendations; first: ${lowerFirst(recommendations[0]!.title)} (+${recommendations[0]!.expected_impact} ${recommendations[0]!.expected_impact === 1 ? 'point' : 'points'}).`
      : 'No recommendations.');

  return {
    url: doc.url,
    title: doc.title,
    page_type: s.page_type,
    trend_source: extras.trendSource ?? (supplied ? 'supplied' : 'discovered'),
    overall_score: overall,
    overall_band: bandOf(overall),
    overall: { score: overall, band: bandOf(overall), summary },
    content_depth: { score: depth, band: bandOf(depth), notes: [...notesOf('citability'), ...notesOf('structure'), ...notesOf('depth')] },
    content_freshness: { score: fresh, band: bandOf(fresh), notes: notesOf('freshness') },
    sufficiency_score: depth,
    sufficiency_band: bandOf(depth),
    freshness_score: fresh,
    freshness_band: bandOf(fresh),
    trend_coverage: coverage,
    recommendations,
    top_recommendations: recommendations.slice(0, 3).map((r) => r.recommendation),
    signals: s,
    score_breakdown: t.points,
    crawl_access: crawl,
    components: {
      depth,
      freshness: fresh,
      structure: t.components.structure,
      citability: t.components.citability,
      metadata: t.components.metadata,
      trend_coverage: t.components.depth,
      trust: t.components.trust,
      access: live ? t.components.access : null,
    },
    generator: 'offline',
  };
}

export { normalizeLang, cap };
