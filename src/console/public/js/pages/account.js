// The account: balance, open reservations, the ledger (grants, charges, releases) and the
// activity log, each with its filter; the user's sessions and "sign out everywhere"; changing
// the password (the current one is asked for; every other session ends).
import { html, useState, navigate, PageHead, Table, Badge, ErrorNote, Empty, Loading, Stat, Field, Note, useData, when, statusText, actionName, sourceName, plural } from '../ui.js';
import { get, post } from '../api.js';
import { useBalance } from '../balance.js';

/** A ledger entry's credits: a grant adds, a charge takes; nothing moved (a released charge) has no sign. */
const ledgerCredits = (e) => (Number(e.credits) === 0 ? e.credits : `${e.kind === 'grant' ? '+' : '−'}${e.credits}`);

function Ledger() {
  const [kind, setKind] = useState('all');
  const [pages, setPages] = useState([]);
  const first = useData(() => get(`/console/api/ledger?kind=${kind}&limit=25`).then((d) => (setPages([]), d)), [kind]);
  const [moreError, setMoreError] = useState(null);
  const entries = first.data ? [...first.data.entries, ...pages.flatMap((p) => p.entries)] : [];
  const last = pages.length ? pages[pages.length - 1] : first.data;
  const more = async () => {
    try {
      setPages([...pages, await get(`/console/api/ledger?kind=${kind}&limit=25&before=${encodeURIComponent(last.next_before)}`)]);
    } catch (e) {
      setMoreError(e);
    }
  };
  return html`<section class="card" aria-labelledby="ledger-title">
    <div class="row spread"><h2 id="ledger-title">Credit ledger</h2>
      <div class="row"><label class="label-text" for="ledger-kind">Show</label>
        <select id="ledger-kind" style=${{ width: 'auto' }} value=${kind} onChange=${(e) => setKind(e.target.value)}>
          <option value="all">Everything</option><option value="grant">Grants</option><option value="charge">Charges</option><option value="reserved">Open reservations</option>
        </select></div></div>
    <${ErrorNote} error=${first.error || moreError} />
    ${!first.data
      ? first.error
        ? null
        : html`<${Loading} />`
      : entries.length === 0
        ? html`<${Empty} title=${kind === 'reserved' ? 'No open reservations' : 'Nothing here yet'}><p>${kind === 'reserved' ? 'Credits are reserved while runs are queued or running.' : 'Grants and charges appear here.'}</p></${Empty}>`
        : html`<${Table} caption="Ledger entries, newest first" captionHidden rowKey=${(e) => e.id} rows=${entries} columns=${[
            { label: 'Time', cell: (e) => when(e.time) },
            { label: 'What', cell: (e) => html`<span title=${e.action}>${actionName(e.action)}</span>${e.run_id ? html` · <a href=${(e.run_id.startsWith('ci_') ? '/console/content/' : '/console/runs/') + e.run_id}>run</a>` : null}` },
            { label: 'Source', cell: (e) => sourceName(e.source) },
            { label: 'State', cell: (e) => html`<${Badge} value=${e.status} />` },
            { label: 'Credits', cell: ledgerCredits, num: true },
            { label: 'Reserved / settled / released', cell: (e) => (e.kind === 'grant' ? '—' : `${e.reserved_credits} / ${e.settled_credits} / ${e.released_credits}`), num: true },
          ]} />
          ${last && last.has_more ? html`<div class="actions"><button type="button" class="secondary" onClick=${more}>Older entries</button></div>` : null}`}
  </section>`;
}

function Activity() {
  // Actions first: the console's own polling of a run records a read every few seconds.
  const [kind, setKind] = useState('actions');
  const [limit, setLimit] = useState(25);
  const act = useData(() => get(`/v1/activity?kind=${kind}&limit=${limit}`), [kind, limit]);
  return html`<section class="card" aria-labelledby="act-title">
    <div class="row spread"><h2 id="act-title">Activity</h2>
      <div class="row">
        <label class="label-text" for="act-kind">Kind</label>
        <select id="act-kind" style=${{ width: 'auto' }} value=${kind} onChange=${(e) => setKind(e.target.value)}>
          <option value="actions">Actions (no reads)</option><option value="all">All requests</option><option value="visibility">Visibility</option><option value="content_intelligence">Content Intelligence</option><option value="pages">Pages</option><option value="reads">Reads</option>
        </select>
        <label class="label-text" for="act-limit">Rows</label>
        <select id="act-limit" style=${{ width: 'auto' }} value=${limit} onChange=${(e) => setLimit(Number(e.target.value))}><option>25</option><option>50</option><option>100</option></select>
      </div></div>
    <${ErrorNote} error=${act.error} />
    ${!act.data
      ? act.error
        ? null
        : html`<${Loading} />`
      : act.data.items.length === 0
        ? html`<${Empty} title="No activity"><p>Requests made with your keys, by MCP clients and from this console appear here.</p></${Empty}>`
        : html`<${Table} caption="Recent requests" captionHidden rowKey=${(i) => i.id} rows=${act.data.items} columns=${[
            { label: 'Time', cell: (i) => when(i.created_at) },
            { label: 'Action', cell: (i) => html`<span title=${i.action}>${actionName(i.action)}</span>` },
            { label: 'Source', cell: (i) => sourceName(i.source) },
            { label: 'Who', cell: (i) => (i.key_prefix ? html`<code>${i.key_prefix}…</code>` : i.user_email ? html`<span class="small">${i.user_email}</span>` : i.user_id ? html`<span class="muted small">removed person</span>` : html`<span class="muted">—</span>`) },
            { label: 'Result', cell: (i) => html`<${Badge} value=${i.status === 'ok' ? 'completed' : 'failed'} label=${String(i.http_status)} />` },
            { label: 'Credits', cell: (i) => i.credits, num: true },
          ]} />`}
  </section>`;
}

