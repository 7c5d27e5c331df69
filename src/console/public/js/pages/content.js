// Content Intelligence: queue an analysis of a page and read its report the way an analyst
// would — overall and component scores with bands, ranked recommendations, trend coverage, the
// per-crawler audit, and prompt ideas that become a visibility run with one button.
import { html, useEffect, useState, navigate, PageHead, Table, Badge, Note, ErrorNote, Empty, Loading, Stat, Meter, Field, useData, when, ago, TERMINAL, urlInputProps } from '../ui.js';
import { get, post, idempotencyKey } from '../api.js';
import { saveRunDraft } from './visibility.js';
import { refreshBalance } from '../balance.js';
import { checkName, componentName } from './content-names.js';

const PRICE = { score: '3.00', full: '6.00' };

export function ContentRunsPage() {
  const runs = useData(() => get('/v1/content-intelligence/runs?limit=50'), [], { every: 3000, keepPolling: (d) => !!d && d.runs.some((r) => !TERMINAL.has(r.status)) });
  return html`<${PageHead} title="Content Intelligence" sub="What to change on a page so AI assistants cite it: scores, ranked fixes, trends and an AI-readiness audit.">
      <a class="button" href="/console/content/new">Analyse a page</a>
    </${PageHead}>
    <${ErrorNote} error=${runs.error} />
    ${!runs.data
      ? runs.error
        ? null
        : html`<${Loading} />`
      : runs.data.runs.length === 0
        ? html`<div class="card"><${Empty} title="No analyses yet"><p>Analyse a page you want AI assistants to cite.</p><a class="button" href="/console/content/new">Analyse a page</a></${Empty}></div>`
        : html`<div class="card"><${Table} caption="Content Intelligence runs, newest first" captionHidden rowKey=${(r) => r.run_id} rows=${runs.data.runs} columns=${[
            { label: 'Page', cell: (r) => html`<a href=${'/console/content/' + r.run_id}><strong>${r.url}</strong></a>`, wide: true },
            { label: 'Depth', cell: (r) => (r.analysis_depth === 'full' ? 'Full' : 'Score') },
            { label: 'Status', cell: (r) => html`<${Badge} value=${r.status} />` },
            { label: 'Score', cell: (r) => (r.overall_score === null ? '—' : r.overall_score), num: true },
            { label: 'Band', cell: (r) => html`<${Badge} value=${r.overall_band} />` },
            { label: 'Created', cell: (r) => ago(r.created_at) },
          ]} /></div>`}`;
}

export function NewContentRunPage() {
  const [url, setUrl] = useState('');
  const [depth, setDepth] = useState('full');
  const [language, setLanguage] = useState('en');
  const [country, setCountry] = useState('US');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [idem] = useState(idempotencyKey);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await post('/v1/content-intelligence/runs', { url: url.trim(), analysis_depth: depth, language, country, idempotency_key: idem });
      navigate('/console/content/' + res.run_id);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return html`<${PageHead} title="Analyse a page" />
    <form class="card" onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <${Field} id="ci-url" label="Page URL"><input id="ci-url" type="url" required placeholder="https://www.example.com/guide" value=${url} onInput=${(e) => setUrl(e.target.value)} ...${urlInputProps(setUrl)} /></${Field}>
      <fieldset><legend>Depth</legend>
        <label class="check"><input type="radio" name="depth" checked=${depth === 'score'} onChange=${() => setDepth('score')} /><span><strong>Score</strong> — content score and ranked recommendations (3 credits)</span></label>
        <label class="check"><input type="radio" name="depth" checked=${depth === 'full'} onChange=${() => setDepth('full')} /><span><strong>Full</strong> — adds trends, prompt ideas and the AI-readiness audit: robots.txt per AI crawler, llms.txt, structured data, sitemap (6 credits)</span></label>
      </fieldset>
      <div class="form-grid">
        <${Field} id="ci-language" label="Language"><input id="ci-language" type="text" value=${language} onInput=${(e) => setLanguage(e.target.value)} /></${Field}>
        <${Field} id="ci-country" label="Country"><input id="ci-country" type="text" value=${country} onInput=${(e) => setCountry(e.target.value)} /></${Field}>
      </div>
      <div class="actions"><button type="submit" disabled=${busy || !url.trim()}>${busy ? 'Queueing…' : `Analyse for ${PRICE[depth]} cr`}</button></div>
      <p class="small muted">If the page cannot be fetched, the credits are released.</p>
    </form>`;
}

const bandOf = (n) => (n < 40 ? 'Poor' : n < 60 ? 'Fair' : n < 80 ? 'Good' : 'Strong');

