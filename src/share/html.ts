// The shared report as one server-rendered HTML page: no script, one inline style sheet (allowed
// by its hash in the page's Content-Security-Policy), the chart as inline SVG, and print rules
// (A4, sections kept whole, the matrix on a page of its own) so printing the page gives the PDF's
// layout too.
import { createHash } from 'node:crypto';
import type { ShareReport } from '../core/reports/shares.ts';
import { platformName } from '../platforms/names.ts';
import { buildChart, type ChartLine, type ChartPoint, PALETTE, ringRadius, segments } from './chart.ts';
import { change, changeColumn, goneLine, interval, latestRates, matrixPlatforms, noGapsLine, onePeriodLine, pct, periodLine, scopeLine, simulatedLine } from './format.ts';
import type { OpenShare } from '../core/reports/shares.ts';

/** The radius of the brand's markers; a competitor at the brand's rate rings it. */
const BRAND_R = 3.5;

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Legend swatches take their colour from a class: a style attribute would need 'unsafe-inline'.
const CSS = `${PALETTE.map((c, i) => `.c${i}{background:${c}}`).join('')}
.sw.band{height:10px;opacity:.25}
.sw.asked{width:0;height:12px;border-left:1px dashed #6b7280;margin:0 10px 0 6px}
:root{color-scheme:light;--ink:#111827;--muted:#6b7280;--line:#e5e7eb;--thin:#9ca3af;--brand:#1d4ed8}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink);background:#fff}
main{max-width:1040px;margin:0 auto;padding:32px 24px 48px}
header{border-bottom:2px solid var(--ink);padding-bottom:12px;margin-bottom:20px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px}
.meta{color:var(--muted);margin:2px 0}
.actions{margin-top:8px}.actions a{color:var(--brand)}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:baseline}
th{font-weight:600;font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
td.num,th.num{text-align:right;white-space:nowrap}
tr.brand td{font-weight:600}
.thin{color:var(--thin)}
.tag{display:inline-block;font-size:11px;border:1px solid var(--thin);color:var(--muted);border-radius:3px;padding:0 4px;margin-left:4px;font-weight:400}
.ci{color:var(--muted);font-size:12px}
.chart{width:100%;height:auto;max-width:960px}.chart.narrow{display:none}
.wrap{overflow-x:auto}
.legend{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px}
.sw{display:inline-block;width:14px;height:3px;vertical-align:middle;margin-right:6px}
.matrix td.cell{text-align:right;white-space:nowrap}
.note{color:var(--muted);font-size:12px;margin-top:24px}.one-period{color:var(--muted);font-size:13px}
.empty{color:var(--muted);font-style:italic}
.sim{margin:10px 0 0;padding:8px 12px;border:1px solid #d97706;border-left-width:4px;background:#fffbeb;color:#78350f;border-radius:3px}
section{break-inside:avoid}
@media screen and (max-width:600px){
  main{padding:20px 14px 36px}
  h1{font-size:22px}
  .chart.wide{display:none}.chart.narrow{display:block}
  th,td{padding:5px 4px}
  th{text-transform:none;letter-spacing:0}
  th.num{white-space:normal}
  .matrix thead{display:none}
  .matrix,.matrix tbody,.matrix tr,.matrix td{display:block;width:100%}
  .matrix tr{border-bottom:1px solid var(--line);padding:8px 0}
  .matrix td{border:0;padding:1px 0}
  .matrix td:first-child{font-weight:600;padding-bottom:4px}
  .matrix td.cell{display:flex;justify-content:space-between;gap:12px;text-align:right}
  .matrix td.cell::before{content:attr(data-label);color:var(--muted);text-align:left}
  td.num .ci{white-space:nowrap}
}
@media print{
  @page{size:A4;margin:14mm}
  body{font-size:10.5pt}
  main{max-width:none;padding:0}
  .actions{display:none}
  section{break-inside:avoid;page-break-inside:avoid}
  section.matrix{break-before:page;page-break-before:always;break-inside:auto;page-break-inside:auto}
  thead{display:table-header-group}
  tr{break-inside:avoid;page-break-inside:avoid}
  a{color:inherit;text-decoration:none}
}
`;

