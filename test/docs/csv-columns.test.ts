// The history CSV columns docs/concepts.md lists are the ones the export writes, in order, so the
// docs stay true when a column is added or renamed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HISTORY_CSV_COLUMNS } from '../../src/core/tracking/history.ts';
import { EXPORT_COLUMNS } from '../../src/core/visibility/export.ts';

const concepts = readFileSync(new URL('../../docs/concepts.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

test('docs list the history CSV columns as written', () => {
  const listed = /`format=csv` gives the series as rows \(columns (.*?)\); it leaves out/.exec(concepts);
  assert.ok(listed, 'the sentence listing the history CSV columns');
  const names = [...listed[1].replace(/ — .*? —/, '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
  assert.deepEqual(names, [...HISTORY_CSV_COLUMNS.ai_citations]);
});

test('docs name the run export columns that are easy to miss', () => {
  for (const c of ['citation_classes', 'first_mention_share', 'pawc', 'sentiment', 'recommended']) {
    assert.ok((EXPORT_COLUMNS as readonly string[]).includes(c), c);
    assert.ok(concepts.includes(`\`${c}\``), `docs/concepts.md names ${c}`);
  }
});
