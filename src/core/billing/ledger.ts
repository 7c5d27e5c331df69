// The credit ledger. A grant adds credits; a charge reserves credits for one action or run and
// later settles or releases them, in parts (one probe at a time).
//   available = granted - settled - outstanding reservations
// The one thing to know: the ledger rows are the record, and the account row carries their
// running totals (credits_granted, credits_settled, credits_reserved, grant_count), changed by
// this module only, in the same transaction and by the same amounts as the rows they sum, so a
// balance is one row read however long the ledger grows. ledgerBalance() recomputes a balance
// from the rows (the invariant the tests check). reserveCharge must run inside a transaction that
// first takes the account lock (lockAccount), so two concurrent reservations can never both
// spend the same credits.
import { CompiledQuery, sql } from 'kysely';
import { AppError } from '../errors.ts';
import { newId, nowIso, toApiTime } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import type { Executor, Store, Tx } from '../../db/store.ts';
import type { LedgerEntriesTable } from '../../db/schema.ts';
import { creditsGranted, creditsReserved } from '../webhooks/credit-alerts.ts';

export interface Balance {
  granted: number;
  settled: number;
  reserved: number;
  available: number;
  activeGrantCount: number;
}

/**
 * Serializes credit decisions per account: a Postgres row lock; SQLite's single writer does it
 * already. Every transaction that moves credits takes it FIRST, before any other row: creating a
 * run holds it while inserting the run, whose unique idempotency check can wait on a transaction
 * that updated that run's row; if that transaction then waited for the account, the two would
 * deadlock. Account first everywhere leaves no cycle.
 */
export async function lockAccount(store: Store, trx: Tx, accountId: string): Promise<void> {
  if (store.dialect === 'postgres') {
    await sql`select id from accounts where id = ${accountId} for update`.execute(trx);
  }
}

type TotalsRow = { granted: number | string; settled: number | string; reserved: number | string; grants: number | string };

// Postgres returns bigint columns and sums as strings.
function toBalance(row: TotalsRow | undefined): Balance {
  const granted = Number(row?.granted ?? 0);
  const settled = Number(row?.settled ?? 0);
  const reserved = Number(row?.reserved ?? 0);
  return { granted, settled, reserved, available: granted - settled - reserved, activeGrantCount: Number(row?.grants ?? 0) };
}

// Balance and ledger reads sit on every usage request: they are written as SQL templates,
// which cost a fifth of the equivalent query builder chain, and the (clamped, integer) limit is
// a literal because SQLite plans a bound LIMIT parameter measurably slower (bench:api).
/** The account's balance from its running totals (zero for an unknown account). */
export async function getBalance(db: Executor, accountId: string): Promise<Balance> {
  const { rows } = await sql<TotalsRow>`
    select credits_granted as granted, credits_settled as settled, credits_reserved as reserved, grant_count as grants
      from accounts where id = ${accountId}`.execute(db);
  return toBalance(rows[0]);
}

/** The balance summed from the ledger rows themselves: what the running totals must always equal. */
export async function ledgerBalance(db: Executor, accountId: string): Promise<Balance> {
  const { rows } = await sql<TotalsRow>`select ${LEDGER_SUMS} from ledger_entries where account_id = ${accountId}`.execute(db);
  return toBalance(rows[0]);
}

/** A balance's four figures summed over an account's ledger rows (ledgerBalance, totalsAndLedger). */
const LEDGER_SUMS = sql`coalesce(sum(case when kind = 'grant' then amount else 0 end), 0) as granted,
           coalesce(sum(case when kind = 'charge' then settled_amount else 0 end), 0) as settled,
           coalesce(sum(case when kind = 'charge' then amount - settled_amount - released_amount else 0 end), 0) as reserved,
           coalesce(sum(case when kind = 'grant' then 1 else 0 end), 0) as grants`;

/**
 * The running totals and the sums over the ledger rows, read by one statement: one snapshot on
 * either database, so the two agree even while a worker settles (two reads could straddle a commit).
 */
