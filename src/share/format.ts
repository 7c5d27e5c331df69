// Numbers as the report prints them, the same in the HTML page and the PDF.
import type { ShareReport } from '../core/reports/shares.ts';

export type Dashboard = ShareReport['dashboard'];

/** 0.4231 → "42%"; null → "–". */
export const pct = (rate: number | null | undefined) => (rate === null || rate === undefined ? '–' : `${Math.round(rate * 100)}%`);

/** The 95% interval as "31–54%"; null → "". */
export const interval = (ci: { low: number; high: number } | null | undefined) => (ci ? `${Math.round(ci.low * 100)}–${Math.round(ci.high * 100)}%` : '');

/** A change in percentage points: "+12 pts", "−3 pts", "" when unknown. */
export const change = (delta: number | null | undefined) =>
  delta === null || delta === undefined ? '' : `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(Math.round(delta * 100))} pts`;

/** The rates of the latest period: brand first, then each competitor. */
export function latestRates(d: Dashboard, brand: string) {
  const last = d.series.at(-1);
  if (!last) return [];
  return [
    { name: brand, brand: true, ...last.brand },
    ...last.competitors.map((c) => ({ brand: false, ...c })),
  ];
}

/**
 * The latest period's change from the one before, as the console shows it: `shown` when there is
 * a period before; `none` is what a cell without a change says (the server compares two periods
 * only when they asked the same); `note` explains a period that was not compared, else null.
 */
export function changeColumn(d: Dashboard): { shown: boolean; none: string; note: string | null } {
  const last = d.series.at(-1);
  // null: compared with the period before.
  const reason = last ? last.not_comparable_reason : 'no_previous_window';
  if (reason === 'no_previous_window') return { shown: false, none: '', note: null };
  if (reason === 'definition_changed') return { shown: true, none: 'not comparable', note: 'No change is shown: the period before asked something else (prompts, platforms, repeats, markets or competitors changed).' };
  if (reason === 'definition_mixed') return { shown: true, none: 'not comparable', note: 'No change is shown: runs in this period or the one before asked different things.' };
  return { shown: true, none: '–', note: null };
}

/** Every platform of the matrix, in first-seen order. */
export const matrixPlatforms = (d: Dashboard) => [...new Set(d.matrix.flatMap((m) => m.platforms.map((p) => p.platform)))];

/** What the report covers, in words. */
export function scopeLine(r: ShareReport): string {
  const s = r.share;
  const parts = [`${s.window === '30d' ? '30-day' : '7-day'} periods over the last ${s.days} days`];
  if (s.topic) parts.push(`topic “${s.topic}”`);
  if (s.market) parts.push(`market ${s.market}`);
  return parts.join(' · ');
}

export const periodLine = (p: { start: string; end: string } | null) => (p ? `${p.start.slice(0, 10)} to ${p.end.slice(0, 10)}` : 'no answers yet');

/** Whether the latest period has any answer (the report's "latest period" numbers rest on some). */
export const hasAnswers = (d: Dashboard) => (d.series.at(-1)?.brand.n ?? 0) > 0;

/**
 * The label of a report whose runs the sandbox engine answered, in the console's words, and what
 * it means; null when every run was asked of the real platforms. At the top of the page and the PDF.
 */
export function simulatedLine(r: ShareReport): { label: string; detail: string } | null {
  const { runs, sandbox_runs: sandbox } = r.engine;
  if (sandbox === 0) return null;
  return {
    label: 'Sandbox engine: answers are simulated',
    detail:
      sandbox === runs
        ? ', not asked of real AI platforms. These numbers show how the report works, not how AI platforms answer.'
        : ` in ${sandbox} of this report's ${runs} runs, not asked of real AI platforms. Its numbers mix simulated and real answers.`,
  };
}

/** Under a chart of a single period, as the console says it: one point is not a trend. Else null. */
export const onePeriodLine = (d: Dashboard) => (d.series.length === 1 ? 'One period so far, so no trend yet: the line starts with the next period.' : null);

/** What the "competitors named, brand not" section says when it lists no prompt (the console's wording). */
export const noGapsLine = (r: ShareReport) =>
  hasAnswers(r.dashboard) ? `No prompt in the latest period names a competitor without naming ${r.share.brand}.` : 'No answers in this period yet.';

/** What a link whose topic or market is gone says instead of the report. */
export function goneLine(share: { topic: string | null; market: string | null; projectName: string }, status: 'topic_gone' | 'market_gone'): string {
  const what = status === 'market_gone' ? `market ${share.market}` : `topic “${share.topic}”`;
  return `This report's ${what} is no longer part of the project ${share.projectName}, so the report has no data to show. Ask whoever sent the link for a new one.`;
}
