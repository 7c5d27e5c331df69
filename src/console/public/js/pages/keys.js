// The API section: generate a named key — full, read-only or chosen scopes — or an MCP
// token; the raw secret is shown once, with a copy button; list and revoke.
import { html, useEffect, useState, PageHead, Table, Badge, Field, Note, ErrorNote, Empty, Loading, CopyButton, useData, when, ago } from '../ui.js';
import { get, post } from '../api.js';

const SCOPES = [
  ['tests:read', 'Read saved tests'],
  ['runs:read', 'Read runs, usage, activity, models and reports'],
  ['pages:content:serialize', 'Serialize pages (1 credit each)'],
  ['visibility:prompts:suggest', 'Suggest prompts (1 credit)'],
  ['visibility:runs:create', 'Queue and cancel visibility runs'],
  ['content_intelligence:trends:discover', 'Discover trends (1 credit)'],
  ['content_intelligence:content:score', 'Score content (2–3 credits)'],
  ['content_intelligence:runs:create', 'Queue Content Intelligence runs'],
  ['webhooks:write', 'Manage webhooks and alert settings'],
  ['sites:read', 'Read site log reports (AI crawlers, AI referrals)'],
  ['sites:write', 'Add sites and upload their access logs'],
];
const SCOPE_COUNT = SCOPES.length;

function NewSecret({ created, onDone }) {
  const mcp = created.kind === 'mcp';
  // It replaces the form whose button had the focus: the focus goes to the secret (selected).
  useEffect(() => {
    const el = document.getElementById('secret-value');
    if (el) el.focus();
  }, []);
  const config = JSON.stringify({ mcpServers: { sightline: { type: 'http', url: `${location.origin}/mcp`, headers: { Authorization: `Bearer ${created.api_key}` } } } }, null, 2);
  return html`<section class="card" aria-labelledby="secret-title" data-testid="new-secret">
    <h2 id="secret-title">${mcp ? 'Your new MCP token' : 'Your new API key'}: ${created.name}</h2>
    <${Note} kind="warn"><p><strong>Copy it now: this is the only time it is shown.</strong> sightline keeps only a hash; if you lose it, revoke it and generate a new one.</p></${Note}>
    <div class="secret">
      <label class="visually-hidden" for="secret-value">${mcp ? 'MCP token' : 'API key'}</label>
      <input id="secret-value" type="text" readonly value=${created.api_key} onFocus=${(e) => e.target.select()} data-testid="secret-value" />
      <${CopyButton} text=${created.api_key} targetId="secret-value" />
    </div>
    <p class="small muted" style=${{ marginTop: '8px' }}>Scopes: ${created.scopes.join(', ')}</p>
    ${mcp
      ? html`<h3>MCP client configuration</h3>
          <p class="small">Paste this into your MCP client's configuration (Claude Desktop, Cursor, VS Code and others read this shape):</p>
          <label class="visually-hidden" for="mcp-config">MCP client configuration</label>
          <textarea id="mcp-config" readonly rows="9" class="mono">${config}</textarea>
          <div class="actions"><${CopyButton} text=${config} targetId="mcp-config" label="Copy configuration" /></div>`
      : html`<h3>Try it</h3><pre>curl -H "Authorization: Bearer ${created.api_key}" ${location.origin}/v1/usage</pre>`}
    <div class="actions"><button type="button" onClick=${onDone}>I have copied it</button></div>
  </section>`;
}

