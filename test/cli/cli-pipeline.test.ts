// The CLI in a pipeline (no terminal, stdout into jq): a usage error with --json still leaves one
// JSON document on stdout, as every other failure does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.ts';

describe('CLI in a pipeline', () => {
  // Nothing is sent for a usage error: the URL leads nowhere, on purpose.
  const env = { SIGHTLINE_API_URL: 'http://127.0.0.1:9', SIGHTLINE_API_KEY: 'svc_api_live_x', SIGHTLINE_CONFIG: '/nonexistent/sightline.json' };

  test('a usage error with --json prints one error document on stdout (exit 2)', async () => {
    for (const [args, said] of [
      [['webhooks', 'create', 'https://hooks.example', '--json'], /required option '--event <value>' not specified/],
      [['visibility', 'run', 'https://acme.example', '--repeats', '99', '--json'], /--repeats takes an integer from 1 to 10/],
      [['projects', 'create', '--markets', 'xx', '--json'], /--markets takes language-country tags/],
      [['ci', 'run', 'https://acme.example', '--analysis-depth', 'deep', '--json'], /Allowed choices are score, full/],
      [['visibility', 'lst', '--json'], /unknown command 'lst'/],
    ] as const) {
      const r = await runCli([...args], { env });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.equal(r.json.error, 'usage_error', args.join(' '));
      assert.match(r.json.message, said);
      assert.doesNotMatch(r.json.message, /^error:/);
      assert.match(r.err, said, 'said on stderr as before');
    }
    const human = await runCli(['webhooks', 'create', 'https://hooks.example'], { env });
    assert.equal(human.code, 2);
    assert.equal(human.out, '', 'without --json stdout stays empty');
    const after = await runCli(['visibility', 'run', 'https://acme.example', '--repeats', '99', '--', '--json'], { env });
    assert.equal(after.out, '', 'a --json after -- is an argument, not the option');
  });
});
