// The shared report as a PDF, made in-process with pdfkit (no browser): A4 pages with the same
// sections as the HTML page, the chart drawn as vector paths from the same geometry (chart.ts),
// tables that carry their header onto the next page, the matrix on a page of its own. The text
// is set in DejaVu Sans Condensed, embedded (subset) from the dejavu-fonts-ttf package: it covers
// the Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic scripts, so a Polish, Turkish,
// Czech or Russian brand prints as written. A character the font lacks (Chinese, Japanese,
// Korean, Thai) is printed as "?" rather than as an empty box; the HTML report shows every script.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ShareReport } from '../core/reports/shares.ts';
import { buildChart, type ChartLine, type ChartPoint, ringRadius, segments } from './chart.ts';
import { platformName } from '../platforms/names.ts';
import { change, changeColumn, interval, latestRates, matrixPlatforms, noGapsLine, onePeriodLine, pct, periodLine, scopeLine, simulatedLine } from './format.ts';

type Doc = PDFKit.PDFDocument;

const MARGIN = 40;
const INK = '#111827';
const MUTED = '#6b7280';
const THIN = '#9ca3af';
const LINE = '#e5e7eb';
/** The radius of the brand's markers in the chart; a competitor at the brand's rate rings it. */
const BRAND_R = 2.8;

const FONT_FILES = { Body: 'DejaVuSansCondensed.ttf', Bold: 'DejaVuSansCondensed-Bold.ttf', Oblique: 'DejaVuSansCondensed-Oblique.ttf' } as const;
type FontName = keyof typeof FONT_FILES;
let fonts: { files: Record<FontName, Buffer>; covers: (codePoint: number) => boolean } | undefined;

/**
 * The embedded fonts' files (read once) and whether they have a glyph for a character. fontkit is
 * imported with the first PDF, as pdfkit is, not with the server: it cost every process that
 * builds the app about 0.16 s of CPU at start.
 */
async function loadFonts() {
  if (fonts) return fonts;
  const fontkit = await import('fontkit');
  const require = createRequire(import.meta.url);
  const read = (file: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  const files = { Body: read(FONT_FILES.Body), Bold: read(FONT_FILES.Bold), Oblique: read(FONT_FILES.Oblique) };
  const faces = Object.values(files).map((f) => fontkit.create(f));
  const known = new Map<number, boolean>();
  const covers = (cp: number) => {
    let yes = known.get(cp);
    if (yes === undefined) known.set(cp, (yes = faces.every((face) => face.hasGlyphForCodePoint(cp))));
    return yes;
  };
  fonts = { files, covers };
  return fonts;
}

/** The text with every character the fonts cannot draw replaced by "?" (line breaks kept). */
function printable(s: string): string {
  // reportPdf loaded the fonts before it prints anything.
  const { covers } = fonts!;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out += cp === 0x0a || covers(cp) ? ch : '?';
  }
  return out;
}

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

interface Row {
  cells: string[];
  thin?: boolean;
  bold?: boolean;
}

function bottom(doc: Doc) {
  return doc.page.height - MARGIN;
}

function heading(doc: Doc, text: string) {
  if (doc.y + 60 > bottom(doc)) doc.addPage();
  doc.moveDown(0.8).font('Bold').fontSize(13).fillColor(INK).text(printable(text), MARGIN, doc.y);
  doc.moveDown(0.3);
}

function note(doc: Doc, text: string) {
  doc.font('Oblique').fontSize(9).fillColor(MUTED).text(printable(text), MARGIN, doc.y);
}

/** Rows set between two yields to the event loop (see table). */
const ROWS_PER_TURN = 10;

/**
 * A table, its header repeated on each page. Async: it lets the event loop run every
 * ROWS_PER_TURN rows, as a row of a long prompt with 20 topics takes ~5 ms to set; a library at
 * its limits (1,000 such rows) rendered in one go held every other request of the process for 5 s.
 */
