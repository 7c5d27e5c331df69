// Projects: one brand's workspace. The brand and its competitors, markets, platforms, the prompt
// library with topics (bulk import, prompt ideas), and the dashboard: the brand and each
// competitor over time, the prompt × platform matrix with changes (filtered by topic), topics
// rolled up, cited domains per prompt, and the prompts where competitors are named and the brand
// is not. Every rate says how many answers it rests on and thin evidence is marked. The sample
// planner says how many repeats a goal needs and what it costs a month before anything is spent.
// One-off runs for the project's page are listed apart from the tracked series.
import { html, useEffect, useRef, useState, navigate, PageHead, Table, Badge, Note, ErrorNote, Empty, Loading, Stat, Field, useData, pct, when, ago, platformName, TERMINAL, urlInputProps, plural, sentimentText, assistantName, CopyButton } from '../ui.js';
import { get, post, patch, del, idempotencyKey } from '../api.js';
import { MonthlyCost } from '../cost.js';
import { Chart, definitionSets } from './tests.js';

const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
const ciText = (c) => (c && c.low != null ? `${pct(c.low)}–${pct(c.high)}` : '—');
const at = (iso) => Math.floor(Date.parse(iso) / 1000);
const shortDate = (iso) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const signed = (x) => (x === null || x === undefined ? '—' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(Math.round(x * 100))} pts`);

/** A rate with its interval and the answers it rests on; thin evidence says so in words. */
function Rate({ r, ci = true }) {
  if (!r || r.mention_rate === null || r.mention_rate === undefined) return html`<span class="muted">no answers</span>`;
  return html`<span class="rate"><strong>${pct(r.mention_rate)}</strong>${ci && r.mention_rate_ci ? html` <span class="small muted">${ciText(r.mention_rate_ci)}</span>` : null}
    <span class="small muted"> · n=${r.n}</span>${r.thin ? html` <span class="badge thin" title="Fewer than 10 answers, or an interval wider than ±20 points">thin</span>` : null}</span>`;
}

/** Why the server gives a window's rates no change from the window before. */
const NOT_COMPARABLE = {
  definition_changed: 'the window before asked something else',
  definition_mixed: 'this window or the one before mixes what was asked',
};

/** What a prompt's matrix cell says for a change the server did not compare (short: the cell is narrow). */
const PROMPT_NOT_COMPARABLE = {
  no_previous_window: 'no earlier window',
  definition_changed: 'asked otherwise before',
  definition_mixed: 'mixed asks, not compared',
};

function Change({ value, none = 'no earlier window' }) {
  if (value === null || value === undefined) return html`<span class="small muted">${none}</span>`;
  const kind = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  return html`<span class=${'change ' + kind}>${signed(value)}</span>`;
}


// ---- Schedule (the common shapes; a custom cron is kept as it is) ----

function scheduleText(s) {
  if (!s) return 'Not scheduled (run it by hand)';
  const m = /^(\d+) (\d+) (\*|\d+) \* (\*|\d)$/.exec(s.cron);
  if (!m) return `cron “${s.cron}” (${s.timezone})`;
  const time = `${m[2].padStart(2, '0')}:${m[1].padStart(2, '0')}`;
  if (m[3] === '*' && m[4] === '*') return `Daily at ${time} (${s.timezone})`;
  if (m[3] === '*') return `Weekly on ${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][Number(m[4])]} at ${time} (${s.timezone})`;
  return `Monthly on day ${m[3]} at ${time} (${s.timezone})`;
}

function scheduleMode(s) {
  if (!s) return 'none';
  if (s.cron === '0 6 * * *') return 'daily';
  if (s.cron === '0 6 * * 1') return 'weekly';
  if (s.cron === '0 6 1 * *') return 'monthly';
  return 'keep';
}
const CRON = { daily: '0 6 * * *', weekly: '0 6 * * 1', monthly: '0 6 1 * *' };
// ---- List ----

export function ProjectsPage() {
  const projects = useData(() => get('/v1/projects?limit=100'));
  return html`<${PageHead} title="Projects" sub="One brand's workspace: competitors, markets, a prompt library with topics, tracked on a schedule and a budget.">
      <a class="button" href="/console/projects/new">New project</a>
    </${PageHead}>
    <${ErrorNote} error=${projects.error} />
    ${!projects.data
      ? projects.error
        ? null
        : html`<${Loading} />`
      : projects.data.projects.length === 0
        ? html`<div class="card"><${Empty} title="No projects yet"><p>Set up a brand with its competitors and the prompts your customers ask, then track them on every platform.</p><a class="button" href="/console/projects/new">Create a project</a></${Empty}></div>`
        : html`<div class="card"><${Table} caption="Projects" captionHidden rowKey=${(p) => p.id} rows=${projects.data.projects} columns=${[
            { label: 'Project', cell: (p) => html`<a href=${'/console/projects/' + p.id}><strong>${p.name}</strong></a><div class="small muted">${p.url}</div>`, wide: true },
            { label: 'Competitors', cell: (p) => p.competitors.map((c) => c.name).join(', ') || '—' },
            { label: 'Markets', cell: (p) => p.markets.map((m) => `${m.language}-${m.country}`).join(', ') },
            { label: 'Mention rate, latest week', cell: (p) => html`<${GlanceRate} g=${p.glance} />` },
            { label: 'Change', cell: (p) => html`<${GlanceChange} g=${p.glance} />` },
            { label: 'Prompts', cell: (p) => p.prompt_count, num: true },
            { label: 'Last run', cell: (p) => ago(p.glance.last_run_at) },
          ]} /></div>
          <p class="small muted" data-testid="glance-note">The brand's mention rate in each project's latest 7-day window of the last 90 days (its dashboard's first figure) with its 95% interval and the answers it rests on, and the change from the last earlier week that asked the same: <strong>significant</strong> when larger than the noise (a two-proportion test at 95%), otherwise within the noise.</p>`}`;
}

/** A list row's latest rate (the server's glance): rate, band, interval, n, thin and sandbox marks. */
function GlanceRate({ g }) {
  if (!g.latest_period) return html`<span class="small muted">no runs in 90 days</span>`;
  return html`<${Rate} r=${g} />${g.visibility_band ? html` <${Badge} value=${g.visibility_band} />` : null}${g.engine === 'sandbox' || g.engine === 'mixed' ? html` <span class="badge" title="Answers from the sandbox engine: simulated, not asked of real AI platforms">${g.engine === 'sandbox' ? 'sandbox' : 'partly sandbox'}</span>` : null}
    <div class="small muted">week ending ${shortDate(g.latest_period.end)}${g.complete ? '' : ' · a run is still going'}</div>`;
}

/** A list row's change from the last comparable week, and whether it is beyond the noise. */
function GlanceChange({ g }) {
  if (g.change === null) return html`<span class="small muted">${!g.latest_period ? '—' : !g.complete ? 'once the runs finish' : 'no comparable earlier week'}</span>`;
  return html`<${Change} value=${g.change} /><div class="small">${g.change_significant ? html`<strong>significant</strong>` : html`<span class="muted">within the noise</span>`}</div>
    <div class="small muted">vs week ending ${shortDate(g.previous_period.end)}</div>`;
}

// ---- Create and edit ----

export function ProjectEditPage({ id }) {
  const existing = useData(() => (id ? get(`/v1/projects/${id}`) : Promise.resolve(null)), [id]);
  const models = useData(() => get('/v1/visibility/models'));
  const title = id ? 'Project settings' : 'New project';
  if (existing.error || models.error) return html`<${PageHead} title=${title} /><${ErrorNote} error=${existing.error || models.error} />`;
  if (existing.loading || !models.data) return html`<${PageHead} title=${title} /><${Loading} />`;
  return html`<${ProjectForm} project=${existing.data} listing=${models.data.platforms} />`;
}

const blankCompetitor = () => ({ name: '', aliases: '', domains: '' });

function ProjectForm({ project, listing }) {
  const p = project || {};
  const [name, setName] = useState(p.name || '');
  const [url, setUrl] = useState(p.url || '');
  const [brand, setBrand] = useState(p.brand ? p.brand.name : '');
  const [aliases, setAliases] = useState(p.brand ? p.brand.aliases.join(', ') : '');
  const [domains, setDomains] = useState(p.brand ? p.brand.domains.join(', ') : '');
  const [competitors, setCompetitors] = useState(() => (p.competitors || []).map((c) => ({ name: c.name, aliases: c.aliases.join(', '), domains: c.domains.join(', ') })).concat(project ? [] : [blankCompetitor()]));
  const [markets, setMarkets] = useState((p.markets || [{ language: 'en', country: 'US' }]).map((m) => `${m.language}-${m.country}`).join(', '));
  const [platforms, setPlatforms] = useState(new Set(p.platforms || ['openai', 'perplexity']));
  const [repeats, setRepeats] = useState(String(p.repeats || 1));
  const [mode, setMode] = useState(project ? scheduleMode(p.schedule) : 'weekly');
  const [timezone, setTimezone] = useState((p.schedule && p.schedule.timezone) || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const [budget, setBudget] = useState(p.monthly_credit_budget || '');
  const [prompts, setPrompts] = useState('');
  const [format, setFormat] = useState('lines');
  const [topics, setTopics] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const price = (pl) => Number(((listing[pl] || []).find((m) => m.default) || {}).credits_per_probe || 0);
  const marketList = list(markets);
  const promptCount = project ? p.prompt_count : importCount(prompts, format);
  const parseMarket = (m) => {
    const [language, country] = m.split(/[-_]/);
    return { language: (language || '').trim(), country: (country || '').trim() };
  };
  // A market the server would refuse, said in these words (its own message names a JSON path),
  // once the field is left or the form sent: "english" is a language without a country.
  const [marketsLeft, setMarketsLeft] = useState(false);
  const badMarkets = marketList.filter((m) => {
    const parts = m.split(/[-_]/).map((x) => x.trim());
    return parts.length !== 2 || parts[0].length < 2 || parts[0].length > 16 || parts[1].length < 2 || parts[1].length > 8;
  });
  const marketsError =
    marketsLeft && badMarkets.length
      ? `${badMarkets.map((m) => `“${m}”`).join(', ')} ${badMarkets.length === 1 ? 'is not a market' : 'are not markets'}: write a language and a country, like en-US or de-DE.`
      : marketsLeft && marketList.length === 0
        ? 'Name at least one market, like en-US.'
        : null;
  const schedule = mode === 'none' ? null : mode === 'keep' ? p.schedule : { cron: CRON[mode], timezone: timezone.trim() || 'UTC' };
  // The server's quote of these settings (POST /v1/projects/estimate): one run's price as the create
  // prices it (the project's models included), the runs of each calendar month in the schedule's
  // time zone and what the budget pays for, as the scheduler will count.
  const estimateBody = JSON.stringify({
    prompt_count: promptCount,
    markets: marketList.map(parseMarket).filter((m) => m.language && m.country),
    platforms: [...platforms],
    // A project's models (set through the API) price its runs; the form keeps them.
    ...(p.models ? { models: Object.fromEntries(Object.entries(p.models).filter(([pl]) => platforms.has(pl))) } : {}),
    repeats: Number(repeats),
    schedule,
    monthly_credit_budget: budget === '' ? null : String(budget),
  });
  const [estimate, setEstimate] = useState(null);
  const [estimateError, setEstimateError] = useState(null);
  useEffect(() => {
    if (platforms.size === 0) {
      setEstimate(null);
      setEstimateError(null);
      return;
    }
    let live = true;
    const t = setTimeout(async () => {
      try {
        const e = await post('/v1/projects/estimate', JSON.parse(estimateBody));
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
  const costPending = platforms.size > 0 && !estimateError && (!estimate || estimate.body !== estimateBody);
  const setCompetitor = (i, k) => (e) => setCompetitors(competitors.map((c, j) => (j === i ? { ...c, [k]: e.target.value } : c)));

  const submit = async (e) => {
    e.preventDefault();
    if (badMarkets.length || marketList.length === 0) {
      setMarketsLeft(true);
      document.getElementById('pf-markets').focus();
      return;
    }
    setBusy(true);
    setError(null);
    const parsedMarkets = marketList.map(parseMarket);
    const body = {
      name: name.trim() || null,
      url: url.trim(),
      brand: { name: brand.trim(), aliases: list(aliases), domains: list(domains) },
      competitors: competitors.filter((c) => c.name.trim()).map((c) => ({ name: c.name.trim(), aliases: list(c.aliases), domains: list(c.domains) })),
      markets: parsedMarkets,
      platforms: [...platforms],
      repeats: Number(repeats),
      monthly_credit_budget: budget === '' ? null : String(budget),
    };
    if (mode !== 'keep') body.schedule = mode === 'none' ? null : { cron: CRON[mode], timezone: timezone.trim() || 'UTC' };
    try {
      if (project) {
        await patch(`/v1/projects/${project.id}`, body);
        navigate('/console/projects/' + project.id);
        return;
      }
      const created = await post('/v1/projects', body);
      if (prompts.trim()) {
        try {
          await post(`/v1/projects/${created.id}/prompts`, { text: prompts, format, ...(list(topics).length ? { topics: list(topics) } : {}) });
        } catch (err) {
          // The project exists: go to it, where the library's import form says what was wrong.
          navigate('/console/projects/' + created.id, { state: { importError: err.message } });
          return;
        }
      }
      navigate('/console/projects/' + created.id);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return html`<${PageHead} title=${project ? `Settings of “${p.name}”` : 'New project'} sub="The project's tracked tests (one per market) follow these settings: schedule, budget, prompts and all." />
    <form onSubmit=${submit} class="project-form">
      <section class="card" aria-labelledby="pf-brand"><h2 id="pf-brand">Brand</h2>
        <div class="form-grid">
          <${Field} id="pf-name" label="Project name (optional)"><input id="pf-name" type="text" maxlength="200" value=${name} onInput=${(e) => setName(e.target.value)} /></${Field}>
          <${Field} id="pf-url" label="Brand site URL"><input id="pf-url" type="url" required value=${url} onInput=${(e) => setUrl(e.target.value)} ...${urlInputProps(setUrl)} /></${Field}>
          <${Field} id="pf-brand-name" label="Brand name"><input id="pf-brand-name" type="text" required value=${brand} onInput=${(e) => setBrand(e.target.value)} /></${Field}>
          <${Field} id="pf-aliases" label="Brand aliases (comma-separated)"><input id="pf-aliases" type="text" value=${aliases} onInput=${(e) => setAliases(e.target.value)} /></${Field}>
          <${Field} id="pf-domains" label="Brand domains (comma-separated)"><input id="pf-domains" type="text" placeholder="acme.example" value=${domains} onInput=${(e) => setDomains(e.target.value)} /></${Field}>
        </div>
      </section>
      <section class="card" aria-labelledby="pf-comp"><h2 id="pf-comp">Competitors</h2>
        ${competitors.map(
          (c, i) => html`<fieldset class="competitor"><legend>Competitor ${i + 1}</legend><div class="form-grid">
            <${Field} id=${`pf-c${i}-name`} label=${`Competitor ${i + 1} name`}><input id=${`pf-c${i}-name`} type="text" value=${c.name} onInput=${setCompetitor(i, 'name')} /></${Field}>
            <${Field} id=${`pf-c${i}-aliases`} label=${`Competitor ${i + 1} aliases`}><input id=${`pf-c${i}-aliases`} type="text" value=${c.aliases} onInput=${setCompetitor(i, 'aliases')} /></${Field}>
            <${Field} id=${`pf-c${i}-domains`} label=${`Competitor ${i + 1} domains`}><input id=${`pf-c${i}-domains`} type="text" value=${c.domains} onInput=${setCompetitor(i, 'domains')} /></${Field}>
          </div><button type="button" class="link" onClick=${() => setCompetitors(competitors.filter((_, j) => j !== i))}>Remove competitor ${i + 1}</button></fieldset>`,
        )}
        ${competitors.length < 10 ? html`<button type="button" class="secondary" onClick=${() => setCompetitors([...competitors, blankCompetitor()])}>Add a competitor</button>` : null}
      </section>
      <section class="card" aria-labelledby="pf-where"><h2 id="pf-where">Markets and platforms</h2>
        <${Field} id="pf-markets" label="Markets (language-country, comma-separated)" hint="One tracked test per market, e.g. en-US, de-DE." error=${marketsError}><input id="pf-markets" type="text" required value=${markets} onInput=${(e) => setMarkets(e.target.value)} onBlur=${() => setMarketsLeft(true)} aria-describedby="pf-markets-hint" /></${Field}>
        <fieldset><legend>Platforms (default models)</legend><div class="checks">
          ${Object.keys(listing).map((pl) => html`<label class="check"><input type="checkbox" checked=${platforms.has(pl)} onChange=${() => { const n = new Set(platforms); n.has(pl) ? n.delete(pl) : n.add(pl); setPlatforms(n); }} /><span>${platformName(pl)} <span class="small muted">${price(pl).toFixed(2)} cr</span></span></label>`)}
        </div></fieldset>
        <${Field} id="pf-repeats" label="Repeats per prompt × platform" hint="More repeats narrow each rate's interval; the project page plans how many a goal needs."><select id="pf-repeats" value=${repeats} onChange=${(e) => setRepeats(e.target.value)} aria-describedby="pf-repeats-hint">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => html`<option value=${String(n)}>${n}</option>`)}</select></${Field}>
      </section>
      ${project
        ? null
        : html`<section class="card" aria-labelledby="pf-prompts"><h2 id="pf-prompts">Prompt library</h2>
            <${PromptImportFields} text=${prompts} setText=${setPrompts} format=${format} setFormat=${setFormat} topics=${topics} setTopics=${setTopics} prefix="pf" />
            <p class="small muted">${plural(promptCount, 'prompt')} to import. More can be added later, and the project page suggests prompt ideas for the site.</p>
          </section>`}
      <section class="card" aria-labelledby="pf-sched"><h2 id="pf-sched">Schedule and budget</h2>
        <div class="form-grid">
          <${Field} id="pf-mode" label="Repeat"><select id="pf-mode" value=${mode} onChange=${(e) => setMode(e.target.value)}>
            ${mode === 'keep' ? html`<option value="keep">${scheduleText(p.schedule)}</option>` : null}
            <option value="none">Not scheduled (run it by hand)</option><option value="daily">Daily at 06:00</option><option value="weekly">Weekly, Monday 06:00</option><option value="monthly">Monthly, day 1 at 06:00</option>
          </select></${Field}>
          ${mode !== 'none' && mode !== 'keep' ? html`<${Field} id="pf-tz" label="Time zone"><input id="pf-tz" type="text" value=${timezone} onInput=${(e) => setTimezone(e.target.value)} /></${Field}>` : null}
          <${Field} id="pf-budget" label="Monthly budget (credits, optional)" hint="Shared evenly between the markets; a scheduled run that would pass it is skipped."><input id="pf-budget" type="number" min="0" step="0.01" value=${budget} onInput=${(e) => setBudget(e.target.value)} aria-describedby="pf-budget-hint" /></${Field}>
        </div>
        <p data-testid="project-cost" class=${costPending ? 'muted' : ''} aria-busy=${costPending ? 'true' : 'false'}>One run of every market costs <strong>${platforms.size === 0 ? 'nothing (no platform chosen)' : estimate ? `${estimate.credits_per_run} credits` : '…'}</strong> (${plural(promptCount, 'prompt')} × ${plural(platforms.size, 'platform')} × ${plural(Number(repeats), 'repeat')} × ${plural(Math.max(1, marketList.length), 'market')}).</p>
        <${MonthlyCost} estimate=${estimate} stale=${!!estimate && estimate.body !== estimateBody} error=${estimateError} mode=${mode} budget=${budget} setBudget=${setBudget} />
        <${ErrorNote} error=${error} />
        <div class="actions"><button type="submit" disabled=${busy}>${project ? 'Save changes' : 'Create project'}</button><a class="button secondary" href=${project ? '/console/projects/' + project.id : '/console/projects'}>Cancel</a></div>
      </section>
    </form>`;
}


/** How many prompts pasted text holds (lines, or CSV rows after the header); the server decides. */
function importCount(text, format) {
  const lines = text.split('\n').map((s) => s.trim()).filter(Boolean);
  return format === 'csv' ? Math.max(0, lines.length - 1) : lines.length;
}

function PromptImportFields({ text, setText, format, setFormat, topics, setTopics, prefix }) {
  return html`<fieldset><legend>Format</legend><div class="row">
      <label class="check"><input type="radio" name=${prefix + '-format'} checked=${format === 'lines'} onChange=${() => setFormat('lines')} /><span>One prompt per line</span></label>
      <label class="check"><input type="radio" name=${prefix + '-format'} checked=${format === 'csv'} onChange=${() => setFormat('csv')} /><span>CSV with a <code>prompt</code> and a <code>topics</code> column</span></label>
    </div></fieldset>
    <${Field} id=${prefix + '-text'} label="Prompts to import" hint=${format === 'csv' ? 'Topics in the topics column are separated by ; or |.' : 'Blank lines are ignored; prompts already in the library only gain the topics.'}>
      <textarea id=${prefix + '-text'} rows="6" value=${text} onInput=${(e) => setText(e.target.value)} aria-describedby=${prefix + '-text-hint'}></textarea></${Field}>
    <${Field} id=${prefix + '-topics'} label="Topics for all of them (comma-separated, optional)"><input id=${prefix + '-topics'} type="text" value=${topics} onInput=${(e) => setTopics(e.target.value)} /></${Field}>`;
}

// ---- The project page ----

export function ProjectPage({ id, session }) {
  const project = useData(() => get(`/v1/projects/${id}`), [id]);
  const [windowKind, setWindowKind] = useState('7d');
  const [days, setDays] = useState(90);
  const [topic, setTopic] = useState('');
  const [market, setMarket] = useState('');
  const q = `window=${windowKind}&days=${days}${topic ? '&topic=' + encodeURIComponent(topic) : ''}${market ? '&market=' + encodeURIComponent(market) : ''}`;
  const dashboard = useData(() => get(`/v1/projects/${id}/dashboard?${q}`), [id, q]);
  const testIds = project.data ? project.data.tests.map((t) => t.test_id).join(',') : '';
  // The runs and the plan wait for the dashboard: one server answers them all, and the
  // dashboard is what the page is for (a big project's first paint is the dashboard's).
  const settled = !!(dashboard.data || dashboard.error);
  const runs = useData(() => (project.data && settled ? loadRuns(project.data) : Promise.resolve(null)), [testIds, settled]);
  useEffect(() => {
    // While a run is queued or running, the runs follow it (and the dashboard when one ends).
    if (!runs.data || !runs.data.tracked.some((r) => !TERMINAL.has(r.status))) return;
    const t = setTimeout(runs.reload, 1500);
    return () => clearTimeout(t);
  }, [runs.data]);
  const [error, setError] = useState(null);
  const [notice, setNotice] = useState(null);
  // When a run finishes, the dashboard reads again.
  const finished = runs.data ? runs.data.tracked.filter((r) => TERMINAL.has(r.status)).length : null;
  const seen = useRef(null);
  useEffect(() => {
    if (finished === null) return;
    if (seen.current !== null && finished > seen.current) dashboard.reload();
    seen.current = finished;
  }, [finished]);

  if (project.error && !project.data) return html`<${PageHead} title="Project" /><${ErrorNote} error=${project.error} />`;
  if (!project.data) return html`<${PageHead} title="Project" /><${Loading} />`;
  const p = project.data;
  const act = async (fn, message) => {
    setError(null);
    setNotice(null);
    try {
      await fn();
      if (message) setNotice(message);
      await project.reload();
      runs.reload();
      dashboard.reload();
    } catch (err) {
      setError(err);
    }
  };
  const runNow = () => act(() => post(`/v1/projects/${id}/runs`, { idempotency_key: idempotencyKey() }), `Runs queued, one per market. The dashboard updates as they finish.`);
  const remove = () => {
    if (!confirm(`Delete the project “${p.name}”? Its runs stay readable.`)) return;
    act(async () => {
      await del(`/v1/projects/${id}`);
      navigate('/console/projects');
    });
  };
  const d = dashboard.data;
  const importError = history.state && history.state.importError;
  return html`<${PageHead} title=${p.name} sub=${html`<a href=${p.url} rel="noopener noreferrer" target="_blank">${p.url}</a> · ${plural(p.prompt_count, 'prompt')} · ${p.markets.map((m) => `${m.language}-${m.country}`).join(', ')}`}>
      <button type="button" onClick=${runNow} disabled=${p.prompt_count === 0}>Run now</button>
      <a class="button secondary" href=${`/console/projects/${id}/edit`}>Settings</a>
      <button type="button" class="danger" onClick=${remove}>Delete</button>
    </${PageHead}>
    <${ErrorNote} error=${error} />
    ${importError ? html`<${Note} kind="error"><p>The project was created, but its prompts were not imported: ${importError}</p></${Note}>` : null}
    ${notice ? html`<${Note} kind="ok"><p>${notice}</p></${Note}>` : null}
    <${Facts} p=${p} />
    <div class="row spread dash-controls"><h2 class="inline-h2">Dashboard</h2>
      <div class="row">
        <span class="ctl"><label class="label-text" for="d-topic">Topic</label>
        <select id="d-topic" class="auto" value=${topic} onChange=${(e) => setTopic(e.target.value)}><option value="">All topics</option>${p.topics.map((t) => html`<option value=${t.topic}>${t.topic} (${t.prompts})</option>`)}</select></span>
        ${p.markets.length > 1
          ? html`<span class="ctl"><label class="label-text" for="d-market">Market</label>
              <select id="d-market" class="auto" value=${market} onChange=${(e) => setMarket(e.target.value)}><option value="">All markets</option>${p.markets.map((m) => html`<option value=${`${m.language}-${m.country}`}>${m.language}-${m.country}</option>`)}</select></span>`
          : null}
        <span class="ctl"><label class="label-text" for="d-window">Windows</label>
        <select id="d-window" class="auto" value=${windowKind} onChange=${(e) => setWindowKind(e.target.value)}><option value="7d">Weekly</option><option value="30d">Monthly</option></select></span>
        <span class="ctl"><label class="label-text" for="d-days">Period</label>
        <select id="d-days" class="auto" value=${days} onChange=${(e) => setDays(Number(e.target.value))}><option value="30">30 days</option><option value="90">90 days</option><option value="365">A year</option></select></span>
        <${CsvLinks} p=${p} market=${market} query=${`window=${windowKind}&days=${days}`} />
      </div></div>
    <${ErrorNote} error=${dashboard.error} />
    ${!d ? html`<${Loading} what="Loading the dashboard" />` : html`<${Dashboard} d=${d} p=${p} />`}
    <${Share} p=${p} member=${!!session && session.user.account_role === 'member'} settings=${{ window: windowKind, days, topic: topic || null, market: market || null }} />
    <${Library} p=${p} reload=${() => (project.reload(), dashboard.reload())} />
    ${settled ? html`<${SamplePlan} p=${p} reload=${project.reload} />` : null}
    <${Runs} p=${p} runs=${runs} />`;
}

/**
 * The numbers behind the dashboard as a spreadsheet: each market's tracked-test history in these
 * windows and days (GET /v1/tests/{id}/history?format=csv), every prompt and prompt × platform
 * per window, the brand's and each competitor's rate. One link a market (the chosen one only).
 */
function CsvLinks({ p, market, query }) {
  const tests = p.tests.filter((t) => !market || t.market === market);
  if (tests.length === 0) return null;
  const many = p.tests.length > 1;
  return html`<span class="ctl" data-testid="csv-links"><span class="label-text">${many ? 'CSV' : ''}</span>${tests.map(
    (t, i) => html`${i ? ' · ' : ''}<a href=${`/v1/tests/${t.test_id}/history?${query}&format=csv`} download aria-label=${many ? `Download the ${t.market || 'default market'} numbers as CSV` : undefined}>${many ? t.market || 'default market' : 'Download CSV'}</a>`,
  )}</span>`;
}

/**
 * Share the report with a client: a read-only link (and its PDF) of the dashboard as filtered
 * above, made, listed and revoked through /v1/projects/{id}/shares. The link is in the create's
 * answer only, so it is shown here once, with a copy button. Only an admin makes links (a link
 * outlives whoever made it: the API refuses a member, 403 team_admin_required); a member sees why
 * instead of the form, and still revokes.
 */
function Share({ p, settings, member }) {
  const shares = useData(() => get(`/v1/projects/${p.id}/shares`), [p.id]);
  const [days, setDays] = useState('30');
  const [made, setMade] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const what = [settings.window === '30d' ? 'monthly windows' : 'weekly windows', `over ${settings.days} days`, settings.topic ? `topic “${settings.topic}”` : 'all topics', settings.market ? `market ${settings.market}` : p.markets.length > 1 ? 'all markets' : null].filter(Boolean).join(', ');
  const make = async (e) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      setMade(await post(`/v1/projects/${p.id}/shares`, { expires_in_days: Number(days), ...settings }));
      shares.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (s) => {
    if (!confirm('Revoke this link? Whoever has it can no longer open the report.')) return;
    setError(null);
    try {
      await del(`/v1/projects/${p.id}/shares/${s.id}`);
      if (made && made.id === s.id) setMade(null);
      shares.reload();
    } catch (err) {
      setError(err);
    }
  };
  const list = shares.data ? shares.data.shares : [];
  return html`<section class="card" aria-labelledby="share-title" data-testid="share"><h2 id="share-title">Share with a client</h2>
    <p class="small muted">A read-only link to this report, as a web page and a PDF, that opens without signing in. It shows the dashboard as filtered above (${what}); the numbers are computed again on every visit.</p>
    ${member
      ? html`<${Note} kind="info"><p>Only an admin of this account makes share links: a link opens the report for anyone who has it, and keeps working after anyone leaves the team. Ask an admin (see <a href="/console/team">Team</a>); you can revoke the links below.</p></${Note}>`
      : html`<form class="row share-form" onSubmit=${make}>
      <${Field} id="share-days" label="Link works for"><select id="share-days" class="auto" value=${days} onChange=${(e) => setDays(e.target.value)}>${[7, 14, 30, 90, 365].map((n) => html`<option value=${String(n)}>${n} days</option>`)}</select></${Field}>
      <button type="submit" disabled=${busy}>Make a share link</button>
    </form>`}
    <${ErrorNote} error=${error || shares.error} />
    ${made
      ? html`<${Note} kind="ok"><p>The link is shown only now: copy it and send it to your client. It works until ${shortDate(made.expires_at)}.</p>
          <div class="share-link"><input id="share-url" type="text" readonly value=${made.url} aria-label="Share link" onFocus=${(e) => e.target.select()} /><${CopyButton} text=${made.url} targetId="share-url" label="Copy link" /></div>
          <p class="small"><a href=${made.url} target="_blank" rel="noopener noreferrer">Open the report</a> · <a href=${made.url + '/report.pdf'} target="_blank" rel="noopener noreferrer">Download the PDF</a></p></${Note}>`
      : null}
    ${list.length
      ? html`<h3>Links made</h3><${Table} caption="Share links of this project, newest first" captionHidden rowKey=${(s) => s.id} rows=${list} columns=${[
          { label: 'Made', cell: (s) => when(s.created_at) },
          { label: 'Shows', cell: (s) => [s.window === '30d' ? 'monthly' : 'weekly', `${s.days} days`, s.topic ? `topic “${s.topic}”` : null, s.market].filter(Boolean).join(', ') },
          // A link whose topic or market the project no longer has opens a page saying so, not the report.
          { label: 'Status', cell: (s) => html`<${Badge} value=${s.status} />${s.report_status && s.report_status !== 'ok' ? html` <${Badge} value="warn" label=${s.report_status === 'market_gone' ? 'market gone: shows no report' : 'topic gone: shows no report'} />` : null}` },
          { label: 'Works until', cell: (s) => (s.status === 'revoked' ? `revoked ${shortDate(s.revoked_at)}` : shortDate(s.expires_at)) },
          { label: 'Action', cell: (s) => (s.status === 'active' ? html`<button type="button" class="secondary" onClick=${() => revoke(s)} aria-label=${`Revoke the link made ${when(s.created_at)}`}>Revoke</button>` : '—') },
        ]} />`
      : shares.data
        ? html`<p class="small muted">No links made yet.</p>`
        : null}
  </section>`;
}

/** The runs of every market's test, and the runs for the project's page kept apart from them. */
async function loadRuns(p) {
  const tracked = [];
  const apart = [];
  const mine = new Set(p.tests.map((t) => t.test_id));
  for (const t of p.tests) {
    const [test, h] = await Promise.all([get(`/v1/tests/${t.test_id}`), get(`/v1/tests/${t.test_id}/history?days=365`)]);
    for (const r of test.runs || []) tracked.push({ ...r, market: t.market, test_id: t.test_id });
    for (const r of h.other_runs || []) apart.push({ ...r, market: t.market, why: 'asked something other than the project’s prompts' });
  }
  // One-off runs for the same page and brand attach to the page's ordinary test, never to the project's.
  const others = (await get('/v1/tests?limit=50&test_type=ai_citations')).tests.filter((t) => !mine.has(t.id) && t.url === p.url && (t.target_entity || '') === p.brand.name);
  for (const t of others) {
    const test = await get(`/v1/tests/${t.id}`);
    for (const r of test.runs || []) apart.push({ ...r, why: 'a one-off run for this page', test_id: t.id });
  }
  tracked.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  apart.sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  return { tracked, apart };
}

function Facts({ p }) {
  return html`<details class="card facts-card"><summary><strong>Brand, competitors and schedule</strong> <span class="small muted">${p.competitors.length} competitor${p.competitors.length === 1 ? '' : 's'} · ${p.platforms.map(platformName).join(', ')} · ${p.repeats} repeat${p.repeats === 1 ? '' : 's'}</span></summary>
    <dl class="facts">
      <dt>Brand</dt><dd><strong>${p.brand.name}</strong>${p.brand.aliases.length ? ` (also ${p.brand.aliases.join(', ')})` : ''}${p.brand.domains.length ? ` · ${p.brand.domains.join(', ')}` : ''}</dd>
      <dt>Competitors</dt><dd>${p.competitors.length ? p.competitors.map((c, i) => html`${i ? '; ' : ''}<strong>${c.name}</strong>${c.aliases.length ? ` (also ${c.aliases.join(', ')})` : ''}${c.domains.length ? ` · ${c.domains.join(', ')}` : ''}`) : 'none'}</dd>
      <dt>Platforms</dt><dd>${p.platforms.map(platformName).join(', ')}, ${p.repeats} repeat${p.repeats === 1 ? '' : 's'} each</dd>
      <dt>Schedule</dt><dd>${scheduleText(p.schedule)}</dd>
      <dt>Budget</dt><dd>${p.monthly_credit_budget ? `${p.monthly_credit_budget} credits a month, shared between the markets` : 'no budget'}</dd>
      <dt>Tests</dt><dd>${p.tests.map((t, i) => html`${i ? ', ' : ''}<a href=${'/console/tests/' + t.test_id}>${t.market || 'default market'}</a> (${t.run_count} runs, ${t.credits_used_this_month} cr this month)`)}</dd>
    </dl></details>`;
}

function Dashboard({ d, p }) {
  const last = d.series.at(-1);
  if (!last) {
    return html`<div class="card"><${Empty} title="No finished runs in this period"><p>${p.prompt_count ? 'Run the project now, or wait for its schedule. Plan the sample first (below) to know how many repeats you need.' : 'Import prompts into the library first.'}</p></${Empty}></div>`;
  }
  const names = [p.brand.name, ...last.competitors.map((c) => c.name)];
  // The server compares the latest window with the one before only when both asked the same;
  // otherwise `change` is null and `not_comparable_reason` says why.
  const reason = last.not_comparable_reason;
  const before = reason !== 'no_previous_window';
  const compared = reason === null;
  const entities = [{ name: p.brand.name, brand: true, ...last.brand }, ...last.competitors];
  const times = d.series.map((s) => at(s.end));
  // Where what the project asked changed (its prompts, platforms, repeats, markets or
  // competitors): a dashed line, the lines broken there, each window's set in the tables.
  const sets = definitionSets(d.series);
  const asked = sets.label ? [{ label: 'Asked', cell: sets.label }] : [];
  const rateOf = (s, i) => (i === 0 ? s.brand : s.competitors[i - 1] || {}).mention_rate ?? null;
  const sovOf = (s, i) => (i === 0 ? s.brand : s.competitors[i - 1] || {}).share_of_voice ?? null;
  return html`
    ${d.topic ? html`<p class="small" data-testid="topic-filter-note">Showing the prompts tagged <strong>${d.topic}</strong> only.</p>` : null}
    <div class="stats">
      <${Stat} label="Mention rate" value=${pct(last.brand.mention_rate)} sub=${html`95% interval ${ciText(last.brand.mention_rate_ci)} · ${last.brand.n} answers${last.brand.thin ? html` <span class="badge thin">thin</span>` : ''}`} />
      <${Stat} label="Share of voice" value=${pct(last.brand.share_of_voice)} sub="of all brand mentions" />
      <${Stat} label="Sentiment" value=${html`<span class="small">${sentimentText(last.brand.sentiment)}</span>`} />
      <${Stat} label="Window" value=${html`<span class="small">${shortDate(d.latest_period.start)} – ${shortDate(d.latest_period.end)}</span>`} sub=${`${last.run_ids.length} run${last.run_ids.length === 1 ? '' : 's'}${compared ? `; compared with ${shortDate(d.previous_period.start)} – ${shortDate(d.previous_period.end)}` : ''}`} />
    </div>
    <p class="small muted" id="thin-note">A rate is marked <span class="badge thin">thin</span> when it rests on fewer than ${d.thin_evidence.min_answers} answers or its 95% interval is wider than ±${Math.round(d.thin_evidence.max_half_width * 100)} points: too little evidence to act on. n is the number of answers.</p>
    <section class="card" aria-labelledby="d-entities"><h2 id="d-entities">Brand and competitors, latest window</h2>
      <${Table} caption="Brand and competitors in the latest window" captionHidden rowKey=${(e) => e.name} rows=${entities} columns=${[
        { label: 'Name', cell: (e) => (e.brand ? html`<strong>${e.name}</strong> <span class="small muted">(you)</span>` : e.name) },
        { label: 'Mention rate', cell: (e) => html`<${Rate} r=${e} />` },
        ...(before ? [{ label: 'Change', cell: (e) => html`<${Change} value=${e.change} none=${NOT_COMPARABLE[reason] ?? 'no answers to compare'} />` }] : []),
        { label: 'Share of voice', cell: (e) => pct(e.share_of_voice), num: true },
        { label: 'Sentiment', cell: (e) => sentimentText(e.sentiment) },
        { label: 'Prominence', cell: (e) => (e.prominence && e.prominence.first_mention_share != null ? `first named ${pct(e.prominence.first_mention_share)} into an answer` : '—') },
      ]} />
    </section>
    ${sets.label
      ? html`<${Note} kind="info"><p data-testid="p-definition-changed">What the project's runs asked changed at the dashed line (its prompts, platforms, repeats, markets or competitors, or a market with no run in a window): the windows either side are not comparable. The tables name each window's set under Asked; a window of runs that asked different things is “mixed”.</p></${Note}>`
      : null}
    <div class="grid">
      <${Chart} id="p-rate" title="Mention rate over time" summary=${`${plural(d.series.length, 'window')}; latest ${p.brand.name} ${pct(last.brand.mention_rate)} (95% interval ${ciText(last.brand.mention_rate_ci)}, n=${last.brand.n})`}
        times=${times} series=${names.map((n, i) => ({ label: n, values: d.series.map((s) => rateOf(s, i)) }))}
        bandLabel=${p.brand.name} unit="window" breaks=${sets.breaks}
        band=${{ low: d.series.map((s) => (s.brand.mention_rate_ci ? s.brand.mention_rate_ci.low : null)), high: d.series.map((s) => (s.brand.mention_rate_ci ? s.brand.mention_rate_ci.high : null)) }}
        rows=${d.series} columns=${[
          { label: 'Window ending', cell: (s) => shortDate(s.end) },
          ...asked,
          ...names.map((n, i) => ({ label: n, cell: (s) => html`<${Rate} r=${i === 0 ? s.brand : s.competitors[i - 1]} />` })),
        ]} />
      <${Chart} id="p-sov" title="Share of voice over time" summary=${`latest: ${p.brand.name} ${pct(last.brand.share_of_voice)}`}
        times=${times} unit="window" breaks=${sets.breaks} series=${names.map((n, i) => ({ label: n, values: d.series.map((s) => sovOf(s, i)) }))}
        rows=${d.series} columns=${[{ label: 'Window ending', cell: (s) => shortDate(s.end) }, ...asked, ...names.map((n, i) => ({ label: n, cell: (s) => pct(sovOf(s, i)), num: true }))]} />
    </div>
    <${Matrix} d=${d} p=${p} />
    <div class="grid">
      <section class="card" aria-labelledby="d-topics"><h2 id="d-topics">Topics</h2>
        ${d.topics.length === 0
          ? html`<p class="muted">No topics yet: give prompts topics when you import them.</p>`
          : html`<${Table} caption="Topics in the latest window" captionHidden rowKey=${(t) => t.topic} rows=${d.topics} columns=${[
              { label: 'Topic', cell: (t) => html`<strong>${t.topic}</strong> <span class="small muted">${plural(t.prompts, 'prompt')}</span>` },
              { label: 'Mention rate', cell: (t) => html`<${Rate} r=${t} />` },
              { label: 'Share of voice', cell: (t) => pct(t.share_of_voice), num: true },
            ]} />`}
      </section>
      <section class="card" aria-labelledby="d-gaps"><h2 id="d-gaps">Competitors named, you are not</h2>
        ${d.competitors_named_brand_absent.length === 0
          ? html`<p class="muted">No prompt in the latest window names a competitor without naming ${p.brand.name}.</p>`
          : html`<ul class="plain" data-testid="gaps">${d.competitors_named_brand_absent.map(
              (g) => html`<li><strong>${g.prompt}</strong> <span class="small muted">n=${g.n}</span>${g.thin ? html` <span class="badge thin">thin</span>` : null}<div class="small">${g.competitors.map((c) => `${c.name} ${pct(c.mention_rate)}`).join(', ')}</div></li>`,
            )}</ul>`}
      </section>
    </div>
    ${d.site_activity ? html`<${SiteActivity} a=${d.site_activity} days=${d.days} />` : null}`;
}

/** What the brand's own access logs say over the same days: AI crawlers (refusals apart) and AI referrals. */
function SiteActivity({ a, days }) {
  return html`<section class="card" aria-labelledby="d-site" data-testid="site-activity"><h2 id="d-site">Your site: AI crawlers and AI referrals</h2>
    <p class="small muted">From the access logs of ${a.sites.map((s, i) => html`${i ? ', ' : ''}<a href=${`/console/sites/${s.id}`}>${s.domain}</a>`)} over the last ${days} days.</p>
    <div class="stats">
      <${Stat} label="AI crawler requests" value=${a.crawler_requests.toLocaleString()} />
      <${Stat} label="Refused" value=${a.crawler_refused.toLocaleString()} sub=${a.crawler_refused ? 'answered 401, 403, 429 or 451, or challenged' : 'none'} />
      <${Stat} label="Visits from AI assistants" value=${a.referral_visits.toLocaleString()} />
    </div>
    <div class="grid">
      <${Table} caption="AI crawlers on your site" rowKey=${(c) => c.name} rows=${a.crawlers} columns=${[
        { label: 'Crawler', cell: (c) => c.name },
        { label: 'Requests', cell: (c) => c.requests.toLocaleString(), num: true },
        { label: 'Refused', cell: (c) => (c.refused ? html`<strong class="bad">${c.refused.toLocaleString()}</strong>` : '0'), num: true },
      ]} />
      <${Table} caption="Visits referred by AI assistants" rowKey=${(r) => r.source} rows=${a.referrals} columns=${[
        { label: 'Assistant', cell: (r) => assistantName(r.source) },
        { label: 'Visits', cell: (r) => r.visits.toLocaleString(), num: true },
      ]} />
    </div>
  </section>`;
}

const FIRST_ROWS = 60;

function Matrix({ d, p }) {
  const platforms = p.platforms;
  const cell = (m, pl) => m.platforms.find((x) => x.platform === pl);
  const compared = !!d.previous_period;
  // A big library paints its first rows at once and the rest right after that frame.
  const [limit, setLimit] = useState(FIRST_ROWS);
  useEffect(() => {
    if (d.matrix.length <= limit) return;
    let timer = null;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setLimit(d.matrix.length), 0)));
    return () => (cancelAnimationFrame(frame), clearTimeout(timer));
  }, [d.matrix.length, limit]);
  return html`<section class="card" aria-labelledby="d-matrix"><h2 id="d-matrix">Prompts × platforms</h2>
    <p class="small muted">For each prompt, the latest window's mention rate on every platform with the answers it rests on (n), ${compared ? `the change since the window of ${shortDate(d.previous_period.start)} – ${shortDate(d.previous_period.end)}` : 'the change once an earlier window has runs'}; who else is named; the domains the answers cited.</p>
    ${d.matrix.length === 0
      ? html`<p class="muted">No prompts${d.topic ? ' with this topic' : ''}.</p>`
      : html`<${Table} caption="Prompt × platform matrix" captionHidden rowKey=${(m) => m.prompt} rows=${d.matrix.slice(0, limit)} columns=${[
          { label: 'Prompt', wide: true, cell: (m) => html`<strong>${m.prompt}</strong><div class="small">${m.topics.map((t) => html`<span class="badge topic">${t}</span> `)}</div>` },
          // The server compares a prompt (and each platform's cell) only with a window that asked it
          // the same: a platform or market added moves the pooled rate by itself.
          { label: 'All platforms', cell: (m) => html`<div><${Rate} r=${m} />${compared ? html`<div><${Change} value=${m.change} none=${PROMPT_NOT_COMPARABLE[m.not_comparable_reason] ?? 'no answers to compare'} /></div>` : null}</div>` },
          ...platforms.map((pl) => ({
            label: platformName(pl),
            cell: (m) => {
              const c = cell(m, pl);
              if (!c) return html`<span class="muted small">no answers</span>`;
              return html`<div><${Rate} r=${c} ci=${false} />${compared ? html`<div><${Change} value=${c.change} none=${m.not_comparable_reason === 'no_previous_window' ? 'no earlier window' : 'not compared'} /></div>` : null}</div>`;
            },
          })),
          {
            label: 'Also named',
            cell: (m) => {
              const named = m.competitors.filter((c) => (c.mention_rate ?? 0) > 0);
              return named.length ? named.map((c) => `${c.name} ${pct(c.mention_rate)}`).join(', ') : html`<span class="muted">none</span>`;
            },
          },
          { label: 'Cited', cell: (m) => html`<${Cited} m=${m} />` },
        ]} />`}
  </section>`;
}

/** The domains and URLs a prompt's answers cited in the latest window (each counted once an answer). */
function Cited({ m }) {
  const urls = m.cited_urls || [];
  if (!m.cited_domains.length && !urls.length) return html`<span class="muted">none</span>`;
  const [open, setOpen] = useState(false);
  // The lists are built when opened: hundreds of closed lists would only slow the first paint.
  if (!open) return html`<details class="cited" onToggle=${(e) => e.currentTarget.open && setOpen(true)}><summary>${plural(m.cited_domains.length, 'domain')}${urls.length ? `, ${plural(urls.length, 'URL')}` : ''}</summary></details>`;
  return html`<details class="cited" open><summary>${plural(m.cited_domains.length, 'domain')}${urls.length ? `, ${plural(urls.length, 'URL')}` : ''}</summary>
    <ul class="plain small">${m.cited_domains.map((c) => html`<li>${c.domain} <span class="muted">×${c.count}</span></li>`)}</ul>
    ${urls.length ? html`<ul class="plain small urls">${urls.map((u) => html`<li>${/^https?:\/\//.test(u.url) ? html`<a href=${u.url} rel="noopener noreferrer" target="_blank">${u.url}</a>` : u.url} <span class="muted">×${u.count}</span></li>`)}</ul>` : null}
  </details>`;
}

function Library({ p, reload }) {
  const [text, setText] = useState('');
  const [format, setFormat] = useState('lines');
  const [topics, setTopics] = useState('');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [ideas, setIdeas] = useState(null);
  const [picked, setPicked] = useState(new Set());
  const doImport = async (body) => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const r = await post(`/v1/projects/${p.id}/prompts`, body);
      setResult(r);
      setText('');
      reload();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const submit = (e) => {
    e.preventDefault();
    doImport({ text, format, ...(list(topics).length ? { topics: list(topics) } : {}) });
  };
  const suggest = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await post('/v1/visibility/prompts/suggest', { url: p.url, brand_name: p.brand.name, competitors: p.competitors.map((c) => c.name).slice(0, 5), language: p.markets[0].language, country: p.markets[0].country });
      setIdeas(r.suggestions);
      setPicked(new Set(r.suggestions.map((s) => s.prompt)));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const addIdeas = async () => {
    if (await doImport({ prompts: [...picked].map((prompt) => ({ prompt, topics: ['ideas'] })) })) setIdeas(null);
  };
  const removePrompt = async (x) => {
    setError(null);
    try {
      await del(`/v1/projects/${p.id}/prompts/${x.id}`);
      reload();
    } catch (err) {
      setError(err);
    }
  };
  return html`<section class="card" aria-labelledby="lib-title"><h2 id="lib-title">Prompt library</h2>
    <p class="small muted">${plural(p.prompt_count, 'prompt')} in ${plural(p.topics.length, 'topic')}${p.topics.length ? ': ' + p.topics.map((t) => `${t.topic} (${t.prompts})`).join(', ') : ''}. Every market's test asks them all from its next run.</p>
    <details class="library-list"><summary>${p.prompt_count === 1 ? 'Show the prompt' : `Show the ${p.prompt_count} prompts`}</summary>
      <ul class="plain">${(p.prompts || []).map((x) => html`<li class="row spread"><span>${x.prompt} ${x.topics.map((t) => html`<span class="badge topic">${t}</span> `)}</span><button type="button" class="link" onClick=${() => removePrompt(x)}>Remove<span class="visually-hidden"> “${x.prompt}”</span></button></li>`)}</ul>
    </details>
    <h3>Import prompts</h3>
    <form onSubmit=${submit}>
      <${PromptImportFields} text=${text} setText=${setText} format=${format} setFormat=${setFormat} topics=${topics} setTopics=${setTopics} prefix="lib" />
      <div class="actions"><button type="submit" disabled=${busy || !text.trim()}>Import</button>
        <button type="button" class="secondary" disabled=${busy} onClick=${suggest}>Suggest prompt ideas (1 credit)</button></div>
    </form>
    ${result ? html`<${Note} kind="ok"><p data-testid="import-result">Added ${result.added}; ${result.duplicates} already in the library. ${plural(result.prompt_count, 'prompt')} in all.</p></${Note}>` : null}
    <${ErrorNote} error=${error} />
    ${ideas
      ? html`<h3>Prompt ideas for ${p.url}</h3>
          ${ideas.map((i) => html`<label class="check"><input type="checkbox" checked=${picked.has(i.prompt)} onChange=${() => { const n = new Set(picked); n.has(i.prompt) ? n.delete(i.prompt) : n.add(i.prompt); setPicked(n); }} /><span>${i.prompt} <span class="small muted">(${i.intent.replace(/_/g, ' ')}: ${i.why})</span></span></label>`)}
          <div class="actions"><button type="button" disabled=${busy || picked.size === 0} onClick=${addIdeas}>Add ${picked.size} to the library</button></div>`
      : null}
  </section>`;
}

const GOALS = {
  'hw-0.10': ['half_width', 0.1, 'Each rate within ±10 points'],
  'hw-0.05': ['half_width', 0.05, 'Each rate within ±5 points'],
  'hw-0.15': ['half_width', 0.15, 'Each rate within ±15 points'],
  'ch-0.15': ['change', 0.15, 'Detect a 15-point drop'],
  'ch-0.10': ['change', 0.1, 'Detect a 10-point drop'],
  'ch-0.20': ['change', 0.2, 'Detect a 20-point drop'],
};

function SamplePlan({ p, reload }) {
  const [goal, setGoal] = useState('hw-0.10');
  const [level, setLevel] = useState('overall');
  const [windowKind, setWindowKind] = useState('30d');
  const [kind, value] = GOALS[goal];
  const plan = useData(() => get(`/v1/projects/${p.id}/sample-plan?${kind}=${value}&level=${level}&window=${windowKind}`), [p.id, goal, level, windowKind, p.repeats, p.prompt_count, p.updated_at]);
  const [error, setError] = useState(null);
  const pl = plan.data;
  const recommended = pl && pl.markets.length ? Math.max(...pl.markets.map((m) => m.repeats_recommended)) : null;
  // What a month costs now and as planned, from the same estimate the project form shows (the
  // schedule's calendar months, as the scheduler counts), so both say the same figures.
  const quote = (repeats) =>
    post('/v1/projects/estimate', {
      prompt_count: p.prompt_count,
      markets: p.markets,
      platforms: p.platforms,
      ...(p.models ? { models: Object.fromEntries(Object.entries(p.models).filter(([pl]) => p.platforms.includes(pl))) } : {}),
      repeats,
      schedule: p.schedule,
      monthly_credit_budget: p.monthly_credit_budget,
    });
  const months = useData(() => (recommended === null ? Promise.resolve(null) : Promise.all([quote(p.repeats), quote(recommended)])), [p.id, p.updated_at, p.repeats, p.prompt_count, recommended]);
  const [now, planned] = months.data || [null, null];
  const monthStat = (e) => (e && e.credits_per_month ? (e.credits_per_month.average === e.credits_per_month.busiest ? `${e.credits_per_month.busiest} cr` : `about ${e.credits_per_month.average} cr`) : '—');
  const busiestSub = (e) => (e && e.credits_per_month && e.credits_per_month.average !== e.credits_per_month.busiest ? `${e.credits_per_month.busiest} in the busiest month` : null);
  // A month's cost above the budget is not what is spent: the budget stops the later runs (the
  // project form's words).
  const capSub = (e) => {
    const within = e && e.runs_per_month ? e.runs_within_budget_per_month : null;
    if (!p.monthly_credit_budget || within === null || within === undefined || within >= e.runs_per_month.busiest) return null;
    return within === 0 ? `the budget of ${p.monthly_credit_budget} cr covers no run: every scheduled run is skipped` : `the budget of ${p.monthly_credit_budget} cr covers ${plural(within, 'run')} a month; later ones are skipped`;
  };
  const subs = (...parts) => parts.filter(Boolean).join('; ') || null;
  const apply = async () => {
    setError(null);
    try {
      await patch(`/v1/projects/${p.id}`, { repeats: recommended });
      reload();
    } catch (err) {
      setError(err);
    }
  };
  return html`<section class="card" aria-labelledby="plan-title"><h2 id="plan-title">Plan the sample before spending</h2>
    <p class="small muted">How many repeats per prompt × platform a goal needs, from the rates seen so far (50%, the most demanding, where nothing was measured yet), and what that costs a month on the schedule.</p>
    <div class="form-grid">
      <${Field} id="plan-goal" label="Goal"><select id="plan-goal" value=${goal} onChange=${(e) => setGoal(e.target.value)}>${Object.entries(GOALS).map(([k, g]) => html`<option value=${k}>${g[2]}</option>`)}</select></${Field}>
      <${Field} id="plan-level" label="For"><select id="plan-level" value=${level} onChange=${(e) => setLevel(e.target.value)}><option value="overall">The project's overall rate</option><option value="prompt_platform">Every prompt × platform</option></select></${Field}>
      <${Field} id="plan-window" label="A period compared is"><select id="plan-window" value=${windowKind} onChange=${(e) => setWindowKind(e.target.value)}><option value="run">One run</option><option value="7d">A week of runs</option><option value="30d">A month of runs</option></select></${Field}>
    </div>
    <${ErrorNote} error=${plan.error || error} />
    ${!pl
      ? html`<${Loading} what="Planning" />`
      : pl.markets.length === 0
        ? html`<p class="muted">Import prompts first: there is nothing to plan.</p>`
        : html`<div class="stats" data-testid="plan">
              <${Stat} label="Repeats needed" value=${pl.repeats_needed ?? 'more than 10'} sub=${pl.feasible ? `you ask ${p.repeats} now` : 'the goal is out of reach at 10 repeats; choose a wider goal or a longer period'} />
              <${Stat} label="Credits a month now" value=${p.schedule ? monthStat(now) : '—'} sub=${p.schedule ? subs(busiestSub(now), capSub(now)) : 'no schedule: each run on demand'} />
              <${Stat} label=${p.schedule ? 'Credits a month as planned' : 'A run as planned'} value=${p.schedule ? monthStat(planned) : `${pl.markets.reduce((a, m) => a + Number(m.planned.credits_per_run), 0).toFixed(2)} cr`} sub=${subs(p.schedule ? busiestSub(planned) : null, (p.schedule && capSub(planned)) || (p.monthly_credit_budget ? `budget ${p.monthly_credit_budget} cr a month` : 'no budget set'))} />
            </div>
            ${recommended !== null && recommended !== p.repeats
              ? html`<div class="actions"><button type="button" class="secondary" onClick=${apply}>Use ${recommended} repeat${recommended === 1 ? '' : 's'}</button></div>`
              : html`<p class="small">The project already asks ${p.repeats} repeat${p.repeats === 1 ? '' : 's'}.</p>`}`}
  </section>`;
}

function Runs({ p, runs }) {
  const r = runs.data;
  const result = (x) => (x.summary ? pct(x.summary.mention_rate) : '—');
  return html`<section class="card" aria-labelledby="runs-title"><h2 id="runs-title">Tracked runs</h2>
      ${!r
        ? html`<${Loading} />`
        : r.tracked.length === 0
          ? html`<p class="muted">No runs yet.</p>`
          : html`<${Table} caption="Runs of the project's tests" captionHidden rowKey=${(x) => x.run_id} rows=${r.tracked.slice(0, 20)} columns=${[
              { label: 'Run', cell: (x) => html`<a href=${'/console/runs/' + x.run_id}>${when(x.created_at)}</a>` },
              { label: 'Market', cell: (x) => x.market || '—' },
              { label: 'Source', cell: (x) => x.source || '—' },
              { label: 'Status', cell: (x) => html`<${Badge} value=${x.status} />` },
              { label: 'Mention rate', cell: result, num: true },
            ]} />`}
    </section>
    <section class="card" aria-labelledby="apart-title"><h2 id="apart-title">Runs kept apart</h2>
      <p class="small muted">Runs for ${p.url} that asked something other than the project (a one-off run, another prompt set) are not in the dashboard's numbers: history compares like with like.</p>
      ${!r
        ? html`<${Loading} />`
        : r.apart.length === 0
          ? html`<p class="muted">None.</p>`
          : html`<${Table} caption="Runs kept apart from the project's numbers" captionHidden rowKey=${(x) => x.run_id} rows=${r.apart} columns=${[
              { label: 'Run', cell: (x) => html`<a href=${'/console/runs/' + x.run_id}>${when(x.created_at)}</a>` },
              { label: 'Why apart', cell: (x) => x.why },
              { label: 'Source', cell: (x) => x.source || '—' },
              { label: 'Status', cell: (x) => (x.status ? html`<${Badge} value=${x.status} />` : '—') },
              { label: 'Mention rate', cell: result, num: true },
            ]} />`}
    </section>`;
}
