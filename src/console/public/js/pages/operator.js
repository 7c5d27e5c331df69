// The operator's view of the instance: every account with its balance and users; suspend or
// reactivate; grant credits; invite someone (the link is shown to copy, and mailed when a
// transport is configured); in live mode, the provider keys as this server found them.
import { html, useEffect, useState, PageHead, Table, Badge, Note, ErrorNote, Loading, Field, CopyButton, useData, when } from '../ui.js';
import { get, post } from '../api.js';

function Invite({ accounts, onDone }) {
  const [email, setEmail] = useState('');
  const [credits, setCredits] = useState('');
  const [into, setInto] = useState('');
  const [role, setRole] = useState('member');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      setResult(await post('/console/api/operator/invitations', { email, ...(into ? { account_id: into, role } : credits ? { credits } : {}) }));
      setEmail('');
      setCredits('');
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  return html`<section class="card" aria-labelledby="inv-title"><h2 id="inv-title">Invite someone</h2>
    <form onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <div class="form-grid">
        <${Field} id="inv-email" label="Email" hint="Into a new account, they open an account of their own, with its own projects, runs, keys and credits: nothing of another account is shared with them. Into an existing account, they work in it with its people (its admins can also invite from their Team page). To show someone a project's numbers, send a share link from the project's page."><input id="inv-email" type="email" required value=${email} onInput=${(e) => setEmail(e.target.value)} /></${Field}>
        <${Field} id="inv-into" label="Into" hint="A new account of their own, or an existing account they join (its balance is shared: no starting credits).">
          <select id="inv-into" value=${into} onChange=${(e) => setInto(e.target.value)} aria-describedby="inv-into-hint"><option value="">A new account</option>${(accounts || []).map((a) => html`<option value=${a.id}>${a.email}</option>`)}</select>
        </${Field}>
        ${into
          ? html`<${Field} id="inv-role" label="Role in that account"><select id="inv-role" value=${role} onChange=${(e) => setRole(e.target.value)}><option value="member">Member</option><option value="admin">Admin</option></select></${Field}>`
          : html`<${Field} id="inv-credits" label="Starting credits (optional)"><input id="inv-credits" type="number" min="0" step="0.01" value=${credits} onInput=${(e) => setCredits(e.target.value)} /></${Field}>`}
      </div>
      <div class="actions"><button type="submit" disabled=${!email}>Create invitation</button></div>
    </form>
    ${result
      ? html`<${Note} kind="ok"><p>Invitation for <strong>${result.email}</strong>${result.account_id ? ` to join that account as ${result.role}` : ''}${result.mailed ? ' sent by mail' : ''}. ${result.mailed ? 'You can also share' : 'Share'} this link (it works once, for seven days)${result.replaced ? '; it replaces the earlier invitation for this address, whose link no longer works' : ''}:</p>
          <div class="secret"><label class="visually-hidden" for="inv-link">Invitation link</label><input id="inv-link" type="text" readonly value=${result.link} /><${CopyButton} text=${result.link} targetId="inv-link" /></div></${Note}>`
      : null}
  </section>`;
}

/** One account's grant form: its error and a short confirmation here, the full one above the table (onDone). */
function Grant({ account, onDone }) {
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setDone(null);
    setBusy(true);
    try {
      const res = await post(`/console/api/operator/accounts/${account.id}/grant`, { credits: amount });
      setAmount('');
      setDone(res.granted_credits);
      onDone(res);
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };
  const id = 'grant-' + account.id;
  return html`<form class="row" onSubmit=${submit}>
    <label class="visually-hidden" for=${id}>Credits to grant to ${account.email}</label>
    <input id=${id} type="number" min="0.01" step="0.01" placeholder="credits" class="credits-input" value=${amount} onInput=${(e) => setAmount(e.target.value)} aria-invalid=${error ? 'true' : undefined} aria-describedby=${error ? id + '-error' : undefined} />
    <button type="submit" class="secondary" disabled=${!amount || busy}>${busy ? 'Granting…' : 'Grant'}</button>
    ${error ? html`<span class="small field-error" id=${id + '-error'} role="alert">Not granted: ${error.message}</span>` : null}
    ${done ? html`<span class="small field-ok">Granted ${done}</span>` : null}
  </form>`;
}

const KEY_STATUS = {
  ok: ['pass', 'accepted'],
  key_refused: ['fail', 'refused'],
  endpoint_unknown: ['fail', 'endpoint unknown'],
  unreachable: ['fail', 'unreachable'],
  unexpected: ['fail', 'unexpected answer'],
  not_checkable: ['neutral', 'not checkable'],
};

