// Schema migrations, as code so that SQLite and Postgres get exactly the same tables.
// Only portable column types are used (text, integer); see schema.ts for why.
import { type Kysely, Migrator, SqliteAdapter, sql, type Migration, type MigrationProvider } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_foundation': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('ref_type', 'text')
        .addColumn('ref_id', 'text')
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('settled_amount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('released_amount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('estimated_amount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addCheckConstraint('ledger_amounts_valid', sql`settled_amount >= 0 and released_amount >= 0 and settled_amount + released_amount <= amount`)
        .execute();
      await db.schema.createIndex('ledger_account').on('ledger_entries').columns(['account_id', 'id']).execute();

      await db.schema
        .createTable('tests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('test_type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('url_key', 'text', (c) => c.notNull())
        .addColumn('target_entity', 'text')
        .addColumn('target_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_run_at', 'text')
        .addUniqueConstraint('tests_identity', ['account_id', 'test_type', 'url_key', 'target_key'])
        .execute();

      await db.schema
        .createTable('visibility_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('test_id', 'text', (c) => c.notNull().references('tests.id'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('target_entity', 'text', (c) => c.notNull())
        .addColumn('competitors', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('prompt_count', 'integer', (c) => c.notNull())
        .addColumn('platform_count', 'integer', (c) => c.notNull())
        .addColumn('probe_count', 'integer', (c) => c.notNull())
        .addColumn('ledger_entry_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        // NULL keys never collide, so only runs created with a key are deduplicated.
        .addUniqueConstraint('visibility_runs_idempotency', ['account_id', 'source', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('visibility_runs_account').on('visibility_runs').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('visibility_runs_test').on('visibility_runs').columns(['test_id', 'id']).execute();

      await db.schema
        .createTable('visibility_probes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('run_id', 'text', (c) => c.notNull().references('visibility_runs.id'))
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('engine', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('target_entity', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('price', 'integer', (c) => c.notNull())
        .addColumn('reported_model', 'text')
        .addColumn('brand_mentioned', 'integer')
        .addColumn('text_mentioned', 'integer')
        .addColumn('citation_mentioned', 'integer')
        .addColumn('mention_position', 'integer')
        .addColumn('list_rank', 'integer')
        .addColumn('competitors', 'text')
        .addColumn('citations', 'text')
        .addColumn('answer', 'text')
        .addColumn('raw', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        .execute();
      await db.schema.createIndex('visibility_probes_run').on('visibility_probes').columns(['run_id', 'seq']).execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('lane', 'text', (c) => c.notNull())
        .addColumn('ref_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_after', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'lane', 'run_after']).execute();
      await db.schema.createIndex('jobs_lease').on('jobs').columns(['status', 'lease_until']).execute();
      await db.schema.createIndex('jobs_ref').on('jobs').column('ref_id').execute();

      await db.schema
        .createTable('ci_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('test_id', 'text', (c) => c.notNull().references('tests.id'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('analysis_depth', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('trends', 'text')
        .addColumn('idempotency_key', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('price', 'integer', (c) => c.notNull())
        .addColumn('ledger_entry_id', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('overall_score', 'integer')
        .addColumn('overall_band', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        .addUniqueConstraint('ci_runs_idempotency', ['account_id', 'source', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('ci_runs_account').on('ci_runs').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('ci_runs_test').on('ci_runs').columns(['test_id', 'id']).execute();

      await db.schema
        .createTable('activity')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text')
        .addColumn('key_prefix', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('http_status', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('activity_account').on('activity').columns(['account_id', 'id']).execute();
    },
  },
  '0002_jobs_claim_order': {
    // The queued-job claim orders by (run_after, id) within one lane; with id in the index the
    // claim reads `limit` index entries instead of sorting the lane's backlog (bench:runs).
    async up(db: Kysely<any>) {
      await db.schema.createIndex('jobs_queued').on('jobs').columns(['status', 'lane', 'run_after', 'id']).execute();
      await db.schema.dropIndex('jobs_claim').execute();
    },
  },
  '0003_account_credit_totals': {
    // Balances as running totals on the account row instead of a sum over its whole ledger on
    // every read and reservation (a 3,000-row ledger cost ~0.4 ms per balance on SQLite).
    // Existing ledgers are summed once here. Re-runnable: Kysely does not wrap SQLite migrations
    // in a transaction, so a run cut off between statements must be able to finish on the next
    // start (columns that exist are kept, the totals are recomputed).
    async up(db: Kysely<any>) {
      const accounts = (await db.introspection.getTables()).find((t) => t.name === 'accounts');
      const existing = new Set(accounts?.columns.map((c) => c.name) ?? []);
      for (const column of ['credits_granted', 'credits_settled', 'credits_reserved', 'grant_count']) {
        if (existing.has(column)) continue;
        await db.schema.alterTable('accounts').addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      }
      await sql`
        update accounts set
          credits_granted = coalesce((select sum(amount) from ledger_entries l where l.account_id = accounts.id and l.kind = 'grant'), 0),
          credits_settled = coalesce((select sum(settled_amount) from ledger_entries l where l.account_id = accounts.id and l.kind = 'charge'), 0),
          credits_reserved = coalesce((select sum(amount - settled_amount - released_amount) from ledger_entries l
                                        where l.account_id = accounts.id and l.kind = 'charge'), 0),
          grant_count = (select count(*) from ledger_entries l where l.account_id = accounts.id and l.kind = 'grant')`.execute(db);
    },
  },
  '0004_activity_account_key': {
    // The activity log is keyed by (account_id, id), the order every read uses, instead of by id
    // with a second index on (account_id, id): each request's row then goes into one B-tree on
    // SQLite (a WITHOUT ROWID table) and one index on Postgres, not three and two, which made the
    // row about a fifth cheaper to write (bench:api). Ids stay unique: an account's ids are.
    // SQLite cannot change a primary key, so the table is rebuilt, in one transaction (Kysely does
    // not wrap SQLite migrations in one): a run cut off midway leaves the old table as it was.
    async up(db: Kysely<any>) {
      if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
        await sql`alter table activity drop constraint activity_pkey`.execute(db);
        await sql`drop index activity_account`.execute(db);
        await sql`alter table activity add constraint activity_pkey primary key (account_id, id)`.execute(db);
        return;
      }
      const columns = sql.raw(
        'id, account_id, key_id, key_prefix, source, action, method, path, http_status, status, credits, request_id, created_at',
      );
      await db.transaction().execute(async (trx) => {
        await sql`create table activity_next (
                    id text not null, account_id text not null, key_id text, key_prefix text,
                    source text not null, action text not null, method text not null, path text not null,
                    http_status integer not null, status text not null, credits integer not null,
                    request_id text not null, created_at text not null,
                    primary key (account_id, id)
                  ) without rowid`.execute(trx);
        await sql`insert into activity_next (${columns}) select ${columns} from activity`.execute(trx);
        await sql`drop table activity`.execute(trx);
        await sql`alter table activity_next rename to activity`.execute(trx);
      });
    },
  },
  '0005_tracking': {
    // Tracking over time (docs/concepts.md): probes carry their repeat index; a saved test can
    // hold a run definition, a cron schedule, a pause flag, a monthly budget and the key whose
    // scopes its scheduled runs act with; test_slots records each due slot once (its primary key
    // is the (test, slot) key that makes a slot produce exactly one run across processes) and
    // what became of it (a run, or a skip and why). A deleted test keeps its row (its runs point
    // at it) with deleted_at set and its identity freed.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('visibility_probes').addColumn('repeat', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      for (const [column, type] of [
        ['definition', 'text'],
        ['schedule_cron', 'text'],
        ['schedule_timezone', 'text'],
        ['next_run_at', 'text'],
        ['monthly_credit_budget', 'bigint'],
        ['key_id', 'text'],
        ['last_skip', 'text'],
        ['deleted_at', 'text'],
      ] as const) {
        await db.schema.alterTable('tests').addColumn(column, type).execute();
      }
      await db.schema.alterTable('tests').addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // The scheduler's one query: tests whose next slot is due.
      await db.schema.createIndex('tests_due').on('tests').columns(['next_run_at']).execute();
      await db.schema
        .createTable('test_slots')
        .addColumn('test_id', 'text', (c) => c.notNull().references('tests.id'))
        .addColumn('slot', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull()) // claimed | run | skipped
        .addColumn('reason', 'text')
        .addColumn('message', 'text')
        .addColumn('run_id', 'text')
        .addColumn('estimated_credits', 'bigint')
        .addColumn('claimed_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addPrimaryKeyConstraint('test_slots_pkey', ['test_id', 'slot'])
        .execute();
      await db.schema.createIndex('test_slots_open').on('test_slots').columns(['status', 'claimed_at']).execute();
    },
  },
  '0006_answer_analysis': {
    // A succeeded probe's answer analysis: per-brand prominence, the judge's sentiment
    // and recommendation, the judge used or its error, and the other names the answer holds, as
    // JSON. Null for probes analysed before it and for probes without an answer.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('visibility_probes').addColumn('analysis', 'text').execute();
    },
  },
  '0007_reliability': {
    // Fair, fenced job claiming and Stripe-like idempotency. Jobs carry their
    // account, so a claim can go round-robin over the accounts waiting in a lane (the index walks
    // one account's ready jobs in order) and count an account's jobs in flight. Runs remember a
    // fingerprint of the create request behind their idempotency key. Re-runnable (Kysely does
    // not wrap SQLite migrations in a transaction): present columns are kept, indexes if not exists.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const has = (table: string, column: string) => !!tables.find((t) => t.name === table)?.columns.some((c) => c.name === column);
      if (!has('jobs', 'account_id')) await db.schema.alterTable('jobs').addColumn('account_id', 'text').execute();
      for (const table of ['visibility_runs', 'ci_runs']) {
        if (!has(table, 'idempotency_fingerprint')) await db.schema.alterTable(table).addColumn('idempotency_fingerprint', 'text').execute();
      }
      await sql`update jobs set account_id = (select account_id from visibility_probes p where p.id = jobs.ref_id)
                 where account_id is null and kind = 'visibility.probe' and status in ('queued', 'running')`.execute(db);
      await sql`update jobs set account_id = (select account_id from ci_runs r where r.id = jobs.ref_id)
                 where account_id is null and kind = 'content_intelligence.run' and status in ('queued', 'running')`.execute(db);
      await db.schema.createIndex('jobs_fair').ifNotExists().on('jobs').columns(['status', 'lane', 'account_id', 'run_after', 'id']).execute();
      await db.schema.createIndex('jobs_account_status').ifNotExists().on('jobs').columns(['account_id', 'status']).execute();
    },
  },
  '0008_console_auth': {
    // Console sign-in: people with a password who act for an account, their
    // server-side sessions, one-time link tokens (password reset, invitation) and the per-email
    // failed-login counter behind the lockout.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('password_changed_at', 'text')
        .execute();
      await db.schema.createIndex('users_account').on('users').column('account_id').execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('auth_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('login_throttle')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .execute();
    },
  },
  '0009_probe_checkpoint': {
    // A probe's provider outcome (its answer, or the platform's error), kept durably as soon as the
    // platform answers and before the answer is analysed: a worker that takes over the
    // probe after the first one died resumes from it instead of asking the platform again. Cleared
    // when the probe settles. Re-runnable: a present column is kept.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const has = !!tables.find((t) => t.name === 'visibility_probes')?.columns.some((c) => c.name === 'checkpoint');
      if (!has) await db.schema.alterTable('visibility_probes').addColumn('checkpoint', 'text').execute();
    },
  },
  '0010_runs_started_by_test': {
    // Whether a run was started by its tracked test (on schedule or "run now") rather than attached
    // to it because it asked about the same page (and brand). A test's monthly credit budget counts
    // only the runs it started: a one-off run of the same page is the user's, not the schedule's.
    // Runs from before this migration: the scheduled ones were the test's (a "run now" cannot be
    // told apart from a one-off any more and counts as one-off).
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      for (const table of ['visibility_runs', 'ci_runs']) {
        const has = !!tables.find((t) => t.name === table)?.columns.some((c) => c.name === 'started_by_test');
        if (has) continue;
        await db.schema.alterTable(table).addColumn('started_by_test', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.updateTable(table).set({ started_by_test: 1 }).where('source', '=', 'schedule').execute();
      }
    },
  },
  '0012_webhooks': {
    // Webhooks and alerts: endpoints (their signing secret kept, since every delivery is signed
    // with it), events (dedupe_key unique: an event is produced once however many workers and
    // schedulers notice it), messages (one event for one endpoint, its id the webhook-id of
    // every attempt), attempts ((message, attempt) unique: an attempt is made once) and each
    // account's alert settings (the credits.low threshold).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('webhook'))
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('failing_since', 'text')
        .addColumn('disabled_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.notNull().unique())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_events_account').on('webhook_events').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('webhook_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('webhook_messages_event_endpoint', ['event_id', 'endpoint_id'])
        .execute();
      await db.schema.createIndex('webhook_messages_endpoint').on('webhook_messages').columns(['endpoint_id', 'id']).execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer')
        .addPrimaryKeyConstraint('webhook_attempts_pkey', ['message_id', 'attempt'])
        .execute();
      // Whether a run has a probe left (run.completed is emitted when none is): a partial index
      // holds only the queued and running probes, so the check is one seek per settled probe.
      await sql`create index visibility_probes_active on visibility_probes (run_id) where status in ('queued', 'running')`.execute(db);
      await db.schema
        .createTable('alert_email_prefs')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alert_email_prefs_account').on('alert_email_prefs').columns(['account_id']).execute();
      await db.schema
        .createTable('notification_settings')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('credits_low_threshold', 'bigint')
        .addColumn('credits_low_fired_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0013_sites': {
    // Sites and their access logs, kept only as rollups (src/core/sites): raw lines and client
    // addresses are never stored. A line's hash is kept per site so that the same lines sent
    // again count once; the rollups are hourly per crawler, path, status and verification, and
    // per referring assistant and landing page.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sites')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sites_account_domain').ifNotExists().unique().on('sites').columns(['account_id', 'domain']).execute();
      await db.schema
        .createTable('site_log_lines')
        .ifNotExists()
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('line_hash', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('site_log_lines_pk', ['site_id', 'line_hash'])
        .execute();
      await db.schema
        .createTable('site_crawler_hits')
        .ifNotExists()
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('hour', 'text', (c) => c.notNull())
        .addColumn('crawler', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('status_class', 'text', (c) => c.notNull())
        .addColumn('verified', 'integer', (c) => c.notNull())
        .addColumn('blocked', 'integer', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('last_seen', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('site_crawler_hits_pk', ['site_id', 'hour', 'crawler', 'path', 'status_class', 'verified', 'blocked'])
        .execute();
      await db.schema
        .createTable('site_referral_visits')
        .ifNotExists()
        .addColumn('site_id', 'text', (c) => c.notNull())
        .addColumn('hour', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('visits', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('site_referral_visits_pk', ['site_id', 'hour', 'source', 'path'])
        .execute();
    },
  },
  '0014_projects': {
    // Projects: one brand's workspace (its competitors, markets, platforms, schedule and budget)
    // with a prompt library tagged by topic. A project's tracked tests are saved tests that name
    // it (project_id) and their market ("en-US"); they are kept apart from the tests that runs
    // attach to by page and brand, so a one-off run never joins a project's series.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('projects')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('brand', 'text', (c) => c.notNull())
        .addColumn('competitors', 'text', (c) => c.notNull())
        .addColumn('markets', 'text', (c) => c.notNull())
        .addColumn('platforms', 'text', (c) => c.notNull())
        .addColumn('models', 'text')
        .addColumn('repeats', 'integer', (c) => c.notNull())
        .addColumn('schedule_cron', 'text')
        .addColumn('schedule_timezone', 'text')
        .addColumn('monthly_credit_budget', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema.createIndex('projects_account').on('projects').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('project_prompts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('topics', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('project_prompts_unique', ['project_id', 'prompt'])
        .execute();
      await db.schema.alterTable('tests').addColumn('project_id', 'text').execute();
      await db.schema.alterTable('tests').addColumn('market', 'text').execute();
      await db.schema.createIndex('tests_project').on('tests').column('project_id').execute();
    },
  },
  '0015_surfaces': {
    // Consumer surfaces (Google AI Overviews, AI Mode, Copilot, the ChatGPT app read through SERP
    // and scraping providers): which surface a probe asked (`api` | `consumer`; older probes are all
    // API probes), the provider that fetched it, whether the result carried an AI answer at all
    // (null for API probes), and the city a consumer probe was localised to. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = tables.find((t) => t.name === 'visibility_probes')?.columns.map((c) => c.name) ?? [];
      if (!columns.includes('surface')) {
        await db.schema.alterTable('visibility_probes').addColumn('surface', 'text', (c) => c.notNull().defaultTo('api')).execute();
      }
      if (!columns.includes('provider')) await db.schema.alterTable('visibility_probes').addColumn('provider', 'text').execute();
      if (!columns.includes('ai_answer_present')) await db.schema.alterTable('visibility_probes').addColumn('ai_answer_present', 'integer').execute();
      if (!columns.includes('city')) await db.schema.alterTable('visibility_probes').addColumn('city', 'text').execute();
    },
  },
  '0016_digests': {
    // The weekly digest's claim: one row per account and week, inserted by the process that queues
    // that week's digest mails (the primary key makes it once across processes).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('digest_weeks')
        .ifNotExists()
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('week', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('digest_weeks_pk', ['account_id', 'week'])
        .execute();
    },
  },
  '0017_shares': {
    // Read-only share links of a project's report: the link's token is kept only as its SHA-256
    // (token_hash), with the report's window, days, topic and market fixed when it was made, an
    // expiry and a revocation time.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('project_shares')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('report_window', 'text', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('topic', 'text')
        .addColumn('market', 'text')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('project_shares_project').on('project_shares').columns(['project_id', 'id']).execute();
    },
  },
  '0018_brand_terms': {
    // A run's brand terms: the target's aliases and extra domains and each competitor's, as
    // given (JSON); null for runs that named the brands only. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = tables.find((t) => t.name === 'visibility_runs')?.columns.map((c) => c.name) ?? [];
      if (!columns.includes('brand_terms')) await db.schema.alterTable('visibility_runs').addColumn('brand_terms', 'text').execute();
    },
  },
  '0019_dashboard_rollups': {
    // Per-prompt tallies of finished visibility runs for the project dashboard, written the first
    // time the dashboard reads a finished run, so it never reads those probes again.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('dashboard_rollup_runs')
        .ifNotExists()
        .addColumn('run_id', 'text', (c) => c.primaryKey())
        .addColumn('definition_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('dashboard_rollups')
        .ifNotExists()
        .addColumn('run_id', 'text', (c) => c.notNull())
        .addColumn('prompt', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('series', 'text', (c) => c.notNull())
        .addColumn('cells', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('dashboard_rollups_pk', ['run_id', 'prompt'])
        .execute();
    },
  },
  '0020_job_waiting': {
    // 1 while a running job waits on its provider (an asynchronous task posted, not ready yet):
    // such a job keeps its lease but no lane slot, so the lane and account counts of claiming
    // leave it out. Every claim sets it back to 0. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = tables.find((t) => t.name === 'jobs')?.columns.map((c) => c.name) ?? [];
      if (!columns.includes('waiting')) await db.schema.alterTable('jobs').addColumn('waiting', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  '0021_active_job_indexes': {
    // The job indexes hold only the jobs a query looks for: queued ones (claims, the accounts
    // waiting) and running ones (lane and account counts, expired leases). Each index led with
    // the status, so every claim and every finish moved an entry in all four (a job row's
    // change wrote about ten pages to the log: bench:runs, a commit per claim and per settle),
    // and finished jobs, most of the table, stayed in them. Now a claim leaves the queued
    // indexes and enters the running ones, a finish leaves those. Re-runnable.
    async up(db: Kysely<any>) {
      for (const name of ['jobs_queued', 'jobs_fair', 'jobs_lease', 'jobs_account_status']) await sql`drop index if exists ${sql.raw(name)}`.execute(db);
      await sql`create index if not exists jobs_queued_ready on jobs (lane, run_after, id) where status = 'queued'`.execute(db);
      await sql`create index if not exists jobs_queued_fair on jobs (lane, account_id, run_after, id) where status = 'queued'`.execute(db);
      await sql`create index if not exists jobs_running on jobs (lane, lease_until) where status = 'running'`.execute(db);
      await sql`create index if not exists jobs_running_account on jobs (account_id) where status = 'running'`.execute(db);
    },
  },
  '0022_site_log_line_upload': {
    // Which upload counted a log line first (a random number per upload; null for lines counted
    // before it existed), so an upload's duplicates say which were repeated within it and which
    // an earlier upload had sent. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = tables.find((t) => t.name === 'site_log_lines')?.columns.map((c) => c.name) ?? [];
      if (!columns.includes('upload')) await db.schema.alterTable('site_log_lines').addColumn('upload', 'bigint').execute();
    },
  },
  '0023_dashboard_rollups_asked': {
    // The dashboard's per-prompt tallies now record what each prompt asked (cells.asks and each
    // platform cell's digest), so a prompt's change is read only between windows that asked it
    // the same. The tallies are derived from the probes alone: dropped here, each run's are
    // written again the first time a dashboard reads it. Re-runnable.
    async up(db: Kysely<any>) {
      // The marks first: a run without its mark is tallied again, never read as having none.
      await db.deleteFrom('dashboard_rollup_runs').execute();
      await db.deleteFrom('dashboard_rollups').execute();
    },
  },
  '0024_webhook_projects': {
    // An endpoint may be limited to some projects (an agency's client channel gets only that
    // client's events); each delivery records the project its event is about. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = (name: string) => tables.find((t) => t.name === name)?.columns.map((c) => c.name) ?? [];
      if (!columns('webhook_endpoints').includes('project_ids')) await db.schema.alterTable('webhook_endpoints').addColumn('project_ids', 'text').execute();
      if (!columns('webhook_messages').includes('project_id')) await db.schema.alterTable('webhook_messages').addColumn('project_id', 'text').execute();
    },
  },
  '0025_project_idempotency': {
    // A project create may carry an idempotency_key: a retry with the same key and body gets the
    // project made the first time. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = tables.find((t) => t.name === 'projects')?.columns.map((c) => c.name) ?? [];
      if (!columns.includes('idempotency_key')) await db.schema.alterTable('projects').addColumn('idempotency_key', 'text').execute();
      if (!columns.includes('idempotency_fingerprint')) await db.schema.alterTable('projects').addColumn('idempotency_fingerprint', 'text').execute();
      await db.schema.createIndex('projects_idempotency').ifNotExists().on('projects').columns(['account_id', 'idempotency_key']).execute();
    },
  },
  '0026_site_log_line_hour': {
    // The hour of each counted log line (YYYY-MM-DDTHH, as the hourly counts), so its hash can
    // be let go once the line is older than SIGHTLINE_RETAIN_LOG_LINE_HASHES_DAYS (core/retention.ts),
    // and an index to find those. Rows counted before this migration keep a null hour: their
    // lines were all read before it ran, so they are removed once this migration is older than
    // the window (its time is kysely_migration's). retention_marks remembers how far back the
    // sweep has removed (for site_log_lines: the hour before which hashes may be gone), so a
    // window made longer later, or turned off, never lets a line count twice. Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = tables.find((t) => t.name === 'site_log_lines')?.columns.map((c) => c.name) ?? [];
      if (!columns.includes('hour')) await db.schema.alterTable('site_log_lines').addColumn('hour', 'text').execute();
      await db.schema.createIndex('site_log_lines_hour').ifNotExists().on('site_log_lines').column('hour').execute();
      await db.schema
        .createTable('retention_marks')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0027_account_roles': {
    // Several people in one account: each user has a role inside their account (admin: manages
    // the account's people; member: everything else), apart from users.role, the instance role.
    // Every existing user becomes admin of their account. An invitation may name the account it
    // joins and the role it gives (null: it opens an account of its own, as before). Re-runnable.
    async up(db: Kysely<any>) {
      const tables = await db.introspection.getTables();
      const columns = (name: string) => tables.find((t) => t.name === name)?.columns.map((c) => c.name) ?? [];
      if (!columns('users').includes('account_role')) await db.schema.alterTable('users').addColumn('account_role', 'text', (c) => c.notNull().defaultTo('admin')).execute();
      if (!columns('auth_tokens').includes('account_id')) await db.schema.alterTable('auth_tokens').addColumn('account_id', 'text').execute();
      if (!columns('auth_tokens').includes('account_role')) await db.schema.alterTable('auth_tokens').addColumn('account_role', 'text').execute();
    },
  },
  '0028_removed_users': {
    // A person removed from an account leaves a row with their email, so the activity log keeps
    // naming them (its rows hold only their user id). Nothing to backfill: a person removed before
    // this migration left no email anywhere. Re-runnable.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('removed_users')
        .ifNotExists()
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('removed_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};


/** Every migration's name, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

class InCodeMigrationProvider implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

/** Applies every migration not applied yet; `upTo` stops after the named one (tests of a migration). */
/** How many migrations this database has applied: 0 for one sightline never set up (or just created). */
export async function appliedMigrationCount(db: Kysely<any>): Promise<number> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return 0;
  const row = await db.selectFrom('kysely_migration').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The database holds migrations this code does not know: a newer release upgraded it (an operator
 * rolling back). Older code must not run on it (a newer release may keep data its own way, as
 * 0003's running balances once did), so the start stops with what to do instead.
 */
export class DatabaseNewerThanCode extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `was upgraded by a newer sightline: it has ${unknown.length > 1 ? 'migrations' : 'migration'} ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''} that this version does not know. ` +
        'Run the version that upgraded it, or restore the backup taken before the upgrade (docs/operating.md, "Upgrading")',
    );
    this.name = 'DatabaseNewerThanCode';
  }
}

async function unknownMigrations(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === 'kysely_migration')) return [];
  const rows = await db.selectFrom('kysely_migration').select('name').execute();
  return rows.map((r) => String(r.name)).filter((name) => !(name in migrations)).sort();
}

/** When the named migration ran on this database (ISO time, from kysely_migration), or null when it has not. */
export async function migrationAppliedAt(db: Kysely<any>, name: string): Promise<string | null> {
  const row = await db.selectFrom('kysely_migration').select('timestamp').where('name', '=', name).executeTakeFirst();
  return row ? String(row.timestamp) : null;
}

export async function migrateToLatest(db: Kysely<any>, upTo?: string): Promise<string[]> {
  const unknown = await unknownMigrations(db);
  if (unknown.length) throw new DatabaseNewerThanCode(unknown);
  const migrator = new Migrator({ db, provider: new InCodeMigrationProvider() });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
