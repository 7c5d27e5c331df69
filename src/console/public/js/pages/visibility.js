// AI Visibility: the runs list (live status), the new-run form (models, exact cost, what a
// partly funded run will and will not run), and the run page, which refreshes itself until the
// run ends and shows the mention rate with its interval, band, platforms, share of voice, cited
// domains and every answer with the brand and competitors marked.
import { html, useEffect, useMemo, useRef, useState, useInlineDialog, navigate, PageHead, Table, Badge, Note, ErrorNote, Empty, Loading, Stat, Meter, Field, useData, pct, when, ago, platformName, PLATFORM_NAMES, TERMINAL, statusText, sourceName, urlInputProps, sentimentText } from '../ui.js';
import { get, post, idempotencyKey } from '../api.js';
import { Markdown } from '../markdown.js';
import { HowToGetCredits, ZeroBalanceNote, refreshBalance, useBalance } from '../balance.js';

const DRAFT_KEY = 'sightline_run_draft';
/** Another page (a Content Intelligence report's prompt ideas) hands the form a draft this way. */
export function saveRunDraft(draft) {
  sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
}

const progressOf = (run) => {
  const c = run.probe_counts || {};
  const done = (c.succeeded || 0) + (c.errored || 0) + (c.cancelled || 0);
  const total = run.queued_probe_count ?? run.probe_count;
  return { done, total };
};

const RUN_STATUS_CHOICES = ['queued', 'running', 'completed', 'partially_completed', 'failed', 'cancelled'];
const SOURCE_NAMES = { api: 'API', console: 'Console', mcp: 'AI assistant (MCP)', schedule: 'Schedule' };
const PAGE_SIZE = 20;

/** The platforms a run asked, from its summary (per-platform rates, else its prompts' platforms). */
const runPlatforms = (r) => {
  const s = r.summary || {};
  const set = new Set((s.by_platform || []).map((b) => b.platform));
  for (const e of s.by_prompt || []) for (const b of e.by_platform || []) set.add(b.platform);
  return [...set];
};

/** The first prompt of a run and how many more it asked: what tells two runs of one brand apart. */
const promptLine = (r) => {
  const list = ((r.summary || {}).by_prompt || []).map((e) => e.prompt);
  if (!list.length) return `${r.prompt_count} prompt${r.prompt_count === 1 ? '' : 's'}`;
  return `“${list[0]}”${r.prompt_count > 1 ? ` + ${r.prompt_count - 1} more` : ''}`;
};

const NO_FILTERS = { q: '', status: '', source: '', platform: '', project_id: '', sort: 'newest' };
/** The list's filters from the address bar, so a filtered list can be bookmarked, shared and reloaded. */
function filtersFromAddress() {
  const qs = new URLSearchParams(location.search);
  const filters = { ...NO_FILTERS };
  for (const key of Object.keys(NO_FILTERS)) if (qs.get(key)) filters[key] = qs.get(key);
  return filters;
}
function filtersToAddress(filters) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v && v !== NO_FILTERS[k]) qs.set(k, v);
  const search = qs.toString();
  const target = location.pathname + (search ? `?${search}` : '');
  // Replace, not push: Back leaves the list instead of stepping through each filter change.
  if (target !== location.pathname + location.search) history.replaceState(history.state, '', target);
}

