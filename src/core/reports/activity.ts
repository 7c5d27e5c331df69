// The request activity log: one row per authenticated request, written after the response.
// Rows are buffered and written in batches so that logging never sits on a request's path;
// reads flush the buffer first, so a client always sees its own earlier requests.
import { CompiledQuery, type Kysely } from 'kysely';
import type { ActivityTable, Database } from '../../db/schema.ts';
import type { Store } from '../../db/store.ts';
import { idFloor, newId, nowIso, toApiTime } from '../../lib/ids.ts';
import { formatCredits } from '../money.ts';
import { AppError } from '../errors.ts';

/** An activity id's shape (lib/ids.ts): 10 characters of time, 16 random. */
const ACTIVITY_ID = /^act_[0-9a-hjkmnp-tv-z]{26}$/;

/** The activity table's columns, in the order the insert statements name and bind them. */
const COLUMNS = [
  'id', 'account_id', 'key_id', 'key_prefix', 'source', 'action', 'method', 'path', 'http_status', 'status', 'credits', 'request_id', 'created_at',
] as const satisfies readonly (keyof ActivityTable)[];
const ACTIVITY_COLUMNS = COLUMNS.join(', ');
const ACTIVITY_CHUNK = 50;
const WIDTH = COLUMNS.length;
const placeholders = (n: number, pg: boolean, offset = 0) => '(' + Array.from({ length: n }, (_, i) => (pg ? `$${offset + i + 1}` : '?')).join(', ') + ')';
/** The columns that differ on every request; the others are usually the same from row to row. */
const OWN = ['id', 'request_id', 'created_at'] as const satisfies readonly (typeof COLUMNS)[number][];
const SHARED = COLUMNS.filter((c) => !(OWN as readonly string[]).includes(c));
const OWN_AT = OWN.map((c) => COLUMNS.indexOf(c));
const SHARED_AT = SHARED.map((c) => COLUMNS.indexOf(c));

/** Groups of rows with the same SHARED values a flush fills at once (see statements). */
const SHAPES = 8;

/** Whether rows a and b of a flat buffer agree on every SHARED column. */
function sameShared(values: unknown[], a: number, b: number): boolean {
  for (const k of SHARED_AT) if (values[a * WIDTH + k] !== values[b * WIDTH + k]) return false;
  return true;
}

