// Sites: the domains whose access logs the account uploads. The list and the add form; one site's
// page uploads a log file from the browser (with progress and the summary the server answers),
// then reads the two reports: AI crawlers (per crawler and role: hits per day as a small chart,
// status classes, blocked hits, verified or not, top pages, last seen) and visits referred by AI
// assistants (per assistant: visits per day and landing pages).
import { html, useState, useEffect, PageHead, Table, Field, Note, ErrorNote, Empty, Loading, Stat, useData, when, ago, navigate, assistantName } from '../ui.js';
import { get, post, del } from '../api.js';

const ROLE_TEXT = { search: 'Search', user: 'User-triggered', training: 'Training' };
const ROLE_HINT = {
  search: 'fetches pages for an AI search index; refusing it keeps you out of AI answers',
  user: 'fetches a page because a person asked an assistant about it, right now',
  training: 'collects pages to train models; refusing it is a choice',
};
const FORMATS = [
  ['auto', 'Recognise it'],
  ['combined', 'nginx / Apache combined'],
  ['common', 'nginx / Apache common'],
  ['cloudflare', 'Cloudflare Logpush (NDJSON)'],
  ['cloudfront', 'CloudFront standard logs'],
  ['vercel', 'Vercel log drain (NDJSON)'],
];
const WINDOWS = [7, 30, 90];
const n = (x) => (x ?? 0).toLocaleString();

