// Fixed-price actions (SPEC 8.1): reserve the price before the work, settle it when the work
// succeeds, release it when the work fails or turns out not billable. A failed action charges
// nothing. The charge is recorded on the request context so the activity log can show it.
// A process that dies between the reservation and its settle or release leaves the credits
// reserved: releaseAbandonedActionCharges gives them back once no action can still be running
// (the worker runs it at start and every few minutes).
import { sql } from 'kysely';
import { AppError } from '../errors.ts';
import type { Store } from '../../db/store.ts';
import { lockAccount, releaseCharge, reserveCharge, settleCharge } from './ledger.ts';

/** Prices in hundredths of a credit. */
export const ACTION_PRICES = {
  'pages.content.serialize': 100,
  'visibility.prompts.suggest': 100,
  'content_intelligence.trends.discover': 100,
  'content_intelligence.content.score.supplied_trends': 200,
  'content_intelligence.content.score': 300,
  'content_intelligence.runs.score': 300,
  'content_intelligence.runs.full': 600,
} as const;

export interface ActionContext {
  accountId: string;
  source: string;
  requestId: string;
  /** Credits (hundredths) this request ended up charging or reserving; for the activity log. */
  credits: number;
}

export interface PaidOutcome<T> {
  result: T;
  /** False when the work ran but produced nothing chargeable (e.g. an unsupported page). */
  billable: boolean;
}

export async function runPaidAction<T>(
  store: Store,
  ctx: ActionContext,
  action: string,
  price: number,
  work: () => Promise<PaidOutcome<T>>,
): Promise<{ result: T; billable: boolean; charged: number }> {
  let entryId: string;
  try {
    entryId = await store.db.transaction().execute(async (trx) => {
      await lockAccount(store, trx, ctx.accountId);
      const r = await reserveCharge(trx, {
        accountId: ctx.accountId,
        source: ctx.source,
        action,
        refType: 'action',
        refId: ctx.requestId,
        items: [price],
      });
      return r.entryId;
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('credit_storage_unavailable', undefined, { reason: 'reservation_failed' });
  }
  let outcome: PaidOutcome<T>;
  try {
    outcome = await work();
  } catch (err) {
    // The work's error is what the caller sees, whatever happens to the release.
    await moveActionCharge(store, ctx.accountId, entryId, price, 'release');
    throw err;
  }
  if (outcome.billable) {
    if (!(await moveActionCharge(store, ctx.accountId, entryId, price, 'settle'))) {
      // Not settled, so not charged: give the credits back now if the database lets us (else the
      // sweep does), and fail as a reservation failure does rather than hand out unbilled work.
      await moveActionCharge(store, ctx.accountId, entryId, price, 'release');
      throw new AppError('credit_storage_unavailable', undefined, { reason: 'settlement_failed' });
    }
    ctx.credits += price;
  } else {
    await moveActionCharge(store, ctx.accountId, entryId, price, 'release');
  }
  return { result: outcome.result, billable: outcome.billable, charged: outcome.billable ? price : 0 };
}

/** Where a settle or release that failed is reported (stderr unless replaced, e.g. by a test). */
let reportLedgerError = (err: unknown, what: { op: 'settle' | 'release'; entryId: string }) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`sightline: could not ${what.op} action charge ${what.entryId}: ${message} (released by the sweep later)\n`);
};

export function onActionLedgerError(fn: typeof reportLedgerError): void {
  reportLedgerError = fn;
}

/**
 * Settles or releases an action's reservation with the account locked first (as every
 * credit-moving transaction does: the sweep below locks the account, then the charge). Never
 * throws: a failure is reported and false returned; a reservation left behind is released by
 * releaseAbandonedActionCharges.
 */
async function moveActionCharge(store: Store, accountId: string, entryId: string, price: number, op: 'settle' | 'release'): Promise<boolean> {
  try {
    await store.db.transaction().execute(async (trx) => {
      await lockAccount(store, trx, accountId);
      await (op === 'settle' ? settleCharge : releaseCharge)(trx, entryId, price);
    });
    return true;
  } catch (err) {
    try {
      reportLedgerError(err, { op, entryId });
    } catch {
      /* a reporter that throws must not mask the work's outcome either */
    }
    return false;
  }
}

/**
 * How old an action's reservation must be before the sweep releases it: longer than any action
 * can run. The longest is a content score (or trends, prompt suggestions): the page and up to 6
 * same-site pages, loaded one after another (content/site.ts), each up to 6 requests (5
 * redirects) of 5 s connect + 10 s headers + 20 s body (fetch-page.ts), then up to 60 s of
 * extraction (extract-threads.ts): 7 x 270 s, about 32 minutes. An hour leaves room for waiting
 * on busy extraction threads. Releasing a reservation whose action is in fact still running
 * would cost nothing but that action's price (its settle then fails and it is refused).
 */
export const ACTION_RESERVATION_MAX_AGE_MS = 60 * 60_000;
/** How often a worker runs the sweep (it also runs when the worker starts). */
export const ACTION_SWEEP_EVERY_MS = 5 * 60_000;

/**
 * Releases what fixed-price actions still hold reserved after ACTION_RESERVATION_MAX_AGE_MS: the
 * process running the action died between the reservation and its settle or release (or both
 * failed). One statement finds them (normally none); each is released in a transaction that
 * locks its account first and re-reads what is outstanding, so two sweeping workers, or a late
 * settle, never move the same credits twice. Returns the number of charges released.
 */
export async function releaseAbandonedActionCharges(store: Store, opts: { olderThanMs?: number; limit?: number } = {}): Promise<number> {
  const cutoff = new Date(Date.now() - (opts.olderThanMs ?? ACTION_RESERVATION_MAX_AGE_MS)).toISOString();
  const limit = Math.max(1, Math.trunc(opts.limit ?? 500));
  const { rows } = await sql<{ id: string; account_id: string }>`
    select id, account_id from ledger_entries
     where ref_type = 'action' and kind = 'charge' and settled_amount + released_amount < amount and created_at < ${cutoff}
     order by created_at limit ${sql.lit(limit)}`.execute(store.db);
  let released = 0;
  for (const row of rows) {
    await store.db.transaction().execute(async (trx) => {
      await lockAccount(store, trx, row.account_id);
      const { rows: open } = await sql<{ outstanding: number | string }>`
        select amount - settled_amount - released_amount as outstanding from ledger_entries where id = ${row.id}`.execute(trx);
      const outstanding = Number(open[0]?.outstanding ?? 0);
      if (outstanding <= 0) return;
      await releaseCharge(trx, row.id, outstanding);
      released++;
    });
  }
  return released;
}
