// The order of `npm test` (scripts/test-files.mjs): every test file once, the files listed in
// test/durations.tsv first, slowest first, the rest in path order; and the table names only
// files that exist, so a renamed slow file is not silently moved to the end.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { durations, order, testFiles } from '../../scripts/test-files.mjs';

test('slowest listed files first, the others after them in path order', () => {
  const seconds = durations('# a comment\n5\ttest/b.test.ts\n\n90\ttest/z.test.ts # the slowest\n');
  assert.deepEqual(
    [...seconds],
    [
      ['test/b.test.ts', 5],
      ['test/z.test.ts', 90],
    ],
  );
  const files = ['test/c.test.ts', 'test/z.test.ts', 'test/a.test.ts', 'test/b.test.ts'];
  assert.deepEqual(
    order(files, seconds).map(([f]) => f),
    ['test/z.test.ts', 'test/b.test.ts', 'test/a.test.ts', 'test/c.test.ts'],
  );
});

test('npm test gets every test file once, and the table lists only files that exist', () => {
  const files = testFiles();
  assert.ok(files.includes('test/scripts/test-files.test.ts'));
  const table = durations(readFileSync(new URL('../durations.tsv', import.meta.url), 'utf8'));
  assert.ok(table.size > 0);
  for (const file of table.keys()) assert.ok(files.includes(file), `${file} in test/durations.tsv is no test file`);
  const ordered = order(files, table).map(([f]) => f);
  assert.deepEqual([...ordered].sort(), [...files].sort());
});
