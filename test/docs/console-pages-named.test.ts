// The quick starts name console pages the way the console's own navigation does: a new owner
// looking for "Runs" found no such tab (it is "Visibility"). Every "on the X page" or "under X" in
// bold in README.md and docs/getting-started.md must be a label of the main navigation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The main navigation's labels, read from the console's source (the operator's page included). */
function navLabels(): Set<string> {
  const main = read('src/console/public/js/main.js');
  return new Set([...main.matchAll(/\['\/console\/[\w-]+', '([^']+)'/g)].map((m) => m[1]!));
}

test('the quick starts call console pages by their navigation labels', () => {
  const labels = navLabels();
  assert.ok(labels.has('Visibility') && labels.has('Operator') && labels.has('API keys'), [...labels].join(', '));
  for (const file of ['README.md', 'docs/getting-started.md']) {
    const text = read(file).replace(/\s+/g, ' ');
    const named = [...text.matchAll(/under \*\*([^*]+)\*\*|on the \*\*([^*]+)\*\* page/g)].map((m) => (m[1] ?? m[2])!);
    assert.ok(named.length >= 3, `${file} names console pages: ${named.join(', ')}`);
    for (const name of named) assert.ok(labels.has(name), `${file}: "${name}" is not a console tab (${[...labels].join(', ')})`);
  }
});
