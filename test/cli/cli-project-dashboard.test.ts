// `sightline projects dashboard` in words: each period says when it runs from and to (not only its
// start, which for the latest 7-day window is a week before the run), the brand's rate with its
// interval and share of voice, and each competitor's rate, with the change from the window before
// when both asked the same or why not; through the real bin and server.
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
    // The first window has nothing to compare with and says nothing of it: the line ends there.
    const m = /^ {2}(\d{4}-\d\d-\d\d \d\d:\d\dZ) → (\d{4}-\d\d-\d\d \d\d:\d\dZ) {2}mention rate 100% \(95% CI \d+–100%\) over 1 answer \(thin\), share of voice \d+%$/.exec(period!);
    assert.ok(m, period);
    const days = (Date.parse(m[2]!.replace(' ', 'T')) - Date.parse(m[1]!.replace(' ', 'T'))) / 86_400_000;
    assert.equal(days, 7, 'the latest 7-day window, from and to');
    assert.match(competitors!, /^ {4}competitors: Globex (\d+|—)%?$/);

    // The first run a week and more ago, a second run asking the same: the latest window says its
    // change; then a prompt added: the latest window asked something else and says so.
    const db = ctx.s.runtime.core.store.db;
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const runAgain = async () => {
      const again = await runCli(['projects', 'run', projectId, '--json'], { env });
      assert.equal(again.code, 0, again.err);
      await ctx.s.waitForRun(key, JSON.parse(again.out).runs[0].run_id);
    };
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('id', '=', JSON.parse(run.out).runs[0].run_id).execute();
    await runAgain();
    const compared = (await runCli(['projects', 'dashboard', projectId], { env })).out.split('\n');
    assert.match(compared[1]!, /share of voice \d+%$/, 'the first window: no change line');
    assert.match(compared[3]!, /mention rate 100% .*; ±0 pts from the window before$/);
    assert.match(compared[4]!, /^ {4}competitors: Globex (\d+%|—)( \([+−±]\d+ pts\))?$/);

    await db.updateTable('visibility_runs').set({ created_at: ago(16) }).where('id', '=', JSON.parse(run.out).runs[0].run_id).execute();
    await db.updateTable('visibility_runs').set({ created_at: ago(9) }).where('created_at', '>', ago(1)).execute();
    assert.equal((await runCli(['projects', 'prompts', projectId, '--text', 'anvil makers'], { env })).code, 0);
    await runAgain();
    const changed = (await runCli(['projects', 'dashboard', projectId], { env })).out.split('\n');
    assert.match(changed[5]!, /; no change: the window before asked something else$/);
  });
});