export async function totalsAndLedger(db: Executor, accountId: string): Promise<{ totals: Balance; ledger: Balance }> {
  const { rows } = await sql<TotalsRow & { [K in keyof TotalsRow as `l_${K}`]: TotalsRow[K] }>`
    select a.credits_granted as granted, a.credits_settled as settled, a.credits_reserved as reserved, a.grant_count as grants,
           l.granted as l_granted, l.settled as l_settled, l.reserved as l_reserved, l.grants as l_grants
      from accounts a cross join (select ${LEDGER_SUMS} from ledger_entries where account_id = ${accountId}) l
     where a.id = ${accountId}`.execute(db);
  const r = rows[0];
  return { totals: toBalance(r), ledger: toBalance(r && { granted: r.l_granted, settled: r.l_settled, reserved: r.l_reserved, grants: r.l_grants }) };
}

/**
 * Recomputes every account's running totals from its ledger rows and writes back those that
 * differ (`sightline credits reconcile`): the repair for totals left wrong by something that
 * wrote ledger rows without them (a process still running code from before migration 0003).
 * Each account is locked while it is checked; ledger rows are read, never locked.
 */
export async function reconcileBalances(store: Store): Promise<{ accounts: number; corrected: { accountId: string; before: Balance; after: Balance }[] }> {
  return store.db.transaction().execute(async (trx) => {
    const accounts = await trx.selectFrom('accounts').select('id').orderBy('id').execute();
    const corrected: { accountId: string; before: Balance; after: Balance }[] = [];
    for (const { id } of accounts) {
      await lockAccount(store, trx, id);
      const before = await getBalance(trx, id);
      const after = await ledgerBalance(trx, id);
      if (JSON.stringify(before) === JSON.stringify(after)) continue;
      await sql`update accounts set credits_granted = ${after.granted}, credits_settled = ${after.settled},
                credits_reserved = ${after.reserved}, grant_count = ${after.activeGrantCount} where id = ${id}`.execute(trx);
      corrected.push({ accountId: id, before, after });
    }
    return { accounts: accounts.length, corrected };
  });
}

/** The smallest top-up that can be bought: 250 credits = 5.00 EUR at 0.02 EUR a credit, in hundredths. */
export const MIN_TOP_UP = 250_00;
/** Most one grant may add: 10,000,000.00 credits. A ledger row's amount is a 32-bit integer of hundredths on Postgres. */
export const MAX_GRANT = 10_000_000_00;

/** Throws unless `amount` may be granted (see grantCredits); callers check before other writes. */
export function checkGrant(amount: number, opts: { topUp?: boolean } = {}): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new AppError('invalid_request', 'A grant must be a positive amount of credits.');
  if (amount > MAX_GRANT) throw new AppError('invalid_request', `A grant is at most ${formatCredits(MAX_GRANT)} credits; got ${formatCredits(amount)}.`);
  if (opts.topUp && amount < MIN_TOP_UP) {
    throw new AppError('invalid_request', `A top-up is at least ${formatCredits(MIN_TOP_UP)} credits (5.00 EUR); got ${formatCredits(amount)}.`);
  }
}

/** Who granted (source, action) and whether the credits were bought (topUp: MIN_TOP_UP applies). */
export type GrantOptions = { source?: string; action?: string; topUp?: boolean };

/**
 * Adds credits. An operator grant may be any positive amount; a top-up (`topUp`: credits that
 * were bought, recorded as action credits.top_up) must be at least MIN_TOP_UP.
 */
export async function grantCredits(store: Store, accountId: string, amount: number, opts: GrantOptions = {}): Promise<{ entryId: string; balance: Balance }> {
  return store.db.transaction().execute((trx) => grantIn(trx, accountId, amount, opts));
}