/** Live mode: each provider key's latest state in this server process (the check at start, then probes). */
function ProviderKeys() {
  const data = useData(() => get('/console/api/operator/provider-keys'));
  const d = data.data;
  if (!d || d.engine !== 'live') return null;
  const learned = (k) => (k.source === 'probe' ? `a probe, ${when(k.at)}` : `the check, ${when(k.at)}`);
  return html`<section class="card" aria-labelledby="keys-title"><h2 id="keys-title">Provider keys</h2>
    <p class="small muted">As this server process found them: checked once it started${d.checked ? '' : ' (off: SIGHTLINE_CHECK_KEYS_AT_START)'}, then by each probe. <code>sightline platforms check</code> tries them again.</p>
    ${d.keys.length
      ? html`<${Table} caption="Provider keys" captionHidden rowKey=${(k) => k.provider} rows=${d.keys} columns=${[
          { label: 'Provider', cell: (k) => html`<strong>${k.provider}</strong>` },
          { label: 'Key', cell: (k) => html`<${Badge} value=${(KEY_STATUS[k.status] || ['neutral'])[0]} label=${(KEY_STATUS[k.status] || [null, k.status])[1]} />` },
          { label: 'What to do', cell: (k) => (k.check ? html`Fix <code>${k.check}</code>${k.detail ? html`<div class="small muted">${k.detail}</div>` : null}` : k.status === 'not_checkable' ? html`<span class="small muted">No free call: known once a probe runs.</span>` : html`<span class="small muted">Nothing.</span>`), wide: true },
          { label: 'Learned from', cell: (k) => html`<span class="small">${learned(k)}</span>` },
        ]} />`
      : html`<p>${d.checked ? 'No key configured, or the check has not answered yet.' : 'Not checked yet: no probe has run since the server started.'}</p>`}
  </section>`;
}

export function OperatorPage({ session }) {
  const data = useData(() => get('/console/api/operator/accounts'));
  const [error, setError] = useState(null);
  const [granted, setGranted] = useState(null);
  const setStatus = async (a, action) => {
    setError(null);
    setGranted(null);
    try {
      await post(`/console/api/operator/accounts/${a.id}/${action}`);
      data.reload();
    } catch (err) {
      setError(err);
    }
  };
  const loaded = !!data.data;
  useEffect(() => {
    // A link to one account's grant form (the zero-balance note: /console/operator#grant-<account>).
    const target = loaded && location.hash.startsWith('#grant-') && document.getElementById(location.hash.slice(1));
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }, [loaded]);
  const afterGrant = (account) => (res) => {
    setGranted({ ...res, email: account.email, own: account.id === session.account.id });
    data.reload();
  };
  return html`<${PageHead} title="Operator" sub="Every account on this instance." />
    <${ProviderKeys} />
    <${Invite} accounts=${data.data ? data.data.accounts : []} onDone=${() => data.reload()} />
    <section class="card" aria-labelledby="acc-title"><h2 id="acc-title">Accounts</h2>
      <${ErrorNote} error=${error || data.error} />
      ${granted
        ? html`<div data-testid="grant-confirmation"><${Note} kind="ok"><p>Granted <strong>${granted.granted_credits} credits</strong> to ${granted.own ? 'your account' : html`<strong>${granted.email}</strong>`}${granted.own ? ` (${granted.email})` : ''}. ${granted.own ? 'Your' : 'Its'} balance is now ${granted.available_credits} credits.</p></${Note}></div>`
        : null}
      ${!data.data
        ? data.error
          ? null
          : html`<${Loading} />`
        : html`<${Table} caption="Accounts" captionHidden rowKey=${(a) => a.id} rows=${data.data.accounts} columns=${[
            { label: 'Account', cell: (a) => html`<strong>${a.email}</strong><div class="small muted"><code>${a.id}</code> · ${a.users.length ? a.users.map((u) => `${u.email} (${u.account_role}${u.role === 'operator' ? ', operator' : ''})`).join(', ') : 'no console user (CLI)'}</div>`, wide: true },
            { label: 'Status', cell: (a) => html`<${Badge} value=${a.status} />` },
            { label: 'Available', cell: (a) => a.available_credits, num: true },
            { label: 'Reserved', cell: (a) => a.reserved_credits, num: true },
            { label: 'Created', cell: (a) => when(a.created_at) },
            { label: 'Grant credits', cell: (a) => html`<${Grant} account=${a} onDone=${afterGrant(a)} />` },
            { label: 'Access', cell: (a) => (a.id === session.account.id ? html`<span class="muted small">your account</span>` : a.status === 'active' ? html`<button type="button" class="danger" onClick=${() => setStatus(a, 'suspend')}>Suspend</button>` : html`<button type="button" class="secondary" onClick=${() => setStatus(a, 'unsuspend')}>Reactivate</button>`) },
          ]} />
          ${data.data.invitations.length
            ? html`<h3>Open invitations</h3><ul class="plain">${data.data.invitations.map((i) => html`<li>${i.email} <span class="small muted">· ${i.account_id ? `joins ${(data.data.accounts.find((a) => a.id === i.account_id) || { email: i.account_id }).email} as ${i.account_role}` : `${i.credits} credits`} · expires ${when(i.expires_at)}</span></li>`)}</ul>`
            : null}`}
    </section>`;
}
