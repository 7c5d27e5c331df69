// The `tests` user commands against a running server: list, show, history, pause, resume, run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN, serverForCli } from '../helpers/cli.ts';

const exec = promisify(execFile);

describe('user CLI: tests', () => {
  const srv = serverForCli();

  const cli = async (key: string, ...args: string[]) => {
    const r = await exec(process.execPath, [BIN, ...args, '--json'], { env: { ...process.env, SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key } }).catch((e) => e);
    return { code: (r.code as number | undefined) ?? 0, json: JSON.parse(r.stdout) };
  };

  test('list, show, history, pause, resume and run a tracked test', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const created = await srv.s.request('POST', '/v1/tests', {
      key,
      body: { test_type: 'ai_citations', definition: { url: 'https://acme.example', target_entity: 'Acme', prompts: ['anvils [[sandbox:mention]]'], platforms: ['openai'] } },
    });
    const id = created.json().id;
    const list = await cli(key, 'tests', 'list');
    assert.deepEqual(list.json.tests.map((t: any) => t.id), [id]);
    const ran = await cli(key, 'tests', 'run', id);
    assert.equal(ran.code, 0);
    assert.equal(ran.json.test_id, id);
    await srv.s.waitForRun(key, ran.json.run_id);
    const shown = await cli(key, 'tests', 'show', id);
    assert.deepEqual(shown.json.runs.map((r: any) => [r.run_id, r.overall_score, r.visibility_band]), [[ran.json.run_id, 1, 'Strong']]);
    const history = await cli(key, 'tests', 'history', id);
    assert.equal(history.json.points.length, 1);
    // In words: a visibility run reads as its mention rate; history names the latest change.
    const second = await cli(key, 'tests', 'run', id);
    await srv.s.waitForRun(key, second.json.run_id);
    const human = async (...args: string[]) => (await exec(process.execPath, [BIN, ...args], { env: { ...process.env, SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' } })).stdout;
    assert.match(await human('tests', 'show', id), new RegExp(`${ran.json.run_id}  completed +mention rate 100% Strong`));
    assert.match(await human('tests', 'history', id), /latest change \+0 points: within the noise/);
    assert.equal((await cli(key, 'tests', 'pause', id)).json.paused, true);
    assert.equal((await cli(key, 'tests', 'resume', id)).json.paused, false);
    assert.equal((await cli(key, 'tests', 'show', 'test_nope')).code, 5);
  });

  test('doctor checks the URL, the clock, the database, the version, the key and the platforms', async () => {
    const { key } = await srv.s.account({ credits: 3 });
    const ok = await cli(key, 'doctor');
    assert.equal(ok.code, 0);
    assert.equal(ok.json.ok, true);
    assert.deepEqual(ok.json.checks.map((c: any) => c.check), ['url', 'clock', 'database', 'server_version', 'api_key', 'platforms']);
    const bad = await cli('svc_api_live_' + 'y'.repeat(40), 'doctor');
    assert.equal(bad.code, 3);
    assert.equal(bad.json.checks.find((c: any) => c.check === 'api_key').ok, false);
  });
});
