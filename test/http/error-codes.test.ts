// The README's error-code table lists every code of the registry (src/core/errors.ts) under its
// HTTP status, so a new code cannot reach clients undocumented.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_CODES } from '../../src/core/errors.ts';

test('the README documents every error code under its status', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const rows = readme.split('\n').filter((l) => /^\| (\d{3})(, \d{3})* \| /.test(l));
  for (const [code, { status }] of Object.entries(ERROR_CODES)) {
    const row = rows.find((l) => l.includes(`\`${code}\``));
    assert.ok(row, `README lists ${code}`);
    assert.match(row.split('|')[1]!, new RegExp(`\\b${status}\\b`), `${code} is listed under ${status}`);
  }
});
