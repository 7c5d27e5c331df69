// Alerts: where sightline tells the account that something happened. Webhook endpoints and Slack
// channels (the signing secret shown once, events to send, enable/disable, delete), each with its
// delivery log (every attempt, and a button to send a failed message again); the low-credit
// threshold; and each console user's e-mail choices, the weekly digest among them.
// A member of the account (not an admin) adds no destination and widens none: a destination keeps
// receiving the account's events after anyone leaves the team (the API refuses it, 403
// team_admin_required); they still describe, pause, narrow and delete them.
import { html, useState, PageHead, Table, Badge, Field, Note, ErrorNote, Empty, Loading, CopyButton, useData, when } from '../ui.js';
import { get, post, patch, del } from '../api.js';

const EVENTS = [
  ['run.completed', 'A visibility or Content Intelligence run finished'],
  ['tracked_test.changed', "A tracked test's mention rate moved beyond the noise"],
  ['tracked_test.skipped', 'A scheduled run of a tracked test was skipped'],
  ['credits.low', 'The balance fell below the low-credit threshold'],
  ['crawler.blocked', 'Site logs show an AI search or user-triggered crawler refused on a page robots.txt allows'],
];
const DIGEST = ['digest.weekly', 'Weekly digest: the week of each project and site, Mondays'];
const eventList = (events) => (events.includes('*') ? 'All events' : events.join(', '));

/** Event checkboxes with an "all events" choice; `value` is the list sent to the API. */
function EventChoice({ idPrefix, value, onChange, legend = 'Events to send', extra = [] }) {
  const all = value.includes('*');
  const set = new Set(value);
  const toggle = (e) => {
    const next = new Set(set);
    next.has(e) ? next.delete(e) : next.add(e);
    onChange([...next]);
  };
  return html`<fieldset><legend>${legend}</legend>
    <label class="check"><input type="checkbox" id=${idPrefix + '-all'} checked=${all} onChange=${() => onChange(all ? [] : ['*'])} /><span><strong>All events</strong>, including those added later</span></label>
    ${all
      ? null
      : html`<div class="checks">${[...EVENTS, ...extra].map(
          ([e, label]) => html`<label class="check"><input type="checkbox" checked=${set.has(e)} onChange=${() => toggle(e)} /><span><code>${e}</code><br /><span class="small muted">${label}</span></span></label>`,
        )}</div>`}
  </fieldset>`;
}

/**
 * Which projects' events a destination gets: every event of the account (project_ids null), or
 * only those of the chosen projects (an agency's channel per client; no account events then).
 * `value` is null or the list of project ids.
 */
function ProjectChoice({ idPrefix, projects, value, onChange, events = [] }) {
  if (!projects || projects.length === 0) return null;
  const limited = value !== null;
  // Account events belong to no project: a limited destination never gets them.
  const accountEvents = events.filter((e) => e === 'credits.low' || e === 'crawler.blocked');
  const set = new Set(value ?? []);
  const toggle = (id) => {
    const next = new Set(set);
    next.has(id) ? next.delete(id) : next.add(id);
    onChange([...next]);
  };
  return html`<fieldset data-testid=${idPrefix + '-projects'}><legend>Projects</legend>
    <label class="check"><input type="radio" name=${idPrefix + '-scope'} checked=${!limited} onChange=${() => onChange(null)} /><span><strong>Every event of the account</strong>, every project's and the account's own (credits, crawlers)</span></label>
    <label class="check"><input type="radio" name=${idPrefix + '-scope'} checked=${limited} onChange=${() => onChange([])} /><span><strong>Only these projects</strong> — e.g. one client's channel: their runs and tracked tests, nothing of other projects or of the account</span></label>
    ${limited
      ? html`<div class="checks">${projects.map(
          (p) => html`<label class="check"><input type="checkbox" checked=${set.has(p.id)} onChange=${() => toggle(p.id)} /><span>${p.name} <span class="small muted">${p.brand.name}</span></span></label>`,
        )}</div>
        ${accountEvents.length ? html`<p class="small" data-testid=${idPrefix + '-account-events'}>${accountEvents.join(' and ')} ${accountEvents.length === 1 ? 'is an account event' : 'are account events'}: limited to projects, this destination will not get ${accountEvents.length === 1 ? 'it' : 'them'}.</p>` : null}`
      : null}
  </fieldset>`;
}

/** The projects a destination is limited to, in words. */
const projectList = (ids, projects) => (ids === null ? 'every project and the account' : ids.map((id) => (projects || []).find((p) => p.id === id)?.name ?? id).join(', '));

