// The CLI's human lines count one thing in the singular ("1 prompt, 1 test", "over 1 probe"),
// run through the real bin against a real server; and a bare domain's error names the URL meant.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('CLI counts in the singular for one', () => {
  const ctx = serverForCli();
  let env: Record<string, string>;
  before(async () => {
    const { key } = await ctx.s.account({ credits: 100 });
    env = { SIGHTLINE_API_URL: ctx.base, SIGHTLINE_API_KEY: key, SIGHTLINE_FOLLOW_POLL_MS: '100' };
  });

  test('projects list, a quote and a run of one probe', async () => {
    const created = await runCli(['projects', 'create', '--url', 'https://acme.example/', '--brand', '{"name":"Acme"}', '--platform', 'deepseek', '--prompts', '[{"prompt":"best anvils"}]', '--json'], { env });
    assert.equal(created.code, 0, created.err);
    const list = await runCli(['projects', 'list'], { env });
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /en-US; 1 prompt, 1 test; no runs in 90 days$/m);

    const quote = await runCli(['visibility', 'estimate', 'https://acme.example/', '--brand', 'Acme', '--prompt', 'best anvils', '--platform', 'deepseek'], { env });
    assert.equal(quote.code, 0, quote.err);
    assert.match(quote.out, /^1 probe, 1\.00 credits;/m);

    const run = await runCli(['visibility', 'run', 'https://acme.example/', '--brand', 'Acme', '--prompt', 'best anvils [[sandbox:mention]]', '--platform', 'deepseek', '--watch'], { env });
    assert.equal(run.code, 0, run.err);
    const runId = /run (vis_\w+)/.exec(run.out)![1]!;
    const status = await runCli(['visibility', 'status', runId], { env });
    assert.equal(status.code, 0, status.err);
    assert.match(status.out, /deepseek\s+100%.* over 1 probe \(/);
  });

  test('a site without https:// is refused with the URL meant', async () => {
    const res = await runCli(['visibility', 'run', 'acme.example', '--brand', 'Acme', '--prompt', 'best anvils', '--platform', 'deepseek'], { env });
    assert.equal(res.code, 1);
    assert.match(res.err, /url must be an absolute http\(s\) URL, such as https:\/\/acme\.example\./);
  });
});
