// What a schedule costs a month, in the same words wherever it is said: the project form, the
// project's sample planner and the tracked-test form. The figures come from the server's estimates
// (POST /v1/projects/estimate, POST /v1/tests/estimate: a run priced as the create prices it, the
// schedule's runs in each calendar month of its time zone, as the scheduler counts them).
import { html, plural, Note } from './ui.js';

const amount = (s) => String(Number(s));

/** "about 346.67 credits a month (400.00 in the busiest month)", or one figure when every month is alike. */
export function monthText(cpm) {
  if (!cpm) return '—';
  return cpm.average === cpm.busiest ? `${cpm.busiest} credits a month` : `about ${cpm.average} credits a month (${cpm.busiest} in the busiest month)`;
}

/** What the schedule costs a month and what the budget pays for, from the server's estimate. */
export function MonthlyCost({ estimate: e, stale, error, mode, budget, setBudget, testId = 'project-monthly' }) {
  // What the server would refuse on create, said before the form is sent.
  if (error) return html`<div data-testid=${testId}><${Note} kind="warn"><p>${error.message}</p></${Note}></div>`;
  // Nothing to say of a month before there is a run to pay (no prompts yet).
  if (!e || !e.runs_per_month || Number(e.credits_per_run) === 0) return null;
  const r = e.runs_per_month;
  const label = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' }[mode] || 'On this schedule';
  const runs = r.fewest === r.busiest ? plural(r.busiest, 'run') : `${r.fewest}–${r.busiest} runs`;
  const within = e.runs_within_budget_per_month;
  // While the answer for changed settings is on its way, the last one is shown dimmed and says
  // nothing of the budget (its figures are for the settings before).
  return html`<p data-testid=${testId} class=${stale ? 'muted' : ''} aria-busy=${stale ? 'true' : 'false'}>${label}, that is ${runs} and <strong>${monthText(e.credits_per_month)}</strong>.
    ${stale
      ? null
      : budget === ''
      ? html` No budget is set, so nothing caps it. <button type="button" class="link" onClick=${() => setBudget(amount(e.budget_for_every_run))}>Set the budget to ${amount(e.budget_for_every_run)}</button> (the busiest month's runs)`
      : within === null
        ? null
        : within === 0
          ? html` The budget of ${budget} credits covers no run: every scheduled run is skipped.`
          : within < r.busiest
            ? html` The budget of ${budget} credits covers ${plural(within, 'run')} a month; later ones are skipped.`
            : null}</p>`;
}
