// The CLI says, after an upload's totals, when the log holds lines dated after now (a wrong time
// zone or clock). The server decides which lines those are, by its own clock (`future_lines`), so
// a CLI on a machine with another clock says the same; the lines are counted, but reports end now,
// as the console's upload summary says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FORMATTERS, futureLinesNote, tooOldLinesNote } from '../../src/cli/formatters.ts';

test('a note only when the server counted lines dated after now', () => {
  assert.equal(futureLinesNote(0, '2099-01-01T00:00:00.000Z'), '', 'the server decides: a late `to` alone says nothing');
  assert.equal(futureLinesNote(undefined, null), '');
  assert.match(futureLinesNote(1, '2026-11-29T13:00:00.000Z'), /1 line is dated after now \(up to 2026-11-29T13:00:00.000Z\).*time zone/);
  assert.match(futureLinesNote(3, '2026-11-29T13:00:00.000Z'), /^\n3 lines are dated after now/);
});

test('the one-request upload answer carries the note', () => {
  const summary = { lines: 3, format: 'combined', ai_crawler_hits: 2, ai_referral_visits: 1, duplicates: 0, skipped: 0, future_lines: 2, from: '2026-11-28T00:00:00.000Z', to: '2099-01-01T00:00:00.000Z' };
  const human = (FORMATTERS['logs ingest']!.human as unknown as (d: typeof summary) => string)(summary);
  assert.match(String(human), /3 lines \(combined\)[\s\S]*2 lines are dated after now/);
});

test('a note only when the server refused lines older than it keeps log line hashes', () => {
  assert.equal(tooOldLinesNote(0, '2020-01-01T00:00:00.000Z'), '');
  assert.equal(tooOldLinesNote(undefined, null), '');
  assert.match(tooOldLinesNote(1, '2024-01-01T00:00:00.000Z'), /^\n1 line is older than the server keeps log line hashes \(from 2024-01-01T00:00:00.000Z\)\. They are not counted/);
  const summary = { lines: 3, format: 'combined', ai_crawler_hits: 1, ai_referral_visits: 0, duplicates: 0, skipped: 0, future_lines: 0, too_old_lines: 2, from: '2024-01-01T00:00:00.000Z', to: '2026-11-28T00:00:00.000Z' };
  const human = (FORMATTERS['logs ingest']!.human as unknown as (d: typeof summary) => string)(summary);
  assert.match(String(human), /3 lines \(combined\)[\s\S]*2 lines are older than the server keeps log line hashes/);
});
