// Fixed-price actions (SPEC 8.1): reserve the price before the work, settle it when the work
// succeeds, release it when the work fails or turns out not billable. A failed action charges
// nothing. The charge is recorded on the request context so the activity log can show it.
import { AppError } from '../errors.ts';
import type { Store } from '../store.ts';
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
    await releaseCharge(store.db, entryId, price);
    throw err;
  }
  if (outcome.billable) {
    await settleCharge(store.db, entryId, price);
    ctx.credits += price;
  } else {
    await releaseCharge(store.db, entryId, price);
  }
  return { result: outcome.result, billable: outcome.billable, charged: outcome.billable ? price : 0 };
}
