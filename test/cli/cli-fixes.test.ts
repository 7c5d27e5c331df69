// Three CLI fixes: a partly funded `visibility run` says so on stderr and --require-full-funding
// queues nothing then; `ci run --watch` on a failed run exits non-zero with the failure on
// stderr; `visibility list` shows each run's time and mention rate.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { serveFixtureSite } from '../http/content-sites.ts';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('CLI fixes: partial funding, failed watched runs, list columns', () => {
  let site: FixtureServer;
  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
  });
  after(async () => site.close());
  const srv = serverForCli(() => ({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` }));
  const as = (key: string) => (...args: string[]) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' } });
  const RUN = ['visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', 'one [[sandbox:mention]]', '--prompt', 'two', '--prompt', 'three', '--platform', 'openai'];

  test('a partly funded run is said on stderr; --require-full-funding queues nothing', async () => {
    const { key } = await srv.s.account({ credits: 5 });
    const cli = as(key);
    const refused = await cli(...RUN, '--require-full-funding', '--json');
    assert.equal(refused.code, 4, refused.err);
    assert.equal(refused.json.error, 'insufficient_credits');
    assert.equal(refused.json.fundable_probe_count, 2);
    assert.match(refused.err, /not queued: the balance covers 2 of 3 probes/);
    assert.deepEqual((await cli('visibility', 'list', '--json')).json.runs, [], 'nothing was queued');

    const partial = await cli(...RUN, '--watch');
    assert.equal(partial.code, 0, partial.err);
    assert.match(partial.err, /partly funded: 2 of 3 probes queued \(4\.00 credits reserved\), 1 skipped for lack of credits/);
    assert.match(partial.out, /partially_completed/);

    const list = await cli('visibility', 'list');
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /^vis_\S+ {2}\d{4}-\d\d-\d\d \d\d:\d\dZ {2}partially_completed +\d+% {2}Acme {2}https:\/\/acme\.example/m);

    const full = await cli(...RUN.slice(0, 7), '--platform', 'deepseek', '--require-full-funding', '--json');
    assert.equal(full.code, 0, full.err);
    assert.equal(full.json.skipped_probe_count, 0);
    assert.doesNotMatch(full.err, /partly funded/);
  });

  test('a page that fails the same way every time is exit 1 with the page blamed, not 7 (server failing)', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const r = await as(key)('ci', 'score', site.url('/no-such-page'), '--json');
    assert.equal(r.code, 1, r.err);
    assert.equal(r.json.error, 'extraction_failed');
    assert.equal(r.json.retryable, false);
    assert.match(r.err, /the page at the URL failed, not this server/);
    // Said in words, not by naming a JSON field a person at a terminal does not see.
    assert.match(r.err, /The page answered with HTTP 404\. \(the page at the URL failed, not this server: check the URL\)/);
    assert.doesNotMatch(r.err, /retryable/);
  });

  test('ci run --watch on a failed run exits 1 and shows the failure', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const run = await as(key)('ci', 'run', site.url('/no-such-page'), '--watch', '--json');
    assert.equal(run.json.status, 'failed', run.err);
    assert.equal(run.code, 1);
    assert.match(run.err, /0\/1 analysis · failed/);
    assert.match(run.err, new RegExp(`sightline: run ${run.json.run_id} failed: \\S+`));
  });
});