function NewSecret({ created, onDone }) {
  return html`<section class="card" aria-labelledby="wh-secret-title" data-testid="webhook-secret">
    <h2 id="wh-secret-title">Signing secret of ${created.url}</h2>
    <${Note} kind="warn"><p><strong>Copy it now: this is the only time it is shown.</strong> Your receiver checks each delivery's <code>webhook-signature</code> header with it (Standard Webhooks). If it is lost, delete the endpoint and add it again.</p></${Note}>
    <div class="secret">
      <label class="visually-hidden" for="wh-secret-value">Signing secret</label>
      <input id="wh-secret-value" type="text" readonly value=${created.secret} onFocus=${(e) => e.target.select()} data-testid="webhook-secret-value" />
      <${CopyButton} text=${created.secret} targetId="wh-secret-value" />
    </div>
    <div class="actions"><button type="button" onClick=${onDone}>I have copied it</button></div>
  </section>`;
}

function AddForm({ onCreated, projects }) {
  const [format, setFormat] = useState('standard_webhooks');
  const [projectIds, setProjectIds] = useState(null);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState(['run.completed', 'tracked_test.changed']);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const slack = format === 'slack';
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await post('/v1/webhooks', { url: url.trim(), events, format, ...(description.trim() ? { description: description.trim() } : {}), ...(projectIds ? { project_ids: projectIds } : {}) });
      setUrl('');
      setDescription('');
      setProjectIds(null);
      onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="card" aria-labelledby="add-title"><h2 id="add-title">Add a destination</h2>
    <form onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <fieldset><legend>Kind</legend>
        <label class="check"><input type="radio" name="wh-format" checked=${!slack} onChange=${() => setFormat('standard_webhooks')} /><span><strong>Webhook endpoint</strong> — signed JSON POSTed to your URL</span></label>
        <label class="check"><input type="radio" name="wh-format" checked=${slack} onChange=${() => setFormat('slack')} /><span><strong>Slack channel</strong> — a readable message through a Slack incoming webhook</span></label>
      </fieldset>
      <div class="form-grid">
        <${Field} id="wh-url" label=${slack ? 'Slack incoming-webhook URL' : 'Endpoint URL'} hint=${slack ? 'https://hooks.slack.com/services/… Treat it as a secret: anyone holding it can post to the channel.' : 'A public http(s) address that answers 2xx within 15 seconds.'}>
          <input id="wh-url" type="url" required maxlength="2000" value=${url} onInput=${(e) => setUrl(e.target.value)} aria-describedby="wh-url-hint" />
        </${Field}>
        <${Field} id="wh-description" label="Note (optional)" hint="For people, e.g. “ops channel”.">
          <input id="wh-description" type="text" maxlength="500" value=${description} onInput=${(e) => setDescription(e.target.value)} aria-describedby="wh-description-hint" />
        </${Field}>
      </div>
      <${EventChoice} idPrefix="wh-new" value=${events} onChange=${setEvents} />
      <${ProjectChoice} idPrefix="wh-new" projects=${projects} value=${projectIds} onChange=${setProjectIds} events=${events} />
      <div class="actions"><button type="submit" disabled=${busy || !url.trim() || events.length === 0 || (projectIds !== null && projectIds.length === 0)}>${slack ? 'Add Slack channel' : 'Add endpoint'}</button></div>
    </form></section>`;
}

function Attempts({ d }) {
  if (!d.attempt_log || d.attempt_log.length === 0) return html`<span class="muted small">None yet</span>`;
  return html`<details class="attempts"><summary>${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}</summary>
    <ol class="attempt-list">${d.attempt_log.map(
      (a) => html`<li><span>${when(a.started_at)}</span> <strong>${a.status_code ?? 'no answer'}</strong>${a.duration_ms != null ? html` <span class="muted">${a.duration_ms} ms</span>` : null}${a.error ? html`<br /><span class="small field-error">${a.error}</span>` : null}</li>`,
    )}</ol></details>`;
}

function Deliveries({ endpoint }) {
  const log = useData(() => get(`/v1/webhooks/${endpoint.id}/deliveries?limit=50`), [endpoint.id], {
    every: 2000,
    keepPolling: (d) => !!d && d.deliveries.some((x) => x.status === 'pending'),
  });
  const [error, setError] = useState(null);
  const [sent, setSent] = useState('');
  const retry = async (d) => {
    setError(null);
    setSent('');
    try {
      await post(`/v1/webhooks/${endpoint.id}/deliveries/${d.id}/retry`);
      setSent(d.status === 'pending' ? `${d.event} (${d.id}) queued to be sent now instead of at its next scheduled attempt.` : `${d.event} (${d.id}) queued to be sent again.`);
      log.reload();
    } catch (err) {
      setError(err);
    }
  };
  const list = log.data ? log.data.deliveries : [];
  return html`<div class="deliveries" data-testid=${'deliveries-' + endpoint.id}>
    <div class="row spread"><h3>Deliveries</h3><button type="button" class="secondary" onClick=${() => log.reload()}>Refresh</button></div>
    <${ErrorNote} error=${error || log.error} />
    ${sent ? html`<${Note} kind="ok"><p>${sent}</p></${Note}>` : null}
    ${log.loading && !log.data
      ? html`<${Loading} />`
      : list.length === 0
        ? html`<p class="muted small">Nothing sent yet. A message appears here when one of the chosen events happens.</p>`
        : html`<${Table} caption=${'Deliveries to ' + endpoint.url} captionHidden rowKey=${(d) => d.id} rows=${list} columns=${[
            { label: 'Event', cell: (d) => html`<code>${d.event}</code><br /><span class="small muted mono">${d.id}</span>`, wide: true },
            { label: 'Created', cell: (d) => when(d.created_at) },
            { label: 'Status', cell: (d) => html`<${Badge} value=${d.status} />` },
            { label: 'Last answer', cell: (d) => (d.last_status_code ?? (d.last_error ? html`<span class="small">${d.last_error}</span>` : '—')) },
            { label: 'Attempts', cell: (d) => html`<${Attempts} d=${d} />` },
            { label: 'Next attempt', cell: (d) => (d.next_attempt_at ? when(d.next_attempt_at) : '—') },
            {
              label: 'Action',
              cell: (d) =>
                // A message waiting for its next scheduled attempt can be sent now (the API moves
                // that attempt forward), e.g. once the receiver is fixed: no hours of waiting.
                d.status === 'pending' && !(d.attempts > 0 && d.next_attempt_at && Date.parse(d.next_attempt_at) > Date.now())
                  ? html`<span class="muted small">Sending</span>`
                  : d.status === 'pending'
                    ? html`<button type="button" class="secondary" onClick=${() => retry(d)} aria-label=${`Send now: ${d.event} ${d.id}`}>Send now</button>`
                    : html`<button type="button" class="secondary" onClick=${() => retry(d)} aria-label=${`Send again: ${d.event} ${d.id}`}>Send again</button>`,
            },
          ]} />`}
  </div>`;
}

/** A member's view of the add form: why only an admin adds one. */
function AdminsAdd() {
  return html`<section class="card" aria-labelledby="add-title" data-testid="admins-add"><h2 id="add-title">Add a destination</h2>
    <${Note} kind="info"><p>Only an admin of this account adds destinations: a destination receives the account's events and keeps receiving them after anyone leaves the team. Ask an admin (see <a href="/console/team">Team</a>). You can still pause, narrow or delete the destinations below.</p></${Note}></section>`;
}

