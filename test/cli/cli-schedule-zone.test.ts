// A schedule changed in part from the CLI keeps the rest: the API replaces `schedule` whole (its
// time zone defaults to UTC), so `projects update --cron` / `tests schedule --cron` fill the
// current zone, and `--timezone` alone keeps the current cron. Creating still needs --cron.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('CLI: a partial schedule change keeps the time zone or the cron', () => {
  const srv = serverForCli();
  const as = (key: string) => (...args: string[]) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, NO_COLOR: '1' } });

  test('projects update: --cron keeps the zone, --timezone alone keeps the cron', async () => {
    const { key } = await srv.s.account({ credits: 5 });
    const cli = as(key);
    const created = await cli('projects', 'create', '--name', 'Acme', '--url', 'https://acme.example/', '--brand', 'Acme', '--markets', 'en-US', '--platform', 'deepseek', '--prompts', 'best anvils', '--cron', '0 6 * * 1', '--timezone', 'America/New_York', '--json');
    assert.equal(created.code, 0, created.err);
    const id = created.json.id;
    assert.deepEqual(created.json.schedule, { cron: '0 6 * * 1', timezone: 'America/New_York' });

    const cron = await cli('projects', 'update', id, '--cron', '0 5 * * 1', '--json');
    assert.equal(cron.code, 0, cron.err);
    assert.deepEqual(cron.json.schedule, { cron: '0 5 * * 1', timezone: 'America/New_York' });
    const zone = await cli('projects', 'update', id, '--timezone', 'Europe/Berlin', '--json');
    assert.equal(zone.code, 0, zone.err);
    assert.deepEqual(zone.json.schedule, { cron: '0 5 * * 1', timezone: 'Europe/Berlin' });
    const both = await cli('projects', 'update', id, '--cron', '0 7 * * *', '--timezone', 'UTC', '--json');
    assert.deepEqual(both.json.schedule, { cron: '0 7 * * *', timezone: 'UTC' });
    const tests = (await srv.s.request('GET', '/v1/tests', { key })).json().tests;
    assert.equal(tests.length, 1);
    assert.deepEqual(tests[0].schedule, { cron: '0 7 * * *', timezone: 'UTC' }, "the project's test follows");

    // No schedule yet: a zone alone has no cron to keep; a cron alone is read in UTC.
    const unscheduled = await cli('projects', 'update', id, '--no-schedule', '--json');
    assert.equal(unscheduled.json.schedule, null);
    const lone = await cli('projects', 'update', id, '--timezone', 'Europe/Berlin');
    assert.equal(lone.code, 2);
    assert.match(lone.err, /--timezone needs --cron beside it: the project has no schedule to keep its cron from/);
    const fresh = await cli('projects', 'update', id, '--cron', '0 6 * * 1', '--json');
    assert.deepEqual(fresh.json.schedule, { cron: '0 6 * * 1', timezone: 'UTC' });
    // Creating has nothing to keep: --timezone still needs --cron.
    const create = await cli('projects', 'create', '--name', 'B', '--url', 'https://b.example/', '--brand', 'B', '--markets', 'en-US', '--platform', 'deepseek', '--timezone', 'Europe/Berlin');
    assert.equal(create.code, 2);
    assert.match(create.err, /--timezone needs --cron beside it/);
  });

  test('projects create, update and show say the schedule, budget and each market\'s next run they set', async () => {
    const { key } = await srv.s.account({ credits: 5 });
    const cli = as(key);
    const made = await cli('projects', 'create', '--url', 'https://acme.example/', '--brand', 'Acme', '--competitors', 'Globex', '--markets', 'en-US,de-DE',
      '--platform', 'deepseek', '--prompts', 'best anvils', '--cron', '0 6 * * 1', '--timezone', 'America/New_York');
    assert.equal(made.code, 0, made.err);
    assert.match(made.out, /^ {2}schedule: 0 6 \* \* 1 \(America\/New_York\); budget: none$/m);
    const id = made.out.split(' ')[0];
    const updated = await cli('projects', 'update', id, '--cron', '0 5 * * 1', '--budget', '120');
    assert.equal(updated.code, 0, updated.err);
    assert.match(updated.out, /^ {2}schedule: 0 5 \* \* 1 \(America\/New_York\); budget: 120\.00 credits a month$/m);
    assert.match(updated.out, /^ {2}en-US: next run \d{4}-\d\d-\d\d \d\d:\d\dZ, 0\.00 credits used this month$/m);
    assert.match(updated.out, /^ {2}de-DE: next run /m);
    const shown = await cli('projects', 'show', id);
    assert.match(shown.out, /^ {2}competitors: Globex\n {2}platforms: deepseek; 1 ask per prompt and platform$/m);
    assert.match(shown.out, /^prompts:\n {2}pp_\S+ {2}best anvils$/m);
    const empty = await cli('projects', 'create', '--url', 'https://empty.example/', '--brand', 'Emptyco', '--platform', 'deepseek', '--cron', '0 6 * * 1');
    assert.match(empty.out, /^ {2}en-US: no run scheduled: no prompts yet, 0\.00 credits used this month$/m);
    const off = await cli('projects', 'update', id, '--no-schedule');
    assert.match(off.out, /^ {2}schedule: none, runs only when started; budget: 120\.00 credits a month\n {2}en-US: runs when started/m);
  });

  test('tests schedule and tests update keep the zone; a key that cannot read the test is told to give both', async () => {
    const { accountId, key } = await srv.s.account({ credits: 5 });
    const cli = as(key);
    const definition = JSON.stringify({ url: 'https://acme.example/pricing', target_entity: 'Acme', prompts: ['anvils'], platforms: ['openai'] });
    const created = await cli('tests', 'create', '--test-type', 'ai_citations', '--definition', definition, '--cron', '0 6 * * 1', '--timezone', 'America/New_York', '--json');
    assert.equal(created.code, 0, created.err);
    const id = created.json.id;
    const moved = await cli('tests', 'schedule', id, '--cron', '0 5 * * 1', '--json');
    assert.deepEqual(moved.json.schedule, { cron: '0 5 * * 1', timezone: 'America/New_York' });
    const zoned = await cli('tests', 'update', id, '--timezone', 'Asia/Tokyo', '--json');
    assert.deepEqual(zoned.json.schedule, { cron: '0 5 * * 1', timezone: 'Asia/Tokyo' });
    assert.equal((await cli('tests', 'schedule', 'test_nope', '--cron', '0 5 * * 1', '--json')).code, 5);

    const writeOnly = as(await srv.s.key(accountId, { scopes: ['visibility:runs:create'] }));
    const refused = await writeOnly('tests', 'schedule', id, '--cron', '0 4 * * 1', '--json');
    assert.equal(refused.code, 3);
    assert.match(refused.json.message, /give --timezone too/);
    const whole = await writeOnly('tests', 'schedule', id, '--cron', '0 4 * * 1', '--timezone', 'Asia/Tokyo', '--json');
    assert.equal(whole.code, 0, whole.err);
    assert.deepEqual(whole.json.schedule, { cron: '0 4 * * 1', timezone: 'Asia/Tokyo' });
  });
});
