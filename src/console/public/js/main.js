// The console's entry: asks who is signed in, then shows the sign-in pages or the app shell.
// Pages are modules loaded on first visit, so the first load carries only what it shows.
import { html, render, useEffect, useRef, useState, useLocation, navigate, Loading, Note, ErrorNote } from './ui.js';
import { get, post, setCsrfToken, whenSignedOut } from './api.js';
import { forgetBalance, refreshBalance, useBalance } from './balance.js';

const PAGES = {
  auth: () => import('./pages/auth.js'),
  visibility: () => import('./pages/visibility.js'),
  content: () => import('./pages/content.js'),
  tests: () => import('./pages/tests.js'),
  projects: () => import('./pages/projects.js'),
  keys: () => import('./pages/keys.js'),
  account: () => import('./pages/account.js'),
  team: () => import('./pages/team.js'),
  operator: () => import('./pages/operator.js'),
  alerts: () => import('./pages/alerts.js'),
  sites: () => import('./pages/sites.js'),
};

/** Path → [module, export, params]. */
function route(path) {
  const p = path.replace(/\/+$/, '') || '/console';
  const m = (re) => re.exec(p);
  let r;
  if (p === '/console' || p === '/console/runs') return ['visibility', 'RunsPage', {}];
  if (p === '/console/runs/new') return ['visibility', 'NewRunPage', {}];
  if ((r = m(/^\/console\/runs\/([\w-]+)$/))) return ['visibility', 'RunPage', { id: r[1] }];
  if (p === '/console/content') return ['content', 'ContentRunsPage', {}];
  if (p === '/console/content/new') return ['content', 'NewContentRunPage', {}];
  if ((r = m(/^\/console\/content\/([\w-]+)$/))) return ['content', 'ContentReportPage', { id: r[1] }];
  if (p === '/console/tests') return ['tests', 'TestsPage', {}];
  if (p === '/console/tests/new') return ['tests', 'TestEditPage', {}];
  if ((r = m(/^\/console\/tests\/([\w-]+)\/edit$/))) return ['tests', 'TestEditPage', { id: r[1] }];
  if ((r = m(/^\/console\/tests\/([\w-]+)$/))) return ['tests', 'TestPage', { id: r[1] }];
  if (p === '/console/projects') return ['projects', 'ProjectsPage', {}];
  if (p === '/console/projects/new') return ['projects', 'ProjectEditPage', {}];
  if ((r = m(/^\/console\/projects\/([\w-]+)\/edit$/))) return ['projects', 'ProjectEditPage', { id: r[1] }];
  if ((r = m(/^\/console\/projects\/([\w-]+)$/))) return ['projects', 'ProjectPage', { id: r[1] }];
  if (p === '/console/keys') return ['keys', 'KeysPage', {}];
  if (p === '/console/account') return ['account', 'AccountPage', {}];
  if (p === '/console/team') return ['team', 'TeamPage', {}];
  if (p === '/console/operator') return ['operator', 'OperatorPage', {}];
  if (p === '/console/alerts') return ['alerts', 'AlertsPage', {}];
  if (p === '/console/sites') return ['sites', 'SitesPage', {}];
  if ((r = m(/^\/console\/sites\/([\w-]+)$/))) return ['sites', 'SitePage', { id: r[1] }];
  return [null, null, {}];
}

const AUTH_PAGES = { '/console/sign-in': 'SignInPage', '/console/setup': 'SetupPage', '/console/sign-up': 'SignUpPage', '/console/forgot': 'ForgotPage', '/console/reset': 'ResetPage', '/console/invite': 'InvitePage' };

function Lazy({ module, name, props }) {
  const [Comp, setComp] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    let live = true;
    setComp(null);
    PAGES[module]()
      .then((mod) => live && setComp(() => mod[name]))
      .catch((e) => live && setError(e));
    return () => {
      live = false;
    };
  }, [module, name]);
  if (error) return html`<${ErrorNote} error=${new Error('This page could not be loaded. Reload to try again.')} />`;
  if (!Comp) return html`<${Loading} />`;
  return html`<${Comp} ...${props} />`;
}

const NAV = [
  ['/console/projects', 'Projects', (p) => p.startsWith('/console/projects')],
  ['/console/runs', 'Visibility', (p) => p === '/console' || p.startsWith('/console/runs')],
  ['/console/content', 'Content', (p) => p.startsWith('/console/content')],
  ['/console/tests', 'Tracked tests', (p) => p.startsWith('/console/tests')],
  ['/console/sites', 'Sites', (p) => p.startsWith('/console/sites')],
  ['/console/alerts', 'Alerts', (p) => p.startsWith('/console/alerts')],
  ['/console/keys', 'API keys', (p) => p.startsWith('/console/keys')],
  ['/console/team', 'Team', (p) => p.startsWith('/console/team')],
  ['/console/account', 'Account', (p) => p.startsWith('/console/account')],
];

/**
 * A link reached with Tab comes whole into the phone's sideways-scrolling row: Chromium scrolls a
 * focused element only when it is wholly out of view, so a link cut at the row's edge stayed cut.
 */
const revealInRow = (e) => e.currentTarget.scrollIntoView({ block: 'nearest', inline: 'nearest' });