function Scores({ r }) {
  return html`<div class="stats">
      <${Stat} label="Overall" value=${html`<span data-testid="ci-overall">${r.overall_score}</span><span class="small muted">/100</span>`} sub=${html`<${Badge} value=${r.overall_band} />`} />
      ${r.sufficiency_score === r.content_depth.score
        ? html`<${Stat} label="Depth and sufficiency" value=${r.content_depth.score} sub=${html`<${Badge} value=${r.content_depth.band} /> does the page answer fully`} />`
        : html`<${Stat} label="Depth" value=${r.content_depth.score} sub=${html`<${Badge} value=${r.content_depth.band} />`} />
          <${Stat} label="Sufficiency" value=${r.sufficiency_score} sub=${html`<${Badge} value=${r.sufficiency_band} />`} />`}
      <${Stat} label="Freshness" value=${r.content_freshness.score} sub=${html`<${Badge} value=${r.content_freshness.band} />`} />
      ${r.audit ? html`<${Stat} label="AI readiness" value=${r.audit.score} sub=${html`<${Badge} value=${r.audit.band} />`} />` : null}
    </div>
    ${r.overall && r.overall.summary ? html`<p>${r.overall.summary}</p>` : null}
    ${r.components
      ? html`<section class="card" aria-labelledby="comp-title"><h2 id="comp-title">Components</h2>
          ${Object.entries(r.components).map(([k, v]) => html`<${Meter} kind=${'band-' + bandOf(v)} label=${componentName(k)} value=${v / 100} text=${html`${v} <span class="small muted">${bandOf(v)}</span>`} />`)}
        </section>`
      : null}`;
}

function PromptIdeas({ r }) {
  const ideas = r.prompt_suggestions || (r.prompts || []).map((prompt) => ({ prompt }));
  const [picked, setPicked] = useState(() => new Set(ideas.slice(0, 5).map((i) => i.prompt)));
  if (!ideas.length) return null;
  const toggle = (p) => {
    const next = new Set(picked);
    next.has(p) ? next.delete(p) : next.add(p);
    setPicked(next);
  };
  const start = () => {
    saveRunDraft({ url: r.url, target_entity: r.brand || '', prompts: [...picked], language: r.language || 'en', country: r.country || 'US' });
    navigate('/console/runs/new');
  };
  return html`<section class="card" aria-labelledby="ideas-title"><h2 id="ideas-title">Prompt ideas</h2>
    <p class="small muted">Questions people ask AI assistants that this page could answer. Check them with a visibility run.</p>
    ${ideas.map((i) => html`<label class="check"><input type="checkbox" checked=${picked.has(i.prompt)} onChange=${() => toggle(i.prompt)} /><span>${i.prompt}${i.intent ? html` <span class="small muted">(${i.intent.replace(/_/g, ' ')}${i.why ? ': ' + i.why : ''})</span>` : null}</span></label>`)}
    <div class="actions"><button type="button" disabled=${picked.size === 0} onClick=${start}>Check ${picked.size} prompt${picked.size === 1 ? '' : 's'} in a visibility run</button></div>
  </section>`;
}


function Audit({ audit }) {
  return html`<section class="card" aria-labelledby="audit-title"><h2 id="audit-title">AI-readiness audit</h2>
    <h3>AI crawlers (robots.txt)</h3>
    <${Table} caption="Whether each AI crawler may fetch the page" captionHidden rowKey=${(c) => c.agent} rows=${audit.crawlers} columns=${[
      { label: 'Crawler', cell: (c) => html`<strong>${c.agent}</strong>` },
      { label: 'Purpose', cell: (c) => c.purpose },
      { label: 'Allowed', cell: (c) => html`<${Badge} value=${c.allowed ? 'pass' : 'fail'} label=${c.allowed ? 'allowed' : 'blocked'} />` },
      { label: 'Deciding rule', cell: (c) => (c.rule ? html`<code>${c.rule}</code>${c.line ? html` <span class="small muted">line ${c.line}</span>` : null}` : html`<span class="muted">no rule: allowed</span>`) },
    ]} />
    ${audit.log_evidence
      ? html`<h3>What your access logs say</h3>
          <p class="small muted">AI crawler requests for ${audit.log_evidence.path} in the last ${audit.log_evidence.days} days, from the uploaded logs of <a href=${`/console/sites/${audit.log_evidence.site_id}`}>${audit.log_evidence.domain}</a>.</p>
          <ul class="plain" data-testid="audit-log-evidence">${audit.log_evidence.findings.map((f) => html`<li>${f}</li>`)}</ul>`
      : null}
    <h3>Checks</h3>
    <ul class="plain" data-testid="audit-checks">${audit.checks.filter((c) => !c.id.startsWith('ai_crawler:')).map((c) => html`<li><${Badge} value=${c.status} /> <strong>${checkName(c.id)}</strong> — ${c.detail}</li>`)}</ul>
    <dl class="facts" style=${{ marginTop: '12px' }}>
      <dt>llms.txt</dt><dd>${audit.llms_txt.present ? (audit.llms_txt.valid ? `present, ${audit.llms_txt.links} links` : `present, invalid: ${audit.llms_txt.errors.join('; ')}`) : 'missing'}</dd>
      <dt>Sitemap</dt><dd>${audit.sitemap.found ? `${audit.sitemap.url_count} URLs${audit.sitemap.lists_page === false ? ', this page not listed' : ''}` : 'not found'}</dd>
      <dt>Structured data</dt><dd>${audit.json_ld.types.length ? audit.json_ld.types.join(', ') : 'none'}${audit.json_ld.errors ? ` (${audit.json_ld.errors} invalid blocks)` : ''}</dd>
    </dl>
  </section>`;
}