function EndpointCard({ endpoint, onChanged, projects, member }) {
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState(endpoint.events);
  const [projectIds, setProjectIds] = useState(endpoint.project_ids ?? null);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const act = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      await onChanged();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const saveEvents = (e) => {
    e.preventDefault();
    act(async () => {
      await patch(`/v1/webhooks/${endpoint.id}`, { events, project_ids: projectIds });
      setEditing(false);
    });
  };
  const toggleStatus = () => act(() => patch(`/v1/webhooks/${endpoint.id}`, { status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' }));
  const remove = () => {
    if (!confirm(`Delete the destination ${endpoint.url}? Its delivery log goes with it.`)) return;
    act(() => del(`/v1/webhooks/${endpoint.id}`));
  };
  const titleId = 'wh-' + endpoint.id;
  const disabledWhy = endpoint.disabled_reason === 'failing' ? 'every delivery failed for 5 days' : endpoint.disabled_reason === 'disabled_by_user' ? 'disabled by a user' : endpoint.disabled_reason;
  return html`<article class="card endpoint" aria-labelledby=${titleId} data-testid="endpoint">
    <div class="row spread">
      <h3 id=${titleId} class="endpoint-url">${endpoint.url}</h3>
      <span class="row">${endpoint.format === 'slack' ? html`<span class="badge">Slack</span>` : html`<span class="badge">Webhook</span>`}<${Badge} value=${endpoint.status === 'enabled' ? 'active' : 'failed'} label=${endpoint.status} /></span>
    </div>
    ${endpoint.description ? html`<p class="muted">${endpoint.description}</p>` : null}
    ${endpoint.status === 'disabled' && disabledWhy ? html`<${Note} kind=${endpoint.disabled_reason === 'failing' ? 'error' : 'warn'}><p>Disabled: ${disabledWhy}. Nothing is sent until it is enabled again.</p></${Note}>` : null}
    <${ErrorNote} error=${error} />
    ${editing
      ? html`<form onSubmit=${saveEvents}>
          <${EventChoice} idPrefix=${'wh-edit-' + endpoint.id} value=${events} onChange=${setEvents} legend=${'Events sent to ' + endpoint.url} />
          <${ProjectChoice} idPrefix=${'wh-edit-' + endpoint.id} projects=${projects} value=${projectIds} onChange=${setProjectIds} events=${events} />
          ${member ? html`<p class="small muted">As a member you can send it fewer events or projects; only an admin adds more.</p>` : null}
          <div class="actions"><button type="submit" disabled=${busy || events.length === 0 || (projectIds !== null && projectIds.length === 0)}>Save</button><button type="button" class="secondary" onClick=${() => { setEvents(endpoint.events); setProjectIds(endpoint.project_ids ?? null); setEditing(false); }}>Cancel</button></div>
        </form>`
      : html`<p class="small"><span class="muted">Events:</span> ${eventList(endpoint.events)} <span class="muted">· added ${when(endpoint.created_at)}</span></p>
          <p class="small" data-testid="endpoint-projects"><span class="muted">Projects:</span> ${projectList(endpoint.project_ids ?? null, projects)}</p>`}
    <div class="actions">
      <button type="button" class="secondary" aria-expanded=${open} onClick=${() => setOpen(!open)}>${open ? 'Hide deliveries' : 'Show deliveries'}</button>
      ${editing ? null : html`<button type="button" class="secondary" onClick=${() => setEditing(true)}>Edit events and projects</button>`}
      <button type="button" class="secondary" disabled=${busy} onClick=${toggleStatus}>${endpoint.status === 'enabled' ? 'Disable' : 'Enable'}</button>
      <button type="button" class="danger" disabled=${busy} onClick=${remove}>Delete</button>
    </div>
    ${open ? html`<${Deliveries} endpoint=${endpoint} />` : null}
  </article>`;
}

function Threshold({ settings, onSaved }) {
  const [value, setValue] = useState(settings.credits_low_threshold ?? '');
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState('');
  const save = async (e) => {
    e.preventDefault();
    setError(null);
    setSaved('');
    try {
      const s = await patch('/v1/notification-settings', { credits_low_threshold: String(value).trim() === '' ? null : String(value).trim() });
      setSaved(s.credits_low_threshold === null ? 'Low-credit alert turned off.' : `Saved: credits.low fires when the available balance falls below ${s.credits_low_threshold} credits.`);
      onSaved(s);
    } catch (err) {
      // The API names the field; the form names what the user typed into.
      setError(err.code === 'validation' ? new Error(err.message.replace(/^credits_low_threshold: /, 'The threshold ')) : err);
    }
  };
  return html`<section class="card" aria-labelledby="threshold-title"><h2 id="threshold-title">Low-credit alert</h2>
    <p class="small muted">The <code>credits.low</code> event is sent once when a run's reservation leaves the available balance below this, and again only after a grant lifts the balance back above it.</p>
    <form onSubmit=${save}>
      <${ErrorNote} error=${error} />
      ${saved ? html`<${Note} kind="ok"><p>${saved}</p></${Note}>` : null}
      <div class="row threshold-row">
        <${Field} id="credits-low" label="Threshold in credits" hint="Empty turns the alert off.">
          <input id="credits-low" class="credits-input" type="text" inputmode="decimal" value=${value} onInput=${(e) => setValue(e.target.value)} aria-describedby="credits-low-hint" />
        </${Field}>
        <button type="submit">Save threshold</button>
      </div>
      <p class="small" data-testid="credits-low-state">${settings.credits_low_threshold === null ? 'Off.' : settings.credits_low_armed ? `Armed at ${settings.credits_low_threshold} credits.` : `Already sent; armed again when a grant lifts the balance to ${settings.credits_low_threshold} credits.`}</p>
    </form></section>`;
}

function EmailChoice({ entry, onSaved }) {
  const [events, setEvents] = useState(entry.events);
  const [error, setError] = useState(null);
  const [saved, setSaved] = useState(false);
  const slug = entry.email.replace(/[^a-z0-9]/gi, '-');
  const save = async (e) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const s = await patch('/v1/notification-settings', { email_alerts: [{ email: entry.email, events }] });
      setSaved(true);
      onSaved(s);
    } catch (err) {
      // The API names the field; the form names what the user typed into.
      setError(err.code === 'validation' ? new Error(err.message.replace(/^credits_low_threshold: /, 'The threshold ')) : err);
    }
  };
  return html`<form class="email-choice" onSubmit=${save} data-testid="email-choice">
    <${ErrorNote} error=${error} />
    <${EventChoice} idPrefix=${'mail-' + slug} value=${events} onChange=${setEvents} legend=${'E-mail to ' + entry.email} extra=${[DIGEST]} />
    <div class="actions"><button type="submit">Save for ${entry.email}</button>${events.length === 0 ? html`<span class="muted small">No e-mail for this user.</span>` : null}${saved ? html`<span class="field-ok" role="status">Saved</span>` : null}</div>
  </form>`;
}

/** A member's view of the others' e-mail choices: read-only (each person, or an admin, sets them). */
function ColleaguesMail({ entries }) {
  if (entries.length === 0) return null;
  const what = (events) => (events.length === 0 ? 'no e-mail' : events.includes('*') ? 'all events' : events.join(', '));
  return html`<div><h3>Your colleagues' choices</h3>
    <p class="small muted">Each person changes their own; an admin may change anyone's.</p>
    <ul class="plain">${entries.map((entry) => html`<li><strong>${entry.email}</strong> <span class="small muted">· ${what(entry.events)}</span></li>`)}</ul></div>`;
}

export function AlertsPage({ session }) {
  const member = !!session && session.user.account_role === 'member';
  const [created, setCreated] = useState(null);
  const [added, setAdded] = useState('');
  const hooks = useData(() => get('/v1/webhooks'));
  const settings = useData(() => get('/v1/notification-settings'));
  // The account's projects, to limit a destination to some (a key without tests:read sees none).
  const projectsData = useData(() => get('/v1/projects').catch(() => ({ projects: [] })));
  const projects = projectsData.data ? projectsData.data.projects : [];
  const list = hooks.data ? hooks.data.webhooks : [];
  return html`<${PageHead} title="Alerts" sub="Where sightline tells you that something happened: your webhook endpoints, Slack channels and e-mail." />
    ${member
      ? html`<${AdminsAdd} />`
      : created
      ? html`<${NewSecret} created=${created} onDone=${() => setCreated(null)} />`
      : html`<${AddForm} projects=${projects} onCreated=${(c) => { setAdded(''); if (c.format === 'slack') setAdded(`Slack channel added: ${c.url}`); else setCreated(c); hooks.reload(); }} />`}
    ${added ? html`<${Note} kind="ok"><p>${added}</p></${Note}>` : null}
    <section class="card" aria-labelledby="dest-title"><h2 id="dest-title">Destinations</h2>
      <${ErrorNote} error=${hooks.error} />
      ${hooks.loading && !hooks.data
        ? html`<${Loading} />`
        : list.length === 0
          ? html`<${Empty} title="No destinations yet"><p>Add a webhook endpoint or a Slack channel above.</p></${Empty}>`
          : html`<div class="stack">${list.map((w) => html`<${EndpointCard} key=${w.id + w.updated_at} endpoint=${w} projects=${projects} member=${member} onChanged=${hooks.reload} />`)}</div>`}
    </section>
    ${settings.error ? html`<${ErrorNote} error=${settings.error} />` : null}
    ${settings.data
      ? html`<${Threshold} settings=${settings.data} onSaved=${() => settings.reload()} />
        <section class="card" aria-labelledby="mail-title"><h2 id="mail-title">E-mail alerts</h2>
          <p class="small muted">Each console user of the account chooses what they get by e-mail, the weekly digest among it. Mail is sent only when the server has SMTP configured.</p>
          <div class="stack">${settings.data.email_alerts.filter((entry) => !member || entry.email === session.user.email).map((entry) => html`<${EmailChoice} key=${entry.email} entry=${entry} onSaved=${() => {}} />`)}</div>
          ${member ? html`<${ColleaguesMail} entries=${settings.data.email_alerts.filter((entry) => entry.email !== session.user.email)} />` : null}
        </section>`
      : settings.loading
        ? html`<${Loading} />`
        : null}`;
}
