// Telling refused database credentials apart from other outages (src/db/resilience.ts), on the
// errors pg raises: SQLSTATE 28P01 (wrong password) and 28000 (no such role, a role that may not
// log in, no pg_hba.conf entry), as thrown and as wrapped in DatabaseUnavailableError. The running
// server's log line and /readyz are tested on Postgres (test/reliability/postgres-auth-failure.test.ts);
// the local test server trusts every connection, so only this file can produce a 28P01.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseUnavailableError, authenticationFailure, isDatabaseUnavailable, refusedCredentialsCode, unavailableLogLine } from '../../src/db/resilience.ts';

/** An error shaped as pg's DatabaseError for a server's FATAL answer. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

test('28P01 and 28000 are refused credentials, thrown or wrapped; other outages are not', () => {
  const wrong = pgError('28P01', 'password authentication failed for user "sightline"');
  const noLogin = pgError('28000', 'role "sightline" is not permitted to log in');
  for (const [err, code] of [
    [wrong, '28P01'],
    [new DatabaseUnavailableError(wrong), '28P01'],
    [noLogin, '28000'],
    [new DatabaseUnavailableError(noLogin), '28000'],
  ] as const) {
    assert.equal(refusedCredentialsCode(err), code);
    const refused = authenticationFailure(err)!;
    assert.equal(refused.reason, 'authentication_failed');
    assert.match(refused.message, new RegExp(`^authentication failed: .*DATABASE_URL \\(SQLSTATE ${code}\\)`));
    assert.deepEqual(unavailableLogLine(err), { fields: { reason: 'authentication_failed' }, msg: `database unavailable: ${refused.message}` });
  }
  assert.ok(isDatabaseUnavailable(new DatabaseUnavailableError(wrong)), 'clients still get database_unavailable');
  for (const other of [
    new DatabaseUnavailableError(pgError('57P03', 'the database system is starting up')),
    new DatabaseUnavailableError(pgError('3D000', 'database "x" does not exist')),
    new DatabaseUnavailableError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    pgError('42P01', 'relation "x" does not exist'),
    new Error('plain'),
    null,
  ]) {
    assert.equal(authenticationFailure(other), undefined, String(other));
  }
  assert.deepEqual(unavailableLogLine(new DatabaseUnavailableError(new Error('Connection terminated'))), { fields: {}, msg: 'database unavailable' });
});