/** grantCredits' writes inside the caller's transaction (the amount is checked: checkGrant). */
export async function grantIn(trx: Tx, accountId: string, amount: number, opts: GrantOptions = {}): Promise<{ entryId: string; balance: Balance }> {
  checkGrant(amount, opts);
  const account = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
  if (!account) throw new AppError('not_found', `account ${accountId} not found`);
  const now = nowIso();
  const entryId = newId('led');
  await trx
    .insertInto('ledger_entries')
    .values({
      id: entryId,
      account_id: accountId,
      kind: 'grant',
      source: opts.source ?? 'cli',
      action: opts.action ?? (opts.topUp ? 'credits.top_up' : 'credits.grant'),
      ref_type: null,
      ref_id: null,
      amount,
      settled_amount: 0,
      released_amount: 0,
      estimated_amount: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await sql`update accounts set credits_granted = credits_granted + ${amount}, grant_count = grant_count + 1 where id = ${accountId}`.execute(trx);
  const balance = await getBalance(trx, accountId);
  await creditsGranted(trx, accountId, balance.available);
  return { entryId, balance };
}

export interface ReserveRequest {
  accountId: string;
  source: string;
  action: string;
  refType: string;
  refId: string;
  /** Prices of the items, in the order they must be funded (hundredths). */
  items: number[];
}

export interface Reservation {
  entryId: string;
  /** funded[i] is true for the items that got credits: a prefix of the items (partial funding). */
  funded: boolean[];
  reserved: number;
  estimated: number;
  available: number;
}

/**
 * The funding rule alone (fund items in order while the balance lasts), shared by reserveCharge and the free estimate so that an
 * estimate says exactly what a create then reserves: walk the prices in order and stop at the
 * first that no longer fits; `funded` is a prefix.
 */
export function fundInOrder(available: number, items: readonly number[]): { funded: boolean[]; reserved: number; estimated: number } {
  let remaining = available;
  let stopped = false;
  const funded = items.map((price) => {
    if (stopped || price > remaining) {
      stopped = true;
      return false;
    }
    remaining -= price;
    return true;
  });
  return { funded, reserved: available - remaining, estimated: items.reduce((a, b) => a + b, 0) };
}

/**
 * Funds items one by one, in order, and stops at the first that no longer fits the balance:
 * later items are not funded even when a cheaper one would fit. Throws 402 when none fits.
 * Call inside a transaction after lockAccount().
 */
export async function reserveCharge(trx: Tx, req: ReserveRequest): Promise<Reservation> {
  const balance = await getBalance(trx, req.accountId);
  const { funded, reserved, estimated } = fundInOrder(balance.available, req.items);
  const remaining = balance.available - reserved;
  if (req.items.length === 0 || !funded[0]) {
    throw new AppError('insufficient_credits', 'Not enough credits to fund this action.', {
      required_credits: formatCredits(req.items[0] ?? 0),
      estimated_credits: formatCredits(estimated),
      available_credits: formatCredits(Math.max(0, balance.available)),
    });
  }
  const now = nowIso();
  const entryId = newId('led');
  await trx
    .insertInto('ledger_entries')
    .values({
      id: entryId,
      account_id: req.accountId,
      kind: 'charge',
      source: req.source,
      action: req.action,
      ref_type: req.refType,
      ref_id: req.refId,
      amount: reserved,
      settled_amount: 0,
      released_amount: 0,
      estimated_amount: estimated,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await sql`update accounts set credits_reserved = credits_reserved + ${reserved} where id = ${req.accountId}`.execute(trx);
  await creditsReserved(trx, req.accountId, remaining);
  return { entryId, funded, reserved, estimated, available: remaining };
}

async function moveReserved(db: Executor, entryId: string, column: 'settled_amount' | 'released_amount', amount: number): Promise<void> {
  if (amount === 0) return;
  // The row and its account's totals change together: outside a transaction, open one.
  if (!db.isTransaction) return db.transaction().execute((trx) => moveReserved(trx, entryId, column, amount));
  // A SQL template (every probe settles or releases through here); the guard in the WHERE
  // clause makes over-settling impossible even if two transactions race.
  const res = await sql`
    update ledger_entries set ${sql.ref(column)} = ${sql.ref(column)} + ${amount}, updated_at = ${nowIso()}
     where id = ${entryId} and kind = 'charge' and settled_amount + released_amount + ${amount} <= amount`.execute(db);
  if (Number(res.numAffectedRows ?? 0) !== 1) {
    throw new Error(`ledger: cannot move ${amount} of charge ${entryId} to ${column}: not that much outstanding`);
  }
  // Callers inside a transaction took the account lock first (lockAccount); alone, this
  // transaction touches only the ledger row and the account, so no cycle can form.
  const settled = column === 'settled_amount' ? amount : 0;
  await sql`
    update accounts set credits_reserved = credits_reserved - ${amount}, credits_settled = credits_settled + ${settled}
     where id = (select account_id from ledger_entries where id = ${entryId})`.execute(db);
}

/** Turns reserved credits into spent credits. Run in the transaction that records the success. */
export function settleCharge(db: Executor, entryId: string, amount: number) {
  return moveReserved(db, entryId, 'settled_amount', amount);
}

/** Gives reserved credits back. Run in the transaction that records the failure or cancel. */
export function releaseCharge(db: Executor, entryId: string, amount: number) {
  return moveReserved(db, entryId, 'released_amount', amount);
}

export type ChargeState = 'reserved' | 'settled' | 'released' | 'partially_settled' | 'granted';

/** State of a ledger row, derived from its amounts (reserved, settled, released). */
export function chargeState(row: { kind: string; amount: number; settled_amount: number; released_amount: number }): ChargeState {
  if (row.kind === 'grant') return 'granted';
  if (row.amount - row.settled_amount - row.released_amount > 0) return 'reserved';
  if (row.settled_amount === 0) return 'released';
  return row.released_amount > 0 ? 'partially_settled' : 'settled';
}

/** A ledger row as GET /v1/usage shows it; `run_id` on the charge of a run. */
export interface LedgerRowView {
  id: string;
  time: string;
  updated_at: string;
  source: string;
  action: string;
  kind: LedgerEntriesTable['kind'];
  credits: string;
  status: ChargeState;
  reserved_credits: string;
  settled_credits: string;
  released_credits: string;
  run_id?: string;
}

/** A ledger row as GET /v1/usage shows it. */
export function renderLedgerRow(r: LedgerEntriesTable): LedgerRowView {
  const entry: LedgerRowView = {
    id: r.id,
    time: toApiTime(r.created_at),
    updated_at: toApiTime(r.updated_at),
    source: r.source,
    action: r.action,
    kind: r.kind,
    credits: formatCredits(r.kind === 'grant' ? r.amount : r.settled_amount + (r.amount - r.settled_amount - r.released_amount)),
    status: chargeState(r),
    reserved_credits: formatCredits(r.kind === 'grant' ? 0 : r.amount),
    settled_credits: formatCredits(r.settled_amount),
    released_credits: formatCredits(r.released_amount),
  };
  // The charge of a run always names it.
  if (r.ref_type === 'visibility_run' || r.ref_type === 'ci_run') entry.run_id = r.ref_id as string;
  return entry;
}

type BalanceWithRecentRow = LedgerEntriesTable & {
  b_granted: number | string;
  b_settled: number | string;
  b_reserved: number | string;
  b_grants: number | string;
};

/** SQL text by dialect and limit (1..100): built once, so SQLite reuses its prepared statement. */
const balanceWithRecentText = new Map<string, string>();
function balanceWithRecentSql(dialect: Store['dialect'], limit: number): string {
  const cacheKey = `${dialect}:${limit}`;
  let text = balanceWithRecentText.get(cacheKey);
  if (text === undefined) {
    const [p1, p2] = dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    text = `
    select a.credits_granted as b_granted, a.credits_settled as b_settled, a.credits_reserved as b_reserved, a.grant_count as b_grants, r.*
      from accounts a
      left join (select * from ledger_entries where account_id = ${p1}
                  order by id desc limit ${limit}) r on 1 = 1
     where a.id = ${p2}
     order by r.id desc`;
    balanceWithRecentText.set(cacheKey, text);
  }
  return text;
}

/**
 * The balance and the newest ledger rows in one statement (GET /v1/usage runs it on every call):
 * the account's totals are joined to each of the newest rows, or to one empty row when the
 * account has none. On SQLite it runs as a direct read when no transaction is open (ReadNow).
 */
export async function balanceWithRecent(store: Store, accountId: string, limit: number) {
  const text = balanceWithRecentSql(store.dialect, Math.min(100, Math.max(1, Math.trunc(limit))));
  const params = [accountId, accountId];
  const rows = (store.readNow?.(text, params) ?? (await store.db.executeQuery(CompiledQuery.raw(text, params))).rows) as BalanceWithRecentRow[];
  const first = rows[0];
  const balance = toBalance(first && { granted: first.b_granted, settled: first.b_settled, reserved: first.b_reserved, grants: first.b_grants });
  return { balance, recent: rows.filter((r) => r.id !== null).map(renderLedgerRow) };
}