export function RunsPage({ session }) {
  const [filters, setFilters] = useState(filtersFromAddress);
  const [typed, setTyped] = useState(() => filters.q);
  useEffect(() => filtersToAddress(filters), [filters]);
  // Cursors of the pages before the current one (paging back pops one).
  const [cursors, setCursors] = useState([]);
  const cursor = cursors.length ? cursors[cursors.length - 1] : null;
  const query = useMemo(() => {
    const qs = new URLSearchParams({ limit: String(PAGE_SIZE) });
    for (const [k, v] of Object.entries(filters)) if (v && !(k === 'sort' && v === 'newest')) qs.set(k, v);
    if (cursor) qs.set('starting_after', cursor);
    return qs.toString();
  }, [filters, cursor]);
  const runs = useData(() => get(`/v1/visibility/runs?${query}`), [query], { every: 3000, keepPolling: (d) => !!d && d.runs.some((r) => !TERMINAL.has(r.status)) });
  const models = useData(() => get('/v1/visibility/models'));
  const projects = useData(() => get('/v1/projects').catch(() => ({ projects: [] })));
  // Typing searches after a short pause (no request per keystroke).
  useEffect(() => {
    const t = setTimeout(() => {
      if (typed.trim() !== filters.q) {
        setFilters((f) => ({ ...f, q: typed.trim() }));
        setCursors([]);
      }
    }, 300);
    return () => clearTimeout(t);
  }, [typed]);
  const set = (key) => (e) => {
    setFilters({ ...filters, [key]: e.target.value });
    setCursors([]);
  };
  const filtered = Object.entries(filters).some(([k, v]) => v && k !== 'sort');
  const data = runs.data;
  const platformIds = models.data ? Object.keys(models.data.platforms) : Object.keys(PLATFORM_NAMES);
  const projectList = (projects.data && projects.data.projects) || [];
  const select = (id, label, key, options) => html`<div class="field"><label for=${id}>${label}</label>
    <select id=${id} value=${filters[key]} onChange=${set(key)}>${options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}</select></div>`;
  const pageNumber = cursors.length + 1;
  return html`<${PageHead} title="AI Visibility" sub="Do AI assistants mention and cite your brand? Each run asks your prompts on the platforms you pick.">
      <a class="button" href="/console/runs/new">New visibility run</a>
    </${PageHead}>
    <${ZeroBalanceNote} session=${session} />
    <form class="card filters" role="search" aria-label="Find runs" onSubmit=${(e) => { e.preventDefault(); setFilters({ ...filters, q: typed.trim() }); setCursors([]); }}>
      <div class="field grow"><label for="runs-q">Search</label><input id="runs-q" type="search" placeholder="Brand, page or prompt" value=${typed} onInput=${(e) => setTyped(e.target.value)} /></div>
      ${select('runs-status', 'Status', 'status', [['', 'Any status'], ...RUN_STATUS_CHOICES.map((v) => [v, statusText(v)])])}
      ${select('runs-source', 'Started from', 'source', [['', 'Anywhere'], ...Object.entries(SOURCE_NAMES)])}
      ${select('runs-platform', 'Platform', 'platform', [['', 'Any platform'], ...platformIds.map((p) => [p, platformName(p)])])}
      ${projectList.length ? select('runs-project', 'Project', 'project_id', [['', 'Any project'], ...projectList.map((p) => [p.id, p.name])]) : null}
      ${select('runs-sort', 'Sort', 'sort', [['newest', 'Newest first'], ['oldest', 'Oldest first']])}
    </form>
    <${ErrorNote} error=${runs.error} />
    ${!data
      ? html`<${Loading} what="Loading runs" />`
      : data.runs.length === 0 && !filtered && !cursor
        ? html`<div class="card"><${Empty} title="No visibility runs yet"><p>Start with the prompts your customers type into ChatGPT or Perplexity.</p><a class="button" href="/console/runs/new">Create your first run</a></${Empty}></div>`
        : data.runs.length === 0
          ? html`<div class="card"><${Empty} title="No run matches"><p>Try other words or fewer filters.</p></${Empty}></div>`
          : html`<div class="card"><${Table} caption=${`Visibility runs, ${filters.sort === 'oldest' ? 'oldest' : 'newest'} first`} captionHidden rowKey=${(r) => r.run_id} rows=${data.runs} columns=${[
            { label: 'Brand', cell: (r) => html`<a href=${'/console/runs/' + r.run_id}><strong>${r.target_entity}</strong></a> <span class="small muted" data-testid="run-market" title="Market (language-country)">${r.language}-${r.country}</span><div class="small muted clip">${r.url}</div><div class="small clip">${promptLine(r)}</div>`, wide: true },
            { label: 'Status', cell: (r) => { const p = progressOf(r); return html`<${Badge} value=${r.status} />${TERMINAL.has(r.status) && p.done === p.total ? null : html`<div class="small muted">${p.done}/${p.total} probes</div>`}`; } },
            { label: 'Platforms', cell: (r) => runPlatforms(r).map(platformName).join(', ') || '—' },
            { label: 'Source', cell: (r) => sourceName(r.source) },
            { label: 'Mention rate', cell: (r) => html`${pct(r.summary && r.summary.mention_rate)} ${r.summary && r.summary.visibility_band ? html`<${Badge} value=${r.summary.visibility_band} />` : null}`, num: true },
            { label: 'Credits', cell: (r) => `${r.billing.settled_credits} / ${r.billing.reserved_credits}`, num: true },
            { label: 'Created', cell: (r) => html`<span title=${ago(r.created_at)}>${when(r.created_at)}</span>` },
          ]} />
          <nav class="pager" aria-label="Pages of runs">
            <button type="button" class="secondary" disabled=${!cursors.length} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous</button>
            <span class="small muted" aria-live="polite">Page ${pageNumber}</span>
            <button type="button" class="secondary" disabled=${!data.has_more} onClick=${() => setCursors([...cursors, data.next_starting_after])}>Next</button>
          </nav>
          <p class="small muted">Credits: settled / reserved.</p></div>`}`;
}

