// A Content Intelligence run that fails shows its owner an error written for clients: an API or
// fetch error's own code and message, and for anything else (a bug) a fixed message, never the
// error's text or stack (those go to the operator's log). Its credits come back either way.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../helpers/harness.ts';
import { executeCiRun } from '../../../src/core/content/runs.ts';
import { FetchError } from '../../../src/core/pages/fetch/errors.ts';

describe('failed Content Intelligence runs', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(() => s.close());

  async function failWith(err: unknown) {
    const { key } = await s.account({ credits: 5 });
    const created = await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'https://acme.example/guide' } });
    assert.equal(created.statusCode, 200, created.body);
    const runId = created.json().run_id;
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      await executeCiRun(s.runtime.core.store, async () => {
        throw err;
      }, runId);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    const run = (await s.request('GET', `/v1/content-intelligence/runs/${runId}`, { key })).json();
    assert.equal(run.status, 'failed');
    assert.equal(run.billing.status, 'released');
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.available_credit_units, '5.00');
    return { run, warnings };
  }

  test('a bug inside the analysis shows a fixed message; its text and stack go to the log only', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x') at /srv/sightline/src/core/content/score.ts:42");
    const { run, warnings } = await failWith(bug);
    assert.deepEqual(run.error, { code: 'extraction_failed', message: 'The analysis failed unexpectedly.' });
    assert.ok(warnings.some((w) => w.includes('/srv/sightline/src/core/content/score.ts:42')), 'the operator sees the cause');
  });

  test('a fetch failure keeps its client-facing code and message', async () => {
    const { run } = await failWith(new FetchError('blocked_address'));
    assert.equal(run.error.code, 'fetch_blocked');
    assert.equal(run.error.message, 'The URL points at an address this server may not fetch.');
  });
});
