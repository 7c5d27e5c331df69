// The one way a paid run is created, for visibility runs and Content Intelligence runs alike:
//
//   1. a live idempotency key that names a run replays that run (another body under it: 422);
//   2. the request is checked and planned, before anything is written;
//   3. one transaction locks the account, frees the key if it expired, reserves the credits (the
//      ledger entry is the run's action decision; 402 when not even the first item is funded),
//      and lets the run kind insert its run, its rows and its jobs;
//   4. a concurrent create with the same key loses on the unique constraint of (account, source,
//      idempotency_key) and replays the winner's run instead;
//   5. after the commit, the in-process worker is woken and the run's answer is built.
//
// So a refused or failed create leaves nothing behind, and many processes creating with one key
// against one database produce exactly one run and one reservation.
import type { Tx, Store } from '../../db/store.ts';
import { newId, nowIso, type IdPrefix } from '../../lib/ids.ts';
import { isUniqueViolation, releaseExpiredIdempotencyKey, requestFingerprint, runForIdempotencyKey } from '../idempotency.ts';
import type { ActionContext } from './actions.ts';
import { lockAccount, reserveCharge, type Reservation } from './ledger.ts';

export interface PaidRunSpec<Plan, Answer> {
  /** The table of the run kind; it holds account_id, source, idempotency_key and its fingerprint. */
  table: 'visibility_runs' | 'ci_runs';
  idPrefix: IdPrefix;
  /** The ledger entry's action and reference type. */
  action: string;
  refType: string;
  /** The create request as received: its idempotency_key, and the rest fingerprinted. */
  input: { idempotency_key?: string };
  /** Checks and plans the request (throws its 400s); runs after a replay was ruled out. */
  plan: () => Plan;
  /** The prices to reserve, in funding order (hundredths). */
  prices: (plan: Plan) => number[];
  /**
   * Inside the transaction, after the reservation: refuses (throws) or inserts the run with the
   * given id, idempotency key and fingerprint, its rows and its jobs.
   */
  insert: (trx: Tx, run: PaidRunRow<Plan>) => Promise<void>;
  /** The answer for a run, new or replayed (`idempotent_replay`). */
  answer: (runId: string, replay: boolean) => Promise<Answer>;
  /** Called after a commit that queued work, so an in-process worker starts at once. */
  onQueued?: () => void;
}

export interface PaidRunRow<Plan> {
  id: string;
  plan: Plan;
  reservation: Reservation;
  idempotencyKey: string | null;
  idempotencyFingerprint: string | null;
  /** When the transaction started: the run's created_at. */
  now: string;
}

export async function createPaidRun<Plan, Answer>(store: Store, ctx: ActionContext, spec: PaidRunSpec<Plan, Answer>): Promise<Answer> {
  const key = spec.input.idempotency_key;
  const fingerprint = key === undefined ? null : requestFingerprint(spec.input);
  if (key !== undefined) {
    const existing = await runForIdempotencyKey(store, spec.table, ctx, key, fingerprint!);
    if (existing) return spec.answer(existing.id, true);
  }
  const plan = spec.plan();
  const runId = newId(spec.idPrefix);
  try {
    const reserved = await store.db.transaction().execute(async (trx) => {
      const now = nowIso();
      await lockAccount(store, trx, ctx.accountId);
      if (key !== undefined) await releaseExpiredIdempotencyKey(trx, spec.table, ctx, key);
      const reservation = await reserveCharge(trx, {
        accountId: ctx.accountId,
        source: ctx.source,
        action: spec.action,
        refType: spec.refType,
        refId: runId,
        items: spec.prices(plan),
      });
      await spec.insert(trx, { id: runId, plan, reservation, idempotencyKey: key ?? null, idempotencyFingerprint: fingerprint, now });
      return reservation.reserved;
    });
    ctx.credits += reserved;
  } catch (err) {
    if (key !== undefined && isUniqueViolation(err)) {
      const existing = await runForIdempotencyKey(store, spec.table, ctx, key, fingerprint!);
      if (existing) return spec.answer(existing.id, true);
    }
    throw err;
  }
  spec.onQueued?.();
  return spec.answer(runId, false);
}
