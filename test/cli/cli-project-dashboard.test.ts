// `sightline projects dashboard` in words: each period says when it runs from and to (not only its
// start, which for the latest 7-day window is a week before the run), the brand's rate with its
// interval and share of voice, and each competitor's rate; through the real bin and server.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('CLI: a project dashboard in words', () => {
  const ctx = serverForCli();
  let env: Record<string, string>;
  let key: string;
  before(async () => {
    ({ key } = await ctx.s.account({ credits: 100 }));
    env = { SIGHTLINE_API_URL: ctx.base, SIGHTLINE_API_KEY: key };
  });

  test('a period from and to, the brand against its competitors', async () => {
    const created = await runCli(
      ['projects', 'create', '--url', 'https://acme.example/', '--brand', 'Acme', '--competitors', 'Globex', '--platform', 'deepseek', '--prompts', 'best anvils [[sandbox:mention]]', '--json'],
      { env },
    );
    assert.equal(created.code, 0, created.err);
    const projectId = JSON.parse(created.out).id as string;
    const run = await runCli(['projects', 'run', projectId, '--json'], { env });
    assert.equal(run.code, 0, run.err);
    await ctx.s.waitForRun(key, JSON.parse(run.out).runs[0].run_id);

    const dash = await runCli(['projects', 'dashboard', projectId], { env });
    assert.equal(dash.code, 0, dash.err);
    const [engine, period, competitors] = dash.out.split('\n');
    assert.equal(engine, 'sandbox engine: 1 of 1 run answered by simulation, not by the AI platforms');
    const m = /^ {2}(\d{4}-\d\d-\d\d \d\d:\d\dZ) → (\d{4}-\d\d-\d\d \d\d:\d\dZ) {2}mention rate 100% \(95% CI \d+–100%\) over 1 answer \(thin\), share of voice \d+%$/.exec(period!);
    assert.ok(m, period);
    const days = (Date.parse(m[2]!.replace(' ', 'T')) - Date.parse(m[1]!.replace(' ', 'T'))) / 86_400_000;
    assert.equal(days, 7, 'the latest 7-day window, from and to');
    assert.match(competitors!, /^ {4}competitors: Globex (\d+|—)%?$/);
  });
});
