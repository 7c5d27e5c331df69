// Shared pieces of the console: Preact + htm (no build step), a small path router, formatting,
// and the components every page uses (notices, empty states, tables that reflow, badges).
import { cloneElement, h, render, toChildArray } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';
// Served by the server from src/platforms/names.ts (the one table of display names; not a file here).
import { ASSISTANT_NAMES, PLATFORM_NAMES } from './names.js';

export const html = htm.bind(h);
export { h, render, useCallback, useEffect, useMemo, useRef, useState };

// ---- Router: real paths under /console, history API, links intercepted ----
const listeners = new Set();
/** Set by a navigation, so the next page's heading takes the focus (screen readers hear where they are). */
let focusHeading = false;
export function navigate(path, { replace = false, state = null } = {}) {
  focusHeading = true;
  if (replace) history.replaceState(state, '', path);
  else history.pushState(state, '', path);
  listeners.forEach((fn) => fn());
  window.scrollTo(0, 0);
}
window.addEventListener('popstate', () => listeners.forEach((fn) => fn()));
export function useLocation() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const fn = () => setTick((t) => t + 1);
    listeners.add(fn);
    return () => listeners.delete(fn);
  }, []);
  return { path: location.pathname, search: new URLSearchParams(location.search), hash: location.hash };
}
document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a[href^="/console"]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  e.preventDefault();
  navigate(a.getAttribute('href'));
});

