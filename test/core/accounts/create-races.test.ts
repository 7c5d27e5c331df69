// Creates that race for one unique value (an account's or a user's email), on Postgres from two
// database handles on one database (two processes' pools): exactly one wins, every other gets the answer a
// later attempt would (400 invalid_request), never the constraint's error (a 500). Postgres when
// DATABASE_URL is set, SQLite otherwise.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createAccount, openAccount } from '../../../src/core/accounts/accounts.ts';
import { acceptInvite, createInvite, createResetToken } from '../../../src/core/accounts/users.ts';
import { AppError } from '../../../src/core/errors.ts';
import { openDatabase, type DatabaseHandle } from '../../../src/db/connection.ts';
import { migrateToLatest } from '../../../src/db/migrations.ts';
import { storeOf, type Store } from '../../../src/db/store.ts';
import { freshDatabaseUrl, usingPostgres } from '../../helpers/harness.ts';

const RACERS = 8;

/** The settled results: the one fulfilled value, and the codes of the rejections (an unexpected error as its message). */
async function race<T>(make: (store: Store, i: number) => Promise<T>, stores: Store[]) {
  const settled = await Promise.allSettled(Array.from({ length: RACERS }, (_, i) => make(stores[i % stores.length]!, i)));
  const won = settled.filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === 'fulfilled').map((r) => r.value);
  const lost = settled.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason instanceof AppError ? (r as PromiseRejectedResult).reason.code : String((r as PromiseRejectedResult).reason)));
  return { won, lost };
}

describe('creates racing for one email', () => {
  let db: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  const handles: DatabaseHandle[] = [];
  let stores: Store[];
  before(async () => {
    db = await freshDatabaseUrl();
    // SQLite: one handle (better-sqlite3 waits for a lock synchronously, so a second handle in this
    // process would wait on the first forever); its callers still interleave outside transactions.
    handles.push(openDatabase(db.url));
    if (usingPostgres) handles.push(openDatabase(db.url));
    await migrateToLatest(handles[0]!.db);
    stores = handles.map(storeOf);
  });
  after(async () => {
    for (const h of handles) await h.close();
    await db.drop();
  });
  const count = async (table: 'accounts' | 'users', email: string) =>
    Number((await stores[0]!.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('email', '=', email).executeTakeFirstOrThrow()).n);

  test('accounts: one opens (CLI, in a transaction) or is created (no transaction); the rest get invalid_request', async () => {
    const opened = await race((store) => openAccount(store, 'Race@Example.com', 500), stores);
    assert.equal(opened.won.length, 1);
    assert.deepEqual(opened.lost, Array(RACERS - 1).fill('invalid_request'));
    assert.equal(await count('accounts', 'race@example.com'), 1);
    // The losers left nothing behind: one default key, one grant.
    const keys = await stores[0]!.db.selectFrom('api_keys').select('id').where('account_id', '=', opened.won[0]!.account.id).execute();
    assert.equal(keys.length, 1);
    assert.equal(opened.won[0]!.available, 500);

    const created = await race((store) => createAccount(store.db, 'race-plain@example.com'), stores);
    assert.equal(created.won.length, 1);
    assert.deepEqual(created.lost, Array(RACERS - 1).fill('invalid_request'));
    assert.equal(await count('accounts', 'race-plain@example.com'), 1);
  });

  test('users: invitations to one email made at once leave one link working; accepted at once, one user; reset links asked at once share it', async () => {
    const invited = await race((store) => createInvite(store, 'invite', 'invitee@example.com', 0, 'usr_operator'), stores);
    assert.deepEqual(invited.lost, []);
    const pending = () => stores[0]!.db.selectFrom('auth_tokens').select('id').where('kind', '=', 'invite').where('used_at', 'is', null).execute();
    assert.equal((await pending()).length, 1, 'one pending invitation per email');
    assert.equal(invited.won.filter((i) => !i.replaced).length, 1, 'every invitation but the first replaced one');
    const tokens = invited.won.map((i) => i.token);
    const accepted = await race((store, i) => acceptInvite(store, 'invite', tokens[i], 'a long enough password'), stores);
    assert.equal(accepted.won.length, 1);
    assert.deepEqual(accepted.lost, Array(RACERS - 1).fill('invalid_token'));
    assert.equal(await count('users', 'invitee@example.com'), 1);
    assert.equal(await count('accounts', 'invitee@example.com'), 1);
    assert.equal((await pending()).length, 0);
    // An invitation and an acceptance of the email's pending one at once: never a deadlock or a
    // 500; either the acceptance wins (the invitation is refused, the email has a user) or the new
    // invitation ends the old link first (the acceptance gets invalid_token).
    for (let round = 0; round < 4; round++) {
      const email = `crossing${round}@example.com`;
      const first = await createInvite(stores[0]!, 'invite', email, 0, 'usr_operator');
      const [again, accept] = await Promise.allSettled([
        createInvite(stores[round % stores.length]!, 'invite', email, 0, 'usr_operator'),
        acceptInvite(stores[(round + 1) % stores.length]!, 'invite', first.token, 'a long enough password'),
      ]);
      const code = (r: PromiseSettledResult<unknown>) => (r.status === 'fulfilled' ? 'ok' : r.reason instanceof AppError ? r.reason.code : String(r.reason));
      assert.ok(
        (code(again) === 'ok' && code(accept) === 'invalid_token') || (code(again) === 'invalid_request' && code(accept) === 'ok'),
        `invite ${code(again)}, accept ${code(accept)}`,
      );
    }

    // An account made by the CLI gets its user from the first reset link: links asked at once all work.
    await openAccount(stores[0]!, 'cli-race@example.com');
    const resets = await race((store) => createResetToken(store, 'cli-race@example.com'), stores);
    assert.deepEqual(resets.lost, []);
    assert.ok(resets.won.every((r) => r?.email === 'cli-race@example.com' && r.token.length > 20));
    assert.equal(await count('users', 'cli-race@example.com'), 1);
  });
});
