// The paid-create path (src/core/billing/paid-create.ts) across processes: three processes on one
// database each create the same visibility run and the same Content Intelligence run five times
// at once, under one idempotency key per kind. Exactly one run of each kind is made and one
// reservation each; every create answers with that run.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/harness.ts';

const CHILD = fileURLToPath(new URL('../helpers/create-run-child.ts', import.meta.url));
const visibilityBody = { url: 'https://acme.example', target_entity: 'Acme', prompts: ['best crm'], platforms: ['openai'], idempotency_key: 'vis-many' };
const ciBody = { url: 'https://acme.example/guide', analysis_depth: 'score', idempotency_key: 'ci-many' };

function runChild(databaseUrl: string, accountId: string): Promise<{ visibility: string[]; ci: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, accountId, '5', JSON.stringify(visibilityBody), JSON.stringify(ciBody)], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`create-run child exited ${code}`))));
  });
}

let s: TestServer;
before(async () => {
  s = await startTestServer({}, { worker: false });
});
after(async () => s.close());

test('three processes, one key per run kind: one run and one reservation each', async () => {
  const { accountId, key } = await s.account({ credits: 100 });
  const url = s.runtime.core.config.DATABASE_URL;
  const outs = await Promise.all([runChild(url, accountId), runChild(url, accountId), runChild(url, accountId)]);
  const db = s.runtime.core.store.db;
  const visRuns = await db.selectFrom('visibility_runs').select('id').where('account_id', '=', accountId).execute();
  const ciRuns = await db.selectFrom('ci_runs').select('id').where('account_id', '=', accountId).execute();
  assert.equal(visRuns.length, 1);
  assert.equal(ciRuns.length, 1);
  assert.deepEqual(new Set(outs.flatMap((o) => o.visibility)), new Set([visRuns[0]!.id]));
  assert.deepEqual(new Set(outs.flatMap((o) => o.ci)), new Set([ciRuns[0]!.id]));
  const charges = await db.selectFrom('ledger_entries').select(['ref_type', 'amount']).where('account_id', '=', accountId).where('kind', '=', 'charge').orderBy('ref_type').execute();
  assert.deepEqual(
    charges.map((c) => c.ref_type),
    ['ci_run', 'visibility_run'],
  );
  // What the account shows reserved is those two reservations, once.
  const usage = (await s.request('GET', '/v1/usage', { key })).json().credits;
  const reserved = charges.reduce((a, c) => a + c.amount, 0);
  assert.equal(Math.round(Number(usage.reserved_credit_units) * 100), reserved, JSON.stringify(usage));
});