/** Probes of a matrix request in the order the server funds them: prompt, then platform, then repeat. */
function planProbes(prompts, platforms, prices, repeats) {
  const probes = [];
  for (const prompt of prompts) for (const platform of platforms) for (let r = 1; r <= repeats; r++) probes.push({ prompt, platform, repeat: r, price: prices[platform] });
  return probes;
}

/** Walks probes as the server does: each that fits the remaining balance is funded; the first that does not stops it. */
function fundingOf(probes, available) {
  let left = Math.round(available * 100);
  let funded = 0;
  for (const p of probes) {
    const cents = Math.round(p.price * 100);
    if (cents > left) break;
    left -= cents;
    funded++;
  }
  const total = probes.reduce((s, p) => s + Math.round(p.price * 100), 0) / 100;
  const fundedCost = probes.slice(0, funded).reduce((s, p) => s + Math.round(p.price * 100), 0) / 100;
  return { funded, skipped: probes.slice(funded), total, fundedCost };
}

export function NewRunPage({ session }) {
  const models = useData(() => get('/v1/visibility/models'));
  const balance = useBalance();
  const draft = useMemo(() => {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    sessionStorage.removeItem(DRAFT_KEY);
    return raw ? JSON.parse(raw) : {};
  }, []);
  const [url, setUrl] = useState(draft.url || '');
  const [brand, setBrand] = useState(draft.target_entity || '');
  const [competitors, setCompetitors] = useState((draft.competitors || []).join(', '));
  const [promptText, setPromptText] = useState((draft.prompts || []).join('\n'));
  const [language, setLanguage] = useState(draft.language || 'en');
  const [country, setCountry] = useState(draft.country || 'US');
  const [repeats, setRepeats] = useState(1);
  const [chosen, setChosen] = useState({});
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [suggesting, setSuggesting] = useState(false);
  const [suggestError, setSuggestError] = useState(null);
  const [idemKey] = useState(idempotencyKey);

  const listing = models.data ? models.data.platforms : {};
  const platformIds = Object.keys(listing);
  useEffect(() => {
    if (!models.data) return;
    const init = {};
    for (const p of platformIds) {
      const def = listing[p].find((m) => m.default) || listing[p][0];
      init[p] = { on: ['openai', 'perplexity'].includes(p) && def.available, model: def.id };
    }
    setChosen(init);
  }, [models.data]);

  const prompts = promptText.split('\n').map((s) => s.trim()).filter(Boolean);
  const platforms = platformIds.filter((p) => chosen[p] && chosen[p].on);
  const prices = {};
  for (const p of platforms) prices[p] = Number((listing[p].find((m) => m.id === chosen[p].model) || {}).credits_per_probe || 0);
  const probes = planProbes(prompts, platforms, prices, repeats);
  const available = balance.credits ? Number(balance.credits.available_credit_units) : null;
  const funding = available === null ? null : fundingOf(probes, available);
  const competitorList = competitors.split(',').map((s) => s.trim()).filter(Boolean);
  const ready = url.trim() && brand.trim() && prompts.length > 0 && platforms.length > 0;

  const body = () => {
    const models = {};
    for (const p of platforms) {
      const def = listing[p].find((m) => m.default);
      if (!def || def.id !== chosen[p].model) models[p] = chosen[p].model;
    }
    return {
      url: url.trim(), target_entity: brand.trim(), prompts, platforms, ...(Object.keys(models).length ? { models } : {}),
      competitors: competitorList, language: language.trim() || 'en', country: country.trim() || 'US', idempotency_key: idemKey,
      ...(repeats > 1 ? { repeats } : {}),
    };
  };

  const queue = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await post('/v1/visibility/runs', body());
      navigate('/console/runs/' + res.run_id);
    } catch (err) {
      setError(err);
      setBusy(false);
      setConfirming(false);
    }
  };
  const submit = (e) => {
    e.preventDefault();
    if (!ready) return;
    if (funding && funding.funded < probes.length) setConfirming(true);
    else queue();
  };
  const suggest = async () => {
    setSuggesting(true);
    setSuggestError(null);
    try {
      const res = await post('/v1/visibility/prompts/suggest', { url: url.trim(), ...(brand.trim() ? { brand_name: brand.trim() } : {}), competitors: competitorList, language, country, count: 8 });
      setPromptText([...prompts, ...res.prompts].join('\n'));
    } catch (err) {
      setSuggestError(err);
    } finally {
      setSuggesting(false);
    }
  };

  // The partial-run confirmation replaces the submit button: focus goes into it and back.
  const submitRef = useRef(null);
  const dialog = useInlineDialog(confirming, () => setConfirming(false), submitRef);

  const balanceError = balance.credits ? null : balance.error;
  if (models.error || balanceError) return html`<${PageHead} title="New visibility run" /><${ErrorNote} error=${models.error || balanceError} />`;
  if (!models.data || !balance.credits) return html`<${PageHead} title="New visibility run" /><${Loading} />`;

  return html`<${PageHead} title="New visibility run" sub="One probe is one prompt asked on one platform. You see the exact cost before anything is queued." />
    <${ZeroBalanceNote} session=${session} />
    <form onSubmit=${submit}>
      <div class="grid">
        <section class="card" aria-labelledby="what-title"><h2 id="what-title">What to look for</h2>
          <${Field} id="run-url" label="Your page URL" hint="Answers that cite this site count as mentions."><input id="run-url" type="url" required placeholder="https://www.example.com" value=${url} onInput=${(e) => setUrl(e.target.value)} ...${urlInputProps(setUrl)} aria-describedby="run-url-hint" /></${Field}>
          <${Field} id="run-brand" label="Brand"><input id="run-brand" type="text" required placeholder="Example" value=${brand} onInput=${(e) => setBrand(e.target.value)} /></${Field}>
          <${Field} id="run-competitors" label="Competitors" hint="Comma-separated, up to 10."><input id="run-competitors" type="text" placeholder="Rival One, Rival Two" value=${competitors} onInput=${(e) => setCompetitors(e.target.value)} aria-describedby="run-competitors-hint" /></${Field}>
          <div class="form-grid">
            <${Field} id="run-language" label="Language"><input id="run-language" type="text" value=${language} onInput=${(e) => setLanguage(e.target.value)} /></${Field}>
            <${Field} id="run-country" label="Country"><input id="run-country" type="text" value=${country} onInput=${(e) => setCountry(e.target.value)} /></${Field}>
          </div>
          <${Field} id="run-repeats" label="Ask each prompt" hint="Asking more than once narrows the 95% interval around the mention rate (AI answers vary).">
            <select id="run-repeats" value=${repeats} onChange=${(e) => setRepeats(Number(e.target.value))} aria-describedby="run-repeats-hint">${[1, 2, 3, 5, 10].map((n) => html`<option value=${n}>${n === 1 ? 'once' : `${n} times`}</option>`)}</select>
          </${Field}>
        </section>
        <section class="card" aria-labelledby="prompts-title"><h2 id="prompts-title">Prompts</h2>
          <${Field} id="run-prompts" label="One prompt per line" hint=${`${prompts.length} prompt${prompts.length === 1 ? '' : 's'}, at most 500 characters each.`}>
            <textarea id="run-prompts" rows="7" placeholder="best project management tool for agencies" value=${promptText} onInput=${(e) => setPromptText(e.target.value)} aria-describedby="run-prompts-hint"></textarea>
          </${Field}>
          <button type="button" class="secondary" disabled=${!url.trim() || suggesting} onClick=${suggest}>${suggesting ? 'Suggesting…' : 'Suggest prompts from the page (1 credit)'}</button>
          <div data-testid="suggest-error" aria-live="polite"><${ErrorNote} error=${suggestError} /></div>
        </section>
      </div>
      <section class="card" aria-labelledby="platforms-title" style=${{ marginTop: '16px' }}><h2 id="platforms-title">Platforms and models</h2>
        <div class="checks">${platformIds.map((p) => {
          const c = chosen[p] || {};
          const available = listing[p].some((m) => m.available);
          return html`<div class="field">
            <label class="check"><input type="checkbox" checked=${!!c.on} disabled=${!available} onChange=${() => setChosen({ ...chosen, [p]: { ...c, on: !c.on } })} /><span><strong>${platformName(p)}</strong>${available ? '' : ' (not available on this server)'}</span></label>
            <label class="visually-hidden" for=${'model-' + p}>${platformName(p)} model</label>
            <select id=${'model-' + p} value=${c.model} disabled=${!c.on} onChange=${(e) => setChosen({ ...chosen, [p]: { ...c, model: e.target.value } })}>
              ${listing[p].map((m) => html`<option value=${m.id} disabled=${!m.available}>${m.label} — ${m.credits_per_probe} cr/probe${m.default ? ' (default)' : ''}</option>`)}
            </select>
            ${c.model ? html`<span class="small muted model-price">${(listing[p].find((m) => m.id === c.model) || {}).credits_per_probe} cr per probe</span>` : null}</div>`;
        })}</div>
      </section>
      <section class="card" aria-labelledby="cost-title" aria-live="polite"><h2 id="cost-title">Cost</h2>
        ${probes.length === 0
          ? html`<p class="muted">Add prompts and pick platforms to see the cost.</p>`
          : html`<div class="stats">
              <${Stat} label="Probes" value=${probes.length} sub=${`${prompts.length} prompts × ${platforms.length} platforms${repeats > 1 ? ` × ${repeats} repeats` : ''}`} />
              <${Stat} label="Cost" value=${funding.total.toFixed(2) + ' cr'} sub=${platforms.map((p) => `${platformName(p)} ${prices[p].toFixed(2)}`).join(' · ')} />
              <${Stat} label="Your balance" value=${available.toFixed(2) + ' cr'} sub=${funding.funded < probes.length ? 'does not cover the whole run' : 'covers the whole run'} />
            </div>
            ${funding.funded === 0
              ? html`<${Note} kind="error"><p><strong>Your balance covers none of this run.</strong> The first probe costs ${probes[0].price.toFixed(2)} credits and ${available.toFixed(2)} are available. Pick fewer prompts or cheaper models, or get more credits. <${HowToGetCredits} session=${session} /></p></${Note}>`
              : funding.funded < probes.length
                ? html`<${Note} kind="warn"><p>Your balance covers <strong>${funding.funded} of ${probes.length} probes</strong> (${funding.fundedCost.toFixed(2)} cr). The other ${funding.skipped.length} will be skipped.</p></${Note}>`
                : null}`}
        <${ErrorNote} error=${error} />
        ${confirming
          ? html`<div class="note warn" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-desc" data-testid="partial-confirm" ref=${dialog.ref} onKeyDown=${dialog.onKeyDown}>
              <h3 id="confirm-title" style=${{ marginTop: 0 }}>Queue a partial run?</h3>
              <p id="confirm-desc"><strong>${funding.funded} probes will run</strong> for ${funding.fundedCost.toFixed(2)} credits. <strong>${funding.skipped.length} will be skipped</strong> for lack of credits:</p>
              <ul>${funding.skipped.slice(0, 12).map((p) => html`<li>${platformName(p.platform)}: “${p.prompt}”${repeats > 1 ? ` (repeat ${p.repeat})` : ''}</li>`)}${funding.skipped.length > 12 ? html`<li>and ${funding.skipped.length - 12} more</li>` : null}</ul>
              <div class="actions"><button type="button" onClick=${queue} disabled=${busy}>Run ${funding.funded} probes</button><button type="button" class="secondary" onClick=${() => setConfirming(false)}>Go back</button></div>
            </div>`
          : html`<div class="actions"><button type="submit" ref=${submitRef} disabled=${!ready || busy || (funding && funding.funded === 0)}>${busy ? 'Queueing…' : probes.length ? `Queue ${probes.length} probes for ${funding.total.toFixed(2)} cr` : 'Queue run'}</button></div>`}
      </section>
    </form>`;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A marker of the brand and competitors (whole words, any case) for the answer's plain-text runs;
 * the answer itself is Markdown, rendered by markdown.js.
 */
