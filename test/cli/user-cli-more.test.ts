// The rest of the user commands against a running server (pages from a loopback fixture site),
// each with --json parsed and its human output: page serialize, visibility suggest-prompts,
// trends, ci score|run --watch|status|list, visibility probe and export (CSV to stdout, JSON Lines
// to --output), tests create|schedule|update|delete, reports by-url, activity with its cursor.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { FixtureServer } from '../helpers/fixture-server.ts';
import { serveFixtureSite } from '../http/content-sites.ts';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('user CLI: pages, content, exports, tracked tests, reports, activity', () => {
  let site: FixtureServer;
  let dir: string;
  let PAGE: string;
  before(async () => {
    site = await serveFixtureSite('acme-pm.test');
    dir = mkdtempSync(join(tmpdir(), 'sightline-cli-'));
    PAGE = site.url('/blog/project-management-guide');
  });
  after(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const srv = serverForCli(() => ({ SIGHTLINE_FETCH_ALLOW: `127.0.0.1:${site.port}` }));

  const as = (key: string) => (...args: string[]) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key } });

  test('page serialize, suggest-prompts, trends, ci score, ci run --watch, ci status and ci list', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const cli = as(key);
    const page = await cli('page', 'serialize', PAGE, '--max-chars', '200', '--json');
    assert.equal(page.code, 0, page.err);
    assert.equal(page.json.serialization.content_view_chars, 200);
    assert.equal(page.json.serialization.next_offset, 200);
    const next = await cli('page', 'serialize', PAGE, '--max-chars', '200', '--offset', '200');
    assert.match(next.out, /chars 200\.\.400 of \d+; more: --offset 400/);
    assert.equal((await cli('page', 'serialize', PAGE, '--max-chars', 'many')).code, 2, 'a non-integer is a usage error');

    const ideas = await cli('visibility', 'suggest-prompts', PAGE, '--brand', 'Acme', '--competitor', 'Globex', '--count', '5', '--json');
    assert.equal(ideas.code, 0, ideas.err);
    assert.equal(ideas.json.prompts.length, 5);
    assert.equal(ideas.json.brand, 'Acme');
    assert.equal(ideas.json.billing.credits, '1.00');

    const trends = await cli('trends', PAGE, '--max-trends', '3', '--json');
    assert.equal(trends.code, 0, trends.err);
    assert.equal(trends.json.trends.length, 3);
    const trendsHuman = await cli('trends', PAGE, '--max-trends', '3');
    assert.equal(trendsHuman.out.trim().split('\n').length, 4, 'a header and a line per trend');

    const score = await cli('ci', 'score', PAGE, '--trend', trends.json.trends[0].name, '--json');
    assert.equal(score.code, 0, score.err);
    assert.equal(score.json.trend_source, 'supplied');
    assert.equal(score.json.billing.credits, '2.00');
    assert.ok(Number.isInteger(score.json.overall_score));

    const run = await cli('ci', 'run', PAGE, '--watch', '--json');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.json.status, 'completed');
    assert.ok(Number.isInteger(run.json.overall_score));
    assert.match(run.err, /1\/1 analysis · completed/);
    const status = await cli('ci', 'status', run.json.run_id, '--include-result', '--json');
    assert.equal(status.json.run_id, run.json.run_id);
    assert.ok(status.json.result);
    const human = await cli('ci', 'status', run.json.run_id);
    assert.match(human.out, new RegExp(`run ${run.json.run_id} completed \\(score\\) .*score ${run.json.overall_score}`));
    const withResult = await cli('ci', 'status', run.json.run_id, '--include-result');
    assert.match(withResult.out, /page about .*\n {2}(high|medium|low) +\S/, 'the result: its summary and recommendations');
    const list = await cli('ci', 'list', '--limit', '5', '--json');
    assert.deepEqual(list.json.runs.map((r: any) => r.run_id), [run.json.run_id]);
    assert.equal((await cli('ci', 'run', PAGE, '--analysis-depth', 'deep')).code, 2, 'a value outside the choices is a usage error');
  });

  test('visibility probe and export: CSV to stdout, JSON Lines to --output', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const cli = as(key);
    const prompts = join(dir, 'prompts.txt');
    writeFileSync(prompts, 'best anvils, "heavy" [[sandbox:mention]]\n\nanvil makers [[sandbox:no-mention]]\n');
    const run = await cli('visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt-file', prompts, '--platform', 'openai', '--repeats', '2', '--watch', '--json');
    assert.equal(run.code, 0, run.err);
    assert.equal(run.json.probe_count, 4);
    const withProbes = await cli('visibility', 'status', run.json.run_id, '--include-probes', '--json');
    const probeId = withProbes.json.probes[0].probe_id;
    const probe = await cli('visibility', 'probe', run.json.run_id, probeId, '--json');
    assert.equal(probe.json.probe_id, probeId);
    assert.ok(probe.json.answer);
    const probeHuman = await cli('visibility', 'probe', run.json.run_id, probeId);
    assert.ok(probeHuman.out.includes(probe.json.answer), 'the full answer is printed');
    // Each brand with how the reader's rule read it.
    assert.match(probeHuman.out, /^ {2}Acme \(you\): (named|not named)( \(\w+ "[^"]*"(, ambiguous)?\))?/m);

    const csv = await cli('visibility', 'export', run.json.run_id);
    assert.equal(csv.code, 0, csv.err);
    const rows = parse(csv.out, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 4);
    assert.deepEqual([...new Set(rows.map((r) => r.prompt))].sort(), ['anvil makers [[sandbox:no-mention]]', 'best anvils, "heavy" [[sandbox:mention]]']);
    const file = join(dir, 'run.jsonl');
    const jsonl = await cli('visibility', 'export', run.json.run_id, '--format', 'jsonl', '--output', file, '--json');
    assert.equal(jsonl.code, 0, jsonl.err);
    const written = readFileSync(file, 'utf8');
    assert.deepEqual(jsonl.json, { output: file, bytes: Buffer.byteLength(written), content_type: 'application/x-ndjson; charset=utf-8' });
    assert.deepEqual(written.trim().split('\n').map((l) => JSON.parse(l).probe_id).sort(), withProbes.json.probes.map((p: any) => p.probe_id).sort());
    assert.equal((await cli('visibility', 'export', 'vis_nope', '--json')).code, 5);
  });

  test('tests create, schedule, update, delete; reports by-url; activity pages with --starting-after', async () => {
    const { key } = await srv.s.account({ credits: 20 });
    const cli = as(key);
    const definition = join(dir, 'definition.json');
    writeFileSync(definition, JSON.stringify({ url: 'https://acme.example/pricing', target_entity: 'Acme', prompts: ['anvils [[sandbox:mention]]'], platforms: ['openai'] }));
    const created = await cli('tests', 'create', '--test-type', 'ai_citations', '--name', 'Pricing', '--definition', `@${definition}`, '--cron', '0 6 * * 1', '--timezone', 'Europe/Berlin', '--budget', '50', '--json');
    assert.equal(created.code, 0, created.err);
    assert.deepEqual(created.json.schedule, { cron: '0 6 * * 1', timezone: 'Europe/Berlin' });
    assert.equal(created.json.monthly_credit_budget, '50.00');
    const id = created.json.id;
    const moved = await cli('tests', 'schedule', id, '--cron', '30 7 * * *', '--timezone', 'UTC', '--json');
    assert.deepEqual(moved.json.schedule, { cron: '30 7 * * *', timezone: 'UTC' });
    assert.equal(moved.json.monthly_credit_budget, '50.00', 'what is not given stays');
    const human = await cli('tests', 'schedule', id, '--budget', '20');
    assert.match(human.out, new RegExp(`${id} Pricing \\(ai_citations\\) https://acme.example/pricing, 30 7 \\* \\* \\* UTC, next \\S+, budget 0.00 of 20.00 credits this month`));
    const bad = await cli('tests', 'schedule', id, '--cron', 'every monday', '--json');
    assert.equal(bad.code, 1);
    assert.equal(bad.json.error, 'invalid_schedule');
    assert.equal((await cli('tests', 'schedule', id, '--no-schedule', '--cron', '0 6 * * 1')).code, 2, '--no-schedule and --cron exclude each other');
    const unscheduled = await cli('tests', 'schedule', id, '--no-schedule', '--json');
    assert.equal(unscheduled.json.schedule, null);
    const renamed = await cli('tests', 'update', id, '--name', 'Pricing page', '--json');
    assert.equal(renamed.json.name, 'Pricing page');
    const ran = await cli('tests', 'run', id, '--json');
    await srv.s.waitForRun(key, ran.json.run_id);

    const reports = await cli('reports', 'by-url', 'https://ACME.example/pricing/', '--json');
    assert.equal(reports.code, 0, reports.err);
    assert.deepEqual(reports.json.matches.map((m: any) => [m.test.id, m.runs.map((r: any) => r.run_id)]), [[id, [ran.json.run_id]]]);
    const reportsHuman = await cli('reports', 'by-url', 'https://acme.example/pricing');
    assert.match(reportsHuman.out, new RegExp(`${id} Pricing page \\(ai_citations\\)\\n  ${ran.json.run_id}  completed +mention rate \\d+% \\w+`));

    const deleted = await cli('tests', 'delete', id, '--json');
    assert.deepEqual(deleted.json, { id, deleted: true });
    assert.equal((await cli('tests', 'show', id)).code, 5);

    const first = await cli('activity', '--limit', '3', '--json');
    assert.equal(first.code, 0, first.err);
    assert.equal(first.json.items.length, 3);
    assert.equal(first.json.has_more, true);
    assert.equal(first.json.next_starting_after, first.json.items[2].id);
    const second = await cli('activity', '--limit', '3', '--starting-after', first.json.next_starting_after, '--json');
    assert.equal(second.json.items.length, 3);
    assert.ok(second.json.items.every((i: any) => i.id < first.json.items[2].id), 'the next page is older');
    const humanPage = await cli('activity', '--limit', '2', '--kind', 'reads');
    assert.match(humanPage.out, /^\S+ {2}200 {2}GET {4}activity\.read/m);
    assert.match(humanPage.err, /more: --starting-after act_/);
    assert.doesNotMatch(humanPage.out, /more:/, 'the next page is a note on stderr, not a row');
    const cursor = await cli('activity', '--starting-after', 'act_nope', '--json');
    assert.equal(cursor.code, 1);
    assert.equal(cursor.json.error, 'invalid_cursor');
    const kind = await cli('activity', '--kind', 'everything');
    assert.equal(kind.code, 2, 'a filter outside its values is a usage error, nothing is sent');
    assert.match(kind.err, /Allowed choices are all, visibility, content_intelligence, pages, reads/);
  });
});
