// CLI fixes from a user's walkthrough: a closed stdout (`… | head`) ends the command quietly with
// 0; markets are written as language-country tags (`--markets en-US,de-DE`) as in the console;
// arguments the CLI can check itself (a budget's format, a plan's goal) are usage errors (exit 2)
// before anything is sent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, runCli, serverForCli, type CliResult } from '../helpers/cli.ts';

/**
 * Runs the bin with its stdout on a real pipe whose reader goes away at once (as `| head -c 0`
 * would): the exit code and stderr.
 */
function withClosedStdout(args: string[], env: Record<string, string>): Promise<{ code: number | null; signal: string | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, err }));
  });
}

/** A usage error: exit 2, a message on stderr, no stack, and (with --json) one JSON document. */
function usageError(r: CliResult, pattern: RegExp) {
  assert.equal(r.code, 2, `exit code; stderr: ${r.err}`);
  assert.match(r.err, pattern);
  assert.doesNotMatch(r.err, /\n\s+at /);
}

describe('CLI walkthrough fixes', () => {
  const srv = serverForCli();
  const as =
    (key: string) =>
    (...args: string[]) =>
      runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' } });

  test('a reader that goes away ends the command quietly with 0', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const env = { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' };
    const run = await as(key)(
      'visibility',
      'run',
      'https://acme.example',
      '--brand',
      'Acme',
      '--prompt',
      'best anvils',
      '--platform',
      'openai',
      '--watch',
      '--json',
    );
    assert.equal(run.code, 0, run.err);
    for (const args of [
      ['visibility', 'list', '--json'],
      ['visibility', 'list'],
      ['visibility', 'export', run.json.run_id, '--format', 'csv'],
    ]) {
      const r = await withClosedStdout(args, env);
      assert.equal(r.err, '', `${args.join(' ')}: nothing on stderr`);
      assert.deepEqual([r.code, r.signal], [0, null], args.join(' '));
    }
  });

  test('markets are language-country tags, comma-separated or repeated, or JSON', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const cli = as(key);
    const estimate = ['projects', 'estimate', '--platform', 'openai', '--prompt-count', '2', '--json'];
    const marketsOf = async (...markets: string[]) => {
      const r = await cli(...estimate, ...markets);
      assert.equal(r.code, 0, r.err);
      return (r.json.markets as { market: string }[]).map((m) => m.market);
    };
    assert.deepEqual(await marketsOf('--markets', 'en-US,de-DE'), ['en-US', 'de-DE']);
    assert.deepEqual(await marketsOf('--markets', 'en-US, de_de'), ['en-US', 'de-DE']);
    assert.deepEqual(await marketsOf('--markets', 'en-US', '--markets', 'fr-FR'), ['en-US', 'fr-FR']);
    assert.deepEqual(await marketsOf('--markets', '["en-US","de-DE"]'), ['en-US', 'de-DE']);
    assert.deepEqual(await marketsOf('--markets', '[{"language":"en","country":"GB"}]'), ['en-GB']);
    assert.deepEqual(await marketsOf('--markets', 'es-MX'), ['es-MX']);
    for (const bad of ['en', 'en-US,german', 'en-US-x', ','])
      usageError(await cli(...estimate, '--markets', bad), /--markets takes language-country tags such as en-US,de-DE/);

    const created = await cli(
      'projects',
      'create',
      '--url',
      'https://acme.example/',
      '--brand',
      'Acme',
      '--platform',
      'openai',
      '--markets',
      'en-US,de-DE',
      '--json',
    );
    assert.equal(created.code, 0, created.err);
    assert.deepEqual(created.json.markets, [
      { language: 'en', country: 'US' },
      { language: 'de', country: 'DE' },
    ]);
    const updated = await cli('projects', 'update', created.json.id, '--markets', 'fr-FR', '--json');
    assert.equal(updated.code, 0, updated.err);
    assert.deepEqual(updated.json.markets, [{ language: 'fr', country: 'FR' }]);

    const help = await cli('projects', 'create', '--help');
    assert.match(help.out.replace(/\s+/g, ' '), /--markets <tags\|json> .*language-country tags, comma-separated or repeated: en-US,de-DE; or JSON, or @FILE/);
  });

  test('what the CLI can check itself is a usage error (exit 2) before anything is sent', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const cli = as(key);
    const project = await cli(
      'projects',
      'create',
      '--url',
      'https://acme.example/',
      '--brand',
      'Acme',
      '--platform',
      'openai',
      '--prompts',
      'best anvils',
      '--json',
    );
    assert.equal(project.code, 0, project.err);
    const estimate = ['projects', 'estimate', '--platform', 'openai', '--prompt-count', '2'];

    // Credit amounts: --budget (projects, tests) and webhooks --credits-low.
    for (const bad of ['abc', '12.345', '-5', '']) usageError(await cli(...estimate, '--budget', bad), /--budget takes a credit amount such as 200 or 200\.00/);
    usageError(await cli('projects', 'update', project.json.id, '--budget', 'lots'), /--budget takes a credit amount/);
    usageError(await cli('tests', 'schedule', 'test_x', '--cron', '0 6 * * 1', '--budget', 'abc'), /--budget takes a credit amount/);
    usageError(await cli('webhooks', 'set-threshold', '--credits-low', 'ten'), /--credits-low takes a credit amount/);
    const budget = await cli(...estimate, '--budget', '200.50', '--json');
    assert.equal(budget.code, 0, budget.err);
    assert.equal(budget.json.monthly_credit_budget, '200.50');
    // A change takes --no-<flag> where the API takes null: the budget and the threshold removed.
    const capped = await cli('projects', 'update', project.json.id, '--budget', '30', '--json');
    assert.equal(capped.json.monthly_credit_budget, '30.00', capped.err);
    const uncapped = await cli('projects', 'update', project.json.id, '--no-budget', '--json');
    assert.equal(uncapped.code, 0, uncapped.err);
    assert.equal(uncapped.json.monthly_credit_budget, null);
    assert.equal((await cli('webhooks', 'set-threshold', '--credits-low', '5', '--json')).json.credits_low_threshold, '5.00');
    const off = await cli('webhooks', 'set-threshold', '--no-credits-low', '--json');
    assert.equal(off.code, 0, off.err);
    assert.equal(off.json.credits_low_threshold, null);

    // A plan needs exactly one goal.
    for (const goal of [[], ['--half-width', '0.1', '--change', '0.15']]) {
      usageError(await cli('projects', 'plan', project.json.id, ...goal), /give exactly one goal: --half-width X .* or --change X/);
      usageError(await cli('tests', 'plan', 'test_x', ...goal), /give exactly one goal/);
    }
    const plan = await cli('projects', 'plan', project.json.id, '--half-width', '0.1', '--json');
    assert.equal(plan.code, 0, plan.err);

    // Numbers within the bounds the schema gives.
    usageError(await cli(...estimate, '--repeats', '11'), /--repeats takes an integer from 1 to 10/);
    usageError(await cli(...estimate, '--months', '0'), /--months takes an integer from 1 to 24/);
    usageError(await cli('projects', 'plan', project.json.id, '--half-width', '2'), /--half-width takes a number from 0\.01 to 0\.5/);
    usageError(await cli('reports', 'share', project.json.id, '--expires-in-days', '400'), /--expires-in-days takes an integer from 1 to 365/);
    usageError(await cli('page', 'serialize', 'https://acme.example', '--offset', '-1'), /--offset takes an integer of 0 or more/);
    // A clamped value is no error: the server clamps it.
    const list = await cli('visibility', 'list', '--limit', '1000', '--json');
    assert.equal(list.code, 0, list.err);

    // A schedule's time zone needs its cron.
    usageError(await cli(...estimate, '--timezone', 'Europe/Berlin'), /--timezone needs --cron beside it/);
    // A change keeps the current cron (test/cli/cli-schedule-zone.test.ts): read first, so an unknown test is a 404.
    assert.equal((await cli('tests', 'schedule', 'test_x', '--timezone', 'Europe/Berlin')).code, 5);
    const scheduled = await cli(...estimate, '--cron', '0 6 * * 1', '--timezone', 'Europe/Berlin', '--json');
    assert.equal(scheduled.code, 0, scheduled.err);
  });
});