/** The page's Content-Security-Policy: nothing but its own inline style sheet. */
export const SHARE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');


/**
 * The chart twice: drawn 960 wide for a screen or paper, and 360 wide for a phone (its labels
 * stay about 11 px there, where the wide one scaled down would print them at 4 px); the style
 * sheet shows one of them, so the page still runs no script.
 */
function chartSvg(report: ShareReport): string {
  if (report.dashboard.series.length === 0) return '<p class="empty">No answers in this period yet.</p>';
  const wide = buildChart(report, 960, 300);
  return `${chartOne(wide, 'wide', 11)}${chartOne(buildChart(report, 360, 240, 4), 'narrow', 12)}${legend(wide)}`;
}

function chartOne(chart: ReturnType<typeof buildChart>, kind: string, font: number): string {
  const f = (n: number) => n.toFixed(1);
  const parts: string[] = [];
  parts.push(`<svg class="chart ${kind}" viewBox="0 0 ${chart.width} ${chart.height}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Mention rate per period">`);
  for (const t of chart.yTicks) {
    parts.push(`<line x1="${chart.plot.left}" x2="${chart.plot.right}" y1="${f(t.y)}" y2="${f(t.y)}" stroke="#e5e7eb" stroke-width="1"/>`);
    parts.push(`<text x="${chart.plot.left - 6}" y="${f(t.y + 4)}" text-anchor="end" font-size="${font}" fill="#6b7280">${t.label}</text>`);
  }
  for (const l of chart.xLabels) parts.push(`<text x="${f(l.x)}" y="${chart.height - 8}" text-anchor="middle" font-size="${font}" fill="#6b7280">${esc(l.label)}</text>`);
  // Where what was asked changed: a dashed line, and the lines stop on either side of it.
  for (const x of chart.breaks) parts.push(`<line x1="${f(x)}" x2="${f(x)}" y1="${chart.plot.top}" y2="${chart.plot.bottom}" stroke="#6b7280" stroke-width="1" stroke-dasharray="4 3"/>`);
  for (const band of chart.bands) parts.push(`<polygon points="${band.map(([x, y]) => `${f(x)},${f(y)}`).join(' ')}" fill="${chart.lines[0]!.color}" fill-opacity="0.12" stroke="none"/>`);
  // The brand's line first and widest, the competitors' over it (a line on the brand's shows as a
  // stripe in it), the brand's markers last: a competitor's point on the brand's (or on another
  // competitor's) is a ring around it (chart.ts), so no point hides another.
  const brand = chart.lines[0]!;
  const polyline = (seg: ChartPoint[], color: string, width: number) =>
    seg.length > 1 ? `<polyline points="${seg.map((p) => `${f(p.x)},${f(p.y)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linejoin="round"/>` : '';
  // A thin rate is an open marker (a dashed ring), a solid one filled.
  const marker = (p: ChartPoint, line: ChartLine) =>
    p.ring
      ? `<circle cx="${f(p.x)}" cy="${f(p.y)}" r="${f(ringRadius(p.ring, BRAND_R))}" fill="none" stroke="${line.color}" stroke-width="1.5"${p.thin ? ' stroke-dasharray="2 1.5"' : ''}><title>${esc(line.name)}</title></circle>`
      : `<circle cx="${f(p.x)}" cy="${f(p.y)}" r="${line.brand ? BRAND_R : 2.5}" fill="${p.thin ? '#fff' : line.color}" stroke="${line.color}" stroke-width="1.5"><title>${esc(line.name)}</title></circle>`;
  for (const seg of segments(brand, chart.cuts)) parts.push(polyline(seg, brand.color, 3));
  for (const line of chart.lines.slice(1)) for (const seg of segments(line, chart.cuts)) parts.push(polyline(seg, line.color, 1.5), ...seg.map((p) => marker(p, line)));
  for (const seg of segments(brand, chart.cuts)) parts.push(...seg.map((p) => marker(p, brand)));
  parts.push('</svg>');
  return parts.join('');
}

const legend = (chart: ReturnType<typeof buildChart>) =>
  `<ul class="legend">${chart.lines.map((l, i) => `<li><span class="sw c${i % PALETTE.length}"></span>${esc(l.name)}</li>`).join('')}${chart.bands.length ? `<li><span class="sw c0 band"></span>${esc(chart.lines[0]!.name)}: 95% interval</li>` : ''}${chart.breaks.length ? `<li><span class="sw asked"></span>what was asked changed (prompts, platforms, repeats, markets or competitors): the numbers either side are not comparable</li>` : ''}</ul>`;

const thinTag = (thin: boolean) => (thin ? '<span class="tag">thin</span>' : '');

function ratesTable(report: ShareReport): string {
  const rows = latestRates(report.dashboard, report.share.brand);
  if (!rows.length) return '<p class="empty">No answers in this period yet.</p>';
  // The change from the period before, where the server compared the two (they asked the same).
  const ch = changeColumn(report.dashboard);
  const changeCell = (r: (typeof rows)[number]) => (ch.shown ? `<td class="num" data-change>${esc(change(r.change) || ch.none)}</td>` : '');
  return `<div class="wrap"><table><thead><tr><th>Name</th><th class="num">Mention rate</th>${ch.shown ? '<th class="num">Change</th>' : ''}<th class="num">95% interval</th><th class="num">n</th><th class="num">Share of voice</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr class="${r.brand ? 'brand' : ''}${r.thin ? ' thin' : ''}"><td>${esc(r.name)}${r.brand ? ' <span class="tag">brand</span>' : ''}${thinTag(r.thin)}</td><td class="num">${pct(r.mention_rate)}</td>${changeCell(r)}<td class="num ci">${interval(r.mention_rate_ci)}</td><td class="num">${r.n}</td><td class="num">${pct(r.share_of_voice as number | null)}</td></tr>`,
    )
    .join('')}</tbody></table></div>${ch.note ? `<p class="one-period">${esc(ch.note)}</p>` : ''}`;
}

function matrixTable(report: ShareReport): string {
  const d = report.dashboard;
  if (!d.matrix.length) return '<p class="empty">No prompts.</p>';
  const platforms = matrixPlatforms(d);
  const head = `<tr><th>Prompt</th><th class="num">All</th><th class="num">Change</th>${platforms.map((p) => `<th class="num">${esc(platformName(p))}</th>`).join('')}</tr>`;
  const body = d.matrix
    .map((m) => {
      const cells = platforms.map((name) => {
        const c = m.platforms.find((x) => x.platform === name);
        const label = esc(platformName(name));
        return c ? `<td class="cell${c.thin ? ' thin' : ''}" data-label="${label}"><span>${pct(c.mention_rate)} <span class="ci">n=${c.n}</span></span></td>` : `<td class="cell thin" data-label="${label}">–</td>`;
      });
      return `<tr><td>${esc(m.prompt)}${m.topics.length ? ` <span class="ci">${esc(m.topics.join(', '))}</span>` : ''}</td><td class="cell${m.thin ? ' thin' : ''}" data-label="All platforms"><span>${pct(m.mention_rate)} <span class="ci">n=${m.n}</span></span></td><td class="cell" data-label="Change">${change(m.change) || '–'}</td>${cells.join('')}</tr>`;
    })
    .join('');
  return `<div class="wrap"><table class="matrix"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

function topicsTable(report: ShareReport): string {
  const t = report.dashboard.topics;
  if (!t.length) return '<p class="empty">No topics.</p>';
  return `<div class="wrap"><table><thead><tr><th>Topic</th><th class="num">Prompts</th><th class="num">Mention rate</th><th class="num">95% interval</th><th class="num">n</th></tr></thead><tbody>${t
    .map(
      (x) =>
        `<tr class="${x.thin ? 'thin' : ''}"><td>${esc(x.topic)}${thinTag(x.thin)}</td><td class="num">${x.prompts}</td><td class="num">${pct(x.mention_rate)}</td><td class="num ci">${interval(x.mention_rate_ci)}</td><td class="num">${x.n}</td></tr>`,
    )
    .join('')}</tbody></table></div>`;
}

function gapsList(report: ShareReport): string {
  const g = report.dashboard.competitors_named_brand_absent;
  if (!g.length) return `<p class="empty">${esc(noGapsLine(report))}</p>`;
  return `<div class="wrap"><table><thead><tr><th>Prompt</th><th>Competitors named</th><th class="num">n</th></tr></thead><tbody>${g
    .map(
      (x) =>
        `<tr class="${x.thin ? 'thin' : ''}"><td>${esc(x.prompt)}${thinTag(x.thin)}</td><td>${x.competitors.map((c) => `${esc(c.name)} ${pct(c.mention_rate)}`).join(', ')}</td><td class="num">${x.n}</td></tr>`,
    )
    .join('')}</tbody></table></div>`;
}

export function reportHtml(report: ShareReport, token: string): string {
  const d = report.dashboard;
  const s = report.share;
  const title = `${s.projectName}: AI visibility report`;
  const simulated = simulatedLine(report);
  const one = onePeriodLine(d);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer">
<title>${esc(title)}</title><style>${CSS}</style></head>
<body><main>
<header><h1>${esc(s.projectName)}</h1>
<p class="meta">How often AI answers name <strong>${esc(s.brand)}</strong> and its competitors · ${esc(s.url)}</p>
<p class="meta">${esc(scopeLine(report))} · latest period ${esc(periodLine(d.latest_period))}</p>
<p class="meta">Generated ${esc(report.generatedAt.replace('T', ' ').replace('Z', ' UTC'))} · this link works until ${esc(s.expiresAt.slice(0, 10))}</p>
${simulated ? `<p class="sim" role="note" data-engine="sandbox"><strong>${esc(simulated.label)}</strong>${esc(simulated.detail)}</p>` : ''}
<p class="actions"><a href="./${esc(token)}/report.pdf" rel="noreferrer">Download as PDF</a></p></header>
<section><h2>Mention rate, latest period</h2>${ratesTable(report)}</section>
<section><h2>Mention rate over time</h2>${chartSvg(report)}${one ? `<p class="one-period">${esc(one)}</p>` : ''}</section>
<section><h2>Topics</h2>${topicsTable(report)}</section>
<section><h2>Prompts where competitors are named and the brand is not</h2>${gapsList(report)}</section>
<section class="matrix"><h2>Prompt × platform, latest period</h2>${matrixTable(report)}</section>
<p class="note">n is the number of answers a rate rests on. A rate marked <span class="tag">thin</span> (grey; an open marker in the chart) rests on fewer than ${d.thin_evidence.min_answers} answers or has a 95% interval wider than ±${Math.round(d.thin_evidence.max_half_width * 100)} points: too little to act on. A ring around a point in the chart is another name at the same rate. Read-only report made by sightline.</p>
</main></body></html>`;
}

/** The page of a link whose topic or market is no longer the project's: said plainly, never an empty report. */
export function goneHtml(share: OpenShare, status: 'topic_gone' | 'market_gone'): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><title>${esc(share.projectName)}: report no longer available</title><style>${CSS}</style></head><body><main><h1>${esc(share.projectName)}</h1><p class="meta">This report is no longer available.</p><p>${esc(goneLine(share, status))}</p></main></body></html>`;
}

/** The page every unknown, expired or revoked link gets (and a malformed one). */
export function notFoundHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow"><title>Report not found</title><style>${CSS}</style></head><body><main><h1>Report not found</h1><p class="meta">This link does not exist, has expired or was revoked. Ask whoever sent it for a new one.</p></main></body></html>`;
}

export function tooManyHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex,nofollow"><title>Too many requests</title><style>${CSS}</style></head><body><main><h1>Too many requests</h1><p class="meta">Too many report requests from this address; wait a minute.</p></main></body></html>`;
}
