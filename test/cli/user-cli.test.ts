// The user commands of the bin against a running server, as a script uses them (--json parsed),
// with exit codes per failure class; and the typed client's generated types match the document.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { BIN, serverForCli } from '../helpers/cli.ts';
import { clientSchemaSource } from '../../scripts/client-schema.ts';

const exec = promisify(execFile);

describe('user CLI', () => {
  const srv = serverForCli();

  async function cli(key: string | undefined, ...args: string[]): Promise<{ code: number; out: string; err: string; json: any }> {
    const env: Record<string, string | undefined> = { ...process.env, SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' };
    if (key === undefined) delete env.SIGHTLINE_API_KEY;
    const res = await exec(process.execPath, [BIN, ...args], { env: env as NodeJS.ProcessEnv }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e) => ({ code: e.code as number, out: e.stdout as string, err: e.stderr as string }),
    );
    let json: any;
    if (args.includes('--json')) json = JSON.parse(res.out); // exactly one JSON document
    return { ...res, json };
  }
  const RUN = ['https://acme.example', '--brand', 'Acme', '--prompt', 'best anvils [[sandbox:mention]]', '--prompt', 'anvil makers [[sandbox:no-mention]]', '--platform', 'openai', '--platform', 'claude'];

  test('models: the columns line up, consumer surfaces (google_ai_overview) included', async () => {
    const { key } = await srv.s.account({ credits: 5 });
    const human = await cli(key, 'visibility', 'models');
    assert.equal(human.code, 0, human.err);
    const rows = human.out.trim().split('\n');
    assert.ok(rows.some((r) => r.startsWith('google_ai_overview ')), human.out);
    // The model id starts in the same column on every row, as do the prices.
    const idColumn = new Set(rows.map((r) => r.search(/ \S/) + 1));
    assert.equal(idColumn.size, 1, human.out);
    const priceColumn = new Set(rows.map((r) => r.indexOf(' credits')));
    assert.equal(priceColumn.size, 1, human.out);
  });

  test('models, estimate, run --watch, status, list, cancel and usage answer JSON from the server', async () => {
    const { key } = await srv.s.account({ credits: 50 });
    const models = await cli(key, 'visibility', 'models', '--json');
    assert.equal(models.code, 0);
    assert.ok(models.json.platforms.openai.length > 0);
    const est = await cli(key, 'visibility', 'estimate', ...RUN, '--json');
    assert.equal(est.code, 0, est.err);
    assert.equal(est.json.probe_count, 4);
    assert.equal(est.json.would_be_status, 'queued');
    const run = await cli(key, 'visibility', 'run', ...RUN, '--watch', '--json', '--idempotency-key', 'cli-1');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.json.status, 'completed');
    assert.equal(run.json.billing.settled_credits, est.json.would_reserve_credits);
    assert.match(run.err, /4\/4 probes/); // progress on stderr
    const status = await cli(key, 'visibility', 'status', run.json.run_id, '--json');
    assert.equal(status.json.run_id, run.json.run_id);
    const human = await cli(key, 'visibility', 'status', run.json.run_id);
    assert.match(human.out, /mention rate 50% \(95% CI 15–85%\), 2 of 4 answers \(Good\)/);
    assert.match(human.out, /by platform:\n {2}\S+ +\d+%/);
    assert.match(human.out, /cited domains: \S+ \(\d+\)/);
    const list = await cli(key, 'visibility', 'list', '--json', '--limit', '5');
    assert.deepEqual(list.json.runs.map((r: any) => r.run_id), [run.json.run_id]);
    const queued = await cli(key, 'visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', 'slow [[sandbox:delay=5000]]', '--platform', 'openai', '--json');
    const cancelled = await cli(key, 'visibility', 'cancel', queued.json.run_id, '--json');
    assert.equal(cancelled.code, 0);
    assert.equal(cancelled.json.run_id, queued.json.run_id);
    const usage = await cli(key, 'usage', '--json');
    assert.equal(usage.code, 0);
    assert.ok(usage.json.credits.available_credit_units);
  });

  test('exit codes per failure class, with the API error as the JSON document and a hint on stderr', async () => {
    const { key } = await srv.s.account({ credits: 1 });
    const noKey = await cli(undefined, 'usage', '--json');
    assert.equal(noKey.code, 3);
    assert.equal(noKey.json.error, 'missing_api_key');
    const badKey = await cli('svc_api_live_' + 'x'.repeat(40), 'usage', '--json');
    assert.equal(badKey.code, 3);
    assert.equal(badKey.json.error, 'unauthorized');
    assert.match(badKey.err, /SIGHTLINE_API_KEY/);
    const poor = await cli(key, 'visibility', 'run', ...RUN, '--json');
    assert.equal(poor.code, 4);
    assert.equal(poor.json.error, 'insufficient_credits');
    const missing = await cli(key, 'visibility', 'status', 'vis_nope', '--json');
    assert.equal(missing.code, 5);
    assert.equal(missing.json.error, 'not_found');
    const refused = await cli(key, 'visibility', 'estimate', 'not a url', '--brand', 'Acme', '--prompt', 'x', '--platform', 'openai', '--json');
    assert.equal(refused.code, 1);
    assert.equal(refused.json.error, 'invalid_url');
    const usage = await cli(key, 'visibility', 'run', 'https://acme.example');
    assert.equal(usage.code, 2);
    assert.match(usage.err, /--brand/);
    // No questions: said in the CLI's flags, before anything is sent (the key is not even needed).
    const noPrompts = await cli(undefined, 'visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--json');
    assert.equal(noPrompts.code, 2);
    assert.equal(noPrompts.json.error, 'usage_error');
    assert.match(noPrompts.json.message, /--prompt TEXT .* --platform NAME/);
    const down = await exec(process.execPath, [BIN, 'usage', '--json'], { env: { ...process.env, SIGHTLINE_API_URL: 'http://127.0.0.1:9', SIGHTLINE_API_KEY: key } }).catch((e) => e);
    assert.equal(down.code, 7);
    assert.equal(JSON.parse(down.stdout).error, 'unreachable');
    const version = await cli(key, '--version');
    assert.equal(version.out.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });

  test('the committed typed client (src/client/schema.d.ts) is what the current document generates', async () => {
    const committed = readFileSync(new URL('../../src/client/schema.d.ts', import.meta.url), 'utf8');
    assert.equal(committed, await clientSchemaSource(), 'run npm run client:generate');
  });
});
