// The share chart's geometry and drawing (pure): a competitor whose rate equals the brand's (or
// another competitor's) in a period is drawn as a ring around that point, never hidden under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ShareReport } from '../../src/core/reports/shares.ts';
import { buildChart, segments } from '../../src/share/chart.ts';
import { reportHtml } from '../../src/share/html.ts';

const rate = (r: number | null, n = 40) => ({
  mention_rate: r,
  mention_rate_ci: r === null ? null : { low: Math.max(0, r - 0.1), high: Math.min(1, r + 0.1) },
  n,
  thin: false,
  share_of_voice: null,
});

function report(periods: { brand: number | null; competitors: Record<string, number | null> }[]): ShareReport {
  const series = periods.map((p, i) => ({
    start: `2026-11-${String(1 + i * 7).padStart(2, '0')}T00:00:00Z`,
    end: `2026-11-${String(8 + i * 7).padStart(2, '0')}T00:00:00Z`,
    run_ids: [],
    brand: rate(p.brand),
    competitors: Object.entries(p.competitors).map(([name, r]) => ({ name, ...rate(r) })),
  }));
  return {
    share: {
      id: 'shr_1',
      accountId: 'a',
      projectId: 'p',
      projectName: 'Acme',
      url: 'https://acme.example/',
      brand: 'Acme',
      window: '7d',
      days: 90,
      topic: null,
      market: null,
      expiresAt: '2026-12-31T00:00:00Z',
    },
    dashboard: {
      series,
      matrix: [],
      topics: [],
      competitors_named_brand_absent: [],
      thin_evidence: { min_answers: 10, max_half_width: 0.2 },
      latest_period: series.at(-1) ?? null,
    },
    engine: { runs: 0, sandbox_runs: 0 },
    generatedAt: '2026-11-29T00:00:00Z',
  } as unknown as ShareReport;
}

test("a competitor at the brand's rate is a ring around the brand's point; others stay plain markers", () => {
  const r = report([
    { brand: 0.5, competitors: { HubSpot: 0.5, Pipedrive: 0.5, Zoho: 0.25 } },
    { brand: 0.25, competitors: { HubSpot: 0.75, Pipedrive: 0.75, Zoho: null } },
  ]);
  const c = buildChart(r, 960, 300);
  const rings = (name: string) => c.lines.find((l) => l.name === name)!.points.map((p) => p?.ring ?? null);
  assert.deepEqual(rings('Acme'), [0, 0], 'the brand is always a plain marker');
  assert.deepEqual(rings('HubSpot'), [1, 0], 'on the brand in the first period');
  assert.deepEqual(rings('Pipedrive'), [2, 1], 'on the brand and HubSpot, then on HubSpot alone');
  assert.deepEqual(rings('Zoho'), [0, null]);
});

test("the page's SVG draws every line's point: rings around the brand, the brand's markers last", () => {
  const html = reportHtml(
    report([
      { brand: 0.25, competitors: { HubSpot: 0.25 } },
      { brand: 0.5, competitors: { HubSpot: 0.5 } },
    ]),
    'A'.repeat(43),
  );
  const wide = html.slice(html.indexOf('<svg class="chart wide"'), html.indexOf('</svg>'));
  const circles = [...wide.matchAll(/<circle [^>]*r="([\d.]+)" fill="([^"]+)" stroke="([^"]+)"[^>]*><title>([^<]+)<\/title>/g)].map((m) => ({
    r: Number(m[1]),
    fill: m[2],
    stroke: m[3],
    name: m[4],
  }));
  const hub = circles.filter((x) => x.name === 'HubSpot');
  const brand = circles.filter((x) => x.name === 'Acme');
  assert.equal(hub.length, 2);
  assert.equal(brand.length, 2);
  for (const h of hub) {
    assert.equal(h.fill, 'none', 'a ring, open in the middle');
    assert.ok(h.r > brand[0]!.r + 1.5, `the ring (r=${h.r}) clears the brand's marker (r=${brand[0]!.r})`);
  }
  assert.ok(wide.lastIndexOf('<title>Acme</title>') > wide.lastIndexOf('<title>HubSpot</title>'), "the brand's markers are drawn last");
  // The brand's line is drawn before (under) the competitor's, so a line on the brand's shows in it.
  const lines = [...wide.matchAll(/<polyline [^>]*stroke="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(lines.length, 2);
  assert.equal(lines[0], '#1d4ed8');
});

test("the legend names the brand's 95% interval only when a band is drawn", () => {
  const drawn = reportHtml(report([{ brand: 0.5, competitors: {} }]), 'A'.repeat(43));
  assert.match(drawn, /Acme: 95% interval<\/li>/, 'one period still draws a band, a few points wide');
  // A brand with no answers in any period has no interval: no band, and no legend entry for one.
  const none = report([{ brand: null, competitors: { HubSpot: 0.5 } }]);
  assert.equal(buildChart(none, 960, 300).bands.length, 0);
  assert.doesNotMatch(reportHtml(none, 'A'.repeat(43)), /95% interval<\/li>/);
});

test('a change of what was asked: a dashed line between the two periods, lines and band stop there, and the legend says so', () => {
  const r = report([
    { brand: 0.5, competitors: { Rival: 0.3 } },
    { brand: 0.55, competitors: { Rival: 0.35 } },
    { brand: 0.7, competitors: { Rival: 0.2 } },
  ]);
  const series = r.dashboard.series as unknown as { definition_id: string | null }[];
  series[0]!.definition_id = 'def_a';
  series[1]!.definition_id = 'def_a';
  series[2]!.definition_id = 'def_b';
  const c = buildChart(r, 960, 300);
  assert.deepEqual(c.cuts, [2]);
  assert.equal(c.breaks.length, 1);
  assert.ok(c.breaks[0]! > c.lines[0]!.points[1]!.x && c.breaks[0]! < c.lines[0]!.points[2]!.x, 'between the two periods');
  assert.equal(c.bands.length, 2, 'the band stops at the change');
  assert.deepEqual(segments(c.lines[0]!, c.cuts).map((s) => s.length), [2, 1]);
  assert.deepEqual(segments(c.lines[1]!, c.cuts).map((s) => s.length), [2, 1]);
  const html = reportHtml(r, 'A'.repeat(43));
  assert.match(html, /stroke-dasharray="4 3"/);
  assert.match(html, /what was asked changed/);

  // One definition throughout (or none known): nothing is marked.
  series[2]!.definition_id = 'def_a';
  assert.deepEqual(buildChart(r, 960, 300).cuts, []);
  assert.doesNotMatch(reportHtml(r, 'A'.repeat(43)), /what was asked changed/);
  // A window mixing definitions (null) beside one that does not is a change too.
  series[1]!.definition_id = null;
  assert.deepEqual(buildChart(r, 960, 300).cuts, [1, 2]);
});
