// The signed-in user's balance, shared by the header, the forms that price work and the account
// page, and the note that says what to do when it is zero.
// The one thing to know: it is read from /console/api/balance, which records no activity (GET
// /v1/usage records a usage.read row per call, and this is read in the background), and read
// again after every change the console makes through the API (api.js reports them), when a page
// opens, when a run ends and when the tab regains focus.
import { html, useEffect, useState, Note } from './ui.js';
import { get, whenChanged } from './api.js';

let current = { credits: null, error: null };
const listeners = new Set();
let inFlight = null;
let readAgain = false;

function publish(next) {
  current = next;
  listeners.forEach((fn) => fn(current));
}

/**
 * Reads the balance and tells every component showing it. `force`: a change has just been made,
 * so a read already under way (which may predate it) is followed by a fresh one.
 */
export function refreshBalance({ force = false } = {}) {
  if (inFlight) {
    if (force) readAgain = true;
    return inFlight;
  }
  inFlight = get('/console/api/balance')
    .then(
      (b) => publish({ credits: b.credits, error: null }),
      (error) => publish({ credits: current.credits, error }),
    )
    .finally(() => {
      inFlight = null;
      if (readAgain) {
        readAgain = false;
        refreshBalance();
      }
    });
  return inFlight;
}

/** Forgets the balance (sign-out), so the next user never sees the previous one's. */
export function forgetBalance() {
  publish({ credits: null, error: null });
}

whenChanged(() => refreshBalance({ force: true }));
const onFocus = () => {
  if (document.visibilityState === 'visible' && listeners.size) refreshBalance();
};
window.addEventListener('focus', onFocus);
document.addEventListener('visibilitychange', onFocus);

/** { credits, error }: `credits` is the `credits` block of /v1/usage (strings of credits), null until read. */
export function useBalance() {
  const [state, setState] = useState(current);
  useEffect(() => {
    listeners.add(setState);
    setState(current);
    if (current.credits === null && !inFlight) refreshBalance();
    return () => listeners.delete(setState);
  }, []);
  return state;
}

const isOperator = (session) => !!session && !!session.user && session.user.role === 'operator';

/** Where credits come from, as the end of a sentence: the operator grants them to themself, anyone else asks. */
export function HowToGetCredits({ session }) {
  return isOperator(session)
    ? html`As the operator of this instance you grant them yourself: <a href=${`/console/operator#grant-${session.account.id}`}>grant credits to your account</a> on the Operator page.`
    : html`Ask the operator of this instance to grant you credits.`;
}

/** Shown where work is started while the balance is zero: nothing can run until credits are granted. */
export function ZeroBalanceNote({ session }) {
  const { credits } = useBalance();
  if (!credits || Number(credits.available_credit_units) > 0) return null;
  return html`<div data-testid="zero-balance"><${Note} kind="warn"><p><strong>Your balance is ${credits.available_credit_units} credits</strong>, so no run can start. <${HowToGetCredits} session=${session} /></p></${Note}></div>`;
}