async function table(doc: Doc, columns: Column[], rows: Row[]) {
  const size = 8.5;
  const pad = 3;
  const drawHeader = () => {
    let x = MARGIN;
    const y = doc.y;
    doc.font('Bold').fontSize(7.5).fillColor(MUTED);
    for (const c of columns) {
      doc.text(printable(c.title.toUpperCase()), x + pad, y + pad, { width: c.width - 2 * pad, align: c.align ?? 'left', lineBreak: false });
      x += c.width;
    }
    const end = y + 7.5 + 2 * pad + 2;
    doc.moveTo(MARGIN, end).lineTo(x, end).lineWidth(0.8).strokeColor(INK).stroke();
    doc.y = end + 1;
  };
  drawHeader();
  for (const [index, row] of rows.entries()) {
    if (index % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    doc.font(row.bold ? 'Bold' : 'Body').fontSize(size);
    const h = Math.max(...row.cells.map((cell, i) => doc.heightOfString(printable(cell), { width: columns[i]!.width - 2 * pad }))) + 2 * pad;
    if (doc.y + h > bottom(doc)) {
      doc.addPage();
      drawHeader();
      doc.font(row.bold ? 'Bold' : 'Body').fontSize(size);
    }
    const y = doc.y;
    let x = MARGIN;
    doc.fillColor(row.thin ? THIN : INK);
    row.cells.forEach((cell, i) => {
      const c = columns[i]!;
      doc.text(printable(cell), x + pad, y + pad, { width: c.width - 2 * pad, align: c.align ?? 'left' });
      x += c.width;
    });
    doc.moveTo(MARGIN, y + h).lineTo(x, y + h).lineWidth(0.5).strokeColor(LINE).stroke();
    doc.y = y + h;
  }
  doc.x = MARGIN;
}

function chart(doc: Doc, report: ShareReport) {
  const width = doc.page.width - 2 * MARGIN;
  const height = 210;
  if (doc.y + height + 40 > bottom(doc)) doc.addPage();
  const c = buildChart(report, width, height);
  const ox = MARGIN;
  const oy = doc.y;
  doc.save();
  doc.translate(ox, oy);
  doc.font('Body').fontSize(7.5);
  for (const t of c.yTicks) {
    doc.moveTo(c.plot.left, t.y).lineTo(c.plot.right, t.y).lineWidth(0.5).strokeColor(LINE).stroke();
    doc.fillColor(MUTED).text(t.label, 0, t.y - 3.5, { width: c.plot.left - 6, align: 'right', lineBreak: false });
  }
  for (const l of c.xLabels) doc.fillColor(MUTED).text(l.label, l.x - 20, c.height - 16, { width: 40, align: 'center', lineBreak: false });
  const brand = c.lines[0]!;
  // Where what was asked changed: a dashed line; lines and the band stop on either side (chart.ts).
  for (const x of c.breaks) doc.moveTo(x, c.plot.top).lineTo(x, c.plot.bottom).lineWidth(0.8).dash(3, { space: 2.5 }).strokeColor(MUTED).stroke().undash();
  for (const band of c.bands) {
    doc.polygon(...band).fillOpacity(0.12).fill(brand.color);
  }
  doc.fillOpacity(1);
  // As on the page (html.ts): the brand's line under the others, its markers over them, and a
  // point on another's drawn as a ring around it, so no point hides another.
  const polyline = (seg: ChartPoint[], color: string, width: number) => {
    if (seg.length < 2) return;
    doc.moveTo(seg[0]!.x, seg[0]!.y);
    for (const p of seg.slice(1)) doc.lineTo(p.x, p.y);
    doc.lineWidth(width).lineJoin('round').strokeColor(color).stroke();
  };
  const marker = (p: ChartPoint, line: ChartLine) => {
    if (p.ring) {
      doc.circle(p.x, p.y, ringRadius(p.ring, BRAND_R)).lineWidth(1.1);
      if (p.thin) doc.dash(1.5, { space: 1.2 });
      doc.strokeColor(line.color).stroke();
      doc.undash();
      return;
    }
    doc.circle(p.x, p.y, line.brand ? BRAND_R : 2).lineWidth(1.1);
    if (p.thin) doc.fillAndStroke('#ffffff', line.color);
    else doc.fillAndStroke(line.color, line.color);
  };
  for (const seg of segments(brand, c.cuts)) polyline(seg, brand.color, 2.4);
  for (const line of c.lines.slice(1)) {
    for (const seg of segments(line, c.cuts)) {
      polyline(seg, line.color, 1.2);
      for (const p of seg) marker(p, line);
    }
  }
  for (const seg of segments(brand, c.cuts)) for (const p of seg) marker(p, brand);
  doc.restore();
  // Legend below the chart.
  let x = MARGIN;
  let y = oy + height + 4;
  doc.font('Body').fontSize(8.5);
  // The band's entry only when a band is drawn (a brand without any interval has none).
  const items = [
    ...c.lines.map((l) => ({ name: l.name, color: l.color, band: false, asked: false })),
    ...(c.bands.length ? [{ name: `${brand.name}: 95% interval`, color: brand.color, band: true, asked: false }] : []),
    ...(c.breaks.length ? [{ name: 'what was asked changed: the numbers either side are not comparable', color: MUTED, band: false, asked: true }] : []),
  ];
  for (const item of items) {
    const label = printable(item.name);
    const w = 18 + doc.widthOfString(label) + 14;
    if (x + w > doc.page.width - MARGIN) {
      x = MARGIN;
      y += 13;
    }
    if (item.band) doc.rect(x, y + 1, 12, 7).fillOpacity(0.25).fill(item.color).fillOpacity(1);
    else if (item.asked) doc.moveTo(x + 6, y).lineTo(x + 6, y + 9).lineWidth(0.8).dash(2, { space: 1.5 }).strokeColor(item.color).stroke().undash();
    else doc.rect(x, y + 3.5, 12, 2).fill(item.color);
    doc.fillColor(INK).text(label, x + 16, y, { lineBreak: false });
    x += w;
  }
  doc.x = MARGIN;
  doc.y = y + 16;
}

/**
 * The version of what a report's PDF prints, everything but the time it was generated: two
 * reports with the same version print the same PDF, so a rendered one can be served again
 * (pdf-cache.ts). Periods count by the day, as the PDF prints them; the numbers, run ids, the
 * project's names, the link's settings and the sandbox label all change the version.
 */
export function pdfVersion(report: ShareReport): string {
  const { generatedAt: _generated, ...printed } = report;
  const json = JSON.stringify(printed, (key, value) => ((key === 'start' || key === 'end') && typeof value === 'string' ? value.slice(0, 10) : value));
  return createHash('sha256').update(json).digest('base64url');
}

export async function reportPdf(report: ShareReport): Promise<Buffer> {
  const [{ default: PDFDocument }, { files }] = await Promise.all([import('pdfkit'), loadFonts()]);
  const s = report.share;
  const d = report.dashboard;
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: false,
    info: { Title: printable(`${s.projectName}: AI visibility report`), Author: 'sightline', Subject: printable(`Brand ${s.brand}`) },
    compress: true,
  });
  for (const [name, file] of Object.entries(files)) doc.registerFont(name, file);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const full = doc.page.width - 2 * MARGIN;

  doc.font('Bold').fontSize(20).fillColor(INK).text(printable(s.projectName));
  doc.font('Body').fontSize(9.5).fillColor(MUTED);
  doc.text(printable(`How often AI answers name ${s.brand} and its competitors · ${s.url}`));
  doc.text(printable(`${scopeLine(report)} · latest period ${periodLine(d.latest_period)}`));
  doc.text(printable(`Generated ${report.generatedAt.replace('T', ' ').replace('Z', ' UTC')}`));
  const simulated = simulatedLine(report);
  if (simulated) {
    // The console's sandbox label, in a box: a client must not take simulated rates for real ones.
    const y = doc.y + 6;
    const text = printable(`${simulated.label}${simulated.detail}`);
    doc.font('Body').fontSize(9.5);
    const h = doc.heightOfString(text, { width: full - 20 }) + 12;
    doc.rect(MARGIN, y, full, h).lineWidth(1).fillAndStroke('#fffbeb', '#d97706');
    doc.rect(MARGIN, y, 4, h).fill('#d97706');
    doc.fillColor('#78350f').font('Bold').text(printable(simulated.label), MARGIN + 12, y + 6, { width: full - 20, continued: true });
    doc.font('Body').text(printable(simulated.detail));
    doc.x = MARGIN;
    doc.y = y + h + 4;
  }
  doc.moveTo(MARGIN, doc.y + 4).lineTo(MARGIN + full, doc.y + 4).lineWidth(1.5).strokeColor(INK).stroke();
  doc.y += 8;

  heading(doc, 'Mention rate, latest period');
  const rates = latestRates(d, s.brand);
  if (rates.length) {
    // The change from the period before, where the server compared the two (they asked the same).
    const ch = changeColumn(d);
    const w = ch.shown ? 75 : 85;
    const cols = ch.shown ? 5 : 4;
    await table(
      doc,
      [
        { title: 'Name', width: full - cols * w },
        { title: 'Mention rate', width: w, align: 'right' },
        ...(ch.shown ? [{ title: 'Change', width: w, align: 'right' as const }] : []),
        { title: '95% interval', width: w, align: 'right' },
        { title: 'n', width: w, align: 'right' },
        { title: 'Share of voice', width: w, align: 'right' },
      ],
      rates.map((r) => ({
        cells: [
          `${r.name}${r.brand ? ' (brand)' : ''}${r.thin ? ' · thin' : ''}`,
          pct(r.mention_rate),
          ...(ch.shown ? [change(r.change) || ch.none] : []),
          interval(r.mention_rate_ci),
          String(r.n),
          pct(r.share_of_voice as number | null),
        ],
        thin: r.thin,
        bold: r.brand,
      })),
    );
    if (ch.note) note(doc, ch.note);
  } else note(doc, 'No answers in this period yet.');

  heading(doc, 'Mention rate over time');
  if (d.series.length) chart(doc, report);
  else note(doc, 'No answers in this period yet.');
  const one = onePeriodLine(d);
  if (one) note(doc, one);

  heading(doc, 'Topics');
  if (d.topics.length) {
    await table(
      doc,
      [
        { title: 'Topic', width: full - 4 * 80 },
        { title: 'Prompts', width: 80, align: 'right' },
        { title: 'Mention rate', width: 80, align: 'right' },
        { title: '95% interval', width: 80, align: 'right' },
        { title: 'n', width: 80, align: 'right' },
      ],
      d.topics.map((t) => ({ cells: [`${t.topic}${t.thin ? ' · thin' : ''}`, String(t.prompts), pct(t.mention_rate), interval(t.mention_rate_ci), String(t.n)], thin: t.thin })),
    );
  } else note(doc, 'No topics.');

  heading(doc, 'Prompts where competitors are named and the brand is not');
  if (d.competitors_named_brand_absent.length) {
    await table(
      doc,
      [
        { title: 'Prompt', width: full * 0.5 },
        { title: 'Competitors named', width: full * 0.5 - 50 },
        { title: 'n', width: 50, align: 'right' },
      ],
      d.competitors_named_brand_absent.map((g) => ({
        cells: [`${g.prompt}${g.thin ? ' · thin' : ''}`, g.competitors.map((c) => `${c.name} ${pct(c.mention_rate)}`).join(', '), String(g.n)],
        thin: g.thin,
      })),
    );
  } else note(doc, noGapsLine(report));

  // The matrix on a page of its own.
  doc.addPage();
  heading(doc, 'Prompt × platform, latest period');
  if (d.matrix.length) {
    const platforms = matrixPlatforms(d);
    const cellWidth = Math.max(44, Math.min(70, (full * 0.55) / Math.max(1, platforms.length + 2)));
    const promptWidth = full - cellWidth * (platforms.length + 2);
    await table(
      doc,
      [{ title: 'Prompt', width: promptWidth }, { title: 'All', width: cellWidth, align: 'right' }, { title: 'Change', width: cellWidth, align: 'right' }, ...platforms.map((p) => ({ title: platformName(p), width: cellWidth, align: 'right' as const }))],
      d.matrix.map((m) => ({
        cells: [
          `${m.prompt}${m.topics.length ? ` (${m.topics.join(', ')})` : ''}`,
          `${pct(m.mention_rate)} n=${m.n}`,
          change(m.change),
          ...platforms.map((name) => {
            const c = m.platforms.find((x) => x.platform === name);
            return c ? `${pct(c.mention_rate)} n=${c.n}${c.thin ? '*' : ''}` : '–';
          }),
        ],
        thin: m.thin,
      })),
    );
  } else note(doc, 'No prompts.');

  doc.moveDown(1.2);
  note(
    doc,
    `n is the number of answers a rate rests on. A rate marked thin (grey; * in the matrix; an open marker in the chart) rests on fewer than ${d.thin_evidence.min_answers} answers or has a 95% interval wider than ±${Math.round(d.thin_evidence.max_half_width * 100)} points: too little to act on. A ring around a point in the chart is another name at the same rate. Read-only report made by sightline; this link works until ${s.expiresAt.slice(0, 10)}.`,
  );
  doc.end();
  return done;
}
