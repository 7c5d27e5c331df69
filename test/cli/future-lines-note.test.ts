// The CLI says, after an upload's totals, when the log holds lines dated after now (a wrong time
// zone or clock): the lines are counted, but reports end now, as the console's upload summary says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FORMATTERS, futureLinesNote } from '../../src/cli/formatters.ts';

const now = Date.parse('2026-11-29T08:00:00Z');

test('a note only when the last line is over an hour after now', () => {
  assert.equal(futureLinesNote(null, now), '');
  assert.equal(futureLinesNote('2026-11-29T08:30:00.000Z', now), '');
  assert.match(futureLinesNote('2026-11-29T13:00:00.000Z', now), /dated after now \(up to 2026-11-29T13:00:00.000Z\).*time zone/);
});

test('the one-request upload answer carries the note', () => {
  const summary = { lines: 3, format: 'combined', ai_crawler_hits: 2, ai_referral_visits: 1, duplicates: 0, skipped: 0, from: '2026-11-28T00:00:00.000Z', to: '2099-01-01T00:00:00.000Z' };
  const human = (FORMATTERS['logs ingest']!.human as unknown as (d: typeof summary) => string)(summary);
  assert.match(String(human), /3 lines \(combined\)[\s\S]*dated after now/);
});
