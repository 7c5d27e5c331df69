// The pages of docs/ generated from the code (configuration from the config schema, error codes
// from the registry) are committed as generated: these tests fail while one is stale, and say how
// to fix it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GENERATED_DOCS } from '../../scripts/docs/index.ts';
import { configKeys } from '../../src/config.ts';
import { ERROR_CODES } from '../../src/core/errors.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

for (const [file, render] of GENERATED_DOCS) {
  test(`${file} is what the code generates (run \`npm run docs:generate\` if not)`, () => {
    assert.equal(read(file), render(), `${file} is stale: run \`npm run docs:generate\` and commit it`);
  });
}

test('docs/configuration.md documents every variable of the config schema', () => {
  const page = read('docs/configuration.md');
  for (const key of configKeys()) assert.match(page, new RegExp(`^\\| \`${key}\` \\| .+ \\| .+ \\|$`, 'm'), key);
});

test('docs/errors.md lists every error code under its status', () => {
  const page = read('docs/errors.md');
  const sections = page.split(/^## /m).slice(1);
  for (const [code, { status }] of Object.entries(ERROR_CODES)) {
    const section = sections.find((s) => s.includes(`| \`${code}\` |`));
    assert.ok(section, `docs/errors.md lists ${code}`);
    assert.ok(section.startsWith(`${status}\n`), `${code} is listed under ${status}`);
  }
});
