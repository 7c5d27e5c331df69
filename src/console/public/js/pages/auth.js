// Signing in and everything before it: the owner's set-up on a fresh instance, sign-in, sign-up
// (when open), the forgotten-password request, and the two one-time links (reset, invitation).
import { html, useEffect, useState, navigate, Field, Note, ErrorNote } from '../ui.js';
import { post } from '../api.js';

function AuthCard({ title, sub, children }) {
  useEffect(() => {
    document.title = `${title} · sightline`;
  }, [title]);
  return html`<div class="auth"><div class="row" style=${{ marginBottom: '16px' }}><img src="/console/assets/icon.svg" alt="" width="28" height="28" /><strong>sightline</strong></div>
    <div class="card"><h1>${title}</h1>${sub ? html`<p class="muted">${sub}</p>` : null}${children}</div></div>`;
}

/** Email + password form; `onSubmit` gets {email, password} and returns a promise. */
function CredentialsForm({ submitLabel, onSubmit, newPassword = false, fixedEmail, extra }) {
  const [email, setEmail] = useState(fixedEmail || '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ email, password });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  // Which field the refusal is about: a weak password, an email the server refused, else both
  // (wrong email or password); those fields are marked invalid and point at the note.
  const emailRefused = error && (/email/.test(error.code || '') || (Array.isArray(error.body && error.body.detail) && error.body.detail.some((d) => (d.loc || []).includes('email'))));
  const about = !error ? null : error.code === 'weak_password' ? 'password' : emailRefused ? 'email' : error.status === 0 || error.status >= 500 || error.status === 429 ? null : 'both';
  return html`<form onSubmit=${submit} novalidate>
    <${ErrorNote} error=${error} id="form-error" />
    ${fixedEmail === undefined
      ? html`<${Field} id="email" label="Email" invalid=${about === 'email' || about === 'both'} errorId="form-error"><input id="email" type="email" autocomplete="username" required value=${email} onInput=${(e) => setEmail(e.target.value)} /></${Field}>`
      : fixedEmail
        ? html`<p>Email: <strong>${fixedEmail}</strong></p>`
        : null}
    <${Field} id="password" label=${newPassword ? 'Choose a password' : 'Password'} hint=${newPassword ? 'At least 10 characters. A phrase of several words is easy to remember and hard to guess.' : null}
      invalid=${about === 'password' || about === 'both'} errorId="form-error">
      <input id="password" type="password" autocomplete=${newPassword ? 'new-password' : 'current-password'} required minlength=${newPassword ? 10 : undefined}
        aria-describedby=${newPassword ? 'password-hint' : undefined} value=${password} onInput=${(e) => setPassword(e.target.value)} />
    </${Field}>
    <div class="actions"><button type="submit" disabled=${busy}>${busy ? 'Please wait…' : submitLabel}</button></div>
    ${extra}
  </form>`;
}

async function enter(refresh) {
  await refresh();
  navigate('/console/runs', { replace: true });
}

/** The set-up link's token: `#setup=` as `sightline serve` prints it, or `?setup=`. */
const setupTokenFromUrl = () => new URLSearchParams(location.hash.slice(1)).get('setup') || new URLSearchParams(location.search).get('setup') || '';

export function SetupPage({ session, refresh }) {
  const [setupToken] = useState(setupTokenFromUrl);
  if (!session.needs_owner) return html`<${AuthCard} title="This instance has its owner"><p>Sign in instead.</p><a class="button" href="/console/sign-in">Sign in</a></${AuthCard}>`;
  // Refused without a valid link, the server's own message says where the link is (one note).
  return html`<${AuthCard} title="Set up sightline" sub="Create the owner account. The owner operates this instance: they invite users, grant credits and can suspend accounts.">
    <${CredentialsForm} submitLabel="Create owner account" newPassword onSubmit=${async (c) => {
      await post('/console/api/setup', setupToken ? { ...c, setup_token: setupToken } : c);
      await enter(refresh);
    }} />
  </${AuthCard}>`;
}

export function SignInPage({ session, refresh }) {
  if (session.needs_owner) {
    return html`<${AuthCard} title="Set up sightline" sub="No one owns this instance yet."><a class="button" href=${'/console/setup' + location.search + location.hash}>Create the owner account</a></${AuthCard}>`;
  }
  // Set when a request found the session gone (main.js): say why the page changed under them.
  const ended = history.state && history.state.ended;
  return html`<${AuthCard} title="Sign in" sub="Sign in to your sightline account.">
    ${ended ? html`<${Note} kind="info"><p>Your session ended: it expired, it was signed out from elsewhere (a password change does that too), or an admin removed you from the account. Sign in again to go on.</p></${Note}>` : null}
    <${CredentialsForm} submitLabel="Sign in" onSubmit=${async (c) => {
      await post('/console/api/sign-in', c);
      await enter(refresh);
    }} extra=${html`<p class="small" style=${{ marginTop: '14px' }}><a href="/console/forgot">Forgot your password?</a>${session.signup === 'open' ? html` · <a href="/console/sign-up">Create an account</a>` : null}</p>`} />
  </${AuthCard}>`;
}

export function SignUpPage({ session }) {
  const [done, setDone] = useState(null);
  if (session.signup !== 'open') {
    return html`<${AuthCard} title="Sign-up is by invitation" sub="Accounts on this instance are opened by its operator."><p>Ask the operator for an invitation link, or <a href="/console/sign-in">sign in</a> if you have an account.</p></${AuthCard}>`;
  }
  // The answer is the same whether or not the email has an account (it never says which).
  if (done) {
    return html`<${AuthCard} title=${done.mailed ? 'Check your mail' : 'Now sign in'}>
      ${done.mailed
        ? html`<${Note} kind="ok"><p>We sent a link to ${done.email}. Open it to choose your password and finish (it works once, for an hour). If the address has an account already, the mail says so.</p></${Note}>`
        : html`<${Note} kind="info"><p>If ${done.email} is new here, its account is ready: sign in with the password you chose. If it has an account already, sign in with that account's password, or ask the operator for a password link.</p></${Note}>`}
      <a class="button" href="/console/sign-in">Sign in</a>
    </${AuthCard}>`;
  }
  if (session.mail) return html`<${AuthCard} title="Create an account" sub="We mail you a link to choose your password."><${EmailForm} submitLabel="Send the link" onSubmit=${async (email) => setDone({ email, ...(await post('/console/api/signup', { email })) })} /></${AuthCard}>`;
  return html`<${AuthCard} title="Create an account">
    <${CredentialsForm} submitLabel="Create account" newPassword onSubmit=${async (c) => setDone({ email: c.email, ...(await post('/console/api/signup', c)) })}
      extra=${html`<p class="small" style=${{ marginTop: '14px' }}>Have an account? <a href="/console/sign-in">Sign in</a></p>`} />
  </${AuthCard}>`;
}

/** One email field; `onSubmit` gets the email and returns a promise. */
function EmailForm({ submitLabel, onSubmit }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState(null);
  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      await onSubmit(email);
    } catch (err) {
      setError(err);
    }
  };
  return html`<form onSubmit=${submit}>
      <${ErrorNote} error=${error} />
      <${Field} id="email" label="Email"><input id="email" type="email" autocomplete="username" required value=${email} onInput=${(e) => setEmail(e.target.value)} /></${Field}>
      <div class="actions"><button type="submit">${submitLabel}</button><a class="button secondary" href="/console/sign-in">Back</a></div>
    </form>`;
}

export function ForgotPage({ session }) {
  const [email, setEmail] = useState('');
  const [done, setDone] = useState(null);
  if (done) {
    return html`<${AuthCard} title="Check with your mail or your operator">
      ${done.mailed
        ? html`<${Note} kind="ok"><p>If ${email} has an account here, a link to set a new password is on its way. It works once, for an hour.</p></${Note}>`
        : html`<${Note} kind="info"><p>This instance sends no mail. Ask its operator for a password link; they print one with</p><pre>npx sightline users reset-link --email ${email || 'you@example.com'}</pre></${Note}>`}
      <a href="/console/sign-in">Back to sign-in</a>
    </${AuthCard}>`;
  }
  return html`<${AuthCard} title="Forgot your password?" sub=${session.mail ? 'We send a one-time link to set a new one.' : 'This instance sends no mail: its operator gives out password links.'}>
    <${EmailForm} submitLabel="Get a password link" onSubmit=${async (value) => {
      setEmail(value);
      setDone(await post('/console/api/password/forgot', { email: value }));
    }} />
  </${AuthCard}>`;
}

const tokenFromHash = () => new URLSearchParams(location.hash.slice(1)).get('token') || '';

export function ResetPage({ refresh }) {
  const [token] = useState(tokenFromHash);
  if (!token) return html`<${AuthCard} title="Open the link from your mail"><p>This page needs the one-time link you were given. <a href="/console/forgot">Ask for a new link</a>.</p></${AuthCard}>`;
  return html`<${AuthCard} title="Set a new password" sub="Setting it signs you out on every other device.">
    <${CredentialsForm} fixedEmail="" submitLabel="Set password and sign in" newPassword onSubmit=${async ({ password }) => {
      await post('/console/api/password/reset', { token, password });
      history.replaceState(null, '', '/console/reset');
      await enter(refresh);
    }} />
  </${AuthCard}>`;
}

export function InvitePage({ refresh }) {
  const [token] = useState(tokenFromHash);
  const [invite, setInvite] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (token) post('/console/api/invitations/describe', { token }).then(setInvite, setError);
  }, [token]);
  if (!token || error) {
    return html`<${AuthCard} title="This invitation cannot be used"><p>${error ? error.message : 'Open the invitation link you were given.'}</p><a href="/console/sign-in">Go to sign-in</a></${AuthCard}>`;
  }
  if (!invite) return html`<${AuthCard} title="Opening your invitation…" />`;
  const joins = invite.joins;
  const sub = joins
    ? `${joins.invited_by ? joins.invited_by : 'The operator of this instance'} invites you to join the account of ${joins.account_email} as ${joins.role === 'admin' ? 'an admin' : 'a member'}: you will work on its projects, runs and credits with its other people. Choose a password to join.`
    : invite.credits !== '0.00'
      ? `Your account starts with ${invite.credits} credits.`
      : 'Choose a password to open your account.';
  return html`<${AuthCard} title=${joins ? 'Join your team on sightline' : 'Accept your invitation'} sub=${sub}>
    <${CredentialsForm} fixedEmail=${invite.email} submitLabel=${joins ? 'Join the account' : 'Open my account'} newPassword onSubmit=${async ({ password }) => {
      await post('/console/api/invitations/accept', { token, password });
      history.replaceState(null, '', '/console/invite');
      await enter(refresh);
    }} />
  </${AuthCard}>`;
}
