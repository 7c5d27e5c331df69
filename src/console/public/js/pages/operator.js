// The operator's view of the instance: every account with its balance and users; suspend or
// reactivate; grant credits; invite someone (the link is shown to copy, and mailed when a
// transport is configured).
import { html, useState, PageHead, Table, Badge, Note, ErrorNote, Loading, Field, CopyButton, useData, when } from '../ui.js';
import { get, post } from '../api.js';

function Invite({ onDone }) {
  const [email, setEmail] = useState('');
  const [credits, setCredits] = useState('');
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      setResult(await post('/console/api/operator/invitations', { email, ...(credits ? { credits } : {}) }));
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
        <${Field} id="inv-email" label="Email"><input id="inv-email" type="email" required value=${email} onInput=${(e) => setEmail(e.target.value)} /></${Field}>
        <${Field} id="inv-credits" label="Starting credits (optional)"><input id="inv-credits" type="number" min="0" step="0.01" value=${credits} onInput=${(e) => setCredits(e.target.value)} /></${Field}>
      </div>
      <div class="actions"><button type="submit" disabled=${!email}>Create invitation</button></div>
    </form>
    ${result
      ? html`<${Note} kind="ok"><p>Invitation for <strong>${result.email}</strong>${result.mailed ? ' sent by mail' : ''}. ${result.mailed ? 'You can also share' : 'Share'} this link (it works once, for seven days):</p>
          <div class="secret"><label class="visually-hidden" for="inv-link">Invitation link</label><input id="inv-link" type="text" readonly value=${result.link} /><${CopyButton} text=${result.link} targetId="inv-link" /></div></${Note}>`
      : null}
  </section>`;
}

function Grant({ account, onDone }) {
  const [amount, setAmount] = useState('');
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      await post(`/console/api/operator/accounts/${account.id}/grant`, { credits: amount });
      setAmount('');
      onDone();
    } catch (err) {
      setError(err);
    }
  };
  const id = 'grant-' + account.id;
  return html`<form class="row" onSubmit=${submit}>
    <label class="visually-hidden" for=${id}>Credits to grant to ${account.email}</label>
    <input id=${id} type="number" min="0.01" step="0.01" placeholder="credits" style=${{ width: '7.5em' }} value=${amount} onInput=${(e) => setAmount(e.target.value)} />
    <button type="submit" class="secondary" disabled=${!amount}>Grant</button>
    ${error ? html`<span class="small" style=${{ color: 'var(--danger)' }} role="alert">${error.message}</span>` : null}
  </form>`;
}

export function OperatorPage({ session }) {
  const data = useData(() => get('/console/api/operator/accounts'));
  const [error, setError] = useState(null);
  const setStatus = async (a, action) => {
    setError(null);
    try {
      await post(`/console/api/operator/accounts/${a.id}/${action}`);
      data.reload();
    } catch (err) {
      setError(err);
    }
  };
  return html`<${PageHead} title="Operator" sub="Every account on this instance." />
    <${Invite} onDone=${() => data.reload()} />
    <section class="card" aria-labelledby="acc-title"><h2 id="acc-title">Accounts</h2>
      <${ErrorNote} error=${error || data.error} />
      ${!data.data
        ? html`<${Loading} />`
        : html`<${Table} caption="Accounts" captionHidden rowKey=${(a) => a.id} rows=${data.data.accounts} columns=${[
            { label: 'Account', cell: (a) => html`<strong>${a.email}</strong><div class="small muted"><code>${a.id}</code> · ${a.users.length ? a.users.map((u) => u.role).join(', ') : 'no console user (CLI)'}</div>`, wide: true },
            { label: 'Status', cell: (a) => html`<${Badge} value=${a.status} />` },
            { label: 'Available', cell: (a) => a.available_credits, num: true },
            { label: 'Reserved', cell: (a) => a.reserved_credits, num: true },
            { label: 'Created', cell: (a) => when(a.created_at) },
            { label: 'Grant credits', cell: (a) => html`<${Grant} account=${a} onDone=${() => data.reload()} />` },
            { label: 'Access', cell: (a) => (a.id === session.account.id ? html`<span class="muted small">your account</span>` : a.status === 'active' ? html`<button type="button" class="danger" onClick=${() => setStatus(a, 'suspend')}>Suspend</button>` : html`<button type="button" class="secondary" onClick=${() => setStatus(a, 'unsuspend')}>Reactivate</button>`) },
          ]} />
          ${data.data.invitations.length
            ? html`<h3>Open invitations</h3><ul class="plain">${data.data.invitations.map((i) => html`<li>${i.email} <span class="small muted">· ${i.credits} credits · expires ${when(i.expires_at)}</span></li>`)}</ul>`
            : null}`}
    </section>`;
}
