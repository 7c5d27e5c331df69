// toJson writes an answer that holds shared (kept) parts exactly as JSON.stringify would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdsShared, shareAnswer, toJson } from '../../src/core/freeze.ts';

test('an answer holding shared parts is written as JSON.stringify writes it', () => {
  const entry = shareAnswer({ prompt: 'best "crm"\n', rate: 0.5, ci: { low: 0.1, high: 0.9 }, list: [1, null, 'x'] });
  const open = { prompt: 'other', rate: null, gone: undefined };
  const byPrompt = holdsShared([entry, open, entry, undefined]);
  const summary = holdsShared({ mention_rate: 0.25, by_prompt: byPrompt, nested: { deep: [entry] }, skip: undefined, fn: () => 1 });
  const answer = holdsShared({ run_id: 'vis_1', status: 'running', summary, empty: holdsShared([]), 'odd "key"': 'é\u2028' });
  const expected = JSON.stringify(answer);
  assert.equal(toJson(answer), expected);
  assert.equal(toJson(answer), expected, 'the second time, from the kept text of the shared entry');
  assert.deepEqual(JSON.parse(toJson(answer)), JSON.parse(expected));
  assert.throws(() => {
    (entry as { rate: number }).rate = 1;
  }, TypeError);
});