export function ContentReportPage({ id }) {
  const run = useData(() => get(`/v1/content-intelligence/runs/${id}?include_result=true`), [id], { every: 1500, keepPolling: (d) => !d || !TERMINAL.has(d.status) });
  // A failed analysis releases its credits.
  const status = run.data && run.data.status;
  useEffect(() => {
    if (TERMINAL.has(status)) refreshBalance();
  }, [status]);
  if (run.error && !run.data) return html`<${PageHead} title="Content report" /><${ErrorNote} error=${run.error.status === 404 ? new Error('This report does not exist or belongs to another account.') : run.error} />`;
  if (!run.data) return html`<${PageHead} title="Content report" /><${Loading} />`;
  const d = run.data;
  const r = d.result;
  const head = html`<${PageHead} title=${r && r.title ? r.title : 'Content report'} sub=${html`<a href=${d.url} rel="noopener noreferrer" target="_blank">${d.url}</a> · ${d.analysis_depth === 'full' ? 'full analysis' : 'score'} · ${when(d.created_at)}${
    // Every analysis of a page joins its saved test: its history is the before/after of an edit.
    d.test_id ? html` · <a href=${'/console/tests/' + d.test_id} data-testid="ci-history-link">Compare with earlier analyses of this page</a>` : null
  }`}><span data-testid="ci-status"><${Badge} value=${d.status} /></span></${PageHead}>`;
  if (!TERMINAL.has(d.status)) return html`${head}<div class="card"><p role="status">The page is being analysed; this report appears when it is done.</p></div>`;
  if (d.status === 'failed' || !r) {
    return html`${head}<${Note} kind="error"><p>${(d.error && d.error.message) || 'The analysis failed.'} The credits were released.</p></${Note}>`;
  }
  const recs = [...(r.recommendations || [])].sort((a, b) => b.expected_impact - a.expected_impact);
  return html`${head}
    <${Scores} r=${r} />
    <section class="card" aria-labelledby="recs-title"><h2 id="recs-title">Recommendations</h2>
      ${recs.length === 0
        ? html`<p class="muted">Nothing to fix that this analysis measures.</p>`
        : html`<p class="small muted" data-testid="gains-note">Each gain is what that fix alone could add. Fixes overlap, so together they add at most ${Math.max(0, 100 - r.overall_score)} points (to 100).</p>
          <ol>${recs.map((x) => html`<li style=${{ marginBottom: '10px' }}><strong>${x.title}</strong> <${Badge} value=${'priority-' + x.priority} label=${x.priority + ' priority'} /> <span class="small muted">up to +${Math.min(x.expected_impact, Math.max(0, 100 - r.overall_score))} ${x.expected_impact === 1 ? 'point' : 'points'}</span><br />${x.recommendation}</li>`)}</ol>`}
    </section>
    ${(r.trend_coverage || []).length
      ? html`<section class="card" aria-labelledby="trends-title"><h2 id="trends-title">Trend coverage</h2>
          <${Table} caption="How well the page covers each trend" captionHidden rowKey=${(t) => t.trend} rows=${r.trend_coverage} columns=${[
            { label: 'Trend', cell: (t) => html`<strong>${t.trend}</strong>` },
            { label: 'Coverage', cell: (t) => html`${t.coverage}/100 <${Badge} value=${bandOf(t.coverage)} />` },
            { label: 'Gap', cell: (t) => t.gap, wide: true },
            { label: 'What to do', cell: (t) => t.action, wide: true },
          ]} /></section>`
      : null}
    ${r.audit ? html`<${Audit} audit=${r.audit} />` : null}
    <${PromptIdeas} r=${{ ...r, url: d.url, language: d.language, country: d.country }} />`;
}