export function SitesPage() {
  const sites = useData(() => get('/v1/sites'));
  const [domain, setDomain] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const site = await post('/v1/sites', { domain: domain.trim(), ...(name.trim() ? { name: name.trim() } : {}) });
      navigate(`/console/sites/${site.id}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const list = sites.data ? sites.data.sites : [];
  return html`<${PageHead} title="Sites" sub="Upload a site's access logs to see which AI crawlers fetch it, which are refused, and which visits come from AI assistants." />
    <section class="card" aria-labelledby="site-add-title"><h2 id="site-add-title">Add a site</h2>
      <form onSubmit=${submit}>
        <${ErrorNote} error=${error} />
        <div class="form-grid">
          <${Field} id="site-domain" label="Domain" hint="e.g. example.com (a URL works; www. is folded)."><input id="site-domain" type="text" required maxlength="300" value=${domain} onInput=${(e) => setDomain(e.target.value)} aria-describedby="site-domain-hint" /></${Field}>
          <${Field} id="site-name" label="Name (optional)" hint="Shown in lists; the domain when empty."><input id="site-name" type="text" maxlength="200" value=${name} onInput=${(e) => setName(e.target.value)} aria-describedby="site-name-hint" /></${Field}>
        </div>
        <div class="actions"><button type="submit" disabled=${busy || !domain.trim()}>Add site</button></div>
      </form>
    </section>
    <section class="card" aria-labelledby="sites-title"><h2 id="sites-title">Your sites</h2>
      <${ErrorNote} error=${sites.error} />
      ${sites.loading && !sites.data
        ? html`<${Loading} />`
        : list.length === 0
          ? html`<${Empty} title="No sites yet"><p>Add one above, then upload its access log.</p></${Empty}>`
          : html`<${Table} caption="Sites" captionHidden rowKey=${(s) => s.id} rows=${list} columns=${[
              { label: 'Site', cell: (s) => html`<a href=${'/console/sites/' + s.id}><strong>${s.name}</strong></a>` },
              { label: 'Domain', cell: (s) => html`<code>${s.domain}</code>` },
              { label: 'Added', cell: (s) => when(s.created_at) },
            ]} />`}
    </section>`;
}

/** Sends the file with XMLHttpRequest: fetch reports no upload progress. */
function sendLog(siteId, file, format, onProgress) {
  return new Promise((resolve, reject) => {
    get('/console/api/session')
      .then((session) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `/v1/sites/${siteId}/logs?format=${encodeURIComponent(format)}`);
        const gz = /\.gz$/i.test(file.name) || file.type === 'application/gzip' || file.type === 'application/x-gzip';
        xhr.setRequestHeader('content-type', gz ? 'application/gzip' : 'text/plain');
        xhr.setRequestHeader('x-csrf-token', session.csrf_token || '');
        xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
        xhr.onload = () => {
          let body = null;
          try {
            body = JSON.parse(xhr.responseText);
          } catch {
            body = null;
          }
          if (xhr.status >= 200 && xhr.status < 300) resolve(body);
          else reject(new Error((body && body.detail && body.detail.message) || `The server answered ${xhr.status}.`));
        };
        xhr.onerror = () => reject(new Error('The upload was interrupted. Check your connection and try again.'));
        xhr.send(file);
      })
      .catch(reject);
  });
}

function Upload({ site, onDone }) {
  const [file, setFile] = useState(null);
  const [format, setFormat] = useState('auto');
  const [progress, setProgress] = useState(null);
  const [summary, setSummary] = useState(null);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    if (!file) return;
    setError(null);
    setSummary(null);
    setProgress(0);
    try {
      const s = await sendLog(site.id, file, format, setProgress);
      setSummary(s);
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setProgress(null);
    }
  };
  const big = file && file.size > 50 * 1024 * 1024;
  return html`<section class="card" aria-labelledby="upload-title"><h2 id="upload-title">Upload an access log</h2>
    <p class="small muted">Only hourly counts are kept: no log lines and no client addresses. Sending a file again, or overlapping files, counts nothing twice. Free.</p>
    <form onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <div class="form-grid">
        <${Field} id="log-file" label="Log file" hint="Plain text, NDJSON or gzip (.gz), up to 512 MiB.">
          <input id="log-file" type="file" accept=".log,.txt,.gz,.json,.ndjson,text/plain,application/gzip,application/x-ndjson" onChange=${(e) => setFile(e.target.files[0] || null)} aria-describedby="log-file-hint" />
        </${Field}>
        <${Field} id="log-format" label="Format">
          <select id="log-format" value=${format} onChange=${(e) => setFormat(e.target.value)}>${FORMATS.map(([v, label]) => html`<option value=${v}>${label}</option>`)}</select>
        </${Field}>
      </div>
      ${big ? html`<${Note} kind="warn"><p>A large file may take longer than the server's request time limit. <code>sightline logs ingest FILE --site ${site.id}</code> sends it in pieces.</p></${Note}>` : null}
      ${progress !== null
        ? html`<div data-testid="upload-progress"><div class="progress" role="progressbar" aria-label="Upload" aria-valuemin="0" aria-valuemax="100" aria-valuenow=${Math.round(progress * 100)}><span style=${{ width: `${Math.round(progress * 100)}%` }}></span></div>
            <p class="small muted" role="status">${progress < 1 ? `Sending… ${Math.round(progress * 100)}%` : 'Sent; the server is reading it…'}</p></div>`
        : null}
      <div class="actions"><button type="submit" disabled=${!file || progress !== null}>Upload</button></div>
    </form>
    ${summary
      ? html`<div data-testid="upload-summary" role="status">
          <${Note} kind="ok"><p>Read ${n(summary.lines)} lines as <strong>${summary.format}</strong>${summary.from ? html` covering ${when(summary.from)} to ${when(summary.to)}` : null}.</p></${Note}>
          ${
            // Lines dated after now by the server's clock (a log written with a wrong time zone or
            // clock) are counted, but the reports end now: said here, or they would miss them without a word.
            summary.future_lines > 0
              ? html`<${Note} kind="warn"><p data-testid="upload-future">${n(summary.future_lines)} ${summary.future_lines === 1 ? 'line is' : 'lines are'} dated after now (up to ${when(summary.to)}). They are counted, but the reports below end now and show them only once that time has passed: check the log's time zone or the server clock that wrote it.</p></${Note}>`
              : null
          }
          ${
            // Lines dated further back than the server keeps log line hashes are not counted (a copy
            // sent before could not be recognised): said here, or the reports would miss them without a word.
            summary.too_old_lines > 0
              ? html`<${Note} kind="warn"><p data-testid="upload-too-old">${n(summary.too_old_lines)} ${summary.too_old_lines === 1 ? 'line is' : 'lines are'} older than this server keeps log line hashes (from ${when(summary.from)}). They are not counted: a copy sent before could no longer be recognised.</p></${Note}>`
              : null
          }
          ${summary.hint ? html`<${Note} kind="warn"><p>${summary.hint}</p></${Note}>` : null}
          <div class="stats">
            <${Stat} label="Requests read" value=${n(summary.parsed)} />
            <${Stat} label="AI crawler hits" value=${n(summary.ai_crawler_hits)} />
            <${Stat} label="AI referral visits" value=${n(summary.ai_referral_visits)} />
            <${Stat} label="Skipped" value=${n(summary.skipped)} sub="not a request of the format, or another host" />
            <${Stat} label="Already counted" value=${n(summary.duplicates)} sub=${duplicatesText(summary)} />
          </div>
        </div>`
      : null}
  </section>`;
}

/** What the upload's duplicates were: copies of a line within this file, or lines an earlier upload sent. */
function duplicatesText(s) {
  if (!s.duplicates) return 'no line counted twice';
  const parts = [];
  if (s.duplicates_in_upload) parts.push(`${n(s.duplicates_in_upload)} repeated within this file`);
  if (s.duplicates_sent_before) parts.push(`${n(s.duplicates_sent_before)} sent in an earlier upload`);
  return `lines not counted again: ${parts.join(', ')}`;
}

/** The window's UTC days, oldest first ("YYYY-MM-DD"). */
function daysOf(from, to) {
  const out = [];
  const end = new Date(to.slice(0, 10) + 'T00:00:00Z').getTime();
  for (let t = new Date(from.slice(0, 10) + 'T00:00:00Z').getTime(); t <= end; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * A small bar chart of a count per day over the window (SVG, no library): `daily` holds the days
 * that had any; `blocked` (optional) draws the refused part of each bar in red.
 */
const shortDay = (day) => new Date(day + 'T12:00:00Z').toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function DayBars({ days, daily, value, blocked, label, note }) {
  const by = new Map(daily.map((d) => [d.day, d]));
  const values = days.map((d) => (by.get(d) ? by.get(d)[value] : 0));
  const refused = blocked ? days.map((d) => (by.get(d) ? by.get(d)[blocked] : 0)) : null;
  const max = Math.max(1, ...values);
  const W = 300;
  const H = 44;
  const step = W / days.length;
  const bw = Math.max(1, step * 0.7);
  const busiest = days[values.indexOf(Math.max(...values))];
  const total = values.reduce((a, b) => a + b, 0);
  const text = `${label}: ${total} over ${days.length} days${total ? `, most on ${busiest} (${Math.max(...values)})` : ''}${refused ? `, ${refused.reduce((a, b) => a + b, 0)} refused` : ''}.`;
  return html`<div class="daybars-wrap"><svg class="daybars" viewBox=${`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label=${text}>
    <title>${text}</title>
    <line x1="0" y1=${H - 0.5} x2=${W} y2=${H - 0.5} class="axis" />
    ${values.map((v, i) => {
      if (!v) return null;
      const h = Math.max(2, (v / max) * (H - 2));
      const r = refused && refused[i] ? Math.max(2, (refused[i] / max) * (H - 2)) : 0;
      return html`<g><rect x=${i * step + (step - bw) / 2} y=${H - h} width=${bw} height=${h} class="ok" />${r ? html`<rect x=${i * step + (step - bw) / 2} y=${H - r} width=${bw} height=${r} class="refused" />` : null}</g>`;
    })}
  </svg>
  <div class="daybars-axis small muted" aria-hidden="true"><span>${shortDay(days[0])}</span><span>${note}</span><span>${shortDay(days[days.length - 1])}</span></div></div>`;
}

function StatusClasses({ status }) {
  return html`<span class="status-classes">${['2xx', '3xx', '4xx', '5xx'].map((k) => html`<span class=${'sc sc-' + k[0] + (status[k] ? '' : ' zero')}>${k} <strong>${n(status[k])}</strong></span>`)}</span>`;
}

function CrawlerCard({ c, days }) {
  const id = 'crawler-' + c.name.replace(/[^a-z0-9]/gi, '-');
  return html`<article class="crawler card" aria-labelledby=${id} data-testid="crawler">
    <div class="row spread">
      <h4 id=${id}>${c.name} <span class="muted small">${c.vendor}</span></h4>
      <span class="row">${c.blocked_hits ? html`<span class="badge failed">${n(c.blocked_hits)} refused</span>` : null}<span class="muted small">Last seen ${ago(c.last_seen)}</span></span>
    </div>
    <div class="crawler-body">
      <div>
        <${DayBars} days=${days} daily=${c.daily} value="hits" blocked="blocked_hits" label=${c.name + ' hits per day'} note=${c.blocked_hits ? 'hits per day, refused in red' : 'hits per day'} />
      </div>
      <dl class="facts small">
        <dt>Hits</dt><dd><strong>${n(c.hits)}</strong></dd>
        <dt>Verified</dt><dd>${c.verifiable === false
          ? html`<span data-testid="unverifiable">cannot be checked: ${c.unverifiable_reason}</span>`
          : html`${n(c.verified_hits)} from the vendor's published addresses${c.unverified_hits ? html`, <strong>${n(c.unverified_hits)} unverified</strong>` : null}`}</dd>
        <dt>Status</dt><dd><${StatusClasses} status=${c.status} /></dd>
        <dt>Blocked</dt><dd>${c.blocked_hits ? html`<strong class="field-error">${n(c.blocked_hits)}</strong> answered 401, 403, 429, 451 or a challenge` : 'none'}</dd>
      </dl>
    </div>
    <details class="data-table"><summary>Top pages of ${c.name}</summary>
      <${Table} caption=${'Top pages of ' + c.name} captionHidden rowKey=${(p) => p.path} rows=${c.top_paths} columns=${[
        { label: 'Page', cell: (p) => html`<code>${p.path}</code>`, wide: true },
        { label: 'Hits', cell: (p) => n(p.hits), num: true },
        { label: 'Refused', cell: (p) => (p.blocked_hits ? html`<span class="field-error">${n(p.blocked_hits)}</span>` : '0'), num: true },
      ]} />
    </details>
  </article>`;
}

/** The Unverified card counts hits that could have been verified and were not (a borrowed user
 * agent); hits of crawlers whose vendor publishes no ranges are said apart, never as spoofed. */
function unverifiedSub(list) {
  const unknown = list.filter((c) => c.verifiable === false).reduce((a, c) => a + c.hits, 0);
  return unknown ? `not from the vendor's addresses; ${n(unknown)} more cannot be checked (no published ranges)` : "not from the vendor's addresses";
}

function CrawlerReport({ report }) {
  const days = daysOf(report.from, report.to);
  const list = report.crawlers;
  if (list.length === 0) return html`<${Empty} title="No AI crawler in this window"><p>Upload a log covering these days, or choose a longer window.</p></${Empty}>`;
  const sum = (f) => list.reduce((a, c) => a + f(c), 0);
  const roles = ['search', 'user', 'training'].filter((r) => list.some((c) => c.role === r));
  return html`<div class="stats">
      <${Stat} label="AI crawler hits" value=${n(sum((c) => c.hits))} sub=${`${list.length} crawlers`} />
      <${Stat} label="Refused" value=${n(sum((c) => c.blocked_hits))} sub="401, 403, 429, 451 or a challenge" />
      <${Stat} label="Unverified" value=${n(sum((c) => (c.verifiable === false ? 0 : c.unverified_hits)))} sub=${unverifiedSub(list)} />
    </div>
    ${roles.map(
      (role) => html`<section class="role-group" aria-labelledby=${'role-' + role}>
        <h3 id=${'role-' + role}>${ROLE_TEXT[role]} crawlers <span class="muted small">— ${ROLE_HINT[role]}</span></h3>
        ${list.filter((c) => c.role === role).map((c) => html`<${CrawlerCard} key=${c.name} c=${c} days=${days} />`)}
      </section>`,
    )}`;
}

function ReferralReport({ report }) {
  const days = daysOf(report.from, report.to);
  const list = report.sources;
  if (list.length === 0) return html`<${Empty} title="No visits from AI assistants in this window"><p>A visit counts when a page is opened from a link in ChatGPT, Perplexity, Gemini, Copilot, Claude and others (its Referer or utm_source).</p></${Empty}>`;
  return html`<div class="stats"><${Stat} label="AI referral visits" value=${n(list.reduce((a, s) => a + s.visits, 0))} sub=${`from ${list.length} ${list.length === 1 ? 'assistant' : 'assistants'}`} /></div>
    ${list.map((s) => {
      const name = assistantName(s.source);
      const id = 'source-' + s.source;
      return html`<article class="crawler card" aria-labelledby=${id} data-testid="referral-source">
        <div class="row spread"><h4 id=${id}>${name}</h4><strong>${n(s.visits)} ${s.visits === 1 ? 'visit' : 'visits'}</strong></div>
        <div class="crawler-body">
          <div><${DayBars} days=${days} daily=${s.daily} value="visits" label=${name + ' visits per day'} note="visits per day" /></div>
          <${Table} caption=${'Landing pages from ' + name} rowKey=${(p) => p.path} rows=${s.top_landing_pages} columns=${[
            { label: 'Landing page', cell: (p) => html`<code>${p.path}</code>`, wide: true },
            { label: 'Visits', cell: (p) => n(p.visits), num: true },
          ]} />
        </div>
      </article>`;
    })}`;
}

export function SitePage({ id }) {
  const [days, setDays] = useState(30);
  const [error, setError] = useState(null);
  const site = useData(() => get(`/v1/sites/${id}`), [id]);
  const crawlers = useData(() => get(`/v1/sites/${id}/crawlers?days=${days}`), [id, days]);
  const referrals = useData(() => get(`/v1/sites/${id}/referrals?days=${days}`), [id, days]);
  useEffect(() => setError(null), [id]);
  if (site.error && !site.data) return html`<${PageHead} title="Site" /><${ErrorNote} error=${site.error} /><p><a href="/console/sites">All sites</a></p>`;
  if (!site.data) return html`<${Loading} />`;
  const s = site.data;
  const reload = () => {
    crawlers.reload();
    referrals.reload();
  };
  const remove = async () => {
    if (!confirm(`Delete ${s.domain} and everything read from its logs?`)) return;
    try {
      await del(`/v1/sites/${s.id}`);
      navigate('/console/sites');
    } catch (err) {
      setError(err);
    }
  };
  return html`<p class="small"><a href="/console/sites">← All sites</a></p>
    <${PageHead} title=${s.name} sub=${html`<code>${s.domain}</code> · added ${when(s.created_at)}`}>
      <button type="button" class="danger" onClick=${remove}>Delete site</button>
    </${PageHead}>
    <${ErrorNote} error=${error} />
    <${Upload} site=${s} onDone=${reload} />
    <div class="row window-choice" role="group" aria-label="Report window">
      <span class="label-text">Window</span>
      ${WINDOWS.map((d) => html`<button type="button" class=${d === days ? '' : 'secondary'} aria-pressed=${d === days} onClick=${() => setDays(d)}>Last ${d} days</button>`)}
    </div>
    <section class="card" aria-labelledby="crawlers-title" data-testid="crawlers-report"><h2 id="crawlers-title">AI crawlers</h2>
      <${ErrorNote} error=${crawlers.error} />
      ${crawlers.data ? html`<${CrawlerReport} report=${crawlers.data} />` : html`<${Loading} />`}
    </section>
    <section class="card" aria-labelledby="referrals-title" data-testid="referrals-report"><h2 id="referrals-title">Visits from AI assistants</h2>
      <${ErrorNote} error=${referrals.error} />
      ${referrals.data ? html`<${ReferralReport} report=${referrals.data} />` : html`<${Loading} />`}
    </section>`;
}
