// A Content Intelligence run that fails shows its owner an error written for clients: an API or
// fetch error's own code and message, and for anything else (a bug) a fixed message, never the
// error's text or stack (those go to the operator's log). Its credits come back either way. A run
// whose analysis a stopping worker cuts short records nothing and is retried.
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
    assert.match(run.error.message, /^The URL points at an address this server may not fetch .*SIGHTLINE_FETCH_ALLOW/);
  });
});

describe('a Content Intelligence run when the worker stops', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { worker: false });
  });
  after(() => s.close());

  test('an analysis cut short by the abort records nothing: the run stays running and keeps its reservation for the retry', async () => {
    const { key } = await s.account({ credits: 5 });
    const created = await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'https://acme.example/guide' } });
    assert.equal(created.statusCode, 200, created.body);
    const runId = created.json().run_id;
    const controller = new AbortController();
    let heard: AbortSignal | undefined;
    const stopped = executeCiRun(
      s.runtime.core.store,
      async ({ signal }) => {
        heard = signal;
        await new Promise((_, reject) => signal!.addEventListener('abort', () => reject(signal!.reason), { once: true }));
        throw new Error('unreachable');
      },
      runId,
      controller.signal,
    );
    // The stop comes while the analysis runs (waited for, not timed: a loaded machine is slow).
    while (!heard) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('worker stopping'));
    await assert.rejects(stopped, /worker stopping/);
    assert.equal(heard, controller.signal, 'the analysis is handed the signal');
    const run = (await s.request('GET', `/v1/content-intelligence/runs/${runId}`, { key })).json();
    assert.equal(run.status, 'running');
    assert.equal(run.billing.status, 'reserved');
    assert.equal((await s.request('GET', '/v1/usage', { key })).json().credits.reserved_credit_units, created.json().reserved_credits);

    // The retry (another worker, no abort) completes the run and settles its reservation.
    await executeCiRun(s.runtime.core.store, async () => ({ result: { analysis_depth: 'score' }, overallScore: 70, overallBand: 'good' }), runId, new AbortController().signal);
    const done = (await s.request('GET', `/v1/content-intelligence/runs/${runId}`, { key })).json();
    assert.equal(done.status, 'completed');
    assert.equal(done.billing.status, 'settled');
  });

  test('an analysis that finished is recorded even if the abort came meanwhile', async () => {
    const { key } = await s.account({ credits: 5 });
    const runId = (await s.request('POST', '/v1/content-intelligence/runs', { key, body: { url: 'https://acme.example/guide' } })).json().run_id;
    const controller = new AbortController();
    await executeCiRun(
      s.runtime.core.store,
      async () => {
        controller.abort();
        return { result: { analysis_depth: 'score' }, overallScore: 55, overallBand: 'fair' };
      },
      runId,
      controller.signal,
    );
    assert.equal((await s.request('GET', `/v1/content-intelligence/runs/${runId}`, { key })).json().status, 'completed');
  });
});
