// Tracked tests (docs/concepts.md): a run definition measured again on a schedule, within a
// monthly budget; pause, run now, edit; the history as charts (uPlot, loaded only on this page)
// with the numbers of every chart in a table beside it for screen readers and spreadsheets.
import { html, useEffect, useRef, useState, navigate, PageHead, Table, Badge, Note, ErrorNote, Empty, Loading, Stat, Field, useData, plural, pct, when, ago, platformName, statusText, urlInputProps } from '../ui.js';
import { get, post, patch, del, idempotencyKey } from '../api.js';
import { MonthlyCost } from '../cost.js';

const KIND = { ai_citations: 'Visibility', content_intelligence: 'Content' };
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SKIP_TEXT = {
  budget_exceeded: 'the monthly budget would be exceeded',
  insufficient_credits: 'the balance could not fund the whole run',
  account_suspended: 'the account was suspended',
  key_revoked: 'the key that set the schedule was revoked',
  missing_scope: 'the key that set the schedule lacks the scope',
  invalid_definition: 'the definition can no longer run',
  platform_unavailable: 'a platform is unavailable',
};

/** A schedule in words: the common cron shapes this page writes, the raw expression otherwise. */
function describeSchedule(s) {
  if (!s) return 'Not scheduled (run it by hand)';
  const m = /^(\d+) (\d+) (\*|\d+) \* (\*|\d)$/.exec(s.cron);
  const at = m ? `${m[2].padStart(2, '0')}:${m[1].padStart(2, '0')}` : null;
  if (m && m[3] === '*' && m[4] === '*') return `Daily at ${at} (${s.timezone})`;
  if (m && m[3] === '*') return `Every ${WEEKDAYS[Number(m[4])]} at ${at} (${s.timezone})`;
  if (m && m[4] === '*') return `Monthly on day ${m[3]} at ${at} (${s.timezone})`;
  return `cron “${s.cron}” (${s.timezone})`;
}

export function TestsPage() {
  const tests = useData(() => get('/v1/tests?limit=50'));
  return html`<${PageHead} title="Tracked tests" sub="A page and its prompts measured again on a schedule, within a monthly budget, so you see the trend.">
      <a class="button" href="/console/tests/new">New tracked test</a>
    </${PageHead}>
    <${ErrorNote} error=${tests.error} />
    ${!tests.data
      ? tests.error
        ? null
        : html`<${Loading} />`
      : tests.data.tests.length === 0
        ? html`<div class="card"><${Empty} title="No tracked tests yet"><p>Track a brand's visibility weekly, or a page's content score monthly. Every run you make also lands in a test for its page.</p><a class="button" href="/console/tests/new">Track something</a></${Empty}></div>`
        : html`<div class="card"><${Table} caption="Tracked tests" captionHidden rowKey=${(t) => t.id} rows=${tests.data.tests} columns=${[
            { label: 'Test', cell: (t) => html`<a href=${'/console/tests/' + t.id}><strong>${t.name}</strong></a><div class="small muted">${t.url}</div>`, wide: true },
            { label: 'Kind', cell: (t) => KIND[t.test_type] },
            { label: 'Schedule', cell: (t) => (t.paused ? html`<${Badge} value="warn" label="paused" />` : describeSchedule(t.schedule)) },
            { label: 'Next run', cell: (t) => (t.next_run_at ? when(t.next_run_at) : '—') },
            { label: 'This month', cell: (t) => `${t.credits_used_this_month}${t.monthly_credit_budget ? ` / ${t.monthly_credit_budget}` : ''} cr` },
            { label: 'Runs', cell: (t) => t.run_count, num: true },
            { label: 'Last run', cell: (t) => ago(t.last_run_at) },
          ]} /></div>`}`;
}

// ---- Create and edit ----

function scheduleFromForm(f) {
  if (f.mode === 'none') return null;
  const [hh, mm] = (f.time || '06:00').split(':').map(Number);
  if (f.mode === 'daily') return { cron: `${mm} ${hh} * * *`, timezone: f.timezone };
  if (f.mode === 'weekly') return { cron: `${mm} ${hh} * * ${f.weekday}`, timezone: f.timezone };
  if (f.mode === 'monthly') return { cron: `${mm} ${hh} ${f.monthday} * *`, timezone: f.timezone };
  return { cron: f.cron.trim(), timezone: f.timezone };
}

function formFromSchedule(s) {
  const tz = (s && s.timezone) || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const base = { mode: 'weekly', time: '06:00', weekday: '1', monthday: '1', cron: '0 6 * * 1', timezone: tz };
  if (s === undefined) return base;
  if (s === null) return { ...base, mode: 'none' };
  const m = /^(\d+) (\d+) (\*|\d+) \* (\*|\d)$/.exec(s.cron);
  if (!m) return { ...base, mode: 'cron', cron: s.cron };
  const time = `${m[2].padStart(2, '0')}:${m[1].padStart(2, '0')}`;
  if (m[3] === '*' && m[4] === '*') return { ...base, mode: 'daily', time };
  if (m[3] === '*') return { ...base, mode: 'weekly', time, weekday: m[4] };
  if (m[4] === '*') return { ...base, mode: 'monthly', time, monthday: m[3] };
  return { ...base, mode: 'cron', cron: s.cron };
}

