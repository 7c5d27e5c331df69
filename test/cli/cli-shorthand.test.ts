// A project's brand, competitors and prompts are objects in the API; on the command line a bare
// word stands for the one field a person types first (the name, the prompt), a list's flag
// repeats, and JSON or @FILE still say everything. Run through the real bin against a real server.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, serverForCli } from '../helpers/cli.ts';

describe('CLI: a bare word for an object field with one required name', () => {
  const ctx = serverForCli();
  let env: Record<string, string>;
  before(async () => {
    const { key } = await ctx.s.account({ credits: 100 });
    env = { SIGHTLINE_API_URL: ctx.base, SIGHTLINE_API_KEY: key };
  });

  test('--brand Acme, repeated --competitors and --prompts make the objects', async () => {
    const res = await runCli(
      ['projects', 'create', '--url', 'https://acme.example/', '--brand', 'Acme', '--competitors', 'Globex', '--competitors', 'Initech Corp',
        '--platform', 'deepseek', '--prompts', 'best anvils', '--prompts', 'cheap anvils', '--json'],
      { env },
    );
    assert.equal(res.code, 0, res.err);
    const p = JSON.parse(res.out);
    assert.equal(p.brand.name, 'Acme');
    assert.deepEqual(p.competitors.map((c: { name: string }) => c.name), ['Globex', 'Initech Corp']);
    assert.deepEqual(p.prompts.map((x: { prompt: string }) => x.prompt).sort(), ['best anvils', 'cheap anvils']);
  });

  test('JSON and @FILE still carry the other fields, and mix with bare words in a list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sl-cli-'));
    writeFileSync(join(dir, 'brand.json'), JSON.stringify({ name: 'Acme', aliases: ['ACME Inc'], domains: ['acme.example'] }));
    const res = await runCli(
      ['projects', 'create', '--url', 'https://acme.example/', '--brand', `@${join(dir, 'brand.json')}`,
        '--competitors', '[{"name":"Globex","domains":["globex.example"]}]', '--competitors', 'Initech', '--platform', 'deepseek', '--json'],
      { env },
    );
    assert.equal(res.code, 0, res.err);
    const p = JSON.parse(res.out);
    assert.deepEqual(p.brand.aliases, ['ACME Inc']);
    assert.deepEqual(p.competitors.map((c: { name: string }) => c.name), ['Globex', 'Initech']);
    assert.deepEqual(p.competitors[0].domains, ['globex.example']);
  });

  test('a name that starts like JSON or a file is still a name', async () => {
    const res = await runCli(
      ['projects', 'create', '--url', 'https://acme.example/', '--brand', '[24]7.ai', '--competitors', '@Home', '--competitors', '3M',
        '--platform', 'deepseek', '--prompts', '"best CRM" for startups', '--json'],
      { env },
    );
    assert.equal(res.code, 0, res.err);
    const p = JSON.parse(res.out);
    assert.equal(p.brand.name, '[24]7.ai');
    assert.deepEqual(p.competitors.map((c: { name: string }) => c.name), ['@Home', '3M']);
    assert.deepEqual(p.prompts.map((x: { prompt: string }) => x.prompt), ['"best CRM" for startups']);
  });

  test('the help says what a bare word means; bad JSON is still an error', async () => {
    const help = await runCli(['projects', 'create', '--help'], { env });
    assert.match(help.out, /--brand <name\|json>/);
    assert.match(help.out, /a\s+prompt\s+\(repeat\s+for\s+more\),\s+JSON,\s+or\s+@FILE/);
    const bad = await runCli(['projects', 'create', '--url', 'https://acme.example/', '--brand', '{"name":', '--platform', 'deepseek'], { env });
    assert.notEqual(bad.code, 0);
    assert.match(bad.err, /not JSON/);
  });
});