// ---- Formatting ----
export const pct = (x, digits = 0) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(digits)}%`);
/**
 * Shares that make a whole as whole percents summing to 100 (largest remainder): each is rounded
 * down, then the points left go to the largest remainders, so 0.75/0.125/0.125 reads 75/13/12,
 * never 75/13/13. Shares that do not sum to about 1 are rounded each on its own.
 */
export function wholePercents(shares) {
  const total = shares.reduce((a, x) => a + (x || 0), 0);
  if (Math.abs(total - 1) > 0.01) return shares.map((x) => Math.round((x || 0) * 100));
  const raw = shares.map((x) => ((x || 0) / total) * 100);
  const out = raw.map(Math.floor);
  const order = raw.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0, left = 100 - out.reduce((a, x) => a + x, 0); k < left; k++) out[order[k % order.length][1]]++;
  return out;
}
/** A sentiment block ({positive, neutral, negative, unknown}) in words, its parts summing to 100%. */
export function sentimentText(s) {
  if (!s) return '—';
  const [pos, neu, neg, unk] = wholePercents([s.positive, s.neutral, s.negative, s.unknown]);
  return `${pos}% positive, ${neu}% neutral, ${neg}% negative${s.unknown ? `, ${unk}% not judged` : ''}`;
}
/** `1 prompt`, `2 prompts`: a count with its noun, in the singular for one. */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const credits = (s) => (s === null || s === undefined ? '—' : `${s} cr`);
export function when(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
export function ago(iso) {
  if (!iso) return 'never';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}
export const TERMINAL = new Set(['completed', 'partially_completed', 'failed', 'cancelled']);
export { PLATFORM_NAMES };
export const platformName = (p) => PLATFORM_NAMES[p] || p;
/** An AI assistant a site's referrals name ("chatgpt") in words ("ChatGPT"). */
export const assistantName = (s) => ASSISTANT_NAMES[s] || s;
export const statusText = (s) => (s || '').replace(/_/g, ' ');

/** What each action of the API is called in the console (ids stay in the API, the CSV and tooltips). */
const ACTION_NAMES = {
  'visibility.runs.create': 'Visibility run',
  'visibility.runs.estimate': 'Visibility run estimate',
  'visibility.runs.cancel': 'Visibility run cancelled',
  'visibility.runs.list': 'Visibility runs listed',
  'visibility.runs.read': 'Visibility run viewed',
  'visibility.runs.export': 'Visibility run exported',
  'visibility.probes.read': 'Answer viewed',
  'visibility.models.list': 'Models listed',
  'visibility.prompts.suggest': 'Prompt suggestions',
  'content_intelligence.runs.create': 'Content analysis',
  'content_intelligence.runs.full': 'Full content analysis',
  'content_intelligence.runs.score': 'Content score',
  'content_intelligence.runs.list': 'Content analyses listed',
  'content_intelligence.runs.read': 'Content report viewed',
  'content_intelligence.content.score': 'Content score',
  'content_intelligence.content.score.supplied_trends': 'Content score (your trends)',
  'content_intelligence.trends.discover': 'Trend discovery',
  'pages.content.serialize': 'Page text read',
  'credits.grant': 'Credits granted',
  'credits.top_up': 'Credits topped up',
  'credits.invite': 'Invitation credits',
  'tests.create': 'Tracked test created',
  'tests.update': 'Tracked test changed',
  'tests.delete': 'Tracked test deleted',
  'tests.runs.create': 'Tracked test run',
  'tests.history': 'Tracked test history',
  'tests.list': 'Tracked tests listed',
  'tests.read': 'Tracked test viewed',
  'tests.sample_plan': 'Sample plan',
  'tests.estimate': 'Tracked test estimate',
  'projects.create': 'Project created',
  'projects.update': 'Project changed',
  'projects.delete': 'Project deleted',
  'projects.runs.create': 'Project run',
  'projects.prompts.import': 'Prompts imported',
  'projects.prompts.delete': 'Prompt deleted',
  'projects.dashboard': 'Project dashboard',
  'projects.list': 'Projects listed',
  'projects.read': 'Project viewed',
  'projects.sample_plan': 'Project sample plan',
  'projects.estimate': 'Project estimate',
  'reports.by_url.read': 'Report by URL',
  'sites.create': 'Site added',
  'sites.delete': 'Site removed',
  'sites.logs.upload': 'Access log uploaded',
  'sites.crawlers': 'AI crawler visits',
  'sites.referrals': 'AI referral visits',
  'sites.list': 'Sites listed',
  'sites.read': 'Site viewed',
  'webhooks.create': 'Webhook added',
  'webhooks.update': 'Webhook changed',
  'webhooks.delete': 'Webhook removed',
  'webhooks.disabled': 'Webhook disabled',
  'webhooks.deliveries.retry': 'Webhook delivery retried',
  'webhooks.deliveries.list': 'Webhook deliveries listed',
  'webhooks.list': 'Webhooks listed',
  'webhooks.get': 'Webhook viewed',
  'notifications.settings.get': 'Alert settings viewed',
  'notifications.settings.update': 'Alert settings changed',
  'activity.read': 'Activity viewed',
  'ledger.list': 'Ledger viewed',
  'balance.read': 'Balance viewed',
  'usage.read': 'Usage viewed',
  'session.read': 'Session checked',
  'team.invite': 'Colleague invited',
  'team.invitation_revoke': 'Invitation revoked',
  'team.role': 'Role changed',
  'team.remove': 'Person removed',
  'team.list': 'Team viewed',
  'projects.shares.create': 'Share link made',
  'projects.shares.list': 'Share links listed',
  'projects.shares.revoke': 'Share link revoked',
  'keys.create': 'Key generated',
  'keys.list': 'Keys listed',
  'keys.revoke': 'Key revoked',
  'sign_in': 'Signed in',
  'sign_out': 'Signed out',
  'sign_out_everywhere': 'Signed out everywhere',
  'sessions.list': 'Sessions listed',
  'password.change': 'Password changed',
  'password.forgot': 'Password link asked for',
  'password.reset': 'Password reset',
  'setup': 'Owner set up',
  'signup': 'Sign-up',
  'invitations.accept': 'Invitation accepted',
  'invitations.describe': 'Invitation opened',
  'invitations.create': 'Invitation made',
  'accounts.list': 'Accounts listed',
  'accounts.suspend': 'Account suspended',
  'accounts.unsuspend': 'Account reinstated',
  'provider_keys.list': 'Provider keys viewed',
};
/** An action id in words: its name above, else its parts ("sites.crawlers" → "Sites crawlers"). */
export function actionName(id) {
  if (!id) return '—';
  if (ACTION_NAMES[id]) return ACTION_NAMES[id];
  // Console actions are `console.<action>` (an operator's `console.operator.<action>`): the same words, marked.
  const inner = /^console\.(operator\.)?(.+)$/.exec(id);
  if (inner && ACTION_NAMES[inner[2]]) return `${ACTION_NAMES[inner[2]]}${inner[1] ? ' (operator)' : ' (console)'}`;
  const words = id.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
const SOURCE_LABELS = { api: 'API', console: 'Console', mcp: 'AI assistant (MCP)', schedule: 'Schedule', cli: 'Command line', webhooks: 'Webhooks' };
/** Where a request or run came from, in words. */
export const sourceName = (s) => SOURCE_LABELS[s] || s || '—';

// ---- Components ----
export function Badge({ value, label }) {
  if (value === null || value === undefined) return html`<span class="badge">—</span>`;
  return html`<span class=${'badge ' + value}>${label || statusText(value)}</span>`;
}

export function Note({ kind = 'info', children, role, id, tabIndex, noteRef }) {
  return html`<div class=${'note ' + kind} id=${id} role=${role || (kind === 'error' ? 'alert' : 'status')} tabindex=${tabIndex} ref=${noteRef}>${children}</div>`;
}

// The element that last had the focus. A button disabled while its request runs drops the focus
// to <body> (so a keyboard user would start again from the top of the page): it gets the focus
// back when it is enabled again, and if it is gone or still disabled when an error shows, the
// error note takes it (ErrorNote).
let lastFocused = null;
document.addEventListener('focusin', (e) => {
  lastFocused = e.target;
});
const focusLost = () => document.activeElement === document.body && lastFocused !== null && lastFocused !== document.body && (!lastFocused.isConnected || lastFocused.disabled);
new MutationObserver((records) => {
  if (document.activeElement !== document.body || !lastFocused || lastFocused.disabled || !lastFocused.isConnected) return;
  if (records.some((r) => r.target === lastFocused)) lastFocused.focus({ preventScroll: true });
}).observe(document.documentElement, { attributes: true, attributeFilter: ['disabled'], subtree: true });

export function ErrorNote({ error, id }) {
  const ref = useRef(null);
  useEffect(() => {
    if (error && ref.current && focusLost()) ref.current.focus();
  }, [error]);
  if (!error) return null;
  return html`<${Note} kind="error" id=${id} tabIndex="-1" noteRef=${ref}><p>${error.message || String(error)}</p></${Note}>`;
}

export function Empty({ title, children }) {
  return html`<div class="empty"><strong>${title}</strong>${children}</div>`;
}

export function PageHead({ title, sub, children }) {
  useEffect(() => {
    document.title = `${title} · sightline`;
  }, [title]);
  useEffect(() => {
    if (!focusHeading) return;
    focusHeading = false;
    const h1 = document.getElementById('page-title');
    if (h1) h1.focus({ preventScroll: true });
  }, []);
  return html`<div class="page-head"><div><h1 id="page-title" tabindex="-1">${title}</h1>${sub ? html`<p>${sub}</p>` : null}</div>${children ? html`<div class="row">${children}</div>` : null}</div>`;
}

export function Stat({ label, value, sub }) {
  return html`<div class="stat"><div class="label">${label}</div><div class="value">${value}</div>${sub ? html`<div class="sub">${sub}</div>` : null}</div>`;
}

/**
 * A table that becomes one card per row on narrow screens. columns: [{label, cell(row), num?, wide?}].
 * rowHref makes the first cell a link (rows are tappable targets, not tiny text).
 */
export function Table({ caption, columns, rows, rowKey, captionHidden = false }) {
  return html`<div class="table-wrap"><table class="responsive">
    ${caption ? html`<caption class=${captionHidden ? 'visually-hidden' : ''}>${caption}</caption>` : null}
    <thead><tr>${columns.map((c) => html`<th scope="col" class=${c.num ? 'num' : ''}>${c.label}</th>`)}</tr></thead>
    <tbody>${rows.map(
      (r, i) => html`<tr key=${rowKey ? rowKey(r) : i}>${columns.map((c) => html`<td data-label=${c.label} class=${(c.num ? 'num ' : '') + (c.wide ? 'wide' : '')}>${c.cell(r)}</td>`)}</tr>`,
    )}</tbody>
  </table></div>`;
}

/**
 * A labelled control with its hint and error. The control among the children whose id is `id`
 * gains aria-describedby (its hint, its error, `errorId`: a form's error note that concerns it)
 * and aria-invalid when `error` or `invalid` is set, so a screen reader reads them with the field.
 */
export function Field({ id, label, hint, error, invalid, errorId, children }) {
  const hintId = hint ? id + '-hint' : null;
  const ownErrorId = error ? id + '-error' : null;
  const bad = !!error || !!invalid;
  const kids = toChildArray(children).map((c) => {
    if (!c || typeof c !== 'object' || !c.props || c.props.id !== id) return c;
    const ids = [...(c.props['aria-describedby'] || '').split(/\s+/), hintId, ownErrorId, bad ? errorId : null].filter(Boolean);
    return cloneElement(c, { 'aria-describedby': ids.length ? [...new Set(ids)].join(' ') : undefined, 'aria-invalid': bad ? 'true' : c.props['aria-invalid'] });
  });
  return html`<div class="field"><label for=${id}>${label}</label>${kids}${hint ? html`<span class="hint" id=${hintId}>${hint}</span>` : null}${error ? html`<span class="small field-error" id=${ownErrorId}>${error}</span>` : null}</div>`;
}

/**
 * An inline confirmation shown in place of the button that asked for it (role="alertdialog",
 * not modal): focus moves to its first control when it opens, Escape calls `close`, and when it
 * closes the focus goes back to `returnRef` (the button, rendered again), not to the page's top.
 */
export function useInlineDialog(open, close, returnRef) {
  const ref = useRef(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) {
      const first = ref.current && ref.current.querySelector('button:not([disabled]), [href], input, select, textarea');
      if (first) first.focus();
    } else if (wasOpen.current && returnRef && returnRef.current) returnRef.current.focus();
    wasOpen.current = open;
  }, [open]);
  const onKeyDown = (e) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    close();
  };
  return { ref, onKeyDown };
}

/**
 * A page address typed the way people say it (`acme.com`, `www.acme.com/pricing`) gains
 * `https://`, so the browser's URL check and the API's absolute-URL rule accept it; anything with
 * a scheme, without a dot in its host, or with an @ (an email address is not a page) is left for
 * the check to judge.
 */