export const ACTIVITY_KINDS = ['all', 'visibility', 'content_intelligence', 'pages', 'reads', 'actions'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export class ActivityLog {
  /** Buffered rows as one flat array of values in COLUMNS order (WIDTH per row): the insert's parameters as they will be bound. */
  private buffer: unknown[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  private readonly db: Kysely<Database>;
  private readonly writeNow: Store['writeNow'];
  private readonly insertChunk: string;
  private readonly insertOne: string;
  /** SQLite only: ACTIVITY_CHUNK rows that share their SHARED columns, bound once (see statements). */
  private readonly insertShared: string | null;

  constructor(store: Store, private readonly maxDelayMs = 25) {
    this.db = store.db;
    this.writeNow = store.writeNow;
    const pg = store.dialect === 'postgres';
    const chunk = Array.from({ length: ACTIVITY_CHUNK }, (_, r) => placeholders(WIDTH, pg, r * WIDTH)).join(', ');
    this.insertChunk = `insert into activity (${ACTIVITY_COLUMNS}) values ${chunk}`;
    this.insertOne = `insert into activity (${ACTIVITY_COLUMNS}) values ${placeholders(WIDTH, pg)}`;
    // Postgres would type the select list's parameters as text, not as their columns' types.
    this.insertShared = pg
      ? null
      : `insert into activity (${[...SHARED, ...OWN].join(', ')}) select ${SHARED.map(() => '?').join(', ')}, ${OWN.map((_, i) => `column${i + 1}`).join(', ')} ` +
        `from (values ${Array.from({ length: ACTIVITY_CHUNK }, () => placeholders(OWN.length, false)).join(', ')})`;
  }

  /**
   * Records one authenticated request (or MCP message): the row's id, outcome ('ok' below HTTP
   * 400, else 'error') and time are set here, so every surface writes the same row.
   */
  recordRequest(r: {
    principal: { accountId: string; keyId: string; keyPrefix: string | null };
    source: string;
    action: string;
    method: string;
    path: string;
    httpStatus: number;
    credits: number;
    requestId: string;
  }): void {
    // In COLUMNS order, straight into the buffer: no row object per request (bench:api).
    this.buffer.push(
      newId('act'),
      r.principal.accountId,
      r.principal.keyId,
      r.principal.keyPrefix,
      r.source,
      r.action,
      r.method,
      r.path,
      r.httpStatus,
      r.httpStatus < 400 ? 'ok' : 'error',
      r.credits,
      r.requestId,
      nowIso(),
    );
    this.buffered();
  }

  record(row: ActivityTable): void {
    for (const column of COLUMNS) this.buffer.push(row[column]);
    this.buffered();
  }

  private buffered(): void {
    if (this.buffer.length >= 500 * WIDTH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.maxDelayMs);
  }

  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const values = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      try {
        const statements = this.statements(values);
        if (statements.length === 0 || this.writeNow?.(statements)) return;
        await this.db.transaction().execute(async (trx) => {
          for (const s of statements) await trx.executeQuery(CompiledQuery.raw(s.sql, s.params));
        });
      } catch {
        // Losing activity rows must never fail requests; the database being gone is reported
        // by /readyz and by the requests themselves.
      }
    });
    return this.flushing;
  }

  /**
   * The inserts for a flat buffer of rows, as fixed-size multi-row statements of precompiled SQL
   * text: the text never changes (SQLite reuses the prepared statement) and building a query is
   * paid once per ACTIVITY_CHUNK rows (bench:api). On SQLite, ACTIVITY_CHUNK rows that agree on
   * every SHARED column (one client polling one route) bind those values once and only each
   * row's OWN ones: binding, not the B-tree, was most of a row's cost (2.9 -> 1.7 µs a row).
   * Rows are sorted into up to SHAPES such groups as they come, so clients whose requests
   * interleave still fill theirs; other rows go in generic chunks, the last few one by one.
   */
  private statements(values: unknown[]): { sql: string; params: unknown[] }[] {
    const statements: { sql: string; params: unknown[] }[] = [];
    const rows = values.length / WIDTH;
    const rest: number[] = [];
    const groups: number[][] = [];
    for (let r = 0; r < rows; r++) {
      if (!this.insertShared) {
        rest.push(r);
        continue;
      }
      let group = groups.find((g) => sameShared(values, g[0]!, r));
      if (!group) {
        if (groups.length === SHAPES) {
          rest.push(r);
          continue;
        }
        groups.push((group = []));
      }
      group.push(r);
      if (group.length === ACTIVITY_CHUNK) {
        const params: unknown[] = SHARED_AT.map((k) => values[group[0]! * WIDTH + k]);
        for (const g of group) for (const k of OWN_AT) params.push(values[g * WIDTH + k]);
        statements.push({ sql: this.insertShared, params });
        groups.splice(groups.indexOf(group), 1);
      }
    }
    for (const group of groups) rest.push(...group);
    const rowValues = (r: number) => values.slice(r * WIDTH, (r + 1) * WIDTH);
    let i = 0;
    for (; i + ACTIVITY_CHUNK <= rest.length; i += ACTIVITY_CHUNK) {
      statements.push({ sql: this.insertChunk, params: rest.slice(i, i + ACTIVITY_CHUNK).flatMap(rowValues) });
    }
    for (; i < rest.length; i++) statements.push({ sql: this.insertOne, params: rowValues(rest[i]!) });
    return statements;
  }

  /**
   * A page of the account's activity, newest first; `startingAfter` is the last id of the previous
   * page (400 invalid_cursor if it is not this account's). A cursor whose row the retention sweep
   * removed (an activity id older than `retainDays`) is still one: the page is what is older
   * still, nothing once the sweep is through. `readActions`: actions that read whatever their name (the operation catalog's GET routes and
   * quotes); beside them every `….read` and `….list` is a read.
   */
  async list(accountId: string, opts: { limit: number; kind: ActivityKind; startingAfter?: string; readActions?: readonly string[]; retainDays?: number }) {
    await this.flush();
    if (opts.startingAfter !== undefined) {
      const cursor = await this.db.selectFrom('activity').select('id').where('id', '=', opts.startingAfter).where('account_id', '=', accountId).executeTakeFirst();
      const swept = !!opts.retainDays && ACTIVITY_ID.test(opts.startingAfter) && opts.startingAfter < idFloor('act', Date.now() - opts.retainDays * 86_400_000);
      if (!cursor && !swept) throw new AppError('invalid_cursor', undefined, { starting_after: opts.startingAfter });
    }
    const { kind } = opts;
    const named = [...(opts.readActions ?? [])];
    let q = this.db.selectFrom('activity').selectAll().where('account_id', '=', accountId);
    if (opts.startingAfter !== undefined) q = q.where('id', '<', opts.startingAfter);
    if (kind === 'visibility') q = q.where('action', 'like', 'visibility.%');
    else if (kind === 'content_intelligence') q = q.where('action', 'like', 'content_intelligence.%');
    else if (kind === 'pages') q = q.where('action', 'like', 'pages.%');
    else if (kind === 'reads') q = q.where((eb) => eb.or([eb('action', 'like', '%.read'), eb('action', 'like', '%.list'), ...(named.length ? [eb('action', 'in', named)] : [])]));
    // Everything but reads: what changed something or cost something (a console polling a run
    // records a read every few seconds).
    else if (kind === 'actions') q = q.where((eb) => eb.and([eb('action', 'not like', '%.read'), eb('action', 'not like', '%.list'), ...(named.length ? [eb('action', 'not in', named)] : [])]));
    const found = await q.orderBy('id', 'desc').limit(opts.limit + 1).execute();
    const rows = found.slice(0, opts.limit);
    const hasMore = found.length > opts.limit;
    // A console request acts as the signed-in user (key_id is their user id, no key prefix): the
    // row names them by email, from their user while they are in the account, and from the row
    // their removal left (removed_users) once they are not.
    const userIds = [...new Set(rows.filter((r) => r.key_prefix === null && r.key_id?.startsWith('usr_')).map((r) => r.key_id!))];
    const emails = new Map(
      userIds.length ? (await this.db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).where('account_id', '=', accountId).execute()).map((u) => [u.id, u.email]) : [],
    );
    const gone = userIds.filter((id) => !emails.has(id));
    if (gone.length) {
      for (const u of await this.db.selectFrom('removed_users').select(['user_id', 'email']).where('user_id', 'in', gone).where('account_id', '=', accountId).execute()) emails.set(u.user_id, u.email);
    }
    const items = rows.map((r) => ({
      id: r.id,
      created_at: toApiTime(r.created_at),
      source: r.source,
      action: r.action,
      method: r.method,
      path: r.path,
      http_status: r.http_status,
      status: r.status,
      credits: formatCredits(r.credits),
      key_prefix: r.key_prefix,
      user_id: r.key_prefix === null && r.key_id?.startsWith('usr_') ? r.key_id : null,
      user_email: (r.key_prefix === null && r.key_id && emails.get(r.key_id)) || null,
      request_id: r.request_id,
    }));
    return { items, has_more: hasMore, next_starting_after: hasMore ? rows[rows.length - 1].id : null };
  }
}