export function TestEditPage({ id }) {
  const existing = useData(() => (id ? get(`/v1/tests/${id}`) : Promise.resolve(null)), [id]);
  const models = useData(() => get('/v1/visibility/models'));
  if (existing.error || models.error) return html`<${PageHead} title=${id ? 'Edit tracked test' : 'New tracked test'} /><${ErrorNote} error=${existing.error || models.error} />`;
  if (existing.loading || !models.data) return html`<${PageHead} title=${id ? 'Edit tracked test' : 'New tracked test'} /><${Loading} />`;
  return html`<${TestForm} test=${existing.data} listing=${models.data.platforms} />`;
}

function TestForm({ test, listing }) {
  const d = (test && test.definition) || {};
  const [type, setType] = useState(test ? test.test_type : 'ai_citations');
  const [name, setName] = useState(test ? test.name : '');
  const [url, setUrl] = useState(d.url || (test && test.url) || '');
  const [brand, setBrand] = useState(d.target_entity || (test && test.target_entity) || '');
  const [competitors, setCompetitors] = useState((d.competitors || []).join(', '));
  const [prompts, setPrompts] = useState((d.prompts || []).join('\n'));
  const [platforms, setPlatforms] = useState(new Set(d.platforms || ['openai', 'perplexity']));
  const [repeats, setRepeats] = useState(String(d.repeats || 1));
  const [depth, setDepth] = useState(d.analysis_depth || 'score');
  const [sched, setSched] = useState(() => formFromSchedule(test ? test.schedule : undefined));
  const [budget, setBudget] = useState(test && test.monthly_credit_budget ? test.monthly_credit_budget : '');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const promptList = prompts.split('\n').map((s) => s.trim()).filter(Boolean);
  const price = (p) => Number(((listing[p] || []).find((m) => m.default) || {}).credits_per_probe || 0);
  const set = (k) => (e) => setSched({ ...sched, [k]: e.target.value });
  const schedule = scheduleFromForm(sched);
  // A definition's models (set through the API) price its runs; the form keeps those of the
  // platforms still chosen.
  const models = d.models ? Object.fromEntries(Object.entries(d.models).filter(([p]) => platforms.has(p))) : {};
  // The definition the form saves: the create body of the test's run kind.
  const definitionOf = (pageUrl, brandName) =>
    type === 'ai_citations'
      ? {
          url: pageUrl,
          target_entity: brandName,
          prompts: promptList,
          platforms: [...platforms],
          ...(Object.keys(models).length ? { models } : {}),
          competitors: competitors.split(',').map((s) => s.trim()).filter(Boolean),
          ...(Number(repeats) > 1 ? { repeats: Number(repeats) } : {}),
        }
      : { url: pageUrl, analysis_depth: depth };
  // The server's quote of these settings (POST /v1/tests/estimate): one run priced by the code
  // that prices the test's runs, the schedule's runs of each calendar month in its time zone and
  // what the budget pays for, as the scheduler will count. A run's price does not depend on the
  // page or the brand, so until they are typed the quote asks with stand-ins; a visibility run
  // without a prompt or a platform has no price to ask for.
  const canQuote = type !== 'ai_citations' || (promptList.length > 0 && platforms.size > 0);
  const estimateBody = canQuote
    ? JSON.stringify({
        test_type: type,
        definition: definitionOf(url.trim() || 'https://example.com/', brand.trim() || 'Brand'),
        schedule,
        monthly_credit_budget: budget === '' ? null : String(budget),
      })
    : null;
  const [estimate, setEstimate] = useState(null);
  const [estimateError, setEstimateError] = useState(null);
  useEffect(() => {
    if (!estimateBody) {
      setEstimate(null);
      setEstimateError(null);
      return;
    }
    let live = true;
    const t = setTimeout(async () => {
      try {
        const e = await post('/v1/tests/estimate', JSON.parse(estimateBody));
        if (live) {
          setEstimate({ body: estimateBody, ...e });
          setEstimateError(null);
        }
      } catch (err) {
        if (live) {
          setEstimate(null);
          setEstimateError(err);
        }
      }
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [estimateBody]);
  // Dimmed while the quote for the current settings is on its way (not when it was refused).
  const costPending = !!estimateBody && !estimateError && (!estimate || estimate.body !== estimateBody);
  const runCost = !canQuote
    ? html`nothing yet (${promptList.length === 0 ? 'no prompt' : 'no platform chosen'})`
    : html`<strong>${estimate ? `${estimate.credits_per_run} credits` : '…'}</strong>`;

  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const definition = definitionOf(url.trim(), brand.trim());
    const body = { name: name.trim() || undefined, definition, schedule, monthly_credit_budget: budget === '' ? null : budget };
    try {
      const saved = test ? await patch(`/v1/tests/${test.id}`, body) : await post('/v1/tests', { test_type: type, ...body });
      navigate('/console/tests/' + saved.id);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return html`<${PageHead} title=${test ? `Edit “${test.name}”` : 'New tracked test'} sub="Scheduled runs spend credits like any run; the budget caps a calendar month." />
    <form onSubmit=${submit}>
      <section class="card" aria-labelledby="def-title"><h2 id="def-title">What to measure</h2>
        ${test
          ? null
          : html`<fieldset><legend>Kind</legend>
              <label class="check"><input type="radio" name="type" checked=${type === 'ai_citations'} onChange=${() => setType('ai_citations')} /><span><strong>AI Visibility</strong> — do assistants mention the brand for these prompts?</span></label>
              <label class="check"><input type="radio" name="type" checked=${type === 'content_intelligence'} onChange=${() => setType('content_intelligence')} /><span><strong>Content Intelligence</strong> — how citable is the page?</span></label>
            </fieldset>`}
        <div class="form-grid">
          <${Field} id="t-name" label="Name (optional)"><input id="t-name" type="text" maxlength="200" value=${name} onInput=${(e) => setName(e.target.value)} /></${Field}>
          <${Field} id="t-url" label="Page URL"><input id="t-url" type="url" required value=${url} onInput=${(e) => setUrl(e.target.value)} ...${urlInputProps(setUrl)} /></${Field}>
        </div>
        ${type === 'ai_citations'
          ? html`<div class="form-grid">
                <${Field} id="t-brand" label="Brand"><input id="t-brand" type="text" required value=${brand} onInput=${(e) => setBrand(e.target.value)} /></${Field}>
                <${Field} id="t-competitors" label="Competitors (comma-separated)"><input id="t-competitors" type="text" value=${competitors} onInput=${(e) => setCompetitors(e.target.value)} /></${Field}>
              </div>
              <${Field} id="t-prompts" label="Prompts, one per line"><textarea id="t-prompts" rows="5" value=${prompts} onInput=${(e) => setPrompts(e.target.value)}></textarea></${Field}>
              <fieldset><legend>Platforms (default models)</legend><div class="checks">
                ${Object.keys(listing).map((p) => html`<label class="check"><input type="checkbox" checked=${platforms.has(p)} onChange=${() => { const n = new Set(platforms); n.has(p) ? n.delete(p) : n.add(p); setPlatforms(n); }} /><span>${platformName(p)} <span class="small muted">${price(p).toFixed(2)} cr</span></span></label>`)}
              </div></fieldset>
              <${Field} id="t-repeats" label="Repeats per probe" hint="Asking each prompt more than once narrows the interval around the mention rate."><select id="t-repeats" value=${repeats} onChange=${(e) => setRepeats(e.target.value)} aria-describedby="t-repeats-hint">${[1, 2, 3, 5, 10].map((n) => html`<option value=${n}>${n}</option>`)}</select></${Field}>`
          : html`<fieldset><legend>Depth</legend>
              <label class="check"><input type="radio" name="depth" checked=${depth === 'score'} onChange=${() => setDepth('score')} /><span>Score (3 credits)</span></label>
              <label class="check"><input type="radio" name="depth" checked=${depth === 'full'} onChange=${() => setDepth('full')} /><span>Full, with trends, prompt ideas and the audit (6 credits)</span></label></fieldset>`}
      </section>
      <section class="card" aria-labelledby="sched-title"><h2 id="sched-title">Schedule and budget</h2>
        <div class="form-grid">
          <${Field} id="t-mode" label="Repeat"><select id="t-mode" value=${sched.mode} onChange=${set('mode')}>
            <option value="none">Not scheduled (run it by hand)</option><option value="daily">Daily</option><option value="weekly">Weekly</option><option value="monthly">Monthly</option><option value="cron">Custom (cron)</option>
          </select></${Field}>
          ${sched.mode === 'weekly' ? html`<${Field} id="t-weekday" label="Day"><select id="t-weekday" value=${sched.weekday} onChange=${set('weekday')}>${WEEKDAYS.map((w, i) => html`<option value=${String(i)}>${w}</option>`)}</select></${Field}>` : null}
          ${sched.mode === 'monthly' ? html`<${Field} id="t-monthday" label="Day of the month"><input id="t-monthday" type="number" min="1" max="28" value=${sched.monthday} onInput=${set('monthday')} /></${Field}>` : null}
          ${['daily', 'weekly', 'monthly'].includes(sched.mode) ? html`<${Field} id="t-time" label="Time"><input id="t-time" type="time" value=${sched.time} onInput=${set('time')} /></${Field}>` : null}
          ${sched.mode === 'cron' ? html`<${Field} id="t-cron" label="Cron expression" hint="minute hour day month weekday"><input id="t-cron" type="text" value=${sched.cron} onInput=${set('cron')} aria-describedby="t-cron-hint" /></${Field}>` : null}
          ${sched.mode !== 'none' ? html`<${Field} id="t-tz" label="Time zone"><input id="t-tz" type="text" value=${sched.timezone} onInput=${set('timezone')} /></${Field}>` : null}
          <${Field} id="t-budget" label="Monthly budget (credits, optional)" hint="A scheduled run that would pass it is skipped, and says so."><input id="t-budget" type="number" min="0" step="0.01" value=${budget} onInput=${(e) => setBudget(e.target.value)} aria-describedby="t-budget-hint" /></${Field}>
        </div>
        <p data-testid="test-cost" class=${costPending ? 'muted' : ''} aria-busy=${costPending ? 'true' : 'false'}>One run costs ${runCost}${type === 'ai_citations' ? ` (${plural(promptList.length, 'prompt')} × ${plural(platforms.size, 'platform')} × ${plural(Number(repeats), 'repeat')})` : ''}.</p>
        <${MonthlyCost} estimate=${estimate} stale=${!!estimate && estimate.body !== estimateBody} error=${estimateError} mode=${sched.mode} budget=${budget} setBudget=${setBudget} testId="test-monthly" />
        ${test
          ? null
          : html`<p class="small muted" id="t-adopt-note" data-testid="adopt-note">Runs you already made for ${type === 'ai_citations' ? 'this page and brand' : 'this page'} join this test: they appear in its history, as will any later one-off run for ${type === 'ai_citations' ? 'them' : 'it'}. Only the runs the test starts itself (on schedule or with Run now) count towards its monthly budget.</p>`}
        <${ErrorNote} error=${error} />
        <div class="actions"><button type="submit" disabled=${busy} aria-describedby=${test ? undefined : 't-adopt-note'}>${test ? 'Save changes' : 'Create tracked test'}</button><a class="button secondary" href=${test ? '/console/tests/' + test.id : '/console/tests'}>Cancel</a></div>
      </section>
    </form>`;
}

// ---- Charts ----

const COLORS = ['#2f4bb0', '#b35c00', '#0f7b6c', '#a1256b', '#5b6b00', '#6a3fb5', '#9a3412', '#0369a1'];
let uplotModule = null;
function loadUplot() {
  if (!uplotModule) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/console/assets/vendor/uplot.css';
    document.head.appendChild(link);
    uplotModule = import('uplot').then((m) => m.default);
  }
  return uplotModule;
}

/**
 * One chart: x = point times, series = [{label, values}], optional interval band (low/high) for
 * the first series (named in the legend by `bandLabel`, else the first series' label in lower
 * case); the same numbers in a table (`rows`) under "Show the numbers". `breaks`: times where what
 * was asked changed, drawn as dashed vertical lines (the points either side are not comparable).
 * `unit` names one point ("run", "window") for the note a chart of a single point carries: one
 * dot on an axis a few minutes wide is not a trend.
 */
export function Chart({ id, title, summary, times, series, band, bandLabel, percent = true, max, columns, rows, breaks = [], unit = 'run' }) {
  const box = useRef(null);
  const dots = crowded(times);
  // The legend names the band only where it is drawn: a band needs two neighbouring points with
  // intervals (one point, or points each alone between breaks, draw none).
  const banded = !!band && !dots && bandDrawn(times, band, breaks);
  useEffect(() => {
    let plot = null;
    let observer = null;
    let live = true;
    loadUplot().then((uPlot) => {
      if (!live || !box.current) return;
      // The first series (the brand) is drawn last and wider, so a competitor at the same rate
      // does not hide it; its colour stays the legend's first.
      const order = series.map((_, i) => i).slice(1).concat(series.length ? [0] : []);
      // A gap at each break: a line stops there instead of joining points that are not comparable.
      const slots = times.map((t, i) => ({ t, i })).concat(breaks.map((t) => ({ t, i: null }))).sort((a, b) => a.t - b.t);
      const slotted = (values) => slots.map((x) => (x.i == null ? null : values[x.i]));
      const data = [slots.map((x) => x.t), ...order.map((i) => slotted(series[i].values))];
      const ss = [{ value: (_u, v) => (v == null ? '' : when(new Date(v * 1000).toISOString())) }];
      // Dots only when points crowd: a line between two runs minutes apart is a vertical spike.
      const line = (color, first) =>
        dots ? { paths: () => null, points: { show: true, size: first ? 11 : 9, fill: color } } : { width: first ? 3 : 2, points: { show: true, size: first ? 7 : 6 } };
      for (const i of order) {
        const color = COLORS[i % COLORS.length];
        ss.push({ label: series[i].label, stroke: color, ...line(color, i === 0), spanGaps: !breaks.length, value: (_u, v) => (v == null ? '—' : percent ? pct(v) : String(v)) });
      }
      const bands = [];
      if (banded) {
        data.push(slotted(band.high), slotted(band.low));
        ss.push({ label: `${series[0].label} 95% high`, stroke: 'transparent', points: { show: false }, width: 0 });
        ss.push({ label: `${series[0].label} 95% low`, stroke: 'transparent', points: { show: false }, width: 0 });
        bands.push({ series: [ss.length - 2, ss.length - 1], fill: 'rgba(47, 75, 176, 0.15)' });
      }
      const width = () => Math.max(260, box.current.clientWidth);
      plot = new uPlot(
        {
          width: width(),
          height: 240,
          series: ss,
          bands,
          scales: {
            // A fixed range sized to the points (xRange): runs minutes apart spread across the
            // axis, its ticks in minutes. uPlot's own auto-ranging of a time scale whose points
            // share one instant spread the axis over years.
            x: { time: true, auto: false, range: xRange(times) },
            y: { range: (_u, _lo, hi) => [0, percent ? 1 : max ?? Math.max(1, Math.ceil((hi || 0) * 1.1))] } },
          // Ticks at least 100 px apart: a tick's time and the date under the first one fit
          // without running into the next (uPlot's 50 px put ":30 :00" ticks under each other).
          axes: [{ space: 100 }, { values: (_u, vals) => vals.map((v) => (percent ? `${Math.round(v * 100)}%` : v)) }],
          legend: { show: false },
          hooks: { draw: [(u) => drawBreaks(u, breaks)] },
        },
        data,
        box.current,
      );
      observer = new ResizeObserver(() => plot && plot.setSize({ width: width(), height: 240 }));
      observer.observe(box.current);
    });
    return () => {
      live = false;
      if (observer) observer.disconnect();
      if (plot) plot.destroy();
    };
  }, [JSON.stringify([times, series, band, breaks])]);
  return html`<section class="card" aria-labelledby=${id}>
    <h2 id=${id}>${title}</h2>
    <ul class="legend plain-inline" aria-hidden="true">${series.map((s, i) => html`<li><span class="swatch" style=${{ background: COLORS[i % COLORS.length] }}></span>${s.label}</li>`)}${banded ? html`<li><span class="swatch band"></span>95% interval of ${bandLabel ?? series[0].label.toLowerCase()}</li>` : null}</ul>
    ${times.length === 1 ? html`<p class="small muted" data-testid=${id + '-one'}>One ${unit} so far, so no trend yet: the line starts with the next ${unit}.${band ? ' Its 95% interval is in the table.' : ''}</p>` : null}
    ${breaks.length ? html`<p class="small muted" data-testid=${id + '-breaks'}>The dashed line: what was asked changed there.</p>` : null}
    ${dots ? html`<p class="small muted" data-testid=${id + '-dots'}>Some runs are close together in time: each is drawn as a dot, not joined by a line${band ? '; the 95% intervals are in the table' : ''}.</p>` : null}
    <div class="chart" ref=${box} data-x-range=${xRange(times).map(Math.round).join(',')} data-breaks=${breaks.map(Math.round).join(',')} role="img" aria-label=${`${title}: ${summary}. The numbers are in the table below the chart.`} data-testid=${id + '-chart'}></div>
    <details class="data-table"><summary>Show the numbers</summary><${Table} caption=${title} rows=${rows} columns=${columns} /></details>
  </section>`;
}

const at = (iso) => Math.floor(Date.parse(iso) / 1000);

/** Whether an interval band shows: two neighbouring points, no break between them, both with an interval. */
function bandDrawn(times, band, breaks) {
  const has = (i) => band.low[i] != null && band.high[i] != null;
  const order = times.map((t, i) => ({ t, i })).sort((a, b) => a.t - b.t);
  return order.some((x, k) => k > 0 && has(x.i) && has(order[k - 1].i) && !breaks.some((b) => b > order[k - 1].t && b < x.t));
}

/** A dashed vertical line at each time in `breaks` (seconds), across the plotting area. */
function drawBreaks(u, breaks) {
  if (!breaks.length) return;
  const { ctx, bbox } = u;
  ctx.save();
  ctx.strokeStyle = '#4b5563';
  ctx.lineWidth = Math.max(1, devicePixelRatio);
  ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
  for (const t of breaks) {
    const x = Math.round(u.valToPos(t, 'x', true));
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
  }
  ctx.restore();
}

/** Whether the latest of several points asked what no earlier one did (or mixes what it asked). */
function askedAnew(points) {
  const last = points[points.length - 1];
  return points.length > 1 && (!last.definition_id || !points.slice(0, -1).some((p) => p.definition_id === last.definition_id));
}

/**
 * What each point asked, for a history whose test changed: "set 1", "set 2", … in the order they
 * first appear ("mixed" for a pooled window of several), and the times where it changed (halfway
 * between the two points). Empty when every point asked the same.
 */
export function definitionSets(points) {
  const ids = [...new Set(points.map((p) => p.definition_id).filter(Boolean))];
  if (ids.length < 2 && points.every((p) => p.definition_id)) return { label: null, breaks: [] };
  const label = (p) => (p.definition_id ? `set ${ids.indexOf(p.definition_id) + 1}` : 'mixed');
  const breaks = [];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (label(a) !== label(b)) breaks.push((at(a.end) + at(b.end)) / 2);
  }
  return { label, breaks };
}

/**
 * The time axis's span, sized to the points: 5% of their span on each side (at least half a
 * minute), or five minutes each side of a single instant (runs in the same second are one). Never days of empty future beside runs
 * minutes apart.
 */
function xRange(times) {
  if (!times.length) return [Date.now() / 1000 - 3600, Date.now() / 1000];
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  const pad = hi > lo ? Math.max(30, (hi - lo) * 0.05) : 300;
  return [lo - pad, hi + pad];
}
/**
 * Whether two neighbouring points are closer than 1% of the axis: on a two-day axis, runs
 * minutes apart. A line between them would be a vertical spike, so the chart draws dots.
 */
function crowded(times) {
  const [lo, hi] = xRange(times);
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.some((t, i) => i > 0 && t - sorted[i - 1] < (hi - lo) / 100);
}
// The tables give each point's time, not only its day: runs of one day are told apart.
const shortDate = (iso) => when(iso);
const ciText = (c) => (c && c.low != null ? `${pct(c.low)}–${pct(c.high)}` : '—');

function VisibilityCharts({ points, unit }) {
  const times = points.map((p) => at(p.end));
  const sets = definitionSets(points);
  const asked = sets.label ? [{ label: 'Asked', cell: sets.label }] : [];
  const common = { times, unit, breaks: sets.breaks, rows: points };
  const platforms = [...new Set(points.flatMap((p) => (p.by_platform || []).map((b) => b.platform)))];
  const rateOf = (p, platform) => ((p.by_platform || []).find((b) => b.platform === platform) || {}).mention_rate ?? null;
  const competitors = [...new Set(points.flatMap((p) => (p.competitors || []).map((c) => c.name)))];
  const sovOf = (p, name) => ((p.competitors || []).find((c) => c.name === name) || {}).share_of_voice ?? null;
  const compRateOf = (p, name) => ((p.competitors || []).find((c) => c.name === name) || {}).mention_rate ?? null;
  const domainTotals = new Map();
  for (const p of points) for (const d of p.cited_domains || []) domainTotals.set(d.domain, (domainTotals.get(d.domain) || 0) + d.count);
  const domains = [...domainTotals].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([d]) => d);
  const countOf = (p, domain) => ((p.cited_domains || []).find((d) => d.domain === domain) || {}).count ?? 0;
  const last = points[points.length - 1];
  return html`
    ${sets.label
      ? html`<${Note} kind="info"><p data-testid="definition-changed">What this test asks changed (its prompts, platforms, models, repeats, market or competitors) at the dashed line: the points either side are not comparable, and the latest change compares only runs that asked the same. The tables name each point's set under Asked.</p></${Note}>`
      : null}
    <${Chart} id="rate" title="Mention rate over time" summary=${`${plural(points.length, 'point')}; latest ${pct(last.mention_rate)} (95% interval ${ciText(last.mention_rate_ci)})`}
      ...${common}
      series=${[{ label: 'All platforms', values: points.map((p) => p.mention_rate) }, ...platforms.map((pl) => ({ label: platformName(pl), values: points.map((p) => rateOf(p, pl)) }))]}
      band=${{ low: points.map((p) => (p.mention_rate_ci ? p.mention_rate_ci.low : null)), high: points.map((p) => (p.mention_rate_ci ? p.mention_rate_ci.high : null)) }}
      columns=${[
        { label: 'Time', cell: (p) => shortDate(p.end) },
        ...asked,
        { label: 'Mention rate', cell: (p) => pct(p.mention_rate), num: true },
        { label: '95% interval', cell: (p) => ciText(p.mention_rate_ci) },
        ...platforms.map((pl) => ({ label: platformName(pl), cell: (p) => pct(rateOf(p, pl)), num: true })),
        { label: 'Answers', cell: (p) => p.succeeded, num: true },
      ]} />
    <${Chart} id="sov" title="Share of voice" summary=${`latest: your brand ${pct(last.share_of_voice)}`}
      ...${common}
      series=${[{ label: 'Your brand', values: points.map((p) => p.share_of_voice) }, ...competitors.map((c) => ({ label: c, values: points.map((p) => sovOf(p, c)) }))]}
      columns=${[{ label: 'Time', cell: (p) => shortDate(p.end) }, ...asked, { label: 'Your brand', cell: (p) => pct(p.share_of_voice), num: true }, ...competitors.map((c) => ({ label: c, cell: (p) => pct(sovOf(p, c)), num: true }))]} />
    ${competitors.length
      ? html`<${Chart} id="comp-rate" title="Competitor mention rates over time" summary=${`latest: your brand ${pct(last.mention_rate)}, ${competitors.map((c) => `${c} ${pct(compRateOf(last, c))}`).join(', ')}`}
          ...${common}
          series=${[{ label: 'Your brand', values: points.map((p) => p.mention_rate) }, ...competitors.map((c) => ({ label: c, values: points.map((p) => compRateOf(p, c)) }))]}
          columns=${[{ label: 'Time', cell: (p) => shortDate(p.end) }, ...asked, { label: 'Your brand', cell: (p) => pct(p.mention_rate), num: true }, ...competitors.map((c) => ({ label: c, cell: (p) => pct(compRateOf(p, c)), num: true }))]} />`
      : null}
    ${domains.length
      ? html`<${Chart} id="domains" title="Cited domains over time" summary=${`top domains: ${domains.join(', ')}`} percent=${false}
          ...${common} series=${domains.map((d) => ({ label: d, values: points.map((p) => countOf(p, d)) }))}
          columns=${[{ label: 'Time', cell: (p) => shortDate(p.end) }, ...asked, ...domains.map((d) => ({ label: d, cell: (p) => countOf(p, d), num: true }))]} />`
      : null}`;
}

const CI_SERIES = [['overall_score', 'Overall'], ['content_depth', 'Depth'], ['content_freshness', 'Freshness'], ['sufficiency_score', 'Sufficiency']];
function ContentCharts({ points, unit }) {
  const times = points.map((p) => at(p.end));
  const last = points[points.length - 1];
  return html`<${Chart} id="scores" title="Content Intelligence scores over time" summary=${`latest overall ${last.overall_score ?? '—'} (${last.overall_band || 'no band'})`} percent=${false} max=${100} unit=${unit}
    times=${times} series=${CI_SERIES.map(([k, label]) => ({ label, values: points.map((p) => p[k] ?? null) }))}
    rows=${points} columns=${[{ label: 'Time', cell: (p) => shortDate(p.end) }, ...CI_SERIES.map(([k, label]) => ({ label, cell: (p) => (p[k] == null ? '—' : Math.round(p[k])), num: true }))]} />`;
}

export function TestPage({ id }) {
  const test = useData(() => get(`/v1/tests/${id}`), [id]);
  const [windowKind, setWindowKind] = useState('run');
  const [days, setDays] = useState(90);
  const history = useData(() => get(`/v1/tests/${id}/history?window=${windowKind}&days=${days}`), [id, windowKind, days]);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  const following = useRef(false);
  useEffect(() => {
    // While a run started here is still going, the runs list and the charts follow it. Once the
    // last one has ended the history is read once more: the read made beside the list's last one
    // may have been answered before the run's final probes were recorded.
    if (!test.data || !(test.data.runs || []).some((r) => ['queued', 'running'].includes(r.status))) {
      if (following.current) {
        following.current = false;
        history.reload();
      }
      return;
    }
    following.current = true;
    const t = setTimeout(() => (test.reload(), history.reload()), 1500);
    return () => clearTimeout(t);
  }, [test.data]);
  if (test.error && !test.data) return html`<${PageHead} title="Tracked test" /><${ErrorNote} error=${test.error} />`;
  if (!test.data) return html`<${PageHead} title="Tracked test" /><${Loading} />`;
  const t = test.data;
  const act = async (fn, message) => {
    setError(null);
    setNotice(null);
    try {
      await fn();
      if (message) setNotice(message);
      await test.reload();
      history.reload();
    } catch (err) {
      setError(err);
    }
  };
  const runNow = () => act(() => post(`/v1/tests/${id}/runs`, { idempotency_key: idempotencyKey() }), 'Run queued. The charts update when it finishes.');
  const togglePause = () => act(() => patch(`/v1/tests/${id}`, { paused: !t.paused }), t.paused ? 'Schedule resumed.' : 'Schedule paused: no scheduled runs until you resume.');
  const remove = () => {
    if (!confirm(`Delete “${t.name}”? Its runs stay readable.`)) return;
    act(async () => {
      await del(`/v1/tests/${id}`);
      navigate('/console/tests');
    });
  };
  const h = history.data;
  const points = h ? h.points.filter((p) => (t.test_type === 'ai_citations' ? p.succeeded > 0 : p.overall_score != null)) : [];
  const cmp = h && h.comparison;
  const unit = h && h.window !== 'run' ? 'window' : 'run';
  return html`<${PageHead} title=${t.name} sub=${html`<a href=${t.url} rel="noopener noreferrer" target="_blank">${t.url}</a> · ${KIND[t.test_type]}`}>
      <button type="button" onClick=${runNow} disabled=${!t.definition} aria-describedby=${t.definition ? undefined : 't-no-definition'}>Run now</button>
      ${t.project_id
        ? html`<a class="button secondary" href=${`/console/projects/${t.project_id}/edit`}>Project settings</a>`
        : html`${t.schedule ? html`<button type="button" class="secondary" onClick=${togglePause}>${t.paused ? 'Resume schedule' : 'Pause schedule'}</button>` : null}
            <a class="button secondary" href=${`/console/tests/${id}/edit`}>${t.definition ? 'Edit' : 'Add a schedule'}</a>
            <button type="button" class="danger" onClick=${remove}>Delete</button>`}
    </${PageHead}>
    ${t.project_id
      ? html`<${Note} kind="info"><p data-testid="test-of-project">This is the ${t.market} market of a <a href=${`/console/projects/${t.project_id}`}>project</a>. Its prompts, schedule and budget come from the project: change them in the project's settings, and every market follows.</p></${Note}>`
      : null}
    <${ErrorNote} error=${error} />
    ${notice ? html`<${Note} kind="ok"><p>${notice}</p></${Note}>` : null}
    ${!t.definition ? html`<${Note} kind="info"><p id="t-no-definition">This test was made by a run and has no definition of its own yet, so it cannot run by itself: Run now is off. Add a schedule to give it one from your form and measure it again automatically.</p></${Note}>` : null}
    ${t.last_skip ? html`<${Note} kind="warn"><p>The run due ${when(t.last_skip.slot)} was skipped: ${SKIP_TEXT[t.last_skip.reason] || statusText(t.last_skip.reason)}.${t.last_skip.message ? ' ' + t.last_skip.message : ''}</p></${Note}>` : null}
    <div class="stats">
      <${Stat} label="Schedule" value=${html`<span class="small">${t.paused ? 'Paused' : describeSchedule(t.schedule)}</span>`} sub=${t.next_run_at ? `next ${when(t.next_run_at)}` : null} />
      <${Stat} label="This month" value=${`${t.credits_used_this_month} cr`} sub=${t.monthly_credit_budget ? `of a ${t.monthly_credit_budget} budget` : 'no budget set'} />
      <${Stat} label="Runs" value=${t.run_count} sub=${t.last_run_at ? `last ${ago(t.last_run_at)}` : 'none yet'} />
      ${cmp && cmp.change != null
        ? html`<${Stat} label="Latest change" value=${t.test_type === 'ai_citations' ? `${cmp.change > 0 ? '+' : ''}${(cmp.change * 100).toFixed(0)} pts` : `${cmp.change > 0 ? '+' : ''}${cmp.change}`}
            sub=${cmp.change_significant === true ? 'statistically significant' : cmp.change_significant === false ? 'within the noise (not significant)' : 'vs the previous point'} />`
        : !cmp && t.test_type === 'ai_citations' && askedAnew(points)
          ? html`<${Stat} label="Latest change" value="—" sub="none to show: no earlier point asked what the latest one asked" />`
          : null}
    </div>
    <div class="row spread"><h2 style=${{ margin: 0 }}>History</h2>
      <div class="row">
        <label class="label-text" for="h-window">Points</label>
        <select id="h-window" style=${{ width: 'auto' }} value=${windowKind} onChange=${(e) => setWindowKind(e.target.value)}><option value="run">One per run</option><option value="7d">Weekly (pooled)</option><option value="30d">Monthly (pooled)</option></select>
        <label class="label-text" for="h-days">Period</label>
        <select id="h-days" style=${{ width: 'auto' }} value=${days} onChange=${(e) => setDays(Number(e.target.value))}><option value="30">30 days</option><option value="90">90 days</option><option value="365">A year</option></select>
        <a href=${`/v1/tests/${id}/history?window=${windowKind}&days=${days}&format=csv`} download>Download CSV</a>
      </div></div>
    <${ErrorNote} error=${history.error} />
    ${!h
      ? html`<${Loading} what="Loading the history" />`
      : points.length === 0
        ? html`<div class="card" style=${{ marginTop: '12px' }}><${Empty} title="No finished runs in this period"><p>${t.definition ? 'Run it now, or wait for the schedule.' : 'Runs of this page appear here.'}</p></${Empty}></div>`
        : html`<div style=${{ marginTop: '12px' }}>${t.test_type === 'ai_citations' ? html`<${VisibilityCharts} points=${points} unit=${unit} />` : html`<${ContentCharts} points=${points} unit=${unit} />`}</div>`}
    ${h && h.skipped.length ? html`<section class="card"><h2>Skipped runs</h2><ul class="plain">${h.skipped.map((s) => html`<li>${when(s.slot)}: ${SKIP_TEXT[s.reason] || statusText(s.reason)}</li>`)}</ul></section>` : null}
    <section class="card" aria-labelledby="t-runs"><h2 id="t-runs">Runs</h2>
      ${(t.runs || []).length === 0
        ? html`<p class="muted">No runs yet.</p>`
        : html`<${Table} caption="Runs of this test" captionHidden rowKey=${(r) => r.run_id} rows=${t.runs} columns=${[
            { label: 'Run', cell: (r) => html`<a href=${(r.run_id.startsWith('ci_') ? '/console/content/' : '/console/runs/') + r.run_id}>${when(r.created_at)}</a>` },
            { label: 'Source', cell: (r) => r.source || '—' },
            { label: 'Status', cell: (r) => html`<${Badge} value=${r.status} />` },
            { label: 'Result', cell: (r) => (r.summary ? pct(r.summary.mention_rate) : r.overall_score != null ? `${r.overall_score}/100` : '—'), num: true },
          ]} />`}
    </section>`;
}