function Shell({ session, refresh }) {
  const { path } = useLocation();
  const [module, name, params] = route(path);
  const { credits } = useBalance();
  // Read again on every page (a run may have settled or released credits meanwhile); changes
  // made in the console and the tab regaining focus read it too (balance.js).
  useEffect(() => {
    refreshBalance();
  }, [path]);
  useEffect(() => forgetBalance, []);
  // On a phone the sections are one row that scrolls sideways: bring the current one into view,
  // or a page like Alerts or Operator opens with its own tab scrolled out of sight.
  const navRef = useRef(null);
  useEffect(() => {
    const nav = navRef.current;
    const current = nav && nav.querySelector('a[aria-current="page"]');
    if (current && nav.scrollWidth > nav.clientWidth) nav.scrollLeft = Math.max(0, current.offsetLeft - nav.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2);
  }, [path]);
  const signOut = async () => {
    try {
      await post('/console/api/sign-out');
    } finally {
      await refresh();
      navigate('/console/sign-in', { replace: true });
    }
  };
  const suspended = session.account.status === 'suspended';
  const nav = session.user.role === 'operator' ? [...NAV, ['/console/operator', 'Operator', (p) => p.startsWith('/console/operator')]] : NAV;
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <header class="topbar"><div class="topbar-inner">
      <a class="brand" href="/console/runs"><img src="/console/assets/icon.svg" alt="" />sightline</a>
      <nav class="nav" aria-label="Main" ref=${navRef}>${nav.map(([href, label, active]) => html`<a href=${href} aria-current=${active(path) ? 'page' : undefined} onFocus=${revealInRow}>${label}</a>`)}</nav>
      <div class="who">
        <span>Signed in as <strong>${session.user.email}</strong></span>
        <span>Balance <strong data-testid="balance">${credits ? credits.available_credit_units + ' cr' : '…'}</strong></span>
        <button type="button" class="link" onClick=${signOut}>Sign out</button>
      </div>
    </div></header>
    ${suspended
      ? html`<div class="banner"><${Note} kind="error">This account is suspended: runs and API calls are refused. Contact the operator of this instance.</${Note}></div>`
      : null}
    ${session.engine === 'sandbox'
      ? html`<div class="banner"><${Note} kind="warn"><p>Sandbox engine: answers are simulated<span class="wide-only"> on this server, not asked of real AI platforms. The operator switches to live platforms with SIGHTLINE_PLATFORM_ENGINE=live</span>.</p></${Note}></div>`
      : null}
    <main id="main">${!module ? html`<${NotFound} />` : suspended && !OPEN_WHILE_SUSPENDED.has(module) ? html`<${Suspended} />` : html`<${Lazy} key=${path} module=${module} name=${name} props=${{ ...params, session }} />`}</main>`;
}

// A suspended account's /v1 API answers 403 account_suspended to every call, reads included: the
// pages built on it would show an error over a page stuck "Loading…", or "no sites yet", beside
// forms that fail. They show this instead; the pages that read through the console's own routes
// (keys, team, account, the operator's) stay open.
const OPEN_WHILE_SUSPENDED = new Set(['keys', 'team', 'account', 'operator']);

function Suspended() {
  useEffect(() => {
    document.title = 'Account suspended · sightline';
  }, []);
  return html`<h1>This account is suspended</h1>
    <p>Its projects, runs, tracked tests, sites and alert destinations are kept, but they cannot be opened or changed, and nothing runs, until the operator of this instance makes the account active again. Ask them; the API and MCP answer <code>403 account_suspended</code> meanwhile.</p>
    <p>Still open: <a href="/console/team">Team</a> (who is in the account), <a href="/console/keys">API keys</a> (revoking them) and <a href="/console/account">Account</a> (credits).</p>`;
}

function Redirect({ to }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function NotFound() {
  useEffect(() => {
    document.title = 'Page not found · sightline';
  }, []);
  return html`<h1>Page not found</h1><p>There is nothing at this address. <a href="/console/runs">Go to your visibility runs</a>.</p>`;
}

function App() {
  const { path } = useLocation();
  const [session, setSession] = useState(null);
  const [error, setError] = useState(null);
  const refresh = async () => {
    try {
      const s = await get('/console/api/session');
      setCsrfToken(s.csrf_token);
      setSession(s);
      setError(null);
      return s;
    } catch (e) {
      setError(e);
      return null;
    }
  };
  // The session ended under the page (signed out elsewhere, expired, or removed from the account
  // by an admin): the sign-in page says so (history state `ended`).
  const ended = () => refresh().then(() => navigate('/console/sign-in', { replace: true, state: { ended: true } }));
  useEffect(() => {
    refresh();
    whenSignedOut(ended);
  }, []);
  // Read the session again on every page: an admin may have changed this person's role (or
  // removed them), or the operator suspended the account, since the console was opened. Only a
  // change in what the pages depend on is applied, so most navigations re-render nothing.
  useEffect(() => {
    if (!session || !session.signed_in) return;
    let live = true;
    get('/console/api/session')
      .then((s) => {
        if (!live) return;
        if (!s.signed_in) ended();
        else if (s.user.account_role !== session.user.account_role || s.account.status !== session.account.status) setSession(s);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [path]);
  if (error && !session) return html`<main><${ErrorNote} error=${error} /><button onClick=${refresh}>Try again</button></main>`;
  if (!session) return html`<${Loading} what="Loading the console" />`;
  const authName = AUTH_PAGES[path.replace(/\/+$/, '')];
  if (!session.signed_in || authName) {
    let name = authName;
    if (!session.signed_in && !name) name = session.needs_owner ? 'SetupPage' : 'SignInPage';
    if (session.signed_in && authName && !['ResetPage', 'InvitePage'].includes(authName)) return html`<${Redirect} to="/console/runs" />`;
    return html`<main id="main"><${Lazy} key=${name} module="auth" name=${name} props=${{ session, refresh }} /></main>`;
  }
  return html`<${Shell} session=${session} refresh=${refresh} />`;
}

document.getElementById('app').textContent = '';
render(html`<${App} />`, document.getElementById('app'));