function GenerateForm({ onCreated, focusName }) {
  // Back from a shown secret ("I have copied it"), the focus goes to the form's first field.
  useEffect(() => {
    if (focusName) document.getElementById('key-name')?.focus();
  }, []);
  const [name, setName] = useState('');
  const [kind, setKind] = useState('api');
  const [access, setAccess] = useState('full');
  const [scopes, setScopes] = useState(new Set(['runs:read']));
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const toggle = (s) => {
    const next = new Set(scopes);
    next.has(s) ? next.delete(s) : next.add(s);
    setScopes(next);
  };
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await post('/console/api/keys', { name: name.trim(), kind, access, ...(access === 'custom' ? { scopes: [...scopes] } : {}) });
      setName('');
      onCreated(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`<section class="card" aria-labelledby="gen-title"><h2 id="gen-title">Generate a key</h2>
    <form onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <div class="form-grid">
        <${Field} id="key-name" label="Name" hint="Where it will be used, e.g. “Reporting script” or “Claude Desktop”."><input id="key-name" type="text" required maxlength="80" value=${name} onInput=${(e) => setName(e.target.value)} aria-describedby="key-name-hint" /></${Field}>
        <${Field} id="key-kind" label="Kind"><select id="key-kind" value=${kind} onChange=${(e) => setKind(e.target.value)}>
          <option value="api">API key (svc_api_live_…) for the HTTP API</option>
          <option value="mcp">MCP token (svc_mcp_live_…) for AI agents</option>
        </select></${Field}>
      </div>
      <fieldset><legend>Access</legend>
        <label class="check"><input type="radio" name="access" value="full" checked=${access === 'full'} onChange=${() => setAccess('full')} /><span><strong>Full</strong> — every action, including those that spend credits</span></label>
        <label class="check"><input type="radio" name="access" value="read_only" checked=${access === 'read_only'} onChange=${() => setAccess('read_only')} /><span><strong>Read-only</strong> — reads runs, tests, usage and activity; spends nothing</span></label>
        <label class="check"><input type="radio" name="access" value="custom" checked=${access === 'custom'} onChange=${() => setAccess('custom')} /><span><strong>Chosen scopes</strong></span></label>
        ${access === 'custom'
          ? html`<div class="checks">${SCOPES.map(([s, label]) => html`<label class="check"><input type="checkbox" checked=${scopes.has(s)} onChange=${() => toggle(s)} /><span><code>${s}</code><br /><span class="small muted">${label}</span></span></label>`)}</div>`
          : null}
      </fieldset>
      <div class="actions"><button type="submit" disabled=${busy || !name.trim() || (access === 'custom' && scopes.size === 0)}>Generate</button></div>
    </form></section>`;
}

/** A member's view: the keys, no form (a key acts for the account and outlives a person's access). */
function AdminsOnly() {
  return html`<section class="card" aria-labelledby="gen-title"><h2 id="gen-title">Generate a key</h2>
    <${Note} kind="info"><p>Only an admin of this account generates keys and tokens: a key acts for the account, not for you, and keeps working after anyone leaves the team. Ask an admin (see <a href="/console/team">Team</a>), or use the console and its API with your own sign-in.</p></${Note}></section>`;
}

function Suspended() {
  return html`<section class="card" aria-labelledby="gen-title"><h2 id="gen-title">Generate a key</h2>
    <${Note} kind="info"><p>While this account is suspended no key or token can be generated, and the existing ones are refused. You can still revoke them below.</p></${Note}></section>`;
}

export function KeysPage({ session }) {
  const [created, setCreated] = useState(null);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState(null);
  const keys = useData(() => get('/console/api/keys'));
  const revoke = async (k) => {
    if (!confirm(`Revoke “${k.name}” (${k.key_prefix}…)? Anything using it stops working at once.`)) return;
    setError(null);
    try {
      await post(`/console/api/keys/${k.key_id}/revoke`);
      keys.reload();
    } catch (err) {
      setError(err);
    }
  };
  const list = keys.data ? keys.data.keys : [];
  return html`<${PageHead} title="API keys" sub="Keys for the HTTP API and tokens for MCP clients act for this account. Each is shown once, when generated." />
    ${session && session.user.account_role === 'member' ? html`<${AdminsOnly} />` : session && session.account.status === 'suspended' ? html`<${Suspended} />` : created ? html`<${NewSecret} created=${created} onDone=${() => setCreated(null)} />` : html`<${GenerateForm} focusName=${shown} onCreated=${(c) => { setCreated(c); setShown(true); keys.reload(); }} />`}
    <section class="card" aria-labelledby="keys-title"><h2 id="keys-title">Your keys</h2>
      <${ErrorNote} error=${error || keys.error} />
      ${keys.loading && !keys.data
        ? html`<${Loading} />`
        : list.length === 0
          ? html`<${Empty} title="No keys yet">${session && session.account.status === 'suspended' ? null : html`<p>Generate one above to call the API from a script or connect an AI agent.</p>`}</${Empty}>`
          : html`<${Table} caption="API keys and MCP tokens" captionHidden rowKey=${(k) => k.key_id} rows=${list} columns=${[
              { label: 'Name', cell: (k) => html`<strong>${k.name}</strong>` },
              { label: 'Prefix', cell: (k) => html`<code>${k.key_prefix}…</code>` },
              { label: 'Kind', cell: (k) => (k.kind === 'mcp' ? 'MCP token' : 'API key') },
              { label: 'Scopes', cell: (k) => html`<span class="small">${k.scopes.length === SCOPE_COUNT ? 'Full access' : k.scopes.join(', ')}</span>` },
              { label: 'Created', cell: (k) => when(k.created_at) },
              { label: 'Last used', cell: (k) => (k.revoked_at ? html`<${Badge} value="revoked" />` : ago(k.last_used_at)) },
              { label: 'Action', cell: (k) => (k.revoked_at ? html`<span class="muted small">Revoked ${when(k.revoked_at)}</span>` : html`<button type="button" class="danger" onClick=${() => revoke(k)} aria-label=${'Revoke ' + k.name}>Revoke</button>`) },
            ]} />`}
    </section>`;
}