function ChangePassword({ email, onChanged }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const res = await post('/console/api/password/change', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setDone(res);
      onChanged();
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };
  return html`<section class="card" aria-labelledby="pw-title"><h2 id="pw-title">Change password</h2>
    <form onSubmit=${submit} novalidate>
      <${ErrorNote} error=${error} />
      ${done
        ? html`<${Note} kind="ok"><p>Password changed.${done.sessions_ended ? ` ${done.sessions_ended} other ${done.sessions_ended === 1 ? 'session was' : 'sessions were'} signed out.` : ''}</p></${Note}>`
        : null}
      <input type="email" name="username" autocomplete="username" value=${email} readonly hidden />
      <${Field} id="current-password" label="Current password">
        <input id="current-password" type="password" autocomplete="current-password" required value=${current} onInput=${(e) => setCurrent(e.target.value)} />
      </${Field}>
      <${Field} id="new-password" label="New password" hint="At least 10 characters. Every other browser signed in as you is signed out.">
        <input id="new-password" type="password" autocomplete="new-password" required minlength="10" aria-describedby="new-password-hint" value=${next} onInput=${(e) => setNext(e.target.value)} />
      </${Field}>
      <div class="actions"><button type="submit" disabled=${busy}>${busy ? 'Please wait…' : 'Change password'}</button></div>
    </form>
  </section>`;
}

function Sessions() {
  const sessions = useData(() => get('/console/api/sessions'));
  const [error, setError] = useState(null);
  const everywhere = async () => {
    if (!confirm('Sign out on every device, this one included?')) return;
    try {
      await post('/console/api/sign-out-everywhere');
      navigate('/console/sign-in', { replace: true });
      location.reload();
    } catch (e) {
      setError(e);
    }
  };
  return html`<section class="card" aria-labelledby="ses-title"><h2 id="ses-title">Where you are signed in</h2>
    <${ErrorNote} error=${error || sessions.error} />
    ${sessions.data
      ? html`<ul class="plain">${sessions.data.sessions.map((s) => html`<li><strong>${s.current ? 'This browser' : 'Another browser'}</strong> <span class="small muted">${(s.user_agent || 'unknown browser').slice(0, 80)} · since ${when(s.created_at)}</span></li>`)}</ul>`
      : html`<${Loading} />`}
    <div class="actions"><button type="button" class="danger" onClick=${everywhere}>Sign out everywhere</button></div>
  </section>`;
}

/** Sessions and the password form: a change ends the other sessions, so the list reloads. */
function SessionsAndPassword({ email }) {
  const [round, setRound] = useState(0);
  return html`<${Sessions} key=${round} /><${ChangePassword} email=${email} onChanged=${() => setRound(round + 1)} />`;
}

export function AccountPage({ session }) {
  // The header's balance (balance.js): read without an activity row, so this page's visit does
  // not show up in its own activity list as usage.read.
  const balance = useBalance();
  const c = balance.credits;
  return html`<${PageHead} title="Account" sub=${html`${session.user.email} · account <code>${session.account.id}</code> · ${statusText(session.account.status)}`} />
    <${ErrorNote} error=${c ? null : balance.error} />
    ${c
      ? html`<div class="stats">
          <${Stat} label="Available" value=${c.available_credit_units} sub="credits (1 credit = 0.02 EUR)" />
          <${Stat} label="Reserved" value=${c.reserved_credit_units} sub="held for queued and running work" />
          <${Stat} label="Used" value=${c.used_credit_units} sub="settled" />
          <${Stat} label="Granted" value=${c.granted_credit_units} sub=${plural(c.active_grant_count, 'grant')} />
        </div>`
      : html`<${Loading} />`}
    <${Ledger} />
    <${Activity} />
    <${SessionsAndPassword} email=${session.user.email} />`;
}