function marker(brand, competitors) {
  const names = [brand, ...competitors].filter(Boolean).sort((a, b) => b.length - a.length);
  if (!names.length) return (text) => text;
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${names.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return (text) => {
    const parts = [];
    let last = 0;
    for (const m of text.matchAll(re)) {
      if (m.index > last) parts.push(text.slice(last, m.index));
      const isBrand = m[0].toLowerCase() === brand.toLowerCase();
      parts.push(html`<mark class=${isBrand ? 'hl-brand' : 'hl-comp'}>${m[0]}</mark>`);
      last = m.index + m[0].length;
    }
    parts.push(text.slice(last));
    return parts;
  };
}

function ci(c) {
  return c && c.low !== null && c.low !== undefined ? `${pct(c.low)}–${pct(c.high)}` : null;
}

export function RunPage({ id }) {
  const run = useData(() => get(`/v1/visibility/runs/${id}?include_results=true`), [id], { every: 1500, keepPolling: (d) => !d || !TERMINAL.has(d.status) });
  // The project the run's test belongs to, by name: an agency's run page says whose it is.
  const projectId = run.data ? run.data.project_id : null;
  const project = useData(() => (projectId ? get(`/v1/projects/${projectId}`) : Promise.resolve(null)), [projectId]);
  const [cancelError, setCancelError] = useState(null);
  const [platformFilter, setPlatformFilter] = useState('all');
  const [expanded, setExpanded] = useState({ open: false, gen: 0 });
  // A run that ends settles its reservation and releases what failed or was cancelled.
  const status = run.data && run.data.status;
  useEffect(() => {
    if (TERMINAL.has(status)) refreshBalance();
  }, [status]);
  if (run.error && !run.data) {
    return html`<${PageHead} title="Visibility run" /><${ErrorNote} error=${run.error.status === 404 ? new Error('This run does not exist or belongs to another account.') : run.error} /><a href="/console/runs">Back to runs</a>`;
  }
  if (!run.data) return html`<${PageHead} title="Visibility run" /><${Loading} />`;
  const r = run.data;
  const s = r.summary || {};
  const { done, total } = progressOf(r);
  const live = !TERMINAL.has(r.status);
  const cancel = async () => {
    setCancelError(null);
    try {
      await post(`/v1/visibility/runs/${id}/cancel`);
      run.reload();
    } catch (err) {
      setCancelError(err);
    }
  };
  const mentionTotal = (s.brand_mentions || 0) + (s.competitors || []).reduce((a, c) => a + c.mentions, 0);
  const sov = (own, given) => (given !== undefined ? given : mentionTotal ? own / mentionTotal : null);
  const probes = (r.probes || []).filter((p) => platformFilter === 'all' || p.platform === platformFilter);
  const platformsInRun = [...new Set((r.probes || []).map((p) => p.platform))];
  // How many times each prompt was asked on each platform: the "ask 2 of 3" labels.
  const asks = {};
  for (const p of r.probes || []) asks[p.prompt + '|' + p.platform] = Math.max(asks[p.prompt + '|' + p.platform] || 0, p.repeat || 1);
  // Answers grouped by prompt, in the run's prompt order, each group headed by its own numbers.
  const byPrompt = new Map((s.by_prompt || []).map((e) => [e.prompt, e]));
  const groups = [];
  for (const p of probes) {
    let g = groups.find((x) => x.prompt === p.prompt);
    if (!g) groups.push((g = { prompt: p.prompt, entry: byPrompt.get(p.prompt), probes: [] }));
    g.probes.push(p);
  }
  return html`<${PageHead} title=${`${r.target_entity}: visibility run`} sub=${html`${project.data ? html`Project <a href=${'/console/projects/' + project.data.id} data-testid="run-project">${project.data.name}</a> · ` : null}<a href=${r.url} rel="noopener noreferrer" target="_blank">${r.url}</a> · ${r.language}-${r.country} · created ${when(r.created_at)}${r.engine === 'sandbox' ? ' · sandbox answers' : ''}`}>
      <a class="button secondary" href=${`/v1/visibility/runs/${id}/export?format=csv`} download>Download CSV</a>
      ${live ? html`<button type="button" class="danger" onClick=${cancel}>Cancel queued probes</button>` : null}
    </${PageHead}>
    <${ErrorNote} error=${cancelError} />
    <section class="card" aria-labelledby="progress-title"><div class="row spread"><h2 id="progress-title" style=${{ margin: 0 }}>Progress</h2><span data-testid="run-status"><${Badge} value=${r.status} /></span></div>
      <div class="progress" role="progressbar" aria-label="Probes finished" aria-valuemin="0" aria-valuemax=${total} aria-valuenow=${done}><span style=${{ width: (total ? (done / total) * 100 : 0) + '%' }}></span></div>
      <p data-testid="run-progress" aria-live="polite">${done} of ${total} probes finished${live ? ' — this page updates itself' : ''}. Credits: ${r.billing.reserved_credits} reserved, ${r.billing.settled_credits} settled, ${r.billing.released_credits} released.</p>
      ${r.skipped_probe_count ? html`<${Note} kind="warn"><p>${r.skipped_probe_count} probes were skipped for lack of credits.</p></${Note}>` : null}
    </section>
    <div class="stats">
      <${Stat} label="Mention rate" value=${html`<span data-testid="mention-rate">${pct(s.mention_rate)}</span>`} sub=${ci(s.mention_rate_ci) ? `95% interval ${ci(s.mention_rate_ci)}` : s.completed_probe_count ? `${s.brand_mentions} of ${s.completed_probe_count} answers` : 'no answers yet'} />
      <${Stat} label="Visibility band" value=${html`<${Badge} value=${s.visibility_band} />`} />
      <${Stat} label="Citation rate" value=${pct(s.citation_rate)} sub="answers citing your site" />
      <${Stat} label="Share of voice" value=${pct(sov(s.brand_mentions || 0, s.share_of_voice))} sub="your mentions among all tracked brands" />
    </div>
    <div class="grid">
      <section class="card" aria-labelledby="plat-title"><h2 id="plat-title">By platform</h2>
        ${(s.by_platform || []).length === 0 ? html`<p class="muted">No answers yet.</p>` : (s.by_platform || []).map((b) => html`<${Meter} label=${platformName(b.platform)} value=${b.mention_rate} text=${pct(b.mention_rate) + (ci(b.mention_rate_ci) ? ` (${ci(b.mention_rate_ci)})` : '')} />`)}
      </section>
      <section class="card" aria-labelledby="sov-title"><h2 id="sov-title">Share of voice</h2>
        ${mentionTotal === 0 && s.share_of_voice == null
          ? html`<p class="muted">No tracked brand is mentioned yet.${(r.competitors || []).length ? '' : ' Add competitors to a run to compare.'}</p>`
          : html`<${Meter} kind="target" label=${r.target_entity} value=${sov(s.brand_mentions || 0, s.share_of_voice)} text=${pct(sov(s.brand_mentions || 0, s.share_of_voice))} />
            ${(s.competitors || []).map((c) => html`<${Meter} kind="comp" label=${c.name} value=${sov(c.mentions, c.share_of_voice)} text=${pct(sov(c.mentions, c.share_of_voice))} />`)}`}
      </section>
      <section class="card" aria-labelledby="dom-title"><h2 id="dom-title">Cited domains</h2>
        <${CitedDomains} s=${s} />
      </section>
      <section class="card" aria-labelledby="tone-title" data-testid="answer-analysis"><h2 id="tone-title">How answers speak of you</h2>
        ${s.sentiment
          ? html`<p data-testid="sentiment">${sentimentText(s.sentiment)}${r.engine === 'sandbox' ? ' (simulated)' : ''}</p>`
          : html`<p class="muted">No answer mentions you yet.</p>`}
        ${s.prominence && s.prominence.pawc !== null && s.prominence.pawc !== undefined
          ? html`<p class="small">First named ${pct(s.prominence.first_mention_share)} of the way into an answer; ${pct(s.prominence.pawc)} of the answer's weight (position-adjusted word count).</p>`
          : null}
      </section>
      <section class="card" aria-labelledby="found-title"><h2 id="found-title">Also named</h2>
        ${(s.discovered_entities || []).length === 0 ? html`<p class="muted">No other brands named yet.</p>` : html`<ul class="plain">${s.discovered_entities.slice(0, 12).map((e) => html`<li class="row spread"><span>${e.name}</span><span class="muted">${e.mentions}× · ${e.platforms.map(platformName).join(', ')}</span></li>`)}</ul>`}
      </section>
    </div>
    <section aria-labelledby="answers-title" style=${{ marginTop: '16px' }}>
      <div class="row spread"><h2 id="answers-title">Answers by prompt</h2>
        <div class="row"><label for="platform-filter" class="label-text">Platform</label>
          <select id="platform-filter" style=${{ width: 'auto' }} value=${platformFilter} onChange=${(e) => setPlatformFilter(e.target.value)}><option value="all">All</option>${platformsInRun.map((p) => html`<option value=${p}>${platformName(p)}</option>`)}</select>
          <button type="button" class="secondary" onClick=${() => setExpanded({ open: !expanded.open, gen: expanded.gen + 1 })}>${expanded.open ? 'Collapse all answers' : 'Expand all answers'}</button></div>
      </div>
      <div class="legend" aria-hidden="true"><span><mark class="hl-brand">${r.target_entity}</mark> your brand</span>${(r.competitors || []).length ? html`<span><mark class="hl-comp">competitor</mark> competitors</span>` : null}</div>
      ${groups.map((g, gi) => html`<section class="prompt-group card" key=${g.prompt} aria-labelledby=${'prompt-' + gi} data-testid="prompt-group">
        <h3 id=${'prompt-' + gi}>${g.prompt}</h3>
        ${g.entry ? html`<p class="small prompt-numbers">Mentioned in <strong>${g.entry.brand_mentions} of ${g.entry.succeeded}</strong> answers (${pct(g.entry.mention_rate)}${ci(g.entry.mention_rate_ci) ? `, 95% interval ${ci(g.entry.mention_rate_ci)}` : ''})${g.entry.by_platform.length ? ' · ' : ''}${g.entry.by_platform.map((b, i) => html`${i ? ' · ' : ''}<span class="nowrap">${platformName(b.platform)} ${pct(b.mention_rate)}</span>`)}${g.entry.competitors.some((c) => c.mentions) ? html`<br /><span class="muted">Competitors: ${g.entry.competitors.filter((c) => c.mentions).map((c) => `${c.name} ${pct(c.mention_rate)}`).join(' · ')}</span>` : null}</p>` : null}
        ${g.probes.map((p) => html`<details class="answer" key=${p.probe_id + ':' + expanded.gen} open=${expanded.open}>
          <summary><strong>${platformName(p.platform)}</strong>${asks[p.prompt + '|' + p.platform] > 1 ? html`<span class="small repeat">ask ${p.repeat} of ${asks[p.prompt + '|' + p.platform]}</span>` : null}<${Badge} value=${p.status} />
            ${p.status === 'succeeded' ? html`<${Badge} value=${p.brand_mentioned ? 'Good' : 'Low'} label=${p.brand_mentioned ? 'mentioned' : 'not mentioned'} />` : null}
            ${p.list_rank ? html`<span class="small">rank #${p.list_rank} in list</span>` : null}
            ${p.brands && p.brands[0] && p.brands[0].sentiment ? html`<span class="small">${p.brands[0].sentiment}${p.brands[0].recommended ? ', recommended' : ''}${p.judge && p.judge.engine === 'sandbox' ? ' (simulated)' : ''}</span>` : null}
            ${p.judge_error ? html`<span class="small muted">not judged: ${p.judge_error.code}</span>` : null}
            <span class="small muted model">${p.model}</span></summary>
          ${p.answer ? html`<div class="text" role="region" aria-label=${'Answer from ' + platformName(p.platform)}><${Markdown} text=${p.answer} mark=${marker(p.target_entity || r.target_entity, r.competitors || [])} /></div>` : p.status === 'errored' ? html`<p class="muted">${(p.error && p.error.message) || 'This probe failed; its credits were released.'}</p>` : html`<p class="muted">${statusText(p.status)}…</p>`}
          ${p.status === 'succeeded' ? html`<${WhyNamed} brands=${p.brands || []} />` : null}
          ${(p.citations || []).length ? html`<h4 class="small">Citations</h4><ol class="small">${p.citations.map((c) => html`<li><a href=${c.url} rel="noopener noreferrer nofollow" target="_blank">${c.title || c.url}</a> <span class="muted">${c.domain}</span></li>`)}</ol>` : null}
        </details>`)}
      </section>`)}
    </section>`;
}

/** How the reader's rule read each brand (a probe's brands[].evidence), in words. */
const RULE_WORDS = {
  exact: 'as written',
  inflected: 'declined',
  declined_last_word: 'declined',
  attached: 'with a word attached',
  capitalised: 'capitalised',
  capitals: 'in capitals',
  possessive: 'possessive',
  hyphenated: 'in a compound',
  product_word: 'before a product name',
  list_label: 'as a list item',
  emphasis: 'emphasised',
  sentence_start: 'at a sentence start',
  lower_case_answer: 'in a lower-case answer',
  citation: 'its site is cited',
  everyday_word_rejected: 'the everyday word',
};

/** Why each brand counts as named in this answer, or not: the rule that decided, and the judge's reading. */
function WhyNamed({ brands }) {
  const rows = brands.filter((b) => b.evidence);
  if (!rows.length) return null;
  return html`<p class="small muted" data-testid="mention-evidence">How it was read: ${rows.map((b, i) => {
    const e = b.evidence;
    const how = RULE_WORDS[e.rule] || e.rule.replace(/_/g, ' ');
    const note = e.judged ? `; the judge read ${e.verdict === 'mentioned' ? 'the brand' : 'another thing'}` : e.ambiguous ? '; a reader could read it either way' : '';
    return html`${i ? ' · ' : ''}<span>${b.name} ${b.mentioned ? 'named' : 'not named'} (${how}, “${e.text}”${note})</span>`;
  })}</p>`;
}

/** What a citation source is (docs/citations.md), as the run page names it. */
const SOURCE_KINDS = { owned: 'Your site', competitor: 'Competitors', community: 'Community', reference: 'Reference', video: 'Video', review: 'Review sites', news: 'News', other: 'Other' };
const SOURCE_KIND_TAGS = { owned: 'your site', competitor: 'competitor', community: 'community', reference: 'reference', video: 'video', review: 'review', news: 'news' };

/**
 * The domains a run's answers cited, each tagged with its kind of source, under the share of
 * citations by kind (whose sites the assistants lean on: yours, competitors', reviews, forums).
 */
function CitedDomains({ s }) {
  if ((s.cited_domains || []).length === 0) return html`<p class="muted">No citations yet.</p>`;
  const sources = s.citation_sources;
  const kindOf = new Map(((sources && sources.citation_share_by_domain) || []).map((d) => [d.domain, d.class]));
  const kinds = ((sources && sources.citation_share_by_class) || []).filter((c) => c.citations > 0);
  return html`${kinds.length
      ? html`<div data-testid="citation-kinds"><h3 class="small muted">By kind of source (${sources.citation_count} citations)</h3>
          ${kinds.map((c) => html`<${Meter} label=${SOURCE_KINDS[c.class] || c.class} value=${c.share} text=${pct(c.share)} />`)}</div>
        <h3 class="small muted">Domains</h3>`
      : null}
    <ul class="plain">${s.cited_domains.slice(0, 12).map((d) => {
      const tag = SOURCE_KIND_TAGS[kindOf.get(d.domain)];
      return html`<li class="row spread"><span>${d.domain}${tag ? html` <span class="small muted">· ${tag}</span>` : null}</span><span class="muted">${d.count}×</span></li>`;
    })}</ul>`;
}