export function withScheme(value) {
  const v = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return v;
  return /^[^\s/:?#@]+\.[^\s/:?#.@]+(:\d+)?([/?#]\S*)?$/.test(v) ? `https://${v}` : value;
}

/**
 * Props for a page-URL input: the address gains `https://` (withScheme) when the field is left
 * or Enter submits the form, written to the field at once so the browser checks the new value.
 */
export function urlInputProps(setValue) {
  const fix = (e) => {
    const v = withScheme(e.target.value);
    if (v !== e.target.value) {
      e.target.value = v;
      setValue(v);
    }
  };
  return { onBlur: fix, onKeyDown: (e) => e.key === 'Enter' && fix(e) };
}

/** Loads data once (and again when deps change); `reload` refetches; `every` ms polls while `keepPolling(data)`. */
export function useData(load, deps = [], { every = 0, keepPolling = () => false } = {}) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const tick = useRef(0);
  // The polling loop of the current deps: a reload by hand (after an action) that finds work
  // still going starts it again when it had stopped.
  const poll = useRef({ stopped: true, timer: null, loop: null });
  const fetchOnce = useCallback(async () => {
    const mine = ++tick.current;
    try {
      const data = await load();
      if (mine === tick.current) setState({ data, error: null, loading: false });
      return data;
    } catch (error) {
      if (mine === tick.current) setState((s) => ({ data: s.data, error, loading: false }));
      return null;
    }
  }, deps);
  useEffect(() => {
    const p = { stopped: false, timer: null, loop: null };
    p.loop = async () => {
      p.timer = null;
      const data = await fetchOnce();
      if (!p.stopped && every && keepPolling(data) && !p.timer) p.timer = setTimeout(p.loop, every);
    };
    poll.current = p;
    setState((s) => ({ ...s, loading: true }));
    p.loop();
    return () => {
      p.stopped = true;
      tick.current++;
      clearTimeout(p.timer);
    };
  }, [fetchOnce]);
  const reload = useCallback(async () => {
    const data = await fetchOnce();
    const p = poll.current;
    if (!p.stopped && every && keepPolling(data) && !p.timer) p.timer = setTimeout(p.loop, every);
    return data;
  }, [fetchOnce]);
  return { ...state, reload };
}

export function Loading({ what = 'Loading' }) {
  return html`<p class="muted" role="status">${what}…</p>`;
}

/** A copy button for a secret or a snippet; falls back to selecting the text where the clipboard API is missing (plain http). */
export function CopyButton({ text, targetId, label = 'Copy' }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else {
        const el = document.getElementById(targetId);
        el.focus();
        el.select();
        document.execCommand('copy');
      }
      setDone(true);
      setTimeout(() => setDone(false), 2500);
    } catch {
      const el = document.getElementById(targetId);
      if (el) el.select();
    }
  };
  return html`<button type="button" class="secondary" onClick=${copy}>${done ? 'Copied' : label}</button><span class="visually-hidden" role="status">${done ? 'Copied to the clipboard' : ''}</span>`;
}

/** A labelled horizontal bar with its value as text (the bar is decoration; the number is the data). */
export function Meter({ label, value, text, kind = '' }) {
  const width = Math.max(0, Math.min(1, value || 0)) * 100;
  return html`<div class="meter-row"><span>${label}</span><div class=${'bar ' + kind} aria-hidden="true"><span style=${{ width: width + '%' }}></span></div><span class="v">${text}</span></div>`;
}
