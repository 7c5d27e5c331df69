// The account's people: who signs in to it (email, role, since, last active) and the invitations
// pending. An admin invites by email with a role (the link is shown to copy, and mailed when a
// transport is configured), revokes an invitation, changes a role and removes a person; a member
// sees the lists only, and so does an admin while the account is suspended. The server decides
// (403 for a member or a suspended account, 409 for the last admin); this page shows its answers.
import { html, useState, PageHead, Table, Note, ErrorNote, Empty, Loading, Field, CopyButton, useData, when, ago } from '../ui.js';
import { get, post } from '../api.js';

const ROLE_TEXT = { admin: 'Admin', member: 'Member' };

function InviteForm({ mail, onDone }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(null);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    setBusy(true);
    try {
      setResult(await post('/console/api/team/invitations', { email: email.trim(), role }));
      setEmail('');
      onDone();
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };
  return html`<section class="card" aria-labelledby="team-invite-title"><h2 id="team-invite-title">Invite a colleague</h2>
    <form onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <div class="form-grid">
        <${Field} id="team-email" label="Email" hint=${mail ? 'They get the link by mail, and you see it here to share.' : 'This instance sends no mail: share the link shown after inviting.'}>
          <input id="team-email" type="email" required maxlength="254" autocomplete="off" value=${email} onInput=${(e) => setEmail(e.target.value)} aria-describedby="team-email-hint" />
        </${Field}>
        <${Field} id="team-role" label="Role" hint="Members work in the account; admins also invite and remove people, and make API keys, share links and webhooks.">
          <select id="team-role" value=${role} onChange=${(e) => setRole(e.target.value)} aria-describedby="team-role-hint"><option value="member">Member</option><option value="admin">Admin</option></select>
        </${Field}>
      </div>
      <div class="actions"><button type="submit" disabled=${busy || !email.trim()}>${busy ? 'Please wait…' : 'Invite'}</button></div>
    </form>
    ${result
      ? html`<${Note} kind="ok"><p>Invitation for <strong>${result.email}</strong> as ${ROLE_TEXT[result.role].toLowerCase()}${result.mailed ? ', sent by mail' : ''}. ${result.mailed ? 'You can also share' : 'Share'} this link (it works once, for seven days)${result.replaced ? '; it replaces the earlier invitation for this address' : ''}:</p>
          <div class="secret"><label class="visually-hidden" for="team-link">Invitation link</label><input id="team-link" type="text" readonly value=${result.link} data-testid="team-link" /><${CopyButton} text=${result.link} targetId="team-link" /></div></${Note}>`
      : null}
  </section>`;
}

export function TeamPage({ session }) {
  const team = useData(() => get('/console/api/team'));
  const [error, setError] = useState(null);
  const [done, setDone] = useState(null);
  const admin = team.data ? team.data.me.role === 'admin' : session.user.account_role === 'admin';
  // A suspended account's people do not change (403 account_suspended) until the operator reinstates it.
  const suspended = session.account.status === 'suspended';
  const manage = admin && !suspended;
  // The confirmation shows with the lists as they are after the change (read again first).
  const act = async (path, body, message) => {
    setError(null);
    setDone(null);
    let failed = null;
    try {
      await post(path, body);
    } catch (err) {
      failed = err;
    }
    await team.reload();
    if (failed) setError(failed);
    else setDone(message);
  };
  const remove = (p) => {
    if (!confirm(`Remove ${p.email} from this account? They are signed out at once. The account's API keys stay.`)) return;
    act(`/console/api/team/people/${p.id}/remove`, undefined, `${p.email} was removed from the account.`);
  };
  const revoke = (i) => act(`/console/api/team/invitations/${i.id}/revoke`, undefined, `The invitation for ${i.email} was revoked; its link no longer works.`);
  const setRole = (p, role) => act(`/console/api/team/people/${p.id}/role`, { role }, `${p.email} is now ${role === 'admin' ? 'an admin' : 'a member'}.`);
  const people = team.data ? team.data.people : [];
  const invitations = team.data ? team.data.invitations : [];
  const me = session.user.id;
  return html`<${PageHead} title="Team" sub=${admin ? 'The people who sign in to this account. As an admin you invite colleagues, change their role and remove them.' : 'The people who sign in to this account. Its admins invite, change roles and remove people.'} />
    ${suspended && admin ? html`<${Note} kind="info"><p>While this account is suspended nobody can be invited, change role or be removed, and invitations cannot be accepted. The operator of this instance can reinstate it.</p></${Note}>` : null}
    ${manage ? html`<${InviteForm} mail=${team.data ? team.data.mail : false} onDone=${team.reload} />` : null}
    <section class="card" aria-labelledby="team-people-title"><h2 id="team-people-title">People</h2>
      <${ErrorNote} error=${error || team.error} />
      ${done ? html`<${Note} kind="ok"><p>${done}</p></${Note}>` : null}
      ${!team.data
        ? team.error
          ? null
          : html`<${Loading} />`
        : html`<${Table} caption="People in this account" captionHidden rowKey=${(p) => p.id} rows=${people} columns=${[
            { label: 'Person', cell: (p) => html`<strong>${p.email}</strong>${p.id === me ? html` <span class="muted small">(you)</span>` : null}${p.operator ? html`<div class="small muted">Instance owner</div>` : null}`, wide: true },
            {
              label: 'Role',
              cell: (p) =>
                manage
                  ? html`<select aria-label=${'Role of ' + p.email} value=${p.role} onChange=${(e) => setRole(p, e.target.value)} style=${{ width: 'auto' }}><option value="admin">Admin</option><option value="member">Member</option></select>`
                  : ROLE_TEXT[p.role],
            },
            { label: 'Since', cell: (p) => when(p.since) },
            { label: 'Last active', cell: (p) => (p.last_active_at ? ago(p.last_active_at) : html`<span class="muted">never signed in</span>`) },
            ...(manage
              ? [{ label: 'Action', cell: (p) => (p.operator ? html`<span class="muted small">—</span>` : html`<button type="button" class="danger" onClick=${() => remove(p)} aria-label=${'Remove ' + p.email}>Remove</button>`) }]
              : []),
          ]} />`}
    </section>
    <section class="card" aria-labelledby="team-pending-title"><h2 id="team-pending-title">Pending invitations</h2>
      ${!team.data
        ? team.error
          ? null
          : html`<${Loading} />`
        : invitations.length === 0
          ? html`<${Empty} title="No pending invitations"><p>${manage ? 'Invite a colleague above: the link works once, for seven days.' : 'Invitations an admin sends appear here until they are accepted.'}</p></${Empty}>`
          : html`<${Table} caption="Pending invitations" captionHidden rowKey=${(i) => i.id} rows=${invitations} columns=${[
              { label: 'Email', cell: (i) => html`<strong>${i.email}</strong>`, wide: true },
              { label: 'Role', cell: (i) => ROLE_TEXT[i.role] },
              { label: 'Invited by', cell: (i) => i.invited_by || html`<span class="muted">the operator</span>` },
              { label: 'Expires', cell: (i) => when(i.expires_at) },
              ...(admin ? [{ label: 'Action', cell: (i) => html`<button type="button" class="secondary" onClick=${() => revoke(i)} aria-label=${'Revoke the invitation for ' + i.email}>Revoke</button>` }] : []),
            ]} />`}
    </section>`;
}
