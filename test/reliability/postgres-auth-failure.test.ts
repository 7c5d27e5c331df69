// Credentials the database refuses under a running server (Postgres only; skipped on SQLite): a
// real `sightline serve` process on a database of its own, whose role is then refused at login.
// Clients see the 503 database_unavailable of any outage; the operator's log line and /readyz say
// that the credentials were refused and that DATABASE_URL is what to fix, never the password; the
// server recovers by itself once the role may log in again.
//
// This server trusts every local connection (pg_hba: trust), so a wrong password (28P01) cannot
// be produced here; a role that may not log in is refused with 28000, the other SQLSTATE of
// refused credentials, through the same path. 28P01 itself is checked on the classification
// (test/db/refused-credentials.test.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '../../src/core/errors.ts';
import { Fleet, type FleetProcess } from '../helpers/processes.ts';
import { admin, terminateBackends } from '../helpers/postgres.ts';
import { usingPostgres } from '../helpers/harness.ts';

type LogLine = { msg: string; [field: string]: unknown };

/** The first JSON log line of the process that matches, waiting for it to be written. */
async function logLine(p: FleetProcess, match: (line: LogLine) => boolean, seconds = 10): Promise<LogLine> {
  for (let i = 0; i < seconds * 10; i++) {
    const lines = p.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);
    const found = lines.find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  return assert.fail(`no such log line of ${p.name}:\n${p.output().slice(-2000)}`);
}

describe('refused database credentials under a running server', { skip: !usingPostgres && 'needs DATABASE_URL=postgres://…' }, () => {
  const role = `sl_auth_${process.pid}`;
  const database = `sightline_auth_${process.pid}_${Date.now()}`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  let fleet: Fleet;
  let api: FleetProcess;
  let worker: FleetProcess;

  before(async () => {
    await admin(`create role ${role} login password '${password}'`);
    await admin(`create database ${database} owner ${role}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.username = role;
    url.password = password;
    url.pathname = `/${database}`;
    fleet = new Fleet({ DATABASE_URL: url.toString(), SIGHTLINE_LOG_LEVEL: 'info', SIGHTLINE_DB_CONNECT_TIMEOUT_MS: '2000' });
    api = await fleet.startApi('api');
    worker = fleet.start('worker', ['worker']);
    await logLine(worker, (l) => l.msg === 'worker started', 60);
  });
  after(async () => {
    await fleet?.stopAll();
    await admin(`drop database if exists ${database} with (force)`);
    await admin(`drop role if exists ${role}`);
  });

  test('503 database_unavailable for clients; the log line and /readyz say authentication failed and name DATABASE_URL', async () => {
    const base = `http://127.0.0.1:${api.port}`;
    // A well-formed key nobody has: looking it up needs the database.
    const asClient = () => fetch(`${base}/v1/usage`, { headers: { authorization: `Bearer svc_api_live_${'x'.repeat(40)}` } });
    assert.equal((await asClient()).status, 401);
    assert.equal((await fetch(`${base}/readyz`)).status, 200);

    await admin(`alter role ${role} nologin`);
    await terminateBackends(database);
    const refused = await asClient();
    assert.equal(refused.status, 503);
    assert.ok(refused.headers.get('retry-after'));
    assert.deepEqual(
      [(await refused.json()).detail.error],
      ['database_unavailable'],
    );
    const ready = await fetch(`${base}/readyz`);
    assert.equal(ready.status, 503);
    const readyBody = await ready.text();
    const detail = JSON.parse(readyBody).detail;
    assert.equal(detail.error, 'not_ready');
    assert.equal(detail.reason, 'authentication_failed');
    assert.match(detail.message, /refused .*credentials.*DATABASE_URL/);

    // The log says it too, in the line of the refused request, and a worker's claims fail the
    // same way and say so; the password is nowhere.
    const logged = await logLine(api, (l) => l.msg.startsWith('database unavailable'));
    assert.equal(logged.reason, 'authentication_failed');
    assert.match(logged.msg, /authentication failed.*DATABASE_URL/);
    const claim = await logLine(worker, (l) => l.msg === 'worker error' && l.reason === 'authentication_failed');
    assert.match(String(claim.fix), /DATABASE_URL/);
    for (const p of [api, worker]) assert.ok(!p.output().includes(password), `${p.name} never logs the password`);
    assert.ok(!readyBody.includes(password));
    assert.equal((await asClient().then((r) => r.json())).detail.message, ERROR_CODES.database_unavailable.message, 'clients get the usual words');

    // The role may log in again: the server recovers without a restart.
    await admin(`alter role ${role} login`);
    assert.equal((await fetch(`${base}/readyz`)).status, 200);
    assert.equal((await asClient()).status, 401);
  });
});
