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
  const as = (key: string) => (...args: string[]) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' } });

  test('a reader that goes away ends the command quietly with 0', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const env = { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' };
    const run = await as(key)('visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', 'best anvils', '--platform', 'openai', '--watch', '--json');
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
});
