// The report's line chart as geometry: mention rate (0–100%) per period for the brand and each
// competitor, the brand's 95% interval as a band, axis ticks and labels, and a dashed line where
// what the runs asked changed (lines and the band stop there, as on the console's charts). The HTML page draws it
// as inline SVG and the PDF as vector paths, from the same numbers, so both show the same chart.
import type { ShareReport } from '../core/reports/shares.ts';

export const PALETTE = ['#1d4ed8', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#475569', '#9333ea'];

export interface ChartLine {
  name: string;
  color: string;
  brand: boolean;
  /** One point per period with a rate; a period without answers leaves a gap (null). */
  points: (ChartPoint | null)[];
}

export interface ChartPoint {
  x: number;
  y: number;
  thin: boolean;
  /**
   * 0: an ordinary marker. k > 0: this point falls on k points of lines before it (the brand's
   * first) in the same period, so it is drawn as a ring of radius ringRadius(k) around them:
   * a competitor at the brand's rate shows as a ring around the brand's marker, never hidden.
   */
  ring: number;
}

/** Points closer than this (in the chart's units) would hide each other. */
const NEAR = 3;

/** The radius of a point's ring around a marker of radius `marker` (the brand's). */
export const ringRadius = (ring: number, marker: number) => marker + 2.5 * ring;

export interface Chart {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  lines: ChartLine[];
  /** The brand's interval as a closed polygon (upper edge left to right, lower edge back), per run of periods with a rate. */
  bands: [number, number][][];
  yTicks: { y: number; label: string }[];
  xLabels: { x: number; label: string }[];
  /**
   * Period indexes where what the runs asked (the window's definition_id; null: a window mixing
   * several) differs from the period before: lines and the band do not join across one.
   */
  cuts: number[];
  /** Where each cut is drawn: halfway between its period and the one before. */
  breaks: number[];
}

type Rate = { mention_rate: number | null; mention_rate_ci: { low: number; high: number } | null; thin: boolean };
type Period = { end: string; definition_id?: string | null; brand: Rate; competitors: (Rate & { name: string })[] };

/**
 * The periods after which what was asked changed, by the console's rule (tests.js,
 * definitionSets): nothing when every period names one and the same definition; otherwise each
 * period is its definition or "mixed", and a change between neighbours is a cut.
 */
function definitionCuts(series: readonly Period[]): number[] {
  const ids = new Set(series.map((p) => p.definition_id).filter(Boolean));
  if (ids.size < 2 && series.every((p) => p.definition_id)) return [];
  const label = (p: Period) => p.definition_id || 'mixed';
  const cuts: number[] = [];
  for (let i = 1; i < series.length; i++) if (label(series[i - 1]!) !== label(series[i]!)) cuts.push(i);
  return cuts;
}

const shortDate = (iso: string) => iso.slice(5, 10);

export function buildChart(report: ShareReport, width: number, height: number, maxLabels = 8): Chart {
  const series = report.dashboard.series as unknown as Period[];
  const plot = { left: 44, top: 12, right: width - 24, bottom: height - 28 };
  const count = series.length;
  const xOf = (i: number) => (count <= 1 ? (plot.left + plot.right) / 2 : plot.left + ((plot.right - plot.left) * i) / (count - 1));
  const yOf = (rate: number) => plot.bottom - (plot.bottom - plot.top) * Math.min(1, Math.max(0, rate));
  const point = (i: number, r: Rate | undefined): ChartPoint | null => (r && r.mention_rate !== null ? { x: xOf(i), y: yOf(r.mention_rate), thin: r.thin, ring: 0 } : null);

  const names = [...new Set(series.flatMap((p) => p.competitors.map((c) => c.name)))];
  const lines: ChartLine[] = [
    { name: report.share.brand, color: PALETTE[0]!, brand: true, points: series.map((p, i) => point(i, p.brand)) },
    ...names.map((name, k) => ({
      name,
      color: PALETTE[(k + 1) % PALETTE.length]!,
      brand: false,
      points: series.map((p, i) => point(i, p.competitors.find((c) => c.name === name))),
    })),
  ];

  // Points of one period that would cover each other: each later one becomes a ring around them.
  series.forEach((_, i) => {
    const placed: number[] = [];
    for (const line of lines) {
      const p = line.points[i];
      if (!p) continue;
      p.ring = placed.filter((y) => Math.abs(y - p.y) < NEAR).length;
      placed.push(p.y);
    }
  });

  const cuts = definitionCuts(series);
  const bands: [number, number][][] = [];
  let upper: [number, number][] = [];
  let lower: [number, number][] = [];
  const flush = () => {
    if (upper.length) bands.push([...upper, ...lower.reverse()]);
    upper = [];
    lower = [];
  };
  series.forEach((p, i) => {
    if (cuts.includes(i)) flush();
    const ci = p.brand.mention_rate_ci;
    if (!ci) return flush();
    // A single period still gets a visible band: a few points wide.
    const dx = count <= 1 ? 6 : 0;
    upper.push([xOf(i) - dx, yOf(ci.high)]);
    lower.push([xOf(i) - dx, yOf(ci.low)]);
    if (dx) {
      upper.push([xOf(i) + dx, yOf(ci.high)]);
      lower.push([xOf(i) + dx, yOf(ci.low)]);
    }
  });
  flush();

  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((v) => ({ y: yOf(v), label: `${Math.round(v * 100)}%` }));
  // At most about maxLabels date labels (eight; fewer on a phone's narrow chart), always the last one.
  const step = Math.max(1, Math.ceil(count / maxLabels));
  const xLabels = series.map((p, i) => ({ i, x: xOf(i), label: shortDate(p.end) })).filter(({ i }) => i % step === 0 || i === count - 1).map(({ x, label }) => ({ x, label }));
  const breaks = cuts.map((i) => (xOf(i - 1) + xOf(i)) / 2);
  return { width, height, plot, lines, bands, yTicks, xLabels, cuts, breaks };
}

/** The runs of consecutive points of a line: gaps split it, and so does a change of what was asked (cuts). */
export function segments(line: ChartLine, cuts: readonly number[] = []): ChartPoint[][] {
  const out: ChartPoint[][] = [];
  let run: ChartPoint[] = [];
  line.points.forEach((p, i) => {
    if ((!p || cuts.includes(i)) && run.length) {
      out.push(run);
      run = [];
    }
    if (p) run.push(p);
  });
  if (run.length) out.push(run);
  return out;
}
