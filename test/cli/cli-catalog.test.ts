// The user CLI is derived from the one catalog of operations, like the HTTP routes, the MCP tools
// and the OpenAPI document: every operation has a command whose arguments and options are exactly
// its input fields; the committed table is what the catalog derives; every command has a typed
// human formatter; the commander program has what the table says; shell completion is generated
// from that program (bash completes through its own compgen); and the user commands load none of
// the engine, so they start fast and never open a database.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { OPERATIONS } from '../../src/operations/index.ts';
import { operationIdOf, type RouteSpec } from '../../src/operations/define.ts';
import { CLI_COMMANDS } from '../../src/cli/commands.gen.ts';
import { FORMATTERS } from '../../src/cli/formatters.ts';
import { buildProgram } from '../../src/cli/user.ts';
import { cliTableSource, inputFields } from '../../scripts/cli-table.ts';
import { runCli } from '../helpers/cli.ts';

const exec = promisify(execFile);
type AnyRoute = RouteSpec<never, never, never>;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function commandAt(program: Command, words: string[]): Command | undefined {
  let cmd: Command | undefined = program;
  for (const w of words) cmd = cmd?.commands.find((c) => c.name() === w);
  return cmd;
}

describe('user CLI derived from the catalog of operations', () => {
  test('the committed table (src/cli/commands.gen.ts) is what the catalog derives', () => {
    const committed = readFileSync(new URL('../../src/cli/commands.gen.ts', import.meta.url), 'utf8');
    assert.equal(committed, cliTableSource(), 'run npm run client:generate');
  });

  test('every operation has a command; its commands take exactly its input fields, as arguments, options or fixed values', () => {
    for (const route of OPERATIONS as unknown as AnyRoute[]) {
      const id = operationIdOf(route.action);
      const commands = CLI_COMMANDS.filter((c) => c.operationId === id);
      assert.ok(commands.length > 0, `${route.method} ${route.url} has no CLI command`);
      const fields = inputFields(route as never).map((f) => f.field).sort();
      const covered = new Set<string>();
      for (const c of commands) {
        assert.equal(c.method, route.method.toLowerCase());
        assert.equal(c.path, route.url.replace(/:([a-z_]+)/g, '{$1}'));
        const taken = [...c.args.map((a) => a.field), ...c.options.map((o) => o.field.split('.')[0]), ...Object.keys(c.fixed)];
        for (const f of taken) {
          assert.ok(fields.includes(f), `${c.command}: ${f} is no input field of ${id}`);
          covered.add(f);
        }
        const spec = [route.cli].flat().find((s) => s.command === c.command)!;
        if (!spec.fields) assert.deepEqual([...new Set(taken)].sort(), fields, `${c.command} takes every input field of ${id}`);
      }
      assert.deepEqual([...covered].sort(), fields, `the commands of ${id} together take every input field`);
    }
  });

  test('every command has a human formatter of its own operation, and no formatter is left over', () => {
    for (const c of CLI_COMMANDS) assert.equal(FORMATTERS[c.command]?.operationId, c.operationId, `${c.command} formats ${c.operationId}`);
    assert.deepEqual(Object.keys(FORMATTERS).sort(), CLI_COMMANDS.map((c) => c.command).sort());
  });

  test('the commander program has each command of the table with its arguments and options', () => {
    const program = buildProgram({ out: () => {}, err: () => {}, isTTY: false, env: {} }, '0.0.0', () => {});
    for (const c of CLI_COMMANDS) {
      const cmd = commandAt(program, c.command.split(' '));
      assert.ok(cmd, `${c.command} is a command`);
      assert.deepEqual(cmd.registeredArguments.map((a) => a.name()), c.args.map((a) => a.flag));
      const longs = cmd.options.map((o) => o.long);
      for (const o of c.options) {
        assert.ok(longs.includes(`--${o.flag}`), `${c.command} --${o.flag}`);
        if (o.file) assert.ok(longs.includes(`--${o.flag}-file`));
      }
      assert.ok(longs.includes('--json'));
    }
  });

  test('bash completion, generated from the program, completes commands, subcommands, options and their choices', async () => {
    const script = (await runCli(['completion', 'bash'])).out;
    const complete = async (...words: string[]) => {
      const line = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _sightline; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const { stdout } = await exec('bash', ['-c', line]);
      return stdout.split('\n').filter(Boolean).sort();
    };
    assert.deepEqual(await complete('sightline', 'vis'), ['visibility']);
    assert.deepEqual(await complete('sightline', 'visibility', 'ru'), ['run']);
    assert.deepEqual((await complete('sightline', 'ci', '')).filter((w) => !w.startsWith('-')), ['list', 'run', 'score', 'status']);
    assert.deepEqual(await complete('sightline', 'tests', 'schedule', 'test_1', '--c'), ['--cron']);
    assert.deepEqual(await complete('sightline', 'visibility', 'run', 'https://a.example', '--platform', 'cl'), ['claude']);
    assert.deepEqual(await complete('sightline', 'visibility', 'run', '--brand', 'tests', '--wa'), ['--watch'], 'an option value is not taken for a subcommand');
    assert.deepEqual(await complete('sightline', 'acc'), ['accounts'], 'operator commands complete too');
    assert.deepEqual(await complete('sightline', 'visibility', 'export', 'vis_1', '--format', ''), ['csv', 'jsonl'], 'a filter completes its values');
    assert.deepEqual((await complete('sightline', 'keys', '')).filter((w) => !w.startsWith('-')), ['create', 'revoke']);
    assert.deepEqual(await complete('sightline', 'keys', 'create', '--re'), ['--read-only']);
    const fish = (await runCli(['completion', 'fish'])).out;
    assert.match(fish, /__fish_seen_subcommand_from visibility; and __fish_seen_subcommand_from run' -l platform -x -a 'openai perplexity gemini grok claude deepseek google_ai_overview google_ai_mode copilot chatgpt_app'/);
    const zsh = (await runCli(['completion', 'zsh'])).out;
    assert.match(zsh, /^#compdef sightline/);
    assert.match(zsh, /bashcompinit/);
    assert.equal((await runCli(['completion', 'tcsh'])).code, 2);
  });

  test('the user commands import none of the engine (core, db, http, jobs, platforms) and open no database', async () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms)) visit(resolve(dirname(file), m[1]));
    };
    visit(join(ROOT, 'src/cli/main.ts'));
    const loaded = [...seen].map((f) => f.slice(ROOT.length));
    assert.ok(loaded.includes('src/cli/user.ts') && loaded.includes('src/client/index.ts'));
    assert.deepEqual(loaded.filter((f) => /^src\/(core|db|http|jobs|platforms|mcp|console)\//.test(f)), []);
    // The operator commands are imported only on demand (await import), never statically.
    assert.ok(!loaded.includes('src/cli/admin.ts'));

    const data = mkdtempSync(join(tmpdir(), 'sightline-nodb-'));
    try {
      for (const args of [['--version'], ['visibility', '--help'], ['usage', '--json']]) {
        await runCli(args, { env: { SIGHTLINE_DATA_DIR: data, DATABASE_URL: `sqlite:${join(data, 'x.db')}`, SIGHTLINE_API_URL: 'http://127.0.0.1:9', SIGHTLINE_API_KEY: 'svc_api_live_x' } });
      }
      assert.deepEqual(readdirSync(data), [], 'no database file was made');
      assert.equal(existsSync(join(data, 'x.db')), false);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
