// The CLI in a pipeline (no terminal, stdout into jq): a usage error with --json still leaves one
// JSON document on stdout, as every other failure does; a project's prompts come from a CSV file
// or stdin (--text-file FILE or -), a byte order mark and CRLF lines included, past the size a
// single shell argument may have; an access log comes from stdin too (`logs ingest -`); a list
// prints its rows alone on stdout; an export with --json goes to --output, never mixed into stdout;
// the API's validation errors name the options.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, serverForCli } from '../helpers/cli.ts';

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

  describe('prompts from a file or stdin', () => {
    const srv = serverForCli();
    let dir = '';
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'sightline-prompts-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('projects prompts --text-file FILE or - reads a CSV (BOM, CRLF) whole; with --text it is a usage error', async () => {
      const { key } = await srv.s.account({ credits: 10 });
      const cli = (args: string[], input?: string) =>
        runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') }, input });
      const project = await cli(['projects', 'create', '--url', 'https://acme.example/', '--brand', 'Acme', '--platform', 'openai', '--json']);
      assert.equal(project.code, 0, project.err);
      const id = project.json.id as string;

      const csv = join(dir, 'prompts.csv');
      writeFileSync(csv, '\uFEFFprompt,topics\r\nbest anvils,tools;desert\r\n"anvil, heavy duty",tools\r\n\r\n');
      const fromFile = await cli(['projects', 'prompts', id, '--text-file', csv, '--format', 'csv', '--json']);
      assert.equal(fromFile.code, 0, fromFile.err);
      assert.deepEqual([fromFile.json.added, fromFile.json.prompt_count], [2, 2]);
      const shown = await cli(['projects', 'show', id, '--json']);
      assert.deepEqual(shown.json.prompts.map((p: { prompt: string; topics: string[] }) => [p.prompt, p.topics]).sort(), [
        ['anvil, heavy duty', ['tools']],
        ['best anvils', ['tools', 'desert']],
      ]);

      // 900 prompts of about 150 characters: more than one shell argument may hold (128 KiB).
      const rows = Array.from(
        { length: 900 },
        (_, i) =>
          `which heavy duty anvil supplier serves desert coyote hunting operations and logistics providers in the southwest before the coming winter season, number ${i}`,
      );
      const big = `\uFEFF${rows.join('\r\n')}\r\n`;
      assert.ok(Buffer.byteLength(big) > 128 * 1024);
      const piped = await cli(['projects', 'prompts', id, '--text-file', '-', '--topic', 'bulk', '--json'], big);
      assert.equal(piped.code, 0, piped.err);
      assert.deepEqual([piped.json.added, piped.json.prompt_count], [900, 902]);
      const listed = await cli(['projects', 'show', id, '--json']);
      assert.ok(
        listed.json.prompts.some((p: { prompt: string; topics: string[] }) => p.prompt === rows[0] && p.topics.includes('bulk')),
        `the first line is the prompt, without its byte order mark: ${JSON.stringify(listed.json.prompts.slice(0, 3))}`,
      );

      const both = await cli(['projects', 'prompts', id, '--text', 'x', '--text-file', csv, '--json']);
      assert.equal(both.code, 2);
      assert.match(both.json.message, /give --text or --text-file, not both/);
      const missing = await cli(['projects', 'prompts', id, '--text-file', join(dir, 'nope.csv'), '--json']);
      assert.equal(missing.code, 2);
      assert.match(missing.json.message, /cannot read .*nope\.csv/);
    });

    test('logs ingest - reads the access log from stdin (CRLF lines); not with --follow', async () => {
      const { key } = await srv.s.account({ credits: 10 });
      const cli = (args: string[], input?: string) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') }, input });
      const site = await cli(['sites', 'create', 'acme.example', '--json']);
      assert.equal(site.code, 0, site.err);
      const line = (i: number, agent: string) => `203.0.113.${i} - - [28/Nov/2026:10:00:0${i} +0000] "GET /p/${i} HTTP/1.1" 200 512 "-" "${agent}"\r\n`;
      const log = line(1, 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)') + line(2, 'Mozilla/5.0 (Windows NT 10.0) Chrome/120') + line(3, 'curl/8.0');
      const piped = await cli(['logs', 'ingest', '-', '--site', site.json.id, '--json'], log);
      assert.equal(piped.code, 0, piped.err);
      assert.equal(piped.json.lines, 3);
      assert.equal(piped.json.format, 'combined');
      assert.equal(piped.json.ai_crawler_hits, 1);
      const human = await cli(['logs', 'ingest', '-', '--site', site.json.id], log);
      assert.match(human.out, /^stdin → site_\S+: 3 lines \(combined\) in 1 request; 0 AI crawler hits, 0 AI referral visits, 1 duplicate, 0 skipped\n$/);
      const follow = await cli(['logs', 'ingest', '-', '--site', site.json.id, '--follow', '--json'], log);
      assert.equal(follow.code, 2);
      assert.match(follow.json.message, /--follow reads a growing file, not stdin/);
    });

    test('a list prints only its rows on stdout; empty or the next page is a note on stderr', async () => {
      const { key } = await srv.s.account({ credits: 10 });
      const cli = (...args: string[]) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') } });
      const none = await cli('visibility', 'list');
      assert.equal(none.code, 0, none.err);
      assert.equal(none.out, '');
      assert.match(none.err, /^no runs$/m);
      for (const [list, said] of [
        [['tests', 'list'], /^no tests$/m],
        [['webhooks', 'list'], /^no webhooks$/m],
        [['projects', 'list'], /^no projects$/m],
      ] as const) {
        const empty = await cli(...list);
        assert.equal(empty.code, 0, empty.err);
        assert.equal(empty.out, '', list.join(' '));
        assert.match(empty.err, said);
      }
      for (const prompt of ['best anvils', 'best hammers']) {
        const run = await cli('visibility', 'run', 'https://acme.example', '--brand', 'Acme', '--prompt', prompt, '--platform', 'openai');
        assert.equal(run.code, 0, run.err);
      }
      const page = await cli('visibility', 'list', '--limit', '1');
      assert.equal(page.code, 0, page.err);
      assert.match(page.out, /^vis_\S+ {2}\S+/);
      assert.equal(page.out.trimEnd().split('\n').length, 1, 'one row, nothing else');
      assert.match(page.err, /^more: --starting-after vis_\S+$/m);

      // An export with --json: a file is not one JSON document, unless it goes to --output.
      const id = page.out.split(' ')[0];
      const exported = await cli('visibility', 'export', id, '--format', 'jsonl', '--json');
      assert.equal(exported.code, 2, exported.err);
      assert.equal(JSON.parse(exported.out).error, 'usage_error');
      assert.match(exported.err, /the answer is a file \(application\/x-ndjson\), not one JSON document: add --output FILE/);
      const saved = await cli('visibility', 'export', id, '--format', 'jsonl', '--json', '--output', join(dir, 'run.jsonl'));
      assert.equal(saved.code, 0, saved.err);
      assert.equal(JSON.parse(saved.out).output, join(dir, 'run.jsonl'));
    });

    test('a JSON file (@FILE) saved with a byte order mark and CRLF is read', async () => {
      const { key } = await srv.s.account({ credits: 10 });
      const file = join(dir, 'definition.json');
      writeFileSync(file, '\uFEFF{"url": "https://acme.example",\r\n "target_entity": "Acme", "prompts": ["best anvils"], "platforms": ["openai"]}\r\n');
      const r = await runCli(['tests', 'estimate', '--test-type', 'ai_citations', '--definition', `@${file}`, '--json'], {
        env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') },
      });
      assert.equal(r.code, 0, r.err);
      assert.equal(r.json.probes_per_run, 1);
    });

    test("the API's validation errors name the CLI's options, not its field names", async () => {
      const { key } = await srv.s.account({ credits: 10 });
      const cli = (...args: string[]) => runCli(args, { env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') } });
      const many = join(dir, 'many.txt');
      writeFileSync(many, Array.from({ length: 2001 }, (_, i) => `prompt ${i}`).join('\n'));
      const tooMany = await cli('visibility', 'estimate', 'https://acme.example', '--brand', 'Acme', '--prompt-file', many, '--platform', 'openai', '--json');
      assert.equal(tooMany.code, 1, tooMany.err);
      assert.equal(tooMany.json.error, 'validation_error');
      assert.deepEqual(tooMany.json.detail[0].loc, ['body', 'prompts'], 'the detail keeps the API field');
      assert.match(tooMany.json.message, /^--prompt, --prompt-file: Too big: .*2000/);
      const inside = await cli('tests', 'create', '--test-type', 'ai_citations', '--definition', '{"url": "https://acme.example"}');
      assert.equal(inside.code, 1);
      assert.match(inside.err, /--definition \(definition\.target_entity\): /);
    });

    test('visibility estimate --prompt-file - reads the questions from stdin', async () => {
      const { key } = await srv.s.account({ credits: 10 });
      const r = await runCli(['visibility', 'estimate', 'https://acme.example', '--brand', 'Acme', '--prompt-file', '-', '--platform', 'openai', '--json'], {
        env: { SIGHTLINE_API_URL: srv.base, SIGHTLINE_API_KEY: key, SIGHTLINE_CONFIG: join(dir, 'c.json') },
        input: '\uFEFFbest anvils\r\nbest hammers\r\n',
      });
      assert.equal(r.code, 0, r.err);
      assert.equal(r.json.probe_count, 2);
    });
  });
});
